"""The registered bidding systems, looked up by name (RULES.md section 7)."""
from __future__ import annotations

from fiftysix.bidding.systems.base import System
from fiftysix.bidding.systems.basic import Basic
from fiftysix.bidding.systems.classic import Classic
from fiftysix.bidding.systems.international import International
from fiftysix.bidding.systems.jack_signal import JackSignal
from fiftysix.bidding.systems.kerala import Kerala
from fiftysix.errors import FiftySixError

__all__ = ["DEFAULT_SYSTEM", "SYSTEMS", "System", "UnknownSystemError", "get_system", "register"]

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


for _system in (International(), Kerala(), JackSignal(), Classic(), Basic()):
    register(_system)
