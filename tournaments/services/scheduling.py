"""Fixture rows of a stage (round robin, knockout and its first round from a feeder stage or a draw) and
their schedule (kick-off, deadline, moving a round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count

from kernel.errors import ApplicationError, Conflict, NotFound
from tournaments import announcements
from tournaments.fixtures import (
    Slot,
    group_qualifiers_problem,
    groups_to_knockout_slots,
    round_name,
    round_robin_rounds,
    seeded_bracket_order,
)
from tournaments.models import (
    Competition,
    Draw,
    Fixture,
    Group,
    Stage,
    Team,
)

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
from tournaments.services.shared import MatchNumbering
from tournaments.services.swiss_rounds import swiss_round_create
from tournaments.services.table_feed import fed_by_table, table_first_round
from tournaments.standings.tally import Row


def _seed_order(teams: Sequence[Team]) -> list[Team]:
    return sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.id))


class _Schedule:
    """Kick-off and deadline by round: round 1 at `start`, then every `interval`."""

    def __init__(self, start: datetime | None, interval: timedelta | None, deadline_after: timedelta | None):
        self.start, self.interval, self.deadline_after = start, interval or timedelta(days=7), deadline_after

    def kickoff(self, rnd: int) -> datetime | None:
        try:
            return self.start + self.interval * (rnd - 1) if self.start else None
        except OverflowError:
            raise self._past_the_calendar(rnd) from None

    def deadline(self, rnd: int) -> datetime | None:
        kickoff = self.kickoff(rnd)
        try:
            return kickoff + self.deadline_after if kickoff and self.deadline_after else None
        except OverflowError:
            raise self._past_the_calendar(rnd) from None

    @staticmethod
    def _past_the_calendar(rnd: int) -> ApplicationError:
        # A start near the year 9999 or a huge interval: datetime cannot hold the date.
        return ApplicationError(
            f"Round {rnd} would kick off or be due after the last date there is (31 December 9999): "
            "choose an earlier start, a shorter interval or a shorter deadline.",
            details={"round": rnd},
        )


def _round_robin_fixtures(
    stage: Stage, teams: Sequence[Team], group: Group | None, schedule: _Schedule
) -> list[list[Fixture]]:
    rounds = round_robin_rounds(_seed_order(teams), legs=stage.legs)
    out = []
    for i, pairs in enumerate(rounds, start=1):
        out.append(
            [
                Fixture(
                    competition=stage.competition,
                    stage=stage,
                    group=group,
                    round=i,
                    round_name=f"Matchday {i}",
                    home_team=home,
                    away_team=away,
                    kickoff=schedule.kickoff(i),
                    deadline=schedule.deadline(i),
                )
                for home, away in pairs
            ]
        )
    return out


def _league_phase_fixtures(stage: Stage, schedule: _Schedule) -> list[list[Fixture]]:
    """The latest league phase draw's matches as unsaved fixtures, one list per matchday."""
    draw = stage.draws.filter(kind=Draw.Kind.LEAGUE_PHASE).order_by("-drawn_at", "-id").first()
    if draw is None:
        raise ApplicationError(
            f"{stage}: draw the league phase first (pots, opponents, caps).", details={"field": "draw"}
        )
    teams = {t.id: t for t in stage.teams.all()}
    days: list[list[Fixture]] = [[] for _ in range(draw.result["matchdays"])]
    for home, away, day in draw.result["matches"]:
        days[day - 1].append(
            Fixture(
                competition=stage.competition,
                stage=stage,
                round=day,
                round_name=f"Matchday {day}",
                home_team=teams[home],
                away_team=teams[away],
                kickoff=schedule.kickoff(day),
                deadline=schedule.deadline(day),
            )
        )
    return days


Side = tuple[Team | None, str, dict[str, Any] | None]


_BYE: Side = (None, "bye", None)


def _knockout_feeder(stage: Stage) -> Stage | None:
    if stage.feeder_id is not None:
        return stage.feeder
    return stage.competition.stages.filter(order__lt=stage.order).order_by("-order").first()


