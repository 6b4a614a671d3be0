"""The statistics run as a Dask job: chunks of deals out to workers, one Parquet file per chunk.

The run's directory holds ``_run.json`` (the RunSpec, written first) and ``chunk-NNNNNN.parquet``
files, each written to a hidden temporary name and renamed into place. Nothing on disk is
trusted: a chunk counts as finished only when its Parquet footer reads, its metadata names
this run and chunk, its row count is the one written and its rows cover exactly the chunk's
deals (``chunk_problem``); ``resume`` redoes any other, and a run that stops loses at most
the chunks in flight. A worker that dies costs only its chunk: the scheduler hands it to another worker
(``distributed.scheduler.allowed-failures`` times before giving up). Workers send their rows
back to the client, which writes them, so workers need no shared file system.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from fiftysix.errors import FiftySixError
from fiftysix.stats.deals import RunSpec, chunk_table

MANIFEST = "_run.json"
META_KEY = b"fiftysix.stats"
RETRIES = 2  # re-runs of a chunk whose task raised (a worker that dies is re-run by the scheduler)


def chunk_path(out: Path, k: int) -> Path:
    return out / f"chunk-{k:06d}.parquet"


def _write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_chunk(out: Path, spec: RunSpec, k: int, rows: pa.Table) -> None:
    """Write chunk ``k`` atomically, with the run's spec, the chunk's index and its row count
    in the file's metadata."""
    meta = {META_KEY: json.dumps({**spec.to_dict(), "chunk_index": k, "rows": rows.num_rows}).encode()}
    rows = rows.replace_schema_metadata(meta)
    _write_atomic(chunk_path(out, k), lambda p: pq.write_table(rows, p, compression="zstd"))


def chunk_problem(out: Path, spec: RunSpec, k: int) -> str | None:
    """What is wrong with chunk ``k``'s file in ``out`` (None: a finished chunk of ``spec``):
    missing, no Parquet footer (truncated, empty), metadata of another run or chunk, a row
    count other than the one written, or rows that do not cover exactly the chunk's deals."""
    path = chunk_path(out, k)
    if not path.exists():
        return "missing"
    try:
        meta = pq.read_metadata(path)
        own = json.loads((meta.metadata or {}).get(META_KEY, b"null"))
        if not isinstance(own, dict):
            return "no metadata of a statistics run"
        if own.get("chunk_index") != k or any(own.get(f) != v for f, v in spec.to_dict().items()):
            return "written for another run or chunk"
        if "rows" in own and own["rows"] != meta.num_rows:
            return f"{meta.num_rows} rows where {own['rows']} were written"
        deals = pq.read_table(path, columns=["deal"]).column("deal").unique().to_pylist()
    except (pa.ArrowException, OSError, ValueError) as e:
        return f"unreadable ({str(e).splitlines()[0][:120] if str(e) else type(e).__name__})"
    if sorted(deals) != list(spec.chunk_range(k)):
        return "its rows do not cover the chunk's deals"
    return None


def read_manifest(out: Path) -> RunSpec:
    """The RunSpec in ``out``'s manifest; FiftySixError for anything else (not JSON, not an
    object, fields missing, of the wrong type or out of range)."""
    manifest = out / MANIFEST
    try:
        doc = json.loads(manifest.read_text())
    except json.JSONDecodeError as e:
        raise FiftySixError(f"{manifest}: not a run manifest ({e.msg})") from None
    except UnicodeDecodeError:
        raise FiftySixError(f"{manifest}: not a run manifest (not UTF-8 text)") from None
    if not isinstance(doc, dict):
        raise FiftySixError(f"{manifest}: not a run manifest (a JSON {type(doc).__name__}, not an object)")
    if not isinstance(doc.get("systems"), list) or not all(isinstance(x, str) for x in doc["systems"]):
        raise FiftySixError(f"{manifest}: not a run manifest ('systems' must be a list of names)")
    try:
        return RunSpec.from_dict(doc)
    except (TypeError, ValueError) as e:
        raise FiftySixError(f"{manifest}: not a run manifest ({e})") from None


