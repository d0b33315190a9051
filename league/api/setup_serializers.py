"""Input serializers of the set-up API: shape and types only; every rule is checked by the services.

A field DRF refuses is answered with `details` keyed by its path (e.g. `tiebreak_order`,
`teams[3].default_formation`); a service's refusal names its field in `details.field`.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from rest_framework import serializers

from tournaments.formats import FORMATS
from tournaments.game_systems import PLAYING_STYLES
from tournaments.models import Club, Coach, Competition, Skill, Stage, Team, TiebreakPreset
from tournaments.services.competitions import (
    ADVANCED_RULES,
    COMPETITION_SETTINGS,
    DISCIPLINE_SETTINGS,
    SETTING_RANGES,
)
from tournaments.services.stages import STAGE_RANGES, STAGE_SETTINGS
from tournaments.standings.criteria import CRITERIA


class SkillNameField(serializers.SlugRelatedField):
    """A skill by its name ("Playmaker") or its engine code ("creative_midfielder")."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(slug_field="name", queryset=Skill.objects.all(), **kwargs)

    def to_internal_value(self, data: object) -> Skill:
        text = str(data)
        for skill in Skill.objects.all():
            if text.lower() in (skill.name.lower(), skill.code):
                return skill
        self.fail("does_not_exist", slug_name="name", value=text)
        raise AssertionError  # fail() raises


def _setting_bounds() -> dict[str, dict[str, Any]]:
    # Every setting is optional (the service has the defaults); numbers take the service's range.
    bounds: dict[str, dict[str, Any]] = {f: {"required": False} for f in COMPETITION_SETTINGS}
    for field, (low, high) in SETTING_RANGES.items():
        bounds[field] |= {"min_value": low, "max_value": high}
    return bounds


class CompetitionWriteSerializer(serializers.ModelSerializer):
    """A competition's settings: the names are the service's `COMPETITION_SETTINGS` (listed there
    once), the types and choices the model's, the numbers' ranges the service's `SETTING_RANGES`;
    every rule across settings is the service's (`competition_settings_check`)."""

    advanced_rules = serializers.ListField(
        child=serializers.ChoiceField(choices=ADVANCED_RULES),
        required=False,
        help_text="Chapter codes of the game system's rulebook: FUBA 3 A1-A13 (rulebook 3), "
        "FUBA 2 A1-A6 (rulebook 2.0: A5 advanced goalkeeper, A6 playing styles), none for the others",
    )
    tiebreak_order = serializers.ListField(
        child=serializers.ChoiceField(choices=list(CRITERIA)),
        required=False,
        help_text="Preset 'custom' only: criteria in order, starting with 'points'",
    )

    class Meta:
        model = Competition
        fields = ["slug", *COMPETITION_SETTINGS]
        # A taken slug is the service's 409 (with the field named), not a serializer's 400.
        extra_kwargs = _setting_bounds() | {"name": {"required": True}, "slug": {"validators": []}}


class CompetitionUpdateSerializer(CompetitionWriteSerializer):
    """Discipline is changed with …/discipline, which recomputes the bans; the slug never changes."""

    class Meta(CompetitionWriteSerializer.Meta):
        fields = [f for f in COMPETITION_SETTINGS if f not in DISCIPLINE_SETTINGS]
        extra_kwargs = _setting_bounds()


class TiebreakSerializer(serializers.Serializer):
    tiebreak_preset = serializers.ChoiceField(choices=TiebreakPreset.choices)
    tiebreak_order = serializers.ListField(
        child=serializers.ChoiceField(choices=list(CRITERIA)),
        required=False,
        default=list,
        help_text="Preset 'custom' only: criteria in order, starting with 'points'",
    )


class DisciplineSerializer(serializers.Serializer):
    yellow_card_threshold = serializers.IntegerField(
        min_value=SETTING_RANGES["yellow_card_threshold"][0],
        max_value=SETTING_RANGES["yellow_card_threshold"][1],
    )
    red_card_ban_matches = serializers.IntegerField(
        min_value=SETTING_RANGES["red_card_ban_matches"][0],
        max_value=SETTING_RANGES["red_card_ban_matches"][1],
    )
    yellow_wipe_after_stage = serializers.PrimaryKeyRelatedField(
        queryset=Stage.objects.all(), allow_null=True, required=False, help_text="Stage id"
    )
    cup_mode = serializers.BooleanField(required=False, default=False)


