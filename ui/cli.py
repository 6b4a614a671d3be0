"""The ``fiftysix`` command: argparse subcommands, plain text or ``--json`` out.

Each group of subcommands lives in ``ui/commands/<name>.py`` with a ``register(subparsers)``
function; every handler returns a JSON-able object (printed with ``--json``) or prints text.
Errors a user can cause (``FiftySixError``) become one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Sequence

from fiftysix.errors import FiftySixError

COMMAND_MODULES = [
    "ui.commands.game",
    "ui.commands.bidding",
    "ui.commands.records",
    "ui.commands.simulate",
    "ui.commands.solver",
    "ui.commands.drills",
    "ui.commands.bots",
]


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="fiftysix", description="Trainer and hand analyser for 56.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def emit(obj: object) -> None:
    """Print one JSON document on stdout."""
    print(json.dumps(obj, ensure_ascii=False))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return int(args.handler(args) or 0)
    except FiftySixError as e:
        print(f"fiftysix {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
        sys.stderr.close()
        return 0
    except (OSError, json.JSONDecodeError) as e:
        print(f"fiftysix {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"fiftysix {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
