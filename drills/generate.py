"""Quiz questions generated from the engine: random deals, bid by the bot, asked about.

Every answer and every explanation comes from the engine's meaning objects (never typed by
hand): ``meaning`` asks what a call of the auction means, ``which-call`` which call shows a
promise, ``your-call`` what to bid with a hand (every truthful legal call counts as right;
the bot's choice is preferred), ``partner-holds`` what a seat has promised (wrong choices
are statements that seat's real hand breaks, so they are provably not promised), and
``makeable`` whether the final contract makes, graded against the Monte Carlo estimate.
``makeable`` needs ``analyser.simulate`` and each one runs a yes/no double-dummy simulation
of 100 deals: it is in ``default_types(table)`` only where that takes under a second.
A seed reproduces a quiz. ``Generator.fill`` writes the blanks of a coach's question with the
same code that writes a generated one.
"""
from __future__ import annotations

import random
from collections.abc import Collection, Iterator, Mapping, Sequence

from fiftysix.bidding import Auction, CallRecord, Meaning, get_system
from fiftysix.bidding.calls import DOUBLE, FORCED, MAX_BID, PASS, REDOUBLE, Call, format_call, parse_call
from fiftysix.bots import DEFAULT_BOT, get_bot
from fiftysix.cards import COPIES, NUM_SUITS, RANK_NAMES, SUIT_NAMES, Card, Deal, Hand, Table, random_deal
from fiftysix.constraints import Constraint, Count, fits, implies_all, rank_kinds, required_parts, suit_kinds
from fiftysix.drills.banks import Bank
from fiftysix.drills.questions import MAKEABLE_BANDS, Context, Question, call_key, fold, makeable_bands, promise_text
from fiftysix.errors import FiftySixError
from fiftysix.scoring import Contract

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
    """Calls in the auction notation, e.g. ``28H P +1H``."""
    return " ".join(format_call(c) for c in calls)


def set_aside_note(set_aside) -> str:
    """Words for the promises the dealer set aside (a bluff or a mistake), or ""."""
    if not set_aside:
        return ""
    return " except " + "; ".join(f"{a.promise.describe()} (set aside: it {a.reason})" for a in set_aside)


CONTEXT_BOT = "rules"
"""The bot that bids the deals questions are cut from (truthful and fast)."""

PROMPTS = {
    "meaning": "Seat {seat} calls {call}. What does it promise?",
    "which-call": "Seat {seat} to call. Which call promises: {meaning}?",
    "your-call": "You are seat {seat}, to call. What does the system bid with your hand?",
    "partner-holds": "After this auction, what must {who} {about} hold?",
    "makeable": "You are seat {seat}, and {who} {contract}. How often does it make double-dummy, given your"
                " hand and the auction?",
}
"""The prompt of each question type, generated or filled in."""


def distractors(options: Sequence[tuple[Call, Meaning, int]], answer: Meaning, skip: Collection[str] = QUIET,
                strict: bool = False) -> list[tuple[Call, Meaning, int]]:
    """The (call, meaning, value) options that make wrong choices against ``answer``: calls not
    of the ``skip`` kinds whose promise reads differently, one per promise (the first in the
    system's order). ``strict`` also leaves out promises that ``answer`` implies: they are true
    of every hand that keeps it, so not wrong answers to "what does it promise?"."""
    text = promise_text(answer)
    parts = required_parts(answer.constraint) if strict else []
    out: dict[str, tuple[Call, Meaning, int]] = {}
    for c, m, v in options:
        if c.kind in skip:
            continue
        t = promise_text(m)
        if t != text and not (strict and implies_all(m.constraint, parts)):
            out.setdefault(t, (c, m, v))
    return list(out.values())


