"""The league phase draw of a stage: pots of teams, each team's opponents drawn under country caps,
recorded with its seed (a Draw of kind "league_phase") and played as matchdays in one table.

The pure draw is tournaments.league_phase; docs/organisers.md ("League phase") reads its constraints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from kernel.errors import ApplicationError, Conflict
from tournaments import announcements
from tournaments.league_phase import LeaguePhaseImpossible, draw_league_phase
from tournaments.models import Draw, Stage, Team
from tournaments.selectors import actor_role_words
from tournaments.services.drawing import draw_seed
from tournaments.services.scheduling import fixture_generate
from tournaments.services.shared import any_played, invalid

MAX_OPPONENTS = 20


def seeding_pots(teams: Sequence[Team], pot_count: int) -> list[list[Team]]:
    """Pots by seeding order: seeded teams first (seed 1 first), then the rest by name."""
    ordered = sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.name, t.id))
    size = len(ordered) // pot_count if pot_count else 0
    return [ordered[i * size : (i + 1) * size] for i in range(pot_count)]


def _check(
    stage: Stage, pots: Sequence[Sequence[Team]], opponents: int, country_cap: int, where: str
) -> None:
    if not isinstance(opponents, int) or opponents < 2 or opponents % 2 or opponents > MAX_OPPONENTS:
        raise invalid(
            f"{where}: the number of opponents is even, from 2 to {MAX_OPPONENTS} "
            "(two from each pot, one at home and one away).",
            "opponents",
        )
    if not isinstance(country_cap, int) or country_cap < 1:
        raise invalid(f"{where}: at most k opponents of one country: k is at least 1.", "country_cap")
    if len(pots) != opponents // 2:
        raise invalid(
            f"{where}: {opponents} opponents, two from each pot, need {opponents // 2} pots; "
            f"{len(pots)} were given.",
            "pots",
        )
    entered = set(stage.teams.values_list("id", flat=True))
    placed = [t.id for pot in pots for t in pot]
    twice = sorted({i for i in placed if placed.count(i) > 1})
    if twice:
        raise invalid(f"{where}: a team is in two pots (team id {twice[0]}).", "pots")
    strangers = sorted(set(placed) - entered)
    if strangers:
        raise invalid(f"{where}: team id {strangers[0]} is not a team of this stage.", "pots")
    missing = Team.objects.filter(id__in=entered - set(placed)).order_by("name").first()
    if missing is not None:
        raise invalid(f"{where}: {missing.name} is in no pot; every team of the stage is drawn.", "pots")
    sizes = [len(p) for p in pots]
    if len(set(sizes)) > 1 or sizes[0] < 3:
        raise invalid(
            f"{where}: every pot needs as many teams, at least 3 (the pots hold {sizes}); "
            f"{len(entered)} teams make {opponents // 2} pots only if divisible.",
            "pots",
        )


@transaction.atomic
def league_phase_draw(
    *,
    stage: Stage,
    pots: Sequence[Sequence[Team]] | None = None,
    opponents: int = 8,
    country_cap: int = 2,
    seed: int | None = None,
    user: Any = None,
) -> Draw:
    """Draw the league phase (each team two opponents per pot, one home, one away) and make its fixtures.

    Without pots, the stage's teams go into `opponents / 2` pots by seeding order. No team meets a
    team of its own country, nor more than `country_cap` of one country. A draw may be made again
    (its fixtures replaced) until a result is entered; then it is refused.
    """
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    where = f"League phase draw for {stage}"
    if stage.kind != Stage.Kind.LEAGUE_PHASE:
        raise invalid(f"{where}: only a league phase stage is drawn this way.", "stage")
    if any_played(stage.fixtures.all()):
        raise Conflict(
            f"{where}: a result has been entered; the league phase can no longer be drawn again.",
            details={"field": "stage"},
        )
    if pots is None:
        teams = list(stage.teams.all())
        pot_count = opponents // 2 if isinstance(opponents, int) and opponents >= 2 else 1
        if len(teams) % pot_count:
            raise invalid(
                f"{where}: {len(teams)} teams do not split into {pot_count} pots of equal size.", "pots"
            )
        pots = seeding_pots(teams, pot_count)
    _check(stage, pots, opponents, country_cap, where)
    seed = draw_seed(seed)
    country = {t.id: t.country.strip().upper() for pot in pots for t in pot}
    try:
        drawn = draw_league_phase(
            pots=[[t.id for t in pot] for pot in pots], seed=seed, country=country, country_cap=country_cap
        )
    except LeaguePhaseImpossible as exc:
        raise ApplicationError(
            f"{where}: the draw cannot meet '{exc.constraint}': {exc.reason}. Change the pots or the caps.",
            details={"field": "country_cap" if "at most" in exc.constraint else "pots"},
        ) from None
    stage.fixtures.all().delete()  # an earlier draw's unplayed fixtures
    draw = Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.LEAGUE_PHASE,
        seed=seed,
        pots=[[t.id for t in pot] for pot in pots],
        constraints=[
            {"attribute": "country", "at_most": 0, "text": "no opponent of the team's own country"},
            {
                "attribute": "country",
                "at_most": country_cap,
                "text": f"at most {country_cap} opponent(s) of one country",
            },
        ],
        result={
            "matchdays": drawn.matchdays,
            "matches": [[m.home, m.away, m.matchday] for m in drawn.matches],
        },
        drawn_by=user if getattr(user, "is_authenticated", False) else None,
        drawn_by_role=actor_role_words(user=user, competition=stage.competition),
    )
    names = {t.id: t.name for pot in pots for t in pot}
    announcements.draw_made.send(
        sender=__name__,
        competition=stage.competition,
        draw_id=draw.pk,
        stage_name=stage.name,
        kind="league_phase",
        team_ids=names,
        summary=f"{len(drawn.matches)} matches over {drawn.matchdays} matchdays (seed {seed})",
    )
    fixture_generate(stage=stage)
    return draw
