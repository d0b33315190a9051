"""``manage.py simulate_match``: prints the score, writes a valid log."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules_engine.api import validate_log


def test_simulate_match_writes_a_valid_log(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    stdout = StringIO()
    call_command(
        "simulate_match",
        "--home-formation", "4-4-2",
        "--away-formation", "3-5-2",
        "--seed", "7",
        "--rules", "all",
        "--home-coach", "heuristic",
        "--away-coach", "random",
        "--home-skills", "runner,tackler",
        "--away-skills", "stopper,crossing",
        "--home-roles", "attacking_midfielders=1",
        "--out", str(out),
        stdout=stdout,
    )  # fmt: skip
    log = json.loads(out.read_text())
    report = validate_log(log)
    assert report.valid, report.errors[:3]
    score = report.result.to_dict()["score"]
    assert f"Home {score['home']} - {score['away']} Away" in stdout.getvalue()
    assert log["teams"]["home"]["roles"] == {"attacking_midfielders": 1}
    # deterministic for the seed
    again = tmp_path / "again.json"
    call_command(
        "simulate_match", "--home-formation", "4-4-2", "--away-formation", "3-5-2", "--seed", "7",
        "--home-coach", "heuristic", "--away-coach", "random", "--home-skills", "runner,tackler",
        "--away-skills", "stopper,crossing", "--home-roles", "attacking_midfielders=1", "--out", str(again),
        stdout=StringIO(),
    )  # fmt: skip
    assert json.loads(again.read_text()) == log


def test_simulate_match_without_advanced_rules_to_stdout() -> None:
    stdout = StringIO()
    call_command("simulate_match", "--seed", "3", "--rules", "none", "--out", "-", stdout=stdout)
    log = json.loads(stdout.getvalue())
    assert log["advanced_rules"] == []
    assert validate_log(log).valid


def test_simulate_match_reports_a_bad_formation() -> None:
    with pytest.raises(CommandError, match="formation"):
        call_command("simulate_match", "--home-formation", "4-4-3", stdout=StringIO())


def test_simulate_match_plays_a_fuba_2_match(tmp_path: Path) -> None:
    out = tmp_path / "fuba2.json"
    call_command(
        "simulate_match",
        "--ruleset", "fuba-2",
        "--rules", "A1,A2,A6",
        "--home-styles", "midfield=aggressive,forward=easy",
        "--away-roles", "attacking_midfielders=1",
        "--seed", "3",
        "--out", str(out),
        stdout=StringIO(),
    )  # fmt: skip
    log = json.loads(out.read_text())
    assert log["ruleset"] == "fuba-2" and validate_log(log).valid
    assert log["teams"]["home"]["styles"]["midfield"] == "aggressive"
    with pytest.raises(CommandError, match="LINE=STYLE"):
        call_command(
            "simulate_match", "--ruleset", "fuba-2", "--home-styles", "aggressive", stdout=StringIO()
        )
