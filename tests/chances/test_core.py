"""The Monte Carlo core on a real competition's scenario (hand-made match model, no engine)."""

from __future__ import annotations

import time

import pytest

from chances.core import Simulator, merge_counts, simulate_chunk
from league import demo
from tests.chances.helpers import scenario_with_model

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup() -> demo.Demo:
    return demo.build_world_cup(slug="mc-cup", play=False)


def _probabilities(counts: dict, key: str) -> dict[str, float]:
    return {t: c / counts["runs"] for t, c in counts[key].items()}


def test_chances_sum_to_one_per_team_and_per_position(cup: demo.Demo) -> None:
    scenario = scenario_with_model(cup.competition)
    counts = simulate_chunk(scenario, seed=1, chunk=0, runs=400)
    assert counts["runs"] == 400
    positions = counts["positions"][str(cup.groups_stage.id)]
    assert len(positions) == 32
    for hist in positions.values():
        assert sum(hist) == 400 and len(hist) == 4
    for group in cup.groups_stage.groups.all():
        members = [str(t) for t in group.teams.values_list("id", flat=True)]
        for pos in range(4):
            assert sum(positions[t][pos] for t in members) == 400
    assert sum(counts["champion"].values()) == 400
    assert sum(counts["qualified"].values()) == 16 * 400
    rounds = counts["rounds"]
    assert sum(rounds["Round of 16"].values()) == 16 * 400
    assert sum(rounds["Quarter-finals"].values()) == 8 * 400
    assert sum(rounds["Final"].values()) == 2 * 400


def test_a_stronger_team_has_better_chances(cup: demo.Demo) -> None:
    brazil = cup.teams["Brazil"].id
    scenario = scenario_with_model(cup.competition, strength={brazil: 2.0})
    counts = simulate_chunk(scenario, seed=2, chunk=0, runs=600)
    champion = _probabilities(counts, "champion")
    others = [p for t, p in champion.items() if t != str(brazil)]
    assert champion[str(brazil)] > 3 * max(others)


def test_chunks_merge_to_the_same_figures_in_any_order(cup: demo.Demo) -> None:
    scenario = scenario_with_model(cup.competition)
    parts = [simulate_chunk(scenario, seed=9, chunk=i, runs=50) for i in range(4)]
    assert merge_counts(parts) == merge_counts(list(reversed(parts)))
    assert simulate_chunk(scenario, seed=9, chunk=2, runs=50) == parts[2]
    assert simulate_chunk(scenario, seed=10, chunk=2, runs=50) != parts[2]


def test_a_worker_s_simulator_reused_across_chunks_gives_each_chunk_s_own_figures(
    cup: demo.Demo,
) -> None:
    # A worker keeps one Simulator per job: its caches must carry no draw from chunk to chunk.
    scenario = scenario_with_model(cup.competition)
    reused = Simulator(scenario)
    for chunk in (3, 0, 3, 1):
        assert reused.chunk(seed=9, chunk=chunk, runs=40) == simulate_chunk(
            scenario, seed=9, chunk=chunk, runs=40
        )


def test_speed_of_a_world_cup_run(cup: demo.Demo) -> None:
    scenario = scenario_with_model(cup.competition)
    started = time.perf_counter()
    simulate_chunk(scenario, seed=3, chunk=0, runs=200)
    per_run = (time.perf_counter() - started) / 200
    print(f"world cup run: {per_run * 1000:.2f} ms")
    assert per_run < 0.02
