"""Quiz questions generated from the engine: random deals, bid by the bot, asked about.

Every answer and every explanation comes from the engine's meaning objects (never typed by
hand): ``meaning`` asks what a call of the auction means, ``which-call`` which call shows a
promise, ``your-call`` what to bid with a hand (every truthful legal call counts as right;
the bot's choice is preferred), ``partner-holds`` what a seat has promised (wrong choices
are statements that seat's real hand breaks, so they are provably not promised), and
``makeable`` whether the final contract makes, graded against the Monte Carlo estimate.
``makeable`` needs ``analyser.simulate`` and each one runs a yes/no double-dummy simulation
of 100 deals: it is in ``default_types(table)`` only where that takes under a second.
A seed reproduces a quiz.
"""
from __future__ import annotations

import random
from typing import Iterator, Sequence

from fiftysix.bidding import Auction, CallRecord, Meaning, get_system
from fiftysix.bidding.calls import DOUBLE, FORCED, MAX_BID, PASS, REDOUBLE, Call, format_call, parse_call
from fiftysix.cards import COPIES, NUM_SUITS, RANK_NAMES, SUIT_NAMES, Card, Deal, Hand, Table, random_deal
from fiftysix.constraints import Constraint, Count, fits, implies_all, rank_kinds, required_parts, suit_kinds
from fiftysix.errors import FiftySixError
from drills.banks import Bank
from drills.bots import DEFAULT_BOT, get_bot
from drills.questions import MAKEABLE_BANDS, Context, Question, makeable_bands, promise_text

N_CHOICES = 4
PER_DEAL = 2
"""Questions asked about one deal (of different types) before the next deal is bid."""
WINDOW = 8
"""Generated choices come from calls at most this many points above the call asked about."""
QUIET = (PASS, DOUBLE, REDOUBLE, FORCED)

DEFAULT_TYPES = ("meaning", "which-call", "your-call", "partner-holds")


FAST_MAKEABLE_PLAYERS = (4, 6)
"""Tables where a ``makeable`` question (a yes/no simulation of 100 deals) was measured at
under a second to generate, as a median scaled by DDS in the same run (bench/simulate.py,
2026-12-02: 4 players 6 DDS, max 11; 6 players 28 DDS, max 156; 1 s = 88 DDS). At 8 players
one takes tens of seconds."""


def default_types(table: Table | None = None) -> tuple[str, ...]:
    """The default mix: every type but ``makeable``, which runs a double-dummy simulation per
    question; it joins the mix for a ``table`` where that takes under a second."""
    if table is not None and table.players in FAST_MAKEABLE_PLAYERS:
        return DEFAULT_TYPES + ("makeable",)
    return DEFAULT_TYPES


def family_of(call: Call) -> str:
    """The call family a question drills: the call's form (``plus``, ``ns``, ``suit``...)."""
    return call.kind.replace("_", "-")


def replay(system: str, table: Table, calls: Sequence[Call]) -> Auction:
    """A fresh auction with these calls applied."""
    a = Auction(system=system, table=table)
    for c in calls:
        a.apply(c)
    return a


def auction_text(calls: Sequence[Call]) -> str:
    return " ".join(format_call(c) for c in calls)



def set_aside_note(set_aside) -> str:
    """Words for the promises the dealer set aside (a bluff or a mistake), or ""."""
    if not set_aside:
        return ""
    return " except " + "; ".join(f"{a.promise.describe()} (set aside: it {a.reason})" for a in set_aside)

CONTEXT_BOT = "rules"
"""The bot that bids the deals questions are cut from (truthful and fast)."""


