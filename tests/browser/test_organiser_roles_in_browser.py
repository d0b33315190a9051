"""Issue 32's "Done when", in a browser: an 8-team cup run by an organiser who is not staff, with a
co-organiser and a results-desk helper (refused any set-up change, by the page and by the API),
clubs invited in bulk and one club entering through the sign-up page, to the champion named on
the competition's public home. Phone and desktop screenshots of the new pages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from matches import services as results
from tournaments.bracket import Score
from tournaments.models import ClubApplication, Competition, CompetitionRole, Fixture, Invitation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "organiser-pass-2027"
TEAMS = [  # seven pasted; the eighth, Ghana, enters through the sign-up page
    ("Serbia", "Serbia", "Belgrade FC"),
    ("England", "England", "London FC"),
    ("Australia", "Australia", "Sydney FC"),
    ("Wales", "Wales", "Cardiff FC"),
    ("Brazil", "Brazil", "Rio FC"),
    ("Japan", "Japan", "Tokyo FC"),
    ("Scotland", "Scotland", "Glasgow FC"),
]
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def _both_sizes(page, shot, name: str) -> None:
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"organiser-{name}-{label}")
    page.set_viewport_size({"width": 1366, "height": 900})


def _sign_in(browser, base: str, username: str, password: str, next_url: str = "/console/"):
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_url}")
    return page


def _join(browser, link: str, username: str, password: str, title: str, landing: str, shot=None):
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(15000)
    page.goto(link)
    assert page.locator("[data-testid=join-title]").inner_text() == title
    assert "reset" not in page.content().lower()
    page.fill("#id_username", username)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    if shot is not None:
        shot(page, f"organiser-join-{username}-phone")
    page.click("[data-testid=join]")
    page.wait_for_url(f"**{landing}")
    return page


def _enter_round(page, base: str) -> None:
    """The next round with matches to enter: every open row 2-0 to the home side, one save."""
    page.goto(f"{base}/console/c/spring-cup/results/round/")
    rows = page.locator("[data-testid=round-form] input[id$=-home_goals]")
    assert rows.count() > 0
    for i in range(rows.count()):
        rows.nth(i).fill("2")
    for field in page.locator("[data-testid=round-form] input[id$=-away_goals]").all():
        field.fill("0")
    page.click("[data-testid=save-round]")
    page.wait_for_selector("text=saved.")


def test_an_organiser_who_is_not_staff_runs_a_cup_with_helpers_to_its_champion(
    page, live_server, settings, shot
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = get_user_model().objects
    olga = users.create_user("olga", "olga@example.org", PASSWORD)
    users.create_user("colin", "colin@example.org", PASSWORD)
    assert not olga.is_staff
    base = live_server.url
    browser = page.context.browser
    page.goto(f"{base}/login/?next=/console/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=console-link]")  # the header's way to the console

    # The cup, created by a signed-in user who is not staff: its organiser.
    page.click("[data-testid=new-competition]")
    page.click("text=8-team cup: 2 groups of 4, semi-finals and a final")
    page.fill("#id_name", "Spring Cup")
    page.click("button[name=preview]")
    page.click("[data-testid=create]")
    page.wait_for_selector("text=Invite a club")
    cup = Competition.objects.get(slug="spring-cup")
    assert CompetitionRole.objects.get(competition=cup).user == olga
    page.fill("#id_teams", "\n".join(", ".join(t) for t in TEAMS))
    page.click("button[name=paste]")
    page.wait_for_selector("text=7 teams entered")

    # The clubs invited in bulk: one line a member, each mail to its own address.
    mail.outbox.clear()
    lines = [f"{club}, {name.lower()}, {name.lower()}@example.org" for name, _c, club in TEAMS]
    page.fill("#id_invitations", "\n".join(lines))
    page.click("[data-testid=bulk-invite]")
    page.wait_for_selector("text=7 members invited (7 by e-mail)")
    assert [m.to for m in mail.outbox] == [[f"{n.lower()}@example.org"] for n, _c, _l in TEAMS]
    assert mail.outbox[0].subject == "Join Belgrade FC in Spring Cup"
    links = {m.to[0].split("@")[0]: re.search(r"http\S+/join/\S+/", m.body).group(0) for m in mail.outbox}

    # The sign-up page opened; Ghana's club asks to enter and the organiser approves it.
    page.click("[data-testid=open-signup]")
    page.wait_for_selector("text=The sign-up page is open")
    visitor = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    visitor.goto(f"{base}/c/spring-cup/sign-up/")
    visitor.fill("#id_club_name", "Accra FC")
    visitor.fill("#id_team_name", "Ghana")
    visitor.fill("#id_country", "Ghana")
    visitor.fill("#id_username", "ghana")
    visitor.fill("#id_password1", "ghana-pass-2027!")
    visitor.fill("#id_password2", "ghana-pass-2027!")
    shot(visitor, "organiser-sign-up-phone")
    visitor.click("[data-testid=sign-up]")
    visitor.wait_for_selector("[data-testid=my-application]")
    assert "Waiting for the organiser" in visitor.locator("[data-testid=my-application]").inner_text()
    visitor.context.close()
    page.reload()
    page.click("[data-testid=application] >> text=Approve")
    page.wait_for_selector("text=approved")
    assert cup.teams.count() == 8 and ClubApplication.objects.get().status == "approved"
    _both_sizes(page, shot, "teams")

    # Two clubs join by their links; the People page adds a co-organiser and invites a desk helper.
    for member, club in (("serbia", "Belgrade FC"), ("australia", "Sydney FC")):
        _join(
            browser,
            links[member],
            member,
            f"{member}-pass-2027!",
            f"Join {club} in Spring Cup",
            "/my-club/",
            shot,
        )
    page.click("nav >> text=People")
    page.fill("#id_who", "colin")
    page.check("input[name=kind][value=co_organiser]")
    page.click("button[name=add]")
    page.wait_for_selector("text=colin is now co-organiser of Spring Cup")
    mail.outbox.clear()
    page.fill("#id_who", "desk@example.org")
    page.check("input[name=kind][value=results_desk]")
    page.click("button[name=add]")
    page.wait_for_selector("text=Invitation to join as results desk e-mailed to desk@example.org")
    _both_sizes(page, shot, "people")
    (invite,) = mail.outbox
    desk_link = re.search(r"http\S+/join/\S+/", invite.body).group(0)
    desk = _join(
        browser,
        desk_link,
        "dana",
        "dana-desk-2027!",
        "Join Spring Cup as results desk",
        "/console/c/spring-cup/",
    )
    shot(desk, "organiser-desk-overview-phone")
    steps = desk.locator("nav[aria-label=Steps]").inner_text()
    assert "Results desk" in steps and "Draw" not in steps and "People" not in steps

    # The desk helper is refused every set-up change: by the pages and by the API.
    for path in ("teams/", "draw/", "schedule/", "people/", "discipline/"):
        response = desk.goto(f"{base}/console/c/spring-cup/{path}")
        assert response.status == 403, path
    # A script of the desk helper (a token, no browser session) meets the same rule.
    api = browser.new_context().request
    token = api.post(f"{base}/api/v1/auth/token", form={"username": "dana", "password": "dana-desk-2027!"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    refused = api.patch(f"{base}/api/v1/competitions/spring-cup", headers=auth, data={"name": "Desk Cup"})
    assert refused.status == 403 and "organisers" in refused.json()["error"]["message"]
    stage = cup.stages.get(kind="groups")
    refused = api.post(f"{base}/api/v1/stages/{stage.pk}/generate-fixtures", headers=auth, data={})
    assert refused.status == 403
    assert (
        Competition.objects.get(pk=cup.pk).name == "Spring Cup"
        and not Fixture.objects.filter(competition=cup).exists()
    )

    # The co-organiser draws and schedules.
    colin = _sign_in(browser, base, "colin", PASSWORD)
    colin.goto(f"{base}/console/c/spring-cup/draw/")
    colin.fill("#id_seed", "2027")
    colin.click("[data-testid=draw]")
    colin.wait_for_selector("[data-testid=groups]")
    colin.click("nav >> text=Schedule")
    colin.fill("#id_start_date", "2027-04-03")
    colin.fill("#id_kickoff_time", "18:00")
    colin.fill("#id_days_between_rounds", "7")
    colin.fill("#id_deadline_days", "3")
    colin.click("[data-testid=generate]")
    colin.wait_for_selector("text=fixtures scheduled")
    colin.context.close()

    # The clubs report; the desk enters the rest and resolves a dispute, all on the results desk.
    group_fixtures = list(
        Fixture.objects.filter(competition=cup, stage__kind="groups").order_by("match_number")
    )
    serbia = users.get(username="serbia")
    reported = next(f for f in group_fixtures if "Serbia" in (f.home_team.name, f.away_team.name))
    opponent = reported.away_team if reported.home_team.name == "Serbia" else reported.home_team
    opponent_member = users.create_user(f"{opponent.name.lower()}-2", "", "x")
    opponent.club.members.add(opponent_member)
    results.result_submit(fixture_id=reported.pk, user=serbia, score=Score(2, 1))
    results.result_dispute(fixture_id=reported.pk, user=opponent_member, reason="It was 1-1")
    desk.goto(f"{base}/console/c/spring-cup/results/{reported.pk}/")
    desk.select_option("#id_action", "resolve")
    desk.fill("#id_home_goals", "1")
    desk.fill("#id_away_goals", "1")
    desk.click("[data-testid=check]")
    desk.click("[data-testid=confirm]")
    desk.wait_for_selector("text=done")
    # The rest round by round, each from one screen in one save: the group rounds, the
    # semi-finals, then the final.
    for _round in range(5):
        _enter_round(desk, base)
    final = Fixture.objects.get(competition=cup, stage__kind="knockout", round_name="Final")
    assert final.home_team and final.away_team and final.is_counted
    final.refresh_from_db()
    desk.goto(f"{base}/console/c/spring-cup/results/{reported.pk}/")
    audit = desk.locator("[data-testid=audit]").inner_text()
    assert "serbia (member of Belgrade FC)" in audit and "dana (results desk) resolved as" in audit

    # The champion, runner-up named on the public home.
    public = browser.new_context().new_page()
    public.goto(f"{base}/c/spring-cup/")
    assert final.home_team.name in public.locator("[data-testid=champion]").inner_text()
    assert final.away_team.name in public.locator("[data-testid=runner-up]").inner_text()
    for label, (width, height) in SIZES.items():
        public.set_viewport_size({"width": width, "height": height})
        shot(public, f"organiser-public-home-{label}")
    assert Invitation.objects.filter(accepted_at__isnull=False).count() == 3
