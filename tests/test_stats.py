"""The statistics job on a real Dask cluster (loopback only): same rows however the work is split,
through a worker's death and a resumed run; double-dummy values checked against ``solve``."""
from __future__ import annotations

import functools
import logging
import os
import socket

import pyarrow as pa
import pytest

from fiftysix.analyser import solver
from fiftysix.cards import SUITS
from fiftysix.errors import FiftySixError
from fiftysix.stats import job
from fiftysix.stats.deals import STRAINS, RunSpec, chunk_table, deal_of
from fiftysix.stats.summary import summarise, wilson
from fiftysix.ui.cli import main

# 4 players, 32 cards: the fastest table to solve; two systems share each deal's solve.
SPEC = RunSpec(("international", "kerala"), players=4, deck=32, deals=8, seed=11, chunk=2)
ORDER = [("system", "ascending"), ("deal", "ascending"), ("index", "ascending")]


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def serial() -> pa.Table:
    """The rows computed in this process, chunk after chunk: the reference."""
    return pa.concat_tables(chunk_table(SPEC, k) for k in range(SPEC.chunks)).sort_by(ORDER)


def rows_of(out) -> pa.Table:
    _, rows, deals = job.read_run(out)
    assert deals == SPEC.deals
    return rows.sort_by(ORDER)


def test_two_workers_give_the_serial_rows(client, serial, tmp_path):
    report = job.run(SPEC, tmp_path, client=client, progress=False)
    assert report["written"] == SPEC.chunks and report["workers"] == 2
    assert sorted(p.name for p in tmp_path.glob("chunk-*.parquet")) == [f"chunk-{k:06d}.parquet" for k in range(4)]
    got = rows_of(tmp_path)
    assert got.num_rows > 8 * 2 * 4  # at least one round of calls per deal and system
    assert got.to_pylist() == serial.to_pylist()


def _dies_once(marker: str, spec: RunSpec, k: int) -> pa.Table:
    """The chunk task, except that the first worker to run chunk 1 dies in the middle of it."""
    if k == 1 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return chunk_table(spec, k)


def test_a_killed_worker_only_costs_its_chunk(client, serial, tmp_path):
    marker = tmp_path / "died"
    out = tmp_path / "run"
    report = job.run(SPEC, out, client=client, progress=False, task=functools.partial(_dies_once, str(marker)))
    assert marker.exists()  # a worker process did die mid-run
    assert report["written"] == SPEC.chunks
    assert rows_of(out).to_pylist() == serial.to_pylist()


def test_resume_after_an_interrupted_run(client, serial, tmp_path):
    def stop(k):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        job.run(SPEC, tmp_path, client=client, progress=False, on_chunk=stop)
    left = len(list(tmp_path.glob("chunk-*.parquet")))
    assert 1 <= left < SPEC.chunks
    with pytest.raises(FiftySixError, match="--resume"):
        job.run(SPEC, tmp_path, client=client, progress=False)
    other = RunSpec(SPEC.systems, players=4, deck=32, deals=8, seed=12, chunk=2)
    with pytest.raises(FiftySixError, match="different run: seed"):
        job.run(other, tmp_path, client=client, progress=False, resume=True)
    report = job.run(SPEC, tmp_path, client=client, progress=False, resume=True)
    assert report["skipped"] == left and report["written"] == SPEC.chunks - left
    assert rows_of(tmp_path).to_pylist() == serial.to_pylist()


def test_double_dummy_values_agree_with_solve(serial):
    """Each dd value v: ``solve`` says the team can take v and cannot take v + 1 (seat 1 leads)."""
    table = SPEC.table
    checked = set()
    for row in serial.to_pylist():
        if row["system"] != SPEC.systems[0] or row["deal"] >= 3 or row["seat"] > 2:
            continue
        deal = deal_of(table, SPEC.seed, row["deal"])
        team = table.team_of(row["seat"])
        for s in STRAINS:
            if (row["deal"], team, s) in checked:
                continue
            checked.add((row["deal"], team, s))
            pos = solver.Position(table, deal.hands, None if s == "NT" else SUITS.index(s), 1)
            v = row[f"dd_{s}"]
            assert solver.solve(pos, v, team)
            assert v == 56 or not solver.solve(pos, v + 1, team)
        if row["strain"] is not None:
            assert row["dd"] == row[f"dd_{row['strain']}"]
        if row["contract"] is not None:
            strain = "NT" if row["contract"].rstrip("x")[-2:] == "NT" else row["contract"].rstrip("x")[-1]
            # the result is the declaring team's value, which is 56 minus the other team's
            mine = row[f"dd_{strain}"]
            assert row["result"] == (mine if row["declarer_team"] == team else 56 - mine)
    assert len(checked) == 3 * 2 * 5


