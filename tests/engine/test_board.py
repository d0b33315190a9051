"""Board as data (rulebook 3, 1.4, 1.5, 3.3.1, 5.3), the board layout."""

from rules_engine import board as B


def n(*names: str) -> set[int]:
    return {B.INDEX[x] for x in names}


def test_thirteen_areas_four_per_side_five_in_the_middle() -> None:
    # 1.4 "13 areas, 4 on each side and 5 in the middle"
    assert B.N_AREAS == 13
    left = [a for a in range(13) if B.COL[a] == 0]
    right = [a for a in range(13) if B.COL[a] == 2]
    middle = [a for a in range(13) if B.COL[a] == 1]
    assert (len(left), len(right), len(middle)) == (4, 4, 5)


def test_zones_of_1_5() -> None:
    assert n("H-LM", "H-RM", "CENTRE", "A-LM", "A-RM") == B.MIDFIELD_ZONE  # touching the halfway line
    assert B.DEFENCE_ZONE[0] & set(range(13)) == n("H-PEN", "H-LC", "H-RC", "H-FRONT")
    assert B.ATTACK_ZONE[0] == B.DEFENCE_ZONE[1]  # "also the opponent's defence zone"
    assert B.zone_of(0, B.A_PEN) == B.ZONE_FWD and B.zone_of(1, B.A_PEN) == B.ZONE_DEF


def test_adjacency_by_shared_edges() -> None:
    adj = {B.NAMES[a]: {B.NAMES[b] for b in B.ADJ[a]} for a in range(B.N_LOC)}
    assert adj["H-PEN"] == {"H-LC", "H-RC", "H-FRONT"}
    assert adj["CENTRE"] == {"H-FRONT", "H-LM", "H-RM", "A-LM", "A-RM", "A-FRONT"}
    assert adj["A-FRONT"] == {"CENTRE", "A-LM", "A-RM", "A-LC", "A-RC", "A-PEN"}
    assert adj["H-LM"] == {"H-LC", "H-FRONT", "CENTRE", "A-LM"}
    assert "H-RC" not in adj["H-LC"]  # left and right columns never touch
    for a in range(B.N_LOC):  # symmetric
        for b in B.ADJ[a]:
            assert a in B.ADJ_SET[b]


def test_corner_spot_has_one_area_between_it_and_the_penalty_area() -> None:
    # 5.3 "there is one area between the penalty area and the corner of the pitch"
    for spot in B.CORNER_SPOTS:
        assert len(B.ADJ[spot]) == 1
    assert B.DIST[B.A_LCK][B.A_PEN] == 2
    assert B.DIST[B.H_RCK][B.H_PEN] == 2


def test_levels_offside_helpers() -> None:
    # A-LC (rows 9-11) is at least partly at the same level as A-FRONT (rows 8-9); A-PEN is beyond it
    assert not B.beyond(0, B.A_LC, B.A_FRONT)
    assert B.beyond(0, B.A_PEN, B.A_FRONT)
    assert B.beyond(1, B.H_PEN, B.H_FRONT)
    assert B.backward(0, B.A_PEN, B.A_FRONT) and not B.backward(0, B.A_FRONT, B.A_PEN)
    assert B.away_from_goal_line(B.A_LC, B.A_LM) and not B.away_from_goal_line(B.A_LC, B.A_FRONT)


def test_own_half_and_halfway() -> None:
    own_home = {B.NAMES[a] for a in range(13) if B.in_own_half_partly(0, a)}
    assert own_home == {"H-PEN", "H-LC", "H-RC", "H-FRONT", "H-LM", "H-RM", "CENTRE"}
    opp_home = {B.NAMES[a] for a in range(13) if B.in_opp_half_entirely(0, a)}
    assert opp_home == {"A-LM", "A-RM", "A-FRONT", "A-LC", "A-RC", "A-PEN"}


def test_goal_attempt_area_modifiers_table_4_4() -> None:
    # 0 penalty area, -2 front, -4 corners, -5 side midfield, -6* halfway areas (GK out only)
    mods = {B.NAMES[a]: B.area_modifier(0, a) for a in range(13)}
    assert mods["A-PEN"] == 0 and mods["A-FRONT"] == -2
    assert mods["A-LC"] == mods["A-RC"] == -4
    assert mods["A-LM"] == mods["A-RM"] == -5
    assert mods["CENTRE"] == mods["H-LM"] == mods["H-RM"] == -6
    assert mods["H-FRONT"] is None and mods["H-PEN"] is None
