"""Rating changes: apply one counted result (the Celery task's work) and rebuild from the ledger.

Every change holds the RatingLedger row lock, so two workers never interleave their updates and
the order of application (``RatedMatch.sequence``) is the order the rebuild replays. Only results
played by the clubs and confirmed (or set by an administrator) are rated: simulated and awarded
results say nothing about the coaches. A knockout match level after extra time is a draw for the
ratings, whatever the shoot-out gave. A coach has one rating per game system (the competition's
``rating_pool``): a match moves only its own game's ratings, and the fold keeps the games apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from django.db import transaction
from django.utils import timezone

from matches.standings.cache import committed, invalidate_scope
from ratings.models import PAGES_SCOPE, CoachRating, RatedMatch, RatingHistory, RatingLedger, system_part
from ratings.skill import Outcome, Skill, rate_match
from tournaments.game_systems import FUBA_3, GAME_SYSTEMS, rules_of
from tournaments.models import Fixture

RATED_SOURCES = ("clubs", "admin")


@dataclass(frozen=True)
class Observed:
    """What the ledger should say about a fixture now."""

    home_coach_id: int | None
    away_coach_id: int | None
    outcome: str
    home_goals: int | None
    away_goals: int | None
    game_system: str = FUBA_3


def _observe(fixture: Fixture | None) -> Observed:
    if fixture is None:
        return Observed(None, None, RatedMatch.Outcome.VOID, None, None)
    # One rating per game system: a Soccer City win says nothing of a coach's FUBA 3.
    pool = rules_of(fixture.competition).rating_pool
    void = Observed(None, None, RatedMatch.Outcome.VOID, None, None, pool)
    if fixture.status != Fixture.Status.CONFIRMED:
        return void
    result = getattr(fixture, "result", None)
    home, away = fixture.home_team, fixture.away_team
    if result is None or home is None or away is None or result.source not in RATED_SOURCES:
        return void
    if home.coach_id is None or away.coach_id is None or home.coach_id == away.coach_id:
        return void
    if result.home_goals > result.away_goals:
        outcome = RatedMatch.Outcome.HOME
    elif result.home_goals < result.away_goals:
        outcome = RatedMatch.Outcome.AWAY
    else:
        outcome = RatedMatch.Outcome.DRAW
    return Observed(home.coach_id, away.coach_id, outcome, result.home_goals, result.away_goals, pool)


def _load_fixture(fixture_id: int) -> Fixture | None:
    return (
        Fixture.objects.select_related("result", "home_team", "away_team", "competition")
        .filter(id=fixture_id)
        .first()
    )


def _same(entry: RatedMatch, seen: Observed) -> bool:
    return (
        entry.outcome == seen.outcome
        and entry.home_coach_id == seen.home_coach_id
        and entry.away_coach_id == seen.away_coach_id
        and entry.home_goals == seen.home_goals
        and entry.away_goals == seen.away_goals
        and entry.game_system == seen.game_system
    )


def _lock_ledger() -> RatingLedger:
    RatingLedger.objects.get_or_create(pk=1)
    return RatingLedger.objects.select_for_update().get(pk=1)


def names_changed() -> None:
    """A coach's name or country changed: the rankings and histories show them."""
    _pages_changed()


def _pages_changed(*systems: str) -> None:
    """The game systems whose ratings changed (every one when none is named)."""
    parts = [system_part(s) for s in (systems or tuple(GAME_SYSTEMS))]
    # After the commit: a reader rendering meanwhile would keep the old ratings under the new version.
    transaction.on_commit(lambda: _committed(parts))


def _committed(parts: list[str]) -> None:
    invalidate_scope(PAGES_SCOPE, parts)
    committed.send(sender=CoachRating, slug=PAGES_SCOPE, competition_id=None, parts=tuple(parts))


def _skill_of(rating: CoachRating | None) -> Skill:
    if rating is None:
        return Skill()
    return Skill(rating.mu, rating.sigma, rating.games, rating.wins, rating.draws, rating.losses)


def _store(coach_id: int, skill: Skill, entry: RatedMatch) -> None:
    CoachRating.objects.update_or_create(
        coach_id=coach_id,
        game_system=entry.game_system,
        defaults={
            "mu": skill.mu,
            "sigma": skill.sigma,
            "ordinal": skill.ordinal,
            "games": skill.games,
            "wins": skill.wins,
            "draws": skill.draws,
            "losses": skill.losses,
        },
    )
    RatingHistory.objects.create(
        coach_id=coach_id,
        rated_match=entry,
        game_system=entry.game_system,
        sequence=entry.sequence,
        mu=skill.mu,
        sigma=skill.sigma,
        ordinal=skill.ordinal,
        games=skill.games,
    )


def _apply(entry: RatedMatch) -> None:
    assert entry.home_coach_id is not None and entry.away_coach_id is not None
    ratings = {
        r.coach_id: r
        for r in CoachRating.objects.filter(
            coach_id__in=[entry.home_coach_id, entry.away_coach_id], game_system=entry.game_system
        )
    }
    home, away = rate_match(
        _skill_of(ratings.get(entry.home_coach_id)),
        _skill_of(ratings.get(entry.away_coach_id)),
        _outcome(entry.outcome),
    )
    _store(entry.home_coach_id, home, entry)
    _store(entry.away_coach_id, away, entry)


def _outcome(value: str) -> Outcome:
    if value not in ("home", "draw", "away"):
        raise ValueError(f"not a rated outcome: {value!r}")
    return cast(Outcome, value)


