"""The hand library: import / list / search / export against plain filtering of the parsed
records, all-or-nothing imports, and the shared data file."""
from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from fiftysix.drills.library import Library, LibraryError, digest
from fiftysix.records import RecordError, format_record, format_records, parse_records, read_records
from fiftysix.ui.cli import main
from tests.test_records import SAMPLES, random_record


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    return Library(tmp_path / "data.sqlite3")


def _all_samples() -> list:
    out = []
    for p in SAMPLES:
        out.extend(read_records(str(p)))
    return out


def _texts(records) -> set[str]:
    return {format_record(r) for r in records}


def test_import_list_export_round_trip(lib: Library, tmp_path: Path):
    rep = lib.import_files([str(p) for p in SAMPLES])
    recs = _all_samples()
    assert rep.read == len(recs) and rep.added == len(set(_texts(recs))) and rep.duplicates == 0
    assert lib.count() == rep.added
    again = lib.import_files([str(SAMPLES[0])])
    assert again.added == 0 and again.duplicates == again.read > 0
    out = tmp_path / "out.txt"
    n = lib.export(out)
    assert n == lib.count()
    assert _texts(read_records(str(out))) == _texts(recs)
    for e in lib.list():
        assert format_record(lib.get(e.id)) in _texts(recs)


def _expected(recs, **f) -> set[str]:
    """Plain filtering of parsed records, written independently of the SQL."""
    out = set()
    for r in recs:
        c = r.contract
        if "player" in f and not any(f["player"].lower() in n.lower() for n in r.players):
            continue
        if "system" in f and r.system != f["system"]:
            continue
        if "strain" in f and (c is None or c.strain != f["strain"]):
            continue
        if "value" in f and (c is None or c.value != f["value"]):
            continue
        if "made" in f and r.made is not f["made"]:
            continue
        if "since" in f and not (r.date and r.date >= f["since"]):
            continue
        if "until" in f and not (r.date and r.date <= f["until"]):
            continue
        if "players" in f and r.table.players != f["players"]:
            continue
        out.add(format_record(r))
    return out


def test_search_matches_plain_filtering(lib: Library):
    recs = _all_samples()
    lib.add(recs, "samples")
    pick = recs[3]
    cases = [
        ({"player": "anil"}, {"player": "anil"}),
        ({"player": "RI"}, {"player": "ri"}),
        ({"system": "international"}, {"system": "international"}),
        ({"system": "kerala", "result": "failed"}, {"system": "kerala", "made": False}),
        ({"result": "made"}, {"made": True}),
        ({"contract": "NT"}, {"strain": "NT"}),
        ({"contract": str(pick.contract.value) + pick.contract.strain},
         {"value": pick.contract.value, "strain": pick.contract.strain}),
        ({"contract": "28"}, {"value": 28}),
        ({"since": "2026.11"}, {"since": "2026.11.01"}),
        ({"until": "2026.10.31"}, {"until": "2026.10.31"}),
        ({"since": "2026.10.03", "until": "2026.10.03", "players": 8}, {"since": "2026.10.03",
                                                                         "until": "2026.10.03", "players": 8}),
    ]
    for query, plain in cases:
        got = {format_record(lib.get(e.id)) for e in lib.search(**query)}
        assert got == _expected(recs, **plain), query
    assert lib.search(player="nobody-of-that-name") == []


def test_result_points_filter(lib: Library):
    recs = [random_record(4, 32, "alternate", s, date=f"2026.01.0{s % 9 + 1}") for s in range(12)]
    lib.add(recs)
    for want in (10, 20, 30):
        got = {format_record(lib.get(e.id)) for e in lib.search(result=f"{want}+")}
        assert got == {format_record(r) for r in recs if r.result >= want}
        got = {format_record(lib.get(e.id)) for e in lib.search(result=f"{want}-")}
        assert got == {format_record(r) for r in recs if r.result <= want}


