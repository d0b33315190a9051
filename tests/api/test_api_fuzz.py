"""The whole API fuzzed from its own OpenAPI schema: not one server error.

Every operation of the schema (87: reads, the results workflow, the staff actions, the setup
endpoints, the scorer, chances, ratings, the token exchange) is called with values generated from
its parameters and request body, and then mutated the way a broken or hostile client would: a
wrong type, a field left out or added, a number past any range, text holding a NUL or half a
surrogate pair, deep nesting, an id that exists elsewhere or nowhere, a body that is no JSON.
Each request goes as one of four callers: anonymous, a club member, staff without permissions,
a superuser. Writes run in a savepoint that is rolled back, so the data stays the same for the
next request (a superuser's delete would otherwise leave nothing to fuzz).

A stateful phase plays the live scorer: clubs start sessions, post the pending event, resend,
post stale or illegal events, undo, roll, finish and abandon, with other callers interleaved;
its state is kept from one request to the next.

Slow: `make test-slow` runs it; FUZZ_API_REQUESTS sets the count (default 100,000) and
FUZZ_API_SEED the sequence (two runs with other seeds can share the count between two cores).
The figures are printed and written to var/api-fuzz-<seed>.json.
"""

from __future__ import annotations

import collections
import json
import os
import random
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import Permission
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from matches.models import ResultSubmission
from scoring.models import ScoringSession
from tests.factories import AdminFactory
from tournaments.models import Club, Coach, Fixture, Group, Stage, Suspension, Team

pytestmark = [pytest.mark.slow, pytest.mark.django_db, pytest.mark.timeout(0)]

HUGE = 2**70
WEIRD_TEXT = ["", " ", "\x00", "\ud800", "a\udfffb", "x" * 5000, "🏆", "<script>", "-1", "1e400", "null"]
WEIRD_IDS = ["0", "-1", "999999999", str(HUGE), "abc", "1.5", "%00", "\u00e9"]
CALLERS = ("anonymous", "club", "staff", "superuser")


def _resolve(schema: dict[str, Any], node: Any) -> Any:
    if isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        return _resolve(schema, schema["components"]["schemas"][name])
    return node


