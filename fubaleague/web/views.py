"""Public pages. Views look things up, call selectors (reads) or services (the results workflow), render.

The standings page is the hot path: for anonymous visitors the whole rendered page is cached under
the competition's standings version (matches.standings.cache), so a request costs one cache
round trip and no query until a result changes. The other competition pages are cached for
anonymous visitors the same way (page_cache.anonymous_page). On a miss the home, standings,
fixtures and bracket pages are assembled from fragments kept under the versions of what they show
(fragments.py): a result re-renders the parts that show it, a change elsewhere none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache as cache_once
from functools import partial
from typing import Any

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from fubaleague.web import exports, fragments, svg
from fubaleague.web import selectors as ps
from fubaleague.web.fixture_rows import fixture_items, turns_overdue
from fubaleague.web.page_cache import anonymous_page, personal
from fubaleague.web.rating_bits import coach_rating_html, team_coach_rating_html
from matches.holds import holds
from matches.progress import competition_podium
from matches.standings import cache, presentation
from matches.standings.cache import WHOLE
from ratings.models import PAGES_SCOPE
from scoring.selectors import live_fixture_ids
from tournaments.models import Coach, Competition, Fixture, Stage
from tournaments.selectors import competition_permits


def _competition(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug)


def _nav(competition: Competition, current: str) -> dict[str, Any]:
    stages = list(competition.stages.all())
    return {
        "competition": competition,
        "current": current,
        "has_tables": any(s.kind != Stage.Kind.KNOCKOUT for s in stages),
        "has_bracket": any(s.kind == Stage.Kind.KNOCKOUT for s in stages),
        "stages": stages,
    }


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"competitions": ps.competitions_for_home()})


def _competition_loader(slug: str) -> Callable[[], Competition]:
    """The competition, read once by whichever piece of a page needs it first (none, when every
    piece is kept)."""
    return cache_once(partial(_competition, slug))


def _fixture_lists(lists: list[list[ps.FixtureRow]], slug: str) -> list[SafeString]:
    """Each list's items, the matches scored live and held read once for all of them."""
    # Being scored live is not late: no "overdue" on those (matches.holds).
    ids = [row.fixture.pk for rows in lists for row in rows]
    live_ids, held_ids = live_fixture_ids(fixture_ids=ids), set(holds(ids))
    return [fixture_items(rows, slug=slug, live_ids=live_ids, held_ids=held_ids) for rows in lists]


def _home_body(competition: Callable[[], Competition]) -> fragments.Html:
    context: dict[str, Any] = {"competition": competition()}
    context.update(ps.competition_overview(context["competition"]))
    context["podium"] = competition_podium(competition=context["competition"])
    slug = context["competition"].slug
    context["recent_items"], context["upcoming_items"] = _fixture_lists(
        [context["recent"], context["upcoming"]], slug
    )
    html = render_to_string("tournaments/partials/competition_body.html", context)
    return fragments.Html(html, turns_overdue(context["upcoming"]))


def _home_tables(competition: Callable[[], Competition]) -> str:
    tables = presentation.competition_tables(competition())[:8]
    context = {"competition": competition(), "tables": tables, "compact": True}
    return render_to_string("tournaments/partials/competition_tables.html", context)


