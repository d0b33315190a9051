from __future__ import annotations

import pytest

from tournaments.models import Skill

pytestmark = pytest.mark.django_db


def test_a11_catalog_is_loaded_by_the_migration() -> None:
    assert Skill.objects.count() == 38
    assert set(Skill.objects.filter(counts_as_two=True).values_list("name", flat=True)) == {
        "Shot stopper",
        "Fanatic fans",
        "Clinical finisher",
    }
    catenaccio = Skill.objects.get(name="Catenaccio")
    assert catenaccio.restriction == Skill.Restriction.WORLD_CUP_2019
    assert catenaccio.position_group == Skill.PositionGroup.DEFENDER
    assert "second lowest player" in catenaccio.chapter_text
    assert Skill.objects.get(name="Tackler").cp_cost == 0
    assert Skill.objects.filter(position_group=Skill.PositionGroup.TEAM).count() == 7
