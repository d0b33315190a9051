"""Data built once per test process and written back in later tests (tests.web_fixtures, the light
cup of the browser tests): written back only on the state of the database it was built on, with
its ids, and built again on another state, such as the one a flush leaves when it re-creates the
content types and permissions under new ids (what broke the browser cup under --dist load)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.db import connection

from tests.web_fixtures import built_once_per_state, database_state

# Not serialized_rollback: after the flushes of the transactional tests before it (post_migrate),
# restoring the suite's serialized tables would clash with the content types made again.
pytestmark = pytest.mark.django_db(transaction=True)


def test_built_once_per_state_of_the_database_and_written_back_with_its_ids() -> None:
    built: list[int] = []

    def build() -> tuple[int, int]:
        # A row that points at a row the migrations made (a permission, hence a content type).
        group = Group.objects.create(name="scorers")
        group.permissions.add(Permission.objects.get(codename="add_user"))
        built.append(group.pk)
        return group.pk, Permission.objects.get(codename="add_user").pk

    builds: dict[str, tuple[tuple[int, int], dict[str, bytes]]] = {}
    # The permissions there whatever the test before left (a serialized test leaves none), then
    # kept as a browser test's set-up keeps the tables, to be restored below.
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)
    serialized = connection.creation.serialize_db_to_string()
    restored = database_state()
    group_id, permission_id = built_once_per_state(builds, build)
    assert Group.objects.get(pk=group_id).permissions.get().pk == permission_id
    with_group = database_state()
    assert with_group != restored

    # A browser test's end and the next one's start: emptied, then the serialized tables restored.
    call_command("flush", interactive=False, reset_sequences=False, inhibit_post_migrate=True, verbosity=0)
    assert not Group.objects.exists()
    connection.creation.deserialize_db_from_string(serialized)
    assert database_state() == restored
    assert built_once_per_state(builds, build) == (group_id, permission_id)
    assert len(built) == 1, "written back, not built again"
    assert database_state() == with_group
    assert Group.objects.create(name="later").pk > group_id, "a test's own rows never take the cup's ids"

    # A flush that runs post_migrate: the permissions are back under other ids. Writing the rows
    # kept would point the group at a permission that is gone; it is built again instead.
    call_command("flush", interactive=False, reset_sequences=False, verbosity=0)
    assert Permission.objects.get(codename="add_user").pk != permission_id
    again_group, again_permission = built_once_per_state(builds, build)
    assert len(built) == 2 and len(builds) == 2
    assert again_permission == Permission.objects.get(codename="add_user").pk
    assert Group.objects.get(pk=again_group).permissions.get().pk == again_permission
