"""The registered bidding systems, looked up by name (RULES.md section 7)."""
from __future__ import annotations

from fiftysix.bidding.systems.base import System
from fiftysix.errors import FiftySixError

SYSTEMS: dict[str, System] = {}
DEFAULT_SYSTEM = "international"


class UnknownSystemError(FiftySixError):
    """A bidding system name that is not registered."""


def register(system: System) -> System:
    """Add a system to the registry under its name."""
    SYSTEMS[system.name] = system
    return system


def get_system(name: str) -> System:
    """The registered system called ``name`` (case and spaces ignored)."""
    key = (name or "").strip().lower().replace("_", "-").replace(" ", "-")
    if key not in SYSTEMS:
        raise UnknownSystemError(f"unknown bidding system {name!r}: use one of {', '.join(SYSTEMS)}")
    return SYSTEMS[key]


def _register_builtins() -> None:
    from fiftysix.bidding.systems.international import International
    register(International())
    for mod, cls in (("kerala", "Kerala"), ("jack_signal", "JackSignal"), ("classic", "Classic"),
                     ("basic", "Basic")):
        try:
            module = __import__(f"fiftysix.bidding.systems.{mod}", fromlist=[cls])
        except ModuleNotFoundError:
            continue
        register(getattr(module, cls)())


_register_builtins()
