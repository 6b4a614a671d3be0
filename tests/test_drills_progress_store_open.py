"""Sessions opening one new progress file at once (a club server's first members)."""
from __future__ import annotations

import sqlite3

import pytest

from fiftysix.drills.progress import ProgressStore, _add_column


def test_a_column_another_session_added_meanwhile_is_taken_as_added(tmp_path):
    """Found by the club crash test: two sessions opening a new file at once both saw the
    ``assignment`` column missing, and the second one's ALTER TABLE failed ("duplicate column
    name: assignment"). Made by hand here: the column is there when this session adds it."""
    path = tmp_path / "p.sqlite3"
    ProgressStore(path)
    with sqlite3.connect(path) as con:
        _add_column(con, "assignment INTEGER")  # another session added it meanwhile: no error
        with pytest.raises(sqlite3.OperationalError, match="incomplete input|syntax error"):
            _add_column(con, "assignment INTEGER INTEGER (")  # any other failure still raises
        columns = [row[1] for row in con.execute("PRAGMA table_info(reviews)")]
    assert columns.count("assignment") == 1
    ProgressStore(path)  # and the file opens again as it is
