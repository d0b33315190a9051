"""Stages and their groups: the settings of each kind of stage, create, update and delete while unplayed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Model

from kernel.errors import ApplicationError, Conflict
from tournaments.fixtures import group_qualifiers_problem
from tournaments.game_systems import (
    rules_of,
)
from tournaments.models import (
    Competition,
    Fixture,
    Group,
    Stage,
    StageChange,
    Team,
)
from tournaments.selectors import actor_role_words
from tournaments.services.clubs import teams_check
from tournaments.services.shared import any_played, invalid
from tournaments.table_feed import Band, band_problem, playoff_problem

# The stages whose final table can feed a knockout by places.
TABLE_KINDS = (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS, Stage.Kind.LEAGUE_PHASE)

STAGE_SETTINGS = (
    "name",
    "legs",
    "away_goals_rule",
    "extra_time",
    "penalties",
    "third_place_match",
    "advance_per_group",
    "best_thirds",
    "thirds_placing",
    "swiss_rounds",
    "knockout_rounds",
    "feeder",
    "feed",
    "feed_places_from",
    "feed_places_to",
    "feed_playoff",
)


# The numbers among them (and the stage's place in its competition), with the range every writer
# (API, console, admin, commands) accepts: the API's serializers and the console's forms read their
# bounds from here, and stage_settings_check refuses a number outside it, naming the field.
STAGE_RANGES: dict[str, tuple[int, int]] = {
    "order": (1, 1000),
    "legs": (1, 2),
    "advance_per_group": (1, 2),
    "best_thirds": (0, 64),
    "swiss_rounds": (0, 64),
    "knockout_rounds": (0, 12),
    "feed_places_from": (1, 1000),
    "feed_places_to": (1, 1000),
}
STAGE_WORDS = {
    "order": "The stage number",
    "legs": "The legs (1: single matches, 2: double / two-legged)",
    "advance_per_group": "The teams going through per group",
    "best_thirds": "The best third-placed teams going through",
    "swiss_rounds": "The Swiss rounds",
    "knockout_rounds": "The knockout rounds (0: down to the final)",
    "feed_places_from": "The first table place",
    "feed_places_to": "The last table place",
}


def stage_numbers_check(values: Mapping[str, Any], where: str) -> None:
    """Each number given is a whole number within STAGE_RANGES (None: not set)."""
    for field, (low, high) in STAGE_RANGES.items():
        value = values.get(field)
        if value is None:
            continue
        words = STAGE_WORDS[field]
        if isinstance(value, bool) or not isinstance(value, int):
            raise invalid(f"{where}: {words} must be a whole number; got {value!r}.", field)
        if not low <= value <= high:
            raise invalid(f"{where}: {words} must be from {low} to {high}; got {value}.", field)


# What shapes a stage's fixtures: frozen once they are generated (the admin asks the same list).
STAGE_FROZEN_FIELDS = (
    "legs",
    "advance_per_group",
    "best_thirds",
    "thirds_placing",
    "knockout_rounds",
    "feeder",
    "feed",
    "feed_places_from",
    "feed_places_to",
    "feed_playoff",
    "swiss_rounds",
    "teams",
)


def stage_settings_check(competition: Competition, kind: str, values: Mapping[str, Any], where: str) -> None:
    """The rules on a stage's settings, for create, update and the admin form alike."""
    if kind not in Stage.Kind.values:
        raise invalid(
            f"{where}: unknown kind '{kind}'; choose one of {', '.join(Stage.Kind.values)}.", "kind"
        )
    stage_numbers_check(values, where)
    if kind == Stage.Kind.SWISS and values.get("swiss_rounds", 0) < 1:
        raise invalid(f"{where}: give the number of Swiss rounds.", "swiss_rounds")
    game = rules_of(competition)
    for key, allowed in (("extra_time", game.extra_time), ("penalties", game.shootout is not None)):
        if values.get(key) and not allowed:
            raise invalid(
                f"{where}: {game.name} has no extra time or penalty shoot-out ({game.rulebook}).", key
            )
    if values.get("thirds_placing", Stage.ThirdsPlacing.EURO_2024) not in Stage.ThirdsPlacing.values:
        raise invalid(
            f"{where}: the thirds are placed by one of {', '.join(Stage.ThirdsPlacing.values)}.",
            "thirds_placing",
        )
    if values.get("feed", "winners") not in ("winners", "losers"):
        raise invalid(f"{where}: feed must be 'winners' or 'losers'.", "feed")
    feeder = values.get("feeder")
    if feeder is not None:
        if kind != Stage.Kind.KNOCKOUT:
            raise invalid(f"{where}: only a knockout stage is fed by another stage.", "feeder")
        if feeder.competition_id != competition.id:
            raise invalid(f"{where}: {feeder} is not a stage of '{competition}'.", "feeder")
    if values.get("feed") == "losers" and feeder is not None and feeder.kind != Stage.Kind.KNOCKOUT:
        raise invalid(f"{where}: only a knockout stage has losers to feed another stage.", "feed")
    _table_feed_check(competition, values, where)


