"""``fiftysix app``: serve the whole Streamlit app from wherever the package is installed."""
from __future__ import annotations

import argparse
import threading
import time
from importlib.resources import files
from pathlib import Path

from fiftysix.errors import FiftySixError
from fiftysix.ui.commands.common import arg, whole
from fiftysix.ui.commands.output import Output

OPTIONS = {
    "theme.primaryColor": "#1d6b40",
    "browser.gatherUsageStats": "false",
    "client.toolbarMode": "viewer",  # no "Deploy" button or developer options for a player
    "server.maxUploadSize": "1",
    "server.address": "127.0.0.1",  # one person on this computer (README: Serving a club)
    "runner.magicEnabled": "false",  # a bare string or expression in a page script is never drawn
    "runner.postScriptGC": "false",  # no full gc.collect() after every page run (it held the GIL: issue 44)
}
"""Streamlit's settings for the app; the repository's .streamlit/config.toml holds the same, for
``streamlit run app.py`` (tests/test_package.py checks that they agree)."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="serve the app (every page) in the browser; Ctrl-C stops it",
                       description="Serve the trainer's Streamlit app. Options after -- go to `streamlit run`.")
    p.add_argument("--port", type=arg(whole, "--port", 1, 65535), default=8501, help="port (default 8501)")
    p.add_argument("--address", default=None,
                   help="address to listen on (default 127.0.0.1: this computer only; README: Serving a club)")
    p.add_argument("--headless", action="store_true", help="do not open a browser tab")
    p.add_argument("streamlit", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(handler=cmd_app)


def router() -> Path:
    """The app's main script, the page router ``fiftysix/ui/app.py``, as installed."""
    return Path(str(files("fiftysix.ui").joinpath("app.py")))


def streamlit_args(args: argparse.Namespace) -> list[str]:
    """The ``streamlit run`` command line for ``args``."""
    extra = list(args.streamlit)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    options = {**OPTIONS, "server.port": str(args.port)}
    if args.address:
        options["server.address"] = args.address
    if args.headless:
        options["server.headless"] = "true"
    return ["run", str(router()), *(f"--{k}={v}" for k, v in options.items()), *extra]


def prepare_solver() -> None:
    """Compile (a first run) or load the solver's kernels while the server starts, and say
    when they are ready: from then on every page answers at full speed."""
    from fiftysix.analyser import solver
    print(f"  {READY_SOON}", flush=True)
    t0 = time.monotonic()
    solver.warm_in_background(apart=True)  # in a child process: the server stays quick meanwhile
    while not (now := solver.warm_progress()).ready:
        if now.error is not None:  # the pages that need the solver say so too
            print(f"  The solver could not be prepared: {now.error}", flush=True)
            return
        time.sleep(0.2)
    print(f"  {READY} ({time.monotonic() - t0:.0f} s).", flush=True)


READY_SOON = "Preparing the solver in the background (first run only: a minute or two); the pages that need it say so."
READY = "The app is ready: the solver is prepared"


def cmd_app(args: argparse.Namespace) -> Output:
    try:
        from streamlit.web import cli as streamlit_cli
    except ModuleNotFoundError:
        raise FiftySixError("the app needs Streamlit, which is not installed: pip install 'fiftysix[app]'") from None
    threading.Thread(target=prepare_solver, daemon=True, name="fiftysix-app-warm-up").start()
    try:
        streamlit_cli.main(args=streamlit_args(args), prog_name="fiftysix app")  # serves until Ctrl-C
    except SystemExit as e:  # Streamlit's command line ends by exiting
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
        return Output(None, "", status=status)
    return Output(None, "")
