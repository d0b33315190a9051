"""Read serializers for competitions data. Writes go through action serializers in views, then services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.holds import hold_of
from matches.progress import competition_champion
from tournaments.game_systems import rules_of
from tournaments.models import (
    Club,
    Coach,
    Competition,
    Fixture,
    Group,
    Skill,
    Stage,
    Suspension,
    Team,
)
from tournaments.services.competitions import COMPETITION_SETTINGS
from tournaments.services.stages import STAGE_SETTINGS


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "country"]


class CoachSerializer(serializers.ModelSerializer):
    club = ClubSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Coach
        fields = ["id", "name", "country", "ranking_id", "club", "played_world_cup_2019"]


class SkillSerializer(serializers.ModelSerializer):
    class Meta:
        model = Skill
        fields = [
            "id",
            "name",
            "position_group",
            "cp_cost",
            "counts_as_two",
            "restriction",
            "restrictions_text",
            "when_played",
            "chapter_text",
        ]


class TeamBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "country"]


class TeamSerializer(serializers.ModelSerializer):
    coach = CoachSerializer(read_only=True, allow_null=True)
    club = ClubSerializer(read_only=True, allow_null=True)
    competition: serializers.SlugRelatedField[Competition] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    skills = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = [
            "id",
            "competition",
            "name",
            "country",
            "confederation",
            "seed",
            "coach",
            "club",
            "default_formation",
            "player_roles",
            "playing_styles",
            "withdrawn",
            "skills",
        ]

    @extend_schema_field(
        serializers.ListField(
            child=serializers.DictField(), help_text="Roster skills: name, source (chosen/gained)"
        )
    )
    def get_skills(self, team: Team) -> list[dict[str, Any]]:
        return [
            {"skill": ts.skill_id, "name": ts.skill.name, "source": ts.source}
            for ts in team.roster_skills.all()
        ]


class GroupSerializer(serializers.ModelSerializer):
    teams = TeamBriefSerializer(many=True, read_only=True)

    class Meta:
        model = Group
        fields = ["id", "stage", "name", "teams"]


class StageSerializer(serializers.ModelSerializer):
    groups = GroupSerializer(many=True, read_only=True)
    teams: serializers.PrimaryKeyRelatedField[Team] = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True, help_text="Round robin, Swiss, knockout: team ids (groups list theirs)"
    )
    competition: serializers.SlugRelatedField[Competition] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "competition",
            "order",
            "kind",
            "status",
            *STAGE_SETTINGS,
            "teams",
            "groups",
        ]


class StageBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Stage
        fields = ["id", "order", "name", "kind", "status"]


class GameSystemCardsSerializer(serializers.Serializer):
    kinds = serializers.ListField(child=serializers.CharField(), help_text="Card kinds a result may record")
    per_player = serializers.BooleanField(help_text="Booked by shirt number (Soccer City), else the team")
    shirt_numbers = serializers.ListField(child=serializers.IntegerField())
    send_offs_lose = serializers.IntegerField(
        allow_null=True, help_text="Players of one side sent off that end the match with a 5-0 loss"
    )


class GameSystemRulesSerializer(serializers.Serializer):
    """What the competition's game system allows (tournaments/game_systems.py)."""

    code = serializers.CharField()
    name = serializers.CharField()
    rulebook = serializers.CharField()
    engine_ruleset = serializers.CharField(allow_null=True, help_text="null: results only, no rules engine")
    cards = GameSystemCardsSerializer()
    extra_time = serializers.BooleanField()
    shootout = serializers.CharField(allow_null=True)
    away_goals = serializers.BooleanField()
    advanced_rules = serializers.ListField(child=serializers.CharField())
    skills = serializers.BooleanField()
    role_keys = serializers.ListField(
        child=serializers.CharField(), help_text="A2 player roles, as a team's player_roles names them"
    )
    playing_styles = serializers.ListField(
        child=serializers.CharField(),
        help_text="A6 playing styles of rulebook 2.0 a team may choose per line (FUBA 2); empty: none",
    )
    chances_model = serializers.CharField()
    cup_mode_allowed = serializers.BooleanField()
    cup_mode = serializers.BooleanField()


class CompetitionSerializer(serializers.ModelSerializer):
    stages = StageBriefSerializer(many=True, read_only=True)
    champion = serializers.SerializerMethodField()
    game_system_rules = serializers.SerializerMethodField()

    class Meta:
        model = Competition
        # The settings are the service's list (COMPETITION_SETTINGS), named once.
        fields = [
            "id",
            "slug",
            *COMPETITION_SETTINGS,
            "status",
            "yellow_wipe_after_stage",
            "game_system_rules",
            "stages",
            "champion",
        ]

    @extend_schema_field(GameSystemRulesSerializer)
    def get_game_system_rules(self, competition: Competition) -> dict[str, object]:
        """What the game system allows: cards, shirt numbers, extra time, shoot-out, engine."""
        return rules_of(competition).as_dict()

    @extend_schema_field(TeamBriefSerializer(allow_null=True))
    def get_champion(self, competition: Competition) -> dict[str, Any] | None:
        """The winner of the final once it is decided; null before."""
        champion = competition_champion(competition=competition)
        return TeamBriefSerializer(champion).data if champion is not None else None


