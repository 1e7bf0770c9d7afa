"""Smoke tests: the project boots, talks to its database and serves its OpenAPI schema."""

import pytest


@pytest.mark.django_db
def test_healthz_reports_ok(client):
    response = client.get("/healthz/")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_openapi_schema_is_served(client):
    response = client.get("/api/schema/")

    assert response.status_code == 200
    assert b"openapi" in response.content
