"""Reads for the public pages: one function per page section, each with a bounded number of queries.

Domain rules (who won a tie, how a table is ranked) come from matches.knockout and the
standings selectors; this module only gathers rows and shapes them for templates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.urls import reverse

from fubaleague.web import svg
from matches import selectors as match_selectors
from matches.knockout import tie_outcome
from matches.models import Card, MatchLog, Result, ResultAudit, ResultSubmission
from scoring.models import ScoringSession
from tournaments.models import Coach, Competition, Fixture, Group, Stage, Suspension, Team, TeamSkill

# (slug, fixture id) -> the fixture's stage; (slug, team id) -> True: what the kept public pages
# are keyed by (fubaleague/web/fragments.py), known to this process without a query once read. A
# fixture never moves to another stage, nor a team to another competition; one deleted is 404
# anyway, its kept page being stale (its parts are bumped) and its rendering not found.
_KNOWN_MAX = 20_000
_fixture_stages: dict[tuple[str, int], int] = {}
_teams_known: set[tuple[str, int]] = set()


def fixture_stage_id(*, slug: str, fixture_id: int) -> int | None:
    """The stage of the competition's fixture, None for no such fixture in it."""
    key = (slug, fixture_id)
    stage = _fixture_stages.get(key)
    if stage is None:
        stage = (
            Fixture.objects.filter(pk=fixture_id, competition__slug=slug)
            .values_list("stage_id", flat=True)
            .first()
        )
        if stage is None:
            return None
        if len(_fixture_stages) >= _KNOWN_MAX:
            _fixture_stages.clear()
        _fixture_stages[key] = stage
    return stage


def team_in(*, slug: str, team_id: int) -> bool:
    """Whether the team is one of the competition's."""
    key = (slug, team_id)
    if key in _teams_known:
        return True
    if not Team.objects.filter(pk=team_id, competition__slug=slug).exists():
        return False
    if len(_teams_known) >= _KNOWN_MAX:
        _teams_known.clear()
    _teams_known.add(key)
    return True


