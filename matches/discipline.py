"""Suspensions from cards, recomputed from the counted results of a team's fixtures.

Recomputing from scratch (rather than adding bans as results arrive) keeps suspensions right when
results are entered out of order, overridden by an admin, or when a knockout slot resolves and a
team's next fixture becomes known.

- FUBA bans the team: a suspended team starts the fixture one player short.
- Soccer City bans a shirt number. Its Cup mode (rulebook v3.0, "The Cup", p. 29–30): "Players
  booked with a yellow card in first leg will be banned for the second. This rule only applies to
  the first 2 players booked from each team." "Players booked with a red card will be banned for
  second leg. Players booked with a red card in the second leg may not participate in the next
  round's first leg in case the team qualifies."
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from kernel.errors import ApplicationError
from matches.models import Card
from tournaments import announcements
from tournaments.models import Competition, Fixture, Stage, Suspension, Team
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.competitions import competition_settings_check

RED_KINDS = ("second_yellow", "red", "yellow_red")


@dataclass(frozen=True)
class _Ban:
    reason: str
    shirt_number: int | None
    source_index: int
    # How many fixtures after the source fixture it is served in (1 = the next one).
    offset: int


def _is_cup_stage(competition: Competition, stage: Stage) -> bool:
    return competition.cup_mode and stage.kind == Stage.Kind.KNOCKOUT and stage.legs == 2


def _bans_for_team(competition: Competition, team: Team, fixtures: list[Fixture]) -> list[_Ban]:
    cards_by_fixture: dict[int, list[Card]] = defaultdict(list)
    counted = [f for f in fixtures if f.status in Fixture.COUNTED_STATUSES]
    card_qs = Card.objects.filter(result__fixture__in=counted, team=team).select_related("result")
    for card in card_qs.order_by("sequence", "id"):
        cards_by_fixture[card.result.fixture_id].append(card)

    per_player = competition.bans_players
    wipe = competition.yellow_wipe_after_stage
    threshold = competition.yellow_card_threshold
    yellows: dict[int | None, int] = defaultdict(int)
    wiped = False
    bans: list[_Ban] = []
    for index, fixture in enumerate(fixtures):
        if wipe is not None and not wiped and fixture.stage.order > wipe.order:
            # Single yellow cards are wiped; bans already earned are still served.
            yellows.clear()
            wiped = True
        if fixture.status not in Fixture.COUNTED_STATUSES:
            continue
        cards = cards_by_fixture.get(fixture.id, [])
        if _is_cup_stage(competition, fixture.stage):
            booked: list[int | None] = []
            for card in cards:
                who = card.shirt_number if per_player else None
                if card.kind in RED_KINDS:
                    bans.append(_Ban(Suspension.Reason.CUP_RED, who, index, 1))
                elif fixture.leg == 1 and who not in booked and len(booked) < 2:
                    booked.append(who)
                    bans.append(_Ban(Suspension.Reason.CUP_YELLOW, who, index, 1))
            continue
        for card in cards:
            who = card.shirt_number if per_player else None
            if card.kind in RED_KINDS:
                for n in range(1, competition.red_card_ban_matches + 1):
                    bans.append(_Ban(Suspension.Reason.RED_CARD, who, index, n))
            elif card.kind == "yellow" and threshold:
                yellows[who] += 1
                if yellows[who] >= threshold:
                    yellows[who] = 0
                    bans.append(_Ban(Suspension.Reason.YELLOW_ACCUMULATION, who, index, 1))
    return bans


@transaction.atomic
def discipline_recompute(
    *, competition: Competition, teams: Iterable[Team] | None = None
) -> list[Suspension]:
    """Rebuild the suspensions of the given teams (default: all) and where each is served."""
    team_list = list(teams) if teams is not None else list(competition.teams.all())
    created: list[Suspension] = []
    for team in team_list:
        fixtures = [f for f in team_fixtures_in_order(team=team) if f.competition_id == competition.id]
        bans = _bans_for_team(competition, team, fixtures)
        wanted: dict[tuple[int, str, int | None, int], int | None] = {}
        # Several bans from one match (two red cards of a FUBA team) differ by their sequence.
        sequence: dict[tuple[int, str, int | None], int] = defaultdict(int)
        # One ban per fixture for the same team (FUBA: a team starts at most one player short,
        # the log's players_short is 0 or 1) or the same player: further bans roll on.
        taken: dict[int | None, set[int]] = defaultdict(set)
        for ban in bans:
            target = ban.source_index + ban.offset
            while target in taken[ban.shirt_number]:
                target += 1
            taken[ban.shirt_number].add(target)
            source = fixtures[ban.source_index].id
            sequence[(source, ban.reason, ban.shirt_number)] += 1
            key = (source, ban.reason, ban.shirt_number, sequence[(source, ban.reason, ban.shirt_number)])
            wanted[key] = fixtures[target].id if target < len(fixtures) else None
        # Update in place so a suspension keeps its id while it stays valid.
        for existing in Suspension.objects.filter(competition=competition, team=team):
            key = (existing.source_fixture_id, existing.reason, existing.shirt_number, existing.sequence)
            if key not in wanted:
                existing.delete()
                continue
            served_in = wanted.pop(key)
            if existing.served_in_id != served_in:
                existing.served_in_id = served_in
                existing.save(update_fields=["served_in"])
        created += Suspension.objects.bulk_create(
            [
                Suspension(
                    competition=competition,
                    team=team,
                    source_fixture_id=source,
                    reason=reason,
                    shirt_number=shirt,
                    sequence=seq,
                    served_in_id=served_in,
                )
                for (source, reason, shirt, seq), served_in in wanted.items()
            ]
        )
    _tell(competition, created)
    return created


def _tell(competition: Competition, suspensions: list[Suspension]) -> None:
    """Each new suspension to the team's club and followers (told once per ban: a recompute that
    removes and adds the same ban again says nothing new)."""
    for ban in suspensions:
        served = Fixture.objects.filter(id=ban.served_in_id).first() if ban.served_in_id else None
        reason = ban.get_reason_display() + (f" (shirt {ban.shirt_number})" if ban.shirt_number else "")
        announcements.suspension_made.send(
            sender=__name__,
            key=f"{ban.team_id}:{ban.source_fixture_id}:{ban.reason}:{ban.shirt_number}:{ban.sequence}",
            competition=competition,
            team_id=ban.team_id,
            team_name=ban.team.name,
            reason=reason,
            served_in=str(served) if served else None,
        )


@dataclass(frozen=True)
class DisciplineChange:
    """Suspensions a recompute added and removed, each described for a person."""

    added: list[str]
    removed: list[str]

    def summary(self) -> str:
        if not self.added and not self.removed:
            return "No suspension changed."
        parts = []
        if self.added:
            parts.append(f"{len(self.added)} added: " + "; ".join(self.added))
        if self.removed:
            parts.append(f"{len(self.removed)} removed: " + "; ".join(self.removed))
        return "Suspensions " + ". ".join(parts) + "."


def _described(competition: Competition) -> Counter[str]:
    # A multiset: two bans alike (two red cards of one FUBA team in a match) are two lines.
    described: Counter[str] = Counter()
    for s in Suspension.objects.filter(competition=competition).select_related(
        "team", "source_fixture", "served_in"
    ):
        who = f"{s.team.name}" + (f" #{s.shirt_number}" if s.shirt_number else "")
        where = f"served in {s.served_in}" if s.served_in is not None else "not yet placed"
        described[f"{who}: {s.get_reason_display()} from {s.source_fixture} ({where})"] += 1
    return described


@transaction.atomic
def discipline_recompute_report(*, competition: Competition) -> DisciplineChange:
    """Rebuild every suspension of the competition and say what changed (after a settings change)."""
    before = _described(competition)
    discipline_recompute(competition=competition)
    after = _described(competition)
    return DisciplineChange(
        added=sorted((after - before).elements()), removed=sorted((before - after).elements())
    )


@transaction.atomic
def competition_discipline_set(
    *,
    competition: Competition,
    yellow_card_threshold: int,
    red_card_ban_matches: int,
    yellow_wipe_after_stage: Stage | None = None,
    cup_mode: bool = False,
) -> DisciplineChange:
    """Set the discipline rules and rebuild every suspension under them; returns what changed."""
    if yellow_wipe_after_stage is not None and yellow_wipe_after_stage.competition_id != competition.id:
        raise ApplicationError(f"{yellow_wipe_after_stage} is not a stage of '{competition}'.")
    competition_settings_check(
        {"yellow_card_threshold": yellow_card_threshold, "red_card_ban_matches": red_card_ban_matches}
    )
    if cup_mode and not competition.bans_players:
        raise ApplicationError("The Cup mode bans players by shirt number: it is a Soccer City mode.")
    competition.yellow_card_threshold = yellow_card_threshold
    competition.red_card_ban_matches = red_card_ban_matches
    competition.yellow_wipe_after_stage = yellow_wipe_after_stage
    competition.cup_mode = cup_mode
    competition.save(
        update_fields=["yellow_card_threshold", "red_card_ban_matches", "yellow_wipe_after_stage", "cup_mode"]
    )
    return discipline_recompute_report(competition=competition)
