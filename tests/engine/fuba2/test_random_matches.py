"""A random-options driver: a seeded bot choosing among the legal options of ``pending()``
plays FUBA 2 matches to full time; every log, compact and full, validates again."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine import decisions as D
from rules_engine.autoplay import play_random
from rules_engine.events import Decision
from rules_engine.fuba2.names import ROLLS
from rules_engine.validator import validate_log

HEADERS: tuple[dict[str, Any], ...] = (
    {
        "advanced_rules": [],
        "teams": {
            "home": {"name": "Heidi", "formation": "4-4-2"},
            "away": {"name": "Otto", "formation": "3-5-2"},
        },
    },
    {
        "advanced_rules": "all",
        "teams": {
            "home": {
                "name": "Heidi",
                "formation": "3-5-2",
                "roles": {"attacking_midfielders": 1, "offensive_wing_backs": 1},
                "styles": {"defence": "easy", "midfield": "aggressive"},
            },
            "away": {
                "name": "Otto",
                "formation": "4-5-1",
                "roles": {"attacking_midfielders": 3},
                "styles": {"forward": "aggressive"},
            },
        },
    },
    {
        "advanced_rules": ["A1", "A3", "A4"],
        "extra_time": True,
        "teams": {
            "home": {"name": "Heidi", "formation": "5-4-1", "players_short": 1},
            "away": {"name": "Otto", "formation": "4-2-4"},
        },
    },
)
MATCHES = 200  # the first DEFAULT of them in every run, all of them with `make test-slow`
DEFAULT = 60
CHUNK = 10
CHUNKS = [
    c if c * CHUNK < DEFAULT else pytest.param(c, marks=pytest.mark.slow) for c in range(MATCHES // CHUNK)
]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_random_matches_reach_full_time_and_their_logs_validate(chunk: int) -> None:
    for seed in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        header = {"ruleset": "fuba-2", **HEADERS[seed % len(HEADERS)]}
        m = play_random(header, seed)
        assert m.finished and m.st.over
        assert m.st.turns_per_half[0] > 5 and m.st.turns_per_half[1] > 5
        for compact in (True, False):
            report = validate_log(m.to_log(compact=compact))
            assert report.valid, (seed, [e.message for e in report.errors][:3])
            assert report.result == m.result()
        names = {e.name for e in m.events}
        assert names <= D.ALL_FUBA2 | ROLLS, names - D.ALL_FUBA2 - ROLLS


def test_random_matches_ask_exactly_the_named_decisions() -> None:
    """Every name of ``decisions.ALL_FUBA2`` is asked by some match and nothing else is."""
    asked: set[str] = set()
    for seed in range(DEFAULT):
        m = play_random({"ruleset": "fuba-2", **HEADERS[seed % len(HEADERS)]}, seed)
        asked |= {e.name for e in m.events if isinstance(e, Decision)}
    assert asked == D.ALL_FUBA2, {"not named": asked - D.ALL_FUBA2, "never asked": D.ALL_FUBA2 - asked}


def test_a_random_log_with_written_down_checks_validates() -> None:
    m = play_random({"ruleset": "fuba-2", **HEADERS[1]}, 7, annotate=True)
    report = validate_log(m.to_log(compact=False))
    assert report.valid, [e.message for e in report.errors][:3]