def test_bad_filters_are_errors(lib: Library):
    # a number past SQLite's 64-bit integers could not be bound (the fuzz suite's
    # "--contract 18446744073709551616", 2026-12-04); "²" is a digit to str.isdigit, not to int
    for kw in ({"contract": "sixty"}, {"result": "maybe"}, {"since": "last week"},
               {"contract": "18446744073709551616"}, {"contract": "²"}):
        with pytest.raises(LibraryError):
            lib.search(**kw)
    with pytest.raises(LibraryError, match="no record 999"):
        lib.get(999)


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    good = format_record(random_record(4, 32, "alternate", 3))
    deal_line = next(line for line in good.splitlines() if line.startswith("[Deal \""))
    r = random.Random(0)
    files = {
        "unknown tag": good.replace("[Deck", '[Vulnerable "All"]\n[Deck'),
        "bad deal": good.replace(deal_line, deal_line.replace("J", "K", 1)),
        "illegal call": ('[Table "4"]\n[Deal "JJ9A.JJ9A.. 9ATT.9ATT.. ..JJ9A.JJ9A ..9ATT.9ATT"]\n'
                         '[Auction]\n28S P 28H P\nP P\n'),
        "illegal card": good.rsplit("[Result", 1)[0] + "JH JH JH JH JH\n",
        "truncated": good[: good.index("[Play") + 20],
    }
    paths = {}
    for k, text in files.items():
        p = tmp_path / (k.replace(" ", "_") + ".txt")
        p.write_text(format_records([random_record(6, 48, "alternate", 9)]) + "\n" + text, encoding="utf-8")
        paths[k] = p
    junk = tmp_path / "garbage.bin"
    junk.write_bytes(bytes(r.getrandbits(8) for _ in range(1 << 16)) * 160)
    paths["10 MB of garbage"] = junk
    return paths


def test_bad_files_write_nothing(lib: Library, tmp_path: Path):
    lib.import_files([str(SAMPLES[0])])
    before = lib.count()
    db_before = sqlite3.connect(lib.path).execute("SELECT COUNT(*) FROM library_players").fetchone()[0]
    good = tmp_path / "good.txt"
    good.write_text(format_records([random_record(8, 64, "pairs", 5)]), encoding="utf-8")
    for problem, path in _bad_files(tmp_path).items():
        with pytest.raises(RecordError):
            lib.import_files([str(good), str(path)])  # a good file first: still nothing written
        assert lib.count() == before, problem
    con = sqlite3.connect(lib.path)
    assert con.execute("SELECT COUNT(*) FROM library_players").fetchone()[0] == db_before
    with pytest.raises(LibraryError, match="no such file"):
        lib.import_files([str(tmp_path / "missing.txt")])