def _drawn_bracket(stage: Stage) -> list[Team] | None:
    """The teams in the order of the stage's latest knockout draw, if it was drawn."""
    draw = stage.draws.filter(kind=Draw.Kind.KNOCKOUT).order_by("-drawn_at", "-id").first()
    if draw is None:
        return None
    teams = {t.id: t for t in stage.teams.all()}
    if sorted(teams) != sorted(draw.result):
        raise Conflict(f"{stage}: the teams changed after the knockout draw; draw again.")
    return [teams[i] for i in draw.result]


def _knockout_first_round(
    stage: Stage, places: Mapping[int, Team] | None = None, user: Any = None
) -> tuple[list[tuple[Side, Side]], list[int]]:
    """The first round's ties, and the feeding semi-finals (for a third-place match) if any."""
    teams = list(stage.teams.all())
    if teams:
        if len(teams) < 2:
            raise ApplicationError(
                f"{stage}: a knockout needs at least two teams.", details={"field": "teams"}
            )
        drawn = _drawn_bracket(stage)
        if drawn is not None:
            # An unseeded draw: the first teams drawn get the byes (if any), the rest meet in pairs.
            size = 2
            while size < len(drawn):
                size *= 2
            byes = size - len(drawn)
            bye_ties: list[tuple[Side, Side]] = [((t, "", None), _BYE) for t in drawn[:byes]]
            rest = drawn[byes:]
            real = [((rest[i], "", None), (rest[i + 1], "", None)) for i in range(0, len(rest), 2)]
            # Alternate them so that a team with a bye meets a winner, not another bye team.
            ties: list[tuple[Side, Side]] = []
            while bye_ties or real:
                ties += [bye_ties.pop(0)] if bye_ties else []
                ties += [real.pop(0)] if real else []
            return ties, []
        teams = _seed_order(teams)
        size = 2
        while size < len(teams):
            size *= 2
        order = seeded_bracket_order(size)
        # Seeds beyond the field are byes: the top seeds go straight through to round 2.
        seeded = [(teams[s - 1], "", None) if s <= len(teams) else _BYE for s in order]
        return [(seeded[i], seeded[i + 1]) for i in range(0, size, 2)], []
    feeder = _knockout_feeder(stage)
    if feeder is None:
        raise ApplicationError(
            f"{stage}: give the knockout its teams, or put it after a group or knockout stage.",
            details={"field": "teams"},
        )
    if feeder.competition_id != stage.competition_id or feeder.order >= stage.order:
        raise ApplicationError(f"{stage}: it can only be fed by an earlier stage of its competition.")
    if feeder.kind == Stage.Kind.KNOCKOUT:
        return _fed_by_knockout(stage, feeder)
    if fed_by_table(stage):
        return table_first_round(stage=stage, feeder=feeder, places=places, user=user), []
    if feeder.kind != Stage.Kind.GROUPS:
        raise ApplicationError(
            f"{stage}: a knockout after a {feeder.get_kind_display().lower()} stage needs its teams, "
            "or the places it takes from that table (feed_places_from, feed_places_to).",
            details={"field": "feed_places_from"},
        )
    if stage.feed == "losers":
        raise ApplicationError(f"{stage}: only a knockout stage has losers to feed another stage.")
    names = list(feeder.groups.order_by("name").values_list("name", flat=True))
    if not names:
        raise ApplicationError(f"{stage}: the stage before it, {feeder.name}, has no groups yet.")
    sizes = dict(feeder.groups.annotate(n=Count("teams")).values_list("name", "n"))
    problem = group_qualifiers_problem(
        sizes=sizes, advance=feeder.advance_per_group, best_thirds=feeder.best_thirds
    )
    if problem:
        raise ApplicationError(f"{stage}: {feeder.name}: {problem}.", details={"field": "feeder"})
    try:
        slots = groups_to_knockout_slots(
            stage_id=feeder.id,
            group_names=names,
            advance=feeder.advance_per_group,
            best_thirds=feeder.best_thirds,
            thirds_table=feeder.thirds_placing,
        )
    except ValueError as exc:
        raise ApplicationError(f"{stage}: {exc}.") from None

    def side(slot: Slot) -> Side:
        return (None, slot.label, slot.source)

    return [(side(a), side(b)) for a, b in slots], []


