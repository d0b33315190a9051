"""Who hears of an event, on which channels: the clubs concerned, the followers (public kinds
only), the webhooks of the competition and the clubs.

The rule that keeps unconfirmed results private is here: a private kind (kinds.PRIVATE) reaches
the members of the clubs concerned and a club webhook that asked for the club's private notices,
nobody else; the league emits a result to the public only once it counts (outbox.result_audited).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Q

from notifications import kinds
from notifications.models import ClubMute, Event, Follow, Preference, PushSubscription, Webhook
from tournaments.models import Team


@dataclass
class Audience:
    users: set[int] = field(default_factory=set)
    webhooks: list[Webhook] = field(default_factory=list)


def _teams(event: Event) -> list[Team]:
    return list(Team.objects.filter(id__in=event.team_ids).select_related("coach"))


def _club_members(club_ids: set[int], *, kind: str) -> set[int]:
    if not club_ids:
        return set()
    members = set(
        User.objects.filter(fuba_clubs__id__in=club_ids, is_active=True).values_list("id", "fuba_clubs__id")
    )
    if kind not in kinds.ASKS_THE_CLUB:
        # A member who stopped following the club's fixtures still gets what asks something of
        # the club (private kinds, deadlines): only the other notices are muted.
        muted = set(ClubMute.objects.filter(club_id__in=club_ids).values_list("user_id", "club_id"))
        members -= muted
    return {user_id for user_id, _ in members}


def _followers(event: Event, teams: list[Team]) -> set[int]:
    coach_ids = {t.coach_id for t in teams if t.coach_id}
    query = Q(team_id__in=[t.pk for t in teams]) | Q(coach_id__in=coach_ids)
    if event.competition_id:
        query |= Q(competition_id=event.competition_id)
    return set(Follow.objects.filter(query, user__is_active=True).values_list("user_id", flat=True))


def _webhooks(event: Event, all_clubs: set[int], party_clubs: set[int]) -> list[Webhook]:
    if event.is_public:
        query = Q(club_id__in=all_clubs)
        if event.competition_id:
            query |= Q(competition_id=event.competition_id)
    else:
        query = Q(club_id__in=party_clubs, include_private=True)
    hooks = Webhook.objects.filter(query).order_by("id")
    return [h for h in hooks if not h.kinds or event.kind in h.kinds]


def audience(event: Event) -> Audience:
    if event.kind == kinds.CHANNEL_PAUSED:
        return Audience(users={event.user_id} if event.user_id else set())
    teams = _teams(event)
    parties = [t for t in teams if not event.for_team_ids or t.pk in event.for_team_ids]
    party_clubs = {t.club_id for t in parties if t.club_id}
    users = _club_members(party_clubs, kind=event.kind)
    users |= {t.coach.user_id for t in parties if t.coach is not None and t.coach.user_id}
    if event.is_public and event.kind in kinds.FOR_FOLLOWERS:
        users |= _followers(event, teams)
    all_clubs = {t.club_id for t in teams if t.club_id}
    return Audience(users=users, webhooks=_webhooks(event, all_clubs, party_clubs))


def channels_of(preference: Preference | None, kind: str) -> tuple[str, ...]:
    if kind == kinds.CHANNEL_PAUSED:
        return (kinds.EMAIL,)
    chosen = (preference.channels if preference else {}).get(kind)
    if chosen is None:
        return kinds.DEFAULT_CHANNELS[kind]
    return tuple(c for c in chosen if c in kinds.PERSONAL_CHANNELS)


def preferences(user_ids: set[int]) -> dict[int, Preference]:
    return {p.user_id: p for p in Preference.objects.filter(user_id__in=user_ids)}


def push_subscriptions(user_ids: set[int]) -> dict[int, list[PushSubscription]]:
    found: dict[int, list[PushSubscription]] = {}
    for sub in PushSubscription.objects.filter(user_id__in=user_ids).order_by("id"):
        found.setdefault(sub.user_id, []).append(sub)
    return found
