"""Competitions, their teams and the teams' skills (rulebook 3 chapter A11-A13)."""

from __future__ import annotations

from django.db import models

from tournaments.models.clubs import Club, Coach


class Skill(models.Model):
    """A skill of FUBA rulebook 3, chapter A11 (loaded by a data migration, editable in the admin)."""

    class PositionGroup(models.TextChoices):
        TEAM = "team", "Team"
        GOALKEEPER = "goalkeeper", "Goalkeepers"
        DEFENDER = "defender", "Defenders"
        MIDFIELDER = "midfielder", "Midfielders"
        FORWARD = "forward", "Forwards"

    class Restriction(models.TextChoices):
        NONE = "", "None"
        NOT_GK_ALONE = "not_gk_alone", "Not when the goalkeeper is the only defender in the ball area"
        WORLD_CUP_2019 = "world_cup_2019", "World Cup tournaments: only coaches who played the 2019 World Cup"

    name = models.CharField(max_length=60, unique=True)
    position_group = models.CharField(max_length=12, choices=PositionGroup.choices)
    cp_cost = models.PositiveSmallIntegerField(help_text="Condition points to use the skill")
    counts_as_two = models.BooleanField(default=False)
    restriction = models.CharField(max_length=20, choices=Restriction.choices, blank=True, default="")
    restrictions_text = models.TextField(blank=True)
    chapter_text = models.TextField(blank=True)
    when_played = models.TextField(blank=True)

    class Meta:
        ordering = ["position_group", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def weight(self) -> int:
        return 2 if self.counts_as_two else 1

    @property
    def code(self) -> str:
        """The skill's name in turn logs and the rules engine (e.g. "creative_midfielder")."""
        return self.name.lower().replace(" ", "_").replace("-", "_")


class TiebreakPreset(models.TextChoices):
    FIFA_WORLD_CUP = "fifa_world_cup", "FIFA World Cup 2018/2022"
    UEFA = "uefa", "UEFA final tournaments (head-to-head first, neutral venues: no away goals)"
    UEFA_CLUB = "uefa_club", "UEFA club competitions (head-to-head first, with away goals over two legs)"
    SWISS = "swiss", "Swiss (points, Buchholz)"
    CUSTOM = "custom", "Custom order"


class Competition(models.Model):
    class GameSystem(models.TextChoices):
        FUBA_3 = "fuba-3", "FUBA 3 (turn logs validated by the rules engine)"
        FUBA_2 = "fuba-2", "FUBA 2 (rulebook 2.0; turn logs validated by the rules engine)"
        SOCCER_CITY = "soccer-city", "Soccer City"
        SUPER_TEAM = "super-team", "Super Team"

    class ForfeitPolicy(models.TextChoices):
        SIMULATE = "simulate", "Simulate the match"
        AWARD = "award", "Award the match to the side that reported"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=80, unique=True)
    game_system = models.CharField(max_length=16, choices=GameSystem.choices, default=GameSystem.FUBA_3)
    # Advanced rules in force, by chapter code of the game's rulebook ("A1", "A10", "A11", ...).
    advanced_rules = models.JSONField(default=list, blank=True)
    is_world_cup = models.BooleanField(default=False, help_text="A11 restrictions for World Cup tournaments")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)

    points_win = models.PositiveSmallIntegerField(default=3)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)

    forfeit_policy = models.CharField(
        max_length=10, choices=ForfeitPolicy.choices, default=ForfeitPolicy.SIMULATE
    )
    award_goals_for = models.PositiveSmallIntegerField(default=3)
    award_goals_against = models.PositiveSmallIntegerField(default=0)

    skill_limit = models.PositiveSmallIntegerField(default=5, help_text="A11: 'recommendation of 1-5 skills'")

    tiebreak_preset = models.CharField(
        max_length=20, choices=TiebreakPreset.choices, default=TiebreakPreset.FIFA_WORLD_CUP
    )
    # Only read when the preset is "custom": a list of criterion keys from tournaments.standings.criteria.
    tiebreak_order = models.JSONField(default=list, blank=True)

    # Discipline.
    yellow_card_threshold = models.PositiveSmallIntegerField(
        default=2, help_text="Accumulated yellow cards that trigger a one-match suspension (0 = off)"
    )
    red_card_ban_matches = models.PositiveSmallIntegerField(default=1)
    yellow_wipe_after_stage = models.ForeignKey(
        "Stage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cup_mode = models.BooleanField(
        default=False, help_text="Soccer City 'The Cup' suspensions by shirt number between legs"
    )

    # The competition's sign-up page takes clubs' applications while open (the organiser approves each).
    signup_open = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def bans_players(self) -> bool:
        # Soccer City books players by shirt number; FUBA books the team as a whole.
        return self.game_system == self.GameSystem.SOCCER_CITY


class Team(models.Model):
    """A coach's entry in one competition."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="teams")
    coach = models.ForeignKey(Coach, null=True, blank=True, on_delete=models.PROTECT, related_name="teams")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=120)
    country = models.CharField(max_length=60, blank=True)
    # A draw may cap the teams of one confederation per group ("at most 2 UEFA teams").
    confederation = models.CharField(max_length=20, blank=True)
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    default_formation = models.CharField(max_length=20, blank=True, default="4-4-2")
    # A2 player roles as the log header names them, e.g. {"attacking_midfielders": 1} (rulebooks 3
    # and 2.0 alike); the rules engine reads them.
    player_roles = models.JSONField(default=dict, blank=True)
    # Rulebook 2.0, A6: a playing style per line, e.g. {"defence": "easy", "forward": "aggressive"};
    # a line left out plays "normal". FUBA 2 only.
    playing_styles = models.JSONField(default=dict, blank=True)
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["competition", "name"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="team_name_per_competition")
        ]

    def __str__(self) -> str:
        return self.name


class TeamSkill(models.Model):
    """A skill in the team's roster for the competition (chosen at entry or gained as 'New talent')."""

    class Source(models.TextChoices):
        CHOSEN = "chosen", "Chosen"
        GAINED = "gained", "Gained (A13 New talent)"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster_skills")
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="+")
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.CHOSEN)
    gained_in = models.ForeignKey(
        "Fixture", null=True, blank=True, on_delete=models.SET_NULL, related_name="skills_gained"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "skill"], name="team_skill_unique")]

    def __str__(self) -> str:
        return f"{self.team}: {self.skill}"


class SkillLoss(models.Model):
    """A13 Injured star player: the skill 'cannot be chosen for the next match'."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="skill_losses")
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="+")
    lost_in = models.ForeignKey("Fixture", on_delete=models.CASCADE, related_name="skills_lost")
    # Null while the team's next fixture is not known yet (e.g. an unresolved knockout slot).
    unavailable_for = models.ForeignKey(
        "Fixture", null=True, blank=True, on_delete=models.SET_NULL, related_name="skills_unavailable"
    )

    class Meta:
        verbose_name_plural = "skill losses"
        constraints = [models.UniqueConstraint(fields=["team", "skill", "lost_in"], name="skill_loss_unique")]

    def __str__(self) -> str:
        return f"{self.team} lost {self.skill}"


class MatchSkill(models.Model):
    """The skills a team chose for one match."""

    fixture = models.ForeignKey("Fixture", on_delete=models.CASCADE, related_name="match_skills")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="match_skills")
    skill = models.ForeignKey(Skill, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["fixture", "team", "skill"], name="match_skill_unique")
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.skill} in {self.fixture}"
