from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from fubaleague.web import club_views, join_views, live_views, match_views, views

# The page names keep the "tournaments:" namespace they had when the pages lived in that app:
# templates and tests reverse them by it.
app_name = "tournaments"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.competition_home, name="competition"),
    path("c/<slug:slug>/standings/", views.standings, name="standings"),
    path("c/<slug:slug>/bracket/", views.bracket, name="bracket"),
    path("c/<slug:slug>/fixtures/", views.fixtures, name="fixtures"),
    path("c/<slug:slug>/live/", live_views.live_centre, name="live_centre"),
    path("c/<slug:slug>/live/round/<int:round_number>/", live_views.live_centre, name="live_centre_round"),
    path("c/<slug:slug>/live.json", live_views.live_json, name="live_json"),
    path("c/<slug:slug>/screen/", live_views.big_screen, name="big_screen"),
    path("c/<slug:slug>/screen.json", live_views.screen_json, name="screen_json"),
    path("c/<slug:slug>/clock.json", live_views.clock_json, name="clock_json"),
    path("c/<slug:slug>/fixtures.ics", views.fixtures_ics, name="fixtures_ics"),
    path("c/<slug:slug>/fixtures.csv", views.fixtures_csv, name="fixtures_csv"),
    path("c/<slug:slug>/teams/", views.teams, name="teams"),
    path("c/<slug:slug>/teams/<int:team_id>/", views.team, name="team"),
    path("c/<slug:slug>/matches/<int:fixture_id>/", match_views.match, name="match"),
    path("c/<slug:slug>/matches/<int:fixture_id>/replay.json", match_views.replay_json, name="replay_json"),
    path("c/<slug:slug>/matches/<int:fixture_id>/log.json", match_views.log_download, name="log_download"),
    path("c/<slug:slug>/matches/<int:fixture_id>/submit", match_views.submit_result, name="submit_result"),
    path("c/<slug:slug>/matches/<int:fixture_id>/confirm", match_views.confirm_result, name="confirm_result"),
    path("c/<slug:slug>/matches/<int:fixture_id>/dispute", match_views.dispute_result, name="dispute_result"),
    path("c/<slug:slug>/matches/<int:fixture_id>/cannot-play", match_views.cannot_play, name="cannot_play"),
    path("c/<slug:slug>/matches/<int:fixture_id>/check-in", match_views.check_in, name="check_in"),
    path("c/<slug:slug>/sign-up/", join_views.signup, name="signup"),
    path("join/<str:token>/", join_views.join, name="join"),
    path("coaches/<int:coach_id>/", views.coach, name="coach"),
    # Club members sign in here (the admin's login accepts staff only).
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="registration/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="/"), name="logout"),
    path("my-club/", club_views.dashboard, name="dashboard"),
    path("my-club/<int:club_id>/members/", club_views.members, name="club_members"),
    # Password change (signed in) and reset by e-mail: Django's views with the admin's templates.
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(success_url=reverse_lazy("tournaments:password_change_done")),
        name="password_change",
    ),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(
            success_url=reverse_lazy("tournaments:password_reset_done"),
            email_template_name="registration/fuba_password_reset_email.txt",
        ),
        name="password_reset",
    ),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("tournaments:password_reset_complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
