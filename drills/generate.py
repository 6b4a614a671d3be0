"""Quiz questions generated from the engine: random deals, bid by the bot, asked about.

Every answer and every explanation comes from the engine's meaning objects (never typed by
hand): ``meaning`` asks what a call of the auction means, ``which-call`` which call shows a
promise, ``your-call`` what to bid with a hand (every truthful legal call counts as right;
the bot's choice is preferred), ``partner-holds`` what a seat has promised (wrong choices
are statements that seat's real hand breaks, so they are provably not promised), and
``makeable`` whether the final contract makes, graded against the Monte Carlo estimate.
``makeable`` needs ``analyser.simulate`` and is opt-in (not in the default mix): each one
runs a double-dummy simulation.
A seed reproduces a quiz.
"""
from __future__ import annotations

import random
from typing import Iterator, Sequence

from fiftysix.bidding import Auction, CallRecord, Meaning, get_system
from fiftysix.bidding.calls import DOUBLE, FORCED, MAX_BID, PASS, REDOUBLE, Call, format_call, parse_call
from fiftysix.cards import COPIES, NUM_SUITS, RANK_NAMES, SUIT_NAMES, Card, Deal, Hand, Table, random_deal
from fiftysix.constraints import Constraint, Count, fits, rank_kinds, suit_kinds
from fiftysix.errors import FiftySixError
from drills.bankcheck import implies_all, required_parts
from drills.banks import Bank
from drills.bots import DEFAULT_BOT, get_bot, readings
from drills.questions import MAKEABLE_BANDS, Context, Question, makeable_bands, promise_text

N_CHOICES = 4
PER_DEAL = 2
"""Questions asked about one deal (of different types) before the next deal is bid."""
WINDOW = 8
"""Generated choices come from calls at most this many points above the call asked about."""
QUIET = (PASS, DOUBLE, REDOUBLE, FORCED)

def simulator_available() -> bool:
    """Whether ``analyser.simulate`` (needed for ``makeable`` questions) can be imported."""
    try:
        import analyser.simulate as sim  # noqa: F401
    except ImportError:
        return False
    return hasattr(sim, "estimate_from_auction")


DEFAULT_TYPES = ("meaning", "which-call", "your-call", "partner-holds")


def default_types() -> tuple[str, ...]:
    """The default mix: every type but ``makeable``, which runs a double-dummy simulation per
    question (seconds to minutes, numba compilation on first use), so it is opt-in."""
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


class Generator:
    """Builds questions for one system and table from seeded random deals."""

    def __init__(self, system: str, table: Table, seed: int = 0, bot: str = DEFAULT_BOT) -> None:
        self.system, self.table, self.seed = system, table, seed
        self.bot = bot  # the bidding bot that bids the deals and gives the "your-call" answer
        self.rng = random.Random(seed)

    # --- deals ------------------------------------------------------------------------------

    def deals(self) -> Iterator[tuple[Deal, Auction]]:
        """Endless seeded deals, each bid by the bot."""
        k = 0
        while True:
            deal = random_deal(self.table, seed=self.seed * 100_003 + k)
            auction = get_bot(self.bot, self.seed * 7919 + k).bid(deal, self.system)
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
        return [(c, r.meaning, r.value if r.value is not None else now) for c, r in readings(auction, hand, top)]

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
                                    n=samples, seed=self.rng.randrange(1 << 30), leads=False)
        lo, hi = est.interval
        answers = makeable_bands(lo, hi)
        return Question(qid, "makeable", self.context(seat, calls, hand),
                        f"You are seat {seat}, and your side plays {contract}. How often does it make"
                        " double-dummy, given your hand and the auction?",
                        MAKEABLE_BANDS, answers,
                        f"Simulated over {est.deals} deals consistent with your hand and every call's"
                        f" promise: {contract} makes on {est.rate:.0%} of them (95% interval {lo:.0%} to"
                        f" {hi:.0%}), so {', '.join(answers)} counts as right.",
                        ("generated", self.system, "makeable"), None, "contract",
                        {"contract": str(contract), "declarer": seat, "estimate": est.rate,
                         "interval": [lo, hi], "deals": est.deals})

    # --- driving ---------------------------------------------------------------------------------

    def questions(self, n: int, types: Sequence[str] | None = None) -> list[Question]:
        """``n`` questions, types taken in turn from ``types`` (default: every available type)."""
        types = tuple(types or default_types())
        if "makeable" in types and not simulator_available():
            raise FiftySixError("makeable questions need the simulator (analyser.simulate), which is missing")
        makers = {"meaning": self.meaning, "which-call": self.which_call, "your-call": self.your_call,
                  "partner-holds": self.partner_holds, "makeable": self.makeable}
        for t in types:
            if t not in makers:
                raise FiftySixError(f"unknown question type {t!r}: use {', '.join(makers)}")
        out: list[Question] = []
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
                out.append(q)
        return out


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
    if auction.is_over:
        raise FiftySixError("the auction is over: there is no call to ask about")
    if d.get("choices") and d.get("answers"):
        return d
    seat = auction.to_move
    d["context"] = {**ctx.to_dict(), "seat": seat}
    gen = Generator(ctx.system, table, seed=0)
    qtype = d.get("type")
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
