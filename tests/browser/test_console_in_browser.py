"""The organiser console in a browser, as a new organiser: an 8-team cup with 2 groups and a final,
from nothing to its champion, with no admin page, no API call and no internal code typed.

The clubs' own steps (a report and a dispute) are theirs, made through the results services as
their pages would; the organiser's are all on the console's pages. The screens are counted.
"""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from matches import services as results
from tournaments.bracket import Score
from tournaments.draws import draw_groups
from tournaments.models import Competition, Fixture, Team

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "console-password-2026"
TEAMS = [
    # name, country, club, confederation, formation, skills
    ("Serbia", "Serbia", "Belgrade FC", "UEFA", "4-4-2", "Creative midfielder"),
    ("England", "England", "London FC", "UEFA", "4-4-2", ""),
    ("Australia", "Australia", "Sydney FC", "AFC", "4-3-3", "Regista"),
    ("Wales", "Wales", "Cardiff FC", "UEFA", "4-4-2", ""),
    ("Brazil", "Brazil", "Rio FC", "CONMEBOL", "4-4-2", ""),
    ("Japan", "Japan", "Tokyo FC", "AFC", "4-4-2", ""),
    ("Ghana", "Ghana", "Accra FC", "CAF", "4-4-2", ""),
    ("Scotland", "England", "Glasgow FC", "UEFA", "4-4-2", ""),
]
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


@pytest.fixture
def skill_catalog() -> None:
    """The A11 skill catalog, which a data migration loads: after an earlier transactional test's
    flush the serialized rollback does not always bring it back, and the teams pick skills by name."""
    import_module("tournaments.migrations.0002_a11_skill_catalog").load(apps, None)


def _both_sizes(page, shot, name: str) -> None:
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"console-{name}-{label}")
    page.set_viewport_size({"width": 1366, "height": 900})


def _seed_with_serbia_meeting_australia() -> int:
    """A seed (the organiser may type one) whose draw puts the two invited clubs' teams together."""
    pots = [[t[0] for t in TEAMS[i : i + 2]] for i in range(0, 8, 2)]
    country = {t[0]: t[1] for t in TEAMS}
    for seed in range(1, 200):
        drawn = draw_groups(
            pots=pots, group_names=["A", "B"], seed=seed, clash=lambda a, b: country[a] == country[b]
        )
        if any({"Serbia", "Australia"} <= set(g) for g in drawn.groups.values()):
            return seed
    raise AssertionError("no such seed")


