"""Draws of groups and of a knockout bracket: the caps a draw must respect, recorded with its seed so it
can be replayed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from kernel.errors import ApplicationError, Conflict
from tournaments import announcements
from tournaments.draws import Cap, DrawImpossible, draw_bracket, draw_groups
from tournaments.fixtures import (
    group_letter,
)
from tournaments.models import (
    Draw,
    Group,
    Stage,
    Team,
)

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
from tournaments.selectors import actor_role_words
from tournaments.services.clubs import teams_check
from tournaments.services.shared import invalid


def draw_seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(62)
    if not 0 <= seed < 2**63:
        raise invalid("The seed is a whole number from 0 to 2^63 - 1.", "seed")
    return seed


DRAW_ATTRIBUTES = ("confederation", "country", "club")


def draw_caps(constraints: Sequence[str | Mapping[str, Any]], where: str) -> list[Cap]:
    """A draw's constraints as caps per group; "club" / "country" alone keep those teams apart."""
    caps: list[Cap] = []
    for index, item in enumerate(constraints):
        field = f"constraints[{index}]"
        if isinstance(item, str):
            item = {"attribute": item, "at_most": 1}
        if not isinstance(item, Mapping):
            raise invalid(f"{where}: a constraint is 'club', 'country' or an object.", field)
        unknown = set(item) - {"attribute", "value", "at_most", "at_least"}
        if unknown:
            raise invalid(f"{where}: unknown keys {sorted(unknown)} in a constraint.", field)
        attribute, value = item.get("attribute"), item.get("value") or None
        at_most, at_least = item.get("at_most"), item.get("at_least")
        if attribute not in DRAW_ATTRIBUTES:
            raise invalid(
                f"{where}: a constraint caps one of {', '.join(DRAW_ATTRIBUTES)}, not '{attribute}'.", field
            )
        for name, number in (("at_most", at_most), ("at_least", at_least)):
            if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
                raise invalid(f"{where}: {name} is a whole number of at least 1.", field)
        if at_most is None and at_least is None:
            raise invalid(f"{where}: give at_most and/or at_least per group.", field)
        if at_least is not None and value is None:
            raise invalid(f"{where}: 'at least per group' needs the value (e.g. UEFA).", field)
        if at_most is not None and at_least is not None and at_least > at_most:
            raise invalid(f"{where}: at_least {at_least} is more than at_most {at_most}.", field)
        caps.append(Cap(attribute=attribute, value=value, at_most=at_most, at_least=at_least))
    return caps


def _cap_json(cap: Cap) -> dict[str, Any]:
    out: dict[str, Any] = {"attribute": cap.attribute}
    for key in ("value", "at_most", "at_least"):
        if getattr(cap, key) is not None:
            out[key] = getattr(cap, key)
    out["text"] = cap.describe()
    return out


def _traits(team: Team) -> dict[str, str]:
    club = team.club.name if team.club else ""
    return {"confederation": team.confederation, "country": team.country, "club": club}


def _draw_groups_of(stage: Stage, group_count: int | None, where: str) -> list[Group]:
    groups = list(stage.groups.order_by("name"))
    if group_count is not None:
        if groups and len(groups) != group_count:
            raise Conflict(
                f"{where}: the stage already has {len(groups)} groups.", details={"field": "group_count"}
            )
        if not groups:
            if not 1 <= group_count <= 26:
                raise invalid(f"{where}: 1 to 26 groups.", "group_count")
            groups = [Group.objects.create(stage=stage, name=group_letter(i)) for i in range(group_count)]
    if not groups:
        raise invalid(f"{where}: the stage has no groups; give group_count.", "group_count")
    return groups


@transaction.atomic
def groups_draw(
    *,
    stage: Stage,
    pots: Sequence[Sequence[Team]],
    seed: int | None = None,
    constraints: Sequence[str | Mapping[str, Any]] = (),
    relax: bool = False,
    group_count: int | None = None,
    user: Any = None,
) -> Draw:
    """Draw a group stage's groups from pots; recorded with its seed, so it can be repeated.

    `constraints` cap the teams per group sharing a confederation, country or club (see
    draw_caps). A draw no group assignment can meet is refused, naming the pot and the group that
    cannot be filled, unless `relax`: then the pots that cannot be placed are drawn without the
    constraints and the draw records which and why. Without groups yet, `group_count` creates
    groups A, B, C ...
    """
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    where = f"Draw for {stage}"
    if stage.kind != Stage.Kind.GROUPS:
        raise invalid(f"{where}: only a group stage is drawn into groups.", "stage")
    if stage.fixtures.exists():
        raise Conflict(f"{where}: fixtures were generated; the groups can no longer be drawn.")
    caps = draw_caps(constraints, where)
    if not pots or not all(pots):
        raise invalid(f"{where}: give the pots, each a non-empty list of teams.", "pots")
    all_teams = [t for pot in pots for t in pot]
    teams_check(stage.competition, all_teams, where, "pots")
    groups = _draw_groups_of(stage, group_count, where)
    if len(all_teams) < 2 * len(groups):
        raise invalid(
            f"{where}: {len(all_teams)} teams cannot fill {len(groups)} groups of at least two.", "pots"
        )
    seed = draw_seed(seed)
    ids = {t.id: t for t in all_teams}
    traits = {t.id: _traits(t) for t in Team.objects.filter(id__in=ids).select_related("club")}
    try:
        result = draw_groups(
            pots=[[t.id for t in pot] for pot in pots],
            group_names=[g.name for g in groups],
            seed=seed,
            caps=caps,
            traits=traits,
            relax=relax,
        )
    except DrawImpossible as exc:
        raise ApplicationError(
            f"{where}: the constraints cannot all be met: {exc}. Change them, or ask to relax them.",
            details={"field": "constraints", "pot": exc.pot, "group": exc.group},
        ) from None
    for group in groups:
        group.teams.set([ids[i] for i in result.groups[group.name]])
    draw = Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.GROUPS,
        seed=seed,
        pots=[[t.id for t in pot] for pot in pots],
        constraints=[_cap_json(c) for c in caps],
        relax=relax,
        relaxed=[{"pot": r.pot, "group": r.group, "reason": r.reason} for r in result.relaxed],
        result=result.groups,
        drawn_by=user if getattr(user, "is_authenticated", False) else None,
        drawn_by_role=actor_role_words(user=user, competition=stage.competition),
    )
    summary = "; ".join(
        f"Group {name}: " + ", ".join(ids[i].name for i in members) for name, members in result.groups.items()
    )
    announcements.draw_made.send(
        sender=__name__,
        competition=stage.competition,
        draw_id=draw.pk,
        stage_name=stage.name,
        kind="groups",
        team_ids=ids,
        summary=summary,
    )
    return draw


