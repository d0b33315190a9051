"""Read-only queries over competitions, fixtures, brackets and suspensions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from kernel.errors import NotFound
from tournaments.models import (
    CheckIn,
    Competition,
    CompetitionRole,
    Fixture,
    Group,
    RoundClock,
    Skill,
    SkillLoss,
    Stage,
    Suspension,
    Team,
    TeamSkill,
)

FIXTURE_ORDER = ("stage__order", "round", "match_number", "leg", "id")


def competition_get(*, competition_id: int | None = None, slug: str | None = None) -> Competition:
    lookup = {"id": competition_id} if competition_id is not None else {"slug": slug}
    try:
        return Competition.objects.get(**lookup)
    except Competition.DoesNotExist:
        raise NotFound(f"No competition with {lookup}.") from None


def fixture_get(*, fixture_id: int) -> Fixture:
    try:
        return Fixture.objects.select_related("competition", "stage", "group", "home_team", "away_team").get(
            id=fixture_id
        )
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None


def fixture_first_leg(*, fixture: Fixture) -> Fixture | None:
    """The first leg of a two-legged tie's second leg, with its result; None for any other fixture."""
    if fixture.stage.legs != 2 or fixture.leg != 2:
        return None
    return (
        Fixture.objects.select_related("result")
        .filter(competition=fixture.competition, match_number=fixture.match_number, leg=1)
        .first()
    )


def fixture_list(
    *,
    competition: Competition,
    stage: Stage | None = None,
    team: Team | None = None,
    status: str | None = None,
) -> QuerySet[Fixture]:
    qs = competition.fixtures.select_related("stage", "group", "home_team", "away_team")
    if stage is not None:
        qs = qs.filter(stage=stage)
    if team is not None:
        qs = qs.filter(Q(home_team=team) | Q(away_team=team))
    if status is not None:
        qs = qs.filter(status=status)
    return qs.order_by(*FIXTURE_ORDER)


def team_fixtures_in_order(*, team: Team) -> list[Fixture]:
    """The team's fixtures in playing order: the order in which bans and lost skills are served."""
    return list(
        Fixture.objects.filter(Q(home_team=team) | Q(away_team=team))
        .select_related("stage")
        .order_by(*FIXTURE_ORDER)
    )


def team_next_fixture(*, team: Team, after: Fixture, offset: int = 1) -> Fixture | None:
    fixtures = team_fixtures_in_order(team=team)
    ids = [f.id for f in fixtures]
    if after.id not in ids:
        return None
    i = ids.index(after.id) + offset
    return fixtures[i] if i < len(fixtures) else None


def user_club_team_ids(*, user: User, fixture: Fixture) -> set[int]:
    """The teams of the fixture whose club the user is a member of."""
    if not user.is_authenticated:
        return set()
    ids = set()
    for team in (fixture.home_team, fixture.away_team):
        if team is not None and team.club is not None and team.club.members.filter(id=user.pk).exists():
            ids.add(team.id)
    return ids


def suspension_list(*, competition: Competition, team: Team | None = None) -> QuerySet[Suspension]:
    qs = competition.suspensions.select_related(
        "team", "source_fixture", "served_in", "served_in__home_team", "served_in__away_team"
    )
    if team is not None:
        qs = qs.filter(team=team)
    return qs.order_by("team__name", "source_fixture__stage__order", "source_fixture__round", "id")


def fixture_players_short(*, fixture: Fixture, team: Team) -> int:
    """FUBA: how many players short the team starts this fixture (one per team suspension)."""
    return Suspension.objects.filter(served_in=fixture, team=team, shirt_number__isnull=True).count()


def fixture_banned_shirts(*, fixture: Fixture, team: Team) -> set[int]:
    """Soccer City: shirt numbers that may not play this fixture."""
    shirts = Suspension.objects.filter(served_in=fixture, team=team).values_list("shirt_number", flat=True)
    return {shirt for shirt in shirts if shirt is not None}


def team_skill_roster(*, team: Team) -> QuerySet[TeamSkill]:
    return team.roster_skills.select_related("skill").order_by("skill__position_group", "skill__name")


def team_skills_unavailable(*, team: Team, fixture: Fixture) -> set[int]:
    return set(
        SkillLoss.objects.filter(team=team, unavailable_for=fixture).values_list("skill_id", flat=True)
    )


def skill_list() -> QuerySet[Skill]:
    return Skill.objects.all()


@dataclass
class BracketTie:
    match_number: int
    round: int
    round_name: str
    legs: list[Fixture]


def bracket(*, stage: Stage) -> list[BracketTie]:
    """Knockout ties of a stage in bracket order, both legs together."""
    fixtures = (
        stage.fixtures.select_related("home_team", "away_team")
        .select_related("result")
        .order_by("round", "match_number", "leg")
    )
    ties: dict[int, BracketTie] = {}
    for f in fixtures:
        key = f.match_number or -f.id
        tie = ties.setdefault(key, BracketTie(f.match_number or 0, f.round, f.round_name, []))
        tie.legs.append(f)
    return list(ties.values())


def group_list(*, stage: Stage) -> QuerySet[Group]:
    return stage.groups.prefetch_related("teams").order_by("name")


# What each role in a competition may do (issue 32). "results" is the results desk's work: enter,
# confirm and resolve results; "correct" (award, clear, void), "setup" and "people" are the
# organisers'. Anyone holding a role sees the competition's console.
COMPETITION_ACTIONS: dict[str, frozenset[str]] = {
    "view": frozenset(CompetitionRole.Kind.values),
    "results": frozenset(CompetitionRole.Kind.values),
    "correct": frozenset({CompetitionRole.Kind.ORGANISER, CompetitionRole.Kind.CO_ORGANISER}),
    "setup": frozenset({CompetitionRole.Kind.ORGANISER, CompetitionRole.Kind.CO_ORGANISER}),
    "people": frozenset({CompetitionRole.Kind.ORGANISER, CompetitionRole.Kind.CO_ORGANISER}),
}


