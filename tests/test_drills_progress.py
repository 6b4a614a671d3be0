"""The progress store: reviews and FSRS cards in SQLite, concurrency, accuracy DataFrames."""
from __future__ import annotations

import multiprocessing as mp
import sqlite3
import threading
from collections import defaultdict
from datetime import UTC, datetime, timedelta

import pytest

from fiftysix.drills.progress import ProgressError, ProgressStore
from fiftysix.drills.questions import Context, Question
from fiftysix.drills.store import DATA_DIR_ENV, default_db_path

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _q(i: int, system: str = "international", family: str = "plus", players: int = 6) -> Question:
    deck = {4: 32, 6: 48, 8: 64}[players]
    return Question(id=f"q{i}", type="meaning", context=Context(system, players, deck, "alternate", 1, ""),
                    prompt="p?", choices=("right", "wrong"), answers=("right",), family=family)


def test_path_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "progress.sqlite3"
    store = ProgressStore()
    assert store.path.exists()
    con = sqlite3.connect(store.path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_not_a_database_is_a_clear_error(tmp_path):
    bad = tmp_path / "progress.sqlite3"
    bad.write_text("this is not sqlite " * 100)
    with pytest.raises(ProgressError, match="cannot use progress file"):
        ProgressStore(bad)


def test_answers_update_cards_and_history(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    q = _q(1)
    card = store.record_answer(q, "right", now=T0)
    assert card.due > T0 and store.cards()[q.template].due == card.due
    card2 = store.record_answer(q, "wrong", now=card.due)
    assert store.card_stats(q.template) == {"reps": 2, "lapses": 1}
    h = store.history()
    assert list(h["correct"]) == [True, False] and list(h["response"]) == ["right", "wrong"]
    assert h["due_after"].iloc[-1].to_pydatetime() == card2.due
    other = ProgressStore(tmp_path / "p.sqlite3", learner="someone else")
    assert other.cards() == {} and other.history().empty


def test_accuracy_by_system_family_and_time_matches_a_plain_count(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    answers = []
    for i in range(40):
        system = ("international", "kerala")[i % 2]
        family = ("plus", "ns", "number-suit")[i % 3]
        right = (i * 7) % 5 != 0
        when = T0 + timedelta(days=i // 15, minutes=i)
        store.record_answer(_q(i, system, family), "right" if right else "wrong", now=when)
        answers.append((system, family, when.date(), right))
    for key, col in (("system", 0), ("family", 1)):
        expected = defaultdict(lambda: [0, 0])
        for a in answers:
            expected[a[col]][0] += 1
            expected[a[col]][1] += a[3]
        df = store.accuracy(key)
        got = {r[key]: [r["answered"], r["right"]] for _, r in df.iterrows()}
        assert got == {k: v for k, v in expected.items()}
        for _, r in df.iterrows():
            assert r["accuracy"] == pytest.approx(r["right"] / r["answered"])
    both = store.accuracy(["system", "family"])
    assert len(both) == 6 and both["answered"].sum() == 40
    daily = store.accuracy_over_time("D")
    per_day = defaultdict(lambda: [0, 0])
    for a in answers:
        per_day[a[2]][0] += 1
        per_day[a[2]][1] += a[3]
    assert {r["period"].date(): [r["answered"], r["right"]] for _, r in daily.iterrows()} == dict(per_day)
    assert set(store.accuracy_over_time("W", by="system")["system"]) == {"international", "kerala"}
    with pytest.raises(ProgressError, match="cannot group by 'colour'"):
        store.accuracy("colour")


def test_new_learner_is_not_flooded_and_due_cards_come_back(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    pool = [_q(i, family=f"f{i}") for i in range(30)]
    first = store.next_questions(pool, n=20, now=T0, new_per_day=5)
    assert len(first) == 5
    for q in first:
        store.record_answer(q, "right", now=T0)
    assert store.new_today(T0) == 5
    later = T0 + timedelta(hours=1)  # the five are due again (learning steps), no new ones today
    again = store.next_questions(pool, n=20, now=later, new_per_day=5)
    assert sorted(q.id for q in again) == sorted(q.id for q in first)
    tomorrow = T0 + timedelta(days=1, hours=1)
    nxt = store.next_questions(pool, n=20, now=tomorrow, new_per_day=5)
    assert len(nxt) == 10 and {q.id for q in first} <= {q.id for q in nxt}
    assert all(q in first for q in nxt[:5])  # the due ones come first


def _answer_many(path: str, learner: str, start: int, n: int) -> None:
    store = ProgressStore(path, learner=learner)
    q = _q(0)
    for i in range(n):
        store.record_answer(q, "right" if i % 2 else "wrong", now=T0 + timedelta(seconds=start + i))


def test_two_processes_answering_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "p.sqlite3")
    ProgressStore(path)
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=_answer_many, args=(path, "me", k * 1000, 40)) for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    store = ProgressStore(path, learner="me")
    assert len(store.history()) == 80
    assert store.card_stats(_q(0).template)["reps"] == 80  # every read-modify-write of the card counted


def test_two_threads_sharing_one_store_lose_nothing(tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    q = _q(0)
    errors = []

    def work(k: int) -> None:
        try:
            for i in range(30):
                store.record_answer(q, "right", now=T0 + timedelta(seconds=k * 100 + i))
        except Exception as e:  # noqa: BLE001 - surfaced by the assertion below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.history()) == 90 and store.card_stats(q.template)["reps"] == 90
