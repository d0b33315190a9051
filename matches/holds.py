"""Fixtures held by something that sits above the results workflow: a match being scored live.

While a scoring session runs, its result comes from the session at full time: a report typed by
hand would contradict it, and the forfeit sweep must not simulate a match that is being played.
The results workflow cannot import the live scorer (contract features-on-top), so the scorer
registers a finder here when its app is ready (scoring.apps) and the workflow asks this module.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Hold:
    # Who holds the fixture ("scoring-session:12"); the holder passes it to submit its own result.
    key: str
    # Why, in words a club reads (the 409's message).
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)


HoldFinder = Callable[[Collection[int]], Mapping[int, Hold]]
_finders: list[HoldFinder] = []


def register(finder: HoldFinder) -> None:
    if finder not in _finders:
        _finders.append(finder)


def holds(fixture_ids: Collection[int]) -> dict[int, Hold]:
    """The holds on these fixtures, by fixture id (fixtures nobody holds are absent)."""
    found: dict[int, Hold] = {}
    if not fixture_ids:
        return found
    for finder in _finders:
        for fixture_id, hold in finder(fixture_ids).items():
            found.setdefault(fixture_id, hold)
    return found


def hold_of(fixture_id: int) -> Hold | None:
    return holds([fixture_id]).get(fixture_id)
