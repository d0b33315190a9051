"""The league phase draw (tournaments.league_phase): properties of every draw, refusals by name."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.league_phase import LeaguePhaseDraw, LeaguePhaseImpossible, draw_league_phase

COUNTRIES = ["ENG", "ESP", "GER", "ITA", "FRA", "POR", "NED", "BEL", "SCO", "AUT", "CZE", "CRO"]


def check(draw: LeaguePhaseDraw[int], pots: list[list[int]], country: dict[int, str], cap: int) -> None:
    """Every property the draw promises, checked from the matches alone."""
    pot_of = {t: p for p, pot in enumerate(pots) for t in pot}
    teams = list(pot_of)
    days = 2 * len(pots)
    assert draw.matchdays == days
    assert len(draw.matches) == len(teams) * len(pots)
    pairs = [frozenset((m.home, m.away)) for m in draw.matches]
    assert len(set(pairs)) == len(pairs), "a pairing repeats"
    for team in teams:
        opp = draw.opponents(team)
        assert len(opp) == days
        assert sorted(d for _o, _h, d in opp) == list(range(1, days + 1)), "one match a matchday"
        for p in range(len(pots)):
            mine = [(o, home) for o, home, _d in opp if pot_of[o] == p]
            assert len(mine) == 2, f"team {team}: two opponents from pot {p + 1}"
            assert sorted(home for _o, home in mine) == [False, True], "one home, one away per pot"
        of_country = Counter(country.get(o, "") for o, _h, _d in opp)
        if country.get(team):
            assert of_country[country[team]] == 0, "an opponent of the same country"
        assert all(n <= cap for c, n in of_country.items() if c), "country cap broken"


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[list[int]], dict[int, str], int, int]:
    pots = draw(st.integers(min_value=1, max_value=4))
    size = draw(st.integers(min_value=3, max_value=6))
    n = pots * size
    # Few teams per country, so most inputs can be drawn; the refusals have their own tests.
    country = {t: draw(st.sampled_from([*COUNTRIES, "", ""])) for t in range(n)}
    cap = draw(st.integers(min_value=2, max_value=3))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    return [list(range(p * size, (p + 1) * size)) for p in range(pots)], country, cap, seed


@settings(max_examples=40, deadline=None)
@given(fields())
def test_every_draw_keeps_its_promises(field: tuple[list[list[int]], dict[int, str], int, int]) -> None:
    pots, country, cap, seed = field
    try:
        draw = draw_league_phase(pots=pots, seed=seed, country=country, country_cap=cap)
    except LeaguePhaseImpossible as refused:
        # Only a field where some team's country fills a pot may be refused.
        assert "country" in refused.constraint
        return
    check(draw, pots, country, cap)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_same_seed_same_draw(seed: int) -> None:
    pots = [list(range(p * 6, p * 6 + 6)) for p in range(3)]
    country = {t: COUNTRIES[t % 7] for t in range(18)}
    first = draw_league_phase(pots=pots, seed=seed, country=country, country_cap=2)
    again = draw_league_phase(pots=pots, seed=seed, country=country, country_cap=2)
    assert first == again


def champions_league_36() -> tuple[list[list[int]], dict[int, str]]:
    """36 teams, 4 pots of 9, countries as many as in 2024/25 (four of England, Spain, …)."""
    names = ["ENG"] * 5 + ["ESP"] * 4 + ["GER"] * 5 + ["ITA"] * 5 + ["FRA"] * 4 + ["POR"] * 3
    names += ["NED"] * 2 + ["BEL", "SCO", "AUT", "CZE", "CRO", "SRB", "SUI", "UKR", "SVK", "SLO"]
    order = [(i * 7) % 36 for i in range(36)]  # spread the countries over the pots
    country = {t: names[order[t]] for t in range(36)}
    return [list(range(p * 9, p * 9 + 9)) for p in range(4)], country


def test_a_36_team_champions_league_draw() -> None:
    pots, country = champions_league_36()
    draw = draw_league_phase(pots=pots, seed=2024, country=country, country_cap=2)
    check(draw, pots, country, 2)
    assert len(draw.matches) == 144
    assert draw != draw_league_phase(pots=pots, seed=2025, country=country, country_cap=2)


def test_a_country_filling_a_pot_is_refused_by_name() -> None:
    pots = [[0, 1, 2, 3], [4, 5, 6, 7]]
    country = {0: "ENG", 4: "ENG", 5: "ENG", 6: "ENG"}
    with pytest.raises(LeaguePhaseImpossible) as refused:
        draw_league_phase(pots=pots, seed=1, country=country)
    assert refused.value.constraint == "no opponent of the same country"
    assert "pot 2" in refused.value.reason


def test_the_country_cap_is_refused_by_name() -> None:
    pots = [[0, 1, 2], [3, 4, 5]]
    country = {3: "ESP", 4: "ESP", 5: "ESP"}
    with pytest.raises(LeaguePhaseImpossible) as refused:
        draw_league_phase(pots=pots, seed=1, country=country, country_cap=1)
    assert "at most 1" in refused.value.constraint


def test_a_cap_met_pot_by_pot_but_not_overall_is_refused() -> None:
    # Pots 2 and 3 each give team 0 one ESP and one ITA team at best: two of each > the cap of 1.
    pots = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    country = {4: "ESP", 5: "ESP", 6: "ITA", 7: "ITA", 8: "ESP", 9: "ESP", 10: "ITA", 11: "ITA"}
    with pytest.raises(LeaguePhaseImpossible) as refused:
        draw_league_phase(pots=pots, seed=3, country=country, country_cap=1)
    assert "at most 1" in refused.value.constraint


@pytest.mark.parametrize(
    ("pots", "words"),
    [
        ([[0, 1, 2], [3, 4]], "as many teams"),
        ([[0, 1], [2, 3]], "at least 3"),
        ([[0, 1, 2], [2, 3, 4]], "twice"),
    ],
)
def test_pots_of_the_wrong_shape_are_refused(pots: list[list[int]], words: str) -> None:
    with pytest.raises(LeaguePhaseImpossible, match=words):
        draw_league_phase(pots=pots, seed=1)


def test_caps_that_leave_too_few_opponents_overall_are_refused_at_once() -> None:
    # Four countries of nine: a team meets at most 2 of each of the three others, 6 < 8. Counting
    # shows it before any search (which would spend its whole budget on it).
    pots = [list(range(p * 9, p * 9 + 9)) for p in range(4)]
    country = {t: f"C{t % 4}" for t in range(36)}
    with pytest.raises(LeaguePhaseImpossible) as refused:
        draw_league_phase(pots=pots, seed=1, country=country, country_cap=2)
    assert "can meet at most 6 teams under the caps; it needs 8" in refused.value.reason


def test_a_tight_field_is_drawn_by_restarting_in_smaller_attempts() -> None:
    # Nine countries of four, at most one of each: a team meets exactly one team of every other
    # country. One long search bogged down and refused it; restarts find a draw.
    pots = [list(range(p * 9, p * 9 + 9)) for p in range(4)]
    country = {t: f"C{t % 9}" for t in range(36)}
    draw = draw_league_phase(pots=pots, seed=1, country=country, country_cap=1)
    check(draw, pots, country, 1)
