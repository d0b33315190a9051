"""Rules that differed from the text of rulebook 3: each test quotes
the chapter and the sentence it pins, and drives the match through the public
entry points (``rules_engine.api`` and the scenario helpers)."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine import board as B
from rules_engine.api import IllegalEventError, Roll, event_from_dict, new_match
from rules_engine.skills import skill_weight

from .helpers import ball, controlling, dec, pend, put_exact, roll, start, team_state

FILLERS = ("penalty_saver", "strength_in_depth", "short_passes", "great_condition")


def hdr(home: tuple[str, ...] = (), away: tuple[str, ...] = (), adv: tuple[str, ...] = ("A1", "A11")) -> Any:
    """A header with equal skill weights (A11), padded with skills that change nothing here."""
    h, a = list(home), list(away)
    while skill_weight(h) != skill_weight(a):
        short = h if skill_weight(h) < skill_weight(a) else a
        short.append(next(f for f in FILLERS if f not in h and f not in a))
    return {
        "advanced_rules": list(adv),
        "teams": {
            "home": {"name": "Otto", "formation": "4-4-2", "skills": h},
            "away": {"name": "Santeri", "formation": "4-4-2", "skills": a},
        },
    }


# ------------------------------------------------------------------ Diver (A11)
def _diver_free_kick(yellow_die: int) -> Any:
    """The home diver plays into A-FRONT (its attacking zone); the situation dice
    are equal (a special event) and the diver's die is 4-6."""
    m = start(hdr(("diver",), adv=("A1", "A4", "A11", "A13")))
    put_exact(m, "home", {"A-FRONT": 2, "CENTRE": 8}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 2, "A-LC": 8}, gk="A-PEN")
    ball(m, "A-FRONT", 3)
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 4, 4)
    dec(m, "use_skill", "diver")
    roll(m, "diver", 5)
    assert pend(m) == ("roll", "yellow_test", "away")
    roll(m, "yellow_test", yellow_die)
    return m


def test_diver_adds_one_to_the_opponents_yellow_card_die_a11() -> None:
    # A11 Diver, 4-6: "Instead of a special event the diver's team is awarded a free kick.
    # The opponent must roll for a yellow card with a +1 die roll modifier."
    # A rolled 2 becomes 3: "Yellow card if the target area is at least partly on that
    # team's side of the pitch" (5.6.1) - A-FRONT is on the opponent's side.
    m = _diver_free_kick(2)
    assert team_state(m, "away").yellows == 1
    m = _diver_free_kick(1)  # 1 + 1 = 2: "1-2: No card"
    assert team_state(m, "away").yellows == 0


def test_diver_modified_six_is_the_six_row_of_the_yellow_card_test_a11() -> None:
    # 5.6.1: "6: Yellow card and a red card test with +1 yellow card modifier; opponent
    # suffers an injury" - a rolled 5 with the diver's +1 is that 6.
    m = _diver_free_kick(5)
    assert team_state(m, "away").yellows == 1
    assert pend(m) == ("roll", "red_test", "away")
    roll(m, "red_test", 1)  # 1 < 1 yellow + 1: a direct red (5.6.2, I-10)
    assert team_state(m, "away").reds == ["direct"]
    dec(m, "sent_off_player", "A-LC")
    assert pend(m) == ("decision", "injured_player", "home")  # "opponent suffers an injury"


# ------------------------------------------------------------ Gegenpressing (A11)
def _press_won_in(area: str) -> Any:
    """Home (with gegenpressing) has the ball in ``area``; away presses first and wins it."""
    m = start(hdr(("gegenpressing",)))
    put_exact(m, "home", {area: 2, "CENTRE" if area != "CENTRE" else "H-FRONT": 8}, gk="H-PEN")
    put_exact(m, "away", {area: 2, "A-LC": 8}, gk="A-PEN")
    ball(m, area, 5)
    dec(m, "target_area", area)
    roll(m, "situation", 6, 4)  # control kept (new ball value 4), the defending team acts first
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "pressing")
    roll(m, "pressing", 1, 5)
    assert controlling(m) == "away"
    return m


def test_gegenpressing_only_after_pressing_fully_on_the_pressing_teams_side_a11() -> None:
    # A11 Gegenpressing: "If the opponent has made a successful pressing action in an area that
    # is fully on their side of the pitch, the team can immediately make a counter-press."
    m = _press_won_in("A-FRONT")  # the away team's side: offered
    assert pend(m) == ("decision", "use_skill", "home")
    assert m.pending().options == ("gegenpressing", "no")  # type: ignore[union-attr]
    for area in ("H-FRONT", "H-LM", "CENTRE"):  # the home half, and the area across the halfway line
        m = _press_won_in(area)
        assert pend(m, raw=True)[1] != "use_skill", area