class TeamIdsField(serializers.PrimaryKeyRelatedField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(queryset=Team.objects.select_related("competition"), **kwargs)


def _stage_bounds() -> dict[str, dict[str, Any]]:
    # Every setting is optional (the service has the defaults); numbers take the service's range.
    bounds: dict[str, dict[str, Any]] = {f: {"required": False} for f in ("order", *STAGE_SETTINGS)}
    for field, (low, high) in STAGE_RANGES.items():
        bounds[field] |= {"min_value": low, "max_value": high}
    return bounds


class StageWriteSerializer(serializers.ModelSerializer):
    """A stage's settings: the names are the service's `STAGE_SETTINGS` (listed there once), the
    types and choices the model's, the numbers' ranges the service's `STAGE_RANGES`; every rule
    across settings is the service's (`stage_settings_check`)."""

    competition = serializers.SlugRelatedField(slug_field="slug", queryset=Competition.objects.all())
    feeder = serializers.PrimaryKeyRelatedField(
        queryset=Stage.objects.all(),
        required=False,
        allow_null=True,
        help_text="Knockout without teams: the stage whose qualifiers it plays (default: the stage "
        "before); after a league, Swiss or league phase, with the places it takes",
    )
    feed_playoff = serializers.PrimaryKeyRelatedField(
        queryset=Stage.objects.all(),
        required=False,
        allow_null=True,
        help_text="Knockout after a table: the play-off stage (places just below) whose winners join",
    )
    teams = serializers.ListField(child=TeamIdsField(), required=False, help_text="Team ids")
    groups = serializers.DictField(
        child=serializers.ListField(child=TeamIdsField()),
        required=False,
        help_text='Group stage: {"A": [team ids], ...}; empty lists to draw the groups later',
    )

    class Meta:
        model = Stage
        fields = ["competition", "name", "kind", "order", *STAGE_SETTINGS, "teams", "groups"]
        # A taken stage number is the service's 409 (with the field named), not a serializer's 400.
        validators: list[Any] = []
        extra_kwargs = _stage_bounds() | {"name": {"required": True}}


class StageUpdateSerializer(StageWriteSerializer):
    """A stage keeps its competition and kind (create a new stage instead); its groups have their own
    endpoints."""

    class Meta(StageWriteSerializer.Meta):
        fields = ["order", *STAGE_SETTINGS, "teams"]
        extra_kwargs = _stage_bounds()


class GroupWriteSerializer(serializers.Serializer):
    stage = serializers.PrimaryKeyRelatedField(queryset=Stage.objects.select_related("competition"))
    name = serializers.CharField(max_length=10)
    teams = serializers.ListField(child=TeamIdsField(), required=False, default=list)


class GroupUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=10, required=False)
    teams = serializers.ListField(child=TeamIdsField(), required=False)


class ClubWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    country = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")


class ClubUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    country = serializers.CharField(max_length=60, required=False, allow_blank=True)


class CoachWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    country = serializers.CharField(max_length=60)
    ranking_id = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), required=False, allow_null=True)
    played_world_cup_2019 = serializers.BooleanField(required=False, default=False)


class CoachUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    country = serializers.CharField(max_length=60, required=False)
    ranking_id = serializers.CharField(max_length=40, required=False, allow_blank=True)
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), required=False, allow_null=True)
    played_world_cup_2019 = serializers.BooleanField(required=False)


class _TeamFields(serializers.Serializer):
    coach = serializers.PrimaryKeyRelatedField(
        queryset=Coach.objects.select_related("club"), required=False, allow_null=True
    )
    club = serializers.PrimaryKeyRelatedField(queryset=Club.objects.all(), required=False, allow_null=True)
    country = serializers.CharField(max_length=60, required=False, allow_blank=True)
    confederation = serializers.CharField(
        max_length=20, required=False, allow_blank=True, help_text="e.g. UEFA (for draw constraints)"
    )
    seed = serializers.IntegerField(min_value=1, max_value=10000, required=False, allow_null=True)
    default_formation = serializers.CharField(max_length=20, required=False, help_text="e.g. 4-4-2")
    player_roles = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=10),
        required=False,
        help_text='A2 roles, e.g. {"attacking_midfielders": 1} (FUBA 3 and FUBA 2 alike)',
    )
    playing_styles = serializers.DictField(
        child=serializers.ChoiceField(choices=PLAYING_STYLES),
        required=False,
        help_text='FUBA 2 only (rulebook 2.0, A6): a style per line, e.g. {"defence": "easy", '
        '"midfield": "normal", "forward": "aggressive"}; a line left out plays normal',
    )
    skills = serializers.ListField(
        child=SkillNameField(), required=False, help_text="A11 roster: skill names or codes"
    )