def scored_live(*, slug: str) -> list[tuple[int, str]]:
    """The competition's matches being scored right now (fixture id, session status), in order:
    what the "live" marks and the match pages' live panels show."""
    # Raw SQL: every live page's miss reads it (once a second a process), and after a result the
    # ORM's compiling of this join was the biggest part of a page assembled from kept pieces.
    statuses = [str(s) for s in ScoringSession.ACTIVE_STATUSES]
    sql = _SCORED_LIVE_SQL.format(in_statuses=", ".join(["%s"] * len(statuses)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [slug, *statuses])
        return [(int(fixture_id), str(status)) for fixture_id, status in cursor.fetchall()]


_SCORED_LIVE_SQL = (
    f"SELECT s.fixture_id, s.status FROM {ScoringSession._meta.db_table} s"  # noqa: S608 - table names
    f" JOIN {Fixture._meta.db_table} f ON f.id = s.fixture_id"
    f" JOIN {Competition._meta.db_table} c ON c.id = f.competition_id"
    " WHERE c.slug = %s AND s.status IN ({in_statuses}) ORDER BY s.fixture_id, s.status"
)


def fixtures_qs() -> QuerySet[Fixture]:
    return Fixture.objects.select_related(
        "competition", "stage", "group", "home_team", "away_team", "result"
    ).order_by("stage__order", "round", "match_number", "leg", "kickoff", "id")


_ROW_RELATIONS = ("stage", "group", "home_team", "away_team", "result")


def _of_competition(fixtures: Iterable[Fixture], competition: Competition) -> list[Fixture]:
    """The fixtures with their competition set to the one already loaded: the page's rows do not
    read the competition's row (and decode its rules) once per fixture."""
    rows = list(fixtures)
    for f in rows:
        f.competition = competition
    return rows


def competition_fixtures(competition: Competition) -> QuerySet[Fixture]:
    """fixtures_qs() of one competition, without joining its row (see _of_competition)."""
    return (
        Fixture.objects.filter(competition=competition)
        .select_related(*_ROW_RELATIONS)
        .order_by("stage__order", "round", "match_number", "leg", "kickoff", "id")
    )


def counted_result(fixture: Fixture) -> Result | None:
    """The result that counts, or None (a submitted-but-unconfirmed score is not shown as a result)."""
    if fixture.status not in Fixture.COUNTED_STATUSES:
        return None
    return getattr(fixture, "result", None)


def side_name(fixture: Fixture, side: str) -> tuple[str, bool]:
    team = fixture.home_team if side == "home" else fixture.away_team
    if team is not None:
        return team.name, False
    placeholder = fixture.home_placeholder if side == "home" else fixture.away_placeholder
    return placeholder or "To be decided", True


def void_note(fixture: Fixture) -> str:
    """Why the organisers voided the match (the audit trail's latest entry for it)."""
    entry = (
        ResultAudit.objects.filter(fixture=fixture, action=ResultAudit.Action.VOID).order_by("-id").first()
    )
    return entry.note if entry is not None else ""


@dataclass
class FixtureRow:
    fixture: Fixture
    home: str
    away: str
    home_placeholder: bool
    away_placeholder: bool
    result: Result | None
    url: str

    @property
    def simulated(self) -> bool:
        return self.result is not None and self.result.source == Result.Source.SIMULATED

    @property
    def score(self) -> str:
        r = self.result
        if r is None:
            return ""
        return f"{r.home_goals}–{r.away_goals}"

    @property
    def void(self) -> bool:
        return self.fixture.status == Fixture.Status.VOID

    @property
    def note(self) -> str:
        r = self.result
        if r is None:
            return ""
        parts = []
        if r.extra_time:
            parts.append("a.e.t.")
        if r.home_penalties is not None:
            parts.append(f"{r.home_penalties}–{r.away_penalties} pens")
        if r.source == Result.Source.AWARDED:
            parts.append("awarded")
        return ", ".join(parts)


# An id no page links to: where the id goes in a reversed URL (id_url).
_ID_MARK = 987654321987654321


def id_url(name: str, slug: str) -> Callable[[int], str]:
    """``reverse(name, args=[slug, id])`` for many ids at the cost of one reverse (a page of 64
    fixtures links to 192 matches and teams): the URL's last argument is the integer id."""
    prefix, mark, suffix = reverse(name, args=[slug, _ID_MARK]).rpartition(str(_ID_MARK))
    assert mark, name
    return lambda pk: f"{prefix}{pk}{suffix}"


def fixture_row(fixture: Fixture, *, match_url: Callable[[int], str] | None = None) -> FixtureRow:
    """``match_url``: id_url("tournaments:match", slug), for a list of rows."""
    home, hp = side_name(fixture, "home")
    away, ap = side_name(fixture, "away")
    return FixtureRow(
        fixture=fixture,
        home=home,
        away=away,
        home_placeholder=hp,
        away_placeholder=ap,
        result=counted_result(fixture),
        url=(
            match_url(fixture.pk)
            if match_url is not None
            else reverse("tournaments:match", args=[fixture.competition.slug, fixture.pk])
        ),
    )


@dataclass
class RoundBlock:
    stage: Stage
    round: int
    title: str
    rows: list[FixtureRow] = field(default_factory=list)


def round_title(stage: Stage, fixture: Fixture) -> str:
    if fixture.round_name:
        return fixture.round_name
    if stage.kind == Stage.Kind.SWISS:
        return f"Round {fixture.round}"
    return f"Matchday {fixture.round}"


def fixtures_by_round(
    competition: Competition, *, team_id: int | None = None, stage_id: int | None = None
) -> list[RoundBlock]:
    qs = competition_fixtures(competition)
    if stage_id is not None:
        qs = qs.filter(stage_id=stage_id)
    if team_id is not None:
        qs = qs.filter(Q(home_team_id=team_id) | Q(away_team_id=team_id))
    blocks: dict[tuple[int, int, str], RoundBlock] = {}
    match_url = id_url("tournaments:match", competition.slug)
    for f in _of_competition(qs, competition):
        title = round_title(f.stage, f)
        key = (f.stage.order, f.round, title)
        block = blocks.get(key)
        if block is None:
            block = blocks[key] = RoundBlock(stage=f.stage, round=f.round, title=title)
        block.rows.append(fixture_row(f, match_url=match_url))
    return [blocks[k] for k in sorted(blocks, key=lambda k: (k[0], k[1]))]


def competition_overview(competition: Competition) -> dict[str, Any]:
    counts = Fixture.objects.filter(competition=competition).aggregate(
        total=Count("id"),
        played=Count("id", filter=Q(status__in=Fixture.COUNTED_STATUSES)),
        simulated=Count("id", filter=Q(status=Fixture.Status.SIMULATED)),
        disputed=Count("id", filter=Q(status=Fixture.Status.DISPUTED)),
    )
    played = competition_fixtures(competition).filter(status__in=Fixture.COUNTED_STATUSES)
    match_url = id_url("tournaments:match", competition.slug)
    recent = [
        fixture_row(f, match_url=match_url)
        for f in _of_competition(played.order_by("-result__updated_at", "-id")[:8], competition)
    ]
    unplayed = competition_fixtures(competition).exclude(status__in=Fixture.DONE_STATUSES)
    upcoming = [
        fixture_row(f, match_url=match_url)
        for f in _of_competition(
            unplayed.order_by("kickoff", "stage__order", "round", "match_number", "id")[:8], competition
        )
    ]
    teams = competition.teams.count()
    return {"counts": counts, "recent": recent, "upcoming": upcoming, "team_count": teams}


# --- Bracket -----------------------------------------------------------------------------------------


def _feeder(source: Any) -> int | None:
    if isinstance(source, dict) and source.get("type") in ("winner", "loser"):
        number = source.get("match", source.get("match_number"))
        return int(number) if isinstance(number, int) else None
    return None


def _tie(stage: Stage, legs: list[Fixture], slug: str) -> svg.Tie:
    last = legs[-1]
    outcome = tie_outcome(stage, legs)
    # The tie is shown from the first leg's point of view (its home side on top).
    first = legs[0]
    home_name, home_ph = side_name(first, "home")
    away_name, away_ph = side_name(first, "away")
    results = [counted_result(f) for f in legs]
    home_score = away_score = ""
    note = ""
    simulated = any(r is not None and r.source == Result.Source.SIMULATED for r in results)
    if len(legs) == 1 and results[0] is not None:
        r = results[0]
        home_score, away_score = str(r.home_goals), str(r.away_goals)
        if r.home_penalties is not None:
            note = f"{r.home_penalties}–{r.away_penalties} pens"
        elif r.extra_time:
            note = "a.e.t."
    elif len(legs) == 2 and all(r is not None for r in results):
        r1, r2 = results[0], results[1]
        assert r1 is not None and r2 is not None
        home_score = str(r1.home_goals + r2.away_goals)
        away_score = str(r1.away_goals + r2.home_goals)
        note = f"agg. ({r1.home_goals}–{r1.away_goals}, {r2.home_goals}–{r2.away_goals})"
        if outcome and outcome.decided_by == "away_goals":
            note += ", away goals"
        elif r2.home_penalties is not None:
            note += f", {r2.away_penalties}–{r2.home_penalties} pens"
    winner_id = outcome.winner_id if outcome else None
    return svg.Tie(
        key=first.match_number or first.pk,
        home=svg.Side(
            home_name,
            home_ph,
            home_score,
            winner_id is not None and winner_id == first.home_team_id,
            _team_url(slug, first.home_team_id),
        ),
        away=svg.Side(
            away_name,
            away_ph,
            away_score,
            winner_id is not None and winner_id == first.away_team_id,
            _team_url(slug, first.away_team_id),
        ),
        url=reverse("tournaments:match", args=[slug, last.pk]),
        simulated=simulated,
        note=note,
        feeders=(_feeder(first.home_source), _feeder(first.away_source)),
    )


def _team_url(slug: str, team_id: int | None) -> str:
    return reverse("tournaments:team", args=[slug, team_id]) if team_id else ""


def bracket(stage: Stage) -> svg.Bracket:
    fixtures = _of_competition(competition_fixtures(stage.competition).filter(stage=stage), stage.competition)
    ties: dict[int, list[Fixture]] = defaultdict(list)
    for f in fixtures:
        ties[f.match_number or -f.pk].append(f)
    by_round: dict[int, list[tuple[svg.Tie, str]]] = defaultdict(list)
    third: svg.Tie | None = None
    for legs in ties.values():
        legs.sort(key=lambda f: f.leg)
        tie = _tie(stage, legs, stage.competition.slug)
        name = legs[0].round_name or ""
        if "third" in name.lower():
            third = tie
            continue
        by_round[legs[0].round].append((tie, name))
    rounds = []
    titles = []
    for r in sorted(by_round):
        entries = sorted(by_round[r], key=lambda e: e[0].key)
        rounds.append([t for t, _ in entries])
        titles.append(entries[0][1] or f"Round {r}")
    return svg.bracket_layout(rounds, titles, third)


# --- Team and coach pages ---------------------------------------------------------------------------


def team_with_details(team_id: int, competition: Competition) -> Team:
    return (
        Team.objects.select_related("competition", "coach", "club")
        .prefetch_related(
            Prefetch("roster_skills", queryset=TeamSkill.objects.select_related("skill", "gained_in")),
            Prefetch("groups", queryset=Group.objects.select_related("stage")),
        )
        .get(pk=team_id, competition=competition)
    )


@dataclass
class TeamMatch:
    row: FixtureRow
    venue: str  # "H" / "A"
    opponent: str
    outcome: str  # "W" / "D" / "L" / ""
    goals_for: int | None
    goals_against: int | None
    cards: list[Card]


def team_matches(team: Team) -> list[TeamMatch]:
    fixtures = _of_competition(
        competition_fixtures(team.competition)
        .filter(Q(home_team=team) | Q(away_team=team))
        .order_by("kickoff", "stage__order", "round", "leg", "id"),
        team.competition,
    )
    cards_by_result: dict[int, list[Card]] = defaultdict(list)
    result_ids = [r.pk for f in fixtures if (r := counted_result(f)) is not None]
    for card in Card.objects.filter(result_id__in=result_ids, team=team).order_by("sequence", "id"):
        cards_by_result[card.result_id].append(card)
    out = []
    match_url = id_url("tournaments:match", team.competition.slug)
    for f in fixtures:
        row = fixture_row(f, match_url=match_url)
        home = f.home_team_id == team.pk
        r = row.result
        gf = ga = None
        outcome = ""
        if r is not None:
            gf, ga = (r.home_goals, r.away_goals) if home else (r.away_goals, r.home_goals)
            if gf == ga and r.home_penalties is not None:
                pf, pa = (
                    (r.home_penalties, r.away_penalties) if home else (r.away_penalties, r.home_penalties)
                )
                outcome = "W" if (pf or 0) > (pa or 0) else "L"
            else:
                outcome = "W" if gf > ga else "D" if gf == ga else "L"
        out.append(
            TeamMatch(
                row=row,
                venue="H" if home else "A",
                opponent=row.away if home else row.home,
                outcome=outcome,
                goals_for=gf,
                goals_against=ga,
                cards=cards_by_result.get(r.pk, []) if r is not None else [],
            )
        )
    return out


def team_suspensions(team: Team) -> list[Suspension]:
    return list(
        Suspension.objects.filter(team=team)
        .select_related("source_fixture__home_team", "source_fixture__away_team", "served_in")
        .select_related("served_in__home_team", "served_in__away_team")
        .order_by("created_at", "id")
    )


def team_skill_losses(team: Team) -> list[Any]:
    return list(
        team.skill_losses.select_related(
            "skill", "lost_in__home_team", "lost_in__away_team", "unavailable_for"
        ).order_by("id")
    )


def coach_entries(coach: Coach) -> list[dict[str, Any]]:
    teams = list(
        Team.objects.filter(coach=coach).select_related("competition").order_by("-competition__created_at")
    )
    team_ids = [t.pk for t in teams]
    stats: dict[int, dict[str, int]] = {
        t: {"p": 0, "w": 0, "d": 0, "l": 0, "gf": 0, "ga": 0} for t in team_ids
    }
    results = Result.objects.filter(
        Q(fixture__home_team_id__in=team_ids) | Q(fixture__away_team_id__in=team_ids),
        fixture__status__in=Fixture.COUNTED_STATUSES,
    ).select_related("fixture")
    for r in results:
        for tid, gf, ga in (
            (r.fixture.home_team_id, r.home_goals, r.away_goals),
            (r.fixture.away_team_id, r.away_goals, r.home_goals),
        ):
            if tid in stats:
                s = stats[tid]
                s["p"] += 1
                s["gf"] += gf
                s["ga"] += ga
                s["w" if gf > ga else "d" if gf == ga else "l"] += 1
    return [{"team": t, "stats": stats[t.pk]} for t in teams]


# --- Match page ---------------------------------------------------------------------------------------


def match_fixture(competition: Competition, fixture_id: int) -> Fixture:
    return fixtures_qs().get(competition=competition, pk=fixture_id)


def match_cards(result: Result | None) -> list[Card]:
    if result is None:
        return []
    return list(result.cards.select_related("team").order_by("sequence", "id"))


def replay_log(fixture: Fixture, *, full: bool = False, data: bool = True) -> MatchLog | None:
    """The log to replay: the simulated log for a simulated result, else the accepted submission's log.

    ``full`` (the fixture's clubs and staff): with no counted result yet, the latest log the rules
    engine accepted. Everyone else sees only the log of a result that counts (docs/reliability.md).
    ``data``: with its events (the match page only links to them: a whole match decoded for nothing).
    """
    logs = (match_selectors.match_logs_readable() if full else match_selectors.match_logs_public()).filter(
        fixture=fixture
    )
    if not data:
        logs = logs.defer("data")
    result = counted_result(fixture)
    if result is not None and result.source == Result.Source.SIMULATED:
        log = logs.filter(is_simulated=True).order_by("-created_at", "-id").first()
        if log is not None:
            return log
    if result is not None and result.submission_id is not None:
        log = logs.filter(submission_id=result.submission_id).first()
        if log is not None:
            return log
    return logs.order_by("-created_at", "-id").first() if full else None


def log_shootout(fixture: Fixture, log: MatchLog) -> tuple[int, int] | None:
    """The shoot-out score that goes with a replayed log: the counted result's when the log is the
    one that counts (simulated, or its accepted submission), else the log's own submission's (the
    clubs' view before the result counts)."""
    result = counted_result(fixture)
    if result is not None and (log.is_simulated or result.submission_id == log.submission_id):
        pens = (result.home_penalties, result.away_penalties)
    elif log.submission is not None:
        pens = (log.submission.home_penalties, log.submission.away_penalties)
    else:
        return None
    return None if pens[0] is None or pens[1] is None else (pens[0], pens[1])


def latest_submission(fixture: Fixture) -> ResultSubmission | None:
    return (
        ResultSubmission.objects.filter(fixture=fixture)
        .select_related("team", "submitted_by")
        .order_by("-created_at", "-id")
        .first()
    )


def competitions_for_home() -> list[Competition]:
    return list(
        Competition.objects.exclude(status=Competition.Status.DRAFT)
        .annotate(
            team_count=Count("teams", distinct=True),
            played=Count("fixtures", filter=Q(fixtures__status__in=Fixture.COUNTED_STATUSES), distinct=True),
            fixture_count=Count("fixtures", distinct=True),
        )
        .order_by("-created_at", "id")
    )


def ids(items: Iterable[Any]) -> list[int]:
    return [i.pk for i in items]


@dataclass
class ClubDashboard:
    teams: list[Team]
    next_fixtures: list[Fixture]
    awaiting: list[ResultSubmission]
    disputes: list[Fixture]
    suspensions: list[Suspension]


def club_dashboard(*, user: User) -> ClubDashboard:
    """What a club member acts on: next fixtures with deadlines, results to confirm, disputes, bans."""
    teams = list(
        Team.objects.filter(club__members=user)
        .select_related("competition")
        .order_by("competition__name", "name")
    )
    ids = [t.pk for t in teams]
    mine = Q(home_team_id__in=ids) | Q(away_team_id__in=ids)
    related = ("competition", "home_team", "away_team", "stage")
    next_fixtures = list(
        Fixture.objects.filter(mine, status__in=[Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED])
        .select_related(*related)
        .order_by(F("deadline").asc(nulls_last=True), F("kickoff").asc(nulls_last=True), "id")[:20]
    )
    awaiting = list(
        ResultSubmission.objects.filter(
            Q(fixture__home_team_id__in=ids) | Q(fixture__away_team_id__in=ids),
            status=ResultSubmission.Status.OPEN,
        )
        .exclude(team_id__in=ids)
        .select_related("fixture__competition", "fixture__home_team", "fixture__away_team", "team")
        .order_by("created_at")
    )
    disputes = list(
        Fixture.objects.filter(mine, status=Fixture.Status.DISPUTED)
        .select_related(*related)
        .order_by("updated_at")
    )
    suspensions = list(
        Suspension.objects.filter(team_id__in=ids)
        .exclude(served_in__status__in=Fixture.COUNTED_STATUSES)
        .select_related("team", "competition", "source_fixture", "served_in")
        .order_by("competition__name", "team__name", "id")
    )
    return ClubDashboard(teams, next_fixtures, awaiting, disputes, suspensions)
