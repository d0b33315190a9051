"""``python manage.py validate_log FILE.json``: validate a fuba-log/1 match log.

Prints the derived result or the errors as JSON.  Exit status: 0 valid,
1 invalid, 2 unreadable (missing file, not UTF-8 or not JSON).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from matchplay.engine_door import validate_log


class Command(BaseCommand):
    help = "Validate a FUBA match log (fuba-log/1, rulebook 3) and print the result or the errors as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path of the JSON log ('-' for standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as fh:
                    raw = fh.read()
        except OSError as e:
            self.stdout.write(
                json.dumps(
                    {
                        "valid": False,
                        "unreadable": True,
                        "errors": [
                            {
                                "kind": "unreadable",
                                "reason": f"cannot read {path}: {e.strerror}",
                                "path": None,
                            }
                        ],
                    },
                    indent=2,
                )
            )
            raise SystemExit(2) from None
        report = validate_log(raw)
        out = report.to_dict()
        if report.unreadable:
            out["unreadable"] = True
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
        if report.unreadable:
            raise SystemExit(2)
        raise SystemExit(0 if report.valid else 1)
