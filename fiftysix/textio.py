"""Reading untrusted text and JSON with bounded work: size caps, UTF-8 and nesting checks.

Every file a user hands the program (banks, batch input, record files) and every JSON
document in it comes through here, so that bad input is one ``InputError`` naming the
problem (the real size and the limit, the offset of a byte that is not UTF-8, the depth of
a nesting) instead of a traceback, a recursion error or unbounded work.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from fiftysix.errors import FiftySixError

MAX_TEXT_BYTES = 16 * 1024 * 1024
"""The largest bank or batch file read (record files have their own cap, fiftysix.records)."""
MAX_JSON_DEPTH = 64
"""The deepest nesting of lists and objects accepted in a JSON document."""


class InputError(FiftySixError):
    """A file or text that cannot be read: too big, not UTF-8, not JSON, nested too deep."""


def size_text(n: int) -> str:
    """A byte count for people: ``512 bytes``, ``70.2 MB``."""
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def check_size(n: int, limit: int, source: str) -> None:
    """Refuse ``n`` bytes over ``limit``, saying both."""
    if n > limit:
        raise InputError(f"{source}: the file is {size_text(n)}; at most {size_text(limit)} is read")


def decode(data: bytes, source: str, limit: int = MAX_TEXT_BYTES) -> str:
    """UTF-8 bytes (a byte-order mark allowed) as text, or InputError naming the bad byte."""
    check_size(len(data), limit, source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise InputError(f"{source}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start},"
                         f" line {line})") from None


def read_text(path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES) -> str:
    """A UTF-8 text file, at most ``limit`` bytes (the message gives the real size)."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            check_size(size, limit, source)
            data = f.read(limit + 1)  # a file still growing is cut at the limit + 1, then refused
    except IsADirectoryError:
        raise InputError(f"{source} is a folder, not a file") from None
    except OSError as e:
        raise InputError(f"cannot read {source}: {e.strerror or e}") from None
    check_size(max(size, len(data)), limit, source)
    return decode(data, source, limit)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def loads(text: str, source: str = "JSON", max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text: no NaN or Infinity, numbers finite, nesting at most ``max_depth``
    (measured without recursion, so no later step recurses deeply either)."""
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        raise InputError(f"{source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise InputError(f"{source}: JSON nested too deep; at most {max_depth} levels are read") from None
    except ValueError as e:
        raise InputError(f"{source}: not valid JSON ({e})") from None
    depth = json_depth(value)
    if depth > max_depth:
        raise InputError(f"{source}: JSON nested {depth} levels deep; at most {max_depth} are read")
    return value


def _finite_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"the number {text[:40]} is too large")
    return v


def json_depth(value: Any) -> int:
    """The deepest nesting of lists and dicts in a parsed JSON value (iteratively)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v)
    return deepest


# --- writing ---------------------------------------------------------------------------------

def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it into place.

    Readers see the old file or the new one, never a part. The temporary file's name holds
    the writer's process id (``.NAME.PID.RANDOM.tmp``), so a save killed half-way leaves a
    file the next save recognises as stale and removes. An OSError names ``path`` (its
    ``filename``), never the temporary file.
    """
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(p)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.{os.getpid()}.", suffix=".tmp", dir=p.parent)
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), os.fspath(p)) from None
    try:
        os.chmod(tmp, _file_mode(p))
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OSError(e.errno, e.strerror or str(e), os.fspath(p)) from None
        raise


def _remove_stale_temps(p: Path) -> None:
    """Remove temporary files of earlier saves of ``p`` whose writer process is gone."""
    prefix = f".{p.name}."
    try:
        names = [n for n in os.listdir(p.parent) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        try:
            os.unlink(p.parent / name)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process (or no such number): leave its file alone
    return True


def _file_mode(p: Path) -> int:
    """The target's permissions if it exists, else what a plain new file would get."""
    try:
        return p.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


