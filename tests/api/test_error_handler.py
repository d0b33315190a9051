"""kernel.api_errors: every API error has the body {"error": {"code", "message", "details"}}."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions

from kernel.api_errors import exception_handler
from kernel.errors import ApplicationError, Conflict, NotFound


def handle(exc: Exception) -> tuple[int, dict]:
    response = exception_handler(exc, {"view": None})
    assert response is not None
    assert set(response.data) == {"error"}
    assert set(response.data["error"]) == {"code", "message", "details"}
    return response.status_code, response.data["error"]


def test_application_error_keeps_status_code_and_details() -> None:
    status, error = handle(
        ApplicationError(
            "The turn log is invalid.",
            code="invalid_turn_log",
            details={"errors": [{"turn": 14, "stage": 1, "rule": "5.1", "reason": "offside"}]},
        )
    )
    assert status == 400
    assert error["code"] == "invalid_turn_log"
    assert error["details"]["errors"][0] == {"turn": 14, "stage": 1, "rule": "5.1", "reason": "offside"}


def test_application_error_subclasses() -> None:
    assert handle(Conflict("already confirmed"))[0] == 409
    status, error = handle(NotFound("no such fixture"))
    assert (status, error["code"], error["message"]) == (404, "not_found", "no such fixture")


def test_field_validation_error_names_the_field() -> None:
    status, error = handle(exceptions.ValidationError({"home_goals": ["A valid integer is required."]}))
    assert status == 400
    assert error["code"] == "validation_error"
    assert error["message"] == "home_goals: A valid integer is required."
    assert error["details"] == {"home_goals": ["A valid integer is required."]}


def test_nested_validation_error_gives_the_path() -> None:
    _, error = handle(exceptions.ValidationError({"cards": [{}, {"kind": ["Not a valid choice."]}]}))
    assert error["message"] == "cards[1].kind: Not a valid choice."


def test_non_field_validation_error() -> None:
    _, error = handle(exceptions.ValidationError("Penalties need both scores."))
    assert error["message"] == "Penalties need both scores."
    assert error["details"] == {"non_field_errors": ["Penalties need both scores."]}


def test_django_errors_are_mapped() -> None:
    assert handle(Http404())[0] == 404
    assert handle(DjangoPermissionDenied())[0] == 403
    status, error = handle(DjangoValidationError({"kickoff": ["Bad date."]}))
    assert status == 400 and error["details"] == {"kickoff": ["Bad date."]}


def test_auth_and_throttle_errors() -> None:
    status, error = handle(exceptions.NotAuthenticated())
    assert (status, error["code"]) == (401, "not_authenticated")
    status, error = handle(exceptions.Throttled(wait=12))
    assert (status, error["code"], error["details"]) == (429, "throttled", {"retry_after_seconds": 12})


def test_unexpected_error_is_a_500_in_the_same_shape() -> None:
    status, error = handle(RuntimeError("boom"))
    assert status == 500 and error["code"] == "server_error"
    assert "boom" not in error["message"]


@pytest.mark.django_db
def test_an_unknown_api_url_answers_the_json_error_body(client) -> None:
    response = client.get("/api/v1/no-such-thing")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "not_found"
    page = client.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