# ------------------------------------------------------------ Momentum (A13 4-5)
def _momentum() -> Any:
    """Home plays into A-LM (two players of each team there); the special event is
    Momentum; home acts first."""
    m = start({"advanced_rules": ["A13"], "teams": hdr()["teams"]})
    put_exact(m, "home", {"CENTRE": 6, "A-LM": 2, "H-FRONT": 2}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-LM": 2, "A-FRONT": 5}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "A-LM")
    roll(m, "situation", 4, 4)
    roll(m, "special_event", 4, 5)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    assert pend(m) == ("decision", "action", "home")
    return m


def _dribble(m: Any) -> None:
    roll(m, "movement", 3, 3)
    dec(m, "move", "A-LM>A-LC+ball")  # past the two defenders in A-LM


def test_momentum_dribble_with_movement_as_first_action_a13() -> None:
    # A13 4-5 Momentum: "The controlling team (after the control check) can dribble (4.5.2)
    # regardless of the position of the defending team's players if it chooses a movement
    # action for its first action."
    m = _momentum()
    dec(m, "action", "movement")
    _dribble(m)
    assert m.st.ball == B.A_LC


def test_momentum_not_for_a_movement_as_second_action_a13() -> None:
    m = _momentum()
    dec(m, "action", "positioning")
    roll(m, "positioning", 3, 3)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "positioning")  # the away team's first action
    roll(m, "positioning", 3, 3)
    dec(m, "second_actions", "yes")
    dec(m, "action", "movement")
    with pytest.raises(IllegalEventError, match=r"defending players in A-LM \(4\.5\.2\)"):
        _dribble(m)


# ------------------------------------------- A11 footnote 2: tackler, stopper, doubling up
# "2 This skill cannot be used if the goalkeeper is the only player of the defending team in
# the ball area."
def _in_away_box(skills: tuple[str, ...], away_defender: bool, value: int, dice: tuple[int, int]) -> Any:
    """Home plays within the away penalty area, where the away team has its goalkeeper
    (and one defender if ``away_defender``)."""
    m = start(hdr((), skills, adv=("A1", "A6", "A11")))
    put_exact(m, "home", {"A-PEN": 1, "A-FRONT": 1, "CENTRE": 8}, gk="H-PEN")
    away = {"A-PEN": 1, "A-LC": 9} if away_defender else {"A-FRONT": 1, "A-LC": 9}
    put_exact(m, "away", away, gk="A-PEN")
    ball(m, "A-PEN", value)
    dec(m, "target_area", "A-PEN")
    roll(m, "situation", *dice)
    return m


def test_stopper_not_with_only_the_goalkeeper_in_the_ball_area_a11_footnote_2() -> None:
    m = _in_away_box(("stopper",), away_defender=True, value=3, dice=(6, 3))
    assert pend(m) == ("decision", "use_skill", "away")
    m = _in_away_box(("stopper",), away_defender=False, value=3, dice=(6, 3))
    assert pend(m, raw=True)[1] != "use_skill" and m.st.value == 3  # the lowest die


def test_tackler_not_with_only_the_goalkeeper_in_the_ball_area_a11_footnote_2() -> None:
    # Tackler: "the opponent is awarded a free kick only if the pressing dice results are equal"
    m = _in_away_box(("tackler",), away_defender=False, value=5, dice=(6, 4))
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "aggressive_pressing")  # the keeper alone: one player fewer (A6)
    roll(m, "pressing", 5, 6)  # failed, dice not equal
    assert pend(m) == ("roll", "yellow_test", "away")  # the normal A6 outcome, no tackler


def test_doubling_up_not_with_only_the_goalkeeper_in_the_ball_area_a11_footnote_2() -> None:
    # Doubling up: "the maximum increase limit of +2 does not apply"
    for defender, asked in ((True, True), (False, False)):
        m = _in_away_box(("doubling_up",), away_defender=defender, value=3, dice=(5, 2))
        while pend(m)[1] == "free_move":
            dec(m, "free_move", "done")
        dec(m, "action", "positioning")
        roll(m, "positioning", 6, 6)  # two steps already: only doubling up allows a third
        assert (pend(m, raw=True)[1] == "use_cp") is asked, defender


