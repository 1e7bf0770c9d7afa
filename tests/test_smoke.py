"""Smoke tests: the project boots, talks to its database and serves its OpenAPI schema."""

import pytest


@pytest.mark.django_db
def test_healthz_reports_ok(client):
    response = client.get("/healthz/")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"  # readiness: the database (and Redis) checked


def test_openapi_schema_is_served(client):
    response = client.get("/api/schema/")

    assert response.status_code == 200
    assert b"openapi" in response.content


def test_openapi_schema_validates_without_warnings(tmp_path):
    from django.core.management import call_command

    out = tmp_path / "schema.yaml"
    call_command(
        "spectacular",
        "--urlconf",
        "api.rest.schema_urls",
        "--validate",
        "--fail-on-warn",
        "--file",
        str(out),
    )
    text = out.read_text()
    for path in (
        "/api/matches/{match_id}/actions/",
        "/api/matches/{match_id}/events/",
        "/api/me/turns/",
    ):
        assert path in text
