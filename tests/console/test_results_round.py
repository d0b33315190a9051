"""Issue 32 item 5: a round's results in one screen and one save, each row checked as a single
result; the desk's list filtered by round, date and status; only the fields a fixture can have;
the confirmation line names extra time, the shoot-out and who goes through."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from matches.models import ResultAudit
from tests.factories import AdminFactory
from tournaments.models import Competition, Fixture, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def console(client: Client) -> Client:
    client.force_login(AdminFactory(is_superuser=True))
    return client


def _new(console: Client, name: str, structure: str, teams: int, **extra: Any) -> Competition:
    data = {
        "name": name,
        "slug": name.lower().replace(" ", "-"),
        "game_system": "fuba-3",
        "structure": structure,
        "teams": teams,
        "groups": extra.pop("groups", 0),
        "advance_per_group": 2,
        "best_thirds": 0,
        "thirds_placing": "euro_2024",
        "group_legs": 1,
        "knockout_legs": 1,
        "swiss_rounds": 0,
        "extra_time": "on",
        "penalties": "on",
        "tiebreak_preset": "fifa_world_cup",
        "team_list": "\n".join(f"T{i}, Country {i}, Club {i}" for i in range(teams)),
        "create": "1",
        **extra,
    }
    response = console.post("/console/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    slug = str(data["slug"])
    if structure == "groups":
        assert console.post(f"/console/c/{slug}/draw/", {"seed": 8}).status_code == 302
    body = {"generate": "1", "start_date": "2027-06-11", "kickoff_time": "18:00", "days_between_rounds": 4}
    assert console.post(f"/console/c/{slug}/schedule/", body | {"deadline_days": 2}).status_code == 302
    return Competition.objects.get(slug=slug)


def _round_url(competition: Competition, stage: Stage, rnd: int) -> str:
    return f"/console/c/{competition.slug}/results/round/?stage={stage.pk}&round={rnd}"


def test_a_round_of_16_is_entered_in_one_save_and_a_refused_row_keeps_every_row_s_input(console) -> None:
    cup = _new(console, "Round Cup", "knockout", 16)
    stage = cup.stages.get()
    first = list(Fixture.objects.filter(stage=stage, round=1).order_by("match_number"))
    assert len(first) == 8
    url = _round_url(cup, stage, 1)
    page = console.get(url)
    assert len(page.context["rows"]) == 8
    body: dict[str, str] = {}
    for i, f in enumerate(first):
        body |= {f"f{f.pk}-home_goals": str(i % 3 + 1), f"f{f.pk}-away_goals": "0"}
    # The last match level with no shoot-out: refused as a single result would be, nothing saved.
    last = first[-1]
    body |= {f"f{last.pk}-home_goals": "1", f"f{last.pk}-away_goals": "1", f"f{last.pk}-extra_time": "on"}
    refused = console.post(url, body)
    assert refused.status_code == 200
    html = refused.content.decode()
    assert "give the penalty shoot-out score" in html and html.count('data-testid="row-error"') == 1
    assert Fixture.objects.filter(stage=stage, status=Fixture.Status.CONFIRMED).count() == 0
    kept = refused.context["rows"][0]
    assert kept.data[f"f{first[0].pk}-home_goals"] == "1" and 'value="1"' in html
    body |= {f"f{last.pk}-home_penalties": "5", f"f{last.pk}-away_penalties": "4"}
    saved = console.post(url, body)
    assert saved.status_code == 302
    assert Fixture.objects.filter(stage=stage, round=1, status=Fixture.Status.CONFIRMED).count() == 8
    last.refresh_from_db()
    assert (last.result.extra_time, last.result.home_penalties) == (True, 5)
    assert ResultAudit.objects.filter(fixture__stage=stage).count() == 8  # each row its own audit
    # The quarter-finals are filled from the round: the next round's screen has their rows.
    assert len(console.get(_round_url(cup, stage, 2)).context["rows"]) == 4


def test_a_group_match_has_goals_only_and_a_final_has_extra_time_and_penalties(console) -> None:
    cup = _new(console, "Field Cup", "groups", 8, groups=2, advance_per_group=1)
    group_stage = cup.stages.get(kind=Stage.Kind.GROUPS)
    round_page = console.get(_round_url(cup, group_stage, 1))
    row = round_page.context["rows"][0]
    assert set(row.fields) == {"home_goals", "away_goals"}
    assert "after extra time" not in round_page.content.decode()
    match = Fixture.objects.filter(stage=group_stage).first()
    desk = console.get(f"/console/c/{cup.slug}/results/{match.pk}/")
    assert "extra_time" not in desk.context["form"].fields
    assert "home_penalties" not in desk.context["form"].fields


def test_the_confirmation_line_names_extra_time_the_shoot_out_and_who_goes_through(console) -> None:
    cup = _new(console, "Words Cup", "knockout", 4)
    semi = Fixture.objects.filter(competition=cup, round=1).order_by("match_number").first()
    url = f"/console/c/{cup.slug}/results/{semi.pk}/"
    body = {
        "action": "enter",
        "home_goals": 1,
        "away_goals": 1,
        "extra_time": "on",
        "home_penalties": 3,
        "away_penalties": 4,
        "check": "1",
    }
    line = console.post(url, body).context["consequences"]
    home, away = semi.home_team.name, semi.away_team.name
    assert f"{home} 1–1 {away} after extra time, {away} win the shoot-out 4–3" in line
    assert f"{away} go through on penalties" in line
    body |= {"home_goals": 2, "extra_time": "", "home_penalties": "", "away_penalties": ""}
    assert f"{home} go through" in console.post(url, body).context["consequences"]


def test_the_desk_s_list_filters_by_round_date_and_status(console) -> None:
    cup = _new(console, "Filter Cup", "groups", 8, groups=2, advance_per_group=1)
    stage = cup.stages.get(kind=Stage.Kind.GROUPS)
    url = f"/console/c/{cup.slug}/results/"
    every = list(console.get(url).context["fixtures"])
    by_round = list(console.get(url, {"round": f"{stage.pk}:2"}).context["fixtures"])
    assert by_round and {f.round for f in by_round} == {2} and len(by_round) < len(every)
    day = by_round[0].kickoff.date().isoformat()
    assert {f.kickoff.date().isoformat() for f in console.get(url, {"day": day}).context["fixtures"]} == {day}
    assert len(console.get(url, {"status": "done"}).context["fixtures"]) == 0
    assert len(console.get(url, {"status": "to_enter"}).context["fixtures"]) == sum(
        1 for f in every if f.status == Fixture.Status.SCHEDULED
    )


def test_the_round_service_saves_all_or_names_every_refused_fixture(console) -> None:
    from kernel.errors import ApplicationError
    from matches.services import results_round_enter
    from tournaments.bracket import Score

    competition = _new(console, "Service Round", "league", 4)
    first = list(Fixture.objects.filter(competition=competition, round=1).order_by("id"))
    user = AdminFactory(is_superuser=True)
    # a score the fixture cannot have (extra time in a league) refuses the whole round
    bad = Score(1, 1, extra_time=True)
    with pytest.raises(ApplicationError) as refused:
        results_round_enter(scores=[(first[0].pk, Score(2, 0)), (first[1].pk, bad)], user=user, note="desk")
    assert list(refused.value.details["refused"]) == [first[1].pk]
    assert not Fixture.objects.filter(pk__in=[f.pk for f in first], result__isnull=False).exists()
    assert results_round_enter(scores=[(f.pk, Score(1, 0)) for f in first], user=user, note="desk") == 2
    assert ResultAudit.objects.filter(fixture__in=first, note="desk").count() == 2