class ResultBriefSerializer(serializers.Serializer):
    home_goals = serializers.IntegerField()
    away_goals = serializers.IntegerField()
    extra_time = serializers.BooleanField()
    home_penalties = serializers.IntegerField(allow_null=True)
    away_penalties = serializers.IntegerField(allow_null=True)
    # A field named like Field.source: the serializer metaclass takes declared fields off the class.
    source = serializers.CharField()  # type: ignore[assignment]
    is_simulated = serializers.BooleanField()


class FixtureSerializer(serializers.ModelSerializer):
    competition: serializers.SlugRelatedField[Competition] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    # Null until a knockout slot is decided (the placeholder names it), and outside a group stage.
    home_team = TeamBriefSerializer(read_only=True, allow_null=True)
    away_team = TeamBriefSerializer(read_only=True, allow_null=True)
    group: serializers.SlugRelatedField[Group] = serializers.SlugRelatedField(
        slug_field="name", read_only=True, allow_null=True
    )
    result = serializers.SerializerMethodField()
    overdue = serializers.SerializerMethodField(
        help_text="Past its reporting deadline with no result reported and not being scored live"
    )

    class Meta:
        model = Fixture
        fields = [
            "id",
            "competition",
            "stage",
            "group",
            "round",
            "round_name",
            "leg",
            "match_number",
            "home_team",
            "away_team",
            "home_placeholder",
            "away_placeholder",
            "kickoff",
            "table_number",
            "deadline",
            "overdue",
            "status",
            "result",
        ]

    def get_overdue(self, fixture: Fixture) -> bool:
        # Asked only of the few fixtures past their deadline: one query each, not one per row.
        return fixture.is_overdue and hold_of(fixture.id) is None

    @extend_schema_field(ResultBriefSerializer(allow_null=True))
    def get_result(self, fixture: Fixture) -> dict[str, Any] | None:
        # Only a counted result is public: a submitted-but-unconfirmed score is not a result yet.
        if not fixture.is_counted:
            return None
        result = getattr(fixture, "result", None)
        if result is None:
            return None
        return {
            "home_goals": result.home_goals,
            "away_goals": result.away_goals,
            "extra_time": result.extra_time,
            "home_penalties": result.home_penalties,
            "away_penalties": result.away_penalties,
            "source": result.source,
            "is_simulated": result.is_simulated,
        }


class SuspensionSerializer(serializers.ModelSerializer):
    team = TeamBriefSerializer(read_only=True)
    competition: serializers.SlugRelatedField[Competition] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    served_in: serializers.PrimaryKeyRelatedField[Fixture] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True
    )
    source_fixture: serializers.PrimaryKeyRelatedField[Fixture] = serializers.PrimaryKeyRelatedField(
        read_only=True
    )
    is_served = serializers.BooleanField(read_only=True)

    class Meta:
        model = Suspension
        fields = [
            "id",
            "competition",
            "team",
            "shirt_number",
            "reason",
            "source_fixture",
            "sequence",
            "served_in",
            "is_served",
        ]


class GenerateFixturesSerializer(serializers.Serializer):
    start = serializers.DateTimeField(required=False, help_text="Kick-off of the first round")
    # Not negative: round 2 before round 1, or a result due before its match kicks off.
    interval = serializers.DurationField(
        required=False, min_value=timedelta(0), help_text="Time between rounds, e.g. '7 00:00:00'"
    )
    deadline_after = serializers.DurationField(
        required=False,
        min_value=timedelta(0),
        help_text="Deadline for reporting a result, counted from kick-off",
    )


class StandingsRowSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    goals_for = serializers.IntegerField()
    goals_against = serializers.IntegerField()
    goal_difference = serializers.IntegerField()
    points = serializers.IntegerField()
    fair_play = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    byes = serializers.IntegerField()
    level_with_previous = serializers.BooleanField(
        help_text="Still level with the team above after every criterion"
    )
    decided_by = serializers.CharField(help_text="Criterion that separated this team from the one above")
    explanation = serializers.CharField(help_text="The tie-break in words, when one decided the place")
    qualified = serializers.BooleanField()


class StandingsTableSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    stage_name = serializers.CharField()
    group = serializers.CharField(allow_null=True)
    tiebreak_order = serializers.ListField(child=serializers.CharField())
    rows = StandingsRowSerializer(many=True)
