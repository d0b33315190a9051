"""Swiss-system pairing with networkx maximum-weight matching.

Teams with equal (or close) points meet, nobody meets the same opponent twice, and with an
odd field the lowest-ranked team that has not had a bye yet sits the round out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx


class PairingImpossible(ValueError):
    pass


@dataclass(frozen=True)
class SwissRound:
    pairs: list[tuple[int, int]]  # (home, away)
    bye: int | None


def _match(
    ranked: Sequence[int], points: Mapping[int, int], played: set[frozenset[int]]
) -> list[tuple[int, int]]:
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    position = {t: i for i, t in enumerate(ranked)}
    n = len(ranked)
    # Weights keep every rematch-free edge positive: the cardinality of the matching comes first
    # (maxcardinality), then the smallest points gaps, then the closest positions in the ranking.
    big = (n * n + 1) * (max(points.values(), default=0) + 1) ** 2 * 4
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            if frozenset((a, b)) in played:
                continue
            gap = points[a] - points[b]
            weight = big - gap * gap * (n * n + 1) - abs(position[a] - position[b])
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != n:
        raise PairingImpossible("no pairing without a rematch exists for this round")
    return [tuple(sorted(pair, key=position.__getitem__)) for pair in matching]  # type: ignore[misc]


def swiss_pair(
    *,
    ranked: Sequence[int],
    points: Mapping[int, int],
    played: set[frozenset[int]],
    had_bye: set[int],
    home_counts: Mapping[int, int],
) -> SwissRound:
    """Pair one round. ``ranked`` is the current standings order, best first."""
    teams = list(ranked)
    candidates: list[int | None] = [None]
    if len(teams) % 2:
        candidates = [t for t in reversed(teams) if t not in had_bye]
        if not candidates:
            raise PairingImpossible("every team has had a bye already")
    for bye in candidates:
        field = [t for t in teams if t != bye]
        try:
            pairs = _match(field, points, played)
        except PairingImpossible:
            continue
        oriented = []
        for a, b in sorted(pairs, key=lambda p: teams.index(p[0])):
            # The side that has hosted fewer matches hosts this one.
            oriented.append((b, a) if home_counts.get(a, 0) > home_counts.get(b, 0) else (a, b))
        return SwissRound(pairs=oriented, bye=bye)
    raise PairingImpossible("no pairing without a rematch exists for this round")
