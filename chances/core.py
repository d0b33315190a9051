"""Monte Carlo of a competition's remaining fixtures (no database: a scenario in, counts out).

A *scenario* is a JSON-friendly dict built from the database (chances.scenario): the stages in
order with their rules, every fixture with its teams or slot sources and its counted result, and
the match model's goal rates. Each run plays every fixture without a result by drawing a score
from the match model, then applies the competition's rules through chances.rules: the tables
with the competition's tie-breaks (a drawing of lots inside a run is random, unless the lots for
exactly those teams were already drawn and recorded), best-placed thirds across groups and their
slots, knockout slots, extra time and shoot-outs, two-legged ties with away goals.

Runs are grouped in chunks with their own seed (``f"{seed}:{chunk}"``), so a chunk gives the
same counts on any worker and the merged figures do not depend on how chunks were spread.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from chances.match_model import pair_rates
from chances.rules import (
    Leg,
    MatchRecord,
    Points,
    Score,
    TieOutcome,
    level_after_goals,
    place_best_thirds,
    rank_across_groups,
    rank_table,
    slot_team,
    tie_decision,
)

MAX_GOALS = 12  # the Poisson tail beyond this is below 1e-6 for any rate the engine gives
Counts = dict[str, Any]


@dataclass
class _Fixture:
    id: int
    stage: int
    group: str | None
    round: int
    round_name: str
    match_number: int | None
    leg: int
    home: int | None
    away: int | None
    home_source: dict[str, Any] | None
    away_source: dict[str, Any] | None
    # home goals, away goals, home fair play, away fair play, a.e.t., home pens, away pens, awarded
    result: tuple[Any, ...] | None


@dataclass
class _Stage:
    id: int
    kind: str
    legs: int
    away_goals_rule: bool
    extra_time: bool
    penalties: bool
    advance_per_group: int
    best_thirds: int
    criteria: list[str]
    points: Points
    groups: dict[str, list[int]]  # "" for a round robin table
    lots: dict[str, list[int]]  # recorded draws: "<group>|<sorted ids>" -> order
    third_slots: dict[int, str]  # best-third slot -> the group whose winner it meets
    third_table: str  # "" or a placing table of tournaments.bracket.THIRDS_TABLES
    fixtures: list[_Fixture]


class _RunFeeds:
    """What one run decided so far, read by tournaments.bracket.slot_team to fill the slots."""

    def __init__(self) -> None:
        self.orders: dict[tuple[int, str], list[int]] = {}
        self.thirds: dict[int, dict[int, int]] = {}
        self.ties: dict[int, TieOutcome] = {}

    def group_order(self, stage: int, group: str) -> list[int] | None:
        return self.orders.get((stage, group))

    def best_thirds(self, stage: int) -> dict[int, int]:
        return self.thirds.get(stage, {})

    def tie(self, match: int) -> TieOutcome | None:
        return self.ties.get(match)

    def table_place(self, stage: int, place: int) -> int | None:
        # A knockout fed by a table's places is made once the table is final, with its teams; a
        # run does not rank tables, so a slot emptied by a later correction stays open here.
        return None


def new_counts() -> Counts:
    return {
        "runs": 0,
        "positions": {},
        "qualified": {},
        "rounds": {},
        "champion": {},
        "best": {},
        "worst": {},
    }


def merge_counts(parts: Sequence[Counts]) -> Counts:
    """Add chunk counts together (order-independent)."""
    out = new_counts()
    for part in parts:
        out["runs"] += part["runs"]
        for stage, teams in part["positions"].items():
            dest = out["positions"].setdefault(stage, {})
            for team, hist in teams.items():
                cur = dest.setdefault(team, [0] * len(hist))
                for i, c in enumerate(hist):
                    cur[i] += c
        for key in ("qualified", "champion"):
            for team, c in part[key].items():
                out[key][team] = out[key].get(team, 0) + c
        for name, teams in part["rounds"].items():
            dest = out["rounds"].setdefault(name, {})
            for team, c in teams.items():
                dest[team] = dest.get(team, 0) + c
        for key, pick in (("best", min), ("worst", max)):
            for stage, teams in part[key].items():
                dest = out[key].setdefault(stage, {})
                for team, pos in teams.items():
                    dest[team] = pick(dest[team], pos) if team in dest else pos
    return out


class Simulator:
    def __init__(self, scenario: dict[str, Any]) -> None:
        self.stages: list[_Stage] = []
        fixtures_by_stage: dict[int, list[_Fixture]] = {}
        for f in scenario["fixtures"]:
            fx = _Fixture(
                id=f["id"],
                stage=f["stage"],
                group=f.get("group"),
                round=f["round"],
                round_name=f.get("round_name", ""),
                match_number=f.get("match_number"),
                leg=f.get("leg", 1),
                home=f.get("home"),
                away=f.get("away"),
                home_source=f.get("home_source"),
                away_source=f.get("away_source"),
                result=tuple(f["result"]) if f.get("result") is not None else None,
            )
            fixtures_by_stage.setdefault(fx.stage, []).append(fx)
        for s in scenario["stages"]:
            fixtures = sorted(
                fixtures_by_stage.get(s["id"], []),
                key=lambda f: (f.round, f.match_number or 0, f.leg, f.id),
            )
            self.stages.append(
                _Stage(
                    id=s["id"],
                    kind=s["kind"],
                    legs=s.get("legs", 1),
                    away_goals_rule=s.get("away_goals_rule", False),
                    extra_time=s.get("extra_time", True),
                    penalties=s.get("penalties", True),
                    advance_per_group=s.get("advance_per_group", 0),
                    best_thirds=s.get("best_thirds", 0),
                    criteria=list(s.get("criteria") or ["points"]),
                    points=Points(*s.get("points", (3, 1, 0))),
                    groups={g: list(t) for g, t in (s.get("groups") or {}).items()},
                    lots=dict(s.get("lots") or {}),
                    third_slots={int(k): v for k, v in (s.get("third_slots") or {}).items()},
                    third_table=str(s.get("third_table") or ""),
                    fixtures=fixtures,
                )
            )
        self.model: dict[str, Any] = scenario["model"]
        self.knockouts = [s for s in self.stages if s.kind == "knockout"]
        self.last_stage = self.stages[-1] if self.stages else None
        self._cdf: dict[float, list[float]] = {}
        self._rates: dict[tuple[int, int, bool], tuple[float, float]] = {}
        self._static: dict[int, tuple[dict[str, list[MatchRecord]], list[tuple[int, int, str]]]] = {}

    # ------------------------------------------------------------------ match model

    def rates(self, home: int, away: int, home_ground: bool = False) -> tuple[float, float]:
        """Expected goals over 90 minutes of ``home`` and ``away`` (engine estimate, ratings,
        venue: a stage of two legs is played at the home side's ground, one leg at a neutral one)."""
        found = self._rates.get((home, away, home_ground))
        if found is None:
            found = self._rates[(home, away, home_ground)] = pair_rates(self.model, home, away, home_ground)
        return found

    def goals(self, rate: float, rng: random.Random) -> int:
        cdf = self._cdf.get(rate)
        if cdf is None:
            pmf = [math.exp(-rate) * rate**k / math.factorial(k) for k in range(MAX_GOALS + 1)]
            cdf = list(accumulate(pmf))
            cdf[-1] = 1.0
            self._cdf[rate] = cdf
        return bisect_left(cdf, rng.random())

    def chunk(self, *, seed: int, chunk: int, runs: int) -> Counts:
        """``runs`` runs with the chunk's own random stream. A simulator plays any number of
        chunks: its caches (rates, goal tables, counted results) hold no draw, so a chunk gives
        the same counts on a fresh simulator as on one that played others before it."""
        rng = random.Random(f"{seed}:{chunk}")
        tally = new_counts()  # keyed by int team ids while running
        for _ in range(runs):
            self.run(rng, tally)
        return _as_json(tally)

    # ------------------------------------------------------------------ one run

    def run(self, rng: random.Random, counts: Counts) -> dict[int, tuple[int, int]]:
        """Play one run into ``counts``; returns who played each knockout fixture (id -> teams)."""
        counts["runs"] += 1
        feeds = _RunFeeds()
        pairs: dict[int, tuple[int, int]] = {}
        champion: int | None = None
        for stage in self.stages:
            if stage.kind == "knockout":
                champion = self._knockout(stage, rng, counts, feeds, pairs)
            else:
                champion = self._tables(stage, rng, counts, feeds)
        if champion is not None:
            counts["champion"][champion] = counts["champion"].get(champion, 0) + 1
        return pairs

    def _tables(
        self,
        stage: _Stage,
        rng: random.Random,
        counts: Counts,
        feeds: _RunFeeds,
    ) -> int | None:
        played, open_fixtures = self._split(stage)
        records = {g: list(r) for g, r in played.items()}
        for home, away, group in open_fixtures:
            lh, la = self.rates(home, away, stage.legs == 2)
            records.setdefault(group, []).append(
                MatchRecord(home, away, self.goals(lh, rng), self.goals(la, rng), 0, 0)
            )
        positions = counts["positions"].setdefault(stage.id, {})
        tables = {}
        for name, teams in stage.groups.items():
            table = rank_table(
                teams=teams,
                matches=records.get(name, []),
                criteria=stage.criteria,
                points=stage.points,
                draw_lots=self._drawer(stage, name, rng),
            )
            tables[name] = table
            feeds.orders[(stage.id, name)] = [r.team for r in table]
            for pos, row in enumerate(table):
                hist = positions.get(row.team)
                if hist is None:
                    hist = positions[row.team] = [0] * len(teams)
                hist[pos] += 1
        through: list[int] = []
        if stage.kind == "groups":
            for table in tables.values():
                through += [r.team for r in table[: stage.advance_per_group]]
            if stage.best_thirds:
                chosen = self._best_thirds(stage, tables, rng)
                feeds.thirds[stage.id] = chosen
                through += list(chosen.values())
            qualified = counts["qualified"]
            for team in through:
                qualified[team] = qualified.get(team, 0) + 1
        if stage is self.last_stage and len(tables) == 1:
            (table,) = tables.values()
            return table[0].team if table else None
        return None

    def _split(self, stage: _Stage) -> tuple[dict[str, list[MatchRecord]], list[tuple[int, int, str]]]:
        """The stage's counted results as records (the same in every run) and its open fixtures."""
        found = self._static.get(stage.id)
        if found is None:
            played: dict[str, list[MatchRecord]] = {g: [] for g in stage.groups}
            open_fixtures: list[tuple[int, int, str]] = []
            for f in stage.fixtures:
                if f.home is None or f.away is None:
                    continue
                if f.result is None:
                    open_fixtures.append((f.home, f.away, f.group or ""))
                    continue
                r = f.result
                played.setdefault(f.group or "", []).append(
                    MatchRecord(f.home, f.away, r[0], r[1], r[2], r[3])
                )
            found = self._static[stage.id] = (played, open_fixtures)
        return found

    def _drawer(self, stage: _Stage, group: str, rng: random.Random) -> Any:
        def draw(tied: Sequence[int]) -> Sequence[int]:
            recorded = stage.lots.get(f"{group}|{','.join(str(t) for t in sorted(tied))}")
            if recorded is not None and sorted(recorded) == sorted(tied):
                return recorded
            return rng.sample(sorted(tied), len(tied))

        return draw

    def _best_thirds(self, stage: _Stage, tables: dict[str, Any], rng: random.Random) -> dict[int, int]:
        rank = stage.advance_per_group + 1
        group_of = {table[rank - 1].team: name for name, table in tables.items() if len(table) >= rank}
        rows = [table[rank - 1] for _name, table in sorted(tables.items()) if len(table) >= rank]
        # Lots drawn across the groups are recorded by the league without a group (key "|ids").
        ordered = rank_across_groups(rows=rows, draw_lots=self._drawer(stage, "", rng))
        ranked = [(row.team, group_of[row.team]) for row in ordered][: stage.best_thirds]
        return place_best_thirds(
            ranked=ranked, slots=stage.third_slots, table=stage.third_table, group_names=sorted(tables)
        )

    def _knockout(
        self,
        stage: _Stage,
        rng: random.Random,
        counts: Counts,
        feeds: _RunFeeds,
        pairs: dict[int, tuple[int, int]],
    ) -> int | None:
        first_legs: dict[int, Leg] = {}
        champion: int | None = None
        for f in stage.fixtures:
            home = f.home if f.home is not None else slot_team(f.home_source, feeds)
            away = f.away if f.away is not None else slot_team(f.away_source, feeds)
            if home is None or away is None:
                continue
            pairs[f.id] = (home, away)
            if f.leg == 1 and f.round_name != "Third place":
                reached = counts["rounds"].setdefault(f.round_name or f"Round {f.round}", {})
                reached[home] = reached.get(home, 0) + 1
                reached[away] = reached.get(away, 0) + 1
            number = f.match_number if f.match_number is not None else -f.id
            deciding = f.leg >= stage.legs
            first = first_legs.get(number) if stage.legs == 2 and deciding else None
            awarded = False
            if f.result is not None:
                hg, ag, _hfp, _afp, aet, hp, ap, awarded = f.result
                score = Score(hg, ag, aet, hp, ap)
            else:
                first_score = first.score if first is not None else None
                score = self._play_knockout(stage, home, away, first_score, deciding, rng)
            leg = Leg(home, away, score, bool(awarded))
            if not deciding:
                first_legs[number] = leg
                continue
            outcome = tie_decision(
                away_goals_rule=stage.away_goals_rule, legs=[first, leg] if first is not None else [leg]
            )
            if outcome is None:  # a level stored tie that cannot be (refused by the services): a coin
                home_wins = rng.random() < 0.5
                outcome = TieOutcome(home, away, "coin") if home_wins else TieOutcome(away, home, "coin")
            feeds.ties[number] = outcome
            if f.round_name == "Final" and stage is self.knockouts[-1]:
                champion = outcome.winner_id
        return champion

    def _play_knockout(
        self, stage: _Stage, home: int, away: int, first: Score | None, deciding: bool, rng: random.Random
    ) -> Score:
        lh, la = self.rates(home, away, stage.legs == 2)
        hg, ag = self.goals(lh, rng), self.goals(la, rng)
        if not deciding:
            return Score(hg, ag)
        aet = False
        h, a, _how = level_after_goals(away_goals_rule=stage.away_goals_rule, first=first, last=Score(hg, ag))
        if h == a and stage.extra_time:
            # Two halves of 15 minutes (I-38): a third of the 90-minute rates.
            hg += self.goals(lh / 3, rng)
            ag += self.goals(la / 3, rng)
            aet = True
            h, a, _how = level_after_goals(
                away_goals_rule=stage.away_goals_rule, first=first, last=Score(hg, ag)
            )
        if h == a:
            # Rulebook 3 has no shoot-out of its own; its penalty kicks make it close to a coin toss.
            return Score(hg, ag, aet, *((5, 4) if rng.random() < 0.5 else (4, 5)))
        return Score(hg, ag, aet)


def simulate_chunk(scenario: dict[str, Any], *, seed: int, chunk: int, runs: int) -> Counts:
    """``runs`` runs of the scenario with the chunk's own random stream."""
    return Simulator(scenario).chunk(seed=seed, chunk=chunk, runs=runs)


def _as_json(tally: Counts) -> Counts:
    """Counts with string keys (JSON objects), best and worst places read off the histograms."""
    out = new_counts()
    out["runs"] = tally["runs"]
    for stage, teams in tally["positions"].items():
        out["positions"][str(stage)] = {str(t): hist for t, hist in teams.items()}
        out["best"][str(stage)] = {
            str(t): next(i for i, c in enumerate(hist) if c) + 1 for t, hist in teams.items()
        }
        out["worst"][str(stage)] = {
            str(t): len(hist) - next(i for i, c in enumerate(reversed(hist)) if c)
            for t, hist in teams.items()
        }
    for key in ("qualified", "champion"):
        out[key] = {str(t): c for t, c in tally[key].items()}
    out["rounds"] = {name: {str(t): c for t, c in teams.items()} for name, teams in tally["rounds"].items()}
    return out
