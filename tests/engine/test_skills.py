"""Skills (A11): one test per skill, with its condition-point cost and timing."""

from __future__ import annotations

from typing import Any

from rules_engine import board as B
from rules_engine.skills import CATALOGUE, skill_weight

from .helpers import dec, pend, put_exact, roll, skip_free_moves, start

FILLERS = ["penalty_saver", "strength_in_depth", "short_passes", "fiery_coach"]


def hdr(
    home: list[str] = (), away: list[str] = (), adv: tuple[str, ...] = ("A1", "A11"), **kw: str
) -> dict[str, Any]:  # type: ignore[assignment]
    home, away = list(home), list(away)
    while skill_weight(home) != skill_weight(away):
        short = home if skill_weight(home) < skill_weight(away) else away
        short.append(next(f for f in FILLERS if f not in home and f not in away))
    teams: dict[str, Any] = {
        "home": {"name": "Otto", "formation": kw.get("home_f", "4-4-2"), "skills": home},
        "away": {"name": "Santeri", "formation": kw.get("away_f", "4-4-2"), "skills": away},
    }
    return {"advanced_rules": list(adv), "teams": teams}


def scene(
    h: dict[str, Any],
    home: dict[str, int],
    away: dict[str, int],
    ball: str,
    value: int,
    home_gk: str = "H-PEN",
    away_gk: str = "A-PEN",
    ct: str = "home",
):  # type: ignore[no-untyped-def]
    m = start(h, ct=ct)
    put_exact(m, "home", home, gk=home_gk)
    put_exact(m, "away", away, gk=away_gk)
    m.st.ball = m.st.flags.start = m.st.flags.target = B.INDEX[ball]
    m.st.value = value
    return m


def act(m, team: str) -> None:  # type: ignore[no-untyped-def]
    """Play within the ball area; `team` acts first (value must be 2..5 after stage 1)."""
    dec(m, "target_area", B.NAMES[m.st.ball])
    ct = B.TEAM_NAMES[m.st.ct]
    roll(m, "situation", *((6, 5) if team == ct else (5, 1)))
    while pend(m)[1] in ("use_skill", "free_move", "skill_move"):
        dec(m, pend(m)[1], "no" if pend(m)[1] == "use_skill" else "done")
    assert pend(m) == ("decision", "action", team), m.pending()


def cp(m, team: str) -> int:  # type: ignore[no-untyped-def]
    return m.st.teams[B.TEAM_NAMES.index(team)].cp_total()


ATTACK = {"A-PEN": 2, "A-FRONT": 2, "CENTRE": 6}
DEFEND = {"A-PEN": 1, "A-FRONT": 3, "CENTRE": 6}


def test_catalogue_costs_and_double_weight() -> None:
    assert len(CATALOGUE) == 38
    assert CATALOGUE["tackler"][0] == 0 and CATALOGUE["stopper"][0] == 1
    assert CATALOGUE["shot_stopper"][1] and CATALOGUE["clinical_finisher"][1] and CATALOGUE["fanatic_fans"][1]
    assert skill_weight(["shot_stopper", "runner"]) == 3


def test_clinical_finisher() -> None:
    m = scene(hdr(["clinical_finisher"]), ATTACK, DEFEND, "A-PEN", 3)
    act(m, "home")
    m.st.value = 5
    dec(m, "action", "goal_attempt")
    before = cp(m, "home")
    dec(m, "use_skill", "clinical_finisher")
    assert cp(m, "home") == before - 1
    roll(m, "goal_attempt", 5)  # 5 + 0 (area) + 1 (more in penalty area) + 1 (skill) = 7 > 5
    assert m.st.score() == [1, 0]


def test_aggressive_striker() -> None:
    m = scene(hdr(["aggressive_striker"]), ATTACK, DEFEND, "A-PEN", 3)
    act(m, "home")
    dec(m, "action", "goal_attempt")
    dec(m, "use_skill", "aggressive_striker")
    roll(m, "goal_attempt", 2)  # 1-2: yellow card and a free kick for the defending team
    assert m.st.teams[0].yellows == 1 and m.st.ct == 1


