"""Services for setting up competitions and generating their fixtures.

Results and what follows from them have their own modules (matches.services, matches.progress,
matches.discipline), as do standings and skills (tournaments.standings, tournaments.skills); the
most used skills entry points are re-exported at the bottom of this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max

from fubaleague.errors import ApplicationError, Conflict, NotFound
from tournaments.fixtures import (
    Slot,
    groups_to_knockout_slots,
    round_name,
    round_robin_rounds,
    seeded_bracket_order,
)
from tournaments.models import Bye, Club, Coach, Competition, Fixture, Group, Stage, Team, TiebreakPreset
from tournaments.standings.criteria import validate_order
from tournaments.standings.selectors import standings_table, tiebreak_order
from tournaments.swiss import PairingImpossible, swiss_pair

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
ADVANCED_RULES = tuple(f"A{i}" for i in range(1, 14))


def club_create(*, name: str, country: str = "") -> Club:
    return Club.objects.create(name=name, country=country)


def coach_create(
    *,
    name: str,
    country: str,
    ranking_id: str = "",
    club: Club | None = None,
    played_world_cup_2019: bool = False,
) -> Coach:
    return Coach.objects.create(
        name=name,
        country=country,
        ranking_id=ranking_id,
        club=club,
        played_world_cup_2019=played_world_cup_2019,
    )


def competition_create(
    *,
    name: str,
    slug: str,
    game_system: str = Competition.GameSystem.FUBA_3,
    advanced_rules: Sequence[str] = (),
    is_world_cup: bool = False,
    points_win: int = 3,
    points_draw: int = 1,
    points_loss: int = 0,
    forfeit_policy: str = Competition.ForfeitPolicy.SIMULATE,
    award_goals_for: int = 3,
    award_goals_against: int = 0,
    skill_limit: int = 5,
    tiebreak_preset: str = TiebreakPreset.FIFA_WORLD_CUP,
    tiebreak_order: Sequence[str] = (),
    yellow_card_threshold: int = 2,
    red_card_ban_matches: int = 1,
    cup_mode: bool = False,
) -> Competition:
    if game_system not in Competition.GameSystem.values:
        raise ApplicationError(f"Unknown game system '{game_system}'.")
    if forfeit_policy not in Competition.ForfeitPolicy.values:
        raise ApplicationError(f"Unknown forfeit policy '{forfeit_policy}'.")
    if tiebreak_preset not in TiebreakPreset.values:
        raise ApplicationError(f"Unknown tie-break preset '{tiebreak_preset}'.")
    unknown_rules = [r for r in advanced_rules if r not in ADVANCED_RULES]
    if unknown_rules:
        raise ApplicationError(
            f"Competition '{name}': unknown advanced rules {unknown_rules}; rulebook 3 has "
            f"{', '.join(ADVANCED_RULES)}."
        )
    if tiebreak_preset == TiebreakPreset.CUSTOM:
        try:
            validate_order(tiebreak_order)
        except ValueError as exc:
            raise ApplicationError(f"Competition '{name}': {exc}") from None
    if not points_win > points_draw >= points_loss:
        raise ApplicationError("Points must satisfy win > draw >= loss.")
    if award_goals_for <= award_goals_against:
        raise ApplicationError("An awarded match must have a winner (e.g. 3-0).")
    if Competition.objects.filter(slug=slug).exists():
        raise Conflict(f"A competition with the slug '{slug}' already exists.")
    return Competition.objects.create(
        name=name,
        slug=slug,
        game_system=game_system,
        advanced_rules=list(advanced_rules),
        is_world_cup=is_world_cup,
        points_win=points_win,
        points_draw=points_draw,
        points_loss=points_loss,
        forfeit_policy=forfeit_policy,
        award_goals_for=award_goals_for,
        award_goals_against=award_goals_against,
        skill_limit=skill_limit,
        tiebreak_preset=tiebreak_preset,
        tiebreak_order=list(tiebreak_order),
        yellow_card_threshold=yellow_card_threshold,
        red_card_ban_matches=red_card_ban_matches,
        cup_mode=cup_mode,
    )


def team_create(
    *,
    competition: Competition,
    name: str,
    coach: Coach | None = None,
    club: Club | None = None,
    country: str = "",
    seed: int | None = None,
    default_formation: str = "4-4-2",
    player_roles: Mapping[str, Any] | None = None,
) -> Team:
    if competition.teams.filter(name=name).exists():
        raise Conflict(f"'{competition}' already has a team named '{name}'.")
    if competition.game_system in (Competition.GameSystem.FUBA_3, Competition.GameSystem.FUBA_2):
        _check_formation(default_formation, where=f"Team '{name}'")
    return Team.objects.create(
        competition=competition,
        name=name,
        coach=coach,
        club=club if club is not None else (coach.club if coach else None),
        country=country,
        seed=seed,
        default_formation=default_formation,
        player_roles=dict(player_roles or {}),
    )


def _check_formation(formation: str, *, where: str) -> None:
    # FUBA 2.1: ten outfield players in defence, midfield and attack, written "D-M-F".
    parts = formation.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or sum(int(p) for p in parts) != 10:
        raise ApplicationError(
            f"{where}: formation '{formation}' must be defenders-midfielders-forwards summing to 10 "
            "(e.g. 4-4-2)."
        )


def _check_teams(competition: Competition, teams: Sequence[Team], where: str) -> None:
    foreign = [t.name for t in teams if t.competition_id != competition.id]
    if foreign:
        raise ApplicationError(f"{where}: {', '.join(foreign)} not entered in '{competition}'.")
    if len({t.id for t in teams}) != len(teams):
        raise ApplicationError(f"{where}: a team is listed twice.")


@transaction.atomic
def stage_create(
    *,
    competition: Competition,
    name: str,
    kind: str,
    order: int | None = None,
    legs: int = 1,
    away_goals_rule: bool = False,
    extra_time: bool = True,
    penalties: bool = True,
    third_place_match: bool = False,
    advance_per_group: int = 2,
    best_thirds: int = 0,
    swiss_rounds: int = 0,
    teams: Sequence[Team] = (),
    groups: Mapping[str, Sequence[Team]] | None = None,
) -> Stage:
    where = f"Stage '{name}' of '{competition}'"
    if kind not in Stage.Kind.values:
        raise ApplicationError(f"{where}: unknown kind '{kind}'.")
    if legs not in (1, 2):
        raise ApplicationError(f"{where}: legs must be 1 (single) or 2 (double / two-legged).")
    if kind == Stage.Kind.GROUPS:
        if not groups:
            raise ApplicationError(f"{where}: a group stage needs its groups.")
        all_teams = [t for g in groups.values() for t in g]
        _check_teams(competition, all_teams, where)
        if any(len(g) < 2 for g in groups.values()):
            raise ApplicationError(f"{where}: every group needs at least two teams.")
    else:
        _check_teams(competition, teams, where)
        if kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS) and len(teams) < 2:
            raise ApplicationError(f"{where}: needs at least two teams.")
    if kind == Stage.Kind.SWISS and swiss_rounds < 1:
        raise ApplicationError(f"{where}: give the number of Swiss rounds.")
    if order is None:
        order = (competition.stages.aggregate(m=Max("order"))["m"] or 0) + 1
    if competition.stages.filter(order=order).exists():
        raise Conflict(f"{where}: '{competition}' already has a stage number {order}.")
    stage = Stage.objects.create(
        competition=competition,
        name=name,
        kind=kind,
        order=order,
        legs=legs,
        away_goals_rule=away_goals_rule,
        extra_time=extra_time,
        penalties=penalties,
        third_place_match=third_place_match,
        advance_per_group=advance_per_group,
        best_thirds=best_thirds,
        swiss_rounds=swiss_rounds,
    )
    if teams:
        stage.teams.set(teams)
    for group_name, group_teams in (groups or {}).items():
        group = Group.objects.create(stage=stage, name=group_name)
        group.teams.set(group_teams)
    return stage


def _seed_order(teams: Sequence[Team]) -> list[Team]:
    return sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.id))


class _Numbering:
    def __init__(self, competition: Competition) -> None:
        self.next = (competition.fixtures.aggregate(m=Max("match_number"))["m"] or 0) + 1

    def take(self) -> int:
        number = self.next
        self.next += 1
        return number


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
        # A start near the year 9999 or a huge interval: datetime cannot hold the date (was a 500).
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


Side = tuple[Team | None, str, dict[str, Any] | None]
_BYE: Side = (None, "bye", None)


def _knockout_first_round(stage: Stage) -> list[tuple[Side, Side]]:
    teams = _seed_order(list(stage.teams.all()))
    if teams:
        if len(teams) < 2:
            raise ApplicationError(f"{stage}: a knockout needs at least two teams.")
        size = 2
        while size < len(teams):
            size *= 2
        order = seeded_bracket_order(size)
        # Seeds beyond the field are byes: the top seeds go straight through to round 2.
        sides = [(teams[s - 1], "", None) if s <= len(teams) else _BYE for s in order]
        return [(sides[i], sides[i + 1]) for i in range(0, size, 2)]
    feeder = stage.competition.stages.filter(order__lt=stage.order).order_by("-order").first()
    if feeder is None or feeder.kind != Stage.Kind.GROUPS:
        raise ApplicationError(f"{stage}: give the knockout its teams, or put it after a group stage.")
    names = list(feeder.groups.order_by("name").values_list("name", flat=True))
    try:
        slots = groups_to_knockout_slots(
            stage_id=feeder.id,
            group_names=names,
            advance=feeder.advance_per_group,
            best_thirds=feeder.best_thirds,
        )
    except ValueError as exc:
        raise ApplicationError(f"{stage}: {exc}.") from None

    def side(slot: Slot) -> Side:
        return (None, slot.label, slot.source)

    return [(side(a), side(b)) for a, b in slots]


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


def _knockout_fixtures(stage: Stage, numbering: _Numbering, schedule: _Schedule) -> list[Fixture]:
    ties = _knockout_first_round(stage)
    fixtures: list[Fixture] = []
    rnd = 1
    semi_numbers: list[int] = []
    while ties:
        size = len(ties) * 2
        name = round_name(size)
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
) -> list[Fixture]:
    """Create the stage's fixtures (for Swiss: the first round). Kick-offs are optional."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    if stage.fixtures.exists():
        raise Conflict(f"{stage}: fixtures were already generated.")
    numbering = _Numbering(stage.competition)
    schedule = _Schedule(start, interval, deadline_after)
    fixtures: list[Fixture] = []
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
        fixtures = _knockout_fixtures(stage, numbering, schedule)
    else:
        return _swiss_round_create(stage, schedule_start=start)
    for f in fixtures:
        if f.match_number is None:
            f.match_number = numbering.take()
    created = Fixture.objects.bulk_create(fixtures)
    if stage.competition.status == Competition.Status.DRAFT:
        Competition.objects.filter(id=stage.competition_id).update(status=Competition.Status.ACTIVE)
    return created


