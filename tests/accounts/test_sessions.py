"""Named sessions (``/api/me/sessions/``): every sign-in is a session of its own, named by its
device, listed with when it was made and last used and where from; one can be signed out from
another at once; logout signs out only the calling one; the database keeps no token; looking a
token up writes nothing on every request."""

from __future__ import annotations

import importlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import sessions
from accounts.models import Session
from accounts.services import guest_create, token_issue, user_register
from tests.accounts.test_deletion import PASSWORD, assert_error
from tests.graphql.helpers import GqlPlayer

pytestmark = pytest.mark.django_db


def signed_in(token: str, **extra: str) -> APIClient:
    client = APIClient(**extra)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def login(device: str | None = None, **extra: str) -> str:
    body = {"username": "nora", "password": PASSWORD}
    if device is not None:
        body["device"] = device
    response = APIClient(**extra).post("/api/auth/login/", body, format="json")
    assert response.status_code == 200, response.content
    return str(response.json()["token"])


def listed(client: APIClient) -> list[dict]:
    response = client.get("/api/me/sessions/")
    assert response.status_code == 200, response.content
    return list(response.json()["results"])


@pytest.fixture
def nora():
    return user_register(username="nora", password=PASSWORD)


def test_each_sign_in_is_a_named_session_listed_with_its_device_and_address(nora):
    phone = login("Pixel 8", REMOTE_ADDR="203.0.113.7")
    laptop = login(HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0")
    rows = listed(signed_in(laptop))
    assert [r["label"] for r in rows] == [
        "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
        "Pixel 8",
    ]  # the most recently used first
    assert [r["current"] for r in rows] == [True, False]
    assert rows[1]["client_address"] == "203.0.113.7"
    assert set(rows[0]) == {"id", "label", "created", "last_used", "client_address", "current"}
    rows = listed(signed_in(phone))  # used again, from elsewhere: now the most recent
    assert [(r["label"], r["current"]) for r in rows] == [
        ("Pixel 8", True),
        ("Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0", False),
    ]
    assert rows[0]["client_address"] == "127.0.0.1"
    _user, guest = guest_create()
    assert [r["label"] for r in listed(signed_in(guest))] == [sessions.UNNAMED]


def test_the_database_keeps_no_token_only_its_digest(nora):
    token = login("Pixel 8")
    row = Session.objects.get(user=nora)
    assert token not in {row.digest, row.label, str(row.pk)}
    assert row.digest == sessions.digest_of(token)


def test_a_session_signed_out_from_another_device_stops_working_at_once(nora):
    phone, laptop = signed_in(login("Phone")), signed_in(login("Laptop"))
    assert phone.get("/api/me/").status_code == 200  # now cached: the revocation must drop it
    phone_id = next(r["id"] for r in listed(laptop) if r["label"] == "Phone")
    assert laptop.delete(f"/api/me/sessions/{phone_id}/").status_code == 204
    assert_error(phone.get("/api/me/"), 401, "authentication_failed")
    assert_error(laptop.delete(f"/api/me/sessions/{phone_id}/"), 404, "not_found")
    assert [r["label"] for r in listed(laptop)] == ["Laptop"]


def test_another_players_session_or_a_malformed_id_is_not_found_and_changes_nothing(nora):
    mine = signed_in(login("Phone"))
    stranger_user, stranger = guest_create()
    theirs = str(Session.objects.get(user=stranger_user).pk)
    for bad in (theirs, "not-a-uuid", "0" * 32):
        assert_error(mine.delete(f"/api/me/sessions/{bad}/"), 404, "not_found")
    assert_error(mine.delete("/api/me/sessions/%00/"), 400, "invalid")
    assert signed_in(stranger).get("/api/me/").status_code == 200
    assert_error(APIClient().get("/api/me/sessions/"), 401, "not_authenticated")
    assert_error(APIClient().delete(f"/api/me/sessions/{theirs}/"), 401, "not_authenticated")


def test_logout_signs_out_the_calling_session_only(nora):
    phone, laptop = signed_in(login("Phone")), signed_in(login("Laptop"))
    assert phone.post("/api/auth/logout/").status_code == 204
    assert_error(phone.get("/api/me/"), 401, "authentication_failed")
    assert [r["label"] for r in listed(laptop)] == ["Laptop"]
    mine = next(r["id"] for r in listed(laptop))
    assert laptop.delete(f"/api/me/sessions/{mine}/").status_code == 204  # signing itself out
    assert_error(laptop.get("/api/me/"), 401, "authentication_failed")


def test_a_request_writes_nothing_and_last_used_is_refreshed_at_most_every_few_minutes(nora):
    token = login("Phone")
    client = signed_in(token, REMOTE_ADDR="198.51.100.4")

    def writes() -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/me/").status_code == 200
        return [q["sql"] for q in queries if "accounts_session" in q["sql"]]

    writes()  # the first lookup: the address is new
    assert Session.objects.get(user=nora).client_address == "198.51.100.4"
    assert all(writes() == [] for _ in range(5))  # cached: not even a read
    cache.clear()
    found = writes()  # looked up again, used moments ago: read, not written
    assert len(found) == 1 and found[0].lstrip().upper().startswith("SELECT")
    stale = timezone.now() - timedelta(seconds=sessions.LAST_USED_EVERY + 5)
    Session.objects.filter(user=nora).update(last_used=stale)
    cache.clear()
    found = writes()
    assert [q.lstrip().split()[0].upper() for q in found] == ["SELECT", "UPDATE"]
    assert Session.objects.get(user=nora).last_used > stale


def test_the_client_address_is_the_one_the_trusted_proxy_reports(nora, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    login("Phone", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.1, 198.51.100.9")
    assert Session.objects.get(user=nora).client_address == "198.51.100.9"


def test_a_device_name_that_is_not_a_plain_short_string_is_refused(nora):
    for device in ("", "x" * 101, "tab\tbed", 7):
        response = APIClient().post(
            "/api/auth/login/",
            {"username": "nora", "password": PASSWORD, "device": device},
            format="json",
        )
        assert_error(response, 400, "invalid")
        assert set(response.json()["error"]["fields"]) == {"device"}
    assert not Session.objects.exists()


def test_graphql_lists_and_signs_out_sessions_as_rest_does(nora):
    phone = GqlPlayer(token=token_issue(user=nora, label="Phone"))
    laptop = GqlPlayer(token=token_issue(user=nora, label="Laptop"))
    query = "{ sessions { id label current lastUsed clientAddress } }"
    rows = laptop.data(query)["sessions"]
    assert {r["label"]: r["current"] for r in rows} == {"Phone": False, "Laptop": True}
    assert rows == [
        {
            "id": r["id"],
            "label": r["label"],
            "current": r["current"],
            "lastUsed": r["last_used"],
            "clientAddress": r["client_address"],
        }
        for r in listed(signed_in(str(laptop.token)))
    ]
    phone_id = next(r["id"] for r in rows if r["label"] == "Phone")
    revoke = "mutation($id: ID!) { revokeSession(id: $id) }"
    assert laptop.data(revoke, id=phone_id) == {"revokeSession": True}
    assert phone.error("{ me { id } }")["extensions"]["code"] == "authentication_failed"
    assert laptop.error(revoke, id=phone_id)["extensions"]["code"] == "not_found"
    assert laptop.data("mutation { logout }") == {"logout": True}
    assert laptop.error("{ me { id } }")["extensions"]["code"] == "authentication_failed"


def test_tokens_made_before_sessions_keep_working_and_leave_no_clear_copy(nora):
    """The migration: each DRF ``authtoken`` token becomes a session; the old table goes."""
    migration = importlib.import_module("accounts.migrations.0004_session")
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id bigint NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created datetime NOT NULL, user_id bigint NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [key, timezone.now() - timedelta(days=3), nora.pk],
        )
    from django.apps import apps

    migration.from_tokens(apps, SimpleNamespace(connection=connection))
    assert "authtoken_token" not in connection.introspection.table_names()
    assert signed_in(key).get("/api/me/").json()["username"] == "nora"
    (row,) = listed(signed_in(key))
    assert row["current"] and row["label"] == "Signed in before sessions"