def is_instance_admin(user: Any, staff_perms: Sequence[str] = ()) -> bool:
    """The instance's administrators: staff holding the model permissions the change asks for."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_staff
        and user.is_active
        and user.has_perms(staff_perms)
    )


def competition_role_kind(*, user: Any, competition: Competition) -> str:
    if user is None or not user.is_authenticated or competition.pk is None:
        return ""
    kind = CompetitionRole.objects.filter(competition=competition, user=user).values_list("kind", flat=True)
    return next(iter(kind), "")


def competition_permits(
    *, user: Any, competition: Competition, action: str, staff_perms: Sequence[str] = ()
) -> bool:
    """The one rule of who may do what in a competition, for the console, the API and the services:
    the instance's staff (with `staff_perms`, the model permissions the admin asks for the same
    change) everywhere; otherwise the user's role in this competition."""
    if action not in COMPETITION_ACTIONS:
        raise ValueError(f"unknown competition action {action!r}")
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if is_instance_admin(user, staff_perms):
        return True
    return competition_role_kind(user=user, competition=competition) in COMPETITION_ACTIONS[action]


def competitions_run_by(*, user: Any, staff_perms: Sequence[str] = ()) -> QuerySet[Competition]:
    """The competitions the user holds a role in (all of them for the instance's staff)."""
    if is_instance_admin(user, staff_perms):
        return Competition.objects.all()
    if user is None or not user.is_authenticated:
        return Competition.objects.none()
    return Competition.objects.filter(roles__user=user).distinct()


def holds_any_role(*, user: Any) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_staff or CompetitionRole.objects.filter(user=user).exists())
    )


def actor_role_words(*, user: Any, competition: Competition, fixture: Fixture | None = None) -> str:
    """How an audit entry names the actor's standing in the competition."""
    if user is None or not user.is_authenticated:
        return "the system"
    kind = competition_role_kind(user=user, competition=competition)
    if kind:
        return str(CompetitionRole.Kind(kind).label).lower()
    if user.is_staff:
        return "administrator"
    if fixture is not None:
        clubs = [t.club for t in (fixture.home_team, fixture.away_team) if t is not None and t.club_id]
        for club in clubs:
            if club is not None and club.members.filter(pk=user.pk).exists():
                return f"member of {club.name}"
    return ""


def may_create_competition(*, user: Any) -> bool:
    """Anyone signed in, unless the instance keeps creating competitions to its staff
    (settings.COMPETITION_CREATORS = "staff")."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if getattr(settings, "COMPETITION_CREATORS", "anyone") == "staff":
        return is_instance_admin(user, ("tournaments.add_competition",))
    return True


def user_named(who: str) -> Any:
    """The active account of that user name, or the one account of that e-mail address."""
    users = get_user_model().objects.filter(Q(username__iexact=who) | Q(email__iexact=who), is_active=True)
    found = list(users[:2])
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class VenueFixture:
    """A fixture of a venue round and its two clubs' check-ins (None: not checked in)."""

    fixture: Fixture
    home: CheckIn | None
    away: CheckIn | None

    @property
    def sides(self) -> list[tuple[str, Team | None, CheckIn | None]]:
        f = self.fixture
        return [("home", f.home_team, self.home), ("away", f.away_team, self.away)]

    @property
    def missing(self) -> list[Team]:
        """The teams not checked in (a side without a team yet is nobody's to check in)."""
        f = self.fixture
        sides = ((f.home_team, self.home), (f.away_team, self.away))
        return [team for team, check in sides if team is not None and check is None]


@dataclass(frozen=True)
class VenueRound:
    clock: RoundClock
    fixtures: list[VenueFixture]

    @property
    def missing(self) -> int:
        return sum(len(v.missing) for v in self.fixtures if v.fixture.status == Fixture.Status.SCHEDULED)


def round_clock_of(*, fixture: Fixture) -> RoundClock | None:
    return RoundClock.objects.filter(stage_id=fixture.stage_id, round=fixture.round).first()


def fixture_check_ins(*, fixture: Fixture) -> dict[int, CheckIn]:
    """The fixture's check-ins by team id."""
    return {c.team_id: c for c in fixture.check_ins.select_related("team")}


def venue_rounds(*, competition: Competition) -> list[VenueRound]:
    """The rounds with a clock, by start time, each fixture with its clubs' check-ins: the
    console's "who has not checked in" (docs/venue.md)."""
    clocks = list(competition.round_clocks.select_related("stage").order_by("starts_at", "id"))
    if not clocks:
        return []
    wanted = Q()
    for clock in clocks:
        wanted |= Q(stage_id=clock.stage_id, round=clock.round)
    fixtures = list(
        Fixture.objects.filter(wanted, competition=competition)
        .select_related("stage", "group", "home_team", "away_team")
        .order_by("table_number", *FIXTURE_ORDER)
    )
    checks: dict[tuple[int, int], CheckIn] = {
        (c.fixture_id, c.team_id): c
        for c in CheckIn.objects.filter(fixture__in=fixtures).select_related("checked_in_by")
    }
    out = []
    for clock in clocks:
        rows = [
            VenueFixture(
                fixture=f,
                home=checks.get((f.pk, f.home_team_id or 0)),
                away=checks.get((f.pk, f.away_team_id or 0)),
            )
            for f in fixtures
            if f.stage_id == clock.stage_id and f.round == clock.round
        ]
        out.append(VenueRound(clock=clock, fixtures=rows))
    return out
