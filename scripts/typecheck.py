"""Type-check the package as it is installed: ``python scripts/typecheck.py [mypy options]``.

mypy reads modules from folders, but the repository keeps the layers of the one installed
package ``fiftysix`` in top-level folders (pyproject's package-dir maps analyser/ to
``fiftysix.analyser`` and so on; the editable install does it with an import hook mypy cannot
see). So this builds the installed layout under build/typecheck/ out of symbolic links, from
pyproject's own table, checks it with the configuration in pyproject ([tool.mypy]), and prints
mypy's findings with the repository's paths. Exit status: mypy's.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "typecheck"


def stage() -> dict[str, Path]:
    """Lay out ``STAGE/fiftysix`` as installed, of links into the repository; returns the
    staged folder (as mypy prints it) -> the repository's folder, longest first."""
    dirs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-dir"]
    top = STAGE / "fiftysix"
    if top.exists():
        shutil.rmtree(top)
    top.mkdir(parents=True)
    links: dict[str, Path] = {}
    for entry in sorted((ROOT / dirs["fiftysix"]).iterdir()):
        if entry.name != "__pycache__" and (entry.is_dir() or entry.suffix in (".py", ".pyi", ".typed")):
            (top / entry.name).symlink_to(entry)
            links[f"fiftysix/{entry.name}"] = entry
    for package, folder in dirs.items():
        parts = package.split(".")
        if package == "fiftysix" or len(parts) != 2 or not any((ROOT / folder).glob("*.py")):
            continue
        (top / parts[1]).symlink_to(ROOT / folder)
        links[f"fiftysix/{parts[1]}"] = ROOT / folder
    return dict(sorted(links.items(), key=lambda kv: -len(kv[0])))


def main(argv: list[str]) -> int:
    links = stage()
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *argv, "fiftysix"],
                       cwd=STAGE, capture_output=True, text=True, check=False,
                       env={**os.environ, "MYPY_FORCE_COLOR": "0"})
    pattern = re.compile("|".join(re.escape(k) for k in links))
    for line in (r.stdout + r.stderr).splitlines():
        print(pattern.sub(lambda m: os.path.relpath(links[m.group(0)], ROOT), line, count=1))
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
