"""A knockout fed by a table's places: the pure seeding rule, then the service on a final table
(refused while not final or level at a cut; idempotent; the two-legged play-off; bracket positions)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import ApplicationError, Conflict
from matches.progress import swiss_round_generate
from matches.services.corrections import result_override
from matches.standings.selectors import standings_table
from matches.table_fill import table_places_fill
from tests.factories import AdminFactory
from tournaments.bracket import Score
from tournaments.models import Competition, Draw, Fixture, Stage, Team
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create, stage_update
from tournaments.table_feed import Band, bracket_places, cut_ties, playoff_pairs, playoff_problem


def test_uefa_2024_25_pairs_fold_the_play_off_band_and_meet_the_direct_places() -> None:
    assert playoff_pairs(Band(9, 24)) == [(9 + i, 24 - i) for i in range(8)]
    ties = bracket_places(direct=Band(1, 8), playoff=Band(9, 24))
    # 1 v the winner of 16 v 17 … 8 v the winner of 9 v 24 (a play-off winner keeps its head's place)
    assert sorted(ties) == [(p, 17 - p) for p in range(1, 9)]
    # 1 and 2 in different halves; 1's quarter-final is against 8's tie, 2's against 7's
    assert ties[:2] == [(1, 16), (8, 9)] and ties[4:6] == [(2, 15), (7, 10)]


@given(direct=st.integers(1, 16), extra=st.integers(0, 16))
def test_a_play_off_band_fits_only_when_the_bracket_is_a_power_of_two(direct: int, extra: int) -> None:
    playoff = Band(direct + 1, direct + 2 * extra) if extra else Band(direct + 1, direct + 1)
    problem = playoff_problem(direct=Band(1, direct), playoff=playoff, playoff_rounds=1)
    bracket = direct + extra
    fits = extra > 0 and bracket & (bracket - 1) == 0
    assert (problem is None) == fits
    if fits:
        ties = bracket_places(direct=Band(1, direct), playoff=playoff)
        seeds = sorted(p for tie in ties for p in tie)
        assert seeds == list(range(1, bracket + 1))  # every place and play-off head once, no bye
        assert all(a + b == bracket + 1 for a, b in ties)


@given(levels=st.lists(st.booleans(), min_size=2, max_size=40), cut=st.integers(1, 39))
def test_a_tie_is_reported_only_across_a_cut_or_inside_the_fed_places(levels: list[bool], cut: int) -> None:
    positions = [(i + 1, level and i > 0) for i, level in enumerate(levels)]
    ties = cut_ties(positions=positions, cuts=[cut])
    assert ties == ([(cut, cut + 1)] if cut + 1 <= len(levels) and positions[cut][1] else [])
    assert cut_ties(positions=positions, cuts=[], seeded=Band(1, len(levels))) == [
        (p - 1, p) for p, level in positions if level
    ]


def _league(slug: str, n: int = 8, tiebreak: str = "uefa") -> tuple[Competition, Stage, list[Team]]:
    order = ["points"] if tiebreak == "custom" else []
    competition = competition_create(name=slug, slug=slug, tiebreak_preset=tiebreak, tiebreak_order=order)
    teams = [team_create(competition=competition, name=f"T{i + 1}", seed=i + 1) for i in range(n)]
    league = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixture_generate(stage=league)
    return competition, league, teams


def _play(league: Stage, teams: list[Team], level: tuple[int, int] | None = None) -> None:
    """The better seed wins every match, so the table is the seed order; ``level`` (two seeds)
    draw their match and each drop a point elsewhere so that they finish level."""
    admin = AdminFactory(is_superuser=True)
    seed = {t.id: t.seed for t in teams}
    for fixture in league.fixtures.order_by("id"):
        home, away = seed[fixture.home_team_id], seed[fixture.away_team_id]
        score = Score(1, 0) if home < away else Score(0, 1)
        if level and {home, away} == set(level):
            score = Score(1, 1)
        result_override(fixture_id=fixture.id, user=admin, score=score, note="simulated")


def _knockouts(competition: Competition, league: Stage, legs: int = 2) -> tuple[Stage, Stage]:
    playoff = stage_create(
        competition=competition,
        name="Play-off",
        kind=Stage.Kind.KNOCKOUT,
        legs=legs,
        knockout_rounds=1,
        feeder=league,
        feed_places_from=3,
        feed_places_to=6,
    )
    bracket = stage_create(
        competition=competition,
        name="Semi-finals on",
        kind=Stage.Kind.KNOCKOUT,
        feeder=league,
        feed_places_from=1,
        feed_places_to=2,
        feed_playoff=playoff,
    )
    return playoff, bracket


@pytest.mark.django_db
def test_bad_bands_are_refused_naming_the_field() -> None:
    competition, league, _teams = _league("bands")
    base = {"competition": competition, "kind": Stage.Kind.KNOCKOUT, "feeder": league}
    with pytest.raises(ApplicationError) as exc:
        stage_create(name="Too far", feed_places_from=1, feed_places_to=9, **base)
    assert exc.value.details == {"field": "feed_places_to"} and "table of 8" in exc.value.message
    with pytest.raises(ApplicationError) as exc:
        stage_create(name="No band", **base)
    assert exc.value.details == {"field": "feed_places_from"}
    playoff = stage_create(name="PO", knockout_rounds=1, feed_places_from=3, feed_places_to=8, **base)
    with pytest.raises(ApplicationError) as exc:
        stage_create(name="Bracket", feed_places_from=1, feed_places_to=2, feed_playoff=playoff, **base)
    assert exc.value.details == {"field": "feed_playoff"} and "= 5" in exc.value.message
    groups = stage_create(competition=competition, name="G", kind=Stage.Kind.GROUPS, groups={"A": []})
    with pytest.raises(ApplicationError) as exc:
        stage_create(name="From groups", feed_places_from=1, feed_places_to=2, **{**base, "feeder": groups})
    assert exc.value.details == {"field": "feed_places_from"}


@pytest.mark.django_db
def test_a_table_that_is_not_final_is_refused_and_nothing_is_made() -> None:
    competition, league, _teams = _league("not-final")
    _knockouts(competition, league)
    first = league.fixtures.order_by("id").first()
    assert first is not None
    result_override(fixture_id=first.id, user=AdminFactory(), score=Score(1, 0), note="one")
    with pytest.raises(Conflict) as exc:
        table_places_fill(feeder=league, user=None)
    assert "27 fixture(s) still to be played" in exc.value.message
    assert not Fixture.objects.filter(stage__kind=Stage.Kind.KNOCKOUT).exists()


@pytest.mark.django_db
def test_teams_level_at_a_cut_are_named_and_nothing_is_made() -> None:
    # Points only: no head-to-head, no lots, so seeds 6 and 7 finish level across the cut after 6.
    competition, league, teams = _league("level-cut", tiebreak="custom")
    _knockouts(competition, league)
    _play(league, teams, level=(6, 7))  # their draw: 4 points each, level on the only criterion
    with pytest.raises(Conflict) as exc:
        table_places_fill(feeder=league, user=None)
    assert exc.value.details["places"] == [[6, 7]]
    message = exc.value.message
    assert "6th T" in message and "7th T" in message and "no drawing of lots" in message
    assert not Fixture.objects.filter(stage__kind=Stage.Kind.KNOCKOUT).exists()


@pytest.mark.django_db
def test_the_play_off_is_two_legged_folded_by_place_and_the_bracket_places_its_winners() -> None:
    competition, league, teams = _league("fill")
    playoff, bracket = _knockouts(competition, league)
    _play(league, teams)
    organiser = AdminFactory(is_superuser=True)
    created = table_places_fill(feeder=league, user=organiser)
    by_seed = {t.id: t.seed for t in teams}
    po = list(playoff.fixtures.order_by("match_number", "leg"))
    assert [(f.round_name, f.leg) for f in po] == [("Play-off", 1), ("Play-off", 2)] * 2
    # 3 v 6 and 4 v 5; the higher place plays the second leg at home
    legs = {(by_seed[f.home_team_id], by_seed[f.away_team_id], f.leg) for f in po}
    assert legs == {(6, 3, 1), (3, 6, 2), (5, 4, 1), (4, 5, 2)}
    semis = list(bracket.fixtures.filter(round=1).order_by("match_number"))
    head = {f.home_team_id: f.match_number for f in po if f.leg == 2}  # the seeded side is at home
    assert [(by_seed.get(f.home_team_id), f.away_source) for f in semis] == [
        (1, {"type": "winner", "match": head[teams[3].id]}),  # 1 v the winner of 4 v 5
        (2, {"type": "winner", "match": head[teams[2].id]}),  # 2 v the winner of 3 v 6
    ]
    assert bracket.fixtures.filter(round_name="Final").count() == 1
    assert len(created) == playoff.fixtures.count() + bracket.fixtures.count()
    record = Draw.objects.get(stage=playoff, kind=Draw.Kind.TABLE_PLACES)
    assert record.result["places"] == {str(p): teams[p - 1].id for p in range(3, 7)}
    assert record.drawn_by == organiser and record.drawn_by_role
    # Twice: nothing twice
    assert table_places_fill(feeder=league, user=organiser) == []
    assert Draw.objects.filter(kind=Draw.Kind.TABLE_PLACES).count() == 2
    assert Fixture.objects.filter(stage__kind=Stage.Kind.KNOCKOUT).count() == len(created)
    with pytest.raises(Conflict):
        stage_update(stage=playoff, feed_places_from=4)


@pytest.mark.django_db
def test_a_correction_of_the_table_refills_the_places_or_is_refused_once_they_played() -> None:
    competition, league, teams = _league("correct")
    playoff, bracket = _knockouts(competition, league)
    _play(league, teams)
    admin = AdminFactory(is_superuser=True)
    table_places_fill(feeder=league, user=admin)
    second, third = teams[1], teams[2]
    # 3 beats 2 after all: 3 is second (straight to the semi-finals), 2 third (the play-off)
    match = league.fixtures.get(home_team__in=[second, third], away_team__in=[second, third])
    flip = Score(1, 0) if match.home_team_id == third.id else Score(0, 1)
    result_override(fixture_id=match.id, user=admin, score=flip, note="corrected")
    semi = bracket.fixtures.get(round=1, home_source__place=2)
    assert semi.home_team_id == third.id
    thirds = {
        getattr(f, f"{side}_team_id")
        for f in playoff.fixtures.all()
        for side in ("home", "away")
        if (getattr(f, f"{side}_source") or {}).get("place") == 3
    }
    assert thirds == {second.id}  # both legs of the 3 v 6 tie
    # Once the play-off is played, a correction that moves its teams is refused.
    first_leg = playoff.fixtures.filter(leg=1).order_by("match_number").first()
    assert first_leg is not None
    result_override(fixture_id=first_leg.id, user=admin, score=Score(1, 1), note="played")
    with pytest.raises(Conflict):
        result_override(
            fixture_id=match.id, user=admin, score=Score(flip.away_goals, flip.home_goals), note="x"
        )


@pytest.mark.django_db
def test_a_swiss_table_feeds_its_final_only_once_every_round_is_paired_and_played() -> None:
    competition = competition_create(name="swiss-feed", slug="swiss-feed", tiebreak_preset="swiss")
    teams = [team_create(competition=competition, name=f"S{i + 1}", seed=i + 1) for i in range(4)]
    swiss = stage_create(
        competition=competition, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=2, teams=teams
    )
    final = stage_create(
        competition=competition,
        name="Final",
        kind=Stage.Kind.KNOCKOUT,
        feeder=swiss,
        feed_places_from=1,
        feed_places_to=2,
    )
    admin = AdminFactory(is_superuser=True)
    seed = {t.id: t.seed for t in teams}

    def play() -> None:
        for fixture in swiss.fixtures.filter(status=Fixture.Status.SCHEDULED):
            better = seed[fixture.home_team_id] < seed[fixture.away_team_id]
            result_override(
                fixture_id=fixture.id, user=admin, score=Score(1, 0) if better else Score(0, 1), note="s"
            )

    fixture_generate(stage=swiss)
    play()
    with pytest.raises(Conflict, match="round 2 of 2 is still to be paired"):
        table_places_fill(feeder=swiss, user=admin)
    swiss_round_generate(stage=swiss)
    play()
    table_places_fill(feeder=swiss, user=admin)
    match = final.fixtures.get()
    # 2 and 3 end level on points, Buchholz and goals: the lots drawn for the fill place them.
    top = [r.team for r in standings_table(stage=swiss)[:2]]
    assert (match.home_team_id, match.away_team_id, match.round_name) == (*top, "Final")
    assert seed[top[0]] == 1 and swiss.lot_draws.exists()