def _swiss_round_create(stage: Stage, schedule_start: datetime | None = None) -> list[Fixture]:
    current = max(
        stage.fixtures.aggregate(m=Max("round"))["m"] or 0, stage.byes.aggregate(m=Max("round"))["m"] or 0
    )
    if current >= stage.swiss_rounds:
        raise Conflict(f"{stage}: all {stage.swiss_rounds} Swiss rounds are already paired.")
    if stage.fixtures.filter(round=current).exclude(status__in=Fixture.COUNTED_STATUSES).exists():
        raise Conflict(f"{stage}: round {current} is not finished yet.")
    table = standings_table(stage=stage)
    seeds = {t.id: (t.seed is None, t.seed or 0, t.id) for t in stage.teams.all()}
    # Level teams are ranked by seed, so round 1 pairs the seeds in order.
    ranked = [r.team for r in sorted(table, key=lambda r: (-r.points, -r.buchholz, seeds[r.team]))]
    points = {r.team: r.points for r in table}
    played: set[frozenset[int]] = set()
    home_counts: dict[int, int] = {}
    for home, away in stage.fixtures.values_list("home_team_id", "away_team_id"):
        played.add(frozenset((home, away)))
        home_counts[home] = home_counts.get(home, 0) + 1
    had_bye = set(stage.byes.values_list("team_id", flat=True))
    try:
        pairing = swiss_pair(
            ranked=ranked, points=points, played=played, had_bye=had_bye, home_counts=home_counts
        )
    except PairingImpossible as exc:
        raise Conflict(f"{stage}, round {current + 1}: {exc}.") from None
    rnd = current + 1
    numbering = _Numbering(stage.competition)
    teams = {t.id: t for t in stage.teams.all()}
    fixtures = [
        Fixture(
            competition=stage.competition,
            stage=stage,
            round=rnd,
            round_name=f"Round {rnd}",
            home_team=teams[h],
            away_team=teams[a],
            match_number=numbering.take(),
            kickoff=schedule_start,
        )
        for h, a in pairing.pairs
    ]
    if pairing.bye is not None:
        Bye.objects.create(stage=stage, round=rnd, team=teams[pairing.bye])
    if stage.status == Stage.Status.PENDING:
        Stage.objects.filter(id=stage.id).update(status=Stage.Status.ACTIVE)
    return Fixture.objects.bulk_create(fixtures)


