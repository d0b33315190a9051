"""Load the skill catalog of FUBA rulebook 3, chapter A11, from tournaments/data/a11_skills.json.

The JSON was extracted from the rulebook text; see tournaments/data/README.md for how the
garbled table (footnote digits glued to the condition-point column) was read.
"""

import json
from pathlib import Path

from django.db import migrations

DATA = Path(__file__).resolve().parent.parent / "data" / "a11_skills.json"
FIELDS = (
    "position_group",
    "cp_cost",
    "counts_as_two",
    "restriction",
    "restrictions_text",
    "when_played",
    "chapter_text",
)


def load(apps, schema_editor):
    Skill = apps.get_model("tournaments", "Skill")
    for row in json.loads(DATA.read_text(encoding="utf-8")):
        # update_or_create keeps admin edits of other skills and makes the migration re-runnable.
        Skill.objects.update_or_create(name=row["name"], defaults={f: row[f] for f in FIELDS})


def unload(apps, schema_editor):
    Skill = apps.get_model("tournaments", "Skill")
    names = [row["name"] for row in json.loads(DATA.read_text(encoding="utf-8"))]
    Skill.objects.filter(name__in=names).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]
