"""Faults: a process killed while it writes, a full disk, a read-only store, two writers.

The standard (SQLite's): no fault makes the program crash or lose a committed write. A bank
file is the old version or the new one, never a part, and no hidden temporary file is left
for good; a library or progress store keeps every committed transaction, and a failed one
says why (the disk is full, the file is read-only) naming the file. The full-disk and
read-only cases run twice: simulated (SQLite's own error raised at the write) everywhere,
and for real on a tiny tmpfs where the test may mount one (root on Linux), else skipped.
"""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from fiftysix.drills import store
from fiftysix.drills.banks import Bank, BankError, load_bank, save_bank
from fiftysix.drills.library import Library, LibraryError
from fiftysix.drills.progress import ProgressStore
from fiftysix.errors import FiftySixError
from fiftysix.records import format_records, read_records

SAMPLES = [r for p in sorted((Path(__file__).resolve().parent.parent / "data" / "records").glob("*.txt"))
           for r in read_records(str(p))]

ROOT = Path(__file__).resolve().parent.parent


def _records(n: int, tag: str, event_text: str = "") -> list:
    """``n`` distinct records: the sample records under new event names."""
    from dataclasses import replace
    return [replace(SAMPLES[i % len(SAMPLES)], event=f"{tag} {i} {event_text}".strip()) for i in range(n)]


SAMPLE = load_bank(ROOT / "data" / "banks" / "international.json")


def _bank(tag: str, copies: int) -> Bank:
    """A bank big enough (about ``copies`` x 60 KB) that saving it takes a while."""
    qs = []
    for i in range(copies):
        for q in SAMPLE.questions:
            d = q.to_dict()
            d["id"] = f"{tag}-{i}-{q.id}"
            qs.append(type(q).from_dict(d, default_system=SAMPLE.system))
    return Bank(f"bank {tag}", SAMPLE.system, tuple(qs))


def _child(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def _kill_when_ready(child: subprocess.Popen, delay: float) -> None:
    line = child.stdout.readline()  # the child says "ready" once it is in its writing loop
    assert line.strip() == "ready", (line, child.stderr.read() if child.poll() is not None else "")
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


# --- kill during a write ---------------------------------------------------------------------------

@pytest.mark.parametrize("delay", [0.05, 0.4])
def test_a_bank_save_killed_half_way_leaves_the_old_or_the_new_bank(tmp_path, delay):
    path = tmp_path / "bank.json"
    a, b = _bank("a", 4), _bank("b", 4)
    save_bank(a, path)
    _write_both(tmp_path, a, b)
    child = _child(f"""
        import sys
        from fiftysix.drills.banks import load_bank, save_bank
        a, b = load_bank({str(tmp_path / "a.json")!r}), load_bank({str(tmp_path / "b.json")!r})
        print("ready", flush=True)
        while True:
            save_bank(b, {str(path)!r})
            save_bank(a, {str(path)!r})
    """)
    _kill_when_ready(child, delay)
    assert load_bank(path) in (a, b)                      # never a part of either
    save_bank(b, path)                                    # the next save clears what the killed one left
    assert _hidden(tmp_path) == []                       # no hidden temporary file lingers
    assert load_bank(path) == b


def _write_both(folder: Path, a: Bank, b: Bank) -> bool:
    save_bank(a, folder / "a.json")
    save_bank(b, folder / "b.json")
    return True


def test_a_stale_temporary_file_of_a_live_process_is_left_alone(tmp_path):
    """Only the temporary files of writers that are gone are removed: a live writer's stays."""
    path = tmp_path / "bank.json"
    live = tmp_path / f".bank.json.{os.getppid()}.abc.tmp"
    live.write_text("in progress")
    save_bank(_bank("a", 1), path)
    assert live.exists()


def test_a_library_import_killed_half_way_keeps_every_committed_file(tmp_path):
    from dataclasses import replace
    db = tmp_path / "lib.sqlite3"
    files = []
    for k in range(30):
        recs = [replace(r, event=f"file {k}") for r in _records(8, f"f{k}")]
        f = tmp_path / f"r{k}.txt"
        f.write_text(format_records(recs), encoding="utf-8")
        files.append(str(f))
    Library(db).import_files(files[:1])
    child = _child(f"""
        from fiftysix.drills.library import Library
        lib = Library({str(db)!r})
        print("ready", flush=True)
        for f in {files[1:]!r}:
            lib.import_files([f])
    """)
    _kill_when_ready(child, 0.3)
    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    lib = Library(db)
    entries = lib.list()
    assert len(entries) % 8 == 0 and len(entries) >= 8     # whole files only: each import is one transaction
    events = {e.event for e in entries}  # one event name per file
    assert all(sum(e.event == ev for e in entries) == 8 for ev in events)


# --- a full disk ----------------------------------------------------------------------------------

class _FullDisk:
    """A connection whose writes fail as SQLite's do on a full disk (after SQLite rolls back)."""

    def __init__(self, con: sqlite3.Connection, fail_on: tuple[str, ...]):
        self._con, self._fail_on = con, fail_on

    def execute(self, sql: str, *args):
        if sql.lstrip().upper().startswith(self._fail_on):
            if self._con.in_transaction:
                self._con.execute("ROLLBACK")            # SQLite ends the transaction itself on SQLITE_FULL
            raise sqlite3.OperationalError("database or disk is full")
        return self._con.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._con, name)


@pytest.fixture
def full_disk(monkeypatch):
    real = store.connect

    @contextmanager
    def connect(path, timeout, foreign_keys=False):
        with real(path, timeout, foreign_keys) as con:
            yield _FullDisk(con, ("INSERT", "UPDATE"))

    monkeypatch.setattr(store, "connect", connect)


