"""Team skill rosters across a competition (FUBA rulebook 3, A11 and A13).

- A11: "Teams can choose an equal number of skills for a match"; the competition sets the limit,
  and a skill with footnote 1 "counts as two skill choices towards the maximum".
- A11 footnote 3: Catenaccio "can be used in World Cup tournaments only if the player took part
  in the FUBA World Cup 2019 in Milan, Italy".
- A13 Injured star player: "In a tournament or a league, that skill cannot be chosen for the next
  match." A13 New talent: "that skill can be used in the remaining matches."
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from kernel.errors import ApplicationError, Conflict
from tournaments.game_systems import rules_of
from tournaments.models import Fixture, MatchSkill, Skill, SkillLoss, Team, TeamSkill
from tournaments.selectors import team_fixtures_in_order, team_skill_roster, team_skills_unavailable


def _eligibility_error(team: Team, skill: Skill) -> str | None:
    if (
        skill.restriction == Skill.Restriction.WORLD_CUP_2019
        and team.competition.is_world_cup
        and not (team.coach and team.coach.played_world_cup_2019)
    ):
        return (
            f"{skill.name} can be used in World Cup tournaments only by coaches who played the FUBA "
            "World Cup 2019 (A11, footnote 3)"
        )
    return None


def fixture_roster_skills(*, team: Team, fixture: Fixture) -> list[Skill]:
    """The roster skills the team may bring to this fixture: chosen and gained ones (A13 New
    talent "can be used in the remaining matches"), without those lost in its previous match (A13
    Injured star player "cannot be chosen for the next match") and those its coach may not use
    in this competition (A11 footnote 3). The simulated match's header is built from it."""
    lost = team_skills_unavailable(team=team, fixture=fixture)
    return [
        ts.skill
        for ts in team_skill_roster(team=team)
        if ts.skill_id not in lost and _eligibility_error(team, ts.skill) is None
    ]


def _skills_offered_check(team: Team, skills: Sequence[Skill]) -> None:
    game = rules_of(team.competition)
    if skills and not game.skills:
        raise ApplicationError(f"{team}: {game.name} has no A11 skills of FUBA rulebook 3 ({game.rulebook}).")


def skills_weight(skills: Sequence[Skill]) -> int:
    return sum(s.weight for s in skills)


@transaction.atomic
def team_skills_set(*, team: Team, skills: Sequence[Skill]) -> list[TeamSkill]:
    """Replace the skills the team chose for the competition (gained skills are kept)."""
    _skills_offered_check(team, skills)
    names = [s.name for s in skills]
    if len(set(names)) != len(names):
        raise ApplicationError(f"{team}: a skill is listed twice.")
    for skill in skills:
        error = _eligibility_error(team, skill)
        if error:
            raise ApplicationError(f"{team}: {error}.")
    TeamSkill.objects.filter(team=team, source=TeamSkill.Source.CHOSEN).exclude(skill__in=skills).delete()
    for skill in skills:
        TeamSkill.objects.get_or_create(team=team, skill=skill, defaults={"source": TeamSkill.Source.CHOSEN})
    return list(team.roster_skills.select_related("skill"))


