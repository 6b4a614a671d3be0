"""Subcommands for training: ``quiz`` (generated questions) and ``bank check|export|import|make``."""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path

from fiftysix.bidding import get_system
from fiftysix.drills.banks import (
    dumps,
    export_text,
    guess_format,
    import_text,
    load_bank,
    load_starter,
    question_text,
    read_bank_text,
    save_bank,
    write_atomic,
)
from fiftysix.drills.progress import ProgressStore
from fiftysix.errors import FiftySixError
from fiftysix.ui.commands.common import (
    MAX_QUESTIONS,
    add_seed_arg,
    add_table_args,
    arg,
    command,
    group,
    table_from,
    whole,
)
from fiftysix.ui.commands.output import Output, lines

MAX_BANK_MB = 16  # drills.banks.MAX_BANK_BYTES, said without importing the bank code for --help


def register(sub: argparse._SubParsersAction) -> None:
    with command(sub, "quiz", cmd_quiz,
                 help="generated bidding questions: interactive, or --json to print them") as p:
        p.add_argument("--system", default="international", help="bidding system (default international)")
        add_table_args(p)
        p.add_argument("-n", type=arg(whole, "-n", 1, MAX_QUESTIONS), default=10,
                       help=f"number of questions (default 10, at most {MAX_QUESTIONS})")
        add_seed_arg(p, None, "random seed (same seed, same quiz)")
        p.add_argument("--types", default=None,
                       help="comma-separated question types (meaning, which-call, your-call, partner-holds,"
                            " makeable); default: all but makeable (each makeable question runs a simulation)")
        source = p.add_mutually_exclusive_group()
        source.add_argument("--bank", default=None,
                            help=f"ask questions from this bank file instead of generating (at most {MAX_BANK_MB} MB)")
        source.add_argument("--starter", default=None, metavar="SYSTEM",
                            help="ask questions from the starter bank shipped for this system")
        p.add_argument("--spaced", action="store_true",
                       help="pick due questions first and cap new ones (spaced repetition)")
        p.add_argument("--no-record", action="store_true", help="do not store answers in the progress file")

    bsub = group(sub, "bank", help="coaches' quiz banks: check, export, import, make",
                 dest="bank_command", metavar="ACTION")
    with command(bsub, "check", cmd_bank_check,
                 help="check a bank against the engine; every problem names its question") as p:
        p.add_argument("bank", help=f"bank file (JSON, docs/banks.md; at most {MAX_BANK_MB} MB)")
    with command(bsub, "export", cmd_bank_export, help="write a bank as JSON, CSV, Moodle GIFT or Anki CSV") as p:
        p.add_argument("bank")
        p.add_argument("--format", required=True, choices=("json", "csv", "gift", "anki"))
        p.add_argument("-o", "--output", default=None, help="output file (default: standard output)")
    with command(bsub, "import", cmd_bank_import,
                 help="read a bank from JSON, CSV, GIFT or Anki CSV and write it as JSON") as p:
        p.add_argument("file", help=f"the file to read (at most {MAX_BANK_MB} MB)")
        p.add_argument("--format", default=None, choices=("json", "csv", "gift", "anki"),
                       help="input format (default: from the file name)")
        p.add_argument("--system", default=None, help="system for plain GIFT questions that carry none")
        p.add_argument("-o", "--output", default=None, help="bank file to write (default: standard output)")
    with command(bsub, "make", cmd_bank_make, help="generate a checked bank from random deals") as p:
        p.add_argument("--system", default="international")
        p.add_argument("--players", default="6", help="table sizes, comma-separated (default 6)")
        p.add_argument("-n", type=arg(whole, "-n", 1, MAX_QUESTIONS), default=30,
                       help=f"questions per table size (default 30, at most {MAX_QUESTIONS})")
        add_seed_arg(p=p, default=1, help="random seed")
        p.add_argument("--types", default=None)
        p.add_argument("--title", default=None)
        p.add_argument("--author", default="fiftysix generator")
        p.add_argument("-o", "--output", required=True)


def _types(text: str | None) -> tuple[str, ...] | None:
    if not text:
        return None
    return tuple(t.strip() for t in text.split(",") if t.strip())


# --- quiz ------------------------------------------------------------------------------------------

def cmd_quiz(args: argparse.Namespace) -> Output | Iterator[Output]:
    """With --json, the questions; else the interactive quiz (``_dialogue``)."""
    from fiftysix.drills.generate import Generator
    if args.n < 1:
        raise FiftySixError("ask for at least one question (-n 1 or more)")
    seed = args.seed if args.seed is not None else int(time.time()) % 100_000
    system = args.system
    if args.bank or args.starter:
        bank = load_bank(args.bank) if args.bank else load_starter(args.starter)
        pool, system = list(bank.questions), bank.system
    else:
        get_system(args.system)
        gen = Generator(args.system, table_from(args), seed)
        pool = gen.questions(args.n * (3 if args.spaced else 1), _types(args.types))
    store = None
    if not args.no_record and not args.json:
        store = ProgressStore()
    if args.spaced:
        questions = (store or ProgressStore()).next_questions(pool, args.n, seed=seed)
    else:
        questions = pool[:args.n]
    if args.json:
        return Output({"system": system, "seed": seed, "questions": [q.to_dict() for q in questions]})
    return _dialogue(questions, store)


