"""The backtest of bench/bench_forecast.py is honest: a match's forecasts depend only on the
matches before it (changing later results changes none of them), for every forecaster."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_forecast.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_forecast", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_forecast"] = module
    spec.loader.exec_module(module)
    return module


class _Engine:
    """Set-up terms from the formation alone (what the engine sees: never a result)."""

    def terms(self, home: dict, away: dict) -> tuple[float, float, float, float, float]:
        h, a = int(home["formation"][0]), int(away["formation"][0])
        return 1.0 + 0.1 * h, 1.0 + 0.1 * a, 0.02 * (h - 4), 0.02 * (a - 4), 1.4


def _data(bf: ModuleType, seed: int, n: int = 40):
    rng = random.Random(seed)
    data = bf.Dataset("synthetic", "fuba-3", [])
    for _ in range(n):
        h, a = rng.sample(range(6), 2)
        data.matches.append(
            bf.Match(
                h,
                a,
                {"formation": "4-4-2"},
                {"formation": "5-3-2"},
                rng.randint(0, 3),
                rng.randint(0, 3),
                1.0,
            )
        )
    return data


def test_a_forecast_uses_only_the_matches_before_it() -> None:
    bf = _bench()
    data = _data(bf, 1)
    first = bf.backtest(data, _Engine())
    assert set(first) == set(bf.FORECASTERS) and all(len(f) == len(data.matches) for f in first.values())
    cut = 25
    for m in data.matches[cut:]:  # other results from the 26th match on
        m.home_goals, m.away_goals = m.away_goals + 2, m.home_goals
    second = bf.backtest(data, _Engine())
    for name in bf.FORECASTERS:
        assert first[name][: cut + 1] == second[name][: cut + 1], name
        assert first[name][cut + 1 :] != second[name][cut + 1 :] or name == "engine only", name
