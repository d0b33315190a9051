from django.urls import path

from notifications import views, webhook_views

app_name = "notifications"

urlpatterns = [
    path("notifications/settings/", views.settings_page, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/act/<str:token>/", views.act, name="act"),
    path("notifications/follow/", views.follow, name="follow"),
    path("notifications/club-follow/", views.club_follow, name="club_follow"),
    path("notifications/push/subscribe", views.push_subscribe, name="push_subscribe"),
    path("notifications/push/unsubscribe", views.push_unsubscribe, name="push_unsubscribe"),
    path(
        "notifications/webhooks/competition/<slug:slug>/",
        webhook_views.competition_webhooks,
        name="competition_webhooks",
    ),
    path("notifications/webhooks/club/<int:club_id>/", webhook_views.club_webhooks, name="club_webhooks"),
    path("notifications/webhooks/<int:webhook_id>/", webhook_views.webhook_detail, name="webhook"),
]