class Generator:
    """Builds questions for one system and table from seeded random deals, and fills in the
    blanks of a coach's question (``fill``) the same way."""

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
        return Context(system=self.system, players=t.players, deck=t.deck, teams=t.teams, seat=seat,
                       auction=auction_text(calls), hand=None if hand is None else str(hand))

    def _qid(self, n: int) -> str:
        t = self.table
        return f"{self.system}-{t.players}p{'-pairs' if t.teams == 'pairs' else ''}-s{self.seed}-{n:03d}"

    def _pick_call(self, auction: Auction) -> tuple[Auction, list[Call], CallRecord] | None:
        """The auction before a random informative call of ``auction``, the calls before it, and
        the call's record."""
        recs = [r for r in auction.calls if r.call.kind not in QUIET]
        if not recs:
            return None
        rec = self.rng.choice(recs)
        calls = [r.call for r in auction.calls[:rec.index - 1]]
        return replay(self.system, self.table, calls), calls, rec

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

    # --- the five types, from a random deal ----------------------------------------------------

    def meaning(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """What does this call mean? Distractors: what other calls legal there would promise."""
        picked = self._pick_call(auction)
        return None if picked is None else self._meaning_question(qid, *picked)

    def which_call(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """Which call shows this? The promise of a call the bot made; every call promising it is right."""
        picked = self._pick_call(auction)
        return None if picked is None else self._which_call_question(qid, *picked)

    def your_call(self, deal: Deal, auction: Auction, qid: str) -> Question | None:
        """Your hand and the auction: the bot's call preferred, every truthful call right."""
        k = self.rng.randrange(len(auction.calls))
        rec = auction.calls[k]
        calls = [r.call for r in auction.calls[:k]]
        before = replay(self.system, self.table, calls)
        return self._your_call_question(qid, before, calls, rec.seat, deal.hand(rec.seat))

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
        statements: dict[str, Constraint] = {c.describe(): c for c in [answer] + picked}
        if len(statements) != N_CHOICES:
            return None
        return self._partner_holds_question(qid, prefix, learner, about, statements, [answer.describe()],
                                            witness=hand)

    def makeable(self, deal: Deal, auction: Auction, qid: str, samples: int = 100) -> Question | None:
        """Will the final contract make? Graded against the Monte Carlo estimate's interval."""
        from fiftysix.analyser.simulate import estimate_from_auction
        contract = auction.contract
        if contract is None:
            return None
        seat = contract.declarer
        calls = [r.call for r in auction.calls]
        hand = deal.hand(seat)
        est = estimate_from_auction(self.table, self.system, seat, hand, auction_text(calls), contract,
                                    n=samples, seed=self.rng.randrange(1 << 30), leads=False, points=False)
        return self._makeable_question(qid, seat, calls, hand, contract, est.interval, est)

    # --- one question about one spot: generated and filled-in questions alike -------------------

    def _meaning_question(self, qid: str, before: Auction, calls: Sequence[Call], rec: CallRecord,
                          given: Sequence[str] = ()) -> Question | None:
        """What does ``rec.call`` promise, asked after ``calls``; the wrong choices are what other
        calls legal there would promise. ``given``: the coach's choices, kept."""
        right = before.meaning_of(rec.call)
        answer = promise_text(right)
        wrong: list[tuple[Call, Meaning]] = []
        if given:
            choices, answers = _given_choices(given, lambda t: fold(t) == fold(answer), [answer])
        else:
            others = distractors(self._options(before, rec.value), right, strict=True)
            if len(others) < 2:
                return None
            wrong = self._near(others, rec.value, N_CHOICES - 1)
            choices, answers = [answer] + [promise_text(m) for _, m in wrong], [answer]
            self.rng.shuffle(choices)
        expl = [f"{rec.call} here: {right.sentence}"]
        expl += [f"\"{promise_text(m)}\" is what {c} would promise ({m.label})." for c, m in wrong]
        fam = family_of(rec.call)
        return Question(id=qid, type="meaning", context=self.context(rec.seat, calls),
                        prompt=PROMPTS["meaning"].format(seat=rec.seat, call=rec.call), choices=tuple(choices),
                        answers=tuple(answers), explanation=" ".join(expl), tags=("generated", self.system, fam),
                        family=fam, data={"call": format_call(rec.call)})

    def _which_call_question(self, qid: str, before: Auction, calls: Sequence[Call], rec: CallRecord,
                             given: Sequence[str] = ()) -> Question | None:
        """Which call promises what ``rec.call`` promises, asked after ``calls``; every call that
        promises it is right. ``given``: the coach's choices, kept."""
        target = promise_text(before.meaning_of(rec.call))
        options = self._options(before, rec.value)
        right = [c for c, m, _ in options if c.kind not in (DOUBLE, REDOUBLE) and promise_text(m) == target]
        picks: list[tuple[Call, Meaning]] = []
        if given:
            def promises_target(text: str) -> bool:
                c = call_key(text)
                return c is not None and before.check(c) is None and promise_text(before.meaning_of(c)) == target
            choices, answers = _given_choices(given, promises_target, [format_call(rec.call)])
        else:
            wrong = distractors(options, before.meaning_of(rec.call), skip=(DOUBLE, REDOUBLE))
            if len(wrong) < 2:
                return None
            picks = self._near(wrong, rec.value, N_CHOICES - 1)
            choices, answers = [format_call(rec.call)] + [format_call(c) for c, _ in picks], [format_call(rec.call)]
            self.rng.shuffle(choices)
        others = [format_call(c) for c in right if c != rec.call]
        expl = [f"{rec.call} promises {target} ({before.meaning_of(rec.call).sentence})"]
        if others:
            expl.append(f"So would {', '.join(others[:6])}{' and others' if len(others) > 6 else ''}.")
        expl += [f"{c} promises {promise_text(m)} instead." for c, m in picks]
        fam = family_of(rec.call)
        return Question(id=qid, type="which-call", context=self.context(rec.seat, calls),
                        prompt=PROMPTS["which-call"].format(seat=rec.seat, meaning=target), choices=tuple(choices),
                        answers=tuple(answers), explanation=" ".join(expl), tags=("generated", self.system, fam),
                        family=fam, data={"meaning": target})

    def _your_call_question(self, qid: str, before: Auction, calls: Sequence[Call], seat: int, hand: Hand,
                            given: Sequence[str] = ()) -> Question | None:
        """What does the system bid with ``hand`` after ``calls``: the bot's call preferred, every
        call whose promise the hand keeps right. ``given``: the coach's choices, kept."""
        choice = get_bot(self.bot, self.rng.randrange(1 << 30)).choose(before, hand)
        truthful: list[tuple[Call, Meaning, int]] = []
        broken: dict[Call, tuple[Meaning, int, tuple[str, ...]]] = {}
        for c, m, v in self._options(before, choice.call.value or before.value, hand):
            f = fits(hand, m.constraint)
            if f:
                truthful.append((c, m, v))
            elif c.kind not in (DOUBLE, REDOUBLE):
                broken[c] = (m, v, f.broken)
        best_keeps = choice.truthful and choice.call in [c for c, _, _ in truthful]
        if given:
            def keeps(text: str) -> bool:
                c = call_key(text)
                return (c is not None and before.check(c, hand) is None
                        and bool(fits(hand, before.meaning_of(c, hand).constraint)))
            engine = [choice.call] if best_keeps else [c for c, _, _ in truthful][:3]
            choices, answers = _given_choices(given, keeps, [format_call(c) for c in engine])
            shown_right = [parse_call(a) for a in answers]
            keys = {call_key(t) for t in choices}
            wrong = [c for c in broken if format_call(c) in keys and c not in shown_right]
            preferred = next((a for a in answers if best_keeps and call_key(a) == format_call(choice.call)), None)
        else:
            if not best_keeps or len(broken) < 2:
                return None
            also = [o for o in truthful if o[0] != choice.call and o[0].kind not in (DOUBLE, REDOUBLE)]
            shown_right = [choice.call] + [c for c, _ in self._near(also, before.value, 1)]
            wrong = [c for c, _ in self._near([(c, m, v) for c, (m, v, _) in broken.items()], before.value,
                                               N_CHOICES - len(shown_right))]
            choices = [format_call(c) for c in shown_right + wrong]
            self.rng.shuffle(choices)
            answers, preferred = [format_call(c) for c in shown_right], format_call(choice.call)
        best = before.meaning_of(choice.call)
        expl = [f"Best: {choice.call} ({best.label}): {choice.reason}."] if best_keeps else []
        for c in shown_right:
            if c != choice.call:
                expl.append(f"{c} ({before.meaning_of(c).label}) is also true of your hand, so it counts too.")
        for c in wrong:
            bm, _, why = broken[c]
            expl.append(f"{c} would promise {promise_text(bm)}; your hand breaks: {'; '.join(why)}.")
        fam = family_of(choice.call)
        return Question(id=qid, type="your-call", context=self.context(seat, calls, hand),
                        prompt=PROMPTS["your-call"].format(seat=seat), choices=tuple(choices),
                        answers=tuple(answers), explanation=" ".join(expl), tags=("generated", self.system, fam),
                        preferred=preferred, family=fam, data={})

    def _partner_holds_question(self, qid: str, prefix: Auction, learner: int, about: int,
                                statements: dict[str, Constraint], answers: Sequence[str],
                                witness: Hand | None = None, hand: Hand | None = None,
                                shuffle: bool = True) -> Question:
        """What must seat ``about`` hold after ``prefix``, asked of ``learner`` (holding ``hand``
        where given): the ``statements`` (choice -> constraint) are the choices, ``answers`` those
        its calls promise; ``witness``, a hand of that seat that keeps its promises and breaks
        every other statement."""
        promises = prefix.seat_constraints()
        choices = list(statements)
        if shuffle:
            self.rng.shuffle(choices)
        made = [r for r in prefix.calls if r.seat == about and r.call.kind not in QUIET]
        fam = family_of(made[-1].call) if made else "pass"
        expl = (f"Seat {about}'s calls ({', '.join(str(r.call) for r in made) or 'passes only'}) promise: "
                f"{promises[about].describe()}. So this is certain about seat {about}: {', '.join(answers)}."
                f" The other statements are not promised: seat {about}'s calls allow hands without them.")
        who = "your partner, seat" if about in self.table.partners(learner) else "seat"
        data = {"about_seat": about, "answer_constraint": statements[answers[0]].to_dict(),
                "statements": {t: c.to_dict() for t, c in statements.items()}}
        if witness is not None:
            data["witness"] = str(witness)
        context = self.context(learner, [r.call for r in prefix.calls], hand)
        return Question(id=qid, type="partner-holds", context=context,
                        prompt=PROMPTS["partner-holds"].format(who=who, about=about), choices=tuple(choices),
                        answers=tuple(answers), explanation=expl, tags=("generated", self.system, fam),
                        family=fam, data=data)

    def _makeable_question(self, qid: str, seat: int, calls: Sequence[Call], hand: Hand, contract: Contract,
                           interval: Sequence[float], est=None) -> Question:
        """How often does ``contract`` make, asked of ``seat`` holding ``hand``: the right bands
        are those that meet the estimate's ``interval``; ``est``, the estimate that found it
        (None: the interval is a coach's)."""
        lo, hi = interval
        answers = makeable_bands(lo, hi)
        who = "your side plays" if seat == contract.declarer else f"seat {contract.declarer} declares"
        data = {"contract": str(contract), "declarer": contract.declarer}
        if est is not None:
            expl = (f"Simulated over {est.deals} deals consistent with your hand and every call's"
                    f" promise{set_aside_note(est.set_aside)}: {contract} makes on {est.rate:.0%} of"
                    f" them (95% interval {lo:.0%} to {hi:.0%}), so {', '.join(answers)} counts as right.")
            data.update({"estimate": est.rate, "interval": [lo, hi], "deals": est.deals,
                         "set_aside": [a.to_dict() for a in est.set_aside]})
        else:
            expl = (f"{contract} makes on {lo:.0%} to {hi:.0%} of the deals that fit the hand and the auction,"
                    f" so {', '.join(answers)} counts as right.")
            data.update({"estimate": (lo + hi) / 2, "interval": [lo, hi]})
        return Question(id=qid, type="makeable", context=self.context(seat, calls, hand),
                        prompt=PROMPTS["makeable"].format(seat=seat, who=who, contract=contract),
                        choices=MAKEABLE_BANDS, answers=answers, explanation=expl,
                        tags=("generated", self.system, "makeable"), family="contract", data=data)

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

    # --- a coach's question, filled in ----------------------------------------------------------

    def fill(self, d: Mapping) -> Question:
        """A coach's question (a question dict as in docs/banks.md, whose context is complete and
        is this generator's system and table) with what the coach left blank written by the
        engine: the prompt, the choices, the answers and the explanation. ``d`` is not changed.

        ``meaning`` and ``which-call`` ask about ``data.call`` made by the seat to call, and
        ``your-call`` needs the hand (the seat becomes the seat to call); ``partner-holds`` needs
        the seat asked about (``data.about_seat``); ``makeable`` an auction that has ended, the
        hand, and the interval (``data.interval``) or the deals to simulate (``data.deals``,
        default 30). Choices the coach gave are kept and the engine marks the right ones; a
        question with its choices and answers given only gets a prompt where it has none.
        """
        ctx = Context.from_dict(d.get("context", {}), default_system=self.system)
        table = ctx.check_table()
        if get_system(ctx.system).name != get_system(self.system).name or table != self.table:
            raise FiftySixError(f"the question is for {ctx.describe()}; this generator writes {self.system}"
                                f" questions at {self.table.players} players ({self.table.deck} cards,"
                                f" {self.table.teams} teams)")
        auction = Auction.parse(ctx.auction, ctx.system, table)
        calls = [r.call for r in auction.calls]
        qid, qtype = str(d.get("id") or ""), d.get("type")
        data = dict(d.get("data") or {})
        given = list(d.get("choices") or [])
        hand = None if ctx.hand is None else Hand.parse(ctx.hand)
        q: Question | None
        if qtype == "makeable":
            q = self._fill_makeable(qid, ctx, auction, hand, data)
        elif qtype == "partner-holds":
            q = self._fill_partner_holds(qid, ctx, auction, hand, data, given, list(d.get("answers") or []))
        elif auction.is_over:
            raise FiftySixError("the auction is over: there is no call to ask about")
        elif given and d.get("answers"):
            prompt = d.get("prompt") or _default_prompt(qtype, auction.to_move, data, d["answers"])
            family = d.get("family") or _given_family(qtype, data, d["answers"])
            return Question.from_dict({**d, "prompt": prompt, "family": family}, default_system=self.system)
        elif qtype in ("meaning", "which-call"):
            if not data.get("call"):
                raise FiftySixError(f"give the call asked about (data.call) so the engine can fill in a {qtype} question")
            call = parse_call(data["call"])
            rule = auction.check(call)
            if rule is not None:
                raise FiftySixError(f"{format_call(call)} cannot be called here: {rule}")
            rec = replay(self.system, table, calls + [call]).calls[-1]
            make = self._meaning_question if qtype == "meaning" else self._which_call_question
            q = make(qid, auction, calls, rec, given)
        elif qtype == "your-call":
            if hand is None:
                raise FiftySixError("give the learner's hand so the engine can find the truthful calls")
            seat = auction.to_move
            assert seat is not None  # the auction is not over
            q = self._your_call_question(qid, auction, calls, seat, hand, given)
        else:
            raise FiftySixError(f"write the choices and the answer of a {qtype} question yourself;"
                                " the engine then checks them")
        if q is None:
            why = ("the bot's call breaks its promise here, or fewer than two calls break your hand's"
                   if qtype == "your-call" else "fewer than two other calls here promise something else")
            raise FiftySixError(f"the engine cannot write the choices of this {qtype} question: {why};"
                                " write the choices yourself")
        out = q.to_dict()
        out.update(id=qid, tags=list(d.get("tags") or []), data={**data, **q.data},
                   prompt=d.get("prompt") or q.prompt, explanation=d.get("explanation") or q.explanation)
        return Question.from_dict(out, default_system=self.system)

    def _fill_partner_holds(self, qid: str, ctx: Context, auction: Auction, hand: Hand | None, data: Mapping,
                            given: list[str], answers: list[str]) -> Question:
        """``partner-holds``: the seat asked about (``data.about_seat``) must have promised
        something; the answer is one statement its calls imply, the wrong choices plain
        statements its calls do not imply. Choices the coach wrote must be statements the
        engine can read (those of the list it offers)."""
        table = self.table
        about = data.get("about_seat")
        if not isinstance(about, int) or not 1 <= about <= table.players:
            raise FiftySixError(f"give the seat asked about (1 to {table.players}) for a partner-holds question")
        promised = auction.seat_constraints().get(about)
        parts = _informative(promised)
        if not parts:
            raise FiftySixError(f"seat {about} has promised nothing in this auction: there is nothing it must hold")
        required = required_parts(promised)
        known = {c.describe(): c for c in parts + _statements(table)}
        if given:
            unknown = [c for c in given if c not in known]
            if unknown:
                raise FiftySixError(f"the engine cannot read {unknown[0]!r}; write statements such as: "
                                    + "; ".join(sorted({p.describe() for p in parts})[:3] + [_statements(table)[0].describe()]))
            statements: dict[str, Constraint] = {c: known[c] for c in given}
        else:
            wrong = [c for c in _statements(table) if not implies_all(c, required)]
            rng = random.Random(f"{ctx.auction}|{about}")
            picked = rng.sample(wrong, min(N_CHOICES - 1, len(wrong)))
            statements = {c.describe(): c for c in [parts[0]] + picked}
        promised_now = [t for t, c in statements.items() if implies_all(c, required)]
        answers = [a for a in answers if a in statements] or promised_now
        if not answers:
            raise FiftySixError(f"none of the choices is promised by seat {about}'s calls"
                                f" ({promised.describe() if promised is not None else 'nothing'}); add one that is")
        # the coach's choices stay in the coach's order
        return self._partner_holds_question(qid, auction, ctx.seat, about, statements, answers, hand=hand,
                                            shuffle=not given)

    def _fill_makeable(self, qid: str, ctx: Context, auction: Auction, hand: Hand | None, data: Mapping) -> Question:
        """``makeable``: the auction must be over (its contract is asked about) and the hand of
        the seat asked about given. The coach may give the estimate's interval
        (``data.interval`` [low, high]); without it the engine simulates ``data.deals`` deals
        (default 30) from that seat's view. Choices are the four bands."""
        if not auction.is_over or auction.contract is None:
            raise FiftySixError("a makeable question asks about the final contract: give an auction that has ended")
        if hand is None:
            raise FiftySixError("give the hand of the seat asked about (the contract is judged from its view)")
        contract = auction.contract
        calls = [r.call for r in auction.calls]
        iv, est = data.get("interval"), None
        if not (isinstance(iv, (list, tuple)) and len(iv) == 2):
            from fiftysix.analyser.simulate import estimate_from_auction
            est = estimate_from_auction(self.table, self.system, ctx.seat, hand, auction_text(calls), contract,
                                        n=int(data.get("deals") or 30), seed=0, leads=False)
            iv = est.interval
        lo, hi = float(iv[0]), float(iv[1])
        if not 0 <= lo <= hi <= 1:
            raise FiftySixError(f"the estimate's interval must run low to high within 0 to 1, not {lo} to {hi}")
        return self._makeable_question(qid, ctx.seat, calls, hand, contract, (lo, hi), est)


def generate(system: str, players: int = 6, n: int = 10, seed: int = 0, types: Sequence[str] | None = None,
             deck: int | None = None, teams: str = "alternate", bot: str = DEFAULT_BOT) -> list[Question]:
    """``n`` questions for a system and table; the same arguments give the same questions."""
    return Generator(system, Table.make(players, deck, teams), seed, bot).questions(n, types)


def _default_prompt(qtype: str | None, seat: int | None, data: Mapping, answers: Sequence[str]) -> str:
    """The prompt for a question whose choices and answers the coach gave."""
    if qtype == "meaning":
        return PROMPTS["meaning"].format(seat=seat, call=data.get("call", "?"))
    if qtype == "which-call":
        return PROMPTS["which-call"].format(seat=seat, meaning=data.get("meaning") or answers[0])
    return PROMPTS["your-call"].format(seat=seat)


def _given_family(qtype: str | None, data: Mapping, answers: Sequence[str]) -> str:
    """The call family of a question whose choices and answers the coach gave, as the engine
    names it for its own: the call asked about (meaning, which-call) or the right call (your-call)."""
    text = data.get("call") if qtype in ("meaning", "which-call") else (answers[0] if qtype == "your-call" else None)
    key = call_key(text) if isinstance(text, str) else None
    return family_of(parse_call(key)) if key else ""


def _given_choices(given: Sequence[str], is_right, engine_answers: Sequence[str]) -> tuple[list[str], list[str]]:
    """The coach wrote the choices but left the answer to the engine: keep the coach's
    choices, and take as answers those the engine counts as right (one at least)."""
    answers = [c for c in given if is_right(c)]
    if not answers:
        raise FiftySixError(f"none of your choices is right: the engine's answer is {' or '.join(engine_answers)};"
                            " add it to the choices or leave the choices blank")
    return list(given), answers


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
    return Bank(title or f"{sysobj.title or sysobj.name}: starter questions",
                sysobj.name, tuple(questions), author,
                f"Generated from random deals bid by the bot (seed {seed}; {tables}) and checked by"
                " `fiftysix bank check`.")