def _table_feed_check(competition: Competition, values: Mapping[str, Any], where: str) -> None:
    """A knockout after a table takes a band of its places, and perhaps a play-off's winners."""
    feeder = values.get("feeder")
    first, last = values.get("feed_places_from"), values.get("feed_places_to")
    playoff = values.get("feed_playoff")
    if feeder is None or feeder.kind not in TABLE_KINDS:
        if feeder is not None and feeder.kind not in (Stage.Kind.GROUPS, Stage.Kind.KNOCKOUT):
            raise invalid(f"{where}: a knockout is fed by a group or knockout stage, or a table.", "feeder")
        for field, value in (
            ("feed_places_from", first),
            ("feed_places_to", last),
            ("feed_playoff", playoff),
        ):
            if value is not None:
                raise invalid(
                    f"{where}: {field} needs a feeder whose table has places "
                    "(a league, Swiss rounds or a league phase).",
                    field,
                )
        return
    if first is None or last is None:
        field = "feed_places_from" if first is None else "feed_places_to"
        raise invalid(f"{where}: give the places it takes from {feeder.name} (first and last).", field)
    band = Band(first, last)
    problem = band_problem(band=band, table_size=feeder.teams.count())
    if problem:
        field = "feed_places_from" if band.first < 1 else "feed_places_to"
        raise invalid(f"{where}: from {feeder.name}, {problem}.", field)
    if values.get("feed", "winners") != "winners":
        raise invalid(f"{where}: a table feeds its places, not losers.", "feed")
    if playoff is None:
        return
    if (
        playoff.competition_id != competition.id
        or playoff.kind != Stage.Kind.KNOCKOUT
        or playoff.feeder_id != feeder.id
        or playoff.feed_places_from is None
        or playoff.feed_places_to is None
    ):
        raise invalid(
            f"{where}: the play-off must be a knockout stage of '{competition}' "
            f"fed by places of {feeder.name}.",
            "feed_playoff",
        )
    problem = playoff_problem(
        direct=band,
        playoff=Band(playoff.feed_places_from, playoff.feed_places_to),
        playoff_rounds=playoff.knockout_rounds,
    )
    if problem:
        raise invalid(f"{where}: with {playoff.name}: {problem}.", "feed_playoff")


def _groups_check(
    competition: Competition,
    groups: Mapping[str, Sequence[Team]] | None,
    advance_per_group: int,
    best_thirds: int,
    where: str,
) -> None:
    """A new group stage's groups: named, of two teams or more (or empty, to be drawn), able to
    send the stage's qualifiers on."""
    if not groups:
        raise invalid(f"{where}: a group stage needs its groups.", "groups")
    teams_check(competition, [t for g in groups.values() for t in g], where, "groups")
    if any(len(g) == 1 for g in groups.values()):
        raise invalid(f"{where}: every group needs at least two teams (or none yet, to draw).", "groups")
    bad = [g for g in groups if not isinstance(g, str) or not 0 < len(g) <= 10]
    if bad:
        raise invalid(f"{where}: group names are 1 to 10 characters: {bad}.", "groups")
    if all(groups.values()):  # drawn groups are checked when the knockout is generated
        problem = group_qualifiers_problem(
            sizes={name: len(g) for name, g in groups.items()},
            advance=advance_per_group,
            best_thirds=best_thirds,
        )
        if problem:
            raise invalid(f"{where}: {problem}.", "best_thirds")


def _free_order(competition: Competition, order: int | None, where: str) -> int:
    """The stage's number in its competition: the next one, or the one asked for if it is free."""
    if order is None:
        return (competition.stages.aggregate(m=Max("order"))["m"] or 0) + 1
    if competition.stages.filter(order=order).exists():
        raise Conflict(
            f"{where}: '{competition}' already has a stage number {order}.", details={"field": "order"}
        )
    return order


def _plain(value: Any) -> Any:
    """A setting as the trail keeps it: a stage by its id, teams by their sorted ids."""
    if isinstance(value, Model):
        return value.pk
    if isinstance(value, list | tuple):
        return sorted(_plain(v) for v in value)
    return value


