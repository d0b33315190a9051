"""Seeded draws (groups from pots, unseeded brackets) and schedules with deadlines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from tests.factories import AdminFactory
from tournaments.draws import Cap, DrawImpossible, draw_bracket, draw_groups
from tournaments.models import Draw, Fixture, Stage
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.force_authenticate(AdminFactory(is_superuser=True))
    return client


def test_pure_draw_is_repeatable_from_its_seed_and_one_per_pot_per_group() -> None:
    pots = [[f"P{p}T{i}" for i in range(8)] for p in range(4)]
    names = list("ABCDEFGH")
    first = draw_groups(pots=pots, group_names=names, seed=2026)
    again = draw_groups(pots=pots, group_names=names, seed=2026)
    other = draw_groups(pots=pots, group_names=names, seed=2027)
    assert first == again and first.groups != other.groups
    for group in first.groups.values():
        assert [t[:2] for t in group] == ["P0", "P1", "P2", "P3"]
    assert draw_bracket(teams=list(range(16)), seed=5) == draw_bracket(teams=list(range(16)), seed=5)


def test_pure_draw_keeps_countries_apart_where_possible() -> None:
    # Two countries per pot; eight groups: a country-free draw exists, and is found for every seed.
    country = {f"P{p}T{i}": f"C{(p + i) % 8}" for p in range(4) for i in range(8)}
    pots = [[f"P{p}T{i}" for i in range(8)] for p in range(4)]
    for seed in range(20):
        result = draw_groups(
            pots=pots, group_names=list("ABCDEFGH"), seed=seed, clash=lambda a, b: country[a] == country[b]
        )
        assert result.relaxed_pots == []
        for group in result.groups.values():
            assert len({country[t] for t in group}) == 4
    # Impossible: refused, naming the pot; drawn anyway only when relaxing is asked for.
    with pytest.raises(DrawImpossible) as refused:
        draw_groups(pots=[["a", "b"], ["c", "d"]], group_names=["A", "B"], seed=1, clash=lambda a, b: True)
    assert refused.value.pot == 2
    result = draw_groups(
        pots=[["a", "b"], ["c", "d"]], group_names=["A", "B"], seed=1, clash=lambda a, b: True, relax=True
    )
    assert result.relaxed_pots == [2]  # pot 1 goes into empty groups


def _world_cup_field() -> tuple[list[list[str]], dict[str, dict[str, str]]]:
    """32 teams in 4 pots: 13 UEFA teams (at most 2 per group, so at least one in 5 groups)."""
    confederations = ["UEFA"] * 13 + ["CONMEBOL"] * 5 + ["CAF"] * 5 + ["AFC"] * 5 + ["CONCACAF"] * 4
    teams = [f"T{i:02}" for i in range(32)]
    # Spread so that pot 1 holds 5 UEFA teams and each other confederation is in two pots.
    order = [0, 1, 2, 3, 4, 13, 18, 23, 5, 6, 7, 14, 19, 24, 28, 15, 8, 9, 10, 16, 20, 25, 29, 30]
    order += [11, 12, 17, 21, 22, 26, 27, 31]
    traits = {teams[i]: {"confederation": confederations[c]} for i, c in zip(range(32), order, strict=True)}
    return [teams[i : i + 8] for i in range(0, 32, 8)], traits


def test_world_cup_caps_at_most_two_uefa_and_at_least_one_per_group_for_every_seed() -> None:
    pots, traits = _world_cup_field()
    caps = [
        Cap(attribute="confederation", value="UEFA", at_most=2, at_least=1),
        # The other confederations: no two of one in a group.
        *(Cap(attribute="confederation", value=c, at_most=1) for c in ("CONMEBOL", "CAF", "AFC", "CONCACAF")),
    ]
    for seed in range(30):
        result = draw_groups(pots=pots, group_names=list("ABCDEFGH"), seed=seed, caps=caps, traits=traits)
        assert result.relaxed == []
        for name, group in result.groups.items():
            kinds = [traits[t]["confederation"] for t in group]
            assert 1 <= kinds.count("UEFA") <= 2, (seed, name, kinds)
            assert all(kinds.count(c) <= 1 for c in set(kinds) - {"UEFA"}), (seed, name, kinds)
    assert Cap(attribute="confederation", value="UEFA", at_most=2).describe() == (
        "at most 2 UEFA team(s) per group"
    )


def test_an_impossible_cap_names_the_pot_and_the_group_unless_relaxed() -> None:
    pots, traits = _world_cup_field()
    names = list("ABCDEFGH")
    # 13 UEFA teams with at most one per group: pot 3 brings the ninth and cannot be placed.
    with pytest.raises(DrawImpossible) as refused:
        draw_groups(
            pots=pots,
            group_names=names,
            seed=1,
            caps=[Cap("confederation", "UEFA", at_most=1)],
            traits=traits,
        )
    assert refused.value.pot == 3 and refused.value.group in names
    assert "UEFA" in str(refused.value) and "pot 3" in str(refused.value)
    # At least two UEFA teams in each of 8 groups needs 16: group G is the first left without.
    with pytest.raises(DrawImpossible) as refused:
        draw_groups(
            pots=pots,
            group_names=names,
            seed=1,
            caps=[Cap("confederation", "UEFA", at_least=2)],
            traits=traits,
        )
    assert refused.value.group == "G"
    # Impossible only once earlier pots are placed (3 groups, one X team per pot of 3, plus a
    # fourth X in pot 3): found by the search, not by counting alone.
    small = {t: {"country": "X" if t in ("a", "d", "g", "h") else t} for t in "abcdefghi"}
    with pytest.raises(DrawImpossible) as refused:
        draw_groups(
            pots=[["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]],
            group_names=["A", "B", "C"],
            seed=4,
            caps=[Cap("country", None, at_most=1)],
            traits=small,
        )
    assert refused.value.pot == 3
    relaxed = draw_groups(
        pots=pots,
        group_names=names,
        seed=1,
        caps=[Cap("confederation", "UEFA", at_most=1)],
        traits=traits,
        relax=True,
    )
    assert relaxed.relaxed and all(r.pot >= 3 and r.group in names and r.reason for r in relaxed.relaxed)
    assert sorted(t for g in relaxed.groups.values() for t in g) == sorted(t for p in pots for t in p)


def test_group_draw_through_the_api_records_and_shows_the_seed(api) -> None:
    competition = competition_create(name="Cup", slug="cup")
    teams = [
        team_create(competition=competition, name=f"T{i}", country=f"Country {i % 4}") for i in range(16)
    ]
    stage = stage_create(competition=competition, name="Groups", kind="groups", groups={"A": []})
    Stage.objects.filter(pk=stage.pk)  # a group stage whose groups are still empty
    stage.groups.all().delete()
    pots = [[t.pk for t in teams[i : i + 4]] for i in range(0, 16, 4)]
    response = api.post(
        f"/api/v1/stages/{stage.pk}/draw-groups",
        {"pots": pots, "group_count": 4, "constraints": ["country"], "seed": 42},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["seed"] == 42 and sorted(body["result"]) == ["A", "B", "C", "D"]
    for group in stage.groups.all():
        members = list(group.teams.all())
        assert len(members) == 4 and len({t.country for t in members}) == 4
    shown = api.get(f"/api/v1/stages/{stage.pk}/draws").json()
    assert shown[0]["seed"] == 42
    # Same seed, same groups.
    before = {g.name: sorted(g.teams.values_list("id", flat=True)) for g in stage.groups.all()}
    api.post(
        f"/api/v1/stages/{stage.pk}/draw-groups",
        {"pots": pots, "constraints": ["country"], "seed": 42},
        format="json",
    )
    assert {g.name: sorted(g.teams.values_list("id", flat=True)) for g in stage.groups.all()} == before
    # Bad input: a team twice, another competition's team; nothing is drawn.
    stranger = team_create(competition=competition_create(name="O", slug="o"), name="X")
    response = api.post(
        f"/api/v1/stages/{stage.pk}/draw-groups", {"pots": [[*pots[0], stranger.pk]]}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"]["details"] == {"field": "pots"}
    assert Draw.objects.count() == 2
    assert len(api.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json").json()) == 24
    response = api.post(f"/api/v1/stages/{stage.pk}/draw-groups", {"pots": pots}, format="json")
    assert response.status_code == 409


def test_draw_caps_through_the_api_refuse_the_impossible_and_record_relaxing(api) -> None:
    competition = competition_create(name="World", slug="world")
    pots_field, traits = _world_cup_field()
    teams = {
        name: team_create(
            competition=competition,
            name=name,
            confederation=traits[name]["confederation"],
            country=f"Country {name}",
        )
        for pot in pots_field
        for name in pot
    }
    assert api.get(f"/api/v1/teams/{teams['T00'].pk}").json()["confederation"] == "UEFA"
    stage = stage_create(
        competition=competition, name="Groups", kind="groups", groups={g: [] for g in "ABCDEFGH"}
    )
    pots = [[teams[n].pk for n in pot] for pot in pots_field]
    uefa = {"attribute": "confederation", "value": "UEFA", "at_most": 2, "at_least": 1}
    url = f"/api/v1/stages/{stage.pk}/draw-groups"
    response = api.post(url, {"pots": pots, "seed": 9, "constraints": [uefa, "country"]}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["seed"] == 9 and body["relax"] is False and body["relaxed"] == []
    assert body["constraints"][0] == {**uefa, "text": "at least 1 and at most 2 UEFA team(s) per group"}
    for group in stage.groups.all():
        assert 1 <= group.teams.filter(confederation="UEFA").count() <= 2
    # Impossible: a 400 naming the pot and the group, and the groups stay as they were.
    before = {g.name: sorted(g.teams.values_list("id", flat=True)) for g in stage.groups.all()}
    one = {"attribute": "confederation", "value": "UEFA", "at_most": 1}
    response = api.post(url, {"pots": pots, "seed": 9, "constraints": [one]}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["details"]["field"] == "constraints" and error["details"]["pot"] == 3
    assert f"group {error['details']['group']}" in error["message"] and "relax" in error["message"]
    assert {g.name: sorted(g.teams.values_list("id", flat=True)) for g in stage.groups.all()} == before
    response = api.post(url, {"pots": pots, "seed": 9, "constraints": [one], "relax": True}, format="json")
    assert response.status_code == 201
    shown = api.get(f"/api/v1/stages/{stage.pk}/draws").json()[0]
    assert shown["relax"] is True and shown["relaxed"][0]["pot"] == 3 and shown["relaxed"][0]["reason"]
    # Bad constraints name the item.
    for bad in (
        {"attribute": "shirt", "at_most": 1},
        {"attribute": "club"},
        {"attribute": "club", "at_least": 1},
    ):
        response = api.post(url, {"pots": pots, "constraints": [bad]}, format="json")
        assert (
            response.status_code == 400 and response.json()["error"]["details"]["field"] == "constraints[0]"
        )


def test_every_setting_the_api_accepts_it_returns(api) -> None:
    competition = competition_create(name="Cup", slug="cup")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    body = {"yellow_card_threshold": 3, "red_card_ban_matches": 2, "yellow_wipe_after_stage": stage.pk}
    assert api.post("/api/v1/competitions/cup/discipline", body, format="json").status_code == 200
    shown = api.get("/api/v1/competitions/cup").json()
    assert shown["yellow_wipe_after_stage"] == stage.pk and shown["yellow_card_threshold"] == 3
    assert "award_goals_for" in shown and "award_goals_against" in shown
    assert sorted(api.get(f"/api/v1/stages/{stage.pk}").json()["teams"]) == sorted(t.pk for t in teams)


def test_knockout_draw_pairs_in_drawn_order(api) -> None:
    competition = competition_create(name="Cup", slug="cup")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(6)]
    stage = stage_create(competition=competition, name="KO", kind="knockout", teams=teams)
    response = api.post(f"/api/v1/stages/{stage.pk}/draw-knockout", {"seed": 7}, format="json")
    assert response.status_code == 201
    order = response.json()["result"]
    fixtures = fixture_generate(stage=stage)
    first_round = [(f.home_team_id, f.away_team_id) for f in fixtures if f.round == 1]
    # Six teams in a bracket of eight: the first two drawn have byes, then 3 v 4 and 5 v 6.
    assert first_round == [(order[2], order[3]), (order[4], order[5])]
    # The bye teams meet the winners in round 2, not each other.
    assert [f.home_team_id for f in fixtures if f.round == 2] == [order[0], order[1]]
    assert [f.away_placeholder for f in fixtures if f.round == 2] == [
        f"Winner match {fixtures[0].match_number}",
        f"Winner match {fixtures[1].match_number}",
    ]


def test_schedule_with_start_date_kickoff_time_and_deadline_days(api) -> None:
    competition = competition_create(name="League", slug="league")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    response = api.post(
        f"/api/v1/stages/{stage.pk}/generate-fixtures",
        {"start_date": "2027-03-01", "kickoff_time": "19:30", "days_between_rounds": 14, "deadline_days": 7},
        format="json",
    )
    assert response.status_code == 201, response.json()
    by_round = {f["round"]: (f["kickoff"], f["deadline"]) for f in response.json()}
    assert by_round[1] == ("2027-03-01T19:30:00Z", "2027-03-08T19:30:00Z")
    assert by_round[3] == ("2027-03-29T19:30:00Z", "2027-04-05T19:30:00Z")
    # Staff move round 2 by a week: kick-offs and deadlines move together.
    response = api.post(f"/api/v1/stages/{stage.pk}/shift-round", {"round": 2, "days": 7}, format="json")
    assert response.status_code == 200 and len(response.json()) == 2
    assert {f["kickoff"] for f in response.json()} == {"2027-03-22T19:30:00Z"}
    assert (
        api.post(f"/api/v1/stages/{stage.pk}/shift-round", {"round": 9, "days": 1}, format="json").status_code
        == 404
    )
    response = api.post(f"/api/v1/stages/{stage.pk}/shift-round", {"round": 2}, format="json")
    assert response.status_code == 400 and "days" in response.json()["error"]["details"]


def test_overdue_fixtures_are_marked_and_swept(django_capture_on_commit_callbacks) -> None:
    from matches import forfeits

    competition = competition_create(name="League", slug="league", forfeit_policy="simulate")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(2)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    start = datetime.now(UTC) - timedelta(days=10)
    (fixture,) = fixture_generate(stage=stage, start=start, deadline_after=timedelta(days=7))
    fixture.refresh_from_db()
    assert fixture.is_overdue
    body = APIClient().get(f"/api/v1/fixtures/{fixture.pk}").json()
    assert body["overdue"] is True and body["deadline"]
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == [fixture.pk]
    fixture.refresh_from_db()
    assert fixture.status != Fixture.Status.SCHEDULED and not fixture.is_overdue


def test_the_sweep_command_runs_the_beat_job_once(django_capture_on_commit_callbacks) -> None:
    from io import StringIO

    from django.core.management import call_command

    competition = competition_create(name="League", slug="league")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(2)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    start = datetime.now(UTC) - timedelta(days=3)
    (fixture,) = fixture_generate(stage=stage, start=start, deadline_after=timedelta(days=1))
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("forfeits_sweep", stdout=out)
    assert f"1 fixture(s) queued [{fixture.pk}]" in out.getvalue()