def _fed_by_knockout(stage: Stage, feeder: Stage) -> tuple[list[tuple[Side, Side]], list[int]]:
    last = (
        feeder.fixtures.exclude(round_name="Third place")
        .order_by("-round")
        .values_list("round", flat=True)
        .first()
    )
    if last is None:
        raise Conflict(
            f"{stage}: generate the fixtures of {feeder.name} first; its winners play this stage.",
            details={"field": "feeder"},
        )
    numbers = sorted(
        {
            n
            for n in feeder.fixtures.filter(round=last)
            .exclude(round_name="Third place")
            .values_list("match_number", flat=True)
            if n is not None
        }
    )
    kind = "winner" if stage.feed == "winners" else "loser"
    label = "Winner" if kind == "winner" else "Loser"
    sides: list[Side] = [(None, f"{label} match {n}", {"type": kind, "match": n}) for n in numbers]
    if len(sides) < 2:
        raise ApplicationError(
            f"{stage}: {feeder.name} ends with its final; nothing is left to feed another knockout stage "
            f"(set its number of rounds so it stops before the final)."
        )
    if len(sides) % 2:
        raise ApplicationError(f"{stage}: {feeder.name} ends with an odd number of ties ({len(sides)}).")
    ties = [(sides[i], sides[i + 1]) for i in range(0, len(sides), 2)]
    return ties, numbers if (len(numbers) == 2 and kind == "winner") else []


def _tie(
    stage: Stage, number: int, rnd: int, name: str, home: Side, away: Side, schedule: _Schedule
) -> list[Fixture]:
    fixtures = []
    for leg in range(1, stage.legs + 1):
        h, a = (home, away) if leg == 1 else (away, home)
        fixtures.append(
            Fixture(
                competition=stage.competition,
                stage=stage,
                round=rnd,
                round_name=name,
                leg=leg,
                match_number=number,
                home_team=h[0],
                away_team=a[0],
                home_placeholder=h[1],
                away_placeholder=a[1],
                home_source=h[2],
                away_source=a[2],
                kickoff=schedule.kickoff(rnd * stage.legs - stage.legs + leg),
                deadline=schedule.deadline(rnd * stage.legs - stage.legs + leg),
            )
        )
    return fixtures


def _knockout_fixtures(
    stage: Stage,
    numbering: MatchNumbering,
    schedule: _Schedule,
    places: Mapping[int, Team] | None = None,
    user: Any = None,
) -> list[Fixture]:
    ties, semi_numbers = _knockout_first_round(stage, places, user)
    fixtures: list[Fixture] = []
    rnd = 1
    while ties and (not stage.knockout_rounds or rnd <= stage.knockout_rounds):
        size = len(ties) * 2
        # A one-round stage whose winners join another bracket is that bracket's play-off.
        name = "Play-off" if rnd == 1 and stage.playoff_for.exists() else round_name(size)
        numbers = []
        if size == 2 and stage.third_place_match and len(semi_numbers) == 2:
            third = numbering.take()
            loser = [(None, f"Loser match {n}", {"type": "loser", "match": n}) for n in semi_numbers]
            fixtures += _tie(stage, third, rnd, "Third place", loser[0], loser[1], schedule)
        winners: list[Side] = []
        for home, away in ties:
            if _BYE in (home, away):
                winners.append(away if home == _BYE else home)
                continue
            number = numbering.take()
            numbers.append(number)
            fixtures += _tie(stage, number, rnd, name, home, away, schedule)
            winners.append((None, f"Winner match {number}", {"type": "winner", "match": number}))
        if size == 4:
            semi_numbers = numbers
        ties = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
        rnd += 1
    return fixtures


