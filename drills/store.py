"""The one SQLite file behind progress and the hand library: where it lives, and safe access.

Short connections and write transactions that two app sessions can share safely; ``Store``
is the frame of the stores in the file (the progress store, the hand library).

The file is ``progress.sqlite3`` under ``$FIFTYSIX_DATA_DIR`` when that is set, else under
the user data directory (platformdirs). Connections run in WAL mode with a busy timeout;
writes are ``BEGIN IMMEDIATE`` transactions, so concurrent writers queue instead of
overwriting each other, and a failure rolls back everything the transaction wrote.
"""
from __future__ import annotations

import os
import sqlite3
import urllib.parse
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


_READY: set[tuple] = set()
"""(store class, file, its device and inode, its mode) of the files whose tables this process
has made sure of: a store opened again on the same file (every page run opens its stores) skips
the schema's statements, which take SQLite's write lock; a file replaced, deleted or made
read-only since is checked again."""


def _ready_key(kind: type, path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return kind, str(path.resolve()), st.st_dev, st.st_ino, st.st_mode, os.access(path, os.W_OK)


class Store(ABC):
    """What the stores in the data file share: opening it (for reading only when it cannot be
    written), short reading connections and write transactions, errors naming the file.

    A store names its ``kind`` of file and its ``error`` class, and says how its tables are
    made (``_create``) and whether a file it can only read is one of its own (``_readable``).
    """

    kind: str
    """What error messages call the file: "cannot use <kind> file ..."."""
    error: type[FiftySixError]
    foreign_keys = False

    def __init__(self, path: str | os.PathLike | None = None, timeout: float = 30.0) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.timeout = timeout
        self.read_only = False
        known = _ready_key(type(self), self.path)
        if known is not None and known in _READY:
            return  # this process made sure of this file's tables already (each page run opens its stores)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with connect(self.path, timeout) as con:
                con.execute("PRAGMA journal_mode=WAL")
                self._create(con)
            if (known := _ready_key(type(self), self.path)) is not None:
                _READY.add(known)
        except sqlite3.DatabaseError as e:
            if not self._open_read_only():
                raise self.error(f"cannot use {self.kind} file {self.path}: {e}") from None
        except OSError as e:
            if not self._open_read_only():
                raise self.error(f"cannot create {self.path.parent}: {e.strerror or e}") from None

    @abstractmethod
    def _create(self, con: sqlite3.Connection) -> None:
        """Make the store's tables if need be (raise ``error`` for a file from a newer fiftysix)."""

    @staticmethod
    @abstractmethod
    def _readable(con: sqlite3.Connection) -> bool:
        """Whether a file opened for reading only holds this store in a schema it can read."""

    def _open_read_only(self) -> bool:
        """Fall back to reading a file that cannot be written (a read-only file, folder or
        disk): what the store holds still shows; a write says why it cannot."""
        if not self.path.is_file():
            return False
        try:
            with connect(readonly_uri(self.path), self.timeout) as con:
                if not self._readable(con):
                    return False
        except sqlite3.DatabaseError:
            return False
        self.read_only = True
        return True

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        target = readonly_uri(self.path) if self.read_only else self.path
        try:
            with connect(target, self.timeout, self.foreign_keys) as con:
                yield con
        except sqlite3.DatabaseError as e:
            raise self.error(describe(e, self.path, "read")) from None

    def _transaction(self):
        if self.read_only:
            raise self.error(f"cannot write {self.path}: the {self.kind} file or its folder is read-only")
        return transaction(self.path, self.timeout, self.foreign_keys)
