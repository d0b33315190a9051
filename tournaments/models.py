"""Competitions: clubs, coaches, teams, skills, stages, groups and fixtures.

Business rules live in services; the models hold data and database constraints only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    country = models.CharField(max_length=60, blank=True)
    # "A club may act only on its own fixtures": membership is what the services check.
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="fuba_clubs", blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Coach(models.Model):
    """The person playing the board game."""

    name = models.CharField(max_length=120)
    country = models.CharField(max_length=60)
    ranking_id = models.CharField(max_length=40, blank=True)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="coaches")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="fuba_coaches",
    )
    # A11 footnote 3: Catenaccio "can be used in World Cup tournaments only if the player took part
    # in the FUBA World Cup 2019 in Milan, Italy".
    played_world_cup_2019 = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "coaches"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["ranking_id"], condition=~Q(ranking_id=""), name="coach_ranking_id_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.country})"


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


class Stage(models.Model):
    class Kind(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        GROUPS = "groups", "Groups"
        KNOCKOUT = "knockout", "Knockout"
        SWISS = "swiss", "Swiss"

    class Feed(models.TextChoices):
        WINNERS = "winners", "Qualifiers / winners"
        LOSERS = "losers", "Losers of the last round"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACTIVE = "active", "In progress"
        COMPLETED = "completed", "Completed"

    class ThirdsPlacing(models.TextChoices):
        EURO_2024 = "euro_2024", "UEFA EURO 2020/2024 (winners of B, C, E, F meet thirds)"
        EURO_2016 = "euro_2016", "UEFA EURO 2016 (winners of A, B, C, D meet thirds)"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Round robin / groups: 1 = single, 2 = double. Knockout: 1 = single match, 2 = two-legged ties.
    legs = models.PositiveSmallIntegerField(default=1)
    away_goals_rule = models.BooleanField(default=False)
    extra_time = models.BooleanField(default=True)
    penalties = models.BooleanField(default=True)
    third_place_match = models.BooleanField(default=False)
    # Groups then knockout: how many teams of each group go through, plus best third-placed teams.
    advance_per_group = models.PositiveSmallIntegerField(default=2)
    best_thirds = models.PositiveSmallIntegerField(default=0)
    # Six groups with four best thirds: which of UEFA's tables places the thirds in the round of 16.
    thirds_placing = models.CharField(
        max_length=10,
        choices=ThirdsPlacing.choices,
        default=ThirdsPlacing.EURO_2024,
        help_text="Six groups, four best thirds: UEFA's table that places the thirds in the round of 16",
    )
    swiss_rounds = models.PositiveSmallIntegerField(default=0)
    # Knockout: how many rounds this stage plays (0 = down to the final), so that a chain of
    # stages (round of 16 → quarter-finals → …) can wipe yellows or change legs between rounds.
    knockout_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Knockout: rounds this stage plays (0 = down to the final)"
    )
    # A knockout stage without teams of its own is fed by another stage's qualifiers.
    feeder = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="fed_stages",
        help_text="Knockout without teams of its own: the stage whose qualifiers it plays "
        "(default: the stage before)",
    )
    feed = models.CharField(
        max_length=8,
        choices=Feed.choices,
        default=Feed.WINNERS,
        help_text="From a knockout feeder: its last round's winners, or its losers (third-place stage)",
    )
    # Round robin and Swiss participants; group stages list teams on their groups.
    teams = models.ManyToManyField(Team, related_name="stages", blank=True)

    class Meta:
        ordering = ["competition", "order"]
        constraints = [models.UniqueConstraint(fields=["competition", "order"], name="stage_order_unique")]

    def __str__(self) -> str:
        return f"{self.competition} – {self.name}"


class Group(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(max_length=10)
    teams = models.ManyToManyField(Team, related_name="groups", blank=True)

    class Meta:
        ordering = ["stage", "name"]
        constraints = [models.UniqueConstraint(fields=["stage", "name"], name="group_name_per_stage")]

    def __str__(self) -> str:
        return f"Group {self.name}"


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        SUBMITTED = "submitted", "Result submitted"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"
        SIMULATING = "simulating", "Being simulated"
        SIMULATED = "simulated", "Simulated"
        AWARDED = "awarded", "Awarded"
        # Staff voided the match: it was not played and counts for nothing, for either side.
        VOID = "void", "Void"

    # A result counts towards standings, brackets and discipline only in these states.
    COUNTED_STATUSES = (Status.CONFIRMED, Status.SIMULATED, Status.AWARDED)
    # Nothing more will be played or reported: the counted states and a voided match.
    DONE_STATUSES = (*COUNTED_STATUSES, Status.VOID)
    # States from which a forfeit task may claim the fixture.
    OPEN_STATUSES = (Status.SCHEDULED, Status.SUBMITTED)

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="fixtures")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="fixtures")
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField(default=1)
    round_name = models.CharField(max_length=40, blank=True)
    leg = models.PositiveSmallIntegerField(default=1)
    # Knockout ties and the "Winner match 49" placeholders refer to this number; both legs share it.
    match_number = models.PositiveIntegerField(null=True, blank=True)
    home_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="home_fixtures"
    )
    away_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="away_fixtures"
    )
    home_placeholder = models.CharField(max_length=80, blank=True)
    away_placeholder = models.CharField(max_length=80, blank=True)
    # Machine-readable form of the placeholders, e.g. {"type": "group", "group": "A", "rank": 1}.
    home_source = models.JSONField(null=True, blank=True)
    away_source = models.JSONField(null=True, blank=True)
    kickoff = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    # The table it is played at, at a venue (issue 33, item 6); set by tournaments.services.venue.
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["competition", "stage__order", "round", "match_number", "leg", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "match_number", "leg"],
                condition=Q(match_number__isnull=False),
                name="fixture_match_number_leg_unique",
            ),
            models.CheckConstraint(
                condition=Q(home_team__isnull=True)
                | Q(away_team__isnull=True)
                | ~Q(home_team=models.F("away_team")),
                name="fixture_teams_differ",
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="fixture_status_deadline")]

    def __str__(self) -> str:
        home = self.home_team.name if self.home_team else self.home_placeholder or "?"
        away = self.away_team.name if self.away_team else self.away_placeholder or "?"
        prefix = f"Match {self.match_number}" + (f" leg {self.leg}" if self.leg > 1 else "")
        return f"{prefix}: {home} v {away}" if self.match_number else f"{home} v {away}"

    @property
    def is_counted(self) -> bool:
        return self.status in self.COUNTED_STATUSES

    @property
    def is_overdue(self) -> bool:
        """Past its reporting deadline with no result reported: the forfeit sweep will act on it.

        A report waiting for the opponent is not late; nor is a match being scored live, which
        this row cannot know (the pages and the sweep ask matches.holds as well)."""
        return (
            self.deadline is not None
            and self.status == self.Status.SCHEDULED
            and self.deadline < timezone.now()
        )

    @property
    def is_resolved(self) -> bool:
        return self.home_team_id is not None and self.away_team_id is not None


class Bye(models.Model):
    """A Swiss round in which a team had no opponent; it scores as a win."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="byes")
    round = models.PositiveSmallIntegerField()
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage", "round"], name="bye_per_round"),
            models.UniqueConstraint(fields=["stage", "team"], name="bye_once_per_team"),
        ]

    def __str__(self) -> str:
        return f"Bye for {self.team} in round {self.round}"


