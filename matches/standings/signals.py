"""Invalidation of the standings cache: every save or delete of something that feeds a table, or shows
on a competition's public pages, bumps its competition's version. Connected by
MatchesConfig.ready.

This is the only place that invalidates: services, views and the admin change the data and the
signals follow. A feature on top whose rows show on the standings pages (the chances) registers
its model here (``register_feed``) rather than invalidating itself. Writes without signals are
either in the same transaction as a signalled save (the bump is repeated on commit), or call
``lots_drawn`` (a table's new draws of lots, stored in bulk), or do not feed a table (bulk-created
fixtures have no result yet). Each bump also names the parts of the competition's pages the change
touches (cache.part_key: a stage, a fixture, a team, or "c" for all), so that the kept fragments of
the pages (fubaleague/web/fragments.py) that do not show it stay kept. A write without signals
whose change shows on the pages calls ``changed`` (or ``fixture_changed``); the announcements of
moved fixtures, draws and published rounds (bulk writes) are connected here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from matches.models import Card, Forfeit, MatchLog, PointAdjustment, Result, ResultAudit
from matches.standings.cache import WHOLE, committed, invalidate
from tournaments import announcements
from tournaments.models import (
    Bye,
    Competition,
    Fixture,
    Group,
    LotDraw,
    RoundClock,
    SkillLoss,
    Stage,
    Suspension,
    Team,
    TeamSkill,
)

# Models of the features on top that show on the standings pages -> which competition a row changes
# (None: this row changes no page).
_FEEDS: dict[type[Model], Callable[[Any], int | None]] = {}


def register_feed(model: type[Model], competition_of: Callable[[Any], int | None]) -> None:
    """Bump a competition's version when a row of ``model`` that shows on its pages is saved or
    deleted (``competition_of`` names the competition, or None when the row changes no page)."""
    _FEEDS[model] = competition_of
    post_save.connect(_bump, sender=model, dispatch_uid=f"standings_feed_save_{model.__name__}")
    post_delete.connect(_bump, sender=model, dispatch_uid=f"standings_feed_delete_{model.__name__}")


# What a change touches: (competition id, its slug when known, the parts of its pages: cache.part_key).
Touched = tuple[int, str | None, tuple[str, ...]]


def _fixture_parts(fixture_id: int, *, extra: tuple[str, ...] = ()) -> Touched | None:
    row = (
        Fixture.objects.filter(pk=fixture_id)
        .values_list("competition_id", "competition__slug", "stage_id", "home_team_id", "away_team_id")
        .first()
    )
    if row is None:
        return None
    competition_id, slug, stage_id, home, away = row
    return competition_id, slug, (f"s{stage_id}", f"f{fixture_id}", *_teams(home, away), *extra)


def _teams(*team_ids: int | None) -> tuple[str, ...]:
    return tuple(f"t{t}" for t in team_ids if t is not None)


def _team_parts(team_id: int, *extra: str) -> Touched | None:
    row = Team.objects.filter(pk=team_id).values_list("competition_id", "competition__slug").first()
    return None if row is None else (row[0], row[1], (f"t{team_id}", *extra))


def _touched(instance: Any) -> Touched | None:
    feed = _FEEDS.get(type(instance))
    if feed is not None:
        competition_id = feed(instance)
        return None if competition_id is None else (competition_id, None, ("x",))
    if isinstance(instance, Competition):
        return instance.pk, instance.slug, (WHOLE,)
    if isinstance(instance, Fixture):
        teams = _teams(instance.home_team_id, instance.away_team_id)
        return instance.competition_id, None, (f"s{instance.stage_id}", f"f{instance.pk}", *teams)
    if isinstance(instance, Result | MatchLog | Forfeit | ResultAudit):
        return _fixture_parts(instance.fixture_id)
    if isinstance(instance, Card):
        fixture_id = Result.objects.filter(pk=instance.result_id).values_list("fixture_id", flat=True).first()
        return None if fixture_id is None else _fixture_parts(fixture_id, extra=_teams(instance.team_id))
    if isinstance(instance, LotDraw | Bye):
        return instance.stage.competition_id, None, (f"s{instance.stage_id}",)
    if isinstance(instance, RoundClock):
        return instance.competition_id, None, (f"s{instance.stage_id}",)
    if isinstance(instance, Suspension):
        fixtures = [f"f{f}" for f in (instance.source_fixture_id, instance.served_in_id) if f is not None]
        return instance.competition_id, None, (f"t{instance.team_id}", *fixtures)
    if isinstance(instance, TeamSkill):
        return _team_parts(instance.team_id)
    if isinstance(instance, SkillLoss):
        return _team_parts(instance.team_id, f"f{instance.lost_in_id}")
    # A team's name, a stage, a group, a point adjustment: every page may show it.
    if isinstance(instance, Team | Stage | PointAdjustment):
        return instance.competition_id, None, (WHOLE,)
    if isinstance(instance, Group):
        return instance.stage.competition_id, None, (WHOLE,)
    return None


def _bump(sender: Any, instance: Any, **kwargs: Any) -> None:
    touched = _touched(instance)
    if touched is not None:
        changed(*touched)


def changed(competition_id: int, slug: str | None = None, parts: tuple[str, ...] = (WHOLE,)) -> None:
    """Bump a competition's versions (and of ``parts`` of its pages): for a write without model
    signals (queryset.update(), bulk_update()) whose change shows on the pages."""
    # Now, for reads inside this transaction; and again after commit, because a concurrent
    # reader may have cached the old committed tables under the version bumped just now.
    invalidate(competition_id, slug, parts)
    transaction.on_commit(lambda: _committed(competition_id, slug, parts))


def _committed(competition_id: int, slug: str | None, parts: tuple[str, ...]) -> None:
    invalidate(competition_id, slug, parts)
    committed.send(sender=Competition, slug=slug, competition_id=competition_id, parts=parts)


def lots_drawn(competition_id: int, stage_id: int | None = None) -> None:
    """LotDraw rows were bulk-inserted (no model signals): bump the competition's version once."""
    changed(competition_id, None, (WHOLE,) if stage_id is None else (f"s{stage_id}",))


