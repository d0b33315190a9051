"""Knockout ties of model rows: who goes through (through tournaments.bracket) and whether a submitted
knockout score is complete. The rows come from the caller: nothing here queries the database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.errors import ApplicationError, Conflict
from tournaments.bracket import Leg, Score, TieOutcome, level_after_goals, needs_decider, tie_decision
from tournaments.game_systems import FUBA_3, game_system_rules, rules_of
from tournaments.models import Fixture, Stage

if TYPE_CHECKING:
    from matches.models import Result


def _counted_result(fixture: Fixture) -> Result | None:
    if fixture.status not in Fixture.COUNTED_STATUSES:
        return None
    return getattr(fixture, "result", None)


def score_of(result: Result) -> Score:
    return Score(
        result.home_goals, result.away_goals, result.extra_time, result.home_penalties, result.away_penalties
    )


def tie_outcome(stage: Stage, legs: list[Fixture]) -> TieOutcome | None:
    """The outcome of a tie whose fixtures (ordered by leg) all have counted results, else None."""
    rows = []
    for fixture in legs:
        if fixture.home_team_id is None or fixture.away_team_id is None:
            return None
        result = _counted_result(fixture)
        rows.append(
            Leg(
                home=fixture.home_team_id,
                away=fixture.away_team_id,
                score=score_of(result) if result is not None else None,
                awarded=result is not None and result.source == "awarded",
            )
        )
    return tie_decision(away_goals_rule=stage.away_goals_rule, legs=rows)


def knockout_score_check(*, fixture: Fixture, score: Score, first_leg: Fixture | None) -> None:
    """Refuse a knockout score that does not decide the tie, or that has a shoot-out it should not have."""
    stage = fixture.stage
    rules = rules_of(fixture.competition)
    shootout = rules.shootout
    has_shootout = score.home_penalties is not None or score.away_penalties is not None
    if has_shootout and (score.home_penalties is None or score.away_penalties is None):
        raise ApplicationError(f"{fixture}: give both teams' shoot-out scores or neither.")
    if (score.extra_time and not rules.extra_time) or (has_shootout and shootout is None):
        raise ApplicationError(
            f"{fixture}: {rules.name} has no extra time or shoot-out ({rules.rulebook}); remove them."
        )
    if score.extra_time and not stage.extra_time:
        raise ApplicationError(f"{fixture}: this stage plays no extra time; a level tie goes to a shoot-out.")
    is_first_of_two = stage.legs == 2 and fixture.leg == 1
    if is_first_of_two:
        if score.extra_time or has_shootout:
            raise ApplicationError(
                f"{fixture}: the first leg of a two-legged tie has no extra time or shoot-out."
            )
        return
    first: Score | None = None
    if stage.legs == 2:
        result = _counted_result(first_leg) if first_leg is not None else None
        if result is None:
            raise Conflict(f"{fixture}: the first leg's result must count before the second leg's.")
        first = score_of(result)
    h, a, _how = level_after_goals(away_goals_rule=stage.away_goals_rule, first=first, last=score)
    if h != a:
        if has_shootout:
            raise ApplicationError(f"{fixture}: the tie is decided without a penalty shoot-out; remove it.")
        return
    if shootout is None:
        raise ApplicationError(
            f"{fixture}: {rules.name} has no extra time or shoot-out ({rules.rulebook}): a knockout tie "
            "cannot end level; play the match again and report the replay."
        )
    if not stage.penalties:
        raise ApplicationError(f"{fixture}: a knockout tie cannot end level in this stage (no shoot-out).")
    if not has_shootout:
        raise ApplicationError(f"{fixture}: the tie is level; give the penalty shoot-out score.")
    if score.home_penalties == score.away_penalties:
        raise ApplicationError(f"{fixture}: a penalty shoot-out cannot end level.")
    if not shootout.possible(score.home_penalties, score.away_penalties):  # type: ignore[arg-type]
        raise ApplicationError(
            f"{fixture}: a {rules.name} shoot-out cannot end {score.home_penalties}-{score.away_penalties}: "
            f"{shootout.explain()} ({shootout.source})."
        )
    if stage.extra_time and not score.extra_time:
        raise ApplicationError(
            f"{fixture}: in this stage a shoot-out follows extra time; mark extra time played."
        )


def shootout_possible(home: int, away: int) -> bool:
    """Whether a FUBA (house rule) shoot-out can end with this score (interpretation I-42).

    Five kicks each, stopped as soon as one side cannot catch up; level after five each, sudden
    death: one kick each until one side scores and the other misses, so it ends one goal apart.
    Other games shoot theirs as their rulebook says: ``rules_of(competition).shootout``.
    """
    return game_system_rules(FUBA_3).shootout.possible(home, away)  # type: ignore[union-attr]


def tie_needs_decider(
    *, fixture: Fixture, first_leg: Fixture | None, home_goals: int, away_goals: int
) -> bool:
    """Whether this score leaves the tie level, so extra time and a shoot-out must follow
    (``first_leg``: the tie's first leg when ``fixture`` is a second leg,
    ``tournaments.selectors.fixture_first_leg``).

    Used by the forfeit simulation, which plays 90 minutes and must then decide a knockout tie.
    """
    stage = fixture.stage
    if stage.kind != Stage.Kind.KNOCKOUT or (stage.legs == 2 and fixture.leg == 1):
        return False
    first: Score | None = None
    if stage.legs == 2:
        result = _counted_result(first_leg) if first_leg is not None else None
        if result is None:
            return False  # result_record_system refuses the second leg with a clear message
        first = score_of(result)
    return needs_decider(
        away_goals_rule=stage.away_goals_rule, first=first, last=Score(home_goals, away_goals)
    )


def decider_fields(fixture: Fixture) -> tuple[bool, bool]:
    """(extra time, shoot-out): what a result of this fixture may carry beyond its goals.

    Only a knockout match that decides its tie (a single match, or a second leg) goes on past
    full time, and only as its stage and its game system allow; a group or league match, or a
    first leg, has goals only (the same rule knockout_score_check applies to a score).
    """
    stage = fixture.stage
    if stage.kind != Stage.Kind.KNOCKOUT or (stage.legs == 2 and fixture.leg == 1):
        return False, False
    rules = rules_of(fixture.competition)
    return bool(stage.extra_time and rules.extra_time), bool(stage.penalties and rules.shootout is not None)


def tie_through(*, fixture: Fixture, score: Score, first_leg: Fixture | None) -> TieOutcome | None:
    """Who would go through if this knockout fixture ended with `score` (None: not decided by it)."""
    stage = fixture.stage
    if stage.kind != Stage.Kind.KNOCKOUT or fixture.home_team_id is None or fixture.away_team_id is None:
        return None
    legs = []
    if stage.legs == 2:
        if fixture.leg == 1 or first_leg is None:
            return None
        first = _counted_result(first_leg)
        if first is None or first_leg.home_team_id is None or first_leg.away_team_id is None:
            return None
        legs.append(Leg(home=first_leg.home_team_id, away=first_leg.away_team_id, score=score_of(first)))
    legs.append(Leg(home=fixture.home_team_id, away=fixture.away_team_id, score=score))
    return tie_decision(away_goals_rule=stage.away_goals_rule, legs=legs)
