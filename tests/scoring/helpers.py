"""Shared set-up of the scorer tests: two clubs, one fixture, and a driver that plays events."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from league.demo import club_username
from matchplay.engine_door import Decision, Dice, new_match
from scoring import services, session_engine, taps
from scoring.models import ScoringEvent, ScoringSession
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


def entry(event: dict[str, Any], client_id: str | None = None) -> dict[str, Any]:
    """One entry of a tap: ``event`` as next_event gives it, with a new client id."""
    return {"client_id": client_id or f"c{next(_ids)}", **event}


def tap(
    session_id: int,
    user: Any,
    *events: dict[str, Any],
    tap_id: str | None = None,
    after: str | None = None,
    after_seq: int | None = None,
) -> taps.TapAnswer:
    """Post one tap of ``events`` (entries, or events as next_event gives them) through the
    service, on top of the stored head unless ``after`` says otherwise."""
    if after is None:
        session = ScoringSession.objects.get(id=session_id)
        after, after_seq = session.head, session.seq
    return taps.tap_post(
        session_id=session_id,
        user=user,
        tap_id=tap_id or f"t{next(_ids)}",
        after=after,
        after_seq=after_seq if after_seq is not None else 0,
        events=[e if "client_id" in e else entry(e) for e in events],
    )


def tap_body(state: dict[str, Any], *events: dict[str, Any], tap_id: str | None = None) -> dict[str, Any]:
    """The API body of one tap on top of the head of ``state`` (a session state or tap answer)."""
    return {
        "tap_id": tap_id or f"t{next(_ids)}",
        "after": state["head"],
        "after_seq": state["seq"],
        "events": [e if "client_id" in e else entry(e) for e in events],
    }


def undo(session_id: int, user: Any, *, reason: str = "") -> Any:
    """Undo the stored head through the service."""
    session = ScoringSession.objects.get(id=session_id)
    return services.event_undo(
        session_id=session_id, user=user, after=session.head, after_seq=session.seq, reason=reason
    )[0]


def play(session_id: int, users: dict[str, Any], *, until: int | None = None) -> dict[str, Any]:
    """Play the session through the services until full time (or ``until`` events), one event a tap."""
    state = session_state(session_get(session_id=session_id))
    while state["pending"] is not None and (until is None or state["seq"] < until):
        actor = state["pending"]["actor"]
        user = users["away" if actor == "away" else "home"]
        state = session_state(tap(session_id, user, next_event(state)).session)
    return state


def knockout_final() -> tuple[Fixture, dict[str, Any]]:
    """A one-match knockout stage with extra time (I-38) and its fixture: (fixture, {"home":
    user, "away": user})."""
    competition = CompetitionFactory()
    (a, au), (b, bu) = (team_with_member(competition, n, seed=i) for i, n in ((1, "Uruguay"), (2, "Italy")))
    stage = stage_create(
        competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, teams=[a, b], extra_time=True
    )
    (fixture,) = fixture_generate(stage=stage)
    users = {a.id: au, b.id: bu}
    return fixture, {"home": users[fixture.home_team_id], "away": users[fixture.away_team_id]}


def play_on(m: Any, dice: Any, *, to_extra_time: bool = True) -> list[dict[str, Any]]:
    """Play ``m`` on with ``dice`` (the default or the first option at every decision) up to the
    extra-time question (or full time); the events played."""
    events: list[dict[str, Any]] = []
    while (p := m.pending()) is not None and not (to_extra_time and p.name == session_engine.EXTRA_TIME):
        if p.kind == "roll":
            ev = dice.roll_for(p)
            events.append({"roll": p.name, "by": p.actor, "dice": list(ev.dice)})
        else:
            choice = p.default if p.default is not None else p.options[0]
            ev = Decision(p.name, p.actor, choice)
            events.append({"decide": p.name, "by": p.actor, "choice": choice})
        m.apply(ev)
    return events


def level_after_extra_time(header: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A seeded match level after 90 minutes and still level after extra time: the events up to
    the extra-time question, and those of extra time (after the "yes")."""
    for seed in range(300):
        m = new_match(header)
        before = play_on(m, Dice(seed=seed))
        p = m.pending()
        if p is None or session_engine.score(m)[0] != session_engine.score(m)[1]:
            continue
        m.apply(Decision(session_engine.EXTRA_TIME, p.actor, "yes"))
        after = play_on(m, Dice(seed=seed), to_extra_time=False)
        if session_engine.score(m)[0] == session_engine.score(m)[1]:
            return before, after
    raise AssertionError("no seed gave a level score after extra time")


def level_knockout_at_full_time(*, sides: tuple[str, ...] = ("home", "away")) -> tuple[Any, dict[str, Any]]:
    """A knockout final scored live to full time, level after extra time (the shoot-out is to be
    given), with the events entered by the clubs of ``sides``: (session, {"home": user, "away":
    user}). The events are judged by the engine and stored as a post stores them, in one write
    rather than some 600 posts (the posts themselves are tested elsewhere; this keeps the set-up fast)."""
    fixture, users = knockout_final()
    session = services.session_start(fixture_id=fixture.id, user=users[sides[0]])
    before, after = level_after_extra_time(session.header)
    match = session_engine.start(session.header)
    rows = []
    for event in [*before, None, *after]:
        if event is None:  # the extra-time question of the level tie (I-38)
            event = {"decide": session_engine.EXTRA_TIME, "by": match.pending().actor, "choice": "yes"}
        side = event["by"] if event["by"] in sides else sides[0]
        data = session_engine.apply_tap(match, [{"event": event}])[0]["event"]
        seq = len(rows) + 1
        rows.append(
            ScoringEvent(
                session=session, seq=seq, client_id=f"ft{seq}", data=data, side=side, entered_by=users[side]
            )
        )
    assert match.pending() is None
    ScoringEvent.objects.bulk_create(rows)
    ScoringSession.objects.filter(id=session.id).update(
        seq=len(rows),
        head=rows[-1].client_id,
        status=ScoringSession.Status.FULL_TIME,
        reached_full_time=True,
        home_entered="home" in sides,
        away_entered="away" in sides,
        version=len(rows),
    )
    session_engine.forget(session.id)
    return session_get(session_id=session.id), users


def demo_clubs(fixture: Fixture) -> dict[str, Any]:
    """The demo's club accounts of the fixture's two teams (league.demo), who score it."""
    users = get_user_model().objects
    return {
        "home": users.get(username=club_username(fixture.home_team.name)),
        "away": users.get(username=club_username(fixture.away_team.name)),
    }


def score_at_once(competition: Any, n: int) -> list[ScoringSession]:
    """``n`` scheduled matches of a demo competition being scored at once through the services,
    each a few events further than the one before."""
    fixtures = list(
        Fixture.objects.filter(competition=competition, status=Fixture.Status.SCHEDULED)
        .exclude(home_team=None)
        .exclude(away_team=None)
        .order_by("round", "id")[:n]
    )
    assert len(fixtures) == n
    sessions = []
    for i, fixture in enumerate(fixtures):
        clubs = demo_clubs(fixture)
        session = services.session_start(fixture_id=fixture.id, user=clubs["home"])
        play(session.id, clubs, until=6 + 3 * i)
        sessions.append(session)
    return sessions