@require_GET
@anonymous_page(live=True)
def competition_home(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _competition_loader(slug)

    def body(outline: fragments.Outline) -> list[fragments.Fragment]:
        # Results and figures: anything in any stage shows there.
        shown = (WHOLE, *outline.stage_parts())
        tables = (WHOLE, *outline.parts_through(presentation.TABLE_KINDS))
        return [
            fragments.Fragment("home", shown, partial(_home_body, competition), live=True),
            fragments.Fragment("home:tables", tables, partial(_home_tables, competition)),
        ]

    def context(outline: fragments.Outline, slots: Mapping[str, SafeString]) -> dict[str, Any]:
        context = _nav(competition(), "home")
        context["body_html"], context["tables_html"] = slots["home"], slots["home:tables"]
        context["may_set_webhooks"] = competition_permits(
            user=request.user,
            competition=competition(),
            action="setup",
            staff_perms=("tournaments.change_competition",),
        )
        return context

    return fragments.page(request, slug, "tournaments/competition.html", context, body)


def _standings_tables(competition: Callable[[], Competition]) -> str:
    charts = []
    for series in presentation.position_series(competition()):
        if len(series.rounds) < 2:
            continue
        title = f"{series.stage}" + (f" – Group {series.group}" if series.group else "")
        charts.append({"title": title, "chart": svg.positions_chart(series.series, series.rounds)})
    tables = presentation.competition_tables(competition())
    context = {"competition": competition(), "tables": tables, "charts": charts}
    return render_to_string("tournaments/partials/standings_tables.html", context)


def _standings_chances(competition: Callable[[], Competition]) -> str:
    return render_to_string("tournaments/partials/standings_chances.html", {"competition": competition()})


def standings_page_html(request: HttpRequest, slug: str) -> str:
    competition = _competition_loader(slug)

    def parts(outline: fragments.Outline) -> list[fragments.Fragment]:
        # The chances are estimated from every stage; a table shows its stage, and its feeders'.
        everything = (WHOLE, "x", *outline.stage_parts())
        tables = (WHOLE, *outline.parts_through(presentation.TABLE_KINDS))
        return [
            fragments.Fragment("standings:chances", everything, partial(_standings_chances, competition)),
            fragments.Fragment("standings:tables", tables, partial(_standings_tables, competition)),
        ]

    def context(outline: fragments.Outline, slots: Mapping[str, SafeString]) -> dict[str, Any]:
        context = _nav(competition(), "standings")
        context["chances_html"], context["tables_html"] = (
            slots["standings:chances"],
            slots["standings:tables"],
        )
        return context

    return fragments.assemble(request, slug, "tournaments/standings.html", context, parts)


@require_GET
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    if request.user.is_authenticated:
        return HttpResponse(standings_page_html(request, slug))
    # The page has no per-user content when anonymous, so one assembly serves everyone.
    return HttpResponse(cache.by_slug(slug, "page", partial(standings_page_html, request, slug)))


def _bracket_html(stage_id: int) -> str:
    stage = Stage.objects.select_related("competition").get(pk=stage_id)
    return render_to_string(
        "tournaments/partials/bracket_stage.html", {"b": {"stage": stage, "bracket": ps.bracket(stage)}}
    )


@require_GET
@anonymous_page()
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    def parts(outline: fragments.Outline) -> list[fragments.Fragment]:
        # A stage's bracket shows its own fixtures, and the teams' names ("c").
        knockouts = outline.stage_ids([Stage.Kind.KNOCKOUT])
        return [
            fragments.Fragment(f"bracket:s{i}", (WHOLE, f"s{i}"), partial(_bracket_html, i))
            for i in knockouts
        ]

    def context(outline: fragments.Outline, slots: Mapping[str, SafeString]) -> dict[str, Any]:
        context = _nav(_competition(slug), "bracket")
        stages = {s.pk: s for s in context["stages"]}
        knockouts = outline.stage_ids([Stage.Kind.KNOCKOUT])
        context["brackets"] = [{"stage": stages[i], "html": slots[f"bracket:s{i}"]} for i in knockouts]
        return context

    return fragments.page(request, slug, "tournaments/bracket.html", context, parts)


def _fixture_rounds(
    competition: Callable[[], Competition], stage_id: int, team_id: int | None
) -> fragments.Html:
    rounds = ps.fixtures_by_round(competition(), team_id=team_id, stage_id=stage_id)
    slug = competition().slug
    blocks = list(zip(rounds, _fixture_lists([block.rows for block in rounds], slug), strict=True))
    context = {"rounds": blocks, "number": mark_safe(_ROUND)}  # noqa: S308 - a control character
    html = render_to_string("tournaments/partials/fixture_rounds.html", context)
    return fragments.Html(html, turns_overdue(row for block in rounds for row in block.rows))


# Where a round's number goes in a stage's fragment (tournaments/partials/fixture_rounds.html).
_ROUND = "\x01"


def _rounds_numbered(html: str) -> str:
    """The rounds numbered across the stages, twice a round (its section's label and its heading's
    id): each stage's fragment leaves the numbers out, it cannot know the stages before it."""
    if not html:
        return "\n<p>No fixtures yet.</p>\n"
    first, *rest = html.split(_ROUND)
    return first + "".join(f"{i // 2 + 1}{piece}" for i, piece in enumerate(rest))


@require_GET
@anonymous_page(params=("team",), live=True)
def fixtures(request: HttpRequest, slug: str) -> HttpResponse:
    team_id = _int_param(request, "team")
    competition = _competition_loader(slug)

    def parts(outline: fragments.Outline) -> list[fragments.Fragment]:
        # A stage's rounds show its fixtures, and the teams' names ("c").
        return [
            fragments.Fragment(
                f"fixtures:{team_id or ''}:s{i}",
                (WHOLE, f"s{i}"),
                partial(_fixture_rounds, competition, i, team_id),
                live=True,
            )
            for i, _ in outline.stages
        ]

    def rounds(html: dict[str, str]) -> dict[str, str]:
        # (the fragments' HTML in their order: the stages')
        return {"rounds": _rounds_numbered("".join(html.values()))}

    def context(outline: fragments.Outline, slots: Mapping[str, SafeString]) -> dict[str, Any]:
        context = _nav(competition(), "fixtures")
        context["rounds_html"] = slots["rounds"]
        context["teams"] = competition().teams.order_by("name")
        context["team_id"] = team_id
        return context

    return fragments.page(
        request,
        slug,
        "tournaments/fixtures.html",
        context,
        parts,
        slots=rounds,
        variant=f"team={team_id or ''}",
    )


def _int_param(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "")
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise BadRequest(f"Query parameter '{name}' must be a team id (a number), not '{raw}'.") from None


@require_GET
@anonymous_page(params=("team",), host=True)
def fixtures_ics(request: HttpRequest, slug: str) -> HttpResponse:
    return exports.ics_response(request, slug, _int_param(request, "team"))


@require_GET
@anonymous_page(params=("team",))
def fixtures_csv(request: HttpRequest, slug: str) -> HttpResponse:
    return exports.csv_response(slug, _int_param(request, "team"))


def _team_parts(slug: str, team_id: int) -> tuple[str, ...]:
    """What a team's page shows: its fragments' parts (a result elsewhere leaves the page kept)."""
    return (WHOLE, f"t{team_id}")


@require_GET
@anonymous_page(shows=(PAGES_SCOPE,), parts=_team_parts)
def team(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    if personal(request):
        context = _team_context(slug, team_id)
        team = context["team"]
        html = coach_rating_html(team.coach, team.competition.game_system) if team.coach else ""
        context["coach_rating"] = mark_safe(html)  # noqa: S308 - rendered HTML
        return render(request, "tournaments/team.html", context)
    if not ps.team_in(slug=slug, team_id=team_id):
        raise Http404("No such team in this competition.")

    def page() -> str:
        context = _team_context(slug, team_id)
        context["coach_rating"] = fragments.slot("rating")
        return render_to_string("tournaments/team.html", context, request)

    # The team's fixtures (a slot filled anew bumps the team it leaves too), cards, suspensions
    # and skills ("t"); its coach's rating moves with any rated result (the ratings' scope).
    kept = fragments.Fragment(f"team:{team_id}", _team_parts(slug, team_id), page)
    rating = fragments.Fragment(
        f"team:{team_id}:rating", (WHOLE,), partial(team_coach_rating_html, team_id), scopes=(PAGES_SCOPE,)
    )
    fetched = fragments.fetch(slug, [kept, rating])
    assert fetched is not None  # (not laid out by an outline: never None)
    return HttpResponse(fragments.filled(fetched.html[kept.name], {"rating": fetched.html[rating.name]}))


def _team_context(slug: str, team_id: int) -> dict[str, Any]:
    competition = _competition(slug)
    try:
        team_obj = ps.team_with_details(team_id, competition)
    except ps.Team.DoesNotExist:
        raise Http404("No such team in this competition.") from None
    context = _nav(competition, "teams")
    matches = ps.team_matches(team_obj)
    context.update(
        {
            "team": team_obj,
            "matches": matches,
            "record": _record(matches),
            "suspensions": ps.team_suspensions(team_obj),
            "skill_losses": ps.team_skill_losses(team_obj),
            "skills": list(team_obj.roster_skills.all()),
            "yellow_cards": sum(1 for m in matches for c in m.cards if c.kind == "yellow"),
            "red_cards": sum(1 for m in matches for c in m.cards if c.kind != "yellow"),
        }
    )
    return context


def _record(matches: list[ps.TeamMatch]) -> dict[str, int]:
    rec = {"played": 0, "W": 0, "D": 0, "L": 0, "gf": 0, "ga": 0}
    for m in matches:
        if m.outcome:
            rec["played"] += 1
            rec[m.outcome] += 1
            rec["gf"] += m.goals_for or 0
            rec["ga"] += m.goals_against or 0
    return rec


@require_GET
@anonymous_page()
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _competition(slug)
    context = _nav(competition, "teams")
    context["teams"] = competition.teams.select_related("coach", "club").order_by("name")
    return render(request, "tournaments/teams.html", context)


@require_GET
def coach(request: HttpRequest, coach_id: int) -> HttpResponse:
    coach_obj = get_object_or_404(Coach.objects.select_related("club"), pk=coach_id)
    return render(
        request, "tournaments/coach.html", {"coach": coach_obj, "entries": ps.coach_entries(coach_obj)}
    )


def fixture_or_404(competition: Competition, fixture_id: int) -> Fixture:
    try:
        return ps.match_fixture(competition, fixture_id)
    except Fixture.DoesNotExist:
        raise Http404("No such match in this competition.") from None


def match_url(fixture: Fixture) -> str:
    return reverse("tournaments:match", args=[fixture.competition.slug, fixture.pk])
