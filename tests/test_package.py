"""The installable package: what the wheel holds, what an installed copy can do from anywhere.

The slow test builds the wheel from a copy of the tree, installs it (with the ``app`` extra)
into a fresh virtual environment and, from a folder outside the repository, runs a command
that reads shipped data, serves ``fiftysix app`` (the health check and the page) and runs
the installed router's Rules and Review pages. The quick ones check what that test would
otherwise find late: the package list, paths, settings and the optional dependencies.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

from fiftysix import __version__
from fiftysix.ui.commands.app import READY
from tests.app_harness import free_port, serving

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
LAYERS = ("fiftysix", "analyser", "bots", "drills", "stats", "ui")


def _code_packages() -> set[str]:
    """Every folder with an ``__init__.py`` under the layers, by its installed name."""
    out = set()
    for layer in LAYERS:
        for init in (ROOT / layer).rglob("__init__.py"):
            parts = list(init.parent.relative_to(ROOT).parts)
            out.add(".".join(parts if parts[0] == "fiftysix" else ["fiftysix", *parts]))
    return out


def test_the_package_list_is_whole_and_installs_one_top_level_name():
    listed = set(SETUPTOOLS["packages"])
    assert _code_packages() <= listed, sorted(_code_packages() - listed)
    assert {p.split(".")[0] for p in listed} == {"fiftysix"}
    dirs = SETUPTOOLS["package-dir"]
    for name in listed:  # each listed package is a folder of the tree, through the nearest mapping
        base = max((k for k in dirs if name == k or name.startswith(k + ".")), key=len)
        folder = ROOT / dirs[base] / Path(*name[len(base):].split(".")[1:])
        assert folder.is_dir(), (name, folder)


DATA_FOLDERS = sorted(p.name for p in (ROOT / "data").iterdir() if p.is_dir() and p.name != "__pycache__")


def test_the_shipped_data_is_what_the_repository_holds():
    """Every file of every data/ folder is package data (a new folder needs pyproject's lists)."""
    from fiftysix import shipped
    assert {"banks", "stats", "records", "problems"} <= set(DATA_FOLDERS)
    for folder in DATA_FOLDERS:
        names = [f.name for f in shipped.data_files(folder, "")]
        assert names == sorted(p.name for p in (ROOT / "data" / folder).iterdir() if p.is_file()) and names
        assert f"fiftysix.data.{folder}" in SETUPTOOLS["packages"], folder
        globs = SETUPTOOLS["package-data"][f"fiftysix.data.{folder}"]
        assert all(any(Path(n).match(g) for g in globs) for n in names), (folder, globs)
        assert shipped.data_file(folder, names[0]).read_bytes() == (ROOT / "data" / folder / names[0]).read_bytes()
    for doc in ("guide.md", "systems.md"):
        assert shipped.guide(doc) == (ROOT / "docs" / doc).read_text(encoding="utf-8")
    assert shipped.guide("no-such.md") is None


def test_no_module_finds_files_through_its_own_path():
    """Habit 19: shipped data is read with importlib.resources, never next to ``__file__``."""
    found = [f"{p.relative_to(ROOT)}:{n}" for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "__file__" in line]
    assert found == []


def test_benches_and_tests_import_the_installed_project():
    """No sys.path edits: the benches run as ``python -m bench.<name>``, the tests through pytest,
    both importing the project as installed (the editable install)."""
    found = [str(p.relative_to(ROOT)) for folder in ("bench", "tests") for p in sorted((ROOT / folder).rglob("*.py"))
             if "sys.path.insert" in p.read_text(encoding="utf-8") and p.name != "test_package.py"]
    assert found == []


def test_the_app_command_uses_the_repositorys_streamlit_settings():
    from fiftysix.ui.commands.app import OPTIONS
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    flat = {f"{section}.{k}": str(v).lower() if isinstance(v, bool) else str(v)
            for section, values in config.items() for k, v in values.items()}
    assert flat == OPTIONS


def test_the_router_run_as_the_script_shows_no_stray_text(monkeypatch, tmp_path):
    """``fiftysix app`` runs fiftysix/ui/app.py itself as the script, with its OPTIONS: the
    router's attribute docstrings were drawn on every page while Streamlit's "magic" was on."""
    from streamlit import config
    from streamlit.testing.v1 import AppTest

    from fiftysix.ui.commands.app import OPTIONS, router
    monkeypatch.setenv("FIFTYSIX_DATA_DIR", str(tmp_path))
    before = {name: config.get_option(name) for name in OPTIONS}
    try:
        for name, value in OPTIONS.items():
            config.set_option(name, {"true": True, "false": False}.get(value, value))
        at = AppTest.from_file(str(router()), default_timeout=120).run()
    finally:
        for name, value in before.items():
            config.set_option(name, value)
    assert not at.exception and [t.value for t in at.title] == ["Explain"]
    shown = " ".join(str(m.value) for m in at.markdown)
    assert "Each section's pages" not in shown and "ui/pages/" not in shown


def test_version_is_the_distributions():
    from importlib.metadata import version
    out = subprocess.run([sys.executable, "-m", "fiftysix.ui.cli", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out == f"fiftysix {__version__}\n" and version("fiftysix") == __version__


BLOCK = """
import sys
from importlib.abc import MetaPathFinder

class Missing(MetaPathFinder):  # as if only the base install were there: no Streamlit, Dask, Plotly, Arrow
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("streamlit", "dask", "distributed", "plotly", "pyarrow"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Missing())
from fiftysix.ui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _bare(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK, *argv], capture_output=True, text=True, timeout=300, check=False)


def test_the_command_line_and_solver_work_without_the_app_and_stats_extras(tmp_path):
    deal = "J.9.. T.A.. A.T.. 9.J.."
    r = _bare("solve", "--players", "4", "--deal", deal, "--trump", "NT", "--json")
    assert r.returncode == 0, r.stderr
    assert sum(json.loads(r.stdout).values()) == 14  # every card's points: 2 x (J 3 + 9 2 + A 1 + 10 1), RULES.md 2
    r = _bare("review", str(ROOT / "data" / "records" / "endings.txt"), "--record", "2", "--json")
    assert r.returncode == 0, r.stderr
    r = _bare("app", "--port", "1")
    assert r.returncode == 2 and r.stderr == ("fiftysix app: error: the app needs Streamlit, which is not installed: "
                                              "pip install 'fiftysix[app]'\n")
    r = _bare("stats", "run", "--system", "kerala", "-n", "1", "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and "pip install 'fiftysix[stats]'" in r.stderr and "Traceback" not in r.stderr


# --- the wheel, installed ------------------------------------------------------------------------

def _sh(*cmd, cwd: Path, env: dict | None = None, timeout: float = 900) -> str:
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                       check=False)
    assert r.returncode == 0, f"{cmd}: {r.stdout[-2000:]}\n{r.stderr[-4000:]}"
    return r.stdout


APPTEST = """
import json
from importlib.resources import files
from streamlit import config
from streamlit.testing.v1 import AppTest
from fiftysix.ui.commands.app import OPTIONS

for name, value in OPTIONS.items():  # what `fiftysix app` sets (this folder has no .streamlit/config.toml)
    config.set_option(name, {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value))

at = AppTest.from_file(str(files("fiftysix.ui") / "app.py"), default_timeout=300)
at.run()
out = {"first": [str(t.value) for t in at.title], "errors": [str(e.value) for e in at.exception]}
at.switch_page("pages/rules.py").run()
out["rules"] = "\\n".join(str(m.value) for m in at.markdown)
at.switch_page("pages/review.py").run()
at.segmented_control(key="rv_source").set_value("Samples").run()
out["samples"] = list(at.selectbox(key="rv_sample").options)
out["errors"] += [str(e.value) for e in at.exception]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_the_wheel_installs_and_serves_the_app_from_anywhere(tmp_path):
    src, dist, outside = tmp_path / "src", tmp_path / "dist", tmp_path / "elsewhere"
    outside.mkdir()
    tracked = _sh("git", "ls-files", "-co", "--exclude-standard", cwd=ROOT).splitlines()
    for name in tracked:  # the tree as committed, with new files not yet committed (a clone's view)
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((ROOT / name).read_bytes())
    _sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, src, cwd=tmp_path)
    wheel, = dist.glob("fiftysix-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {n.split("/")[0] for n in names} == {"fiftysix", f"fiftysix-{__version__}.dist-info"}
    for folder in DATA_FOLDERS:
        assert {n.rsplit("/", 1)[1] for n in names if n.startswith(f"fiftysix/data/{folder}/")} == \
            {p.name for p in (ROOT / "data" / folder).iterdir() if p.is_file()}
    assert {"fiftysix/docs/guide.md", "fiftysix/docs/systems.md", "fiftysix/py.typed", "fiftysix/ui/app.py",
            "fiftysix/ui/pages/rules.py", "fiftysix/analyser/_kernels.py"} <= names
    meta = zipfile.ZipFile(wheel).read(f"fiftysix-{__version__}.dist-info/METADATA").decode()
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert any(r.startswith("Requires-Dist: streamlit") and 'extra == "app"' in r for r in requires)
    assert not any(r.startswith(("Requires-Dist: streamlit", "Requires-Dist: dask")) and "extra ==" not in r
                   for r in requires)

    venv = tmp_path / "venv"
    _sh(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    py, fiftysix = venv / "bin" / "python", venv / "bin" / "fiftysix"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(FIFTYSIX_DATA_DIR=str(tmp_path / "data"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    # --no-compile: byte-compiling streamlit, pandas and pyarrow took two thirds of the install
    _sh(py, "-m", "pip", "install", "-q", "--no-compile", f"fiftysix[app] @ {wheel.as_uri()}", cwd=outside, env=env)

    assert _sh(fiftysix, "--version", cwd=outside, env=env) == f"fiftysix {__version__}\n"
    where = _sh(py, "-c", "import fiftysix; print(fiftysix.__file__)", cwd=outside, env=env)
    assert Path(where.strip()).is_relative_to(venv)
    quiz = json.loads(_sh(fiftysix, "quiz", "--starter", "kerala", "-n", "3", "--json", cwd=outside, env=env))
    shipped = json.loads((ROOT / "data" / "banks" / "kerala.json").read_text(encoding="utf-8"))
    assert [q["id"] for q in quiz["questions"]] == [q["id"] for q in shipped["questions"][:3]]

    port = free_port()
    cmd = [fiftysix, "app", "--port", port, "--address", "127.0.0.1", "--headless"]
    with serving(cmd, port, tmp_path / "app.log", outside, env) as url:
        with urllib.request.urlopen(url + "/", timeout=10) as page:
            assert page.status == 200 and b"<title>Streamlit</title>" in page.read()
        # the installed kernels compile (in the server's background child) and the server says so;
        # the pages below then find them in numba's cache
        end = time.monotonic() + 600
        while READY not in (log := (tmp_path / "app.log").read_text()):
            assert time.monotonic() < end and "could not be prepared" not in log, log[-2000:]
            time.sleep(0.2)

    seen = json.loads(_sh(py, "-c", APPTEST, cwd=outside, env=env).splitlines()[-1])
    assert seen["errors"] == [] and seen["first"] == ["Explain"]
    assert "**Follow suit**" in seen["rules"]  # the shipped rules guide, shown (docs/guide.md)
    assert seen["samples"] == ["4x8.txt", "4x12.txt", "6x8.txt", "8x6.txt", "8x8.txt", "endings.txt"]
