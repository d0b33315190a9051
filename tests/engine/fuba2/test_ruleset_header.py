"""The ruleset switch, pinned: a FUBA 2 log is refused with a clear message until its turn flow exists."""

from rules_engine.api import validate_log

TEAMS = {"home": {"name": "a", "formation": "4-4-2"}, "away": {"name": "b", "formation": "4-4-2"}}


def _ruleset_errors(ruleset: str) -> list[str]:
    r = validate_log({"format": "fuba-log/1", "ruleset": ruleset, "teams": TEAMS, "events": []})
    assert not r.valid
    return [e.message for e in r.errors if e.path == "$.ruleset"]


def test_fuba2_log_is_refused_by_name_until_the_flow_is_written() -> None:
    (message,) = _ruleset_errors("fuba-2")
    assert message.startswith(
        '"ruleset": "fuba-2" (FUBA rulebook 2.0) cannot be validated yet: '
        'the engine plays only "fuba-3" matches'
    )


def test_unknown_ruleset_names_the_one_that_is_read() -> None:
    (message,) = _ruleset_errors("fuba-9")
    assert message.startswith('"ruleset" must be "fuba-3"')