def fixture_changed(fixture_id: int) -> None:
    """A fixture was written without model signals (its status claimed with queryset.update())."""
    touched = _fixture_parts(fixture_id)
    if touched is not None:
        changed(*touched)


def _fixtures_moved(sender: Any, fixture: Fixture, **kwargs: Any) -> None:
    # tournaments' scheduling moves fixtures with bulk_update (no model signals).
    teams = _teams(fixture.home_team_id, fixture.away_team_id)
    changed(fixture.competition_id, None, (f"s{fixture.stage_id}", f"f{fixture.pk}", *teams))


def _stage_changed(sender: Any, competition: Any = None, stage_id: int | None = None, **kwargs: Any) -> None:
    # A draw, a Swiss round paired, fixtures published: fixtures bulk-created, and the stage's and
    # the competition's status set with queryset.update().
    competition_id = getattr(competition, "pk", None)
    if competition_id is None and stage_id is not None:
        competition_id = Stage.objects.filter(pk=stage_id).values_list("competition_id", flat=True).first()
    if competition_id is not None:
        changed(competition_id)


def _names_changed(
    sender: Any, club_id: int | None = None, coach_id: int | None = None, **kwargs: Any
) -> None:
    # A renamed club or coach shows on the teams list and the team pages of every competition it
    # has a team in; rare enough that all of each such competition's pages are made stale.
    if club_id is not None:
        teams = Team.objects.filter(club_id=club_id)
    elif coach_id is not None:
        teams = Team.objects.filter(coach_id=coach_id)
    else:
        return
    for competition_id, slug in teams.values_list("competition_id", "competition__slug").distinct():
        changed(competition_id, slug)


def connect() -> None:
    tables = (Competition, Stage, Group, Team, Fixture, Bye, LotDraw, Result, Card, PointAdjustment)
    # What the other public pages show (fubaleague/web/page_cache.py keeps them under the version).
    # (A round's clock shows on the big screen and the scorer: fubaleague/web/screen.py.)
    pages = (Suspension, TeamSkill, SkillLoss, MatchLog, Forfeit, ResultAudit, RoundClock)
    for model in (*tables, *pages):
        post_save.connect(_bump, sender=model, dispatch_uid=f"standings_save_{model.__name__}")
        post_delete.connect(_bump, sender=model, dispatch_uid=f"standings_delete_{model.__name__}")
    for through in (Group.teams.through, Stage.teams.through):
        m2m_changed.connect(_bump, sender=through, dispatch_uid=f"standings_m2m_{through.__name__}")
    announcements.fixture_dates_changed.connect(_fixtures_moved, dispatch_uid="standings_fixtures_moved")
    announcements.names_changed.connect(_names_changed, dispatch_uid="standings_names_changed")
    for name in ("draw_made", "round_paired", "fixtures_published"):
        announcements.SIGNALS[name].connect(_stage_changed, dispatch_uid=f"standings_{name}")
