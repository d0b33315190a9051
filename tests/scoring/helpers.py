"""Shared set-up of the scorer tests: two clubs, one fixture, and a driver that plays events."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from scoring import services
from scoring.selectors import session_get, session_state
from tests.factories import CompetitionFactory, team_with_member
from tournaments.models import Fixture, Skill, Stage, TeamSkill
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

_ids = itertools.count(1)


@dataclass
class Setup:
    fixture: Fixture
    home_user: Any
    away_user: Any
    other_user: Any


def make_fixture(*, advanced_rules: list[str] | None = None, skills: int = 0) -> Setup:
    competition = CompetitionFactory(advanced_rules=advanced_rules or [])
    (home, hu), (away, au), (third, tu) = (
        team_with_member(competition, n) for n in ("Brazil", "Argentina", "Chile")
    )
    if skills:
        names = list(Skill.objects.filter(counts_as_two=False).order_by("name").values_list("id", flat=True))
        for i, team in enumerate((home, away)):
            for skill_id in names[i * skills : (i + 1) * skills]:
                TeamSkill.objects.create(team=team, skill_id=skill_id)
    stage = stage_create(
        competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away, third]
    )
    fixture_generate(stage=stage)
    fixture = next(
        f for f in team_fixtures_in_order(team=home) if {f.home_team_id, f.away_team_id} == {home.id, away.id}
    )
    users = {home.id: hu, away.id: au}
    return Setup(fixture, users[fixture.home_team_id], users[fixture.away_team_id], tu)


def next_event(state: dict[str, Any]) -> dict[str, Any]:
    """Answer the pending question: the default when there is one, else the first option."""
    p = state["pending"]
    if p["kind"] == "roll":
        return {"roll_for_me": True}
    choice = p["default"] if p.get("default") is not None else p["options"][0]["value"]
    return {"event": {"decide": p["name"], "by": p["actor"], "choice": choice}}


def play(session_id: int, users: dict[str, Any], *, until: int | None = None) -> dict[str, Any]:
    """Play the session through the services until full time (or ``until`` events)."""
    state = session_state(session_get(session_id=session_id))
    while state["pending"] is not None and (until is None or state["seq"] < until):
        actor = state["pending"]["actor"]
        user = users["away" if actor == "away" else "home"]
        session, _ = services.event_post(
            session_id=session_id,
            user=user,
            client_id=f"c{next(_ids)}",
            expected_seq=state["seq"] + 1,
            **next_event(state),
        )
        state = session_state(session)
    return state
