"""The kinds of notification, who hears of each, and the channels a person gets by default.

Pure data (no models, no Django): the outbox, the fan-out, the settings pages and the docs read it.
"""

from __future__ import annotations

from typing import Final

FIXTURE_SCHEDULED: Final = "fixture_scheduled"
FIXTURE_MOVED: Final = "fixture_moved"
DEADLINE_48H: Final = "deadline_48h"
DEADLINE_24H: Final = "deadline_24h"
DEADLINE_PASSED: Final = "deadline_passed"
SCORE_REPORTED: Final = "score_reported"
DISPUTE_OPENED: Final = "dispute_opened"
DISPUTE_RESOLVED: Final = "dispute_resolved"
RESULT_COUNTS: Final = "result_counts"
SUSPENSION: Final = "suspension"
DRAW_MADE: Final = "draw_made"
ROUND_PAIRED: Final = "round_paired"
LIVE_STARTED: Final = "live_started"
LIVE_GOAL: Final = "live_goal"
# To the owner of a webhook or a phone whose deliveries kept failing: always by e-mail, never paused.
CHANNEL_PAUSED: Final = "channel_paused"

LABELS: Final[dict[str, str]] = {
    FIXTURE_SCHEDULED: "A fixture is scheduled",
    FIXTURE_MOVED: "A fixture is moved",
    DEADLINE_48H: "A reporting deadline is 48 hours away",
    DEADLINE_24H: "A reporting deadline is 24 hours away",
    DEADLINE_PASSED: "A reporting deadline passed",
    SCORE_REPORTED: "The opponent reported a score (confirm or dispute)",
    DISPUTE_OPENED: "A result is disputed",
    DISPUTE_RESOLVED: "A dispute is resolved",
    RESULT_COUNTS: "A result counts",
    SUSPENSION: "A suspension",
    DRAW_MADE: "A draw is made",
    ROUND_PAIRED: "A Swiss round is paired",
    LIVE_STARTED: "A live match of a followed team started",
    LIVE_GOAL: "A goal in a followed live match",
    CHANNEL_PAUSED: "A webhook or phone of yours was paused",
}

# Everything a person may choose channels for, in the order of the settings page.
CHOOSABLE: Final[tuple[str, ...]] = tuple(k for k in LABELS if k != CHANNEL_PAUSED)

# The daily digest's one-click unsubscribe: it carries notices of many kinds, so it stops the mails
# of every kind (web push stays as chosen). Not a kind of notice.
EVERY_KIND: Final = "every_kind"


def unsubscribe_label(kind: str) -> str:
    """What an unsubscribe link stops, in words."""
    return "every notification (the daily digest)" if kind == EVERY_KIND else LABELS.get(kind, kind)


# Only the two clubs of the fixture (and a club's webhook that asked for its private notices):
# an unconfirmed score, a dispute. Nothing here reaches a follower or a competition's webhook.
PRIVATE: Final[frozenset[str]] = frozenset({SCORE_REPORTED, DISPUTE_OPENED, DISPUTE_RESOLVED, CHANNEL_PAUSED})

# What asks something of the club (a score to confirm, a dispute, a deadline to report by): it
# reaches every member, also one who stopped following the club's fixtures (notifications.ClubMute).
ASKS_THE_CLUB: Final[frozenset[str]] = PRIVATE | {DEADLINE_48H, DEADLINE_24H, DEADLINE_PASSED}

# Mailed at once even to a person who chose the daily digest: a score waiting for their club's
# confirmation (it counts only once confirmed and the club's deadline runs; the score_reported
# audience is the club asked, never the reporting one) and a paused channel of theirs. Everything
# else waits for the digest.
AT_ONCE: Final[frozenset[str]] = frozenset({SCORE_REPORTED, CHANNEL_PAUSED})

# Who hears of a public kind besides the clubs concerned: the followers (of the team, the
# competition or the coach). Deadlines concern the clubs that must report and nobody else.
FOR_FOLLOWERS: Final[frozenset[str]] = frozenset(
    {
        FIXTURE_SCHEDULED,
        FIXTURE_MOVED,
        RESULT_COUNTS,
        SUSPENSION,
        DRAW_MADE,
        ROUND_PAIRED,
        LIVE_STARTED,
        LIVE_GOAL,
    }
)

EMAIL: Final = "email"
PUSH: Final = "push"
PERSONAL_CHANNELS: Final[tuple[str, ...]] = (EMAIL, PUSH)

# A person's channels for a kind until they choose: a mail for what asks something of them or
# changes their calendar, a push (on phones that allowed it) for what happens in a match.
DEFAULT_CHANNELS: Final[dict[str, tuple[str, ...]]] = {
    FIXTURE_SCHEDULED: (EMAIL,),
    FIXTURE_MOVED: (EMAIL, PUSH),
    DEADLINE_48H: (EMAIL,),
    DEADLINE_24H: (EMAIL, PUSH),
    DEADLINE_PASSED: (EMAIL, PUSH),
    SCORE_REPORTED: (EMAIL, PUSH),
    DISPUTE_OPENED: (EMAIL, PUSH),
    DISPUTE_RESOLVED: (EMAIL, PUSH),
    RESULT_COUNTS: (EMAIL,),
    SUSPENSION: (EMAIL,),
    DRAW_MADE: (EMAIL,),
    ROUND_PAIRED: (EMAIL,),
    LIVE_STARTED: (PUSH,),
    LIVE_GOAL: (PUSH,),
    CHANNEL_PAUSED: (EMAIL,),
}
