"""Standings for pages and the API, computed once per change of a competition's results and cached.

Computing a World Cup's eight group tables takes a few dozen queries; serving them on every page
view would miss the latency target. Each competition has a version number in the cache; every
cached computation is keyed by it, and a change to anything that feeds the tables (results,
cards, fixtures, lot draws, teams, group membership) bumps the version, so stale entries are
simply never read again. Entries also expire after CACHE_SECONDS as a safety net for writes that
bypass model signals (queryset.update()).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from matches.models import Card, Result
from tournaments.models import Competition, Fixture, Group, LotDraw, Stage, Team
from tournaments.ranking import match_records, points_of, tiebreak_order
from tournaments.standings import Row, compute_table
from tournaments.standings_fast import standings_table

CACHE_SECONDS = 300
T = TypeVar("T")

CRITERION_LABELS = {
    "points": "points",
    "goal_difference": "goal difference",
    "goals_for": "goals scored",
    "away_goals": "away goals",
    "wins": "number of wins",
    "fair_play": "fair-play points",
    "buchholz": "Buchholz score",
    "h2h_points": "points in the matches between the teams level",
    "h2h_goal_difference": "goal difference in the matches between the teams level",
    "h2h_goals_for": "goals scored in the matches between the teams level",
    "h2h_away_goals": "away goals in the matches between the teams level",
    "head_to_head": "head-to-head record (points, goal difference, goals)",
    "lots": "drawing of lots",
}
# Criteria with a value on the row, shown next to the explanation.
_ROW_VALUE = {
    "goal_difference": "goal_difference",
    "goals_for": "goals_for",
    "away_goals": "away_goals",
    "wins": "won",
    "fair_play": "fair_play",
    "buchholz": "buchholz",
}


def _version_key(competition_id: int) -> str:
    return f"standings:v:{competition_id}"


def version(competition_id: int) -> int:
    key = _version_key(competition_id)
    value = cache.get(key)
    if value is None:
        value = time.time_ns()
        # add(): two first readers racing must agree on one version.
        if not cache.add(key, value, None):
            value = cache.get(key, value)
    return int(value)


def _slug_version_key(slug: str) -> str:
    return f"standings:vs:{slug}"


def invalidate(competition_id: int, slug: str | None = None) -> None:
    """Call after a change that affects the standings of a competition (signals do it for saves)."""
    now = time.time_ns()
    _local.clear()
    cache.set(_version_key(competition_id), now, None)
    if slug is None:
        slug = Competition.objects.filter(pk=competition_id).values_list("slug", flat=True).first()
    if slug:
        cache.set(_slug_version_key(slug), now, None)


# Per-process copy of the hottest entries, trusted for LOCAL_SECONDS before asking Redis again.
# Under load every cache round trip costs a context switch to Redis; this keeps the standings page
# and API at (almost) no round trip. Another process's change shows within LOCAL_SECONDS; this
# process's own changes clear the copy at once (invalidate()).
LOCAL_SECONDS = 1.0
_LOCAL_MAX = 256
_local: dict[str, tuple[float, int, Any]] = {}


def clear_local() -> None:
    """Forget this process's copies (tests that clear the shared cache call this too)."""
    _local.clear()


def by_slug(slug: str, name: str, compute: Callable[[], T]) -> T:
    """A cached value for the competition `slug`, read in at most ONE cache round trip.

    The hot endpoints (public standings page and its API) are addressed by slug; fetching the
    slug's version and the entry together (get_many) keeps them close to a trivial endpoint's cost.
    The entry carries the version it was computed under; a newer version means recompute. The
    version is read before computing, so a change committed meanwhile leaves an entry that the
    next reader sees as stale.
    """
    entry_key = f"standings:s:{slug}:{name}"
    now = time.monotonic()
    local = _local.get(entry_key)
    if local is not None and now - local[0] < LOCAL_SECONDS:
        return local[2]
    version_key = _slug_version_key(slug)
    found = cache.get_many([version_key, entry_key])
    version = found.get(version_key)
    entry = found.get(entry_key)
    if version is not None and entry is not None and entry[0] == version:
        value = entry[1]
    elif version is None:
        # First reader: computing first stores nothing for a slug that does not exist (compute
        # raises), so anonymous requests for random slugs cannot fill the cache with version keys.
        # The entry keeps the version chosen before computing: if a change or another reader set
        # the key meanwhile, the entry is merely stale and the next reader recomputes.
        version = time.time_ns()
        value = compute()
        cache.add(version_key, version, None)
        cache.set(entry_key, (version, value), CACHE_SECONDS)
    else:
        value = compute()
        cache.set(entry_key, (version, value), CACHE_SECONDS)
    if len(_local) >= _LOCAL_MAX:
        _local.clear()
    _local[entry_key] = (now, version, value)
    return value


