"""Invalidation of the standings cache: every save or delete of something that feeds a table, or shows
on a competition's public pages, bumps its competition's version. Connected by
MatchesConfig.ready.

This is the only place that invalidates: services, views and the admin change the data and the
signals follow. A feature on top whose rows show on the standings pages (the chances) registers
its model here (``register_feed``) rather than invalidating itself. Writes without signals are
either in the same transaction as a signalled save (the bump is repeated on commit), or call
``lots_drawn`` (a table's new draws of lots, stored in bulk), or do not feed a table (bulk-created
fixtures have no result yet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save

from matches.models import Card, Forfeit, MatchLog, PointAdjustment, Result, ResultAudit
from matches.standings.cache import invalidate
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


def _competition_of(instance: Any) -> int | None:
    feed = _FEEDS.get(type(instance))
    if feed is not None:
        return feed(instance)
    if isinstance(instance, Competition):
        return instance.pk
    if isinstance(instance, Fixture | Team | Stage | PointAdjustment | Suspension | RoundClock):
        return instance.competition_id
    if isinstance(instance, LotDraw | Bye | Group):
        return instance.stage.competition_id
    if isinstance(instance, Result | MatchLog | Forfeit | ResultAudit):
        return Fixture.objects.filter(pk=instance.fixture_id).values_list("competition_id", flat=True).first()
    if isinstance(instance, TeamSkill | SkillLoss):
        return Team.objects.filter(pk=instance.team_id).values_list("competition_id", flat=True).first()
    if isinstance(instance, Card):
        return (
            Result.objects.filter(pk=instance.result_id)
            .values_list("fixture__competition_id", flat=True)
            .first()
        )
    return None


def _bump(sender: Any, instance: Any, **kwargs: Any) -> None:
    competition_id = _competition_of(instance)
    if competition_id is None:
        return
    slug = instance.slug if isinstance(instance, Competition) else None
    # Now, for reads inside this transaction; and again after commit, because a concurrent
    # reader may have cached the old committed tables under the version bumped just now.
    invalidate(competition_id, slug)
    transaction.on_commit(lambda: invalidate(competition_id, slug))


def lots_drawn(competition_id: int) -> None:
    """LotDraw rows were bulk-inserted (no model signals): bump the competition's version once."""
    invalidate(competition_id)
    transaction.on_commit(lambda: invalidate(competition_id))


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