# ---------------------------------------------------------------- Fiery coach (A11)
def _fiery_point(adv: tuple[str, ...] = ("A1", "A11")) -> Any:
    """Home (fiery coach) positions and spends a condition point for the action."""
    m = start(hdr(("fiery_coach",), adv=adv))
    put_exact(m, "home", {"CENTRE": 3, "H-FRONT": 7}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    ball(m, "CENTRE", 5)
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)  # both dice succeed: home acts first, ball value 5
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)  # no step: a condition point buys one
    dec(m, "use_cp", "yes")
    return m


def test_fiery_coach_can_be_declined_a11() -> None:
    # A11 Fiery coach: "The fiery coach skill can be played when the team spends a condition
    # point to boost an action (not for skills). The team rolls a die. If the result is a 4,
    # 5 or 6 the condition point is not discarded. With the result of a 1 the referee removes
    # the coach from the match."
    m = _fiery_point()
    p = m.pending()
    assert p is not None and (p.kind, p.name, p.actor) == ("decision", "play_fiery_coach", "home")
    assert p.options == ("yes", "no") and p.default == "yes"
    cp = team_state(m, "home").cp_total()
    dec(m, "play_fiery_coach", "no")  # no die: the point is spent, the coach cannot be sent off
    assert team_state(m, "home").cp_total() == cp - 1
    assert pend(m, raw=True)[1] != "fiery_coach"
    m = _fiery_point()
    dec(m, "play_fiery_coach", "yes")
    roll(m, "fiery_coach", 1)
    assert team_state(m, "home").coach_sent_off


def test_fiery_coach_logs_without_the_offer_still_replay() -> None:
    # Logs written when the coach was always played roll the die at once: the offer's default
    # ("yes") is taken when the next event is that roll.
    m = _fiery_point()
    m.apply(Roll("fiery_coach", "home", (5,)))
    assert team_state(m, "home").cp_total() == 10  # 4-4-2 starts with 10 points; a 4-6 keeps the point
    # a log leaves the default out and writes the refusal; a replay of it matches the match
    m = _fiery_point()
    dec(m, "play_fiery_coach", "no")
    events = m.to_log()["events"]
    assert {"decide": "play_fiery_coach", "by": "home", "choice": "no"} in events
    replay = new_match(m.to_log())
    for e in events:
        replay.apply(event_from_dict(e))
    assert replay.pending().name == m.pending().name  # type: ignore[union-attr]
    assert team_state(replay, "home").cp_total() == team_state(m, "home").cp_total()
    played = _fiery_point()
    dec(played, "play_fiery_coach", "yes")
    roll(played, "fiery_coach", 4)
    assert all(e.get("decide") != "play_fiery_coach" for e in played.to_log()["events"])


def test_coaches_answer_the_fiery_coach_offer() -> None:
    import random

    from rules_engine.coaches import HeuristicCoach, RandomCoach

    m = _fiery_point(adv=("A1", "A3", "A11"))
    p = m.pending()
    assert p is not None
    heuristic = HeuristicCoach(random.Random(1))
    assert heuristic.choose(m, p) == "no"  # ten points and three substitutions to come
    assert not heuristic.unknown_decisions
    team_state(m, "home").cp[:] = [1, 1, 1]
    assert heuristic.choose(m, p) == "yes"  # short of points: a 4-6 saves one
    assert RandomCoach(random.Random(1)).choose(m, p) in ("yes", "no")


# ------------------------------------------------------------ Penalty table (5.5.2, I-9)
# 5.5.2: "A goal is scored if the die result is the same or higher than the value shown in the
# table." Rulebook 3 lost the table; the 2.x text (seed 000) renders it twice:
#   line 649: "REOUIRED DIE RESULT FOR A GOAL GOALKEEPER SHOOTING Guess to No **Guess to PLAYER**
#              left Guess right Kick to 7+ ñ left Kick to middle Kick to 2+ հ 2+ right"
#   lines 898-901: "Kick to right	Kick to middle	Kick to left	SHOOTING
#                   6	+	2+	GC Guess to
#                   2+	6	2+	GOALKEEPER No Guess
#                   2+	-	6	ER Guess to"
# I-9 reads the grid: 6 where the keeper dives (or stays) to the kick's side, 2 everywhere else.
def _penalty(keeper: str, shot: str) -> Any:
    m = start({"advanced_rules": ["A13"], "teams": hdr()["teams"]})
    put_exact(m, "home", {"CENTRE": 4, "A-FRONT": 3, "A-PEN": 1, "H-FRONT": 2}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 2, "A-LC": 2, "A-RC": 2, "CENTRE": 1}, gk="A-PEN")
    ball(m, "A-FRONT", 3)
    dec(m, "target_area", "A-PEN")
    roll(m, "situation", 3, 3)
    roll(m, "special_event", 3, 1)  # defender's foul in the penalty area: a penalty kick (5.2)
    roll(m, "yellow_test", 1)
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 9}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 10}})
    dec(m, "setup_adjust", "done")
    dec(m, "penalty_keeper", keeper)
    dec(m, "penalty_shot", shot)
    return m


