"""The one door from the league into the rules engine.

Every Django module that validates, replays or simulates a match imports the
engine from here, and this module imports only ``rules_engine.api`` (an
import-linter contract in ``.importlinter`` keeps it so).  The engine is a
plain library installed with the project: there is no "engine missing" case.
"""

from __future__ import annotations

from typing import Any

from rules_engine import api as _api
from rules_engine.api import *  # noqa: F403  (the door re-exports the engine's API as the engine lists it)
from rules_engine.api import FubaError

# The names are the engine's own list (rules_engine.api.__all__) plus the league's one helper, so a
# name added to the engine's API reaches the league without being listed twice.
__all__ = ["error_summary"]
__all__ += _api.__all__


def error_summary(error: FubaError) -> dict[str, Any]:
    """Where and why a log is wrong, as stored with a submission: turn, stage, rule, reason, path."""
    data = error.to_dict()
    return {k: data[k] for k in ("turn", "stage", "rule", "reason", "path")}