def test_summary_counts_and_intervals(client, tmp_path):
    job.run(SPEC, tmp_path, client=client, progress=False)
    rows = job.read_run(tmp_path)[1].to_pylist()
    summary = summarise(tmp_path, system="kerala", after="")
    opening = [r for r in rows if r["system"] == "kerala" and r["index"] == 1]
    for g in summary["groups"]:
        mine = [r for r in opening if r["call"] == g["call"]]
        assert g["count"] == len(mine)
        pts = [r["dd"] if r["dd"] is not None else max(r[f"dd_{s}"] for s in STRAINS) for r in mine]
        assert g["share"][0] == pytest.approx(sum(p >= 28 for p in pts) / len(mine), abs=1e-4)
        assert sum(g["hist"]) == len(mine)
    assert sum(g["count"] for g in summary["groups"]) == SPEC.deals


def test_wilson_interval_matches_scipy():
    from scipy.stats import binomtest
    for k, n in ((0, 10), (3, 10), (41, 100), (100, 100)):
        ci = binomtest(k, n).proportion_ci(method="wilson")
        assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_command_runs_a_local_cluster_and_shows(tmp_path, capsys, serial):
    out = tmp_path / "run"
    assert main(["stats", "run", "--system", "international,kerala", "--players", "4", "-n", "8", "--seed", "11",
                 "--chunk", "2", "--workers", "2", "--no-progress", "-o", str(out), "--json"]) == 0
    assert rows_of(out).to_pylist() == serial.to_pylist()
    capsys.readouterr()
    assert main(["stats", "show", str(out), "--system", "kerala", "--call", "28H"]) == 0
    text = capsys.readouterr().out
    assert "points histogram" in text or "no call matches" in text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("extra, words", [
    (["-n", "0"], "at least 1"),
    (["--cluster", "tcp://127.0.0.1:{port}", "--connect-timeout", "2"], "cannot reach the Dask scheduler"),
    (["--bots", "nosuch"], "unknown bot"),
    (["--system", "nosuch"], "unknown bidding system"),
    (["--out-is-file"], "not a directory"),
])
def test_bad_arguments_are_one_clear_error(tmp_path, capsys, extra, words):
    out = tmp_path / "out"
    args = ["stats", "run", "--system", "kerala", "--players", "4", "-n", "4", "--no-progress"]
    if extra == ["--out-is-file"]:
        out.write_text("not a directory")
        extra = []
    args += [a.format(port=_free_port()) for a in extra] + ["-o", str(out)]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err


def test_shipped_summaries_cover_the_five_systems():
    """data/stats holds one summary per system at 6 players, each consistent with its histogram."""
    from fiftysix.bidding.systems import SYSTEMS
    from fiftysix.cards import Table
    from fiftysix.stats.summary import load_shipped
    table = Table.make(6)
    for name in SYSTEMS:
        doc = load_shipped(name, table.players, table.deck, table.teams)
        assert doc is not None and doc["deals"] >= 100, name
        openings = [e for k, e in doc["calls"].items() if k.startswith("|")]
        assert openings and sum(e["count"] for e in openings) <= doc["deals"]
        for entry in doc["calls"].values():
            assert sum(entry["hist"]) == entry["count"] >= doc["min_count"]
            # 28+ counts the bins from 28 up (bins of 4 points)
            assert entry["share"][0] == pytest.approx(sum(entry["hist"][7:]) / entry["count"], abs=1e-4)


