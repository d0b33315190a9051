"""100,000 mutated requests to /api/v1/turn-logs/validate: not one server error.

The whole stack answers each request (middleware, authentication, the JSON parser, the
serializer, the rules engine, the error handler), in-process through Django's test client.
The requests are what a broken or hostile client sends: a real log with one to three values
changed (inside choices too, and into the same value of another JSON type), dice and checks
changed, header fields replaced, strings and keys holding half a surrogate pair (text that
cannot be encoded as UTF-8), and bodies that are no log at all (truncated JSON, another
content type, deep nesting, a bare value). Slow: run with `make test-slow` or
`pytest -m slow tests/api/test_validation_fuzz_load.py`; FUZZ_REQUESTS sets the count and
FUZZ_SEED the random sequence (two runs with other seeds can share the 100,000 between two cores).
The figures are printed and written to var/validation-fuzz-<seed>.json.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.engine.test_validator_fuzz import EXAMPLE, LOGS, choice_parts, confusions, set_part
from tests.factories import UserFactory

# No per-test time limit: on a busy machine 100,000 requests take hours.
pytestmark = [pytest.mark.slow, pytest.mark.django_db, pytest.mark.timeout(0)]

URL = "/api/v1/turn-logs/validate"
SCALARS: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    1.0,
    2.5,
    2**64,
    "",
    "home",
    "away",
    "H-PEN",
    "done",
    "x" * 50,
    # Half a surrogate pair, as a JSON escape: text that cannot be encoded as UTF-8.
    "\ud800",
    "home\udfff",
]
EVENT_KEYS = ("choice", "by", "decide", "roll", "dice", "check", "note")
HEADER_KEYS = ("format", "ruleset", "advanced_rules", "teams", "events", "meta")


def _any_value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.random()
    if depth > 2 or pick < 0.6:
        return rng.choice(SCALARS)
    if pick < 0.8:
        return [_any_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {
        rng.choice(["gk", "players", "a", "", "\udc00"]): _any_value(rng, depth + 1)
        for _ in range(rng.randint(0, 3))
    }


def _mutated_log(rng: random.Random, bases: list[str]) -> dict[str, Any]:
    doc = json.loads(rng.choice(bases))  # a fresh copy, faster than deepcopy
    events = doc["events"]
    for _ in range(rng.randint(1, 3)):
        where = rng.random()
        i = rng.randrange(len(events))
        ev = events[i]
        if not isinstance(ev, dict):
            continue
        if where < 0.45 and "decide" in ev:
            parts = choice_parts(ev.get("choice"))
            if parts:
                path, value = rng.choice(parts)
                wrong = rng.choice(confusions(value)) if rng.random() < 0.7 else _any_value(rng)
                with contextlib.suppress(KeyError, IndexError, TypeError):
                    set_part(ev, path, wrong)
        elif where < 0.6 and isinstance(ev.get("dice"), list) and ev["dice"]:
            ev["dice"][rng.randrange(len(ev["dice"]))] = rng.choice([0, 7, 1.0, "3", None, True, 6, 1])
        elif where < 0.8:
            ev[rng.choice(EVENT_KEYS)] = _any_value(rng)
        elif where < 0.9:
            del events[i]
        elif where < 0.95:
            teams = doc.get("teams")  # an earlier change may have replaced them
            team = teams.get(rng.choice(["home", "away"])) if isinstance(teams, dict) else None
            if isinstance(team, dict):
                team[rng.choice(["formation", "skills", "roles", "players_short", "name"])] = _any_value(rng)
        else:
            doc[rng.choice(HEADER_KEYS)] = _any_value(rng)
    return doc


def _request(rng: random.Random, bases: list[str]) -> tuple[str, bytes | str, str]:
    """(kind, body, content type) of one fuzzed request."""
    pick = rng.random()
    if pick < 0.8:
        return "log", json.dumps({"turn_log": _mutated_log(rng, bases)}), "application/json"
    if pick < 0.85:
        body = '{"turn_log": ' + rng.choice(bases) + "}"
        return "truncated", body[: rng.randrange(len(body))], "application/json"
    if pick < 0.9:
        return (
            "envelope",
            json.dumps({rng.choice(["turn_log", "log", ""]): _any_value(rng)}),
            "application/json",
        )
    if pick < 0.93:
        depth = rng.choice([10, 100, 1000, 5000])
        return "nested", '{"turn_log": ' + "[" * depth + "]" * depth + "}", "application/json"
    if pick < 0.96:
        return "bare", json.dumps(_any_value(rng)), "application/json"
    if pick < 0.98:
        return "form", "turn_log=" + rng.choice(bases)[:200], "application/x-www-form-urlencoded"
    return "bytes", bytes(rng.randrange(256) for _ in range(rng.randint(0, 64))), "application/json"


def test_100k_mutated_validation_requests_give_no_server_error(settings: Any) -> None:
    total = int(os.environ.get("FUZZ_REQUESTS", "100000"))
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    rates.update({"user": "100000000/second", "turn_log_validation": "100000000/second"})
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    # Signed in once (the endpoint needs a user); token authentication per request would add a
    # database round trip to each of the 100,000 and test nothing about the validation.
    client = APIClient()
    client.force_authenticate(UserFactory())
    seed = int(os.environ.get("FUZZ_SEED", "14"))
    rng = random.Random(seed)
    bases = [json.dumps(log) for log in (EXAMPLE, *LOGS)]
    statuses: collections.Counter[int] = collections.Counter()
    kinds: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    started = time.monotonic()
    out = Path(__file__).resolve().parents[2] / "var" / f"validation-fuzz-{seed}.json"
    out.parent.mkdir(exist_ok=True)

    def figures(done: int) -> dict[str, Any]:
        seconds = time.monotonic() - started
        return {
            "seed": seed,
            "requests": done,
            "of": total,
            "seconds": round(seconds, 1),
            "per_second": round(done / seconds, 1),
            "server_errors": sum(c for s, c in statuses.items() if s >= 500),
            "statuses": dict(sorted(statuses.items())),
            "kinds": dict(sorted(kinds.items())),
        }

    for n in range(total):
        kind, body, content_type = _request(rng, bases)
        kinds[kind] += 1
        response = client.post(URL, data=body, content_type=content_type)
        statuses[response.status_code] += 1
        if response.status_code >= 500 and len(failures) < 20:
            failures.append(f"#{n} {kind}: {response.status_code} {response.content[:300]!r}")
        if response.status_code < 500 and response.status_code != 200:
            assert response.json()["error"]["message"], response.content[:300]
        if (n + 1) % 1000 == 0:
            out.write_text(json.dumps(figures(n + 1), indent=2))  # progress, readable meanwhile
    final = figures(total)
    out.write_text(json.dumps(final, indent=2))
    print(json.dumps(final))
    assert not failures, failures
    assert final["server_errors"] == 0
