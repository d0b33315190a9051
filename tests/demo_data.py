"""Shared test data: a World Cup built through the services (league.demo), small enough to be quick."""

from __future__ import annotations

from league import demo


def light_world_cup(slug: str = "test-cup") -> demo.Demo:
    # Groups A and B complete (one simulated match in B), group H with a disputed result and one
    # awaiting confirmation, and two round-of-16 ties played: every page has something to show.
    return demo.build_world_cup(slug=slug, complete_groups="AB", simulate_in="B", knockout_ties=2)
