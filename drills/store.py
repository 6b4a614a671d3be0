"""The one embedded SQLite file behind progress and the hand library: where it lives, and
short connections and write transactions that two app sessions can share safely.

The file is ``progress.sqlite3`` under ``$FIFTYSIX_DATA_DIR`` when that is set, else under
the user data directory (platformdirs). Connections run in WAL mode with a busy timeout;
writes are ``BEGIN IMMEDIATE`` transactions, so concurrent writers queue instead of
overwriting each other, and a failure rolls back everything the transaction wrote.
"""
from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

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


@contextmanager
def connect(path: Path, timeout: float, foreign_keys: bool = False) -> Iterator[sqlite3.Connection]:
    """A short autocommit connection with the busy timeout set; closed on exit."""
    con = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    try:
        con.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        if foreign_keys:
            con.execute("PRAGMA foreign_keys=ON")
        yield con
    finally:
        con.close()


@contextmanager
def transaction(path: Path, timeout: float, foreign_keys: bool = False) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE: take the write lock before reading, so read-modify-write is atomic."""
    with connect(path, timeout, foreign_keys) as con:
        con.execute("BEGIN IMMEDIATE")
        try:
            yield con
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
