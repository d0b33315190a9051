"""A competition's rating data read at once, for the rating bits of all its team and match pages.

After a rated result the refresh task (fubaleague/web/refresh.py) renders those bits for every
team and match page of the competitions of the game: read one page at a time (the fixture, its
rated match and history points, each coach's rating and rank, the team), that was about 250
queries a World Cup. Read here in a handful, then handed to the bits' rendering
(``ratings.templatetags.ratings_tags``), which reads one page's data itself when given none (a
reader's miss: one page, no more read than it shows).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from ratings.models import CoachRating, RatedMatch, RatingHistory
from ratings.skill import Skill
from tournaments.game_systems import rules_of
from tournaments.models import Competition, Fixture, Team

Change = tuple[RatingHistory, float | None]  # a coach's point of a rated match, and his μ before it


@dataclass(frozen=True)
class CompetitionRatings:
    """``ratings``: by (coach id, game system), of the competition's game system and rating pool;
    ``ranked``: every rating of those systems as (system, -ordinal, coach id), sorted (a rank is
    a bisection: the order of ``selectors.coach_ranking``)."""

    teams: dict[int, Team]
    fixtures: dict[int, Fixture]
    rated: dict[int, list[Change]]  # by fixture id, its match not void
    ratings: dict[tuple[int, str], CoachRating]
    ranked: list[tuple[str, float, int]]

    def rating(self, coach_id: int, game_system: str) -> CoachRating | None:
        return self.ratings.get((coach_id, game_system))

    def rank(self, rating: CoachRating) -> int:
        return bisect_left(self.ranked, (rating.game_system, -rating.ordinal, rating.coach_id)) + 1

    def skills(self, game_system: str) -> dict[int, Skill]:
        return {
            coach: Skill(r.mu, r.sigma, r.games, r.wins, r.draws, r.losses)
            for (coach, system), r in self.ratings.items()
            if system == game_system
        }


def competition_ratings(competition: Competition) -> CompetitionRatings:
    systems = {competition.game_system, rules_of(competition).rating_pool}
    teams = list(Team.objects.filter(competition=competition).select_related("coach", "competition"))
    fixtures = Fixture.objects.filter(competition=competition).select_related(
        "competition", "stage", "home_team__coach", "away_team__coach"
    )
    entries = RatedMatch.objects.filter(fixture__competition=competition).exclude(
        outcome=RatedMatch.Outcome.VOID
    )
    rated: dict[int, list[Change]] = {
        fixture_id: [] for fixture_id in entries.values_list("fixture_id", flat=True)
    }
    # Each coach's μ before the match, as the match page's bit reads it (any game's history).
    before = RatingHistory.objects.filter(
        coach_id=OuterRef("coach_id"), sequence__lt=OuterRef("sequence")
    ).order_by("-sequence")
    points = (
        RatingHistory.objects.filter(rated_match__in=entries)
        .select_related("coach", "rated_match")
        .annotate(mu_before=Subquery(before.values("mu")[:1]))
        # (a match's points in the order the page's bit reads them: RatingHistory.Meta.ordering)
        .order_by("rated_match_id", "coach", "game_system", "sequence")
    )
    for point in points:
        rated[point.rated_match.fixture_id].append((point, point.mu_before))
    coach_ids = {t.coach_id for t in teams if t.coach_id is not None}
    ratings = CoachRating.objects.filter(game_system__in=systems, coach_id__in=coach_ids).select_related(
        "coach"
    )
    ranked = CoachRating.objects.filter(game_system__in=systems).values_list(
        "game_system", "ordinal", "coach_id"
    )
    teams_by_id = {t.pk: t for t in teams}
    return CompetitionRatings(
        teams=teams_by_id,
        fixtures={f.pk: f for f in fixtures},
        rated=rated,
        ratings={(r.coach_id, r.game_system): r for r in ratings},
        ranked=sorted((system, -ordinal, coach) for system, ordinal, coach in ranked),
    )