class Generator:
    """Builds questions for one system and table from seeded random deals."""

    def __init__(self, system: str, table: Table, seed: int = 0, bot: str = DEFAULT_BOT) -> None:
        self.system, self.table, self.seed = system, table, seed
        self.bot = bot  # the bidding bot whose judgement gives the "your-call" answer
        self.rng = random.Random(seed)

    # --- deals ------------------------------------------------------------------------------

    def deals(self) -> Iterator[tuple[Deal, Auction]]:
        """Endless seeded deals, each bid by the fast ``rules`` bot: every call of it keeps its
        promise, which is all a question's auction needs; the judging bot (``self.bot``) is
        asked only for the call a "your-call" question is about (bidding every seat with it
        made a drill session take 40 s instead of 0.5 s at 6 players)."""
        k = 0
        while True:
            deal = random_deal(self.table, seed=self.seed * 100_003 + k)
            auction = get_bot(CONTEXT_BOT, self.seed * 7919 + k).bid(deal, self.system)
            k += 1
            yield deal, auction

    def context(self, seat: int, calls: Sequence[Call], hand: Hand | None = None) -> Context:
        t = self.table
        return Context(self.system, t.players, t.deck, t.teams, seat, auction_text(calls),
                       None if hand is None else str(hand))

    def _qid(self, n: int) -> str:
        t = self.table
        return f"{self.system}-{t.players}p{'-pairs' if t.teams == 'pairs' else ''}-s{self.seed}-{n:03d}"

    def _pick_call(self, auction: Auction) -> tuple[CallRecord, list[Call], Auction] | None:
        """A random informative call of the auction, the calls before it, and the auction then."""
        recs = [r for r in auction.calls if r.call.kind not in QUIET]
        if not recs:
            return None
        rec = self.rng.choice(recs)
        calls = [r.call for r in auction.calls[:rec.index - 1]]
        return rec, calls, replay(self.system, self.table, calls)

    def _near(self, options: list[tuple[Call, Meaning, int]], value: int | None, k: int) -> list[tuple[Call, Meaning]]:
        """``k`` of the (call, meaning, value) options, drawn from those nearest ``value``."""
        v0 = value or 28
        ranked = sorted(options, key=lambda o: (abs(o[2] - v0), format_call(o[0])))[:max(3 * k, 8)]
        return [(c, m) for c, m, _ in self.rng.sample(ranked, min(k, len(ranked)))]

    def _options(self, auction: Auction, around: int | None, hand: Hand | None = None) -> list[tuple[Call, Meaning, int]]:
        """Legal calls up to ``WINDOW`` above ``around``, with meaning and the value they would make."""
        top = min(MAX_BID, (around or auction.value or 28) + WINDOW)
        now = auction.value or 27
        return [(c, r.meaning, r.value if r.value is not None else now) for c, r in auction.readings(hand, top)]

    # --- the five types -----------------------------------------------------------------------

    def meaning(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """What does this call mean? Distractors: what other calls legal there would promise."""
        picked = self._pick_call(auction)
        if picked is None:
            return None
        rec, calls, before = picked
        right = before.meaning_of(rec.call)
        answer = promise_text(right)
        parts = required_parts(right.constraint)
        others: dict[str, tuple[Call, Meaning, int]] = {}
        for c, m, v in self._options(before, rec.value):
            if c == rec.call or c.kind in QUIET:
                continue
            text = promise_text(m)
            if text != answer and not implies_all(m.constraint, parts):
                others.setdefault(text, (c, m, v))
        if len(others) < 2:
            return None
        wrong = self._near(list(others.values()), rec.value, N_CHOICES - 1)
        choices = [answer] + [promise_text(m) for _, m in wrong]
        self.rng.shuffle(choices)
        expl = [f"{rec.call} here: {right.sentence}"]
        expl += [f"\"{promise_text(m)}\" is what {c} would promise ({m.label})." for c, m in wrong]
        fam = family_of(rec.call)
        return Question(qid, "meaning", self.context(rec.seat, calls),
                        f"Seat {rec.seat} calls {rec.call}. What does it promise?", tuple(choices), (answer,),
                        " ".join(expl), ("generated", self.system, fam), None, fam,
                        {"call": format_call(rec.call)})

    def which_call(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """Which call shows this? The promise of a call the bot made; every call promising it is right."""
        picked = self._pick_call(auction)
        if picked is None:
            return None
        rec, calls, before = picked
        target = promise_text(before.meaning_of(rec.call))
        right: list[Call] = []
        wrong: dict[str, tuple[Call, Meaning, int]] = {}
        for c, m, v in self._options(before, rec.value):
            if c.kind in (DOUBLE, REDOUBLE):
                continue
            if promise_text(m) == target:
                right.append(c)
            else:
                wrong.setdefault(promise_text(m), (c, m, v))
        if len(wrong) < 2:
            return None
        picks = self._near(list(wrong.values()), rec.value, N_CHOICES - 1)
        choices = [format_call(rec.call)] + [format_call(c) for c, _ in picks]
        self.rng.shuffle(choices)
        others = [format_call(c) for c in right if c != rec.call]
        expl = [f"{rec.call} promises {target} ({before.meaning_of(rec.call).sentence})"]
        if others:
            expl.append(f"So would {', '.join(others[:6])}{' and others' if len(others) > 6 else ''}.")
        expl += [f"{c} promises {promise_text(m)} instead." for c, m in picks]
        fam = family_of(rec.call)
        return Question(qid, "which-call", self.context(rec.seat, calls),
                        f"Seat {rec.seat} to call. Which call promises: {target}?", tuple(choices),
                        (format_call(rec.call),), " ".join(expl), ("generated", self.system, fam), None, fam,
                        {"meaning": target})

    def your_call(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """Your hand and the auction: the bot's call preferred, every truthful call right."""
        k = self.rng.randrange(len(auction.calls))
        rec = auction.calls[k]
        calls = [r.call for r in auction.calls[:k]]
        before = replay(self.system, self.table, calls)
        hand = deal.hand(rec.seat)
        choice = get_bot(self.bot, self.rng.randrange(1 << 30)).choose(before, hand)
        truthful: list[tuple[Call, Meaning, int]] = []
        broken: dict[Call, tuple[Meaning, int, tuple[str, ...]]] = {}
        for c, m, v in self._options(before, choice.call.value or before.value, hand):
            f = fits(hand, m.constraint)
            if f:
                truthful.append((c, m, v))
            elif c.kind not in (DOUBLE, REDOUBLE):
                broken[c] = (m, v, f.broken)
        if not choice.truthful or choice.call not in [c for c, _, _ in truthful] or len(broken) < 2:
            return None
        also = [o for o in truthful if o[0] != choice.call and o[0].kind not in (DOUBLE, REDOUBLE)]
        shown_right = [choice.call] + [c for c, _ in self._near(also, before.value, 1)]
        wrong = [c for c, _ in self._near([(c, m, v) for c, (m, v, _) in broken.items()], before.value,
                                           N_CHOICES - len(shown_right))]
        choices = [format_call(c) for c in shown_right + wrong]
        self.rng.shuffle(choices)
        m = before.meaning_of(choice.call)
        expl = [f"Best: {choice.call} ({m.label}): {choice.reason}."]
        for c in shown_right[1:]:
            expl.append(f"{c} ({before.meaning_of(c).label}) is also true of your hand, so it counts too.")
        for c in wrong:
            bm, _, why = broken[c]
            expl.append(f"{c} would promise {promise_text(bm)}; your hand breaks: {'; '.join(why)}.")
        fam = family_of(choice.call)
        return Question(qid, "your-call", self.context(rec.seat, calls, hand),
                        f"You are seat {rec.seat}, to call. What does the system bid with your hand?",
                        tuple(choices), tuple(format_call(c) for c in shown_right), " ".join(expl),
                        ("generated", self.system, fam), format_call(choice.call), fam, {})

    def partner_holds(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """What must a seat hold? The answer is a part of that seat's promises; the wrong
        choices are statements its real hand breaks, so the auction cannot promise them."""
        calls = [r.call for r in auction.calls]
        k = self.rng.randrange(1, len(calls) + 1)
        prefix = replay(self.system, self.table, calls[:k])
        promises = prefix.seat_constraints()
        seats = [s for s in self.table.seats if _informative(promises.get(s))]
        if not seats:
            return None
        about = self.rng.choice(seats)
        learner = (self.table.partners(about) or (about,))[0]
        answer = self.rng.choice(_informative(promises[about]))
        hand = deal.hand(about)
        wrong = [c for c in _statements(self.table) if not fits(hand, c) and c.describe() != answer.describe()]
        if len(wrong) < N_CHOICES - 1:
            return None
        picked = self.rng.sample(wrong, N_CHOICES - 1)
        statements = {c.describe(): c.to_dict() for c in [answer] + picked}
        if len(statements) != N_CHOICES:
            return None
        choices = list(statements)
        self.rng.shuffle(choices)
        made = [r for r in prefix.calls if r.seat == about and r.call.kind not in QUIET]
        fam = family_of(made[-1].call) if made else "pass"
        expl = (f"Seat {about}'s calls ({', '.join(str(r.call) for r in made) or 'passes only'}) promise: "
                f"{promises[about].describe()}. So this is certain about seat {about}: {answer.describe()}."
                f" The other statements are not promised: seat {about}'s calls allow hands without them.")
        who = "your partner, seat" if about in self.table.partners(learner) else "seat"
        return Question(qid, "partner-holds", self.context(learner, calls[:k]),
                        f"After this auction, what must {who} {about} hold?", tuple(choices),
                        (answer.describe(),), expl, ("generated", self.system, fam), None, fam,
                        {"about_seat": about, "answer_constraint": answer.to_dict(),
                         "statements": statements, "witness": str(hand)})

    def makeable(self, deal: Deal, auction: Auction, qid: str, samples: int = 100) -> Question | None:
        """Will the final contract make? Graded against the Monte Carlo estimate's interval."""
        from analyser.simulate import estimate_from_auction
        contract = auction.contract
        if contract is None:
            return None
        seat = contract.declarer
        calls = [r.call for r in auction.calls]
        hand = deal.hand(seat)
        est = estimate_from_auction(self.table, self.system, seat, hand, auction_text(calls), contract,
                                    n=samples, seed=self.rng.randrange(1 << 30), leads=False, points=False)
        lo, hi = est.interval
        answers = makeable_bands(lo, hi)
        return Question(qid, "makeable", self.context(seat, calls, hand),
                        f"You are seat {seat}, and your side plays {contract}. How often does it make"
                        " double-dummy, given your hand and the auction?",
                        MAKEABLE_BANDS, answers,
                        f"Simulated over {est.deals} deals consistent with your hand and every call's"
                        f" promise{set_aside_note(est.set_aside)}: {contract} makes on {est.rate:.0%} of"
                        f" them (95% interval {lo:.0%} to {hi:.0%}), so {', '.join(answers)} counts as right.",
                        ("generated", self.system, "makeable"), None, "contract",
                        {"contract": str(contract), "declarer": seat, "estimate": est.rate,
                         "interval": [lo, hi], "deals": est.deals,
                         "set_aside": [a.to_dict() for a in est.set_aside]})

    # --- driving ---------------------------------------------------------------------------------

    def questions(self, n: int, types: Sequence[str] | None = None) -> list[Question]:
        """``n`` questions, types taken in turn from ``types`` (default: every available type)."""
        types = tuple(types or default_types())
        makers = self._makers(types)
        out: list[Question] = []
        seen: set = set()
        tries = 0
        deals = self.deals()
        while len(out) < n:
            deal, auction = next(deals)
            for _ in range(PER_DEAL):  # a deal serves a few questions: bidding it is the slow part
                tries += 1
                if tries > 50 * n + 50:
                    raise FiftySixError(f"could only make {len(out)} of {n} questions for {self.system}")
                if len(out) >= n or not auction.calls:
                    break
                q = makers[types[len(out) % len(types)]](deal, auction, self._qid(len(out) + 1))
                if q is None:
                    break
                if (q.type, q.prompt, q.context) in seen:  # the same question from the same deal
                    continue
                seen.add((q.type, q.prompt, q.context))
                out.append(q)
        return out


    def questions_for(self, ideas: Sequence[str], max_deals: int = 40) -> list[Question]:
        """Fresh questions of the given ideas (``Question.template`` keys of this system and
        table), one per idea, from new deals: a due idea comes back as a new question, not
        the one answered before. Ideas that ``max_deals`` deals do not produce are left out."""
        makers = self._makers(())
        wanted = [k for k in dict.fromkeys(ideas) if k.split("/", 1)[0] in makers]
        found: dict[str, Question] = {}
        deals = self.deals()
        for _ in range(max_deals if wanted else 0):
            deal, auction = next(deals)
            if not auction.calls:
                continue
            for qtype in dict.fromkeys(k.split("/", 1)[0] for k in wanted if k not in found):
                for _try in range(PER_DEAL):
                    q = makers[qtype](deal, auction, f"{self._qid(len(found) + 1)}-fresh")
                    if q is not None and q.template in wanted and q.template not in found:
                        found[q.template] = q
                        break
            if len(found) == len(wanted):
                break
        return [found[k] for k in wanted if k in found]

    def _makers(self, types: Sequence[str]) -> dict:
        """The question makers by type; checks that ``types`` are known and can be made."""
        makers = {"meaning": self.meaning, "which-call": self.which_call, "your-call": self.your_call,
                  "partner-holds": self.partner_holds, "makeable": self.makeable}
        for t in types:
            if t not in makers:
                raise FiftySixError(f"unknown question type {t!r}: use {', '.join(makers)}")
        return makers


def generate(system: str, players: int = 6, n: int = 10, seed: int = 0, types: Sequence[str] | None = None,
             deck: int | None = None, teams: str = "alternate", bot: str = DEFAULT_BOT) -> list[Question]:
    """``n`` questions for a system and table; the same arguments give the same questions."""
    return Generator(system, Table.make(players, deck, teams), seed, bot).questions(n, types)


def fill_question(d: dict) -> dict:
    """Fill in what a coach left blank (prompt, choices, answers, explanation) from the engine,
    for ``meaning`` and ``which-call`` (give ``data.call``) and ``your-call`` (give the hand).

    ``d`` is a question dict (docs/banks.md) whose context is complete; the seat becomes the
    seat to call. Choices already given are kept. Returns ``d``.
    """
    ctx = Context.from_dict(d.get("context", {}))
    table = ctx.check_table()
    auction = Auction.parse(ctx.auction, ctx.system, table)
    qtype = d.get("type")
    if qtype == "makeable":
        return _fill_makeable(d, ctx, table, auction)
    if qtype == "partner-holds":
        return _fill_partner_holds(d, ctx, table, auction)
    if auction.is_over:
        raise FiftySixError("the auction is over: there is no call to ask about")
    if d.get("choices") and d.get("answers"):
        if not d.get("prompt"):
            d["prompt"] = _default_prompt(d, auction.to_move)
        return d
    given = list(d.get("choices") or [])
    seat = auction.to_move
    d["context"] = {**ctx.to_dict(), "seat": seat}
    gen = Generator(ctx.system, table, seed=0)
    data = d.setdefault("data", {})
    if qtype in ("meaning", "which-call"):
        if not data.get("call"):
            raise FiftySixError(f"give the call asked about (data.call) so the engine can fill in a {qtype} question")
        call = parse_call(data["call"])
        rule = auction.check(call)
        if rule is not None:
            raise FiftySixError(f"{format_call(call)} cannot be called here: {rule}")
        right = auction.meaning_of(call)
        answer = promise_text(right)
        value = auction.system.interpret(auction.state, seat, call).value or auction.value
        others: dict[str, tuple[Call, Meaning, int]] = {}
        for c, m, v in gen._options(auction, value):
            if c.kind not in QUIET and promise_text(m) != answer and not implies_all(
                    m.constraint, required_parts(right.constraint)):
                others.setdefault(promise_text(m), (c, m, v))
        near = sorted(others.values(), key=lambda o: (abs(o[2] - (value or 28)), format_call(o[0])))[:N_CHOICES - 1]
        if qtype == "meaning":
            d["prompt"] = d.get("prompt") or f"Seat {seat} calls {format_call(call)}. What does it promise?"
            d["choices"] = [answer] + [promise_text(m) for _, m, _ in near]
            d["answers"] = [answer]
        else:
            d["prompt"] = d.get("prompt") or f"Seat {seat} to call. Which call promises: {answer}?"
            d["choices"] = [format_call(call)] + [format_call(c) for c, _, _ in near]
            d["answers"] = [format_call(call)]
            data["meaning"] = answer
        d["explanation"] = d.get("explanation") or " ".join(
            [f"{format_call(call)} here: {right.sentence}"]
            + [f"{format_call(c)} would promise {promise_text(m)}." for c, m, _ in near])
    elif qtype == "your-call":
        if ctx.hand is None:
            raise FiftySixError("give the learner's hand so the engine can find the truthful calls")
        hand = Hand.parse(ctx.hand)
        best = get_bot(DEFAULT_BOT, 0).choose(auction, hand)
        truthful, wrong = [], []
        for c, m, v in gen._options(auction, best.call.value or auction.value, hand):
            (truthful if fits(hand, m.constraint) else wrong).append((c, m, v))
        wrong.sort(key=lambda o: (abs(o[2] - (auction.value or 28)), format_call(o[0])))
        also = [c for c, _, _ in truthful if c != best.call and c.kind not in (DOUBLE, REDOUBLE)][:1]
        shown = [best.call] + also + [c for c, _, _ in wrong if c.kind not in (DOUBLE, REDOUBLE)][:N_CHOICES - 1 - len(also)]
        d["prompt"] = d.get("prompt") or f"You are seat {seat}, to call. What does the system bid with your hand?"
        d["choices"] = [format_call(c) for c in shown]
        d["answers"] = [format_call(c) for c in [best.call] + also]
        d["preferred"] = format_call(best.call)
        d["explanation"] = d.get("explanation") or f"Best: {best.call} ({auction.meaning_of(best.call).label}): {best.reason}."
    else:
        raise FiftySixError(f"write the choices and the answer of a {qtype} question yourself;"
                            " the engine then checks them")
    if given:
        _keep_given_choices(d, given, qtype)
    return d


def _default_prompt(d: dict, seat: int | None) -> str:
    """The prompt the engine writes for a question whose choices and answers are given."""
    data = d.get("data") or {}
    qtype = d.get("type")
    if qtype == "meaning":
        return f"Seat {seat} calls {data.get('call', '?')}. What does it promise?"
    if qtype == "which-call":
        return f"Seat {seat} to call. Which call promises: {data.get('meaning') or d['answers'][0]}?"
    if qtype == "your-call":
        return f"You are seat {seat}, to call. What does the system bid with your hand?"
    if qtype == "partner-holds":
        return f"After this auction, what must seat {data.get('about_seat', '?')} hold?"
    return "Will the contract make?"


def _keep_given_choices(d: dict, given: list[str], qtype: str | None) -> None:
    """The coach wrote the choices but left the answer to the engine: keep the coach's
    choices, and take as answers those the engine counts as right (one at least)."""
    def key(t: str) -> str:
        if qtype in ("which-call", "your-call"):
            try:
                return format_call(parse_call(t))
            except FiftySixError:
                return " ".join(t.split()).lower()
        return " ".join(t.split()).lower()

    right = {key(a) for a in d["answers"]}
    answers = [c for c in given if key(c) in right]
    if not answers:
        raise FiftySixError(f"none of your choices is right: the engine's answer is {' or '.join(d['answers'])};"
                            " add it to the choices or leave the choices blank")
    d["choices"] = given
    d["answers"] = answers
    if d.get("preferred") and d["preferred"] not in answers:
        d.pop("preferred")


def _fill_partner_holds(d: dict, ctx: Context, table: Table, auction: Auction) -> dict:
    """``partner-holds``: the seat asked about (``data.about_seat``) must have promised
    something; the answer is one statement its calls imply, the wrong choices plain
    statements its calls do not imply. Choices the coach wrote must be statements the
    engine can read (those of the list it offers)."""
    data = d.setdefault("data", {})
    about = data.get("about_seat")
    if not isinstance(about, int) or not 1 <= about <= table.players:
        raise FiftySixError(f"give the seat asked about (1 to {table.players}) for a partner-holds question")
    promised = auction.seat_constraints().get(about)
    parts = _informative(promised)
    if not parts:
        raise FiftySixError(f"seat {about} has promised nothing in this auction: there is nothing it must hold")
    known = {c.describe(): c for c in parts + _statements(table)}
    given = list(d.get("choices") or [])
    if given:
        unknown = [c for c in given if c not in known]
        if unknown:
            raise FiftySixError(f"the engine cannot read {unknown[0]!r}; write statements such as: "
                                + "; ".join(sorted({p.describe() for p in parts})[:3] + [_statements(table)[0].describe()]))
        statements = {c: known[c] for c in given}
    else:
        wrong = [c for c in _statements(table) if not implies_all(c, required_parts(promised))]
        rng = random.Random(f"{ctx.auction}|{about}")
        picked = rng.sample(wrong, min(N_CHOICES - 1, len(wrong)))
        statements = {c.describe(): c for c in [parts[0]] + picked}
    promised_now = [t for t, c in statements.items() if implies_all(c, required_parts(promised))]
    answers = [a for a in (d.get("answers") or []) if a in statements] or promised_now
    if not answers:
        raise FiftySixError(f"none of the choices is promised by seat {about}'s calls"
                            f" ({promised.describe()}); add one that is")
    d["choices"] = list(statements)
    d["answers"] = answers
    data["answer_constraint"] = statements[answers[0]].to_dict()
    data["statements"] = {t: c.to_dict() for t, c in statements.items()}
    d["prompt"] = d.get("prompt") or f"After this auction, what must seat {about} hold?"
    d["explanation"] = d.get("explanation") or (f"Seat {about}'s calls promise: {promised.describe()}."
                                                f" So this is certain: {', '.join(answers)}.")
    return d


def _fill_makeable(d: dict, ctx: Context, table: Table, auction: Auction) -> dict:
    """``makeable``: the auction must be over (its contract is asked about) and the hand of
    the seat asked about given. The coach may give the estimate's interval
    (``data.interval`` [low, high]); without it the engine simulates ``data.deals`` deals
    (default 30) from that seat's view. Choices are the four bands."""
    if not auction.is_over or auction.contract is None:
        raise FiftySixError("a makeable question asks about the final contract: give an auction that has ended")
    if ctx.hand is None:
        raise FiftySixError("give the hand of the seat asked about (the contract is judged from its view)")
    contract = auction.contract
    data = d.setdefault("data", {})
    iv = data.get("interval")
    if not (isinstance(iv, (list, tuple)) and len(iv) == 2):
        from analyser.simulate import estimate_from_auction
        deals = int(data.get("deals") or 30)
        est = estimate_from_auction(table, ctx.system, ctx.seat, Hand.parse(ctx.hand), ctx.auction, contract,
                                    n=deals, seed=0, leads=False)
        iv = [est.interval[0], est.interval[1]]
        data.update({"estimate": est.rate, "deals": est.deals})
    lo, hi = float(iv[0]), float(iv[1])
    if not 0 <= lo <= hi <= 1:
        raise FiftySixError(f"the estimate's interval must run low to high within 0 to 1, not {lo} to {hi}")
    data.update({"contract": str(contract), "declarer": contract.declarer, "interval": [lo, hi]})
    data.setdefault("estimate", (lo + hi) / 2)
    d["choices"] = list(MAKEABLE_BANDS)
    d["answers"] = list(makeable_bands(lo, hi))
    d["prompt"] = d.get("prompt") or (f"You are seat {ctx.seat}, and {contract} by seat {contract.declarer}"
                                      " is the contract. How often does it make double-dummy?")
    d["explanation"] = d.get("explanation") or (f"{contract} makes on {lo:.0%} to {hi:.0%} of the deals that fit"
                                                f" the hand and the auction, so {', '.join(d['answers'])}"
                                                " counts as right.")
    return d


# --- helpers -------------------------------------------------------------------------------------

def _informative(c: Constraint | None) -> list[Count]:
    """The required counts of a constraint that say something (a lower or an upper bound)."""
    return [p for p in required_parts(c) if p.lo > 0 or p.hi < COPIES * len(p.kinds)]


def _statements(table: Table) -> list[Count]:
    """Plain statements about a hand: Jacks and Nines held, suit lengths, voids, Jacks overall."""
    ranks = table.deck // 8
    out: list[Count] = []
    for s in range(NUM_SUITS):
        name = SUIT_NAMES[s]
        kinds = tuple(k for k in suit_kinds(s) if k % 8 < ranks)
        jack, nine = Card.make(s, 0), Card.make(s, 1)
        out += [Count((jack,), 1, 99, f"holds a Jack of {name}"),
                Count((jack,), 2, 99, f"holds both Jacks of {name}"),
                Count((nine,), 1, 99, f"holds a {RANK_NAMES[1]} of {name}"),
                Count(kinds, 3, 99, f"at least 3 {name}"),
                Count(kinds, 4, 99, f"at least 4 {name}"),
                Count(kinds, 0, 0, f"no {name}"),
                Count(kinds, 1, 1, f"exactly one {name[:-1]}")]
    out += [Count(rank_kinds(0), n, 99, f"at least {n} Jacks") for n in (2, 3)]
    return out


def make_bank(system: str, players: Sequence[int] = (6,), n: int = 30, seed: int = 1,
              types: Sequence[str] | None = None, title: str | None = None,
              author: str = "fiftysix generator") -> Bank:
    """A bank of ``n`` generated questions per table size (ids say system, table and seed)."""
    sysobj = get_system(system)
    questions: list[Question] = []
    for p in players:
        questions += Generator(sysobj.name, Table.make(p), seed).questions(n, types)
    tables = ", ".join(f"{p} players" for p in players)
    return Bank(title or f"{getattr(sysobj, 'title', '') or sysobj.name}: starter questions",
                sysobj.name, tuple(questions), author,
                f"Generated from random deals bid by the bot (seed {seed}; {tables}) and checked by"
                " `fiftysix bank check`.")