def test_explain_page_shows_what_a_call_is_worth(tmp_path, monkeypatch):
    from fiftysix.cards import Table
    from fiftysix.stats.summary import call_worth
    from tests.app_harness import open_page
    doc, _ = call_worth("kerala", Table.make(6), "", "P")
    opening, entry = max(((k.split("|")[1], e) for k, e in doc["calls"].items() if k.startswith("|")),
                         key=lambda ke: ke[1]["count"])
    at = open_page("explain", tmp_path, monkeypatch, system="kerala")
    at.text_input(key="ex_text").input(opening).run()
    assert not at.exception, [e.value for e in at.exception]
    # the popover of the call's worth (the page has others, such as its glossary words)
    popover = next(p for p in at.get("popover") if any("opened:" in m.value for m in p.markdown))
    text = "".join(m.value for m in popover.markdown)
    assert f"{opening} opened: {entry['count']:,} deals" in text
    assert f"28+ in {entry['share'][0]:.0%}" in text
    assert f"{entry['count']:,} of {doc['deals']:,} " in "".join(c.value for c in popover.caption)
    assert len(at.get("plotly_chart")) >= 1


def test_show_on_something_that_is_not_a_run_is_one_clear_error(tmp_path, capsys):
    assert main(["stats", "show", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no statistics run" in err


def test_resume_redoes_damaged_chunks_and_show_names_them(client, serial, tmp_path, capsys):
    """A truncated chunk, an empty one and one copied from another chunk are not finished:
    ``show`` names the first and says --resume; ``run --resume`` redoes all three."""
    job.run(SPEC, tmp_path, client=client, progress=False)
    one = job.chunk_path(tmp_path, 1)
    one.write_bytes(one.read_bytes()[: one.stat().st_size // 2])
    job.chunk_path(tmp_path, 2).write_bytes(b"")
    job.chunk_path(tmp_path, 3).write_bytes(job.chunk_path(tmp_path, 0).read_bytes())
    capsys.readouterr()
    assert main(["stats", "show", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "chunk-000001.parquet is damaged" in err and "--resume" in err, err
    report = job.run(SPEC, tmp_path, client=client, progress=False, resume=True)
    assert report["redone"] == 3 and report["written"] == 3 and report["skipped"] == 1
    assert rows_of(tmp_path).to_pylist() == serial.to_pylist()


def test_a_chunk_whose_rows_differ_from_its_footer_is_damaged(tmp_path):
    """Rows of a chunk that do not match what was written (a row lost, the deal column of
    another chunk) are found without trusting the file's name."""
    spec = RunSpec(("kerala",), players=4, deck=32, deals=4, seed=11, chunk=2)
    job.prepare(tmp_path, spec, resume=False)
    rows = chunk_table(spec, 0)
    job.write_chunk(tmp_path, spec, 0, rows)
    assert job.chunk_problem(tmp_path, spec, 0) is None
    job.write_chunk(tmp_path, spec, 1, rows)  # chunk 0's rows under chunk 1's name
    assert "cover" in job.chunk_problem(tmp_path, spec, 1)
    assert job.chunk_problem(tmp_path, spec, 1) is not None and job.prepare(tmp_path, spec, True)[1] == [1]


@pytest.mark.parametrize("text", ["[]", "null", '{"systems": 5}', '{"systems": ["kerala"], "players": "x"}', "\x00"])
@pytest.mark.parametrize("command", ["show", "run"])
def test_a_manifest_of_the_wrong_shape_is_one_clear_error(tmp_path, capsys, text, command):
    (tmp_path / job.MANIFEST).write_text(text)
    args = (["stats", "show", str(tmp_path)] if command == "show" else
            ["stats", "run", "--system", "kerala", "--players", "4", "-n", "4", "--no-progress", "--resume",
             "-o", str(tmp_path)])
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not a run manifest" in err, err


@pytest.mark.parametrize("error", [TypeError, AttributeError, KeyError])
def test_the_last_guard_catches_any_defect_as_one_line(tmp_path, capsys, monkeypatch, error):
    from fiftysix.stats import summary

    def broken(*a, **kw):
        raise error("a defect")

    monkeypatch.setattr(summary, "summarise", broken)
    assert main(["stats", "show", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{error.__name__}: " in err, err


def test_a_local_dashboard_listens_on_loopback_only():
    import contextlib

    import psutil
    with contextlib.ExitStack() as stack:
        client = job._connect(stack, None, 1, 10.0)
        port = client.scheduler_info()["services"]["dashboard"]
        found = [c.laddr.ip for c in psutil.Process().net_connections("tcp")
                 if c.status == psutil.CONN_LISTEN and c.laddr.port == port]
    assert found and set(found) == {"127.0.0.1"}, found