def test_trained_special_event() -> None:
    m = scene(hdr(["trained_special_event"]), ATTACK, DEFEND, "A-PEN", 3)
    act(m, "home")
    m.st.flags.restart = "corner"
    dec(m, "action", "goal_attempt")
    assert pend(m) == ("decision", "use_skill", "home")
    dec(m, "use_skill", "trained_special_event")
    assert pend(m) == ("roll", "goal_attempt", "home")


def test_shot_stopper() -> None:
    m = scene(hdr([], ["shot_stopper"]), ATTACK, DEFEND, "A-PEN", 3)
    act(m, "home")
    dec(m, "action", "goal_attempt")
    dec(m, "use_skill", "shot_stopper")
    p = m.pending()
    assert p is not None and p.name == "goal_attempt" and p.dice == 2
    m.st.value = 4
    roll(m, "goal_attempt", 6, 1)  # the highest result is discarded: 1 + 1 = 2 -> miss
    assert m.st.ct == 1


def test_leading_goalkeeper() -> None:
    m = scene(hdr([], ["leading_goalkeeper"]), ATTACK, DEFEND, "A-PEN", 3)
    act(m, "home")
    m.st.flags.restart = "free_kick"
    dec(m, "action", "goal_attempt")
    dec(m, "use_skill", "leading_goalkeeper")
    assert m.pending().dice == 2  # type: ignore[union-attr]


def test_penalty_saver() -> None:
    from rules_engine.setpieces import penalty

    m = scene(hdr([], ["penalty_saver"], adv=("A11",)), ATTACK, DEFEND, "A-PEN", 3)
    m._drive(penalty(m, 0))  # drive the penalty procedure directly
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 9}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 10}})
    dec(m, "setup_adjust", "done")
    dec(m, "penalty_keeper", "left")
    dec(m, "penalty_shot", "right")
    assert m.pending().dice == 2  # type: ignore[union-attr]


def test_sweeper_keeper() -> None:
    m = scene(
        hdr([], ["sweeper_keeper"], adv=("A1", "A5", "A11")),
        {"A-FRONT": 3, "CENTRE": 7},
        {"A-FRONT": 2, "A-LC": 8},
        "A-FRONT",
        2,
    )
    dec(m, "target_area", "A-PEN")
    v = m.st.value
    dec(m, "goalkeeper_charge", "yes")
    dec(m, "use_skill", "sweeper_keeper")
    assert m.st.value == min(6, v + 2)


def test_advancing_goalkeeper() -> None:
    m = scene(
        hdr([], ["advancing_goalkeeper"], adv=("A1", "A5", "A11")),
        {"A-LM": 3, "A-FRONT": 1, "CENTRE": 6},
        {"A-LM": 2, "A-LC": 8},
        "A-LM",
        2,
        away_gk="A-FRONT",
    )
    dec(m, "target_area", "A-FRONT")
    assert pend(m) == ("decision", "goalkeeper_charge", "away")
    before = cp(m, "away")
    dec(m, "goalkeeper_charge", "yes")
    assert cp(m, "away") == before - 1 and m.st.flags.attempt_bonus[0] == 0


def test_creative_goalkeeper() -> None:
    m = start(hdr(["creative_goalkeeper"]))
    put_exact(m, "home", {"H-PEN": 2, "H-FRONT": 8}, gk="H-PEN")
    m.st.ball = m.st.flags.start = B.H_PEN
    # the offer comes at the beginning of the turn: restart the turn's stage 1 on this position
    from rules_engine.flow import stage1

    m._drive(stage1(m))
    dec(m, "use_skill", "creative_goalkeeper")
    dec(m, "move", "H-FRONT>CENTRE")
    assert pend(m)[1] == "target_area"