def _show(q, n: int, total: int) -> str:
    return lines([f"\n[{n}/{total}] " + question_text(q).replace("\n", "\n  "),
                  *(f"   {chr(ord('a') + i)}) {c}" for i, c in enumerate(q.choices))])


def _dialogue(questions, store) -> Iterator[Output]:
    """The interactive quiz: each question, then its answer read with ``input`` and marked
    (and recorded in ``store``, if any), then the score."""
    right = 0
    for n, q in enumerate(questions, start=1):
        yield Output(None, _show(q, n, len(questions)))
        t0 = time.monotonic()
        while True:
            try:
                raw = input("answer (letter, number or call; q to stop): ").strip()
            except EOFError:
                raw = "q"
            if raw.lower() in ("q", "quit"):
                yield Output(None, f"\n{right} of {n - 1} right.\n")
                return
            choice = q.choice_for(raw)
            if choice is not None:
                break
            yield Output(None, "  not one of the choices; try again\n")
        ok = q.is_correct(choice)
        right += ok
        verdict = (("  right." if ok else f"  wrong: {' / '.join(q.answers)}.")
                   + (f" Best: {q.preferred}." if q.preferred and len(q.answers) > 1 else ""))
        yield Output(None, lines([verdict, *(["  " + q.explanation] if q.explanation else [])]))
        if store is not None:
            try:
                store.record_answer(q, choice, ok, time.monotonic() - t0)
            except FiftySixError as e:  # e.g. a full disk: the quiz goes on, unrecorded
                yield Output(None, "", text_stderr=f"  (not recorded: {e}; the quiz goes on without recording)\n")
                store = None
    yield Output(None, f"\n{right} of {len(questions)} right.\n")


# --- banks -------------------------------------------------------------------------------------------

def cmd_bank_check(args: argparse.Namespace) -> Output:
    """Every problem of the bank (exit status 1 if there is any)."""
    from fiftysix.drills.bankcheck import check_file
    bank, problems = check_file(args.bank)
    count = len(bank.questions) if bank is not None else None
    data = {"bank": args.bank, "questions": count, "ok": not problems, "problems": [p.to_dict() for p in problems]}
    if problems:
        return Output(data, lines(map(str, problems)), text_stderr=f"{args.bank}: {len(problems)} problem(s)\n",
                      status=1)
    return Output(data, f"{args.bank}: {count} question(s), no problems\n")


def cmd_bank_export(args: argparse.Namespace) -> Output:
    bank = load_bank(args.bank)
    text = export_text(bank, args.format)
    if not args.output:
        return Output({"bank": args.bank, "format": args.format, "text": text}, text)
    write_atomic(args.output, text)
    return Output({"bank": args.bank, "format": args.format, "output": args.output, "questions": len(bank.questions)},
                  f"wrote {len(bank.questions)} question(s) to {args.output}\n")


def cmd_bank_import(args: argparse.Namespace) -> Output:
    from fiftysix.drills.bankcheck import check_dict
    path = Path(args.file)
    text = read_bank_text(path)
    fmt = args.format or guess_format(path, text)
    bank = import_text(text, fmt, str(path), args.system)
    # the written bank is checked exactly as `bank check` would read it back: a structural
    # problem there (the loader's rules) means nothing is written
    _, problems = check_dict(json.loads(dumps(bank)))
    refused = [p for p in problems if p.kind == "format"]
    if refused:
        raise FiftySixError(f"{path}: not written, `bank check` would refuse it: {refused[0]}")
    if args.output:
        save_bank(bank, args.output)
    summary = (f"{args.file}: {len(bank.questions)} question(s) imported"
               + (f" to {args.output}" if args.output else "")
               + (f"; {len(problems)} problem(s) (fiftysix bank check)" if problems else "; checked, no problems"))
    return Output({"file": args.file, "format": fmt, "output": args.output, "questions": len(bank.questions),
                   "problems": [p.to_dict() for p in problems]},
                  "" if args.output else dumps(bank), text_stderr=lines([*map(str, problems), summary]))


def cmd_bank_make(args: argparse.Namespace) -> Output:
    from fiftysix.drills.bankcheck import check_bank
    from fiftysix.drills.generate import make_bank
    try:
        players = [int(p) for p in args.players.split(",")]
    except ValueError:
        raise FiftySixError(f"--players takes table sizes like 4,6,8, not {args.players!r}") from None
    bank = make_bank(args.system, players, args.n, args.seed, _types(args.types), args.title, args.author)
    problems = check_bank(bank)
    if problems:
        raise FiftySixError(f"the generated bank has {len(problems)} problem(s), first: {problems[0]}")
    save_bank(bank, args.output)
    return Output({"output": args.output, "questions": len(bank.questions)},
                  f"wrote {len(bank.questions)} checked question(s) to {args.output}\n")