@transaction.atomic
def groups_enter(*, stage: Stage, placement: Mapping[str, Sequence[Team | None]], user: Any = None) -> Draw:
    """A draw made elsewhere, entered by hand: each group's teams in pot order (pot 1 first; None
    leaves that pot empty). Every team of the competition not withdrawn is placed once; recorded
    as a draw (kind "entered", seed 0) with who entered it and their role."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    where = f"Draw for {stage}"
    if stage.kind != Stage.Kind.GROUPS:
        raise invalid(f"{where}: only a group stage has groups to enter.", "stage")
    if stage.fixtures.exists():
        raise Conflict(f"{where}: fixtures were generated; the groups can no longer change.")
    groups = {g.name: g for g in stage.groups.order_by("name")}
    unknown = sorted(set(placement) - set(groups))
    if unknown:
        raise invalid(f"{where}: the stage has no group {unknown[0]}.", "groups")
    placed = [t for teams in placement.values() for t in teams if t is not None]
    teams_check(stage.competition, placed, where, "groups")
    twice = sorted({t.name for t in placed if placed.count(t) > 1})
    if twice:
        raise invalid(f"{where}: {twice[0]} is placed twice.", "groups")
    missing = sorted(t.name for t in stage.competition.teams.filter(withdrawn=False) if t not in set(placed))
    if missing:
        raise invalid(f"{where}: {', '.join(missing)} not placed in a group.", "groups")
    sizes = {name: len([t for t in placement.get(name, []) if t is not None]) for name in groups}
    if max(sizes.values()) - min(sizes.values()) > 1:
        raise invalid(
            f"{where}: groups of {min(sizes.values())} and {max(sizes.values())} teams; "
            "the sizes may differ by one at most.",
            "groups",
        )
    result = {name: [t.id for t in placement.get(name, []) if t is not None] for name in groups}
    for name, group in groups.items():
        group.teams.set(result[name])
    width = max((len(placement.get(name, [])) for name in groups), default=0)
    pots = [
        [slot.id for teams in placement.values() if i < len(teams) and (slot := teams[i]) is not None]
        for i in range(width)
    ]
    return Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.ENTERED,
        seed=0,
        pots=pots,
        result=result,
        drawn_by=user if getattr(user, "is_authenticated", False) else None,
        drawn_by_role=actor_role_words(user=user, competition=stage.competition),
    )


@transaction.atomic
def knockout_draw(*, stage: Stage, seed: int | None = None, user: Any = None) -> Draw:
    """Draw an unseeded knockout bracket among the stage's teams; recorded with its seed."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    if stage.kind != Stage.Kind.KNOCKOUT:
        raise invalid(f"{stage} is not a knockout stage.", "stage")
    if stage.fixtures.exists():
        raise Conflict(f"{stage}: fixtures were generated; the bracket can no longer be drawn.")
    team_ids = sorted(stage.teams.values_list("id", flat=True))
    if len(team_ids) < 2:
        raise invalid(f"{stage}: give the knockout at least two teams to draw.", "teams")
    seed = draw_seed(seed)
    order = draw_bracket(teams=team_ids, seed=seed)
    draw = Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.KNOCKOUT,
        seed=seed,
        pots=[team_ids],
        result=order,
        drawn_by=user if getattr(user, "is_authenticated", False) else None,
        drawn_by_role=actor_role_words(user=user, competition=stage.competition),
    )
    names = dict(Team.objects.filter(id__in=team_ids).values_list("id", "name"))
    pairs = [
        f"{names.get(a, '?')} v {names.get(b, '?')}" for a, b in zip(order[::2], order[1::2], strict=False)
    ]
    announcements.draw_made.send(
        sender=__name__,
        competition=stage.competition,
        draw_id=draw.pk,
        stage_name=stage.name,
        kind="bracket",
        team_ids=team_ids,
        summary="; ".join(pairs),
    )
    return draw
