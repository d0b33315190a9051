"""Serializers of the results workflow: input shapes of the write actions and read shapes of results/logs."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from kernel.api_json import JSONDocumentField
from league.api.serializers import FixtureSerializer, TeamBriefSerializer
from matches.models import Card, CardKind, MatchLog, PointAdjustment, Result, ResultAudit, ResultSubmission
from matches.progress import fixture_tie_outcome
from matches.selectors import PUBLIC_AUDIT_NOTES
from tournaments.models import Team


class CardInputSerializer(serializers.Serializer):
    team = serializers.ChoiceField(choices=["home", "away"], help_text="The booked side")
    kind = serializers.ChoiceField(choices=CardKind.choices)
    shirt_number = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True, help_text="Soccer City only"
    )


class ScoreInputSerializer(serializers.Serializer):
    home_goals = serializers.IntegerField(min_value=0, max_value=99)
    away_goals = serializers.IntegerField(min_value=0, max_value=99)
    extra_time = serializers.BooleanField(default=False)
    home_penalties = serializers.IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    away_penalties = serializers.IntegerField(min_value=0, max_value=99, required=False, allow_null=True)
    cards = CardInputSerializer(many=True, required=False, default=list)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs.get("home_penalties") is None) != (attrs.get("away_penalties") is None):
            raise serializers.ValidationError(
                {"home_penalties": ["Give both shoot-out scores or neither."]}, code="invalid"
            )
        return attrs


class SubmitResultSerializer(ScoreInputSerializer):
    replace = serializers.BooleanField(
        default=False,
        help_text="Replace your club's report still waiting for the opponent (without it a second "
        "report answers 409); the earlier one stays in the history",
    )
    turn_log = JSONDocumentField(
        required=False,
        allow_null=True,
        help_text="Optional FUBA 3 turn log (docs/turn-log-format.md); validated by the rules engine.",
    )

    def validate_turn_log(self, value: Any) -> Any:
        if value is not None and not isinstance(value, dict):
            raise serializers.ValidationError("The turn log must be a JSON object.")
        return value


class AdminResultSerializer(ScoreInputSerializer):
    note = serializers.CharField(allow_blank=True, required=False, default="")
    reopen = serializers.BooleanField(
        default=False,
        help_text="Override only: also clear later fixtures played with the old outcome "
        "(without it such a correction answers 409 listing them in details.fixtures)",
    )


class AwardSerializer(serializers.Serializer):
    team_id = serializers.IntegerField(help_text="The side the match is awarded to (the other did not show)")
    note = serializers.CharField(help_text="Why (kept in the audit trail)")
    reopen = serializers.BooleanField(default=False, help_text="As for override")


class ClearResultSerializer(serializers.Serializer):
    note = serializers.CharField(
        help_text="Why the result is cleared or the match voided (kept in the audit trail)"
    )
    reopen = serializers.BooleanField(
        default=False, help_text="Also clear later fixtures played with the old outcome"
    )


class DisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(help_text="Why the submitted result is wrong")
    cards = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        default=list,
        help_text="The card lines that are wrong: indexes into the submission's cards, from 0",
    )


class ForfeitSerializer(serializers.Serializer):
    team_id = serializers.IntegerField(
        required=False, help_text="The forfeiting team, only needed when your club plays on both sides"
    )


class CheckInSerializer(serializers.Serializer):
    team_id = serializers.IntegerField(
        required=False, help_text="The team checking in, only needed when your club plays on both sides"
    )


class CheckInOutSerializer(serializers.Serializer):
    fixture = serializers.IntegerField(source="fixture_id")
    team = serializers.IntegerField(source="team_id")
    team_name = serializers.CharField(source="team.name")
    checked_in_at = serializers.DateTimeField(source="created_at")
    checked_in_by_role = serializers.CharField()


class TurnLogSerializer(serializers.Serializer):
    turn_log = JSONDocumentField(help_text="A fuba-log/1 document")


class CardSerializer(serializers.ModelSerializer):
    team = TeamBriefSerializer(read_only=True)

    class Meta:
        model = Card
        fields = ["team", "kind", "shirt_number", "sequence"]


class ResultSerializer(serializers.ModelSerializer):
    cards = CardSerializer(many=True, read_only=True)
    is_simulated = serializers.BooleanField(read_only=True)

    class Meta:
        model = Result
        fields = [
            "home_goals",
            "away_goals",
            "extra_time",
            "home_penalties",
            "away_penalties",
            "source",
            "is_simulated",
            "cards",
            "created_at",
            "updated_at",
        ]


class SubmissionSerializer(serializers.ModelSerializer):
    team = TeamBriefSerializer(read_only=True)
    submitted_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    has_turn_log = serializers.SerializerMethodField()

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "fixture",
            "team",
            "submitted_by",
            "home_goals",
            "away_goals",
            "extra_time",
            "home_penalties",
            "away_penalties",
            "cards",
            "status",
            "validation_status",
            "validation_errors",
            "derived_result",
            "dispute_reason",
            "disputed_cards",
            "has_turn_log",
            "created_at",
        ]

    def get_has_turn_log(self, obj: ResultSubmission) -> bool:
        return hasattr(obj, "match_log")


class MatchLogSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchLog
        fields = ["id", "fixture", "submission", "format", "is_simulated", "seed", "created_at", "data"]


class MatchLogBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = MatchLog
        fields = ["id", "format", "is_simulated", "created_at"]


class AuditSerializer(serializers.ModelSerializer):
    actor: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = ResultAudit
        fields = ["id", "action", "actor", "actor_role", "before", "after", "note", "created_at"]


class TieSerializer(serializers.Serializer):
    winner = TeamBriefSerializer()
    loser = TeamBriefSerializer()
    decided_by = serializers.ChoiceField(
        choices=["score", "aggregate", "away_goals", "penalties", "awarded"],
        help_text="How the tie was decided",
    )


class PublicAuditSerializer(AuditSerializer):
    """The public part of the trail (matches.selectors.PUBLIC_AUDIT_ACTIONS): same fields, with
    no actor and no "before", and a note only where it says why a result counts."""

    def to_representation(self, instance: ResultAudit) -> dict[str, Any]:
        data = super().to_representation(instance)
        data["actor"] = None
        data["before"] = None
        if instance.action not in PUBLIC_AUDIT_NOTES:
            data["note"] = ""
        return data


class MatchSerializer(FixtureSerializer):
    """A fixture with its full result, cards, the knockout tie's winner and its (public) turn logs."""

    full_result = serializers.SerializerMethodField()
    tie = serializers.SerializerMethodField()
    logs = serializers.SerializerMethodField()

    class Meta(FixtureSerializer.Meta):
        fields = [*FixtureSerializer.Meta.fields, "full_result", "tie", "logs"]

    @extend_schema_field(TieSerializer(allow_null=True))
    def get_tie(self, fixture: Any) -> dict[str, Any] | None:
        """A knockout tie that is decided: who went through (both legs counted, or awarded)."""
        outcome = fixture_tie_outcome(fixture=fixture)
        if outcome is None:
            return None
        teams = {t.pk: t for t in Team.objects.filter(pk__in=[outcome.winner_id, outcome.loser_id])}
        return {
            "winner": TeamBriefSerializer(teams[outcome.winner_id]).data,
            "loser": TeamBriefSerializer(teams[outcome.loser_id]).data,
            "decided_by": outcome.decided_by,
        }

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_full_result(self, fixture: Any) -> dict[str, Any] | None:
        if not fixture.is_counted or getattr(fixture, "result", None) is None:
            return None
        return ResultSerializer(fixture.result).data

    @extend_schema_field(MatchLogBriefSerializer(many=True))
    def get_logs(self, fixture: Any) -> list[dict[str, Any]]:
        logs = serializers.ListSerializer(
            child=MatchLogBriefSerializer(), instance=getattr(fixture, "public_logs", [])
        )
        return logs.data


class PointAdjustmentSerializer(serializers.ModelSerializer):
    team = TeamBriefSerializer(read_only=True)
    competition: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )

    class Meta:
        model = PointAdjustment
        fields = ["id", "competition", "team", "points", "reason", "created_by_role", "created_at"]


class PointAdjustmentInputSerializer(serializers.Serializer):
    team_id = serializers.IntegerField()
    points = serializers.IntegerField(min_value=-99, max_value=99, help_text="Negative to deduct")
    reason = serializers.CharField()
