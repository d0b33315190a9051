"""Writing a result that counts, or clearing one, and what follows: the standings, the stage, the
knockout slots (reopening later fixtures played with the old outcome) and A13 skills.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from kernel.errors import Conflict
from matches.models import Card, Result, ResultAudit, ResultSubmission
from matches.progress import fixture_result_changed
from matches.services.shared import (
    CardInput,
    audit,
    snapshot,
)
from tournaments.bracket import Score
from tournaments.models import Fixture, Skill, SkillLoss, TeamSkill
from tournaments.skills import skill_gain_record, skill_loss_record


def write_result(
    fixture: Fixture,
    *,
    score: Score,
    cards: Sequence[CardInput],
    source: str,
    status: str,
    actor: User | None,
    submission: ResultSubmission | None = None,
    cascade: list[dict[str, Any]] | None = None,
) -> Result:
    fields = {
        "home_goals": score.home_goals,
        "away_goals": score.away_goals,
        "extra_time": score.extra_time,
        "home_penalties": score.home_penalties,
        "away_penalties": score.away_penalties,
        "source": source,
        "submission": submission,
        "confirmed_by": actor if actor is not None and actor.is_authenticated else None,
    }
    try:
        with transaction.atomic():
            result, _ = Result.objects.update_or_create(fixture=fixture, defaults=fields)
    except IntegrityError:
        raise Conflict(f"{fixture}: another result was recorded at the same moment.") from None
    result.cards.all().delete()
    Card.objects.bulk_create(
        [
            Card(
                result=result,
                team=fixture.home_team if c.side == "home" else fixture.away_team,
                kind=c.kind,
                shirt_number=c.shirt_number,
                sequence=i,
            )
            for i, c in enumerate(cards)
        ]
    )
    fixture.status = status
    fixture.save(update_fields=["status", "updated_at"])
    if cascade is None:
        fixture_result_changed(fixture=fixture, actor=actor)
    else:
        _recount(fixture, actor=actor, cascade=cascade)
    return result


def _recount(fixture: Fixture, *, actor: User | None, cascade: list[dict[str, Any]]) -> None:
    """What follows from a corrected result, reopening the later fixtures that used the old one.

    Every fixture reopened (its result cleared, recursively further down the bracket) is added to
    ``cascade`` as it was before; the caller refuses the whole change unless reopening was asked for.
    """
    blocked: list[Fixture] = []
    fixture_result_changed(fixture=fixture, blocked=blocked, actor=actor)
    if not blocked:
        return
    for dependent in blocked:
        cascade.append({"id": dependent.pk, "fixture": str(dependent), "status": dependent.status})
        clear(
            dependent,
            actor=actor,
            action=ResultAudit.Action.REOPEN,
            note=f"{fixture} was corrected: who plays this fixture changed.",
            cascade=cascade,
        )
    fixture_result_changed(fixture=fixture, actor=actor)


def clear(
    fixture: Fixture,
    *,
    actor: User | None,
    action: str,
    note: str,
    cascade: list[dict[str, Any]],
    status: str = Fixture.Status.SCHEDULED,
) -> None:
    """The fixture goes back to scheduled (or to ``status``): no result, no live submission, no
    skills from it."""
    before = snapshot(fixture)
    Result.objects.filter(fixture=fixture).delete()
    ResultSubmission.objects.filter(
        fixture=fixture, status__in=[ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    # A13 skills lost or gained in this match no longer happened.
    SkillLoss.objects.filter(lost_in=fixture).delete()
    TeamSkill.objects.filter(gained_in=fixture, source=TeamSkill.Source.GAINED).delete()
    fixture.status = status
    fixture.save(update_fields=["status", "updated_at"])
    _recount(fixture, actor=actor, cascade=cascade)
    audit(fixture, action, actor, before, snapshot(fixture), note=note)


def refuse_unless_reopened(fixture: Fixture, cascade: list[dict[str, Any]], reopen: bool) -> None:
    if cascade and not reopen:
        listed = "; ".join(f"{c['fixture']} ({c['status']})" for c in cascade)
        raise Conflict(
            f"{fixture}: later fixtures were played with the old outcome: {listed}. "
            "Correct with reopen to clear them as well.",
            details={"fixtures": cascade},
        )


def apply_skill_changes(fixture: Fixture, derived: Mapping[str, Any] | None) -> None:
    """A13 Injured star player / New talent carry over to the team's next matches."""
    if not derived:
        return
    by_code = {s.code: s for s in Skill.objects.all()}
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        data = (derived.get("teams") or {}).get(side) or {}
        for code in data.get("skills_lost") or []:
            if code in by_code:
                skill_loss_record(team=team, skill=by_code[code], fixture=fixture)  # type: ignore[arg-type]
        for code in data.get("skills_gained") or []:
            if code in by_code:
                skill_gain_record(team=team, skill=by_code[code], fixture=fixture)  # type: ignore[arg-type]
