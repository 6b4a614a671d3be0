"""The one SQLite file behind progress and the hand library: where it lives, and safe access.

Short connections and write transactions that two app sessions can share safely.

The file is ``progress.sqlite3`` under ``$FIFTYSIX_DATA_DIR`` when that is set, else under
the user data directory (platformdirs). Connections run in WAL mode with a busy timeout;
writes are ``BEGIN IMMEDIATE`` transactions, so concurrent writers queue instead of
overwriting each other, and a failure rolls back everything the transaction wrote.
"""
from __future__ import annotations

import os
import sqlite3
import urllib.parse
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from fiftysix.errors import FiftySixError

DATA_DIR_ENV = "FIFTYSIX_DATA_DIR"
DB_NAME = "progress.sqlite3"


def data_dir() -> Path:
    """Where the app keeps its data: ``$FIFTYSIX_DATA_DIR`` or the platform's user data dir."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs
    return Path(platformdirs.user_data_dir("fiftysix", appauthor=False))


def default_db_path() -> Path:
    return data_dir() / DB_NAME


class StoreError(FiftySixError):
    """The data file cannot be read or written (full disk, read-only, damaged); names the file."""


def describe(e: sqlite3.Error, path: Path, doing: str = "write") -> str:
    """A SQLite error as one line for people, naming the file."""
    msg = str(e)
    if "disk is full" in msg or "database or disk is full" in msg:
        return f"cannot {doing} {path}: the disk is full (nothing was changed; free some space and try again)"
    if "readonly" in msg or "read-only" in msg:
        return f"cannot {doing} {path}: the file or its folder is read-only"
    if "locked" in msg or "busy" in msg:
        return f"cannot {doing} {path}: another program holds the file locked ({msg})"
    return f"cannot {doing} {path}: {msg}"


def readonly_uri(path: Path) -> str:
    """A URI that opens ``path`` for reading only (immutable: no lock or -shm file is needed,
    so a library on a read-only disk can still be listed)."""
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro&immutable=1"


@contextmanager
def connect(path: Path | str, timeout: float, foreign_keys: bool = False) -> Iterator[sqlite3.Connection]:
    """A short autocommit connection with the busy timeout set; closed on exit. ``path`` may
    be a ``file:`` URI (``readonly_uri``)."""
    uri = isinstance(path, str) and path.startswith("file:")
    con = sqlite3.connect(path, timeout=timeout, isolation_level=None, uri=uri)
    try:
        con.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        if foreign_keys:
            con.execute("PRAGMA foreign_keys=ON")
        yield con
    finally:
        con.close()


@contextmanager
def transaction(path: Path, timeout: float, foreign_keys: bool = False) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE: take the write lock before reading, so read-modify-write is atomic.

    Any SQLite failure (a full disk, a read-only file) becomes a StoreError naming the
    file, after the transaction is rolled back: what was committed before stays as it was.
    """
    try:
        with connect(path, timeout, foreign_keys) as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:  # SQLite may have rolled back already (e.g. on a full disk)
                    try:
                        con.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise
    except sqlite3.Error as e:
        raise StoreError(describe(e, Path(path))) from None
