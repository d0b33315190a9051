"""Every browser test starts on the tables the migrations filled, as serialized at the set-up
(tests/conftest.py django_db_setup): the connection object Django makes in another context (a
thread here; a context of Playwright's event loop in the browser tests) carries them too, or Django
would skip the restore without a word and renumber the content types at each flush."""

from __future__ import annotations

import json
import threading

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connections

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_connection_made_in_another_context_restores_the_serialized_tables() -> None:
    made: list[object] = []
    thread = threading.Thread(target=lambda: made.append(connections["default"]))
    thread.start()
    thread.join()
    ours = connections["default"]
    assert made[0] is not ours
    assert getattr(made[0], "_test_serialized_contents", None) == ours._test_serialized_contents

    # and this test's tables are the serialized ones, content types under their ids
    serialized = {
        (row["pk"], row["fields"]["app_label"], row["fields"]["model"])
        for row in json.loads(ours._test_serialized_contents)
        if row["model"] == "contenttypes.contenttype"
    }
    assert serialized
    assert set(ContentType.objects.values_list("pk", "app_label", "model")) == serialized