def _value(schema: dict[str, Any], node: Any, rng: random.Random, depth: int = 0) -> Any:
    """A value the schema describes (mostly valid), sometimes off by one rule."""
    node = _resolve(schema, node) or {}
    if rng.random() < 0.08:
        return _wrong(rng, depth)
    for key in ("oneOf", "anyOf", "allOf"):
        if key in node:
            return _value(schema, rng.choice(node[key]), rng, depth)
    if "enum" in node:
        return rng.choice([*node["enum"], "not-a-choice"]) if rng.random() < 0.95 else None
    kind = node.get("type")
    if kind == "integer":
        low, high = node.get("minimum", 0), node.get("maximum", 20)
        return rng.choice([rng.randint(int(low), int(min(high, low + 20))), low - 1, high + 1, HUGE, 1])
    if kind == "number":
        return rng.choice([0.5, -1.0, 1e300, 3])
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        fmt = node.get("format")
        if fmt == "date-time":
            return rng.choice(["2026-06-01T12:00:00Z", "9999-12-31T23:59:59Z", "yesterday"])
        if fmt == "date":
            return rng.choice(["2026-06-01", "0000-00-00"])
        if fmt == "duration":
            return rng.choice(["1 00:00:00", "-1 00:00:00", "999999999 00:00:00"])
        return rng.choice(["Fuzz", "fuzz-cup", "home", "away", *WEIRD_TEXT])
    if kind == "array" or "items" in node:
        if depth > 3:
            return []
        return [_value(schema, node.get("items", {}), rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == "object" or "properties" in node:
        if depth > 3:
            return {}
        body = {
            name: _value(schema, prop, rng, depth + 1)
            for name, prop in node.get("properties", {}).items()
            if not prop.get("readOnly") and (name in node.get("required", []) or rng.random() < 0.6)
        }
        if body and rng.random() < 0.1:
            body.pop(rng.choice(list(body)))
        if rng.random() < 0.1:
            body[rng.choice(["extra", "\ud800", "", "id"])] = _wrong(rng, depth)
        return body
    return _wrong(rng, depth)


def _wrong(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(WEIRD_TEXT)
    if pick < 0.5:
        return rng.choice([None, True, -1, HUGE, 0.5, 1e308])
    if pick < 0.7 and depth < 3:
        return [_wrong(rng, depth + 1)]
    if pick < 0.8 and depth < 3:
        return {"a": _wrong(rng, depth + 1)}
    return rng.choice([[], {}, ""])


class World:
    """The ids and callers the requests use, read once from the light World Cup."""

    def __init__(self, cup: Any) -> None:
        staff = AdminFactory(username="fuzz-staff")
        boss = AdminFactory(username="fuzz-boss")
        boss.user_permissions.add(
            *Permission.objects.filter(content_type__app_label__in=["tournaments", "matches", "chances"])
        )
        self.users = {"club": cup.users["Brazil"], "staff": staff, "superuser": cup.admin, "boss": boss}
        self.ids = {
            "competitions": [cup.competition.slug],
            "fixtures": list(Fixture.objects.values_list("id", flat=True)[:200]),
            "stages": list(Stage.objects.values_list("id", flat=True)),
            "groups": list(Group.objects.values_list("id", flat=True)),
            "teams": list(Team.objects.values_list("id", flat=True)),
            "clubs": list(Club.objects.values_list("id", flat=True)),
            "coaches": list(Coach.objects.values_list("id", flat=True)),
            "suspensions": list(Suspension.objects.values_list("id", flat=True)) or [1],
            "submissions": list(ResultSubmission.objects.values_list("id", flat=True)) or [1],
        }

    def path_value(self, template: str, name: str, rng: random.Random) -> str:
        if rng.random() < 0.15:
            return rng.choice(WEIRD_IDS)
        if name == "slug":
            return rng.choice(self.ids["competitions"])
        part = template.removeprefix("/api/v1/").split("/")[0]
        pool = self.ids.get(part) or self.ids["fixtures"] + self.ids["teams"]
        return str(rng.choice(pool))

    def client(self, caller: str, rng: random.Random) -> APIClient:
        client = APIClient()
        if caller != "anonymous":
            # The superuser caller is the boss half of the time: staff holding the model permissions.
            user = self.users[caller]
            if caller == "superuser" and rng.random() < 0.5:
                user = self.users["boss"]
            client.force_authenticate(user)
        return client


def _operation_request(
    schema: dict[str, Any], world: World, template: str, method: str, rng: random.Random
) -> tuple[str, dict[str, Any], Any, str]:
    operation = schema["paths"][template][method]
    path = template
    query: dict[str, Any] = {}
    for param in operation.get("parameters", []):
        if param["in"] == "path":
            path = path.replace("{" + param["name"] + "}", world.path_value(template, param["name"], rng))
        elif param["in"] == "query" and rng.random() < 0.3:
            value = _value(schema, param.get("schema", {}), rng)
            query[param["name"]] = value if isinstance(value, str | int | float) else json.dumps(value)
    body: Any = None
    content_type = "application/json"
    if "requestBody" in operation:
        content = operation["requestBody"]["content"]
        body_schema = (content.get("application/json") or next(iter(content.values())))["schema"]
        body = json.dumps(_value(schema, body_schema, rng))
        pick = rng.random()
        if pick < 0.03:
            body = body[: rng.randrange(len(body) + 1)]  # truncated
        elif pick < 0.05:
            body = "[" * 3000 + "]" * 3000
        elif pick < 0.07:
            content_type = "application/x-www-form-urlencoded"
            body = "a=1&" + "b=%FF"
    return path, query, body, content_type


def _call(client: APIClient, method: str, path: str, query: dict[str, Any], body: Any, ctype: str) -> Any:
    if query:
        # Half a surrogate pair cannot be UTF-8: sent as the bytes a broken client would send.
        path += "?" + "&".join(
            f"{k}={quote(str(v), safe='', errors='surrogatepass')}" for k, v in query.items()
        )
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, data=body, content_type=ctype)


def _post(client: APIClient, url: str, body: Any) -> Any:
    # Encoded here: the test client's own renderer cannot write half a surrogate pair.
    return client.post(url, json.dumps(body), content_type="application/json")


def _scorer_step(world: World, state: dict[str, Any], rng: random.Random) -> tuple[str, Any]:
    """One request of the stateful scorer phase (kept, not rolled back)."""
    session_id = state.get("session")
    if session_id is None or rng.random() < 0.01:
        fixture, user = state["fixtures"][state["next"] % len(state["fixtures"])]
        state["next"] += 1
        state["client"] = APIClient()
        state["client"].force_authenticate(user)
        response = _post(state["client"], "/api/v1/scoring-sessions", {"fixture": fixture})
        if response.status_code == 201:
            state["session"] = response.json()["session"]
        return "scorer-start", response
    club = state["client"]
    url = f"/api/v1/scoring-sessions/{session_id}"
    caller = world.client(rng.choice(CALLERS), rng) if rng.random() < 0.1 else club
    current = club.get(url)
    if current.status_code != 200:
        state["session"] = None
        return "scorer-read", current
    data = current.json()
    pending, seq = data.get("pending"), data["seq"]
    pick = rng.random()
    if data["status"] != "live" or pending is None:
        action = rng.choice(["finish", "abandon"])
        state["session"] = None
        body = {"reason": "fuzz"} if action == "abandon" else {}
        return f"scorer-{action}", _post(caller, f"{url}/{action}", body)
    if pick < 0.65:
        if pending["kind"] == "roll":
            event: dict[str, Any] = {"roll_for_me": True}
        else:
            options = [o["value"] for o in pending.get("options") or []] or [pending.get("default")]
            event = {
                "event": {"decide": pending["name"], "by": pending["actor"], "choice": rng.choice(options)}
            }
        body = {
            "tap_id": f"t{state['ids']}",
            "after": data["head"],
            "after_seq": seq,
            "events": [{"client_id": f"f{state['ids']}", **event}],
        }
        state["ids"] += 1
        state["last"] = body
    elif pick < 0.72 and state.get("last"):
        body = state["last"]  # a resend
    elif pick < 0.8:
        return "scorer-undo", _post(
            caller,
            f"{url}/undo",
            {"after": rng.choice([data["head"], "x"]), "after_seq": rng.choice([seq, seq - 1, seq + 3])},
        )
    else:
        body = {
            "tap_id": rng.choice([f"x{rng.random()}", "", "y" * 100]),
            "after": rng.choice([data["head"], "z", "y" * 100]),
            "after_seq": rng.choice([seq, seq + 1, seq + 2, -1, HUGE]),
            "events": [{
                "client_id": rng.choice([f"x{rng.random()}", "", "y" * 100]),
                "event": _value({"components": {"schemas": {}}}, {"type": "object", "properties": {
                    "decide": {"type": "string"}, "roll": {"type": "string"}, "by": {"type": "string"},
                    "choice": {}, "dice": {"type": "array", "items": {"type": "integer"}}}}, rng),
            }] * rng.choice([1, 2, 65]),
        }  # fmt: skip
    return "scorer-event", _post(caller, f"{url}/events", body)


def test_the_whole_api_fuzzed_gives_no_server_error(cup, settings) -> None:
    total = int(os.environ.get("FUZZ_API_REQUESTS", "100000"))
    seed = int(os.environ.get("FUZZ_API_SEED", "26"))
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    rates.update({key: "100000000/second" for key in rates})
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.SCORER_SESSIONS_PER_DAY = 10**6
    settings.SCORER_EVENTS_PER_DAY = 10**9
    settings.LOGIN_LIMIT_ADDRESS = settings.LOGIN_LIMIT_USERNAME = "100000000/hour"
    rng = random.Random(seed)
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = [
        (t, m)
        for t, ops in schema["paths"].items()
        for m in ops
        if m in ("get", "post", "patch", "put", "delete")
    ]
    world = World(cup)
    scheduled = [
        (fixture.id, cup.users[fixture.home_team.name])
        for fixture in Fixture.objects.filter(status=Fixture.Status.SCHEDULED)
        .exclude(home_team__isnull=True)
        .exclude(away_team__isnull=True)
        .select_related("home_team")
        if fixture.home_team.name in cup.users
    ]
    assert scheduled, "the scorer phase needs scheduled fixtures"
    scorer = {"session": None, "fixtures": scheduled, "next": 0, "ids": 0, "user": None}
    statuses: collections.Counter[int] = collections.Counter()
    by_caller: collections.Counter[str] = collections.Counter()
    failures: list[str] = []
    out = Path(__file__).resolve().parents[2] / "var" / f"api-fuzz-{seed}.json"
    out.parent.mkdir(exist_ok=True)
    started = time.monotonic()

    def figures(done: int) -> dict[str, Any]:
        seconds = time.monotonic() - started
        return {
            "seed": seed,
            "requests": done,
            "of": total,
            "operations": len(operations),
            "seconds": round(seconds, 1),
            "per_second": round(done / max(seconds, 0.001), 1),
            "server_errors": sum(c for s, c in statuses.items() if s >= 500),
            "statuses": dict(sorted(statuses.items())),
            "callers": dict(sorted(by_caller.items())),
            "scorer_sessions": ScoringSession.objects.count(),
        }

    spent: collections.Counter[str] = collections.Counter()
    for n in range(total):
        tick = time.monotonic()
        if rng.random() < 0.15:
            kind, response = _scorer_step(world, scorer, rng)
            by_caller["scorer"] += 1
        else:
            template, method = rng.choice(operations)
            caller = rng.choice(CALLERS)
            by_caller[caller] += 1
            path, query, body, ctype = _operation_request(schema, world, template, method, rng)
            kind = f"{method.upper()} {template} as {caller}"
            with transaction.atomic():
                response = _call(world.client(caller, rng), method, path, query, body, ctype)
                transaction.set_rollback(True)
        spent[kind.split(" as ")[0] if " as " in kind else kind] += time.monotonic() - tick
        statuses[response.status_code] += 1
        if response.status_code >= 500 and len(failures) < 30:
            failures.append(f"#{n} {kind}: {response.status_code} {response.content[:300]!r}")
        if (n + 1) % 1000 == 0:
            out.write_text(json.dumps({**figures(n + 1), "failures": failures}, indent=2))
    final = {**figures(total), "failures": failures}
    out.write_text(json.dumps(final, indent=2))
    print(json.dumps(final))
    print("slowest operations (seconds in all):", spent.most_common(10))
    assert not failures, failures
