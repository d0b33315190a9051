"""A competition as the simulation core sees it (chances.core): stages, rules, fixtures, results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chances.rules import best_third_slots, points_of, tiebreak_order
from kernel.errors import ApplicationError, NotFound
from matches.models import FAIR_PLAY_POINTS, Card, CardKind, Result
from matches.simulation import skill_code
from matchplay.engine_door import ROLE_KEYS
from tournaments.game_systems import FUBA_3, GameSystemRules, game_system_rules
from tournaments.models import Competition, Fixture, LotDraw, Stage, Team

ResultRow = list[Any]  # [home, away, home fair play, away fair play, a.e.t., home pens, away pens, awarded]


def team_setup(team: Team, rules: list[str], game: GameSystemRules | None = None) -> dict[str, Any]:
    """The team's registered set-up as its game's engine plays it (no name: equal set-ups share
    estimates): A2 roles, FUBA 2's A6 playing styles, FUBA 3's A11 skills."""
    game = game or game_system_rules(FUBA_3)
    setup: dict[str, Any] = {"formation": team.default_formation or "4-4-2"}
    if "A2" in rules:
        keys = game.role_keys or ROLE_KEYS
        roles = {k: v for k, v in sorted((team.player_roles or {}).items()) if k in keys}
        if roles:
            setup["roles"] = roles
    if game.playing_styles and "A6" in rules and team.playing_styles:
        setup["styles"] = dict(sorted(team.playing_styles.items()))
    if game.skills and "A11" in rules:
        skills = sorted(skill_code(ts.skill.name) for ts in team.roster_skills.all())
        if skills:
            setup["skills"] = skills
    return setup


def _stage_data(stage: Stage, competition: Competition) -> dict[str, Any]:
    if stage.kind == Stage.Kind.SWISS:
        raise ApplicationError(
            f"{stage}: a Swiss stage is paired round by round from the results; "
            "its chances are not computed.",
            code="chances_unsupported",
        )
    groups: dict[str, list[int]] = {}
    lots: dict[str, list[int]] = {}
    if stage.kind == Stage.Kind.GROUPS:
        for group in stage.groups.prefetch_related("teams").order_by("name"):
            groups[group.name] = sorted(t.id for t in group.teams.all())
    elif stage.kind == Stage.Kind.ROUND_ROBIN:
        groups[""] = sorted(stage.teams.values_list("id", flat=True))
    for draw in LotDraw.objects.filter(stage=stage).select_related("group"):
        lots[f"{draw.group.name if draw.group else ''}|{draw.key}"] = list(draw.order)
    sources = [
        src
        for f in competition.fixtures.filter(stage__order__gt=stage.order)
        for src in (f.home_source, f.away_source)
        if src
    ]
    slots, third_table = best_third_slots(sources, stage.id)
    third_slots = {str(slot): group for slot, group in slots.items()}
    points = points_of(competition)
    return {
        "id": stage.id,
        "kind": stage.kind,
        "name": stage.name,
        "legs": stage.legs,
        "away_goals_rule": stage.away_goals_rule,
        "extra_time": stage.extra_time,
        "penalties": stage.penalties,
        "advance_per_group": stage.advance_per_group,
        "best_thirds": stage.best_thirds,
        "criteria": tiebreak_order(competition=competition, stage=stage) if groups else ["points"],
        "points": [points.win, points.draw, points.loss],
        "groups": groups,
        "lots": lots,
        "third_slots": third_slots,
        "third_table": third_table,
    }


def _counted_results(competition: Competition) -> dict[int, ResultRow]:
    results = Result.objects.filter(
        fixture__competition=competition, fixture__status__in=Fixture.COUNTED_STATUSES
    )
    fair_play: dict[tuple[int, int], int] = {}
    for result_id, team_id, kind in Card.objects.filter(result__in=results).values_list(
        "result_id", "team_id", "kind"
    ):
        fair_play[(result_id, team_id)] = (
            fair_play.get((result_id, team_id), 0) + FAIR_PLAY_POINTS[CardKind(kind)]
        )
    out: dict[int, ResultRow] = {}
    for r in results.select_related("fixture"):
        f = r.fixture
        out[f.id] = [
            r.home_goals,
            r.away_goals,
            fair_play.get((r.id, f.home_team_id or 0), 0),
            fair_play.get((r.id, f.away_team_id or 0), 0),
            r.extra_time,
            r.home_penalties,
            r.away_penalties,
            r.source == Result.Source.AWARDED,
        ]
    return out


def _check_fixed(fixture: Fixture, value: Any) -> ResultRow:
    where = f"what_if[{fixture.id}]"
    if fixture.status == Fixture.Status.VOID:
        raise ApplicationError(f"{where}: {fixture} is void and will not be played.", code="what_if_invalid")
    if fixture.status in Fixture.COUNTED_STATUSES:
        raise ApplicationError(
            f"{where}: {fixture} already has a result that counts.", code="what_if_invalid"
        )
    if not fixture.is_resolved:
        raise ApplicationError(f"{where}: the teams of {fixture} are not known yet.", code="what_if_invalid")
    if not isinstance(value, list | tuple) or len(value) not in (2, 4):
        raise ApplicationError(
            f"{where}: give [home goals, away goals] or [home, away, home pens, away pens].",
            code="what_if_invalid",
        )
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99:
            raise ApplicationError(
                f"{where}: goals are whole numbers from 0 to 99, not {v!r}.", code="what_if_invalid"
            )
    hg, ag = value[0], value[1]
    hp, ap = (value[2], value[3]) if len(value) == 4 else (None, None)
    knockout = fixture.stage.kind == Stage.Kind.KNOCKOUT
    # (A level second leg may still be decided on aggregate: the core resolves it.)
    if knockout and hg == ag and fixture.stage.legs == 1 and (hp is None or hp == ap):
        raise ApplicationError(
            f"{where}: a level knockout match needs a shoot-out: [home, away, home pens, away pens].",
            code="what_if_invalid",
        )
    extra = knockout and hg == ag and hp is not None and fixture.stage.extra_time
    return [hg, ag, 0, 0, extra, hp, ap, False]


def competition_scenario(
    *, competition: Competition, what_if: Mapping[int, Any] | None = None
) -> tuple[dict[str, Any], list[Team]]:
    """The scenario without its match model, and the competition's teams (for the model)."""
    stages = list(competition.stages.order_by("order"))
    if not stages:
        raise ApplicationError(
            f"{competition}: no stages yet, nothing to simulate.", code="chances_unsupported"
        )
    results = _counted_results(competition)
    fixtures = list(competition.fixtures.select_related("stage").order_by("id"))
    by_id = {f.id: f for f in fixtures}
    for fixture_id, value in (what_if or {}).items():
        fixture = by_id.get(int(fixture_id))
        if fixture is None:
            raise NotFound(f"what_if: no fixture {fixture_id} in {competition}.")
        results[fixture.id] = _check_fixed(fixture, value)
    # A voided match will not be played: it is not simulated either.
    fixtures = [f for f in fixtures if f.status != Fixture.Status.VOID]
    scenario: dict[str, Any] = {
        "competition": competition.id,
        "stages": [_stage_data(s, competition) for s in stages],
        "fixtures": [
            {
                "id": f.id,
                "stage": f.stage_id,
                "group": None,
                "round": f.round,
                "round_name": f.round_name,
                "match_number": f.match_number,
                "leg": f.leg,
                "home": f.home_team_id,
                "away": f.away_team_id,
                "home_source": f.home_source,
                "away_source": f.away_source,
                "result": results.get(f.id),
            }
            for f in fixtures
        ],
    }
    group_of = dict(
        Fixture.objects.filter(competition=competition, group__isnull=False).values_list("id", "group__name")
    )
    round_robin = {s.id for s in stages if s.kind == Stage.Kind.ROUND_ROBIN}
    for f in scenario["fixtures"]:
        f["group"] = group_of.get(f["id"], "" if f["stage"] in round_robin else None)
    teams = list(competition.teams.select_related("coach").prefetch_related("roster_skills__skill"))
    return scenario, teams


def counted_results(*, competition: Competition) -> int:
    return competition.fixtures.filter(status__in=Fixture.COUNTED_STATUSES).count()
