"""What happens when a result starts (or stops) counting: placeholders, stage status, discipline.

Knockout slots such as "Winner group A", "Best third-placed team 2" or "Winner match 49" carry a
machine-readable source; they are filled as soon as what feeds them is decided, and refilled if an
admin override changes it — unless the fixture they feed already has a result, which is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from kernel.errors import ApplicationError, Conflict
from matches.discipline import discipline_recompute
from matches.knockout import tie_outcome
from matches.standings.selectors import standings_table
from matches.standings.services import best_thirds_compute, standings_compute
from matches.standings.signals import changed
from matches.table_fill import final_places
from tournaments.bracket import TieOutcome, best_third_slots, place_best_thirds, slot_team
from tournaments.models import Competition, Fixture, Group, Stage, Team
from tournaments.services.stages import TABLE_KINDS
from tournaments.services.swiss_rounds import swiss_round_create
from tournaments.services.table_feed import table_refill_record
from tournaments.skills import skill_losses_reassign


class _Resolver:
    """The slots' feeds read from the database (tournaments.bracket.SlotFeeds), each read once."""

    def __init__(self, competition: Competition) -> None:
        self.competition = competition
        self._thirds: dict[int, dict[int, int]] = {}
        self._tables: dict[tuple[int, str], list[int] | None] = {}
        self._places: dict[int, dict[int, int]] = {}

    def _complete(self, fixtures: Any) -> bool:
        return fixtures.exists() and not fixtures.exclude(status__in=Fixture.DONE_STATUSES).exists()

    def team_for(self, source: dict[str, Any]) -> int | None:
        return slot_team(source, self)

    def tie(self, match: int) -> TieOutcome | None:
        legs = list(
            self.competition.fixtures.filter(match_number=match)
            .select_related("stage", "result")
            .order_by("leg")
        )
        return tie_outcome(legs[0].stage, legs) if legs else None

    def group_order(self, stage: int, group: str) -> list[int] | None:
        key = (stage, group)
        if key not in self._tables:
            found = Group.objects.filter(stage_id=stage, name=group).select_related("stage").first()
            if found is None or not self._complete(found.fixtures.all()):
                self._tables[key] = None
            else:
                self._tables[key] = [r.team for r in standings_compute(stage=found.stage, group=found)]
        return self._tables[key]

    def table_place(self, stage: int, place: int) -> int | None:
        if stage not in self._places:
            try:
                places = final_places(feeder=Stage.objects.select_related("competition").get(id=stage))
            except ApplicationError:  # open again, or level where a place decides
                places = {}
            self._places[stage] = {p: team.id for p, team in places.items()}
        return self._places[stage].get(place)

    def best_thirds(self, stage: int) -> dict[int, int]:
        if stage not in self._thirds:
            self._thirds[stage] = self._place_thirds(Stage.objects.get(id=stage))
        return self._thirds[stage]

    def _place_thirds(self, stage: Stage) -> dict[int, int]:
        if not self._complete(stage.fixtures.all()):
            return {}
        sources = [
            src
            for f in self.competition.fixtures.filter(
                Q(home_source__type="best_third") | Q(away_source__type="best_third")
            )
            for src in (f.home_source, f.away_source)
            if src
        ]
        slots, table = best_third_slots(sources, stage.id)
        thirds = best_thirds_compute(stage=stage)[: stage.best_thirds]
        return place_best_thirds(
            ranked=[(t.row.team, t.group.name) for t in thirds],
            slots=slots,
            table=table,
            group_names=list(stage.groups.order_by("name").values_list("name", flat=True)),
        )


def _dependents(fixture: Fixture) -> Q:
    """Fixtures whose slots are fed directly by this fixture's result."""
    feeds: list[dict[str, Any]] = []
    if fixture.group_id is not None:
        feeds.append({"type": "group", "stage": fixture.stage_id, "group": fixture.group.name})  # type: ignore[union-attr]
        feeds.append({"type": "best_third", "stage": fixture.stage_id})
    elif fixture.stage.kind in TABLE_KINDS:
        feeds.append({"type": "place", "stage": fixture.stage_id})
    if fixture.match_number is not None:
        feeds.append({"type": "winner", "match": fixture.match_number})
        feeds.append({"type": "loser", "match": fixture.match_number})
    q = Q(pk__in=[])
    for feed in feeds:
        # Key lookups rather than JSON containment: SQLite (the embedded default) lacks __contains.
        for side in ("home_source", "away_source"):
            q |= Q(**{f"{side}__{key}": value for key, value in feed.items()})
    return q


