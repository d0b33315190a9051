"""Coach ratings: direction of moves, idempotence, simulated results, corrections, rebuild == incremental."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.test import Client

from matches.services import result_override, result_record_system
from ratings import selectors, services
from ratings.models import CoachRating, RatedMatch, RatingHistory
from ratings.skill import MU, SIGMA
from ratings.templatetags.ratings_tags import match_rating
from tests.factories import AdminFactory, CompetitionFactory, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _league(n: int, slug: str = "", game_system: str = "fuba-3") -> tuple[Stage, list[Fixture]]:
    competition = CompetitionFactory(game_system=game_system, **({"slug": slug} if slug else {}))
    teams = [team_with_member(competition, f"T{i}")[0] for i in range(n)]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixtures = list(fixture_generate(stage=stage))
    fixtures.sort(key=lambda f: (f.round, f.id))
    return stage, fixtures


def _rating(fixture: Fixture, side: str, game_system: str = "fuba-3") -> CoachRating:
    team = fixture.home_team if side == "home" else fixture.away_team
    return CoachRating.objects.get(coach_id=team.coach_id, game_system=game_system)  # type: ignore[union-attr]


def _snapshot() -> tuple[list[tuple], list[tuple]]:
    ratings = sorted(
        CoachRating.objects.values_list(
            "coach_id", "game_system", "mu", "sigma", "ordinal", "games", "wins", "draws", "losses"
        )
    )
    history = sorted(
        RatingHistory.objects.values_list(
            "coach_id", "sequence", "game_system", "mu", "sigma", "ordinal", "games"
        )
    )
    return ratings, history


def test_a_win_moves_the_winner_up_and_the_loser_down(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(2)
    fixture = fixtures[0]
    with django_capture_on_commit_callbacks(execute=True):
        play(fixture.id, 3, 1)
    home, away = _rating(fixture, "home"), _rating(fixture, "away")
    assert home.mu > MU > away.mu
    assert home.sigma < SIGMA and away.sigma < SIGMA
    assert home.ordinal == pytest.approx(home.mu - 3 * home.sigma)
    assert (home.games, home.wins, away.losses) == (1, 1, 1)
    assert home.provisional and away.provisional
    assert RatingHistory.objects.filter(rated_match__fixture=fixture).count() == 2


def test_an_upset_moves_ratings_more_than_the_expected_win(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(4)
    # Make T-strong win three matches first, then compare a win over it with a win by it.
    with django_capture_on_commit_callbacks(execute=True):
        for f in fixtures:
            play(f.id, 2, 0)
    ranking = list(CoachRating.objects.order_by("-mu"))
    strong, weak = ranking[0], ranking[-1]
    from ratings.skill import Skill, rate_match

    s = Skill(strong.mu, strong.sigma, strong.games)
    w = Skill(weak.mu, weak.sigma, weak.games)
    expected_gain = rate_match(s, w, "home")[0].mu - s.mu
    upset_gain = rate_match(w, s, "home")[0].mu - w.mu
    assert upset_gain > expected_gain > 0


def test_a_draw_between_equal_coaches_keeps_mu_and_shrinks_sigma(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(2)
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 1, 1)
    for side in ("home", "away"):
        r = _rating(fixtures[0], side)
        assert r.mu == pytest.approx(MU) and r.sigma < SIGMA and r.draws == 1


def test_the_task_applies_a_result_once(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(2)
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 2, 1)
    before = _snapshot()
    assert services.fixture_rating_apply(fixture_id=fixtures[0].id) == "unchanged"
    assert services.fixture_rating_apply(fixture_id=fixtures[0].id) == "unchanged"
    assert _snapshot() == before
    assert RatedMatch.objects.count() == 1


def test_simulated_and_awarded_results_leave_ratings_unchanged(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(3)
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 2, 1)
    before = _snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        for fixture, source in zip(fixtures[1:3], ("simulated", "awarded"), strict=True):
            Fixture.objects.filter(id=fixture.id).update(status=Fixture.Status.SIMULATING)
            result_record_system(fixture_id=fixture.id, source=source, score=Score(3, 0))
    assert Fixture.objects.filter(status__in=["simulated", "awarded"]).count() == 2
    assert _snapshot() == before
    assert not RatedMatch.objects.exclude(outcome__in=["home", "draw", "away"]).exists()


@pytest.mark.parametrize("game_system", ["fuba-2", "soccer-city", "super-team"])
def test_a_match_of_another_game_system_is_rated_in_its_own_system_only(
    game_system: str, django_capture_on_commit_callbacks
) -> None:
    _stage, fixtures = _league(2, game_system=game_system)
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 3, 1)
    assert set(CoachRating.objects.values_list("game_system", flat=True)) == {game_system}
    assert _rating(fixtures[0], "home", game_system).mu > MU > _rating(fixtures[0], "away", game_system).mu
    assert RatedMatch.objects.get().game_system == game_system
    before = _snapshot()
    services.ratings_rebuild()
    assert _snapshot() == before


def test_one_coach_has_a_rating_per_game_system_that_only_its_matches_move(
    django_capture_on_commit_callbacks,
) -> None:
    from ratings.selectors import coach_ratings, combined_ranking

    _stage, fuba3 = _league(2, slug="fuba-three")
    _stage, city = _league(2, slug="city-league", game_system="soccer-city")
    # The same coach leads a team in both competitions: a win in one, a loss in the other.
    coach = fuba3[0].home_team.coach
    Team = type(city[0].home_team)
    Team.objects.filter(id=city[0].home_team_id).update(coach=coach)
    with django_capture_on_commit_callbacks(execute=True):
        play(fuba3[0].id, 2, 0)
        play(city[0].id, 0, 3)
    by_system = {r.game_system: r for r in coach_ratings(coach_id=coach.id)}
    assert set(by_system) == {"fuba-3", "soccer-city"}
    assert by_system["fuba-3"].mu > MU > by_system["soccer-city"].mu
    assert by_system["fuba-3"].games == by_system["soccer-city"].games == 1
    row = next(r for r in combined_ranking() if r.coach.pk == coach.id)
    mean = (by_system["fuba-3"].ordinal + by_system["soccer-city"].ordinal) / 2
    assert row.combined.ordinal == pytest.approx(mean) and row.combined.systems == 2


def test_a_corrected_result_is_rated_as_corrected(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(4)
    rng = random.Random(5)
    with django_capture_on_commit_callbacks(execute=True):
        for f in fixtures:
            play(f.id, rng.randint(0, 3), rng.randint(0, 3))
    corrected = fixtures[1]
    old = RatedMatch.objects.get(fixture=corrected)
    with django_capture_on_commit_callbacks(execute=True):
        result_override(
            fixture_id=corrected.id,
            user=AdminFactory(),
            score=Score(old.away_goals + 3, old.home_goals),
            note="score reversed on the sheet",
        )
    entry = RatedMatch.objects.get(fixture=corrected)
    assert entry.sequence == old.sequence and entry.outcome == "home"
    after = _snapshot()
    # The corrected history is what a fold from scratch gives.
    assert services.ratings_rebuild() == len(fixtures)
    assert _snapshot() == after


def test_rebuild_equals_the_incremental_path(django_capture_on_commit_callbacks) -> None:
    rng = random.Random(11)
    played = 0
    with django_capture_on_commit_callbacks(execute=True):
        # Two competitions, the same coaches do not meet across them: two independent ledgers
        # interleaved, plus draws, so the ordering matters.
        for slug in ("first-league", "second-league"):
            _stage, fixtures = _league(5, slug)
            for f in fixtures:
                play(f.id, rng.randint(0, 3), rng.randint(0, 3))
                played += 1
    incremental = _snapshot()
    assert len(incremental[0]) == 10 and len(incremental[1]) == 2 * played
    call_command("rebuild_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert _snapshot() == incremental


def test_rebuild_picks_up_results_the_ledger_missed(django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(3)
    with django_capture_on_commit_callbacks(execute=True):
        for f in fixtures:
            play(f.id, 1, 0)
    incremental = _snapshot()
    RatedMatch.objects.all().delete()
    CoachRating.objects.all().delete()
    assert services.ratings_rebuild() == 3
    ratings, history = _snapshot()
    assert ratings == incremental[0]
    # New ledger numbers, the same points in the same order.
    assert [h[:1] + h[2:] for h in history] == [h[:1] + h[2:] for h in incremental[1]]


def test_ratings_api(client: Client, django_capture_on_commit_callbacks) -> None:
    _stage, fixtures = _league(3)
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 2, 0)
    ranking = client.get("/api/v1/ratings/coaches").json()
    assert [r["rank"] for r in ranking] == [1, 2]
    assert ranking[0]["ordinal"] > ranking[1]["ordinal"] and ranking[0]["provisional"] is True
    winner = ranking[0]["coach_id"]
    detail = client.get(f"/api/v1/ratings/coaches/{winner}").json()
    [fuba3] = detail["ratings"]
    assert fuba3["game_system"] == "fuba-3" and fuba3["rank"] == 1 and len(fuba3["history"]) == 1
    assert fuba3["history"][0]["fixture_id"] == fixtures[0].id
    assert detail["combined"]["rank"] == 1 and "games-weighted" in detail["combined"]["how"]
    combined = client.get("/api/v1/ratings/coaches?game_system=combined").json()
    assert combined[0]["coach_id"] == winner and combined[0]["ratings"][0]["game_system"] == "fuba-3"
    assert client.get("/api/v1/ratings/coaches?game_system=fuba-2").json() == []
    bad = client.get("/api/v1/ratings/coaches?game_system=chess")
    assert bad.status_code == 400 and "game_system" in bad.json()["error"]["message"]
    assert client.get("/api/v1/ratings/coaches/999999").status_code == 404

    upcoming = fixtures[1]
    p = client.get(f"/api/v1/ratings/predict/{upcoming.id}").json()
    assert p["home_win"] + p["draw"] + p["away_win"] == pytest.approx(1.0)
    assert client.get("/api/v1/ratings/predict/999999").status_code == 404
    assert client.get(f"/api/v1/ratings/predict/{2**64}").status_code == 404
    assert client.get(f"/api/v1/ratings/coaches/{2**64}").status_code == 404
    assert client.get(f"/ratings/coaches/{2**64}/").status_code == 404
    assert client.get(f"/api/v1/chances/jobs/{2**64}").status_code == 404


def test_prediction_favours_the_better_rated_coach(django_capture_on_commit_callbacks) -> None:
    from ratings.selectors import fixture_prediction

    _stage, fixtures = _league(3)
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 4, 0)
    winner_coach = fixtures[0].home_team.coach_id
    rest = [f for f in Fixture.objects.filter(id__in=[f.id for f in fixtures[1:]])]
    f = next(f for f in rest if winner_coach in (f.home_team.coach_id, f.away_team.coach_id))
    p = fixture_prediction(fixture_id=f.id).chances
    favourite = p.home if f.home_team.coach_id == winner_coach else p.away
    underdog = p.away if f.home_team.coach_id == winner_coach else p.home
    assert favourite > underdog


def test_a_played_match_shows_each_coachs_mu_before_it_read_in_one_query(
    django_capture_on_commit_callbacks, django_assert_max_num_queries
) -> None:
    _stage, fixtures = _league(4)
    with django_capture_on_commit_callbacks(execute=True):
        for f in fixtures:
            play(f.id, 2, 1)
    history = list(RatingHistory.objects.order_by("sequence"))
    for fixture in Fixture.objects.filter(pk__in=[f.id for f in fixtures]):
        expected = []
        for point in RatingHistory.objects.filter(rated_match__fixture=fixture):
            earlier = [h.mu for h in history if h.coach_id == point.coach_id and h.sequence < point.sequence]
            expected.append((point.coach_id, point.mu, earlier[-1] if earlier else None))
        # (the match's entry, then its points with the μ before each)
        with django_assert_max_num_queries(2):
            changes = match_rating(fixture)["changes"]
            shown = [(p.coach_id, p.mu, before, p.coach.name) for p, before in changes]
        assert [s[:3] for s in shown] == expected and len(expected) == 2
    # A coach's later matches show the μ its earlier ones left.
    assert any(before is not None for _, _, before in expected)


def test_a_coachs_rank_is_its_place_in_the_ranking_read_in_one_query(
    django_capture_on_commit_callbacks, django_assert_max_num_queries
) -> None:
    _stage, fixtures = _league(4)
    with django_capture_on_commit_callbacks(execute=True):
        for f, (h, a) in zip(fixtures, [(2, 1), (0, 0), (1, 3), (2, 2), (0, 1), (4, 0)], strict=False):
            play(f.id, h, a)
    ranking = list(selectors.coach_ranking(game_system="fuba-3"))
    assert len(ranking) == 4
    # Two equal ordinals (the same results) are ordered by coach, as the ranking orders them.
    twin = ranking[1]
    CoachRating.objects.filter(pk=ranking[2].pk).update(ordinal=twin.ordinal)
    ranking = list(selectors.coach_ranking(game_system="fuba-3"))
    for place, rating in enumerate(ranking, start=1):
        with django_assert_max_num_queries(1):
            assert selectors.coach_rank(rating=rating) == place