@transaction.atomic
def fixture_generate(
    *,
    stage: Stage,
    start: datetime | None = None,
    interval: timedelta | None = None,
    deadline_after: timedelta | None = None,
    places: Mapping[int, Team] | None = None,
    user: Any = None,
) -> list[Fixture]:
    """Create the stage's fixtures (for Swiss: the first round). Kick-offs are optional.

    A knockout fed by a table's places needs them final (``places``: place -> team, from
    matches.table_fill); ``user`` is who filled it, on record."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    if stage.fixtures.exists():
        raise Conflict(f"{stage}: fixtures were already generated.")
    numbering = MatchNumbering(stage.competition)
    schedule = _Schedule(start, interval, deadline_after)
    fixtures: list[Fixture] = []
    _generation_check(stage)
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        for rnd in _round_robin_fixtures(stage, list(stage.teams.all()), None, schedule):
            fixtures += rnd
    elif stage.kind == Stage.Kind.GROUPS:
        per_group = [
            _round_robin_fixtures(stage, list(g.teams.all()), g, schedule)
            for g in stage.groups.order_by("name")
        ]
        # Number matchday by matchday across the groups, as a World Cup schedule does.
        for matchday in range(max(len(r) for r in per_group)):
            for rounds in per_group:
                if matchday < len(rounds):
                    fixtures += rounds[matchday]
    elif stage.kind == Stage.Kind.KNOCKOUT:
        fixtures = _knockout_fixtures(stage, numbering, schedule, places, user)
    elif stage.kind == Stage.Kind.LEAGUE_PHASE:
        for rnd in _league_phase_fixtures(stage, schedule):
            fixtures += rnd
    else:
        # Round 1: no results yet, so every team is level and the seeds decide.
        level = [Row(team=t.id) for t in stage.teams.all()]
        return swiss_round_create(
            stage=stage, table=level, schedule_start=start, deadline_after=deadline_after
        )
    for f in fixtures:
        if f.match_number is None:
            f.match_number = numbering.take()
    created = Fixture.objects.bulk_create(fixtures)
    if stage.competition.status == Competition.Status.DRAFT:
        Competition.objects.filter(id=stage.competition_id).update(status=Competition.Status.ACTIVE)
    announcements.fixtures_published.send(
        sender=__name__,
        competition=stage.competition,
        stage_id=stage.pk,
        stage_name=stage.name,
        fixtures=created,
    )
    return created


def _generation_check(stage: Stage) -> None:
    """An empty stage is refused with what to add (teams, Swiss rounds, groups of two or more)."""
    if stage.kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS, Stage.Kind.LEAGUE_PHASE):
        n = stage.teams.count()
        if n < 2:
            raise ApplicationError(
                f"{stage}: a {stage.get_kind_display().lower()} stage needs at least two teams; it has {n}. "
                "Add its teams first.",
                details={"field": "teams", "stage": stage.id},
            )
        if stage.kind == Stage.Kind.SWISS and stage.swiss_rounds < 1:
            raise ApplicationError(
                f"{stage}: give the number of Swiss rounds first.", details={"field": "swiss_rounds"}
            )
    elif stage.kind == Stage.Kind.GROUPS:
        groups = list(stage.groups.annotate(n=Count("teams")).order_by("name"))
        if not groups:
            raise ApplicationError(
                f"{stage}: the group stage has no groups; add them (or draw them from pots) first.",
                details={"field": "groups", "stage": stage.id},
            )
        short = [g.name for g in groups if g.n < 2]
        if short:
            raise ApplicationError(
                f"{stage}: group {', '.join(short)} needs at least two teams.",
                details={"field": "groups", "groups": short},
            )


@transaction.atomic
def fixture_schedule(*, fixture_id: int, kickoff: datetime | None, deadline: datetime | None) -> Fixture:
    """Set when a fixture is played and by when its result must be in (forfeits follow the deadline)."""
    try:
        fixture = Fixture.objects.select_for_update().get(id=fixture_id)
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None
    if fixture.status not in Fixture.OPEN_STATUSES:
        raise Conflict(
            f"{fixture}: its result is {fixture.get_status_display().lower()}; it cannot be rescheduled."
        )
    if kickoff is not None and deadline is not None and deadline < kickoff:
        raise ApplicationError(f"{fixture}: the result deadline cannot be before the kick-off.")
    kickoff_before = fixture.kickoff
    fixture.kickoff, fixture.deadline = kickoff, deadline
    fixture.save(update_fields=["kickoff", "deadline", "updated_at"])
    announcements.fixture_dates_changed.send(sender=__name__, fixture=fixture, kickoff_before=kickoff_before)
    return fixture


@transaction.atomic
def round_shift(*, stage: Stage, round: int, by: timedelta) -> list[Fixture]:
    """Move a whole round's kick-offs and deadlines (e.g. a holiday); played fixtures stay put."""
    stage = Stage.objects.select_for_update().get(id=stage.id)
    fixtures = list(stage.fixtures.select_for_update().filter(round=round).order_by("match_number", "leg"))
    if not fixtures:
        raise NotFound(f"{stage} has no round {round}.", details={"field": "round"})
    movable = [f for f in fixtures if f.status in Fixture.OPEN_STATUSES]
    if not movable:
        raise Conflict(f"{stage}, round {round}: every fixture already has a result.")
    if not any(f.kickoff or f.deadline for f in movable):
        raise Conflict(
            f"{stage}, round {round}: its fixtures have no kick-off or deadline to move; "
            "generate them with a schedule or set them one by one.",
        )
    kickoffs_before = {f.pk: f.kickoff for f in movable}
    for fixture in movable:
        try:
            fixture.kickoff = fixture.kickoff + by if fixture.kickoff else None
            fixture.deadline = fixture.deadline + by if fixture.deadline else None
        except OverflowError:
            raise ApplicationError(
                "The shift moves the round past the last date there is.", details={"field": "days"}
            ) from None
    Fixture.objects.bulk_update(movable, ["kickoff", "deadline", "updated_at"])
    for fixture in movable:
        announcements.fixture_dates_changed.send(
            sender=__name__, fixture=fixture, kickoff_before=kickoffs_before[fixture.pk]
        )
    return movable