def _scores(keeper: str, shot: str, die: int) -> bool:
    m = _penalty(keeper, shot)
    roll(m, "penalty", die)
    return bool(team_state(m, "home").goals)


@pytest.mark.parametrize("side", ["left", "right"])
def test_penalty_side_kick_against_a_keeper_who_does_not_guess_needs_2_5_5_2(side: str) -> None:
    # grid row "2+ 6 2+ ... No Guess": kick to right 2+, kick to left 2+
    assert _scores("middle", side, 2) and not _scores("middle", side, 1)


def test_penalty_middle_kick_against_a_keeper_who_does_not_guess_needs_6_5_5_2() -> None:
    # grid row "2+ 6 2+ ... No Guess": kick to middle 6 (the engine required a 7: no goal possible)
    assert _scores("middle", "middle", 6) and not _scores("middle", "middle", 5)


@pytest.mark.parametrize("side", ["left", "right"])
def test_penalty_keeper_diving_to_the_kicks_side_needs_6_other_side_2_5_5_2(side: str) -> None:
    # grid rows "6 + 2+" and "2+ - 6": 6 on the side the keeper guessed, 2+ on the other
    other = "right" if side == "left" else "left"
    assert _scores(side, side, 6) and not _scores(side, side, 5)
    assert _scores(side, other, 2) and not _scores(side, other, 1)
    # the garbled middle cells ("+", "-") read as the grid's other off-diagonal cells: 2+
    assert _scores(side, "middle", 2) and not _scores(side, "middle", 1)


# --------------------------------------------- found in the re-read of A11
def test_midfield_pressing_costs_nothing_in_an_aggressive_pressing_a11() -> None:
    # A11 Midfield pressing: "the pressing action is successful even if the die result equals
    # the ball value. If the pressing fails, there is no effect on the ball value." A6 already
    # wins on an equal die and a failed aggressive pressing is a free kick: nothing to pay for.
    m = start(hdr((), ("midfield_pressing",), adv=("A1", "A6", "A11")))
    put_exact(m, "home", {"CENTRE": 3, "H-FRONT": 7}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    ball(m, "CENTRE", 5)
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 4)  # control kept, ball value 4, the defending team acts first
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    before = team_state(m, "away").cp_total()
    dec(m, "action", "aggressive_pressing")
    roll(m, "pressing", 4, 6)  # an equal die wins an aggressive pressing (A6)
    assert controlling(m) == "away"
    assert team_state(m, "away").cp_total() == before - 1  # the aggressive pressing's point only


def test_trained_special_event_only_for_the_team_taking_the_set_piece_a11() -> None:
    # A11 Trained special event: "A team taking a free kick or a corner kick gets a +1 die roll
    # modifier for a goal attempt made in the same turn." Home takes a free kick in its own half;
    # away wins the ball by pressing and shoots in its second action: away took no free kick.
    m = start(hdr((), ("trained_special_event",)))
    put_exact(m, "home", {"H-FRONT": 2, "H-LC": 8}, gk="H-PEN")
    put_exact(m, "away", {"H-FRONT": 3, "CENTRE": 7}, gk="A-PEN")
    ball(m, "H-FRONT", 5)
    m.st.flags.restart = "free_kick"  # this turn began with home's free kick
    dec(m, "target_area", "H-FRONT")
    roll(m, "situation", 6, 4)  # control kept, ball value 4, the defending team acts first
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "pressing")
    roll(m, "pressing", 1, 5)
    assert controlling(m) == "away"
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "positioning")
    roll(m, "positioning", 3, 3)
    dec(m, "second_actions", "yes")
    dec(m, "action", "goal_attempt")
    assert pend(m, raw=True)[:2] == ("roll", "goal_attempt")  # no trained special event offer


# ------------------------------------- found in an independent reading of rulebook 3 (issue 23)
def test_a_team_left_without_points_after_a_passed_tiredness_test_is_tired_a1() -> None:
    # A1: "If a team has no condition points left after a tiredness test, then that team starts
    # to suffer tiredness" - whether it lost a point in that test or not.
    m = start(hdr(adv=("A1",)))
    m.st.clock = 30
    team_state(m, "home").cp = [0, 0, 0]
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 1)
    roll(m, "tiredness", 6, 6)  # 120 >= 35: passed
    assert team_state(m, "home").tired