def placeholders_resolve(
    *,
    competition: Competition,
    fed_by: Fixture | None = None,
    blocked: list[Fixture] | None = None,
    actor: User | None = None,
) -> set[int]:
    """Fill (or refill) knockout slots; returns the ids of teams whose fixtures changed.

    With ``fed_by`` only the slots fed by that fixture are looked at. One pass is enough: a slot
    can only change while the fixture it belongs to has no result, so nothing further down the
    bracket depends on it yet. A slot whose fixture already has a result or a submission is
    refused (Conflict), or, given a ``blocked`` list, left as it is and its fixture added to the
    list: the results workflow's corrections then reopen it and resolve again.

    Slots filled from a table's places that change are put on record beside the fill
    (table_refill_record), naming ``actor`` and ``fed_by``.
    """
    resolver = _Resolver(competition)
    changed_teams: set[int] = set()
    # (stage, feeder) -> place -> (team before, team after), over both legs of a tie
    refills: dict[tuple[int, int], dict[int, tuple[int | None, int | None]]] = {}
    fixtures = competition.fixtures.filter(Q(home_source__isnull=False) | Q(away_source__isnull=False))
    if fed_by is not None:
        fixtures = fixtures.filter(_dependents(fed_by))
    for fixture in fixtures.select_for_update(of=("self",)).order_by(
        "stage__order", "round", "match_number", "leg"
    ):
        updates: dict[str, int | None] = {}
        moved: list[tuple[dict[str, Any], int | None, int | None]] = []
        for side in ("home", "away"):
            source = getattr(fixture, f"{side}_source")
            if not source:
                continue
            team_id = resolver.team_for(source)
            current = getattr(fixture, f"{side}_team_id")
            if team_id == current:
                continue
            if (
                fixture.status != Fixture.Status.SCHEDULED
                or fixture.submissions.filter(status="open").exists()
            ):
                if blocked is not None:
                    if fixture not in blocked:
                        blocked.append(fixture)
                    updates = {}
                    break
                raise Conflict(
                    f"{fixture} already has a result or a submission; "
                    "the change would alter who plays it. Clear that fixture first.",
                    details={"fixtures": [fixture.pk]},
                )
            updates[f"{side}_team_id"] = team_id
            moved.append((source, current, team_id))
        if updates:
            for field, value in updates.items():
                setattr(fixture, field, value)
            fixture.save(update_fields=[*updates, "updated_at"])
            for source, before, after in moved:
                changed_teams.update(t for t in (before, after) if t is not None)
                if source.get("type") == "place":
                    slots = refills.setdefault((fixture.stage_id, int(source["stage"])), {})
                    first = slots.get(int(source["place"]), (before, after))[0]
                    slots[int(source["place"])] = (first, after)
    if changed_teams:
        # The fixture's save names the team it has now: the one it left shows it no more.
        changed(competition.id, competition.slug, tuple(f"t{t}" for t in sorted(changed_teams)))
    for (stage_id, feeder_id), changes in refills.items():
        table_refill_record(
            stage=Stage.objects.select_related("competition").get(id=stage_id),
            feeder_id=feeder_id,
            changes=changes,
            user=actor,
            cause=f"the result of {fed_by}" if fed_by is not None else "a change of the table",
        )
    return changed_teams


def stage_progress_update(*, stage: Stage) -> Stage:
    fixtures = stage.fixtures.all()
    total = fixtures.count()
    # a voided match is done too: nothing more will be played in it
    counted = fixtures.filter(status__in=Fixture.DONE_STATUSES).count()
    all_paired = stage.kind != Stage.Kind.SWISS or (
        max(
            fixtures.order_by("-round").values_list("round", flat=True).first() or 0,
            stage.byes.order_by("-round").values_list("round", flat=True).first() or 0,
        )
        >= stage.swiss_rounds
    )
    if total and counted == total and all_paired:
        status = Stage.Status.COMPLETED
    elif counted or (stage.kind == Stage.Kind.SWISS and total):
        status = Stage.Status.ACTIVE
    else:
        status = Stage.Status.PENDING
    if status != stage.status:
        stage.status = status
        stage.save(update_fields=["status"])
    competition = stage.competition
    stages = competition.stages.all()
    finished = stages.exists() and not stages.exclude(status=Stage.Status.COMPLETED).exists()
    new = Competition.Status.FINISHED if finished else Competition.Status.ACTIVE
    if competition.status != new:
        Competition.objects.filter(id=competition.id).update(status=new)
        competition.status = new
        changed(competition.id, competition.slug)
    return stage


