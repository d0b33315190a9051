from django.db import migrations, models


def record_earlier_choices(apps, schema_editor):
    """A session that chose app dice before the record existed: its choice as the first entry,
    with the club of the member who made it (the other club's answer was never asked)."""
    Session = apps.get_model("scoring", "ScoringSession")
    for session in Session.objects.filter(app_dice=True).select_related(
        "app_dice_by", "fixture__home_team", "fixture__away_team"
    ):
        user = session.app_dice_by
        side = ""
        for name in ("home", "away"):
            team = getattr(session.fixture, f"{name}_team")
            if user is not None and team is not None and team.club.members.filter(pk=user.pk).exists():
                side = name
                break
        at = session.app_dice_at or session.created_at
        session.dice_record = [
            {
                "what": "chose",
                "app_dice": True,
                "side": side,
                "user": user.username if user is not None else "",
                "user_id": user.pk if user is not None else None,
                "seq": 0,
                "at": at.isoformat(),
            }
        ]
        session.save(update_fields=["dice_record"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_session_shootout"),
    ]

    operations = [
        migrations.AddField(
            model_name="scoringsession",
            name="dice_record",
            field=models.JSONField(
                blank=True,
                default=list,
                help_text="The clubs' words on the dice: [{what, app_dice, side, user, seq, at}]",
            ),
        ),
        migrations.RunPython(record_earlier_choices, migrations.RunPython.noop),
    ]