def cached(competition_id: int, name: str, compute: Callable[[], T]) -> T:
    key = f"standings:{competition_id}:{version(competition_id)}:{name}"
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, CACHE_SECONDS)
    return value


def slug_to_id(slug: str) -> int | None:
    """Competition id by slug, cached: the hot pages then need no query before their cache lookups."""
    key = f"competition:slug:{slug}"
    cid = cache.get(key)
    if cid is None:
        cid = Competition.objects.filter(slug=slug).values_list("id", flat=True).first()
        if cid is None:
            return None
        cache.set(key, cid, CACHE_SECONDS)
    return int(cid)


# --- Tables ---------------------------------------------------------------------------------------


@dataclass
class TableRow:
    position: int
    team_id: int
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    goals_for: int
    goals_against: int
    goal_difference: int
    points: int
    fair_play: int
    buchholz: int
    byes: int
    level_with_previous: bool
    decided_by: str
    explanation: str = ""
    qualified: bool = False


@dataclass
class Table:
    stage_id: int
    stage: str
    kind: str
    group: str | None
    rows: list[TableRow] = field(default_factory=list)
    tiebreaks: list[str] = field(default_factory=list)
    show_buchholz: bool = False
    show_fair_play: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage_id,
            "stage_name": self.stage,
            "group": self.group,
            "tiebreak_order": self.tiebreaks,
            "rows": [r.__dict__ for r in self.rows],
        }


def explain(row: Row, above: Row | None, above_name: str) -> str:
    """A sentence for a place decided by a tie-breaker (not by points alone), else ''."""
    if above is None or row.decided_by in ("", "points"):
        return ""
    label = CRITERION_LABELS.get(row.decided_by, row.decided_by.replace("_", " "))
    attr = _ROW_VALUE.get(row.decided_by)
    values = f" ({getattr(above, attr)} v {getattr(row, attr)})" if attr else ""
    return f"Level on points with {above_name}; placed below on {label}{values}."


def _build_table(stage: Stage, group: Group | None, names: dict[int, str], order: list[str]) -> Table:
    rows = standings_table(stage=stage, group=group)
    table = Table(
        stage_id=stage.pk,
        stage=stage.name,
        kind=stage.kind,
        group=group.name if group else None,
        tiebreaks=[CRITERION_LABELS.get(c, c) for c in order],
        show_buchholz=stage.kind == Stage.Kind.SWISS,
        show_fair_play="fair_play" in order,
    )
    previous: Row | None = None
    for r in rows:
        name = names.get(r.team, f"Team {r.team}")
        table.rows.append(
            TableRow(
                position=r.position,
                team_id=r.team,
                team=name,
                played=r.played,
                won=r.won,
                drawn=r.drawn,
                lost=r.lost,
                goals_for=r.goals_for,
                goals_against=r.goals_against,
                goal_difference=r.goal_difference,
                points=r.points,
                fair_play=r.fair_play,
                buchholz=r.buchholz,
                byes=r.byes,
                level_with_previous=r.level_with_previous,
                decided_by=r.decided_by,
                explanation=explain(r, previous, names.get(previous.team, "") if previous else ""),
                qualified=stage.kind == Stage.Kind.GROUPS and r.position <= stage.advance_per_group,
            )
        )
        previous = r
    return table


def compute_competition_tables(competition: Competition) -> list[Table]:
    names = dict(Team.objects.filter(competition=competition).values_list("id", "name"))
    tables: list[Table] = []
    stages = competition.stages.filter(
        kind__in=(Stage.Kind.GROUPS, Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS)
    ).order_by("order")
    for stage in stages:
        order = tiebreak_order(competition=competition, stage=stage)
        if stage.kind == Stage.Kind.GROUPS:
            for group in stage.groups.order_by("name"):
                tables.append(_build_table(stage, group, names, order))
        else:
            tables.append(_build_table(stage, None, names, order))
    return tables


def competition_tables(competition: Competition) -> list[Table]:
    return cached(competition.pk, "tables", lambda: compute_competition_tables(competition))


# --- Positions by round ---------------------------------------------------------------------------


@dataclass
class PositionSeries:
    stage: str
    group: str | None
    rounds: list[int]
    series: list[tuple[str, list[int]]]


MAX_CHART_TEAMS = 24