@transaction.atomic
def fixture_result_changed(
    *, fixture: Fixture, blocked: list[Fixture] | None = None, actor: User | None = None
) -> None:
    """Call after a fixture's result starts counting or changes (inside the same transaction).

    ``blocked`` collects the fixtures whose slots would change but already have a result
    (see placeholders_resolve) instead of refusing; ``actor`` is who made the change, named on the
    record of slots refilled from a table.
    """
    competition = fixture.competition
    stage_progress_update(stage=fixture.stage)
    teams = {t for t in (fixture.home_team_id, fixture.away_team_id) if t is not None}
    teams |= placeholders_resolve(competition=competition, fed_by=fixture, blocked=blocked, actor=actor)
    team_objs = list(Team.objects.filter(id__in=teams))
    discipline_recompute(competition=competition, teams=team_objs)
    for team in team_objs:
        skill_losses_reassign(team=team)
    # A knockout slot may have been filled in a later stage: keep those stages' status current.
    for stage in competition.stages.exclude(id=fixture.stage_id):
        stage_progress_update(stage=stage)


def fixture_tie_outcome(*, fixture: Fixture) -> TieOutcome | None:
    """Who went through the knockout tie this fixture belongs to (None: not decided, or no tie)."""
    if fixture.stage.kind != Stage.Kind.KNOCKOUT or fixture.match_number is None:
        return None
    legs = list(
        Fixture.objects.filter(
            competition_id=fixture.competition_id,
            stage_id=fixture.stage_id,
            match_number=fixture.match_number,
        )
        .select_related("result")
        .order_by("leg")
    )
    return tie_outcome(fixture.stage, legs)


def competition_champion(*, competition: Competition) -> Team | None:
    final = (
        competition.fixtures.filter(stage__kind=Stage.Kind.KNOCKOUT, round_name="Final")
        .select_related("stage")
        .order_by("-stage__order", "leg")
    )
    legs = [f for f in final if f.stage_id == final[0].stage_id] if final else []
    if not legs:
        return None
    outcome = tie_outcome(legs[0].stage, legs)
    return Team.objects.get(id=outcome.winner_id) if outcome else None


@dataclass(frozen=True)
class Podium:
    """The places that matter once a competition is decided: the champion, the runner-up and
    (a third-place match played, or a table) the third."""

    champion: Team
    runner_up: Team | None
    third: Team | None
    decided_by: str  # "the final" or "the table"


def _tie(legs: list[Fixture]) -> TieOutcome | None:
    return tie_outcome(legs[0].stage, legs) if legs else None


def competition_podium(*, competition: Competition) -> Podium | None:
    """The final's winner and loser and the third-place match's winner; a competition without a
    knockout (a league, Swiss rounds) is decided by its last stage's table once every fixture
    counts. None while undecided."""
    teams = {t.id: t for t in competition.teams.all()}
    knockout = competition.fixtures.filter(stage__kind=Stage.Kind.KNOCKOUT).select_related("stage")
    final = list(knockout.filter(round_name="Final").order_by("-stage__order", "leg"))
    if final:
        outcome = _tie([f for f in final if f.stage_id == final[0].stage_id])
        if outcome is None:
            return None
        playoff = list(knockout.filter(round_name="Third place").order_by("-stage__order", "leg"))
        third = _tie([f for f in playoff if f.stage_id == playoff[0].stage_id]) if playoff else None
        return Podium(
            champion=teams[outcome.winner_id],
            runner_up=teams.get(outcome.loser_id),
            third=teams.get(third.winner_id) if third else None,
            decided_by="the final",
        )
    last = competition.stages.order_by("-order").first()
    single_table = (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS, Stage.Kind.LEAGUE_PHASE)
    if last is None or last.kind not in single_table or last.groups.count() > 1:
        return None
    fixtures = last.fixtures.all()
    if not fixtures.exists() or fixtures.exclude(status__in=Fixture.DONE_STATUSES).exists():
        return None
    rounds_played = max(f.round for f in fixtures)
    if last.kind == Stage.Kind.SWISS and last.swiss_rounds and rounds_played < last.swiss_rounds:
        return None  # rounds still to pair
    rows = standings_table(stage=last)
    places = [teams.get(r.team) for r in rows[:3]]
    if not places or places[0] is None:
        return None
    return Podium(
        champion=places[0],
        runner_up=places[1] if len(places) > 1 else None,
        third=places[2] if len(places) > 2 else None,
        decided_by="the table",
    )


@transaction.atomic
def swiss_round_generate(
    *, stage: Stage, start: datetime | None = None, deadline_after: timedelta | None = None
) -> list[Fixture]:
    """Pair the next Swiss round once the previous one is complete, from the current table."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    if stage.kind != Stage.Kind.SWISS:
        raise ApplicationError(f"{stage} is not a Swiss stage.")
    return swiss_round_create(
        stage=stage, table=standings_table(stage=stage), schedule_start=start, deadline_after=deadline_after
    )
