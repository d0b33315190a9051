"""Input of the scoring session API (the services check everything against the match itself)."""

from __future__ import annotations

import copy
from typing import Any

from rest_framework import serializers

from kernel.api_json import JSONDocumentField


class StartSerializer(serializers.Serializer):
    fixture = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The fixture to score")
    app_dice = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Both clubs agree that the server rolls every roll of the session (a new session only)",
    )


class DiceSerializer(serializers.Serializer):
    app_dice = serializers.BooleanField(
        help_text="true: the server rolls every roll (both clubs agree); false: dice typed in. "
        "Only before the first event"
    )


class TapSerializer(serializers.Serializer):
    """One tap (docs/scorer-internals.md, "One tap, one post"); its events are checked by the
    service, which names the index of a bad one."""

    tap_id = serializers.CharField(
        max_length=64, help_text="Made by the client, unique per tap: a resend answers as stored"
    )
    after = serializers.CharField(
        max_length=64,
        allow_blank=True,
        help_text='The client_id of the stored live event this tap extends ("" at the start of the match)',
    )
    after_seq = serializers.IntegerField(
        min_value=0, max_value=10**6, help_text="That event's seq (0 at the start): a second check"
    )
    answer = serializers.ChoiceField(
        choices=["full", "light"],
        default="full",
        help_text='"full": the answer\'s state is the whole session state; "light": only the fields a tap '
        "changes (session, fixture, status, seq, head, version, participants, result, shootout), for a "
        "client whose own engine draws the match",
    )
    events = JSONDocumentField(
        help_text='1 to 64 entries in order: {"client_id", "event": fuba-log/1 event} (a decision or '
        'typed dice; "rolled_offline": true for app dice the phone rolled without connection) or '
        '{"client_id", "roll_for_me": true} (last: the server rolls the roll due)'
    )

    def get_fields(self) -> dict[str, Any]:
        # A phone posts a tap every few seconds a table (issue 35: a post <= 3x a ping by CPU).
        # DRF deep-copies the declared fields for every instance, which builds each field anew
        # (its validators too): a tenth of a light post's CPU. These fields keep no state of their
        # own once made but their binding to this serializer, which a shallow copy gets afresh.
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}


class UndoSerializer(serializers.Serializer):
    after = serializers.CharField(
        max_length=64, allow_blank=True, help_text="The client_id of the stored head: the event taken back"
    )
    after_seq = serializers.IntegerField(
        min_value=0, max_value=10**6, help_text="Its seq (the session's seq)"
    )
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class FinishSerializer(serializers.Serializer):
    home_penalties = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=99,
        help_text="The shoot-out score of a tie still level (state shootout); when both clubs scored, "
        "each gives it and the second must give the first's (else 409 shootout_mismatch)",
    )
    away_penalties = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=99, help_text="See home_penalties"
    )


class SetupCheckSerializer(serializers.Serializer):
    choice = JSONDocumentField(
        help_text='A set-up as the setup decision takes it: {"gk": AREA, "players": {AREA: COUNT, ...}}'
    )


class SetupCheckResultSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The session's seq the set-up was checked against")
    ok = serializers.BooleanField(help_text="The pending setup decision would accept this set-up")
    problems = serializers.ListField(child=serializers.CharField(), help_text="What is still wrong, in words")
    placed = serializers.IntegerField(help_text="Outfield players placed")
    outfield = serializers.IntegerField(help_text="Outfield players the team has on the pitch")


class SideBranchSerializer(serializers.Serializer):
    branch_id = serializers.CharField(max_length=64, help_text="Made by the phone: a resend changes nothing")
    from_seq = serializers.IntegerField(
        min_value=1, max_value=10**6, help_text="The sequence number the phone's first tap was meant for"
    )
    from_minute = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=16, help_text="The match minute at that tap"
    )
    events = JSONDocumentField(help_text="The phone's taps in order: [{client_id, event}]")


class AbandonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Why the session stops")


class SessionStateSerializer(serializers.Serializer):
    """The session as the engine sees it after its events (documented shape; see docs/scorer-internals.md)."""

    session = serializers.IntegerField()
    fixture = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["live", "full_time", "submitted", "abandoned"])
    seq = serializers.IntegerField(help_text="Number of live events")
    head = serializers.CharField(help_text="The client_id of the last live event (the next tap's after)")
    version = serializers.IntegerField(help_text="Bumped by every change (the live endpoint's ETag)")
    teams = serializers.DictField()
    advanced_rules = serializers.ListField(child=serializers.CharField())
    areas = serializers.ListField(
        child=serializers.DictField(), help_text="The board's areas: code, index, end, words, template, name"
    )
    state = serializers.DictField(help_text="score, minute, half, turn, stage, ball, value, control, teams")
    pending = serializers.DictField(
        allow_null=True,
        help_text="What the match waits for: kind, name, actor, turn, stage, rule, text, "
        "options [{value, label}] / dice, sides, default; board (what a tap on the pitch answers), "
        "only_answer (docs/scorer-internals.md)",
    )
    question = serializers.CharField()
    events = serializers.ListField(child=serializers.DictField())
    moments = serializers.ListField(child=serializers.DictField())
    last_undo = serializers.DictField(allow_null=True)
    confirmations = serializers.DictField()
    participants = serializers.ListField(child=serializers.CharField())
    result = serializers.DictField(allow_null=True)
    submission = serializers.DictField(allow_null=True)
    abandon_reason = serializers.CharField(allow_null=True)
    app_dice = serializers.BooleanField(help_text="The server rolls every roll of this session")
    shootout = serializers.BooleanField(
        help_text="Full time of a level knockout tie: the confirmation gives the shoot-out score"
    )
    shootout_score = serializers.DictField(
        allow_null=True,
        help_text="The shoot-out score the first club to confirm gave ({home, away, side}: side is that "
        "club); the other club's confirmation must give the same score",
    )


class SessionLogSerializer(serializers.Serializer):
    """The session's fuba-log/1 header and its live events as stored (documented shape)."""

    session = serializers.IntegerField()
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    header = serializers.DictField(help_text="The fuba-log/1 header built from the fixture")
    events = serializers.ListField(
        child=serializers.DictField(), help_text="[{seq, client_id, event}] in order, undone events left out"
    )


class StoredEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    client_id = serializers.CharField()
    event = serializers.DictField(
        help_text="The fuba-log/1 event as stored (the server's dice for roll_for_me)"
    )
    side = serializers.CharField(help_text="home/away: the posting club; blank: staff")
    rolled_by_app = serializers.BooleanField()
    rolled_offline = serializers.BooleanField(help_text="App dice rolled on the posting club's phone offline")


class TapAnswerSerializer(serializers.Serializer):
    created = serializers.BooleanField(help_text="false: the tap repeats what is stored (nothing added)")
    stored = StoredEventSerializer(many=True, help_text="The tap's events as stored, in order")
    head = serializers.CharField(help_text="The client_id of the session's head now")
    seq = serializers.IntegerField(help_text="The session's seq now")
    state = serializers.DictField(
        help_text='The session state after the tap (SessionState); with "answer": "light" only the fields a '
        "tap changes: session, fixture, status, seq, head, version, participants, result, shootout"
    )


class SideBranchAnswerSerializer(serializers.Serializer):
    side_branch = serializers.DictField(
        help_text="branch_id, from_seq, taps, message (what to tell), created"
    )
    state = SessionStateSerializer()


class SideBranchListSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    side_branches = serializers.ListField(
        child=serializers.DictField(),
        help_text="Oldest first: branch_id, from_seq, from_minute, session_seq, taps, side, team, "
        "recorded_by, at, message, events [{client_id, event, text}]",
    )
