"""What a notification says: a title, a few lines and a link, from the event's data alone (so a
retried delivery says the same as the first try)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse

from notifications import conf, kinds
from notifications.models import Event


@dataclass(frozen=True)
class Message:
    title: str
    lines: list[str]
    url: str

    @property
    def text(self) -> str:
        return "\n".join([self.title, *self.lines, self.url])


def _when(value: str | None) -> str:
    if not value:
        return "no date yet"
    return datetime.fromisoformat(value).strftime("%a %d %b %Y, %H:%M UTC")


def event_url(event: Event) -> str:
    data = event.data
    if data.get("path"):
        return conf.site_url() + str(data["path"])
    if data.get("fixture_id") and data.get("slug"):
        path = reverse("tournaments:match", args=[data["slug"], data["fixture_id"]])
    elif data.get("slug"):
        path = reverse("tournaments:competition", args=[data["slug"]])
    else:
        path = reverse("notifications:settings")
    return conf.site_url() + path


def _fixture_lines(kind: str, d: dict[str, Any]) -> tuple[str, list[str]]:
    title = d.get("title", "")
    where = f"{d.get('competition', '')}, {d.get('round', '')}"
    if d.get("table"):
        where += f", table {d['table']}"
    if kind == kinds.FIXTURE_SCHEDULED and "count" in d:
        return f"Fixtures out: {title}", [
            d.get("competition", ""),
            f"First kickoff: {_when(d.get('kickoff'))}",
        ]
    if kind == kinds.FIXTURE_SCHEDULED:
        return f"Scheduled: {title}", [where, f"Kickoff: {_when(d.get('kickoff'))}"]
    if kind == kinds.FIXTURE_MOVED:
        return f"Moved: {title}", [
            where,
            f"Kickoff: {_when(d.get('kickoff'))} (was {_when(d.get('kickoff_before'))})",
        ]
    if kind in (kinds.DEADLINE_48H, kinds.DEADLINE_24H):
        hours = 48 if kind == kinds.DEADLINE_48H else 24
        return f"{hours} hours left to report {title}", [
            where,
            f"Reporting deadline: {_when(d.get('deadline'))}. A match without a counted result by then "
            "is decided without it (simulated or awarded).",
        ]
    if kind == kinds.DEADLINE_PASSED:
        return f"Deadline passed: {title}", [
            where,
            "No counted result by the deadline: the match will be "
            "decided without the clubs' report (simulated or awarded).",
        ]
    if kind == kinds.SCORE_REPORTED:
        return f"Confirm the score: {title} {d.get('score', '')}", [
            where,
            "Your opponent reported this score. It counts once your club confirms it; "
            "dispute it if it is wrong.",
        ]
    if kind == kinds.DISPUTE_OPENED:
        lines = [where, f"The reported score {d.get('score', '')} is disputed; the organisers will decide."]
        if d.get("reason"):
            lines.append(f"Reason: {d['reason']}")
        return f"Disputed: {title}", lines
    if kind == kinds.DISPUTE_RESOLVED:
        return f"Dispute resolved: {title} {d.get('score', '')}", [
            where,
            d.get("note") or "The organisers decided.",
        ]
    if kind == kinds.RESULT_COUNTS:
        return f"Result: {d.get('home')} {d.get('score')} {d.get('away')}", [where, "The result counts."]
    if kind == kinds.LIVE_STARTED:
        return f"Live now: {title}", [where, "Follow the match as it is scored."]
    if kind == kinds.LIVE_GOAL:
        return f"Goal! {d.get('home')} {d.get('score')} {d.get('away')}", [where, d.get("text", "")]
    return title, [where]


def render(event: Event) -> Message:
    d = event.data
    kind = event.kind
    if kind == kinds.SUSPENSION:
        title = f"Suspension: {d.get('team')}"
        lines = [d.get("competition", ""), d.get("reason", "")]
        if d.get("served_in"):
            lines.append(f"Served in {d['served_in']}.")
    elif kind == kinds.DRAW_MADE:
        title = f"Draw made: {d.get('title')}"
        lines = [d.get("competition", ""), d.get("summary", "")]
    elif kind == kinds.ROUND_PAIRED:
        title = f"Paired: {d.get('title')}"
        lines = [d.get("competition", ""), *d.get("pairs", [])]
        if d.get("bye"):
            lines.append(f"Bye: {d['bye']}")
    elif kind == kinds.CHANNEL_PAUSED:
        title = f"Paused: {d.get('what', 'a channel')}"
        days = d.get("deleted_after_days")
        lines = [
            d.get("why", ""),
            # a phone has no resume: its browser subscribes again (the settings page), or it goes
            f"Nothing more is sent to it. Allow notifications on it again (your settings page) "
            f"within {days} days, or it is removed."
            if days
            else "Nothing more is sent there until you resume it; what was held is then sent.",
        ]
    else:
        title, lines = _fixture_lines(kind, d)
    return Message(title=title, lines=[line for line in lines if line], url=event_url(event))
