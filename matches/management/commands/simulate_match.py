"""``python manage.py simulate_match``: simulate a match between two AI coaches.

    python manage.py simulate_match --home-formation 4-4-2 --away-formation 3-5-2 \\
        --seed 7 [--rules all] [--home-coach heuristic --away-coach random] --out match.json
    python manage.py simulate_match --ruleset fuba-2 --rules A1,A6 --home-styles midfield=aggressive


Prints the score (and where the log was written); the log is a fuba-log/1
document accepted by ``manage.py validate_log``.  No database is used.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matchplay.engine_door import (
    COACH_KINDS,
    FubaError,
    SimulationError,
    SimulationOptions,
    TeamSetup,
    log_of,
    play_match,
)


def _csv(text: str | None) -> tuple[str, ...]:
    return tuple(x.strip() for x in (text or "").split(",") if x.strip())


def _styles(text: str | None) -> tuple[tuple[str, str], ...]:
    out = []
    for part in _csv(text):
        line, sep, style = part.partition("=")
        if not sep:
            raise CommandError(f"style {part!r}: write LINE=STYLE, e.g. midfield=aggressive")
        out.append((line.strip(), style.strip()))
    return tuple(out)


def _roles(text: str | None) -> tuple[tuple[str, int], ...]:
    out = []
    for part in _csv(text):
        name, _, count = part.partition("=")
        try:
            out.append((name.strip(), int(count or "1")))
        except ValueError:
            raise CommandError(f"role {part!r}: write NAME=COUNT, e.g. attacking_midfielders=2") from None
    return tuple(out)


class Command(BaseCommand):
    help = (
        "Simulate a FUBA match (rulebook 3, or rulebook 2.0 with --ruleset fuba-2) between two AI coaches; "
        "print the score and write the log."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        for side in ("home", "away"):
            parser.add_argument(f"--{side}-name", default="Home" if side == "home" else "Away")
            parser.add_argument(f"--{side}-formation", default="4-4-2", help='"D-M-F", e.g. 4-4-2')
            parser.add_argument(f"--{side}-skills", default="", help="comma-separated A11 skill names")
            parser.add_argument(f"--{side}-roles", default="", help="A2 roles, e.g. attacking_midfielders=2")
            parser.add_argument(f"--{side}-coach", default="heuristic", choices=COACH_KINDS)
            parser.add_argument(
                f"--{side}-styles", default="", help="FUBA 2, A6 playing styles, e.g. midfield=aggressive"
            )
        parser.add_argument("--ruleset", default="fuba-3", choices=("fuba-3", "fuba-2"))
        parser.add_argument("--seed", default="0", help="seed of the dice and the coaches (int or text)")
        parser.add_argument(
            "--rules", default="all", help='advanced rules: "all", "none" or a list such as A1,A3,A5'
        )
        parser.add_argument("--out", default="", help="write the fuba-log/1 JSON here ('-' for stdout)")
        parser.add_argument("--max-events", type=int, default=20_000)
        parser.add_argument(
            "--compact",
            action="store_true",
            help='leave out default answers ("done"/"no") the replay supplies',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seed: int | str = options["seed"]
        if isinstance(seed, str) and seed.lstrip("-").isdigit():
            seed = int(seed)
        rules_opt = options["rules"].strip()
        rules: str | tuple[str, ...] = rules_opt if rules_opt in ("all", "none", "") else _csv(rules_opt)
        teams = []
        for side in ("home", "away"):
            teams.append(
                TeamSetup(
                    name=options[f"{side}_name"],
                    formation=options[f"{side}_formation"],
                    roles=_roles(options[f"{side}_roles"]),
                    skills=_csv(options[f"{side}_skills"]),
                    styles=_styles(options[f"{side}_styles"]),
                )
            )
        try:
            sim = SimulationOptions(
                advanced_rules=rules,
                home_coach=options["home_coach"],
                away_coach=options["away_coach"],
                max_events=options["max_events"],
                ruleset=options["ruleset"],
            )
            match = play_match(teams[0], teams[1], sim, seed)
        except (FubaError, SimulationError, ValueError) as e:
            raise CommandError(str(e)) from e
        log = log_of(match, compact=options["compact"])
        result = match.result()
        text = json.dumps(log, ensure_ascii=False, indent=1)
        out = options["out"]
        if out == "-":
            self.stdout.write(text)
            return
        if out:
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        home_goals, away_goals = result.score
        self.stdout.write(
            f"{teams[0].name} {home_goals} - {away_goals} {teams[1].name} "
            f"(seed {seed}, {result.turns} turns, {result.final_minute}', {len(log['events'])} events)"
            + (f"; log written to {out}" if out else "")
        )