def test_new_organiser_runs_an_eight_team_cup_in_the_console(
    page, live_server, settings, shot, skill_catalog
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organiser = get_user_model().objects.create_superuser("organiser", "org@example.org", PASSWORD)
    screens: list[str] = []
    page.on(
        "framenavigated",
        lambda frame: (
            screens.append(re.sub(r"/\d+/", "/<id>/", frame.url.split("?")[0]))
            if frame == page.main_frame
            else None
        ),
    )
    base = live_server.url
    page.goto(f"{base}/login/?next=/console/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit], input[type=submit]")

    # A new competition in one flow: a preset, the teams pasted, a preview, then created.
    page.click("[data-testid=new-competition]")
    page.click("text=8 teams: 2 groups of 4, the winners meet in a final")
    page.fill("#id_name", "Winter Cup")
    page.fill("#id_team_list", "\n".join(", ".join(t) for t in TEAMS))
    page.click("button[name=preview]")
    preview = page.locator("[data-testid=preview]").inner_text()
    assert "Winner group A v Winner group B" in preview and "Final" in preview
    assert not Competition.objects.filter(slug="winter-cup").exists()  # nothing stored before creating
    _both_sizes(page, shot, "new-competition")
    page.click("[data-testid=create]")
    page.wait_for_selector("text=Invite a club")
    competition = Competition.objects.get(slug="winter-cup")
    assert competition.teams.count() == 8
    assert list(Team.objects.get(name="Serbia").roster_skills.values_list("skill__name", flat=True)) == [
        "Creative midfielder"
    ]

    # Clubs invited in bulk: one line a member, each a one-time link to join (copied here).
    page.fill("#id_invitations", "Belgrade FC, serbia,\nSydney FC, australia,")
    page.click("[data-testid=bulk-invite]")
    page.wait_for_selector("text=2 members invited")
    found = page.locator("[data-testid=invite-links] li").all_inner_texts()
    links = {t.split(" ")[0]: t.split(": ", 1)[1].strip() for t in found}
    assert sorted(links) == ["australia", "serbia"]
    _both_sizes(page, shot, "teams")

    # The draw: countries apart (England and Scotland share one), a seed typed, revealed.
    page.click("nav >> text=Draw")
    page.fill("#id_seed", str(_seed_with_serbia_meeting_australia()))
    page.click("[data-testid=draw]")
    page.click("[data-reveal-all]")
    for group in competition.stages.get(kind="groups").groups.all():
        countries = [t.country for t in group.teams.all()]
        assert len(countries) == 4 and countries.count("England") == 1
    _both_sizes(page, shot, "draw")

    # The schedule, with deadlines.
    page.click("nav >> text=Schedule")
    page.fill("#id_start_date", "2027-01-09")
    page.fill("#id_kickoff_time", "18:00")
    page.fill("#id_days_between_rounds", "7")
    page.fill("#id_deadline_days", "3")
    page.click("[data-testid=generate]")
    page.wait_for_selector("text=fixtures scheduled")
    assert Fixture.objects.filter(competition=competition, deadline=None).count() == 0
    _both_sizes(page, shot, "schedule")

    # The clubs join by their links (a password chosen there); Serbia reports, Australia disputes.
    for member, club in (("serbia", "Belgrade FC"), ("australia", "Sydney FC")):
        club_page = page.context.browser.new_context().new_page()
        club_page.goto(links[member])
        assert club_page.locator("[data-testid=join-title]").inner_text() == f"Join {club} in Winter Cup"
        assert club_page.input_value("#id_username") == member
        club_page.fill("#id_password1", f"{member}-pass-2026!")
        club_page.fill("#id_password2", f"{member}-pass-2026!")
        club_page.click("[data-testid=join]")
        club_page.wait_for_url("**/my-club/")
        club_page.context.close()
    assert get_user_model().objects.get(username="serbia").fuba_clubs.get().name == "Belgrade FC"
    meeting = Fixture.objects.get(
        competition=competition,
        home_team__name__in=["Serbia", "Australia"],
        away_team__name__in=["Serbia", "Australia"],
    )
    serbia_home = meeting.home_team.name == "Serbia"
    reported = Score(2, 1) if serbia_home else Score(1, 2)
    results.result_submit(
        fixture_id=meeting.pk,
        user=get_user_model().objects.get(username="serbia"),
        score=reported,
        cards=[{"team": "away" if serbia_home else "home", "kind": "yellow"}],
    )
    results.result_dispute(
        fixture_id=meeting.pk,
        user=get_user_model().objects.get(username="australia"),
        reason="No card",
        cards=[0],
    )

    # The results desk: the dispute resolved (consequences shown before confirming).
    page.click("nav >> text=Results desk")
    page.click(f"text={meeting.home_team.name} v {meeting.away_team.name} >> nth=0")
    # The reported score and card are filled in; staff agree with Australia and drop the card.
    assert page.input_value("#id_home_goals") == str(reported.home_goals)
    assert page.locator("#id_card_0_kind").input_value() == "yellow"
    page.select_option("#id_card_0_team", "")
    page.select_option("#id_card_0_kind", "")
    page.click("[data-testid=check]")
    assert "will count, without cards" in page.locator("[data-testid=consequences]").inner_text()
    _both_sizes(page, shot, "result-desk")
    page.click("[data-testid=confirm]")
    page.wait_for_selector("text=done")
    meeting.refresh_from_db()
    assert meeting.status == Fixture.Status.CONFIRMED

    # A result entered, then corrected, at the desk; the others of the group stage come in.
    others = list(
        Fixture.objects.filter(competition=competition, stage__kind="groups", status="scheduled").order_by(
            "match_number"
        )
    )
    first = others.pop(0)
    for home, away in ((1, 0), (3, 0)):
        page.goto(f"{base}/console/c/winter-cup/results/{first.pk}/")
        page.fill("#id_home_goals", str(home))
        page.fill("#id_away_goals", str(away))
        page.click("[data-testid=check]")
        page.click("[data-testid=confirm]")
        page.wait_for_selector("text=done")
    first.refresh_from_db()
    assert (first.result.home_goals, first.result.away_goals) == (3, 0)
    for fixture in others:  # what the clubs would report, entered as staff to keep the test short
        results.result_override(
            fixture_id=fixture.pk, user=organiser, score=Score(1, 0), note="Reported by the clubs"
        )
    final = Fixture.objects.get(competition=competition, stage__kind="knockout")
    assert final.home_team and final.away_team
    page.goto(f"{base}/console/c/winter-cup/results/{final.pk}/")
    page.fill("#id_home_goals", "2")
    page.fill("#id_away_goals", "0")
    page.click("[data-testid=check]")
    page.click("[data-testid=confirm]")
    page.click("nav >> text=Overview")
    champion = page.locator("[data-testid=champion]").inner_text()
    assert final.home_team.name in champion
    _both_sizes(page, shot, "champion")

    # The audit trail in words.
    page.goto(f"{base}/console/c/winter-cup/results/{meeting.pk}/")
    audit = page.locator("[data-testid=audit]").inner_text()
    assert "Serbia reported" in audit and "Australia disputed the yellow card" in audit
    assert "organiser (organiser) resolved as" in audit
    distinct = sorted(set(screens))
    print(f"\nconsole screens: {len(distinct)} distinct ({len(screens)} page loads)")
    for url in distinct:
        print("  ", url.replace(base, ""))
    assert len(distinct) <= 12
