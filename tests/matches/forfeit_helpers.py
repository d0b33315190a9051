"""Shared set-up of the forfeit tests: a two-team league whose only fixture is past its deadline."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tests.factories import team_with_member
from tournaments.models import Competition, Fixture, Stage
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create


def overdue_fixture(
    *,
    policy: str = "simulate",
    rules: tuple[str, ...] = ("all",),
    slug: str = "forfeit-cup",
    kind: str = Stage.Kind.ROUND_ROBIN,
    game_system: str = "fuba-3",
) -> Fixture:
    advanced = (
        ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11", "A13"]
        if rules == ("all",) and game_system == "fuba-3"
        else [r for r in rules if r != "all"]
    )
    competition = competition_create(
        name=f"Forfeit Cup {slug}",
        slug=slug,
        advanced_rules=advanced,
        forfeit_policy=policy,
        game_system=game_system,
    )
    home, _ = team_with_member(competition, "Blues", default_formation="4-4-2")
    away, _ = team_with_member(competition, "Yellows", default_formation="3-5-2")
    stage = stage_create(competition=competition, name="Stage", kind=kind, teams=[home, away])
    fixture_generate(stage=stage)
    fixture = Fixture.objects.select_related("home_team", "away_team").get(stage=stage)
    Fixture.objects.filter(id=fixture.id).update(deadline=timezone.now() - timedelta(hours=1))
    fixture.refresh_from_db()
    return fixture


__all__ = ["Competition", "overdue_fixture"]
