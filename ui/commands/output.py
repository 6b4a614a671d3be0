"""What a subcommand answers (``Output``) and the one writer that prints it (``write``).

A handler returns its answer instead of printing it: one ``Output``, or a stream of them (the
lines of a ``--batch``, the deals of ``sample``, the steps of the interactive quiz) that
``write`` prints as they come, flushing after each. ``--json`` picks the data, else the text.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Output:
    """One answer. With ``--json``, ``data`` is printed as one JSON document (on one line; None
    prints nothing); otherwise ``text`` is printed as it is (None: the JSON document), then
    ``text_stderr`` on stderr. ``stderr`` goes to stderr either way; ``status`` is the exit status."""

    data: Any
    text: str | None = None
    text_stderr: str = ""
    stderr: str = ""
    status: int = 0


def lines(rows: Iterable[str]) -> str:
    """The rows as text, each ending in a newline (as ``print`` would write them)."""
    return "".join(f"{row}\n" for row in rows)


def json_line(data: Any) -> str:
    """``data`` as one line of JSON (non-ASCII written as it is)."""
    return json.dumps(data, ensure_ascii=False) + "\n"


def write(answer: Output | Iterable[Output], as_json: bool) -> int:
    """Print ``answer`` (one Output, or each of a stream as it comes) in the form ``as_json``
    picks; return the exit status (the largest of the stream's)."""
    status = 0
    for out in [answer] if isinstance(answer, Output) else answer:
        if as_json:
            if out.data is not None:
                sys.stdout.write(json_line(out.data))
        else:
            sys.stdout.write(json_line(out.data) if out.text is None else out.text)
        sys.stdout.flush()
        err = out.stderr if as_json else out.text_stderr + out.stderr
        if err:
            sys.stderr.write(err)
            sys.stderr.flush()
        status = max(status, out.status)
    return status
