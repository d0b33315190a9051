"""The organiser console's pages on the services: shapes and their preview, the draw with its
constraints, the schedule, the results desk; a 24-team Euro in both thirds placings and a Swiss
of 20 teams over 5 rounds, each run from the console's pages to the end."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from kernel.errors import ApplicationError
from matches import services as results
from matches.progress import competition_champion
from tests.factories import AdminFactory, CompetitionFactory
from tournaments.bracket import (
    UEFA_EURO_2016_THIRD_OPPONENTS,
    UEFA_EURO_2016_THIRDS,
    UEFA_EURO_THIRD_OPPONENTS,
    UEFA_EURO_THIRDS,
    Score,
)
from tournaments.models import Competition, Fixture, Stage, Suspension
from tournaments.shapes import SHAPE_PRESETS, Shape, shape_preview

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return AdminFactory(is_superuser=True)


@pytest.fixture
def console(client: Client, organiser) -> Client:
    client.force_login(organiser)
    return client


def test_the_preview_checks_the_knockout_against_what_the_groups_produce() -> None:
    cup = shape_preview(SHAPE_PRESETS["final_8"][1])
    assert cup.groups == [("A", 4), ("B", 4)] and cup.rounds == ["Final"]
    assert cup.first_round == [("Winner group A", "Winner group B")]
    euro = shape_preview(SHAPE_PRESETS["euro_2016"][1])
    assert euro.rounds == ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert euro.first_round[0] == ("Runner-up group A", "Runner-up group C")
    with pytest.raises(ApplicationError) as refused:  # 3 groups of 2 have no third-placed teams
        shape_preview(Shape("groups", 6, groups=3, advance_per_group=2, best_thirds=2))
    assert refused.value.details == {"field": "advance_per_group"}
    with pytest.raises(ApplicationError) as refused:
        shape_preview(Shape("groups", 12, groups=3, advance_per_group=2, best_thirds=1))
    assert "not a knockout of 2, 4, 8" in refused.value.message
    assert shape_preview(Shape("knockout", 6)).notes == ["2 of the top seeds have a bye in the first round."]


def test_a_competition_s_console_is_for_those_who_hold_a_role_in_it(client: Client) -> None:
    assert client.get("/console/").status_code == 302  # to the sign-in page
    other = CompetitionFactory(name="Someone else's cup")
    client.force_login(AdminFactory(is_staff=True, is_superuser=False))  # staff without the permissions
    assert "Someone else" not in client.get("/console/").content.decode()
    assert client.get(f"/console/c/{other.slug}/").status_code == 403


def _new(console: Client, preset: str, name: str, lines: list[str], **extra: Any) -> Competition:
    shape = SHAPE_PRESETS[preset][1]
    data = {
        "name": name,
        "slug": name.lower().replace(" ", "-"),
        "game_system": "fuba-3",
        "structure": shape.structure,
        "teams": shape.teams,
        "groups": shape.groups,
        "advance_per_group": shape.advance_per_group,
        "best_thirds": shape.best_thirds,
        "thirds_placing": shape.thirds_placing,
        "group_legs": shape.group_legs,
        "knockout_legs": shape.knockout_legs,
        "swiss_rounds": shape.swiss_rounds,
        "extra_time": "on",
        "penalties": "on",
        "tiebreak_preset": shape.tiebreak_preset,
        "team_list": "\n".join(lines),
        "create": "1",
        **extra,
    }
    response = console.post("/console/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    return Competition.objects.get(slug=data["slug"])


def _schedule(console: Client, slug: str) -> None:
    body = {
        "generate": "1",
        "start_date": "2027-06-11",
        "kickoff_time": "18:00",
        "days_between_rounds": 4,
        "deadline_days": 2,
    }
    assert console.post(f"/console/c/{slug}/schedule/", body).status_code == 302


def _play(organiser: Any, fixtures: Any, score: Any) -> None:
    for fixture in fixtures:
        home, away = score(fixture)
        extra = (
            {"extra_time": True, "home_penalties": 5, "away_penalties": 4}
            if home == away and fixture.stage.kind == "knockout"
            else {}
        )
        results.result_override(
            fixture_id=fixture.pk, user=organiser, score=Score(home, away, **extra), note="played"
        )


@pytest.mark.parametrize("preset", ["euro_24", "euro_2016"])
def test_a_24_team_euro_from_the_console_in_both_thirds_placings(console, organiser, preset) -> None:
    names = [f"N{i:02}, Country {i}, , UEFA" for i in range(24)]
    competition = _new(console, preset, f"Euro {preset}", names)
    slug = competition.slug
    response = console.post(f"/console/c/{slug}/draw/", {"countries_apart": "on", "seed": 24})
    assert response.status_code == 302
    _schedule(console, slug)
    groups = competition.stages.get(kind="groups")
    assert groups.thirds_placing == SHAPE_PRESETS[preset][1].thirds_placing
    strength = {t.pk: int(t.name[1:]) for t in competition.teams.all()}
    # The stronger side (lower number) wins every match; which thirds go through follows the draw.
    _play(organiser, Fixture.objects.filter(stage=groups).select_related("stage"),
          lambda f: (1, 0) if strength[f.home_team_id] < strength[f.away_team_id] else (0, 1))  # fmt: skip
    table, opponents = (
        (UEFA_EURO_THIRDS, UEFA_EURO_THIRD_OPPONENTS)
        if preset == "euro_24"
        else (UEFA_EURO_2016_THIRDS, UEFA_EURO_2016_THIRD_OPPONENTS)
    )
    first = Fixture.objects.filter(stage__kind="knockout", competition=competition, round=1).select_related(
        "home_team", "away_team"
    )
    assert first.count() == 8 and all(f.home_team and f.away_team for f in first)
    group_of = {t.pk: g.name for g in groups.groups.all() for t in g.teams.all()}
    thirds = sorted(
        {
            group_of[f.away_team_id]
            for f in first
            if f.away_source and f.away_source.get("type") == "best_third"
        }
    )
    row = table["".join(thirds)]
    against = {
        group_of[f.home_team_id]: group_of[f.away_team_id]
        for f in first
        if f.away_source.get("type") == "best_third"
    }
    assert against == dict(zip(opponents, row, strict=True))
    _play(organiser, first.select_related("stage"), lambda f: (2, 1))
    for _ in range(3):
        pending = (
            Fixture.objects.filter(competition=competition, status="scheduled")
            .exclude(home_team=None)
            .exclude(away_team=None)
        )
        _play(organiser, pending.select_related("stage"), lambda f: (1, 0))
    assert competition_champion(competition=competition) is not None
    page = console.get(f"/console/c/{slug}/").content.decode()
    assert "Champion:" in page


def test_a_swiss_of_20_teams_over_5_rounds_from_the_console(console, organiser) -> None:
    competition = _new(console, "swiss", "Swiss Open", [f"S{i:02}, Country {i}" for i in range(20)])
    _schedule(console, competition.slug)
    stage = competition.stages.get()
    for round_number in range(1, 6):
        pending = Fixture.objects.filter(stage=stage, round=round_number).select_related("stage")
        assert pending.count() == 10
        _play(organiser, pending, lambda f: (1, 0) if f.home_team_id < f.away_team_id else (0, 2))
        if round_number < 5:
            response = console.post(
                f"/console/c/{competition.slug}/results/", {"next_swiss": "1", "stage": stage.pk}
            )
            assert response.status_code == 302
    pairs = [frozenset((f.home_team_id, f.away_team_id)) for f in Fixture.objects.filter(stage=stage)]
    assert len(pairs) == 50 and len(set(pairs)) == 50  # no rematch in 5 rounds
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.COMPLETED


def test_an_impossible_constraint_is_a_message_in_the_console_until_relaxing_is_asked(console) -> None:
    teams = [f"T{i}, Country {i}, , {'UEFA' if i < 5 else 'CAF'}" for i in range(8)]
    competition = _new(console, "cup_8", "Small Cup", teams)
    url = f"/console/c/{competition.slug}/draw/"
    body = {"confederation": "UEFA", "at_most": 2, "seed": 3}
    page = console.post(url, body).content.decode()
    assert "cannot all be met" in page and "pot" in page and "group" in page
    assert not competition.stages.get(kind="groups").draws.exists()
    assert console.post(url, body | {"relax": "on"}).status_code == 302
    page = console.get(url).content.decode()
    assert "was drawn without them" in page and "seed 3" in page


def test_a_club_is_invited_by_a_one_time_link_e_mailed_or_copied(console, mailoutbox) -> None:
    competition = _new(console, "cup_8", "Invite Cup", [f"T{i}, Country {i}, Club {i}" for i in range(8)])
    url = f"/console/c/{competition.slug}/teams/"
    body = {"invite": "1", "club": "Club 1", "username": "club1", "email": "one@example.org"}
    page = console.post(url, body, follow=True).content.decode()
    link = re.search(r'data-testid="invite-link">([^<]+)<', page).group(1)
    assert mailoutbox and link in mailoutbox[0].body
    assert "club1 (Club 1)" in console.get(url).content.decode()  # invited, not joined yet
    visitor = Client()
    assert "Join Club 1 in Invite Cup" in visitor.get(link).content.decode()
    new = {
        "create": "1",
        "username": "club1",
        "password1": "a-long-pass-2027!",
        "password2": "a-long-pass-2027!",
    }
    assert visitor.post(link, new).status_code == 302
    member = get_user_model().objects.get(username="club1")
    assert member.check_password("a-long-pass-2027!") and member.fuba_clubs.get().name == "Club 1"
    assert "has been used" in Client().get(link).content.decode()  # used once only


def test_the_desk_confirms_a_reported_result_and_the_discipline_desk_sets_the_bans(
    console, organiser
) -> None:
    teams = [f"L{i}, Country {i}, Club {i}" for i in range(4)]
    competition = _new(console, "league", "Desk League", teams, teams=4)
    _schedule(console, competition.slug)
    fixture = Fixture.objects.filter(competition=competition).order_by("match_number").first()
    member = get_user_model().objects.create_user("reporter")
    fixture.home_team.club.members.add(member)
    results.result_submit(
        fixture_id=fixture.pk,
        user=member,
        score=Score(2, 0),
        cards=[{"team": "away", "kind": "red"}],
    )
    url = f"/console/c/{competition.slug}/results/{fixture.pk}/"
    form = console.get(url).context["form"]
    assert form.initial["action"] == "confirm" and form.initial["card_0_kind"] == "red"
    assert "Direct red card" in console.get(url).content.decode()  # card kinds in words
    response = console.post(url, {"action": "confirm", "check": "1"})
    page = response.content.decode()
    assert "2–0 " in page and "as reported, will count" in page, response.context["form"].errors
    assert console.post(url, {"action": "confirm", "confirm": "1"}).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.CONFIRMED and fixture.result.cards.get().kind == "red"
    # The audit trail in words, on the console's desk and on the admin's fixture page alike.
    trail = f"{fixture.home_team.name} reported {fixture.home_team.name} 2–0 {fixture.away_team.name}"
    assert trail in console.get(url).content.decode()
    assert trail in console.get(f"/admin/tournaments/fixture/{fixture.pk}/change/").content.decode()
    discipline = f"/console/c/{competition.slug}/discipline/"
    assert "red card" in console.get(discipline).content.decode().lower()
    body = {"yellow_card_threshold": 3, "red_card_ban_matches": 0}
    assert console.post(discipline, body).status_code == 302
    assert Suspension.objects.filter(competition=competition).count() == 0  # recomputed by the service
