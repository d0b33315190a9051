"""The simulator's dice (``rng.Dice``) draw their faces without CPython's interpreted
``_randbelow``: the faces must stay those of ``random.Random(seed).randint(1, sides)``, die for
die, so that a seed plays the same match (and app dice agree between server and phone)."""

from __future__ import annotations

import random

import pytest

from rules_engine.events import Pending
from rules_engine.rng import Dice, app_roll


def _roll(n: int, sides: int) -> Pending:
    return Pending("roll", "situation", "both", 1, 1, "4.2", dice=n, sides=sides)


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 7, 8, 12, 20])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_faces_are_those_of_randint(n: int, sides: int) -> None:
    for seed in (0, "dice:7", 12345):
        dice, ref = Dice(seed), random.Random(seed)
        for _ in range(200):
            roll = dice.roll_for(_roll(n, sides))
            assert roll.dice == tuple(ref.randint(1, sides) for _ in range(n))
            assert all(1 <= d <= sides for d in roll.dice)


def test_the_interpreted_path_draws_the_same_faces() -> None:
    fast, slow = Dice("same"), Dice("same")
    slow._by_bits = False  # the fallback for a Python whose randint draws otherwise
    for _ in range(300):
        p = _roll(2, 6)
        assert fast.roll_for(p).dice == slow.roll_for(p).dice


def test_app_dice_are_a_pure_function_of_seed_and_event() -> None:
    p = _roll(2, 6)
    assert app_roll(p, "s", 3).dice == app_roll(p, "s", 3).dice
    ref = random.Random("app-dice:s:3")
    assert app_roll(p, "s", 3).dice == (ref.randint(1, 6), ref.randint(1, 6))


def test_a_decision_is_not_rolled() -> None:
    with pytest.raises(ValueError, match="decision"):
        Dice(1).roll_for(Pending("decision", "action", "home", 1, 1, "4.3"))