def test_tackler() -> None:
    m = scene(
        hdr([], ["tackler"], adv=("A1", "A6", "A11")),
        {"A-FRONT": 3, "CENTRE": 7},
        {"A-FRONT": 2, "A-LC": 8},
        "A-FRONT",
        3,
    )
    act(m, "away")
    m.st.value = 3
    dec(m, "action", "aggressive_pressing")
    roll(m, "pressing", 4, 5)  # failed, dice not equal: no free kick, ball value not reduced
    assert m.st.ct == 0 and m.st.value == 3 and m.st.pending_restart is None


def test_stopper() -> None:
    m = scene(hdr([], ["stopper"]), {"A-FRONT": 2, "CENTRE": 8}, {"A-FRONT": 1, "A-LC": 9}, "A-FRONT", 3)
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 6, 3)
    dec(m, "use_skill", "stopper")
    assert m.st.value == 6  # highest die instead of the lowest


def test_skilled_full_back() -> None:
    m = scene(
        hdr([], ["skilled_full_back"], adv=("A1", "A7", "A11"), away_f="4-4-2"),
        {"CENTRE": 2, "A-FRONT": 1, "H-FRONT": 7},
        {"CENTRE": 2, "H-LM": 1, "H-FRONT": 7},
        "CENTRE",
        2,
    )
    before = cp(m, "away")
    dec(m, "target_area", "A-FRONT")
    # second lowest player area: CENTRE (2 players) + one from the touching side area H-LM
    assert m.st.value == 2 - 1 + 3 and cp(m, "away") == before - 1


def test_doubling_up() -> None:
    m = scene(hdr([], ["doubling_up"]), {"A-FRONT": 2, "CENTRE": 8}, {"A-FRONT": 2, "A-LC": 8}, "A-FRONT", 3)
    act(m, "away")
    m.st.value = 1
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    dec(m, "use_cp", "yes")
    assert m.st.value == 4  # +2 dice, +1 condition point: the +2 limit does not apply


