"""A FUBA 2 fixture's turn log is checked against the fixture as a FUBA 3 one is, and its forfeit is
played by the FUBA 2 engine, never by FUBA 3's (issue 24, point 4; docs/fuba2-engine.md,
"fuba-log/1 for a FUBA 2 match")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kernel.errors import ApplicationError
from matches.log_fixture import fixture_header, log_fixture_differences
from matches.simulation import fixture_simulate
from matchplay import engine_door
from tests.matches.forfeit_helpers import overdue_fixture
from tournaments.game_systems import FUBA_2
from tournaments.models import Fixture
from tournaments.services.clubs import team_update

pytestmark = pytest.mark.django_db


def _fuba2_fixture(rules: tuple[str, ...] = ("A1", "A2", "A5", "A6")) -> Fixture:
    fixture = overdue_fixture(game_system=FUBA_2, slug="old-cup", rules=rules)
    home, away = fixture.home_team, fixture.away_team
    assert home is not None and away is not None
    team_update(
        team=home, player_roles={"attacking_midfielders": 1}, playing_styles={"midfield": "aggressive"}
    )
    team_update(team=away, playing_styles={"defence": "easy", "forward": "aggressive"})
    return Fixture.objects.select_related("home_team", "away_team", "competition", "stage").get(id=fixture.id)


def test_the_header_of_a_fuba_2_fixture() -> None:
    header = fixture_header(_fuba2_fixture())
    assert header["ruleset"] == "fuba-2" and header["advanced_rules"] == ["A1", "A2", "A5", "A6"]
    home, away = header["teams"]["home"], header["teams"]["away"]
    assert home["roles"] == {"attacking_midfielders": 1} and "skills" not in home
    assert home["styles"] == {"defence": "normal", "midfield": "aggressive", "forward": "normal"}
    assert away["styles"] == {"defence": "easy", "midfield": "normal", "forward": "aggressive"}


def test_without_a6_a_team_has_no_styles_in_its_header() -> None:
    header = fixture_header(_fuba2_fixture(rules=("A2",)))
    assert all("styles" not in team for team in header["teams"].values())


def test_a_fuba_2_log_is_checked_against_its_fixture() -> None:
    fixture = _fuba2_fixture()
    log: dict[str, Any] = {**fixture_header(fixture), "events": []}
    assert log_fixture_differences(fixture, log) == []
    # a line left out plays normal (A6), so leaving it out is no difference
    short = copy.deepcopy(log)
    short["teams"]["home"]["styles"] = {"midfield": "aggressive"}
    assert log_fixture_differences(fixture, short) == []
    bad = copy.deepcopy(log)
    bad["teams"]["home"]["styles"]["midfield"] = "easy"
    bad["teams"]["away"]["roles"] = {"withdrawn_striker": 1}
    bad["advanced_rules"] = ["A1", "A2", "A5"]
    errors = {e["path"]: e for e in log_fixture_differences(fixture, bad)}
    assert "midfield aggressive" in errors["$.teams.home.styles"]["reason"]
    assert errors["$.teams.home.styles"]["rule"] == "A6"
    assert "withdrawn striker 1" in errors["$.teams.away.roles"]["reason"]
    assert "A6" in errors["$.advanced_rules"]["reason"]


def test_a_fuba_3_log_is_not_a_log_of_a_fuba_2_fixture() -> None:
    fixture = _fuba2_fixture()
    log = {**fixture_header(fixture), "ruleset": "fuba-3", "events": []}
    (error,) = log_fixture_differences(fixture, log)
    assert error["path"] == "$.ruleset" and "plays FUBA 2 (ruleset 'fuba-2')" in error["reason"]


def test_a_fuba_2_forfeit_is_played_by_the_fuba_2_engine(monkeypatch) -> None:
    fixture = _fuba2_fixture()
    rulesets: list[str] = []
    real = engine_door.simulate_match

    def spy(home: Any, away: Any, options: Any, seed: Any) -> dict[str, Any]:
        rulesets.append(options.ruleset)
        return real(home, away, options, seed)

    monkeypatch.setattr(engine_door, "simulate_match", spy)
    sim = fixture_simulate(fixture=fixture)
    assert rulesets == ["fuba-2"]
    assert sim.log["ruleset"] == "fuba-2" and sim.log["advanced_rules"] == ["A1", "A2", "A5", "A6"]
    assert sim.log["teams"]["home"]["styles"]["midfield"] == "aggressive"
    assert sim.log["teams"]["home"]["roles"] == {"attacking_midfielders": 1}
    assert log_fixture_differences(fixture, sim.log) == []


def test_a_header_the_engine_refuses_is_a_clear_error_never_another_rulesets_match(monkeypatch) -> None:
    fixture = _fuba2_fixture()

    def refuse(*_: Any) -> dict[str, Any]:
        raise engine_door.HeaderError('"ruleset": "fuba-2" cannot be validated', rule="fuba-log/1")

    monkeypatch.setattr(engine_door, "simulate_match", refuse)
    with pytest.raises(
        ApplicationError, match=r"cannot simulate this FUBA 2 match \(ruleset 'fuba-2'\)"
    ) as exc:
        fixture_simulate(fixture=fixture)
    assert exc.value.code == "simulation_unavailable"