def test_a_full_disk_during_a_library_import_says_so_and_keeps_the_library(tmp_path, monkeypatch):
    lib = Library(tmp_path / "lib.sqlite3")
    lib.add(_records(1, "one"))
    real = store.connect

    @contextmanager
    def connect(path, timeout, foreign_keys=False):
        with real(path, timeout, foreign_keys) as con:
            yield _FullDisk(con, ("INSERT",))
    monkeypatch.setattr(store, "connect", connect)
    with pytest.raises(LibraryError, match=r"lib\.sqlite3: the disk is full") as e:
        lib.add(_records(1, "two"))
    assert "rollback" not in str(e.value)
    monkeypatch.setattr(store, "connect", real)
    assert lib.count() == 1


@pytest.mark.filterwarnings("ignore:pandas only supports SQLAlchemy")  # the test's stand-in connection
def test_a_full_disk_while_an_answer_is_saved_is_an_error_and_the_quiz_goes_on(tmp_path, monkeypatch, capsys,
                                                                               full_disk):
    from fiftysix.ui.commands.drills import _dialogue
    from fiftysix.ui.commands.output import write
    progress = ProgressStore(tmp_path / "p.sqlite3")
    q = SAMPLE.questions[0]
    with pytest.raises(FiftySixError, match=r"p\.sqlite3: the disk is full"):
        progress.record_answer(q, q.answers[0])
    answers = iter(["1", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert write(_dialogue(list(SAMPLE.questions[:2]), progress), as_json=False) == 0
    out, err = capsys.readouterr()
    assert "of 2 right" in out and err.count("not recorded") == 1
    assert len(progress.history()) == 0


@pytest.fixture
def tiny_disk(tmp_path):
    """A 256 KB tmpfs mounted in tmp_path (root on Linux only; skipped elsewhere)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
                                           capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True, check=False)


def test_a_really_full_disk(tiny_disk):
    lib = Library(tiny_disk / "lib.sqlite3")
    lib.add(_records(1, "one"))
    big = _records(300, "big", "E" * 400)
    with pytest.raises(LibraryError, match="the disk is full"):
        lib.add(big)
    assert lib.count() == 1
    path = tiny_disk / "bank.json"
    save_bank(_bank("a", 1), path)
    before = path.read_bytes()
    with pytest.raises(BankError, match=r"cannot write .*/bank\.json: No space left on device"):
        save_bank(_bank("b", 40), path)
    assert path.read_bytes() == before and _hidden(tiny_disk) == []


# --- a read-only store ------------------------------------------------------------------------------

def test_a_read_only_library_can_be_listed_and_refuses_writes(tiny_disk, capsys):
    from fiftysix.ui.cli import main
    db = tiny_disk / "lib.sqlite3"
    Library(db).add(_records(1, "one"))
    ProgressStore(db).record_answer(SAMPLE.questions[0], SAMPLE.questions[0].answers[0])
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_disk)], check=True)
    lib = Library(db)
    assert lib.read_only and lib.count() == 1
    assert main(["library", "list", "--db", str(db)]) == 0
    assert "1 record(s)" in capsys.readouterr().out
    with pytest.raises(LibraryError, match="read-only"):
        lib.add(_records(1, "two"))
    progress = ProgressStore(db)
    assert len(progress.history()) == 1
    with pytest.raises(FiftySixError, match="read-only"):
        progress.record_answer(SAMPLE.questions[0], "x")


def test_a_read_only_library_simulated(tmp_path, monkeypatch):
    """Where no read-only disk can be mounted: SQLite refuses every write to the file."""
    db = tmp_path / "lib.sqlite3"
    Library(db).add(_records(1, "one"))
    real = store.connect

    @contextmanager
    def connect(path, timeout, foreign_keys=False):
        with real(path, timeout, foreign_keys) as con:
            if isinstance(path, str) and "mode=ro" in path:
                yield con
                return

            class ReadOnly(_FullDisk):
                def execute(self, sql, *args):
                    if not sql.lstrip().upper().startswith(("SELECT", "PRAGMA BUSY", "PRAGMA FOREIGN")):
                        raise sqlite3.OperationalError("attempt to write a readonly database")
                    return con.execute(sql, *args)
            yield ReadOnly(con, ())
    monkeypatch.setattr(store, "connect", connect)
    # as a process that has not opened the file yet finds it (a file made read-only on disk changes
    # its mode or access, which store._READY's key holds; this simulation changes neither)
    monkeypatch.setattr(store, "_READY", set())
    lib = Library(db)
    assert lib.read_only and [e.id for e in lib.list()] == [1]
    with pytest.raises(LibraryError, match="read-only"):
        lib.add(_records(1, "two"))


# --- two writers ------------------------------------------------------------------------------------

def test_two_processes_importing_at_once_lose_nothing(tmp_path):
    db = tmp_path / "lib.sqlite3"
    Library(db)
    children = []
    for k in range(2):
        files = []
        for j in range(5):
            f = tmp_path / f"w{k}-{j}.txt"
            f.write_text(format_records(_records(4, f"w{k}-{j}")), encoding="utf-8")
            files.append(str(f))
        children.append(_child(f"""
            from fiftysix.drills.library import Library
            lib = Library({str(db)!r})
            for f in {files!r}:
                lib.import_files([f])
            print("done", flush=True)
        """))
    for c in children:
        out, err = c.communicate(timeout=300)
        assert c.returncode == 0 and out.strip() == "done", err
    assert Library(db).count() == 2 * 5 * 4