def _record(
    competition: Competition,
    stage: Stage,
    action: str,
    changes: Mapping[str, list[Any]],
    user: User | None,
) -> None:
    """The change on the competition's stage trail, naming who made it and their standing."""
    StageChange.objects.create(
        competition=competition,
        stage=None if action == StageChange.Action.DELETED else stage,
        stage_name=stage.name,
        action=action,
        changes=dict(changes),
        changed_by=user if user is not None and user.is_authenticated else None,
        changed_by_role=actor_role_words(user=user, competition=competition),
    )


@transaction.atomic
def stage_create(
    *,
    competition: Competition,
    name: str,
    kind: str,
    order: int | None = None,
    legs: int = 1,
    away_goals_rule: bool | None = None,
    extra_time: bool | None = None,
    penalties: bool | None = None,
    third_place_match: bool = False,
    advance_per_group: int = 2,
    best_thirds: int = 0,
    thirds_placing: str = Stage.ThirdsPlacing.EURO_2024,
    swiss_rounds: int = 0,
    knockout_rounds: int = 0,
    feeder: Stage | None = None,
    feed: str = "winners",
    feed_places_from: int | None = None,
    feed_places_to: int | None = None,
    feed_playoff: Stage | None = None,
    teams: Sequence[Team] = (),
    groups: Mapping[str, Sequence[Team]] | None = None,
    user: User | None = None,
) -> Stage:
    """Create a stage. A group stage's groups may start empty, to be drawn from pots.

    Away goals, extra time and the shoot-out default to what the game system plays
    (``tournaments.game_systems``): Soccer City's Cup counts away goals, Super Team has neither.
    A stage added by ``user`` is on the competition's stage trail; the stages a preset or a
    format makes with a new competition are not (the competition's creation is the record).
    """
    where = f"Stage '{name}' of '{competition}'"
    game = rules_of(competition)
    if away_goals_rule is None:
        away_goals_rule = game.away_goals and legs == 2
    if extra_time is None:
        extra_time = game.extra_time
    if penalties is None:
        penalties = game.shootout is not None
    values: dict[str, Any] = {
        "extra_time": extra_time,
        "penalties": penalties,
        "legs": legs,
        "away_goals_rule": away_goals_rule,
        "third_place_match": third_place_match,
        "advance_per_group": advance_per_group,
        "best_thirds": best_thirds,
        "swiss_rounds": swiss_rounds,
        "knockout_rounds": knockout_rounds,
        "thirds_placing": thirds_placing,
        "feeder": feeder,
        "feed": feed,
        "feed_places_from": feed_places_from,
        "feed_places_to": feed_places_to,
        "feed_playoff": feed_playoff,
    }
    stage_settings_check(competition, kind, values | {"order": order}, where)
    if kind == Stage.Kind.GROUPS:
        _groups_check(competition, groups, advance_per_group, best_thirds, where)
    else:
        teams_check(competition, teams, where)
        if kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS, Stage.Kind.LEAGUE_PHASE) and len(teams) < 2:
            raise invalid(f"{where}: needs at least two teams.", "teams")
    order = _free_order(competition, order, where)
    stage = Stage.objects.create(competition=competition, name=name, kind=kind, order=order, **values)
    if teams:
        stage.teams.set(teams)
    for group_name, group_teams in (groups or {}).items():
        group = Group.objects.create(stage=stage, name=group_name)
        group.teams.set(group_teams)
    if user is not None:
        added = {f: [None, _plain(v)] for f, v in values.items()} | {"kind": [None, kind]}
        _record(competition, stage, StageChange.Action.ADDED, added, user)
    return stage


def _stage_frozen(stage: Stage) -> bool:
    return stage.fixtures.exists()


def _away_goals_check(
    stage: Stage, values: Mapping[str, Any], changes: Mapping[str, Any], where: str
) -> None:
    """Away goals decide only a two-legged knockout tie, and never change who went through."""
    if "away_goals_rule" not in changes or changes["away_goals_rule"] == stage.away_goals_rule:
        return
    if changes["away_goals_rule"] and (stage.kind != Stage.Kind.KNOCKOUT or values.get("legs") != 2):
        raise invalid(f"{where}: away goals count only in two-legged knockout ties.", "away_goals_rule")
    if any_played(stage.fixtures.all()):
        raise Conflict(
            f"{where}: results already count; away goals cannot be switched now.",
            details={"field": "away_goals_rule"},
        )