def test_short_passes() -> None:
    m = scene(hdr(["short_passes"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3)
    act(m, "home")
    m.st.value = 6
    dec(m, "action", "positioning")
    roll(m, "positioning", 1, 1)
    dec(m, "use_cp", "yes")
    assert m.st.value == 3


def test_offside_trap() -> None:
    m = scene(
        hdr([], ["offside_trap"], adv=("A1", "A7", "A11"), away_f="3-5-2"),
        {"CENTRE": 2, "A-FRONT": 1, "H-FRONT": 7},
        {"CENTRE": 4, "H-LM": 3, "H-RM": 3},
        "CENTRE",
        2,
    )
    dec(m, "target_area", "A-FRONT")  # offside risk
    roll(m, "situation", 5, 1)  # only one die successful
    dec(m, "use_skill", "offside_trap")
    assert m.st.ct == 1 and m.st.teams[0].yellows == 0


def test_skilled_wing_backs() -> None:
    m = scene(
        hdr([], ["skilled_wing_backs"]), {"A-FRONT": 2, "CENTRE": 8}, {"A-FRONT": 2, "A-LC": 8}, "A-FRONT", 3
    )
    act(m, "away")
    m.st.value = 4
    dec(m, "action", "pressing")
    roll(m, "pressing", 1, 2)
    dec(m, "use_skill", "skilled_wing_backs")
    dec(m, "skill_ball_area", "A-LC")
    assert m.st.ball == B.A_LC and m.st.ct == 1


def test_fast_defender_runner_box_to_box() -> None:
    for skill, move in (
        ("fast_defender", "H-LM>H-LC"),
        ("runner", "CENTRE>A-FRONT"),
        ("box_to_box_midfielder", "CENTRE>H-FRONT"),
    ):
        m = scene(
            hdr([skill]),
            {"CENTRE": 2, "H-LM": 2, "H-FRONT": 6},
            {"CENTRE": 3, "H-LM": 3, "A-FRONT": 4},
            "CENTRE",
            3,
        )
        dec(m, "target_area", "CENTRE")
        roll(m, "situation", 6, 5)
        while pend(m)[1] == "use_skill":
            dec(m, "use_skill", "no")
        before = cp(m, "home")
        dec(m, "free_move", move)  # no outnumbering there: only the skill allows it
        assert cp(m, "home") == before - 1, skill


def test_catenaccio() -> None:
    m = scene(
        hdr([], ["catenaccio"]),
        {"CENTRE": 3, "H-FRONT": 7},
        {"CENTRE": 3, "A-FRONT": 3, "A-LC": 4},
        "CENTRE",
        3,
    )
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)
    dec(m, "use_skill", "catenaccio")
    away = m.st.teams[B.TEAM_NAMES.index("away")]
    before = list(away.field)
    dec(m, "skill_move", "A-LC>A-LM")  # the second lowest player (A-LC, goalkeeper lowest)
    # One player of the back line moved up one area, and nobody else moved.
    assert away.field[B.INDEX["A-LC"]] == before[B.INDEX["A-LC"]] - 1 == 3
    assert away.field[B.INDEX["A-LM"]] == before[B.INDEX["A-LM"]] + 1 == 1
    assert sum(away.field) == sum(before)


def test_midfield_general() -> None:
    m = scene(
        hdr(["midfield_general"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3
    )
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)  # home would act first ...
    dec(m, "use_skill", "midfield_general")
    skip_free_moves(m)
    assert pend(m)[2] == "away"  # ... the order is changed


def test_creative_midfielder() -> None:
    m = scene(
        hdr(["creative_midfielder"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3
    )
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 4)
    dec(m, "use_skill", "creative_midfielder")
    assert m.st.value == 3  # lower die 4 - 1


def test_mezzala() -> None:
    m = scene(hdr(["mezzala"]), {"A-LM": 3, "H-FRONT": 7}, {"A-LM": 3, "A-FRONT": 7}, "A-LM", 3)
    dec(m, "target_area", "A-LC")  # nobody there
    v = m.st.value
    roll(m, "situation", 6, 5)
    dec(m, "use_skill", "mezzala")
    assert m.st.value == 6 - 2 and v <= 5  # highest die (no player there), -1 per successful die


def test_midfield_pressing() -> None:
    m = scene(
        hdr([], ["midfield_pressing"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3
    )
    act(m, "away")
    m.st.value = 4
    before = cp(m, "away")
    dec(m, "action", "pressing")
    roll(m, "pressing", 4, 6)  # equal to the ball value succeeds
    assert m.st.ct == 1 and cp(m, "away") == before - 1


def test_crossing() -> None:
    m = scene(
        hdr(["crossing"]),
        {"A-LM": 2, "A-PEN": 1, "H-FRONT": 7},
        {"A-LM": 1, "A-LC": 1, "A-FRONT": 8},
        "A-LM",
        3,
    )
    before = cp(m, "home")
    dec(m, "target_area", "A-PEN")  # one area between, ignored: +0
    assert m.st.value == 3 and cp(m, "home") == before - 1


def test_regista() -> None:
    m = scene(
        hdr(["regista"]),
        {"CENTRE": 3, "A-FRONT": 1, "H-FRONT": 6},
        {"CENTRE": 1, "A-FRONT": 1, "A-LC": 8},
        "CENTRE",
        3,
    )
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 6, 2)
    dec(m, "use_skill", "regista")
    assert m.st.flags.regista == 0


def test_dribbler() -> None:
    m = scene(hdr(["dribbler"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 2, "A-FRONT": 8}, "CENTRE", 3)
    act(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    before = cp(m, "home")
    dec(m, "move", "CENTRE>H-LM+ball")  # defenders in CENTRE, but the dribbler may
    assert m.st.ball == B.H_LM
    while pend(m)[1] == "move":
        dec(m, "move", "done")
    assert cp(m, "home") == before - 1


def test_dribbler_pays_in_the_zone_it_dribbled_from() -> None:
    """A11 dribbler: the point is paid where the ball was when the skill was used (A1), so a
    dribble out of midfield into a zone where the team has no point left still costs the
    midfield point; listing the possible dribbles uses nothing."""
    m = scene(hdr(["dribbler"]), {"A-RM": 2, "H-FRONT": 8}, {"A-RM": 1, "A-LC": 9}, "A-RM", 3)
    home = m.st.teams[B.TEAM_NAMES.index("home")]
    home.cp[:] = [0, 1, 0]  # defence, midfield, attack: only the midfield point
    act(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    assert "A-RM>A-FRONT+ball" in m.pending().options  # type: ignore[union-attr]
    assert "home:dribbler" not in m.st.flags.skills_used  # offered, not yet used
    dec(m, "move", "A-RM>A-FRONT+ball")  # an away defender in A-RM: only the dribbler may
    while pend(m)[1] == "move":
        dec(m, "move", "done")
    assert m.st.ball == B.INDEX["A-FRONT"]
    assert home.field[B.INDEX["A-FRONT"]] == 1 and home.field[B.INDEX["A-RM"]] == 1
    assert home.cp == [0, 0, 0]  # the midfield point, not one from the empty attack zone
    assert "home:dribbler" in m.st.flags.skills_used


def test_dribbler_not_used_when_no_defender_is_passed() -> None:
    """A dribble out of an area without defenders needs no skill: no point, no use."""
    m = scene(hdr(["dribbler"]), {"A-RM": 2, "H-FRONT": 8}, {"A-LC": 10}, "A-RM", 3)
    home = m.st.teams[B.TEAM_NAMES.index("home")]
    before = list(home.cp)
    act(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    dec(m, "move", "A-RM>A-FRONT+ball")
    while pend(m)[1] == "move":
        dec(m, "move", "done")
    assert m.st.ball == B.INDEX["A-FRONT"]
    assert home.cp == before and "home:dribbler" not in m.st.flags.skills_used


def test_il_mediano() -> None:
    m = scene(hdr([], ["il_mediano"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3)
    act(m, "away")
    m.st.value = 3
    dec(m, "action", "positioning")
    roll(m, "positioning", 1, 1)
    dec(m, "use_cp", "no")
    skip_free_moves(m)
    dec(m, "action", "movement")
    roll(m, "movement", 1, 1)
    while pend(m)[1] == "move":
        dec(m, "move", "done")
    dec(m, "second_actions", "yes")
    assert "positioning" in m.pending().options  # type: ignore[union-attr]
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 1)
    dec(m, "use_cp", "no")
    assert m.st.value == 3 + 2  # one die + the skill's extra step


def test_target_man() -> None:
    m = scene(hdr(["target_man"]), {"A-FRONT": 1, "CENTRE": 9}, {"A-FRONT": 2, "A-LC": 8}, "CENTRE", 3)
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 6, 2)
    dec(m, "use_skill", "target_man")
    skip_free_moves(m)
    assert "pressing" not in m.pending().options  # type: ignore[union-attr]  # 2 against "3"


def test_goal_poacher() -> None:
    m = scene(
        hdr(["goal_poacher"]),
        {"A-FRONT": 2, "A-PEN": 1, "CENTRE": 7},
        {"A-FRONT": 2, "A-LC": 8},
        "A-FRONT",
        3,
    )
    dec(m, "target_area", "A-PEN")
    v = m.st.value
    roll(m, "situation", 6, 2)
    dec(m, "use_skill", "goal_poacher")
    roll(m, "goal_poacher", 6)
    skip_free_moves(m)
    assert pend(m)[2] == "home" and m.pending().options == ("goal_attempt",)  # type: ignore[union-attr]
    assert v


def test_diver() -> None:
    m = scene(
        hdr(["diver"], adv=("A1", "A11", "A13")),
        {"A-FRONT": 2, "CENTRE": 8},
        {"A-FRONT": 2, "A-LC": 8},
        "A-FRONT",
        3,
    )
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 4, 4)
    dec(m, "use_skill", "diver")
    roll(m, "diver", 5)  # free kick for the diver's team, opponent rolls for a yellow (+1)
    assert pend(m) == ("roll", "yellow_test", "away")


def test_seconda_punta() -> None:
    m = scene(hdr(["seconda_punta"]), {"A-FRONT": 2, "CENTRE": 8}, {"A-FRONT": 2, "A-LC": 8}, "A-FRONT", 3)
    dec(m, "target_area", "A-FRONT")
    roll(m, "situation", 6, 5)
    dec(m, "use_skill", "seconda_punta")
    assert pend(m)[1] == "target_area" and m.st.turn == 2


def test_trained_formation_change() -> None:
    m = scene(
        hdr(["trained_formation_change"]),
        {"CENTRE": 3, "H-FRONT": 7},
        {"CENTRE": 3, "A-FRONT": 7},
        "CENTRE",
        3,
    )
    act(m, "home")
    m.st.value = 1
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    dec(m, "use_cp", "no")
    skip_free_moves(m)
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    dec(m, "second_actions", "no")
    dec(m, "use_skill", "trained_formation_change")
    dec(m, "formation_change", "defence>forward")
    dec(m, "formation_change", "midfield>forward")
    assert m.st.teams[0].formation == [3, 3, 4]
    assert "trained_formation_change" in m.st.teams[0].used_once


def test_strength_in_depth() -> None:
    from rules_engine.substitutions import substitutions

    m = scene(
        hdr(["strength_in_depth"], adv=("A1", "A3", "A11")),
        {"CENTRE": 3, "H-FRONT": 7},
        {"CENTRE": 3, "A-FRONT": 7},
        "CENTRE",
        3,
    )
    m.st.clock = 30
    m.st.teams[0].cp = [1, 1, 1]
    m._drive(substitutions(m, at_setup=False))
    dec(m, "substitutions", 1)
    dec(m, "substitution", "fresh:defence")
    roll(m, "fresh_player", 2, 3)  # (5 - 2) x 10 = 30, not higher than 30: two points
    assert m.st.teams[0].cp[0] == 3


def test_great_condition() -> None:
    m = scene(
        hdr(["great_condition"]),
        {"CENTRE": 3, "H-LM": 3, "H-FRONT": 4},
        {"CENTRE": 3, "A-FRONT": 7},
        "CENTRE",
        3,
    )
    act(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 6, 1)
    dec(m, "use_cp", "yes")
    n = 0
    while pend(m)[1] == "move":
        dec(m, "move", m.pending().options[0])  # type: ignore[union-attr]
        n += 1
    assert n == 7  # higher die 6 + 1


def test_fanatic_fans() -> None:
    m = scene(hdr(["fanatic_fans"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3)
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)
    dec(m, "use_skill", "fanatic_fans")
    roll(m, "fanatic_fans", 2)
    assert m.st.value == 2


def test_gegenpressing() -> None:
    m = scene(hdr(["gegenpressing"]), {"A-FRONT": 2, "CENTRE": 8}, {"A-FRONT": 2, "A-LC": 8}, "A-FRONT", 3)
    act(m, "away")
    m.st.value = 4
    dec(m, "action", "pressing")
    roll(m, "pressing", 1, 5)  # won with the higher die: ball value 5
    assert m.st.ct == 1
    dec(m, "use_skill", "gegenpressing")
    roll(m, "pressing", 1, 2)  # counter-press: not an action
    assert m.st.ct == 0


def test_fiery_coach() -> None:
    m = scene(hdr(["fiery_coach"]), {"CENTRE": 3, "H-FRONT": 7}, {"CENTRE": 3, "A-FRONT": 7}, "CENTRE", 3)
    act(m, "home")
    m.st.value = 6
    dec(m, "action", "positioning")
    roll(m, "positioning", 5, 6)
    before = cp(m, "home")
    dec(m, "use_cp", "yes")
    roll(m, "fiery_coach", 5)  # 4-6: the condition point is not discarded
    assert cp(m, "home") == before
