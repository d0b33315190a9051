"""The tap's serializer shares its declared fields' make between instances (shallow copies):
each instance still validates on its own, and the declared fields stay unbound."""

from __future__ import annotations

from scoring.api.serializers import TapSerializer

GOOD = {"tap_id": "t1", "after": "", "after_seq": 0, "answer": "light", "events": [{"client_id": "c1"}]}


def test_instances_validate_apart_and_leave_the_declared_fields_unbound() -> None:
    bad = TapSerializer(data={**GOOD, "tap_id": "x" * 65, "after_seq": -1, "answer": "half"})
    good = TapSerializer(data=GOOD)
    assert not bad.is_valid()
    assert set(bad.errors) == {"tap_id", "after_seq", "answer"}
    assert good.is_valid(), good.errors
    assert good.validated_data["answer"] == "light" and good.validated_data["after"] == ""
    assert TapSerializer(data={k: v for k, v in GOOD.items() if k != "answer"}).is_valid()
    assert good.fields["tap_id"].parent is good and bad.fields["tap_id"].parent is bad
    for field in TapSerializer._declared_fields.values():
        assert getattr(field, "parent", None) is None
        assert getattr(field, "field_name", None) is None
    missing = TapSerializer(data={"after": ""})
    assert not missing.is_valid()
    assert {"tap_id", "after_seq", "events"} <= set(missing.errors)