class LotDraw(models.Model):
    """A drawing of lots between teams still level: drawn once, then reused so standings stay stable."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="lot_draws")
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="lot_draws"
    )
    # Sorted team ids joined by commas: identifies the set of tied teams.
    key = models.CharField(max_length=400)
    order = models.JSONField(help_text="Team ids, best first")
    seed = models.BigIntegerField()
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # The person's standing when they drew ("organiser", "administrator"), as audits name it.
    drawn_by_role = models.CharField(max_length=80, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage", "group", "key"], name="lot_draw_unique"),
            models.UniqueConstraint(
                fields=["stage", "key"], condition=Q(group__isnull=True), name="lot_draw_unique_stage"
            ),
        ]

    def __str__(self) -> str:
        return f"Lots drawn in {self.stage} ({self.key})"


class Draw(models.Model):
    """A seeded draw of groups from pots or of an unseeded bracket: repeatable from its seed."""

    class Kind(models.TextChoices):
        GROUPS = "groups", "Groups from pots"
        KNOCKOUT = "knockout", "Knockout bracket"
        # A draw made elsewhere (at a ceremony, on paper) entered by hand: no seed decides it.
        ENTERED = "entered", "Groups entered by hand"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seed = models.BigIntegerField()
    # Team ids per pot, as given (pot 1 first); a knockout draw has one pot.
    pots = models.JSONField()
    # Caps per group: [{"attribute": "confederation", "value": "UEFA", "at_most": 2}, ...];
    # "keep countries apart" is {"attribute": "country", "at_most": 1}.
    constraints = models.JSONField(default=list, blank=True)
    # Whether the organiser allowed relaxing, and the pots drawn without the constraints (with why).
    relax = models.BooleanField(default=False)
    relaxed = models.JSONField(default=list, blank=True)
    # Groups: {"A": [team ids in pot order], ...}; knockout: team ids in bracket order.
    result = models.JSONField()
    drawn_at = models.DateTimeField(auto_now_add=True)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # The person's standing when they drew ("organiser", "administrator"), as audits name it.
    drawn_by_role = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["stage", "-drawn_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} draw for {self.stage} (seed {self.seed})"


class Suspension(models.Model):
    """A ban caused by cards.

    A FUBA team starts the fixture one player short; Soccer City bans a shirt number.
    """

    class Reason(models.TextChoices):
        YELLOW_ACCUMULATION = "yellow_accumulation", "Yellow cards accumulated"
        RED_CARD = "red_card", "Red card"
        CUP_YELLOW = "cup_yellow", "Yellow card in the first leg (The Cup)"
        CUP_RED = "cup_red", "Red card (The Cup)"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="suspensions")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="suspensions")
    shirt_number = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    source_fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="suspensions_caused")
    # A multi-match ban is one row per match (sequence 1..n) so each row has its own fixture to serve.
    sequence = models.PositiveSmallIntegerField(default=1)
    # Null until the team's next fixture is known.
    served_in = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="suspensions_served"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "source_fixture", "reason", "shirt_number", "sequence"],
                nulls_distinct=False,
                name="suspension_unique",
            )
        ]

    def __str__(self) -> str:
        return (
            f"{self.team}"
            + (f" #{self.shirt_number}" if self.shirt_number else "")
            + f": {self.get_reason_display()}"
        )

    @property
    def is_served(self) -> bool:
        return self.served_in is not None and self.served_in.status in Fixture.COUNTED_STATUSES


class CompetitionRole(models.Model):
    """Who runs a competition besides the instance's staff: its organisers and results-desk helpers.

    What each kind may do is decided in one place, tournaments.selectors.competition_permits.
    """

    class Kind(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        CO_ORGANISER = "co_organiser", "Co-organiser"
        RESULTS_DESK = "results_desk", "Results desk"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="competition_roles"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition", "kind", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "user"], name="competition_role_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_kind_display()} of {self.competition}"


class Invitation(models.Model):
    """A link to join a competition: as a member of a club, or in a role. Only a hash of the token
    is stored; the link holds the token itself."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="invitations")
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(max_length=16, choices=CompetitionRole.Kind.choices, blank=True)
    username = models.CharField(max_length=150, blank=True, help_text="The user name proposed to the invitee")
    email = models.EmailField(blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        what = self.club.name if self.club is not None else self.get_role_display()
        return f"{self.username or self.email} – {what} in {self.competition}"


class ClubApplication(models.Model):
    """A club's entry asked for on a competition's sign-up page, waiting for the organiser."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the organiser"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="applications")
    applicant = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    club_name = models.CharField(max_length=120)
    team_name = models.CharField(max_length=120)
    country = models.CharField(max_length=60, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.team_name} ({self.club_name}) in {self.competition}: {self.get_status_display()}"


# The venue's models live beside these (a round's clock, the clubs' check-in); loaded here so
# the app registers them.
from tournaments.venue_models import CheckIn as CheckIn  # noqa: E402
from tournaments.venue_models import RoundClock as RoundClock  # noqa: E402