def test_shares_the_progress_file(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path / "home"))
    from fiftysix.drills.progress import ProgressStore
    from fiftysix.drills.store import default_db_path
    lib = Library()
    assert lib.path == default_db_path() and lib.path.parent == tmp_path / "home"
    lib.add([random_record(4, 32, "alternate", 1)])
    store = ProgressStore()  # the progress store opens the same file with the library in it
    assert store.path == lib.path
    assert store.cards() == {}
    assert Library().count() == 1
    tables = {r[0] for r in sqlite3.connect(lib.path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"library_records", "library_players", "reviews", "cards"} <= tables


def test_cli_library(tmp_path: Path, capsys):
    db = str(tmp_path / "cli.sqlite3")
    assert main(["library", "import", *map(str, SAMPLES), "--db", db, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["added"] == len(_texts(_all_samples()))
    assert main(["library", "search", "--player", "anil", "--result", "made", "--db", db, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    want = _expected(_all_samples(), player="anil", made=True)
    assert len(rows) == len(want) and all(r["made"] for r in rows)
    out = tmp_path / "made.txt"
    assert main(["library", "export", str(out), "--result", "made", "--db", db]) == 0
    capsys.readouterr()
    assert _texts(parse_records(out.read_text(encoding="utf-8"))) == _expected(_all_samples(), made=True)
    assert main(["library", "list", "--db", db]) == 0
    assert f"{rep['added']} record(s)" in capsys.readouterr().out
    bad = tmp_path / "bad.txt"
    bad.write_text('[Table "4"]\n[Bogus "1"]\n', encoding="utf-8")
    assert main(["library", "import", str(bad), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "unknown tag [Bogus]" in err and "Traceback" not in err


def test_add_refuses_an_illegal_record_built_in_code(lib: Library):
    from dataclasses import replace

    from fiftysix.records import Noted
    rec = random_record(4, 32, "alternate", 6)
    first = rec.play[0].token
    hand1 = rec.deal.hand(rec.leader)
    stranger = next(str(c) for c in rec.table.kinds() if c not in hand1)
    bad = replace(rec, play=(Noted(stranger),) + rec.play[1:])
    assert stranger != first
    with pytest.raises(RecordError, match="card 1 of the play is illegal"):
        lib.add([rec, bad])
    assert lib.count() == 0
    assert lib.add([rec]).added == 1


# --- owners: each member's private records and the club library -------------------------------

def test_each_member_reads_their_own_and_the_shared_records_and_changes_only_their_own(tmp_path: Path):
    path = tmp_path / "club.sqlite3"
    recs = _all_samples()[:4]
    ann = Library(path, owner="oidc:idp|ann", owner_name="Ann")
    bob = Library(path, owner="oidc:idp|bob", owner_name="Bob")
    a_ids = ann.add(recs[:3]).ids
    b_ids = bob.add(recs[2:4]).ids
    assert len(b_ids) == 2  # recs[2] is Ann's too: a private copy each, not a duplicate of hers
    assert {e.id for e in ann.list()} == set(a_ids) and {e.id for e in bob.list()} == set(b_ids)
    assert ann.count() == 3 and bob.count() == 2
    with pytest.raises(LibraryError, match="no record"):
        bob.get(a_ids[0])  # private: as if it were not there
    with pytest.raises(LibraryError, match="no record"):
        bob.delete([a_ids[0]])
    assert ann.share([a_ids[0]]) == 1 and ann.share([a_ids[0]]) == 0
    assert format_record(bob.get(a_ids[0])) == format_record(recs[0])
    seen = {e.id: e for e in bob.list()}
    assert seen[a_ids[0]].shared and not seen[a_ids[0]].mine and seen[a_ids[0]].owner_name == "Ann"
    assert [e.id for e in bob.search(scope="club")] == [a_ids[0]]
    assert {e.id for e in bob.search(scope="mine")} == set(b_ids)
    for change in (lambda: bob.delete([b_ids[0], a_ids[0]]), lambda: bob.share([a_ids[0]], False)):
        with pytest.raises(LibraryError, match="not yours"):
            change()
    assert bob.count() == 3  # the refused deletion took nothing, not even Bob's own record
    assert ann.delete([a_ids[0]]) == 1
    assert {e.id for e in bob.list()} == set(b_ids)
    everyone = Library(path)  # the command line, on the server's own computer: every record
    assert everyone.count() == 4 and everyone.delete([b_ids[0]]) == 1


V1_SCHEMA = """
CREATE TABLE library_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE library_records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, digest TEXT NOT NULL UNIQUE, text TEXT NOT NULL, event TEXT NOT NULL,
    date TEXT NOT NULL, players INTEGER NOT NULL, deck INTEGER NOT NULL, teams TEXT NOT NULL, system TEXT NOT NULL,
    contract TEXT NOT NULL, value INTEGER, strain TEXT NOT NULL, declarer INTEGER, result INTEGER, made INTEGER,
    source TEXT NOT NULL, imported_at TEXT NOT NULL);
CREATE TABLE library_players (
    record_id INTEGER NOT NULL REFERENCES library_records(id) ON DELETE CASCADE, seat INTEGER NOT NULL,
    name TEXT NOT NULL, PRIMARY KEY (record_id, seat));
INSERT INTO library_meta VALUES ('schema', '1');
"""


def test_a_library_from_before_owners_keeps_every_record(tmp_path: Path):
    """A file written by the first schema (the text above is that schema): its records keep their
    ids, names and text, belong to the local player, and can be deleted with their names."""
    path = tmp_path / "old.sqlite3"
    recs = [r for r in _all_samples() if any(r.players)][:3]
    with sqlite3.connect(path) as con:
        con.executescript(V1_SCHEMA)
        for i, r in enumerate(recs, start=5):
            con.execute("INSERT INTO library_records VALUES (?, ?, ?, '', '', ?, ?, ?, ?, '', NULL, '', NULL, NULL,"
                        " NULL, 'old', '')", (i, digest(r), format_record(r), r.table.players, r.table.deck,
                                              r.table.teams, r.system))
            for seat, name in enumerate(r.players, start=1):
                if name:
                    con.execute("INSERT INTO library_players VALUES (?, ?, ?)", (i, seat, name))
    lib = Library(path)
    assert [format_record(lib.get(i)) for i in (5, 6, 7)] == [format_record(r) for r in recs]
    assert Library(path, owner="oidc:idp|ann").count() == 0  # private to the local player
    assert {n for e in lib.list() for n in e.names if n} == {n for r in recs for n in r.players if n}
    assert lib.add(recs[:1]).duplicates == 1
    assert lib.add([_all_samples()[-1]]).ids[0] == 8  # ids go on after the old ones
    lib.delete([5])
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT COUNT(*) FROM library_players WHERE record_id=5").fetchone()[0] == 0
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