def test_pressing_with_one_die_lower_and_one_equal_takes_the_higher_die_4_7_a6() -> None:
    # 4.7: "If only one die was lower, the higher pressing die value becomes the new ball value";
    # A6: aggressive pressing "is successful if the die result equals the ball value" - an equal
    # die wins, but it is not a lower one.
    m = start(hdr(adv=("A1", "A6")))
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 5, 1)  # control kept, the defending team acts first
    m.st.value = 5
    dec(m, "action", "aggressive_pressing")
    roll(m, "pressing", 5, 4)
    assert controlling(m) == "away" and m.st.value == 5


def test_gegenpressing_is_not_offered_when_no_pressing_is_possible_a11() -> None:
    # A11 Gegenpressing: "This is done according to the pressing rule" - 4.7 needs "at least an
    # equal number of players to the controlling team in the area where the ball is located".
    m = start(hdr(("gegenpressing",)))
    put_exact(m, "home", {"A-FRONT": 1, "CENTRE": 9}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-LC": 7}, gk="A-PEN")
    ball(m, "A-FRONT", 5)
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 6, 4)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    before = team_state(m, "home").cp_total()
    dec(m, "action", "pressing")
    roll(m, "pressing", 1, 5)
    assert controlling(m) == "away"
    assert pend(m, raw=True)[1] != "use_skill"  # one player against three: no counter-press
    assert team_state(m, "home").cp_total() == before


def test_at_a_kick_off_the_team_kicking_off_decides_substitutions_first_a3() -> None:
    # A3: "at the end of a turn both players can choose to make player substitutions when a new
    # setup occurs ... The controlling team makes the decision first." After a goal the conceding
    # team kicks off: it is the controlling team of the set-up (4.4: the scoring team defends).
    m = start(hdr(adv=("A3",)))
    put_exact(m, "home", {"A-PEN": 3, "CENTRE": 7}, gk="H-PEN")
    put_exact(m, "away", {"A-PEN": 1, "A-FRONT": 9}, gk="A-PEN")
    ball(m, "A-PEN", 3)
    dec(m, "target_area", "A-PEN")
    roll(m, "situation", 6, 5)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    m.st.value = 1
    dec(m, "action", "goal_attempt")
    roll(m, "goal_attempt", 6)
    assert m.st.score() == [1, 0]
    assert pend(m) == ("decision", "substitutions", "away")


def test_the_terrace_chant_point_is_for_the_first_action_only_a13() -> None:
    # A13 6-2 Terrace chant (CT): "The controlling team (after the control check) takes the first
    # action and can use a free condition point for that action (not for a skill)."
    m = start(hdr(adv=("A1", "A13")))
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    m.st.flags.free_cp = 0  # this turn's chant (the event itself: test_special_events)
    m.st.value = 3
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    dec(m, "use_cp", "no")  # the free point is not used in the first action ...
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "positioning")
    roll(m, "positioning", 1, 1)
    dec(m, "second_actions", "yes")
    dec(m, "action", "movement")
    roll(m, "movement", 1, 6)
    before = team_state(m, "home").cp_total()
    dec(m, "use_cp", "yes")
    assert team_state(m, "home").cp_total() == before - 1  # ... and is gone in the second


def test_the_goalkeeper_is_the_closest_player_when_it_is_closest_4_2_2_1_and_1_2() -> None:
    # 4.2.2.1: "it must move its closest player (one of them) to the target area"; 1.2: "A
    # goalkeeper counts as a player unless the rules state otherwise."
    m = start(hdr())
    put_exact(m, "home", {"A-LC": 10}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, gk="A-PEN")
    ball(m, "H-PEN", 3)
    dec(m, "target_area", "H-FRONT")
    roll(m, "situation", 6, 5)
    home = team_state(m, "home")
    assert home.gk == B.INDEX["H-FRONT"] and home.field[B.INDEX["A-LC"]] == 10


def test_regista_stops_free_movements_of_both_teams_into_the_target_area_a11() -> None:
    # A11 Regista: "no players can be moved by free player movements into the target area":
    # the controlling team's own players included.
    m = start(hdr(("regista",)))
    put_exact(m, "home", {"CENTRE": 3, "A-FRONT": 1, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 1, "A-FRONT": 1, "A-LC": 8}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 6, 5)  # both dice succeed: home acts first
    dec(m, "use_skill", "regista")
    assert pend(m) == ("decision", "free_move", "home")
    assert "CENTRE>A-FRONT" not in m.pending().options  # type: ignore[union-attr]
    with pytest.raises(IllegalEventError, match="regista"):
        m.apply(event_from_dict({"decide": "free_move", "by": "home", "choice": "CENTRE>A-FRONT"}))
