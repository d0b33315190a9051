"""Coach ratings: the current rating, the ledger of rated matches and every coach's history.

Ratings are kept per game system (``game_system``, the competition's ``rating_pool``): a coach
has one rating of each game he has played, and a match is rated only in its own game's.

The ledger (RatedMatch) is the history the ratings are folded from: one row per fixture whose
result was ever rated, in the order it was applied (``sequence``). A corrected result keeps its
place in that order; a result that stops counting, or becomes simulated/awarded, is ``void``.
"""

from __future__ import annotations

from django.db import models

from ratings.skill import ORDINAL_SIGMAS, PROVISIONAL_GAMES
from tournaments.game_systems import FUBA_3, GAME_SYSTEMS
from tournaments.models import Coach, Competition, Fixture

GAME_SYSTEM_CHOICES = Competition.GameSystem.choices

# The name the ratings' public pages are kept under for anonymous visitors (not a competition's
# slug: a slug has no "@"); the services bump it when a rating changes.
PAGES_SCOPE = "@ratings"


def system_part(game_system: str) -> str:
    """The part of PAGES_SCOPE a game system's ratings are kept under (its ranking's fragment):
    a rating changed in one game leaves the other games' rankings kept."""
    return f"g{game_system}"


class RatingLedger(models.Model):
    """A single row: its lock serialises every rating change, and it hands out sequence numbers."""

    next_sequence = models.PositiveIntegerField(default=1)
    rebuilt_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Rating ledger (next #{self.next_sequence})"


class CoachRating(models.Model):
    """A coach's rating in one game system."""

    coach = models.ForeignKey(Coach, on_delete=models.CASCADE, related_name="ratings")
    game_system = models.CharField(max_length=16, choices=GAME_SYSTEM_CHOICES, default=FUBA_3)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma, stored so the ranking is an indexed ORDER BY.
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_system", "-ordinal", "coach_id"]
        constraints = [
            models.UniqueConstraint(fields=["coach", "game_system"], name="coach_rating_per_game_system")
        ]
        indexes = [models.Index(fields=["game_system", "-ordinal"], name="coach_rating_ranking")]

    def __str__(self) -> str:
        return f"{self.coach} ({self.game_system}): {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def system_name(self) -> str:
        return GAME_SYSTEMS[self.game_system].name

    @property
    def uncertainty(self) -> float:
        return ORDINAL_SIGMAS * self.sigma


class RatedMatch(models.Model):
    class Outcome(models.TextChoices):
        HOME = "home", "Home coach won"
        DRAW = "draw", "Draw"
        AWAY = "away", "Away coach won"
        VOID = "void", "Not rated (no longer counts, or simulated/awarded)"

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="rated_match")
    sequence = models.PositiveIntegerField(unique=True)
    # The rating this match counts in: its competition's game system.
    game_system = models.CharField(max_length=16, choices=GAME_SYSTEM_CHOICES, default=FUBA_3)
    home_coach = models.ForeignKey(Coach, null=True, on_delete=models.SET_NULL, related_name="+")
    away_coach = models.ForeignKey(Coach, null=True, on_delete=models.SET_NULL, related_name="+")
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    home_goals = models.PositiveSmallIntegerField(null=True)
    away_goals = models.PositiveSmallIntegerField(null=True)
    applied_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["sequence"]
        verbose_name_plural = "rated matches"

    def __str__(self) -> str:
        return f"#{self.sequence} {self.fixture}: {self.get_outcome_display()}"


class RatingHistory(models.Model):
    """A coach's rating right after one rated match (the points of the history chart)."""

    coach = models.ForeignKey(Coach, on_delete=models.CASCADE, related_name="rating_history")
    rated_match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="history")
    game_system = models.CharField(max_length=16, choices=GAME_SYSTEM_CHOICES, default=FUBA_3)
    sequence = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["coach", "game_system", "sequence"]
        verbose_name_plural = "rating history"
        constraints = [models.UniqueConstraint(fields=["coach", "rated_match"], name="rating_history_unique")]

    def __str__(self) -> str:
        return f"{self.coach} after #{self.sequence}: {self.mu:.1f} ± {self.sigma:.1f}"
