"""What the results services share: the fixture lock, the checks of a reported score and its cards
against the game system, the snapshots written to the audit trail and the audit entry itself.

Every service locks the fixture row first (SELECT … FOR UPDATE), so two clubs acting on one fixture
at the same moment are serialised; the OneToOne from Result to Fixture is the last line of defence:
two results for one fixture cannot exist. Every change is written to ResultAudit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User

from kernel.errors import ApplicationError, NotFound
from matches.knockout import knockout_score_check
from matches.models import Result, ResultAudit, ResultSubmission
from tournaments import announcements
from tournaments.bracket import Score
from tournaments.game_systems import SENT_OFF_KINDS, rules_of, send_off_loss
from tournaments.models import Fixture, Stage
from tournaments.selectors import (
    actor_role_words,
    competition_permits,
    fixture_banned_shirts,
    fixture_first_leg,
)

FUBA_3_LOG_FORMAT = "fuba-log/1"


@dataclass(frozen=True)
class CardInput:
    side: str  # "home" or "away"
    kind: str
    shirt_number: int | None = None


def lock_fixture(fixture_id: int) -> Fixture:
    try:
        return (
            Fixture.objects.select_for_update(of=("self",))
            .select_related(
                "competition", "stage", "home_team", "away_team", "home_team__club", "away_team__club"
            )
            .get(id=fixture_id)
        )
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None


def _check_goals(fixture: Fixture, **values: Any) -> None:
    for name, value in values.items():
        if value is None and "penalties" in name:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 99:
            raise ApplicationError(f"{fixture}: {name} must be a whole number from 0 to 99, not {value!r}.")


def _parse_cards(fixture: Fixture, cards: Sequence[Mapping[str, Any] | CardInput]) -> list[CardInput]:
    rules = rules_of(fixture.competition).cards
    if cards and not rules.allowed:
        game = rules_of(fixture.competition)
        raise ApplicationError(f"{fixture}: {game.name} has no cards ({game.rulebook}); report none.")
    players = rules.per_player
    parsed: list[CardInput] = []
    seen: set[tuple[str, int]] = set()
    for i, raw in enumerate(cards):
        item = raw if isinstance(raw, CardInput) else None
        if item is None:
            if not isinstance(raw, Mapping):
                raise ApplicationError(f"{fixture}: card {i + 1} must be an object with 'team' and 'kind'.")
            item = CardInput(raw.get("team") or raw.get("side"), raw.get("kind"), raw.get("shirt_number"))  # type: ignore[arg-type]
        if item.side not in ("home", "away"):
            raise ApplicationError(f"{fixture}: card {i + 1}: 'team' must be 'home' or 'away'.")
        if item.kind not in rules.kinds:
            raise ApplicationError(
                f"{fixture}: card {i + 1}: kind must be one of {', '.join(rules.kinds)}, not {item.kind!r}."
            )
        if players:
            number = item.shirt_number
            if isinstance(number, bool) or not isinstance(number, int) or number not in rules.shirt_numbers:
                raise ApplicationError(
                    f"{fixture}: card {i + 1}: a Soccer City card needs the booked player's shirt number, "
                    f"{rules.shirt_range_text()} (Soccer City, Starting Line up"
                    f"{'' if 12 in rules.shirt_numbers else ': 12 and 14 only in Cup mode'}); got {number!r}."
                )
            if (item.side, number) in seen:
                raise ApplicationError(
                    f"{fixture}: card {i + 1}: #{number} of the {item.side} side is booked twice; "
                    "record the player's final outcome once (e.g. second_yellow)."
                )
            seen.add((item.side, number))
        elif item.shirt_number is not None and (
            isinstance(item.shirt_number, bool) or not isinstance(item.shirt_number, int)
        ):
            raise ApplicationError(f"{fixture}: card {i + 1}: shirt_number must be a whole number.")
        parsed.append(item)
    limit = rules.send_offs_lose
    if limit is not None and all(_sent_off(parsed, side) >= limit for side in ("home", "away")):
        raise ApplicationError(
            f"{fixture}: both sides cannot have {limit} players sent off: the side whose {limit}nd player "
            "was sent off lost the match there (Soccer City, Red card)."
        )
    if players:
        for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
            banned = fixture_banned_shirts(fixture=fixture, team=team)  # type: ignore[arg-type]
            played = sorted(c.shirt_number for c in parsed if c.side == side and c.shirt_number in banned)
            if played:
                raise ApplicationError(
                    f"{fixture}: {team} #{', #'.join(map(str, played))} is suspended for this fixture "
                    "and cannot have been booked in it."
                )
    return parsed


def _sent_off(cards: Sequence[CardInput], side: str) -> int:
    return sum(1 for c in cards if c.side == side and c.kind in SENT_OFF_KINDS)


def checked_result(
    fixture: Fixture, score: Score, cards: Sequence[Mapping[str, Any] | CardInput], *, awarded: bool = False
) -> tuple[Score, list[CardInput]]:
    """The cards and the score as they count, checked against the game system's rules.

    Soccer City: "Two players sent off from the same side ends the match with a 5-0 loss for the
    team" (seed 003, Red card): whatever the score was then, the result is that loss.
    """
    score = replace(score, extra_time=bool(score.extra_time))
    parsed = _parse_cards(fixture, cards)
    imposed = send_off_loss(
        rules_of(fixture.competition),
        home_sent_off=_sent_off(parsed, "home"),
        away_sent_off=_sent_off(parsed, "away"),
    )
    if imposed is not None:
        score = Score(*imposed)
    check_score(fixture, score, awarded=awarded)
    return score, parsed


def _first_leg(fixture: Fixture) -> Fixture | None:
    return fixture_first_leg(fixture=fixture)


def check_score(fixture: Fixture, score: Score, *, awarded: bool = False) -> None:
    _check_goals(
        fixture,
        home_goals=score.home_goals,
        away_goals=score.away_goals,
        home_penalties=score.home_penalties,
        away_penalties=score.away_penalties,
    )
    if fixture.stage.kind == Stage.Kind.KNOCKOUT and awarded:
        if score.home_goals == score.away_goals:
            raise ApplicationError(f"{fixture}: an awarded knockout match must have a winner.")
    elif fixture.stage.kind == Stage.Kind.KNOCKOUT:
        knockout_score_check(fixture=fixture, score=score, first_leg=_first_leg(fixture))
    elif score.extra_time or score.home_penalties is not None or score.away_penalties is not None:
        raise ApplicationError(f"{fixture}: extra time and shoot-outs are for knockout ties only.")


def snapshot(fixture: Fixture) -> dict[str, Any] | None:
    result = Result.objects.filter(fixture=fixture).first()
    if result is None:
        return {"status": fixture.status, "result": None}
    return {
        "status": fixture.status,
        "result": {
            "home_goals": result.home_goals,
            "away_goals": result.away_goals,
            "extra_time": result.extra_time,
            "home_penalties": result.home_penalties,
            "away_penalties": result.away_penalties,
            "source": result.source,
            "cards": [
                {
                    "team": "home" if c.team_id == fixture.home_team_id else "away",
                    "kind": c.kind,
                    "shirt_number": c.shirt_number,
                }
                for c in result.cards.all()
            ],
        },
    }


def submission_snapshot(sub: ResultSubmission) -> dict[str, Any]:
    return {
        "submission": sub.id,
        "status": sub.status,
        "home_goals": sub.home_goals,
        "away_goals": sub.away_goals,
        "extra_time": sub.extra_time,
        "home_penalties": sub.home_penalties,
        "away_penalties": sub.away_penalties,
        "cards": sub.cards,
        "disputed_cards": sub.disputed_cards,
        "validation_status": sub.validation_status,
    }


def audit(
    fixture: Fixture,
    action: str,
    actor: User | None,
    before: Any,
    after: Any,
    note: str = "",
) -> None:
    signed_in = actor is not None and actor.is_authenticated
    row = ResultAudit.objects.create(
        fixture=fixture,
        actor=actor if signed_in else None,
        actor_role=actor_role_words(user=actor, competition=fixture.competition, fixture=fixture)
        if signed_in
        else "",
        action=action,
        before=before,
        after=after,
        note=note,
    )
    # Every step of the workflow is audited here, so this is where it is announced (the notifications
    # decide what and to whom: a score to the opponent, a result to everyone once it counts).
    reporting = None
    if isinstance(after, dict) and after.get("submission"):
        reporting = (
            ResultSubmission.objects.filter(id=after["submission"]).values_list("team_id", flat=True).first()
        )
    announcements.result_audited.send(
        sender=__name__,
        fixture=fixture,
        action=action,
        audit_id=row.pk,
        after=after,
        reporting_team_id=reporting,
        note=note,
    )


def may_act(user: User | None, fixture: Fixture, action: str) -> bool:
    """The results actions of the staff side: the competition's roles decide (the one rule)."""
    return competition_permits(user=user, competition=fixture.competition, action=action)


def open_submission(fixture: Fixture) -> ResultSubmission | None:
    return ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.OPEN).first()


def cards_as_json(cards: Sequence[CardInput]) -> list[dict[str, Any]]:
    return [{"team": c.side, "kind": c.kind, "shirt_number": c.shirt_number} for c in cards]


def cards_from_json(data: Sequence[Mapping[str, Any]]) -> list[CardInput]:
    return [CardInput(c["team"], c["kind"], c.get("shirt_number")) for c in data]