def compute_position_series(competition: Competition) -> list[PositionSeries]:
    """League position after each round, per table, from the counted results (no lots drawn)."""
    names = dict(Team.objects.filter(competition=competition).values_list("id", "name"))
    out: list[PositionSeries] = []
    points = points_of(competition)
    stages = competition.stages.filter(
        kind__in=(Stage.Kind.GROUPS, Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS)
    ).order_by("order")
    for stage in stages:
        order = [c for c in tiebreak_order(competition=competition, stage=stage) if c != "lots"]
        scopes: list[tuple[str | None, list[int]]]
        if stage.kind == Stage.Kind.GROUPS:
            scopes = [
                (g.name, [t.pk for t in g.teams.all()])
                for g in stage.groups.prefetch_related("teams").order_by("name")
            ]
        else:
            scopes = [(None, list(stage.teams.values_list("id", flat=True)))]
        # A chart of a big field (a 1000-team Swiss) is unreadable: skip before loading its results.
        scopes = [(name, ids) for name, ids in scopes if 0 < len(ids) <= MAX_CHART_TEAMS]
        if not scopes:
            continue
        fixtures = list(
            stage.fixtures.filter(status__in=Fixture.COUNTED_STATUSES)
            .select_related("result")
            .prefetch_related("result__cards")
        )
        byes_by_round: dict[int, list[int]] = {}
        for bye in stage.byes.all():
            byes_by_round.setdefault(bye.round, []).append(bye.team_id)
        for group_name, team_ids in scopes:
            members = set(team_ids)
            scoped = [f for f in fixtures if f.home_team_id in members and f.away_team_id in members]
            rounds = sorted({f.round for f in scoped})
            if not rounds:
                continue
            positions: dict[int, list[int]] = {t: [] for t in team_ids}
            for r in rounds:
                played = [f for f in scoped if f.round <= r]
                byes = [t for rr, ts in byes_by_round.items() if rr <= r for t in ts if t in members]
                table = compute_table(
                    teams=team_ids, matches=match_records(played), criteria=order, points=points, byes=byes
                )
                for row in table:
                    positions[row.team].append(row.position)
            final_order = sorted(team_ids, key=lambda t: positions[t][-1])
            out.append(
                PositionSeries(
                    stage=stage.name,
                    group=group_name,
                    rounds=rounds,
                    series=[(names.get(t, str(t)), positions[t]) for t in final_order],
                )
            )
    return out


def position_series(competition: Competition) -> list[PositionSeries]:
    return cached(competition.pk, "positions", lambda: compute_position_series(competition))


# --- Invalidation ----------------------------------------------------------------------------------


def _competition_of(instance: Any) -> int | None:
    if isinstance(instance, Competition):
        return instance.pk
    if isinstance(instance, Fixture | Team | Stage | LotDraw):
        return getattr(instance, "competition_id", None) or (
            instance.stage.competition_id if isinstance(instance, LotDraw) else None
        )
    if isinstance(instance, Group):
        return instance.stage.competition_id
    if isinstance(instance, Result):
        return Fixture.objects.filter(pk=instance.fixture_id).values_list("competition_id", flat=True).first()
    if isinstance(instance, Card):
        return (
            Result.objects.filter(pk=instance.result_id)
            .values_list("fixture__competition_id", flat=True)
            .first()
        )
    return None


def _bump(sender: Any, instance: Any, **kwargs: Any) -> None:
    competition_id = _competition_of(instance)
    if competition_id is not None:
        slug = instance.slug if isinstance(instance, Competition) else None
        # Now, for reads inside this transaction; and again after commit, because a concurrent
        # reader may have cached the old committed tables under the version bumped just now.
        invalidate(competition_id, slug)
        transaction.on_commit(lambda: invalidate(competition_id, slug))
    if isinstance(instance, Competition):
        cache.delete(f"competition:slug:{instance.slug}")


for _model in (Competition, Stage, Group, Team, Fixture, LotDraw, Result, Card):
    post_save.connect(_bump, sender=_model, dispatch_uid=f"standings_cache_save_{_model.__name__}")
    post_delete.connect(_bump, sender=_model, dispatch_uid=f"standings_cache_delete_{_model.__name__}")


@receiver(m2m_changed, sender=Group.teams.through, dispatch_uid="standings_cache_group_teams")
@receiver(m2m_changed, sender=Stage.teams.through, dispatch_uid="standings_cache_stage_teams")
def _bump_m2m(sender: Any, instance: Any, **kwargs: Any) -> None:
    _bump(sender, instance)
