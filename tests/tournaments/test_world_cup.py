"""A 32-team World Cup from creation to a champion, entirely through the services."""

from __future__ import annotations

import pytest

from matches.progress import competition_champion
from matches.standings.selectors import standings_table
from tests.factories import AdminFactory, CompetitionFactory, play, team_with_member
from tournaments.models import Competition, Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db

GROUPS = "ABCDEFGH"


def _strength(team_name: str) -> int:
    # "A1" is the strongest team of group A; across groups, A beats B beats C …
    return GROUPS.index(team_name[0]) * 4 + int(team_name[1])


def _score(fixture: Fixture) -> tuple[int, int]:
    home, away = _strength(fixture.home_team.name), _strength(fixture.away_team.name)
    return (2, 0) if home < away else (0, 1)


def test_world_cup_32_teams_to_a_champion_with_third_place_match() -> None:
    competition = CompetitionFactory(name="FUBA World Cup", is_world_cup=True)
    teams = {}
    for g in GROUPS:
        for i in range(1, 5):
            teams[f"{g}{i}"], _ = team_with_member(competition, f"{g}{i}")
    groups = stage_create(
        competition=competition,
        name="Group stage",
        kind=Stage.Kind.GROUPS,
        groups={g: [teams[f"{g}{i}"] for i in range(1, 5)] for g in GROUPS},
    )
    knockout = stage_create(
        competition=competition, name="Knockout stage", kind=Stage.Kind.KNOCKOUT, third_place_match=True
    )
    assert len(fixture_generate(stage=groups)) == 48
    ko = fixture_generate(stage=knockout)
    assert [f.match_number for f in ko] == list(range(49, 65))
    r16 = {f.match_number: (f.home_placeholder, f.away_placeholder) for f in ko if f.round == 1}
    assert r16[49] == ("Winner group A", "Runner-up group B")
    assert r16[53] == ("Winner group B", "Runner-up group A")
    third, final = ko[-2], ko[-1]
    assert (third.round_name, third.home_placeholder) == ("Third place", "Loser match 61")
    assert (final.round_name, final.home_placeholder, final.away_placeholder) == (
        "Final",
        "Winner match 61",
        "Winner match 62",
    )

    for fixture in groups.fixtures.select_related("home_team", "away_team"):
        play(fixture.id, *_score(fixture))
    groups.refresh_from_db()
    assert groups.status == Stage.Status.COMPLETED
    table_a = standings_table(stage=groups, group=groups.groups.get(name="A"))
    assert [r.team for r in table_a] == [teams[f"A{i}"].id for i in range(1, 5)]
    assert table_a[0].points == 9

    m49 = Fixture.objects.get(competition=competition, match_number=49)
    assert (m49.home_team, m49.away_team) == (teams["A1"], teams["B2"])

    admin = AdminFactory()
    assert admin.is_staff
    for number in range(49, 65):
        fixture = Fixture.objects.select_related("home_team", "away_team").get(
            competition=competition, match_number=number
        )
        assert fixture.is_resolved, f"match {number} should be resolved by now"
        if number == 49:
            # A level knockout match needs the extra time and shoot-out.
            play(fixture.id, 1, 1, extra_time=True, home_penalties=4, away_penalties=3)
        else:
            play(fixture.id, *_score(fixture))

    assert competition_champion(competition=competition) == teams["A1"]
    third = Fixture.objects.get(competition=competition, match_number=63)
    assert third.is_counted
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
