"""What the league announces: the signals its services send inside the transaction of a change.

The league sits under the notifications: it names no notification app. The notifications connect
to these signals (notifications.apps, notifications.outbox.connect) and write their outbox row in
the same transaction, so the row commits or rolls back with the change. Each signal's keyword
arguments are those of the notifications.outbox function of the same name.
"""

from __future__ import annotations

from django.dispatch import Signal

# An entry of a fixture's audit trail (matches.services.shared.audit): fixture, action, audit_id,
# after, reporting_team_id, note.
result_audited = Signal()
# A kickoff set or changed (tournaments.services.scheduling): fixture, kickoff_before.
fixture_dates_changed = Signal()
# A stage's fixtures generated: competition, stage_id, stage_name, fixtures.
fixtures_published = Signal()
# A group or bracket draw made (tournaments.services.drawing): competition, draw_id, stage_name,
# kind, team_ids, summary.
draw_made = Signal()
# A Swiss round paired (tournaments.services.swiss_rounds): competition, stage_id, stage_name,
# round, fixtures, bye.
round_paired = Signal()
# A suspension made (matches.discipline): key, competition, team_id,
# team_name, reason, served_in.
suspension_made = Signal()

# A club's or a coach's name as the public pages show it changed (tournaments.services.clubs):
# club_id or coach_id. Not a notification (not in SIGNALS): the kept public pages follow it
# (matches.standings.signals, ratings.signals), since a rename saves no row of a competition.
names_changed = Signal()

SIGNALS = {
    "result_audited": result_audited,
    "fixture_dates_changed": fixture_dates_changed,
    "fixtures_published": fixtures_published,
    "draw_made": draw_made,
    "round_paired": round_paired,
    "suspension_made": suspension_made,
}