def prepare(out: str | Path, spec: RunSpec, resume: bool) -> tuple[Path, list[int]]:
    """Check the output directory against ``spec``; return it and the chunks still to do."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise FiftySixError(f"the output {str(out)!r} is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / MANIFEST
    have = sorted(out.glob("chunk-*.parquet"))
    if manifest.exists():
        if not resume:
            raise FiftySixError(f"{str(out)!r} already holds a run: pass --resume to finish it,"
                                " or give an empty directory")
        old = read_manifest(out).to_dict()
        diff = [f"{k} {old.get(k)!r} (now {v!r})" for k, v in spec.to_dict().items() if old.get(k) != v]
        if diff:
            raise FiftySixError(f"{str(out)!r} holds a different run: " + "; ".join(diff))
    elif have:
        raise FiftySixError(f"{str(out)!r} holds chunk files but no {MANIFEST}: give an empty directory")
    else:
        _write_atomic(manifest, lambda p: p.write_text(json.dumps(spec.to_dict(), indent=1) + "\n"))
    for stale in out.glob(".chunk-*.tmp"):  # left by a run that was killed mid-write
        stale.unlink(missing_ok=True)
    return out, [k for k in range(spec.chunks) if chunk_problem(out, spec, k) is not None]


DASHBOARD = "127.0.0.1:0"
"""Where a local cluster's dashboard listens unless asked otherwise: loopback, a free port
(it shows the run to anyone who can reach it)."""


def _connect(stack: ExitStack, cluster: str | None, workers: int | None, timeout: float,
             dashboard: str | None = DASHBOARD):
    from distributed import Client, LocalCluster
    if cluster:
        try:
            return stack.enter_context(Client(cluster, timeout=timeout))
        except (OSError, TimeoutError) as e:
            raise FiftySixError(f"cannot reach the Dask scheduler at {cluster}: {e}") from None
    n = workers or os.cpu_count() or 1
    # The worker processes start with Ctrl-C ignored (an ignored signal stays ignored across
    # exec): a terminal sends it to the whole group, and this process shuts them down itself.
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        local = stack.enter_context(LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                 dashboard_address=dashboard, silence_logs=logging.ERROR))
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
    return stack.enter_context(Client(local))


def run(spec: RunSpec, out: str | Path, *, cluster: str | None = None, workers: int | None = None,
        resume: bool = False, progress: bool = True, connect_timeout: float = 10.0,
        on_chunk: Callable[[int], None] | None = None, client=None,
        task: Callable[[RunSpec, int], pa.Table] = chunk_table, dashboard: str | None = DASHBOARD) -> dict:
    """Run ``spec`` into ``out``: on the scheduler at ``cluster``, on ``client`` if given, else on
    a local cluster of ``workers`` processes (default one per core), whose dashboard listens
    at ``dashboard`` (HOST:PORT; None: no dashboard). Returns what was done.

    ``on_chunk(k)`` is called after chunk ``k`` is written (tests use it to interrupt a run).
    Ctrl-C cancels the chunks in flight and closes a local cluster; the chunks written stay.
    """
    from distributed import as_completed
    from tqdm import tqdm
    out, todo = prepare(out, spec, resume)
    t0 = time.perf_counter()
    redo = sum(chunk_path(out, k).exists() for k in todo)  # damaged chunks found on disk
    report: dict[str, Any] = {"out": str(out), "deals": spec.deals, "chunks": spec.chunks,
              "skipped": spec.chunks - len(todo), "redone": redo, "written": 0, "deals_run": 0, "rows": 0}
    if not todo:
        return {**report, "seconds": 0.0, "workers": 0}
    with ExitStack() as stack:
        if client is None:
            client = _connect(stack, cluster, workers, connect_timeout, dashboard)
        if "dashboard" in client.scheduler_info().get("services", {}):
            print(f"dashboard: {client.dashboard_link}", file=sys.stderr)
        n_workers = len(client.scheduler_info().get("workers", {}))
        if not n_workers:
            print("the scheduler has no workers yet: the chunks wait for some to join", file=sys.stderr)
        run_id = uuid.uuid4().hex[:8]
        futures = {client.submit(task, spec, k, key=f"fiftysix-stats-{run_id}-{k}", retries=RETRIES): k
                   for k in todo}
        pending = set(todo)
        done = sum(len(spec.chunk_range(k)) for k in range(spec.chunks) if k not in pending)
        bar = stack.enter_context(tqdm(total=spec.deals, initial=done, unit="deal", file=sys.stderr,
                                       disable=not progress, dynamic_ncols=True, smoothing=0.1))
        try:
            for fut in as_completed(futures):
                k = futures.pop(fut)
                try:
                    rows = fut.result()
                except Exception as e:  # the task's own error, or a chunk that killed workers
                    raise FiftySixError(f"chunk {k} (deals {spec.chunk_range(k).start}.."
                                        f"{spec.chunk_range(k).stop - 1}) failed: {type(e).__name__}: {e}") from e
                fut.release()
                write_chunk(out, spec, k, rows)
                report["written"] += 1
                report["rows"] += rows.num_rows
                report["deals_run"] += len(spec.chunk_range(k))
                bar.update(len(spec.chunk_range(k)))
                if on_chunk is not None:
                    on_chunk(k)
        finally:
            if futures:  # stopped early (Ctrl-C, an error): do not leave work running
                client.cancel(list(futures))
    return {**report, "seconds": round(time.perf_counter() - t0, 3), "workers": n_workers}


def read_run(out: str | Path) -> tuple[RunSpec, pa.Table, int]:
    """The spec, the rows of every finished chunk, and how many deals they cover; a damaged
    chunk is a FiftySixError naming it (``stats run --resume`` redoes it)."""
    out = Path(out)
    if not out.is_dir():
        raise FiftySixError(f"{str(out)!r} is not a directory")
    manifest = out / MANIFEST
    if not manifest.exists():
        raise FiftySixError(f"{str(out)!r} holds no statistics run (no {MANIFEST})")
    spec = read_manifest(out)
    done = [k for k in range(spec.chunks) if chunk_path(out, k).exists()]
    for k in done:
        why = chunk_problem(out, spec, k)
        if why is not None:
            raise FiftySixError(f"{chunk_path(out, k)} is damaged ({why}): `fiftysix stats run ... --resume`"
                                " with the run's arguments redoes it")
    if not done:
        raise FiftySixError(f"{str(out)!r}: no chunk of the run is finished yet")
    rows = pa.concat_tables(pq.read_table(chunk_path(out, k)).replace_schema_metadata(None) for k in done)
    return spec, rows, sum(len(spec.chunk_range(k)) for k in done)