@transaction.atomic
def fixture_rating_apply(*, fixture_id: int) -> str:
    """Bring the ratings up to date with one fixture's result; safe to run any number of times.

    Returns what happened: "applied" (a new rated result, applied incrementally), "unchanged"
    (already applied as it stands, or not rateable), or "rebuilt" (a rated result was corrected
    or stopped counting: the ratings are folded again from the whole ledger).
    """
    ledger = _lock_ledger()
    seen = _observe(_load_fixture(fixture_id))
    entry = RatedMatch.objects.filter(fixture_id=fixture_id).first()
    if entry is None:
        if seen.outcome == RatedMatch.Outcome.VOID:
            return "unchanged"
        entry = RatedMatch.objects.create(
            fixture_id=fixture_id,
            sequence=ledger.next_sequence,
            home_coach_id=seen.home_coach_id,
            away_coach_id=seen.away_coach_id,
            outcome=seen.outcome,
            home_goals=seen.home_goals,
            away_goals=seen.away_goals,
            game_system=seen.game_system,
        )
        RatingLedger.objects.filter(pk=ledger.pk).update(next_sequence=ledger.next_sequence + 1)
        _apply(entry)
        _pages_changed(entry.game_system)
        return "applied"
    if _same(entry, seen):
        return "unchanged"
    # The claim: only the ledger entry as read is replaced (the lock already serialises us; the
    # condition keeps a stale read from overwriting a newer correction all the same).
    claimed = RatedMatch.objects.filter(
        id=entry.id,
        outcome=entry.outcome,
        home_goals=entry.home_goals,
        away_goals=entry.away_goals,
        home_coach_id=entry.home_coach_id,
        away_coach_id=entry.away_coach_id,
        game_system=entry.game_system,
    ).update(
        outcome=seen.outcome,
        home_goals=seen.home_goals,
        away_goals=seen.away_goals,
        home_coach_id=seen.home_coach_id,
        away_coach_id=seen.away_coach_id,
        game_system=seen.game_system,
        applied_at=timezone.now(),
    )
    if not claimed:
        return "unchanged"
    _fold()
    # (the fold recomputes every game, to the same values where no entry of it moved)
    _pages_changed(entry.game_system, seen.game_system)
    return "rebuilt"


def _fold() -> int:
    """Recompute every rating and history point from the ledger, in ledger order; each game
    system's ratings are folded from its own matches only."""
    RatingHistory.objects.all().delete()
    CoachRating.objects.all().delete()
    state: dict[tuple[str, int], Skill] = {}
    history: list[RatingHistory] = []
    rated = 0
    for entry in RatedMatch.objects.exclude(outcome=RatedMatch.Outcome.VOID).order_by("sequence"):
        if entry.home_coach_id is None or entry.away_coach_id is None:
            continue
        game = entry.game_system
        home, away = rate_match(
            state.get((game, entry.home_coach_id), Skill()),
            state.get((game, entry.away_coach_id), Skill()),
            _outcome(entry.outcome),
        )
        state[(game, entry.home_coach_id)], state[(game, entry.away_coach_id)] = home, away
        for coach_id, skill in ((entry.home_coach_id, home), (entry.away_coach_id, away)):
            history.append(
                RatingHistory(
                    coach_id=coach_id,
                    rated_match=entry,
                    game_system=game,
                    sequence=entry.sequence,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    ordinal=skill.ordinal,
                    games=skill.games,
                )
            )
        rated += 1
    RatingHistory.objects.bulk_create(history, batch_size=1000)
    CoachRating.objects.bulk_create(
        [
            CoachRating(
                coach_id=coach_id,
                game_system=game,
                mu=s.mu,
                sigma=s.sigma,
                ordinal=s.ordinal,
                games=s.games,
                wins=s.wins,
                draws=s.draws,
                losses=s.losses,
            )
            for (game, coach_id), s in state.items()
        ],
        batch_size=1000,
    )
    return rated


@transaction.atomic
def ratings_rebuild() -> int:
    """Recompute all ratings from the whole history; returns the number of rated matches.

    Every ledger entry is checked against its fixture's current result first, and counted
    results the ledger never saw (a lost task, results older than the ratings) are appended in
    the order they were first recorded. Run on an up-to-date ledger it reproduces the
    incremental ratings exactly.
    """
    ledger = _lock_ledger()
    entries = {e.fixture_id: e for e in RatedMatch.objects.all()}
    fixtures = Fixture.objects.select_related("result", "home_team", "away_team", "competition")
    for fixture in fixtures.filter(id__in=list(entries)):
        seen = _observe(fixture)
        entry = entries[fixture.id]
        if not _same(entry, seen):
            entry.outcome, entry.home_goals, entry.away_goals = seen.outcome, seen.home_goals, seen.away_goals
            entry.home_coach_id, entry.away_coach_id = seen.home_coach_id, seen.away_coach_id
            entry.game_system = seen.game_system
            entry.save()
    missing = (
        fixtures.filter(status=Fixture.Status.CONFIRMED, result__isnull=False)
        .exclude(id__in=list(entries))
        .order_by("result__created_at", "result__id")
    )
    sequence = ledger.next_sequence
    for fixture in missing:
        seen = _observe(fixture)
        if seen.outcome == RatedMatch.Outcome.VOID:
            continue
        RatedMatch.objects.create(
            fixture=fixture,
            sequence=sequence,
            home_coach_id=seen.home_coach_id,
            away_coach_id=seen.away_coach_id,
            outcome=seen.outcome,
            home_goals=seen.home_goals,
            away_goals=seen.away_goals,
            game_system=seen.game_system,
        )
        sequence += 1
    RatingLedger.objects.filter(pk=ledger.pk).update(next_sequence=sequence, rebuilt_at=timezone.now())
    _pages_changed()
    return _fold()
