"""A competition's stages, groups and fixtures, the byes and the draws that place the teams, and the
suspensions a fixture causes and another serves."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from tournaments.models.competitions import Competition, Team


class Stage(models.Model):
    class Kind(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        GROUPS = "groups", "Groups"
        KNOCKOUT = "knockout", "Knockout"
        SWISS = "swiss", "Swiss"
        # One table; each team meets opponents drawn from pots (tournaments.league_phase).
        LEAGUE_PHASE = "league_phase", "League phase (drawn opponents)"

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
    # A knockout fed by a table (a league, Swiss rounds, a league phase): the band of final places
    # it takes, seeded by place (tournaments.table_feed).
    feed_places_from = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="From a table: the first place this knockout takes"
    )
    feed_places_to = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="From a table: the last place this knockout takes"
    )
    # The play-off (a one-round knockout of the places just below) whose winners join this bracket.
    feed_playoff = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="playoff_for",
        help_text="From a table: the play-off stage whose winners meet the places taken directly",
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
        # Each team's opponents drawn from pots; result {"matchdays": n, "matches": [[home, away, day]]}.
        LEAGUE_PHASE = "league_phase", "League phase opponents from pots"
        # A knockout's teams by final places of a table; pots = [team ids by place], result =
        # {"feeder": stage id, "places": {place: team id}}: no seed decides it.
        TABLE_PLACES = "table_places", "Knockout places from a final table"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(max_length=12, choices=Kind.choices)
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


class StageChange(models.Model):
    """A stage added, changed or deleted by hand (console, API, admin): who, in which standing,
    when, and each setting before and after. Kept on the competition, so a deleted stage's trail
    stays (with its name)."""

    class Action(models.TextChoices):
        ADDED = "added", "Added"
        CHANGED = "changed", "Changed"
        DELETED = "deleted", "Deleted"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="stage_changes")
    stage = models.ForeignKey(Stage, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes")
    stage_name = models.CharField(max_length=80)
    action = models.CharField(max_length=8, choices=Action.choices)
    # {setting: [before, after]}; a stage or team is named by its id (teams: a sorted id list).
    changes = models.JSONField(default=dict, blank=True)
    changed_at = models.DateTimeField(auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The person's standing when they acted ("organiser", "administrator"), as audits name it.
    changed_by_role = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["competition", "-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.stage_name} ({self.competition})"


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
