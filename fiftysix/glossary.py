"""The words of 56 and of this trainer, each said the way a beginner can follow.

``TERMS`` holds every word the pages use that a newcomer may not know: a one-line meaning
for a popover beside the word, and a few sentences for the Glossary page. ``FAMILIES`` names
each family of calls as a player would (the code's kinds, ``fiftysix.bidding.calls``), with
an example and one line on what such a call does; what a call promises depends on the
bidding system, and the Explain and Rules pages give each system's own meaning.
"""
from __future__ import annotations

from dataclasses import dataclass

from fiftysix.bidding import calls as K
from fiftysix.errors import FiftySixError


@dataclass(frozen=True)
class Term:
    """One word: its name, other spellings it goes by, one line, and a longer explanation."""

    name: str
    line: str
    more: str = ""
    also: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """The word as a page anchor (``no-trump``, ``plus-n``)."""
        return "".join(c if c.isalnum() else "-" for c in self.name.lower()).strip("-")


@dataclass(frozen=True)
class Family:
    """A family of calls as a player names it: a title, an example and one line."""

    title: str
    example: str
    line: str


_TERMS = (
    Term("56", "The card game this trainer teaches: two packs shuffled together hold 56 points, "
         "and teams bid for how many of them they can take.",
         "Four, six or eight players sit round the table in two teams (or in pairs). After the deal they bid "
         "for the right to choose trumps; the highest bidder's team must then take at least the points it "
         "bid, in tricks, against everyone else."),
    Term("seat", "A player's place at the table, numbered 1, 2, 3, ... in the order the turn goes round.",
         "Seat 1 speaks first in the auction and leads to the first trick; the dealer sits in the last seat."),
    Term("team", "The players who score together: normally the odd seats against the even seats.",
         "With alternate teams every player has an opponent on each side. Some tables play in pairs: each "
         "player's partner sits opposite, which makes two, three or four teams.",
         also=("teams", "partner", "partners", "alternate", "pairs")),
    Term("table", "Who is playing: how many players (4, 6 or 8), how many cards are dealt and how the "
         "teams sit.",
         "The sidebar sets the table for every page. 4 players usually play with 32 cards, 6 with 48 and 8 "
         "with 64; every deck holds 56 points.",
         also=("tables", "deck")),
    Term("card notation", "How the trainer writes cards in letters: the ranks J 9 A T K Q 8 7 (T is the Ten) "
         "and the suits S H D C (spades, hearts, diamonds, clubs), so TD is the Ten of diamonds.",
         "A hand is written suit by suit, spades.hearts.diamonds.clubs, with a dot between suits and nothing for "
         "a void: JJ9.A.KQ.9T holds J J 9 of spades, the Ace of hearts, K Q of diamonds and 9 10 of clubs. A call "
         "puts the number and the suit together: 28H is 28 in hearts.",
         also=("notation", "S.H.D.C", "hand notation")),
    Term("card points", "What the cards are worth: Jack 3, Nine 2, Ace 1, Ten 1; Kings, Queens, Eights "
         "and Sevens nothing.",
         "A card's strength and its points are different things: within a suit the Jack beats the Nine, the "
         "Nine the Ace, then Ten, King, Queen, Eight, Seven. Every deck holds 56 points in all.",
         also=("points",)),
    Term("trick", "One card from each player in turn; the highest trump, or else the highest card of the "
         "suit led, wins it and its points.",
         "You must follow suit if you can; if you cannot, play any card. The winner leads to the next trick.",
         also=("tricks", "follow suit")),
    Term("lead", "The first card of a trick; the opening lead is the first card of the hand (seat 1's).",
         also=("opening lead", "leader", "leads")),
    Term("trump", "The suit the contract names: any card of it beats every card of the other suits.",
         "Only the final bid's suit is trumps. A trick with trumps in it goes to the highest trump.",
         also=("trumps", "trump suit")),
    Term("no-trump", "A contract without a trump suit (written NT): each trick goes to the highest card "
         "of the suit led.", also=("NT", "no trump", "no-trumps")),
    Term("NS (Noes)", "A bid without a trump suit, like no-trump, that says \"I hold none of a suit\" "
         "(usually the one bid last). If it wins the auction, the hand is played without trumps.",
         "Say it \"Noes\". Which suit you lack depends on the system: international's 33NS lacks the last "
         "suit bid and +2NS the one before; kerala's NS lacks the suit just bid.",
         also=("NS", "Noes", "Nos")),
    Term("auction", "The bidding: the calls go round the table until everyone else has passed the last bid.",
         "Passing does not take you out: the turn keeps coming round.", also=("bidding",)),
    Term("call", "Anything said in the auction: a bid, a pass, a double or a redouble.", also=("calls",)),
    Term("bid", "A number from 28 to 56, usually with a trump suit: the points your team undertakes to "
         "take. Every bid must be higher than the last.", also=("bids",)),
    Term("Plus N", "A raise by N over the standing bid in a suit, written +1H, +2H: it shows how many cards "
         "of the suit you hold (in international exactly N, the top ones left).",
         "The top remaining card: count the suit down from its strongest card (J J 9 9 A A 10 10 ...) and "
         "leave out the cards earlier calls already showed.",
         also=("+1", "+2", "Plus", "Plus One", "raise")),
    Term("call family", "Calls written the same way, such as every \"number then suit\" bid (28H, 29H, ...); "
         "each family has its own kind of meaning.", also=("call families", "family", "families")),
    Term("pass", "A call that bids nothing (P). It does not take you out of the auction.", also=("P",)),
    Term("double", "A call (X) by an opponent of the highest bidder: the stake is doubled if the bid stands.",
         also=("X",)),
    Term("redouble", "A call (XX) by the doubled team: the stake is multiplied by four.", also=("XX",)),
    Term("contract", "The last bid of the auction: its number is the declaring team's target, its suit "
         "the trumps."),
    Term("declarer", "The player who made the last bid; their team are the declarers, who must reach the "
         "target.", also=("declarers", "declaring team")),
    Term("defenders", "The other side: the team (or teams) against the declarers, who try to take enough card "
         "points that the declarers fall short of their target.", also=("defender", "defending team", "defence")),
    Term("target", "The points the declarers must take to make their contract: the number they bid."),
    Term("stake", "What the hand is worth: 1 to 4 if the contract makes, 2 to 5 if it fails, doubled by "
         "a double and four times by a redouble.",
         "28-39: made 1, failed 2; 40-47: 2 and 3; 48-55: 3 and 4; 56: 4 and 5. Many tables start each "
         "team with 12 chips and pass the stake until one team has none."),
    Term("makeable", "Whether the declarers can reach their target: the share of the deals (that fit "
         "what you know) in which they can.", also=("makes", "makeability")),
    Term("double-dummy", "With every card known to every player, and everyone playing their best: the "
         "solver's way of saying how many points a side can take.",
         "Real players cannot see each other's cards, so double-dummy figures are an upper bound for good "
         "guessing; they say what a hand holds, not what a player would find.",
         also=("double dummy", "DD")),
    Term("double-dummy table", "For each trump (and no-trump) and each seat leading: the most points the "
         "declaring team can take with every card known.", also=("dd table",)),
    Term("simulation", "Dealing many random hands that fit what you know (your cards and every call's "
         "promise) and solving each one, to see how often something happens.",
         also=("simulate", "deals that fit")),
    Term("95% interval", "The range a simulated figure's true value lies in, 19 times out of 20: a few deals "
         "give a wide range, more deals a narrow one.",
         "Makeable 43% with a 95% interval of 38% - 49% means the contract makes on between about 38% and 49% of "
         "all the deals that fit; the simulation stops once the range is as narrow as 'Stop at' asks.",
         also=("interval", "confidence interval")),
    Term("bidding system", "The agreed meanings of the calls: what each call promises about the hand. "
         "This trainer knows international, kerala, jack-signal, classic and basic.",
         also=("system", "systems")),
    Term("bluff", "A call whose promise the hand does not keep: allowed, so the others only know what "
         "the calls promised."),
    Term("idea", "What a drill question practises: a kind of question about one family of calls, at one "
         "table. Answering one question reviews the idea.", also=("ideas",)),
    Term("FSRS", "The spaced-repetition method the Drill page uses (Free Spaced Repetition Scheduler): it "
         "brings each idea back just before you would forget it.",
         "Your grade (Again, Hard, Good, Easy) and how long since you last saw the idea set when it comes "
         "back. The desired retention is how likely you want to be to still know an idea then.",
         also=("spaced repetition", "desired retention", "retention")),
)

