"""factory_boy factories for competitions, teams and club members."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from tournaments.bracket import Score
from tournaments.models import Club, Coach, Competition, Team


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    # An unusable password: hashing a real one costs about a second per user.
    password = "!unusable"


class AdminFactory(UserFactory):
    username = factory.Sequence(lambda n: f"admin{n}")
    is_staff = True


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Club {n}")
    country = "Finland"

    @factory.post_generation
    def members(self, create: bool, extracted: list | None, **kwargs: object) -> None:
        if create and extracted:
            self.members.add(*extracted)


class CoachFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Coach

    name = factory.Sequence(lambda n: f"Coach {n}")
    country = "Finland"
    club = factory.SubFactory(ClubFactory)


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition

    name = factory.Sequence(lambda n: f"Competition {n}")
    slug = factory.Sequence(lambda n: f"competition-{n}")


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    competition = factory.SubFactory(CompetitionFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    coach = factory.SubFactory(CoachFactory)
    club = factory.LazyAttribute(lambda t: t.coach.club if t.coach else None)


def team_with_member(competition: Competition, name: str, **kwargs: object) -> tuple[Team, object]:
    """A team whose club has one member user, who may act on the team's fixtures."""
    user = UserFactory(username=f"member-{competition.slug}-{name}".lower().replace(" ", "-")[:150])
    club = ClubFactory(name=f"{name} club {competition.slug}", members=[user])
    coach = CoachFactory(name=f"Coach of {name}", club=club)
    team = TeamFactory(competition=competition, name=name, coach=coach, club=club, **kwargs)
    return team, user


def member_of(team: Team) -> object:
    return team.club.members.first()


def play(fixture_id: int, home_goals: int, away_goals: int, **kwargs: object) -> object:
    """Submit the result as the home club and confirm it as the away club, through the services."""
    from matches.services import result_confirm, result_submit
    from tournaments.models import Fixture

    fixture = Fixture.objects.select_related("home_team__club", "away_team__club").get(id=fixture_id)
    shootout = {k: kwargs.pop(k) for k in ("extra_time", "home_penalties", "away_penalties") if k in kwargs}
    result_submit(
        fixture_id=fixture.id,
        user=member_of(fixture.home_team),
        score=Score(home_goals, away_goals, **shootout),
        **kwargs,
    )
    return result_confirm(fixture_id=fixture.id, user=member_of(fixture.away_team))
