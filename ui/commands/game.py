"""Subcommands over the game core: ``deal`` and ``replay``."""
from __future__ import annotations

import argparse

from fiftysix.cards import TOTAL_POINTS, Deal, parse_cards, parse_trump, random_deal
from fiftysix.errors import IllegalPlayError, NotationError
from fiftysix.play import PlayState, Trick
from fiftysix.ui.commands.common import add_seed_arg, add_table_args, arg, command, table_from, whole
from fiftysix.ui.commands.output import Output, lines


def register(sub: argparse._SubParsersAction) -> None:
    with command(sub, "deal", cmd_deal, help="deal a random hand for a table, in canonical notation") as p:
        add_table_args(p)
        add_seed_arg(p, None, "random seed (same seed, same deal)")

    with command(sub, "replay", cmd_replay,
                 help="play cards in order from the opening lead and show each trick") as p:
        add_table_args(p)
        p.add_argument("--deal", required=True, help="the hands of seats 1..N (a full deal or an ending)")
        p.add_argument("--trump", required=True, help="trump suit S H D C, or NT for no-trump")
        p.add_argument("--cards", required=True, help='the cards played, in order, e.g. "JH 9H AH ..."')
        p.add_argument("--leader", type=arg(whole, "--leader", 1, 8), default=1,
                       help="seat that leads the first trick (default 1; the declarer with declarer-leads)")
        p.add_argument("--target", type=arg(whole, "--target", 1, TOTAL_POINTS), default=None,
                       help=f"the declaring team's target, 1..{TOTAL_POINTS} (stops early)")
        p.add_argument("--declarer", default=None,
                       help="the declaring team: odd, even, a pairs name like 1-4, or one of its seats")


def cmd_deal(args: argparse.Namespace) -> Output:
    table = table_from(args)
    deal = random_deal(table, args.seed)
    return Output({"players": table.players, "deck": table.deck, "teams": table.teams,
                   "deal": str(deal), "hands": {str(s): str(deal.hand(s)) for s in table.seats}},
                  f"{deal}\n")


def _trick_dict(trick: Trick) -> dict[str, object]:
    return {"leader": trick.leader, "cards": [str(c) for c in trick.cards],
            "winner": trick.winner, "points": trick.points}


def cmd_replay(args: argparse.Namespace) -> Output:
    table = table_from(args)
    deal = Deal.parse(args.deal, table, partial=True)
    trump = parse_trump(args.trump)
    if (args.target is None) != (args.declarer is None):
        raise IllegalPlayError("give --target and --declarer together (or neither)")
    declarer_team = None
    if args.target is not None:
        if not 1 <= args.target <= TOTAL_POINTS:
            raise IllegalPlayError(f"--target must be 1..{TOTAL_POINTS} card points, not {args.target}")
        declarer_team = table.parse_team(args.declarer)
    if not 1 <= args.leader <= table.players:
        raise IllegalPlayError(f"--leader {args.leader}: a {table.players}-player table has seats 1..{table.players}")
    cards = parse_cards(args.cards)
    if not cards:
        raise NotationError('--cards is empty: give the cards played in order, e.g. "JH 9H AH"')
    state = PlayState(deal, trump, leader=args.leader, target=args.target, declarer_team=declarer_team)
    for n, card in enumerate(cards, start=1):
        try:
            state.play(card)
        except IllegalPlayError as e:
            raise IllegalPlayError(f"card {n} {e}") from None
    points = {table.team_name(k): state.points[k] for k in range(table.num_teams)}
    out: dict[str, object] = {
        "tricks": [_trick_dict(t) for t in state.tricks],
        "points": points,
        "over": state.is_over,
        "reason": state.stop_reason,
        "trick_in_progress": [str(c) for _, c in state.current],
        "to_move": None if state.is_over else state.to_move,
    }
    rows = [f"trick {i}: seat {t.leader} leads {' '.join(str(c) for c in t.cards)}"
            f" -> seat {t.winner} wins {t.points} point{'s' if t.points != 1 else ''}"
            for i, t in enumerate(state.tricks, start=1)]
    if state.current:
        rows.append(f"trick {len(state.tricks) + 1} so far: {' '.join(str(c) for _, c in state.current)}")
    rows.append("points: " + ", ".join(f"{name} {p}" for name, p in points.items()))
    rows.append(f"over: {state.stop_reason}" if state.is_over else f"not over: seat {state.to_move} to play")
    return Output(out, lines(rows))