@transaction.atomic
def stage_dates_set(
    *, stage: Stage, start: datetime, interval: timedelta, deadline_after: timedelta | None = None
) -> list[Fixture]:
    """Date a stage's fixtures made before (a drawn league phase, a knockout made from a table) round
    by round, as fixture_generate would have; only while none has a result."""
    stage = Stage.objects.select_for_update().get(id=stage.id)
    fixtures = list(stage.fixtures.select_for_update().order_by("round", "match_number", "leg"))
    if not fixtures:
        raise NotFound(f"{stage} has no fixtures to date.", details={"field": "stage"})
    if any(f.status != Fixture.Status.SCHEDULED for f in fixtures):
        raise Conflict(f"{stage}: results are in; move its rounds one by one instead.")
    schedule = _Schedule(start, interval, deadline_after)
    kickoffs_before = {f.pk: f.kickoff for f in fixtures}
    for fixture in fixtures:
        # Legs of a knockout round take a slot each, as fixture_generate dates them.
        slot = (
            (fixture.round - 1) * stage.legs + fixture.leg
            if stage.kind == Stage.Kind.KNOCKOUT
            else fixture.round
        )
        fixture.kickoff, fixture.deadline = schedule.kickoff(slot), schedule.deadline(slot)
    Fixture.objects.bulk_update(fixtures, ["kickoff", "deadline", "updated_at"])
    for fixture in fixtures:
        announcements.fixture_dates_changed.send(
            sender=__name__, fixture=fixture, kickoff_before=kickoffs_before[fixture.pk]
        )
    return fixtures