@transaction.atomic
def stage_update(
    *, stage: Stage, teams: Sequence[Team] | None = None, user: User | None = None, **changes: Any
) -> Stage:
    """Change a stage; what shapes its fixtures (teams, legs, rounds, feeder) only before they exist.

    What changed goes on the competition's stage trail with ``user`` (None: the system)."""
    unknown = set(changes) - set(STAGE_SETTINGS) - {"order"}
    if unknown:
        raise ApplicationError(
            f"Cannot change {', '.join(sorted(unknown))} here (create a new stage instead)."
        )
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    competition = stage.competition
    where = f"Stage '{stage.name}' of '{competition}'"
    values = {f: getattr(stage, f) for f in STAGE_SETTINGS} | changes
    stage_settings_check(competition, stage.kind, values, where)
    _away_goals_check(stage, values, changes, where)
    changed = [f for f in STAGE_FROZEN_FIELDS if f in changes and changes[f] != getattr(stage, f)]
    if teams is not None:
        changed.append("teams")
    if changed and _stage_frozen(stage):
        raise Conflict(
            f"{where}: fixtures were generated; {', '.join(sorted(changed))} can no longer change.",
            details={"field": sorted(changed)[0]},
        )
    if "order" in changes and competition.stages.filter(order=changes["order"]).exclude(id=stage.id).exists():
        raise Conflict(
            f"{where}: '{competition}' already has a stage number {changes['order']}.",
            details={"field": "order"},
        )
    trail = {
        f: [_plain(getattr(stage, f)), _plain(v)]
        for f, v in changes.items()
        if _plain(getattr(stage, f)) != _plain(v)
    }
    if teams is not None:
        if stage.kind == Stage.Kind.GROUPS:
            raise invalid(f"{where}: a group stage's teams are on its groups.", "teams")
        teams_check(competition, teams, where)
        before = _plain(list(stage.teams.all()))
        if before != _plain(list(teams)):
            trail["teams"] = [before, _plain(list(teams))]
        stage.teams.set(teams)
    for field, value in changes.items():
        setattr(stage, field, value)
    stage.save()
    if trail:
        _record(competition, stage, StageChange.Action.CHANGED, trail, user)
    return stage


@transaction.atomic
def stage_delete(*, stage: Stage, user: User | None = None) -> None:
    """Delete a stage and its fixtures while none has a result and no stage takes its teams; the
    deletion, with the stage's settings, stays on the competition's stage trail."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    played = stage.fixtures.exclude(status=Fixture.Status.SCHEDULED).count()
    if played:
        raise Conflict(
            f"{stage} has {played} fixture(s) with a result (or one on its way); it cannot be deleted. "
            "Clear those results first, or keep the stage.",
            details={"field": "stage"},
        )
    fed = list(stage.fed_stages.values_list("name", flat=True))
    fed += list(stage.playoff_for.values_list("name", flat=True))
    if fed:
        raise Conflict(
            f"{stage} feeds {', '.join(fed)}; delete or re-point those first.", details={"field": "stage"}
        )
    settings = {f: [_plain(getattr(stage, f)), None] for f in STAGE_SETTINGS if f != "name"}
    settings["kind"] = [stage.kind, None]
    _record(stage.competition, stage, StageChange.Action.DELETED, settings, user)
    stage.fixtures.all().delete()
    stage.delete()


def _group_check(stage: Stage, name: str, teams: Sequence[Team], group: Group | None) -> None:
    where = f"Group {name} of {stage.name}"
    if stage.kind != Stage.Kind.GROUPS:
        raise invalid(f"{stage} is not a group stage.", "stage")
    if not isinstance(name, str) or not 0 < len(name) <= 10:
        raise invalid(f"{where}: a group name is 1 to 10 characters.", "name")
    others = stage.groups.filter(name=name)
    if group is not None:
        others = others.exclude(id=group.id)
    if others.exists():
        raise Conflict(f"{stage.name} already has a group {name}.", details={"field": "name"})
    teams_check(stage.competition, teams, where)
    elsewhere = Team.objects.filter(groups__stage=stage, id__in=[t.id for t in teams])
    if group is not None:
        elsewhere = elsewhere.exclude(groups=group)
    if elsewhere.exists():
        raise invalid(
            f"{where}: {', '.join(t.name for t in elsewhere)} already in another group of {stage.name}.",
            "teams",
        )
    if _stage_frozen(stage):
        raise Conflict(f"{stage}: fixtures were generated; its groups can no longer change.")


@transaction.atomic
def group_create(*, stage: Stage, name: str, teams: Sequence[Team] = ()) -> Group:
    _group_check(stage, name, teams, None)
    group = Group.objects.create(stage=stage, name=name)
    group.teams.set(teams)
    return group


@transaction.atomic
def group_update(*, group: Group, name: str | None = None, teams: Sequence[Team] | None = None) -> Group:
    name = group.name if name is None else name
    _group_check(group.stage, name, list(group.teams.all()) if teams is None else teams, group)
    group.name = name
    group.save()
    if teams is not None:
        group.teams.set(teams)
    return group


def group_delete(*, group: Group) -> None:
    if _stage_frozen(group.stage):
        raise Conflict(f"{group.stage}: fixtures were generated; its groups can no longer change.")
    group.delete()
