"""Competitions: clubs, coaches, teams, skills, stages, groups and fixtures.

Business rules live in services; the models hold data and database constraints only. One module a
concept (clubs, competitions and teams, stages and fixtures, access); the app label stays
``tournaments``, so the migrations and the tables are those of the single module before.
"""

from tournaments.models.access import ClubApplication, CompetitionRole, Invitation
from tournaments.models.clubs import Club, Coach
from tournaments.models.competitions import (
    Competition,
    MatchSkill,
    Skill,
    SkillLoss,
    Team,
    TeamSkill,
    TiebreakPreset,
)
from tournaments.models.stages import Bye, Draw, Fixture, Group, LotDraw, Stage, StageChange, Suspension

# The venue's models live beside the app's (a round's clock, the clubs' check-in); imported here
# so the app registers them.
from tournaments.venue_models import CheckIn, RoundClock

__all__ = [
    "Bye",
    "CheckIn",
    "Club",
    "ClubApplication",
    "Coach",
    "Competition",
    "CompetitionRole",
    "Draw",
    "Fixture",
    "Group",
    "Invitation",
    "LotDraw",
    "MatchSkill",
    "RoundClock",
    "Skill",
    "SkillLoss",
    "Stage",
    "StageChange",
    "Suspension",
    "Team",
    "TeamSkill",
    "TiebreakPreset",
]