class TeamWriteSerializer(_TeamFields):
    competition = serializers.SlugRelatedField(slug_field="slug", queryset=Competition.objects.all())
    name = serializers.CharField(max_length=120)


class TeamUpdateSerializer(_TeamFields):
    name = serializers.CharField(max_length=120, required=False)
    withdrawn = serializers.BooleanField(required=False)


class BulkTeamRowSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    country = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    confederation = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, help_text="Club name")
    coach = serializers.CharField(max_length=120, required=False, allow_blank=True, help_text="Coach name")
    seed = serializers.IntegerField(min_value=1, max_value=10000, required=False, allow_null=True)
    default_formation = serializers.CharField(max_length=20, required=False, allow_blank=True)
    skills = serializers.ListField(child=serializers.CharField(max_length=60), required=False)


class FromFormatSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(max_length=80)
    format = serializers.ChoiceField(choices=[(f.key, f.label) for f in FORMATS.values()])
    teams = BulkTeamRowSerializer(
        many=True, required=False, help_text="Strongest first: pots follow this order"
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False)


class BulkTeamsSerializer(serializers.Serializer):
    teams = BulkTeamRowSerializer(many=True, help_text="Or send text/csv with a header row of these names")


class EnteredGroupsSerializer(serializers.Serializer):
    groups = serializers.DictField(
        child=serializers.ListField(child=TeamIdsField(allow_null=True)),
        help_text='A draw made elsewhere: {"A": [team ids, pot 1 first; null leaves a pot empty]}',
    )


class GroupDrawSerializer(serializers.Serializer):
    pots = serializers.ListField(
        child=serializers.ListField(child=TeamIdsField(), min_length=1),
        min_length=1,
        help_text="Team ids per pot, pot 1 first",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        help_text="Repeat a draw; drawn at random if left out",
    )
    constraints = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        default=list,
        help_text='Caps per group: "club" or "country" (keep apart), or '
        '{"attribute": "confederation"|"country"|"club", "value": "UEFA", "at_most": 2, "at_least": 1}',
    )
    relax = serializers.BooleanField(
        required=False,
        default=False,
        help_text="If the constraints cannot all be met, draw the pots that break them freely (recorded)",
    )
    group_count = serializers.IntegerField(
        min_value=1, max_value=26, required=False, help_text="Create groups A, B, ... if the stage has none"
    )


class LeaguePhaseDrawSerializer(serializers.Serializer):
    opponents = serializers.IntegerField(
        required=False, default=8, help_text="Opponents per team: two from each pot (8: four pots)"
    )
    pots = serializers.ListField(
        child=serializers.ListField(child=TeamIdsField(), min_length=1),
        min_length=1,
        required=False,
        help_text="Team ids per pot, pot 1 first; left out: the stage's teams by seeding order",
    )
    country_cap = serializers.IntegerField(
        required=False, default=2, help_text="At most this many opponents of one country"
    )
    seed = serializers.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, help_text="Repeat a draw; random if left out"
    )


class KnockoutDrawSerializer(serializers.Serializer):
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False)


class DrawSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    stage = serializers.IntegerField(source="stage_id")
    kind = serializers.CharField()
    seed = serializers.IntegerField(help_text="Give it back to repeat the draw")
    pots = serializers.JSONField()
    constraints = serializers.JSONField(help_text="The caps per group, each with its text")
    relax = serializers.BooleanField()
    relaxed = serializers.JSONField(help_text="Pots drawn without the constraints: pot, group, reason")
    result = serializers.JSONField(
        help_text="Groups: {name: [team ids]}; knockout: team ids in bracket order; league phase: "
        '{"matchdays": n, "matches": [[home id, away id, matchday], ...]}; table places: '
        '{"feeder": stage id, "places": {place: team id}}, and on a refill after a correction '
        '"refill": [{"place", "before", "after"}] and "cause"'
    )
    drawn_at = serializers.DateTimeField()
    drawn_by = serializers.CharField(source="drawn_by.username", default=None, help_text="Who drew")
    drawn_by_role = serializers.CharField(
        help_text="Their standing then: organiser, co-organiser, administrator"
    )


class ShiftRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=1000)
    days = serializers.IntegerField(min_value=-366, max_value=366, required=False, default=0)
    hours = serializers.IntegerField(min_value=-1000, max_value=1000, required=False, default=0)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if not attrs.get("days") and not attrs.get("hours"):
            raise serializers.ValidationError({"days": ["Give the days (or hours) to move the round by."]})
        return attrs


class RoundClockSerializer(serializers.Serializer):
    """A venue round's clock (docs/venue.md): its start and length, or `clear` to take it away."""

    round = serializers.IntegerField(min_value=1, max_value=1000)
    starts_at = serializers.DateTimeField(required=False, help_text="With its time zone")
    minutes = serializers.IntegerField(min_value=1, max_value=24 * 60, required=False)
    clear = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if not attrs.get("clear"):
            missing = {
                k: ["Give the round's start and length (or clear: true)."]
                for k in ("starts_at", "minutes")
                if k not in attrs
            }
            if missing:
                raise serializers.ValidationError(missing)
        return attrs


class RoundClockOutSerializer(serializers.Serializer):
    stage = serializers.IntegerField(source="stage_id")
    round = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    minutes = serializers.IntegerField()


class TablesSerializer(serializers.Serializer):
    """Number a round's tables from `first` in match order, or put one `fixture` at `table`."""

    round = serializers.IntegerField(min_value=1, max_value=1000)
    first = serializers.IntegerField(min_value=1, max_value=999, required=False, default=1)
    fixture = serializers.IntegerField(required=False, help_text="One fixture of the round")
    table = serializers.IntegerField(min_value=1, max_value=999, required=False, allow_null=True)

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if "fixture" in attrs and "table" not in attrs:
            raise serializers.ValidationError({"table": ["Give the fixture's table (null: none)."]})
        return attrs


class ScheduleSerializer(serializers.Serializer):
    start = serializers.DateTimeField(required=False, help_text="Kick-off of the first round")
    start_date = serializers.DateField(required=False, help_text="Or: the first round's date …")
    kickoff_time = serializers.TimeField(required=False, help_text="… and its kick-off time (UTC)")
    days_between_rounds = serializers.IntegerField(min_value=0, max_value=366, required=False)
    interval = serializers.DurationField(
        required=False, min_value=timedelta(0), help_text="Time between rounds, e.g. '7 00:00:00'"
    )
    deadline_days = serializers.IntegerField(
        min_value=0, max_value=366, required=False, help_text="Result due this many days after kick-off"
    )
    deadline_after = serializers.DurationField(
        required=False,
        min_value=timedelta(0),
        help_text="Deadline for reporting a result, counted from kick-off",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """One schedule: start, interval and deadline_after, from whichever form the client used."""
        if "start" in attrs and ("start_date" in attrs or "kickoff_time" in attrs):
            raise serializers.ValidationError(
                {"start": ["Give start, or start_date with kickoff_time, not both."]}
            )
        if "kickoff_time" in attrs and "start_date" not in attrs:
            raise serializers.ValidationError({"start_date": ["A kick-off time needs the start date."]})
        if "interval" in attrs and "days_between_rounds" in attrs:
            raise serializers.ValidationError(
                {"interval": ["Give interval or days_between_rounds, not both."]}
            )
        if "deadline_after" in attrs and "deadline_days" in attrs:
            raise serializers.ValidationError(
                {"deadline_after": ["Give deadline_after or deadline_days, not both."]}
            )
        out: dict[str, Any] = {}
        if "start" in attrs:
            out["start"] = attrs["start"]
        elif "start_date" in attrs:
            kickoff = attrs.get("kickoff_time") or time(0, 0)
            out["start"] = datetime.combine(attrs["start_date"], kickoff, tzinfo=UTC)
        if "interval" in attrs:
            out["interval"] = attrs["interval"]
        elif "days_between_rounds" in attrs:
            out["interval"] = timedelta(days=attrs["days_between_rounds"])
        if "deadline_after" in attrs:
            out["deadline_after"] = attrs["deadline_after"]
        elif "deadline_days" in attrs:
            out["deadline_after"] = timedelta(days=attrs["deadline_days"])
        return out