@transaction.atomic
def match_skills_select(*, fixture: Fixture, team: Team, skills: Sequence[Skill]) -> list[MatchSkill]:
    """Choose the team's skills for one match, within the roster and the competition's limit."""
    fixture = Fixture.objects.select_for_update().select_related("competition").get(id=fixture.id)
    if team.id not in (fixture.home_team_id, fixture.away_team_id):
        raise ApplicationError(f"{team} does not play {fixture}.")
    _skills_offered_check(team, skills)
    if fixture.status != Fixture.Status.SCHEDULED:
        raise Conflict(f"{fixture}: skills can only be chosen before a result is submitted.")
    if len({s.id for s in skills}) != len(skills):
        raise ApplicationError(f"{team}: a skill is listed twice.")
    roster = set(TeamSkill.objects.filter(team=team).values_list("skill_id", flat=True))
    not_in_roster = [s.name for s in skills if s.id not in roster]
    if not_in_roster:
        raise ApplicationError(f"{team}: {', '.join(not_in_roster)} not in the team's skill roster.")
    lost = team_skills_unavailable(team=team, fixture=fixture)
    injured = [s.name for s in skills if s.id in lost]
    if injured:
        raise ApplicationError(
            f"{team}: {', '.join(injured)} cannot be chosen for {fixture} (lost to an injured star "
            "player in the previous match, A13)."
        )
    for skill in skills:
        error = _eligibility_error(team, skill)
        if error:
            raise ApplicationError(f"{team}: {error}.")
    limit = fixture.competition.skill_limit
    weight = skills_weight(skills)
    if weight > limit:
        raise ApplicationError(
            f"{team}: {weight} skill choices for {fixture} exceed the limit of {limit} "
            "(a skill marked 'counts as two' counts double, A11)."
        )
    # A11: "Teams can choose an equal number of skills for a match": the club choosing second
    # matches the other's number (counted as the limit counts them); the first one is free.
    theirs = [
        m.skill for m in MatchSkill.objects.filter(fixture=fixture).exclude(team=team).select_related("skill")
    ]
    if theirs and skills_weight(theirs) != weight:
        raise ApplicationError(
            f"{team}: teams choose an equal number of skills for a match (A11); the opponent chose "
            f"{skills_weight(theirs)} skill choices for {fixture}, you chose {weight}."
        )
    MatchSkill.objects.filter(fixture=fixture, team=team).delete()
    return MatchSkill.objects.bulk_create([MatchSkill(fixture=fixture, team=team, skill=s) for s in skills])


def _next_fixture(team: Team, after: Fixture) -> Fixture | None:
    fixtures = team_fixtures_in_order(team=team)
    ids = [f.id for f in fixtures]
    return (
        fixtures[ids.index(after.id) + 1] if after.id in ids and ids.index(after.id) + 1 < len(ids) else None
    )


@transaction.atomic
def skill_loss_record(*, team: Team, skill: Skill, fixture: Fixture) -> SkillLoss:
    """A13 Injured star player: the skill is out for the team's next match."""
    loss, _ = SkillLoss.objects.update_or_create(
        team=team, skill=skill, lost_in=fixture, defaults={"unavailable_for": _next_fixture(team, fixture)}
    )
    return loss


@transaction.atomic
def skill_gain_record(*, team: Team, skill: Skill, fixture: Fixture) -> TeamSkill:
    """A13 New talent: the skill joins the team's roster for the rest of the competition."""
    team_skill, _ = TeamSkill.objects.get_or_create(
        team=team, skill=skill, defaults={"source": TeamSkill.Source.GAINED, "gained_in": fixture}
    )
    return team_skill


def skill_losses_reassign(*, team: Team) -> None:
    """Point pending losses at the next fixture once it is known (e.g. a knockout slot resolved)."""
    for loss in SkillLoss.objects.filter(team=team, unavailable_for__isnull=True).select_related("lost_in"):
        nxt = _next_fixture(team, loss.lost_in)
        if nxt is not None:
            loss.unavailable_for = nxt
            loss.save(update_fields=["unavailable_for"])


def log_skill_errors(
    *, fixture: Fixture, team: Team, side: str, codes: Sequence[str]
) -> list[dict[str, object]]:
    """Check the skills a turn log's header lists for one team against its competition roster.

    Competitions that keep no rosters (the team has no TeamSkill) only get the limit checked.
    """
    path = f"$.teams.{side}.skills"
    by_code = {s.code: s for s in Skill.objects.all()}
    chosen = [by_code[c] for c in codes if c in by_code]
    errors: list[dict[str, object]] = []

    def error(rule: str, reason: str) -> None:
        errors.append({"turn": None, "stage": None, "rule": rule, "path": path, "reason": reason})

    roster = set(TeamSkill.objects.filter(team=team).values_list("skill_id", flat=True))
    if roster:
        outside = [s.name for s in chosen if s.id not in roster]
        if outside:
            error("A11", f"{', '.join(outside)} not in the {side} team's skill roster")
    lost = team_skills_unavailable(team=team, fixture=fixture)
    injured = [s.name for s in chosen if s.id in lost]
    if injured:
        error(
            "A13", f"{', '.join(injured)} lost to an injured star player and cannot be chosen for this match"
        )
    for skill in chosen:
        message = _eligibility_error(team, skill)
        if message:
            error("A11", message)
    limit = fixture.competition.skill_limit
    if skills_weight(chosen) > limit:
        error("A11", f"{skills_weight(chosen)} skill choices exceed the competition's limit of {limit}")
    return errors
