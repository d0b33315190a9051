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


# Teams are only paired with teams this close in the ranking first: pairs further apart are never
# wanted, and the sparse graph keeps the blossom algorithm fast for fields of hundreds of teams.
# A wider window (and finally the complete graph) is tried if no full pairing exists.
WINDOWS = (12, 48)


# Large fields are paired block by block down the ranking (an odd team out floats down to the
# next block), which keeps a 1000-team round to a couple of seconds; a block that cannot be paired
# without a rematch is merged with the next one.
BLOCK = 64


def _match(
    ranked: Sequence[int], points: Mapping[int, int], played: set[frozenset[int]]
) -> list[tuple[int, int]]:
    if len(ranked) <= 2 * BLOCK:
        return _match_field(ranked, points, played)
    pairs: list[tuple[int, int]] = []
    carry: list[int] = []
    i = 0
    while i < len(ranked):
        block = carry + list(ranked[i : i + BLOCK])
        i += BLOCK
        if i >= len(ranked):
            try:
                return pairs + _match_field(block, points, played)
            except PairingImpossible:
                # The tail cannot be paired on its own: pair the whole field in one go.
                return _match_field(ranked, points, played)
        floater = block.pop() if len(block) % 2 else None
        try:
            pairs += _match_field(block, points, played)
            carry = [floater] if floater is not None else []
        except PairingImpossible:
            carry = block + ([floater] if floater is not None else [])
    return pairs


def _match_field(
    ranked: Sequence[int], points: Mapping[int, int], played: set[frozenset[int]]
) -> list[tuple[int, int]]:
    n = len(ranked)
    for window in (*(w for w in WINDOWS if w < n - 1), n):
        pairs = _match_within(ranked, points, played, window)
        if pairs is not None:
            return pairs
    raise PairingImpossible("no pairing without a rematch exists for this round")


def _match_within(
    ranked: Sequence[int], points: Mapping[int, int], played: set[frozenset[int]], window: int
) -> list[tuple[int, int]] | None:
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    position = {t: i for i, t in enumerate(ranked)}
    n = len(ranked)
    # Weights keep every rematch-free edge positive: the cardinality of the matching comes first
    # (maxcardinality), then the smallest points gaps, then the closest positions in the ranking.
    big = (n * n + 1) * (max(points.values(), default=0) + 1) ** 2 * 4
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 : i + 1 + window]:
            if frozenset((a, b)) in played:
                continue
            gap = points[a] - points[b]
            weight = big - gap * gap * (n * n + 1) - abs(position[a] - position[b])
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != n:
        return None
    return [tuple(sorted(pair, key=position.__getitem__)) for pair in matching]


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