@transaction.atomic
def swiss_round_generate(*, stage: Stage, start: datetime | None = None) -> list[Fixture]:
    """Pair the next Swiss round once the previous one is complete."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    if stage.kind != Stage.Kind.SWISS:
        raise ApplicationError(f"{stage} is not a Swiss stage.")
    return _swiss_round_create(stage, schedule_start=start)


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
    fixture.kickoff, fixture.deadline = kickoff, deadline
    fixture.save(update_fields=["kickoff", "deadline", "updated_at"])
    return fixture


@transaction.atomic
def competition_tiebreak_set(
    *, competition: Competition, preset: str, order: Sequence[str] = ()
) -> Competition:
    if preset not in TiebreakPreset.values:
        raise ApplicationError(f"Unknown tie-break preset '{preset}'.")
    competition.tiebreak_preset = preset
    competition.tiebreak_order = list(order)
    tiebreak_order(competition=competition)  # raises on an invalid custom order
    competition.save(update_fields=["tiebreak_preset", "tiebreak_order"])
    return competition


# Entry points of the neighbouring service modules, importable from one place.
from tournaments.skills import (  # noqa: E402
    match_skills_select,
    skill_gain_record,
    skill_loss_record,
    team_skills_set,
)

__all__ = [
    "ADVANCED_RULES",
    "club_create",
    "coach_create",
    "competition_create",
    "competition_tiebreak_set",
    "fixture_generate",
    "fixture_schedule",
    "match_skills_select",
    "skill_gain_record",
    "skill_loss_record",
    "stage_create",
    "swiss_round_generate",
    "team_create",
    "team_skills_set",
]