TERMS: dict[str, Term] = {t.name: t for t in _TERMS}
"""Every term by its name, in the order the Glossary page lists them."""

_INDEX = {w.lower(): t for t in _TERMS for w in (t.name, *t.also)}

FAMILIES: dict[str, Family] = {
    K.SUIT: Family("Number then suit", "28H", "A bid of that many points with that suit as trumps; in "
                   "most systems it shows the suit's top card (a Jack)."),
    K.REVERSE: Family("Suit then number", "H28", "The same bid written suit first: it names the trumps "
                      "without holding the top card (a long suit, no Jack)."),
    K.NT: Family("No-trump", "32NT", "A bid of that many points with no trump suit."),
    K.NS: Family("Noes", "33NS", "A bid with no trump suit that says you hold none of a suit, usually "
                 "the one bid last."),
    K.PLUS: Family("Plus N", "+1H", "Raises the bid by 1, 2 or 3 in a suit and shows how many of its top "
                   "cards you hold."),
    K.SUIT_PLUS: Family("Suit plus", "H+1", "Raises the bid in a suit and shows a short holding without "
                        "its top card."),
    K.PLUS_NT: Family("Plus no-trump", "+1NT", "Raises the bid by one with no trump suit: more Jacks "
                      "or Nines."),
    K.PLUS_NS: Family("Plus Noes", "+2NS", "Raises the bid with no trump suit and says which suit you "
                      "hold none of, by how far it jumps."),
    K.X_PLUS: Family("One Plus", "1+H", "Raises by one or more in a suit: that many top cards and "
                     "exactly one more (classic)."),
    K.MINUS: Family("Minus", "-H", "Raises in a suit you hold without its top card (classic)."),
    K.PLUS_PASS: Family("Plus Pass", "+P", "Raises by one and says nothing about the hand (classic)."),
    K.RAISE: Family("Own raise", "40H^", "The highest bidder raises their own bid to 40, 48 or 56 "
                    "(kerala)."),
    K.FORCED: Family("Forced opening", "28-Pass", "The first seat must open; this opening says nothing "
                     "about the hand."),
    K.PASS: Family("Pass", "P", "Bids nothing; you stay in the auction."),
    K.DOUBLE: Family("Double", "X", "An opponent doubles the stake of the standing bid."),
    K.REDOUBLE: Family("Redouble", "XX", "The doubled team doubles the stake again."),
}
"""Each call kind as a player names it; every kind of ``fiftysix.bidding.calls.KINDS``."""


class GlossaryError(FiftySixError):
    """A word the glossary does not hold."""


def term(word: str) -> Term:
    """The glossary entry for ``word`` (its name or another spelling, any case)."""
    try:
        return _INDEX[word.lower()]
    except KeyError:
        raise GlossaryError(f"{word!r} is not in the glossary") from None


def family(kind: str) -> Family:
    """How a player names a call kind (``fiftysix.bidding.calls``)."""
    try:
        return FAMILIES[kind.replace("-", "_")]
    except KeyError:
        raise GlossaryError(f"{kind!r} is not a family of calls") from None


def find(text: str) -> list[Term]:
    """The terms whose name or spelling ``text`` contains (case-insensitive), each once, in
    glossary order; for a search box."""
    q = text.strip().lower()
    if not q:
        return list(_TERMS)
    return [t for t in _TERMS if any(q in w.lower() for w in (t.name, *t.also)) or q in t.line.lower()]
