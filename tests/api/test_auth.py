"""Accounts over REST: /api/auth/* and /api/me/."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts.models import User
from accounts.services import guest_create, token_issue, user_register

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "correct-horse-battery-9"
USER_KEYS = {"id", "username", "display_name", "is_guest", "date_joined"}


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]


def register(client: APIClient, username: str = "alice", password: str = GOOD_PASSWORD, **extra):
    return client.post(
        "/api/auth/register/", {"username": username, "password": password, **extra}, format="json"
    )


# --- Guests ----------------------------------------------------------------------------------


def test_guest_creation_returns_token_and_user(api_client):
    response = api_client.post("/api/auth/guest/", {}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "user"}
    assert set(body["user"]) == USER_KEYS
    assert body["user"]["is_guest"] is True
    assert body["user"]["username"].startswith("guest-")
    assert len(body["user"]["username"]) == len("guest-") + 10
    assert body["user"]["display_name"].startswith("Guest ")
    user = User.objects.get(pk=body["user"]["id"])
    assert not user.has_usable_password()


def test_guest_creation_with_empty_body_and_display_name(api_client):
    assert api_client.post("/api/auth/guest/").status_code == 201  # no body at all
    response = api_client.post("/api/auth/guest/", {"display_name": "  Ada  "}, format="json")
    assert response.status_code == 201
    assert response.json()["user"]["display_name"] == "Ada"


@pytest.mark.parametrize("keyword", ["Bearer", "Token"])
def test_guest_token_works_with_both_keywords(api_client, auth_client, keyword):
    body = api_client.post("/api/auth/guest/", format="json").json()
    response = auth_client(body["token"], keyword=keyword).get("/api/me/")
    assert response.status_code == 200
    assert response.json() == body["user"]


def test_guest_fixture_and_me(guest, auth_client):
    user, token = guest
    body = auth_client(token).get("/api/me/").json()
    assert body["id"] == user.id and body["is_guest"] is True
    assert set(body) == USER_KEYS


def test_guest_display_name_too_long_is_400(api_client):
    response = api_client.post("/api/auth/guest/", {"display_name": "x" * 41}, format="json")
    assert_error(response, 400, "invalid")


@pytest.mark.parametrize("name", ["Deleted player 7f3a", "  deleted   PLAYER", "DELETED PLAYER x"])
def test_a_deleted_accounts_label_cannot_be_chosen_as_a_name(api_client, name):
    from accounts.models import User

    users = User.objects.count()
    response = api_client.post("/api/auth/guest/", {"display_name": name}, format="json")
    assert_error(response, 400, "invalid")
    assert "reserved" in str(response.json())
    assert User.objects.count() == users  # nothing created
    response = api_client.post(
        "/api/auth/register/",
        {"username": "mallory", "password": GOOD_PASSWORD, "display_name": name},
        format="json",
    )
    assert_error(response, 400, "invalid")
    assert not User.objects.filter(username="mallory").exists()
    ok = api_client.post("/api/auth/guest/", {"display_name": "Deleted playerless"}, format="json")
    assert ok.status_code == 400  # the prefix itself is what is reserved
    fine = api_client.post("/api/auth/guest/", {"display_name": "Player deleted"}, format="json")
    assert fine.status_code == 201


# --- Me and authentication -------------------------------------------------------------------


def test_me_anonymous_is_401(api_client):
    response = api_client.get("/api/me/")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Bearer"


def test_me_with_a_bad_token_is_401(auth_client):
    assert_error(auth_client("nope").get("/api/me/"), 401, "authentication_failed")


def test_a_stale_token_does_not_block_login_or_guest_creation(auth_client):
    user_register(username="alice", password=GOOD_PASSWORD)
    client = auth_client("stale-token")
    assert client.post("/api/auth/guest/", format="json").status_code == 201
    response = client.post(
        "/api/auth/login/", {"username": "alice", "password": GOOD_PASSWORD}, format="json"
    )
    assert response.status_code == 200


# --- Register, login, logout -----------------------------------------------------------------


def test_register_login_logout(api_client, auth_client):
    response = register(api_client, display_name="Alice A.")
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["username"] == "alice"
    assert body["user"]["display_name"] == "Alice A."
    assert body["user"]["is_guest"] is False
    assert "password" not in body["user"]

    login = api_client.post(
        "/api/auth/login/", {"username": "alice", "password": GOOD_PASSWORD}, format="json"
    )
    assert login.status_code == 200
    token = login.json()["token"]
    assert token != body["token"]  # every sign-in is a session of its own
    assert login.json()["user"]["id"] == body["user"]["id"]

    client = auth_client(token)
    assert client.get("/api/me/").status_code == 200
    assert client.post("/api/auth/logout/").status_code == 204
    assert_error(client.get("/api/me/"), 401)
    assert_error(client.post("/api/auth/logout/"), 401)
    assert auth_client(body["token"]).get("/api/me/").status_code == 200  # the other session

    again = api_client.post(
        "/api/auth/login/", {"username": "alice", "password": GOOD_PASSWORD}, format="json"
    )
    assert again.status_code == 200
    assert again.json()["token"] != token  # a fresh token after logout


def test_login_is_case_insensitive_on_username(api_client):
    register(api_client, username="Alice")
    response = api_client.post(
        "/api/auth/login/", {"username": "aLiCe", "password": GOOD_PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["user"]["username"] == "Alice"


def test_wrong_credentials_same_message_whether_or_not_user_exists(api_client):
    register(api_client)
    wrong_password = api_client.post(
        "/api/auth/login/", {"username": "alice", "password": "wrong-password-1"}, format="json"
    )
    no_such_user = api_client.post(
        "/api/auth/login/", {"username": "bob", "password": "wrong-password-1"}, format="json"
    )
    first = assert_error(wrong_password, 400, "invalid_credentials")
    second = assert_error(no_such_user, 400, "invalid_credentials")
    assert first == second


def test_guest_cannot_log_in_with_a_password(api_client):
    user, _ = guest_create()
    response = api_client.post(
        "/api/auth/login/", {"username": user.username, "password": ""}, format="json"
    )
    assert_error(response, 400)
    response = api_client.post(
        "/api/auth/login/", {"username": user.username, "password": "anything-1"}, format="json"
    )
    assert_error(response, 400, "invalid_credentials")


def test_inactive_user_cannot_log_in(api_client):
    user = user_register(username="alice", password=GOOD_PASSWORD)
    user.is_active = False
    user.save()
    response = api_client.post(
        "/api/auth/login/", {"username": "alice", "password": GOOD_PASSWORD}, format="json"
    )
    assert_error(response, 400, "invalid_credentials")


@pytest.mark.parametrize("variant", ["alice", "ALICE", "Alice"])
def test_duplicate_usernames_refused_case_insensitively(api_client, variant):
    assert register(api_client, username="alice").status_code == 201
    assert_error(register(api_client, username=variant), 409, "username_taken")
    assert User.objects.filter(username__iexact="alice").count() == 1


@pytest.mark.parametrize(
    ("username", "password", "fragment"),
    [
        ("alice", "short1", "too short"),
        ("alice", "password123", "too common"),
        ("alice", "8403918275", "entirely numeric"),
        ("alicebrown", "alicebrown1", "too similar to the username"),
    ],
)
def test_weak_passwords_refused_with_validator_messages(api_client, username, password, fragment):
    error = assert_error(register(api_client, username, password), 400, "invalid")
    messages = error["fields"]["password"]
    assert any(fragment in message for message in messages), messages
    assert fragment in error["message"]
    assert not User.objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["ab", "has space", "x" * 31, "-dash", "guest-abc", "ünï"])
def test_bad_usernames_refused(api_client, username):
    assert_error(register(api_client, username=username), 400, "invalid")


def test_missing_fields_are_400_with_field_errors(api_client):
    error = assert_error(api_client.post("/api/auth/register/", {}, format="json"), 400, "invalid")
    assert set(error["fields"]) == {"username", "password"}


# --- Upgrade ---------------------------------------------------------------------------------


def test_upgrade_keeps_the_same_user_and_token(guest, auth_client, api_client):
    user, token = guest
    client = auth_client(token)
    response = client.post(
        "/api/auth/upgrade/", {"username": "ada", "password": GOOD_PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["token"] == token
    assert body["user"]["id"] == user.id
    assert body["user"]["username"] == "ada"
    assert body["user"]["is_guest"] is False
    assert body["user"]["display_name"] == user.display_name  # kept when omitted
    assert client.get("/api/me/").json() == body["user"]

    login = api_client.post(
        "/api/auth/login/", {"username": "ada", "password": GOOD_PASSWORD}, format="json"
    )
    assert login.status_code == 200
    assert login.json()["user"]["id"] == user.id


def test_upgrade_can_set_display_name(guest, auth_client):
    _, token = guest
    response = auth_client(token).post(
        "/api/auth/upgrade/",
        {"username": "ada", "password": GOOD_PASSWORD, "display_name": "Ada L."},
        format="json",
    )
    assert response.json()["user"]["display_name"] == "Ada L."


def test_upgrade_refused_for_non_guests(api_client, auth_client):
    token = register(api_client).json()["token"]
    response = auth_client(token).post(
        "/api/auth/upgrade/", {"username": "alice2", "password": GOOD_PASSWORD}, format="json"
    )
    assert_error(response, 409, "not_a_guest")


def test_upgrade_twice_is_refused_the_second_time(guest, auth_client):
    _, token = guest
    client = auth_client(token)
    data = {"username": "ada", "password": GOOD_PASSWORD}
    assert client.post("/api/auth/upgrade/", data, format="json").status_code == 200
    assert_error(client.post("/api/auth/upgrade/", data, format="json"), 409, "not_a_guest")


def test_upgrade_refuses_taken_username_and_weak_password(guest, auth_client):
    user_register(username="Ada", password=GOOD_PASSWORD)
    user, token = guest
    client = auth_client(token)
    taken = client.post(
        "/api/auth/upgrade/", {"username": "ada", "password": GOOD_PASSWORD}, format="json"
    )
    assert_error(taken, 409, "username_taken")
    weak = client.post("/api/auth/upgrade/", {"username": "ada2", "password": "1"}, format="json")
    assert_error(weak, 400, "invalid")
    user.refresh_from_db()
    assert user.is_guest and user.username.startswith("guest-")  # nothing changed


def test_upgrade_anonymous_is_401(api_client):
    response = api_client.post(
        "/api/auth/upgrade/", {"username": "ada", "password": GOOD_PASSWORD}, format="json"
    )
    assert_error(response, 401, "not_authenticated")


# --- Malformed and oversized bodies ----------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/auth/guest/", "/api/auth/register/", "/api/auth/login/"])
def test_malformed_json_is_400(api_client, path):
    response = api_client.post(path, data=b'{"username": "x",', content_type="application/json")
    assert_error(response, 400, "malformed_request")


@pytest.mark.parametrize("payload", [[], "text", 42, None])
def test_non_object_json_is_400(api_client, payload):
    response = api_client.post(
        "/api/auth/register/", data=json.dumps(payload), content_type="application/json"
    )
    assert_error(response, 400)


@pytest.mark.parametrize("path", ["/api/auth/guest/", "/api/auth/register/", "/api/auth/login/"])
def test_huge_body_is_413(api_client, path):
    body = json.dumps({"username": "alice", "password": "x" * 200_000})
    response = api_client.post(path, data=body, content_type="application/json")
    assert_error(response, 413, "payload_too_large")


def test_long_password_below_body_limit_is_400_not_slow(api_client):
    error = assert_error(register(api_client, password="p" * 5000), 400, "invalid")
    assert "password" in error["fields"]


# --- Throttling ------------------------------------------------------------------------------


def test_settings_define_every_scope_used():
    rates = ScopedRateThrottle.THROTTLE_RATES
    assert {"guest", "register", "login"} <= set(rates)


@pytest.mark.parametrize(
    ("scope", "path", "data"),
    [
        ("guest", "/api/auth/guest/", {}),
        ("login", "/api/auth/login/", {"username": "nobody", "password": "whatever-1"}),
        ("register", "/api/auth/register/", {"username": "x", "password": "y"}),
    ],
)
def test_throttled_requests_get_429_with_retry_after(api_client, monkeypatch, scope, path, data):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {scope: "2/hour"})
    for _ in range(2):
        assert api_client.post(path, data, format="json").status_code != 429
    response = api_client.post(path, data, format="json")
    error = assert_error(response, 429, "throttled")
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 3600
    assert error["retry_after"] == retry_after


def test_throttle_is_per_client_ip(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"guest": "1/hour"})
    first, second = APIClient(REMOTE_ADDR="10.0.0.1"), APIClient(REMOTE_ADDR="10.0.0.2")
    assert first.post("/api/auth/guest/").status_code == 201
    assert first.post("/api/auth/guest/").status_code == 429
    assert second.post("/api/auth/guest/").status_code == 201


# --- Services directly -----------------------------------------------------------------------


def test_every_token_issued_is_a_session_of_its_own():
    user, token = guest_create()
    other = token_issue(user=user)
    assert other != token
    assert user.sessions.count() == 2


def test_openapi_schema_documents_the_auth_endpoints(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ["guest", "register", "login", "upgrade", "logout"]:
        assert f"/api/auth/{path}/" in paths
    assert "/api/me/" in paths
    schemes = response.json()["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {"type": "http", "scheme": "bearer"}


def test_form_encoded_body_is_415_not_500(api_client):
    response = api_client.post("/api/auth/register/", {"username": "alice", "password": "x"})
    assert_error(response, 415, "unsupported_media_type")


def test_database_refuses_case_variants_even_past_the_service_check():
    """The race the service's pre-check cannot see: the unique index on lower(username)."""
    from accounts.services import _save_new
    from kernel.errors import Conflict

    User.objects.create(username="alice")
    with pytest.raises(Conflict) as caught:
        _save_new(User(username="ALICE"))
    assert caught.value.code == "username_taken"
    assert User.objects.count() == 1  # and the outer transaction is still usable


def test_admin_pages_render(client):
    admin = User.objects.create_superuser("root", password=GOOD_PASSWORD)
    user, _ = guest_create()
    client.force_login(admin)
    for url in ["/admin/accounts/user/", "/admin/accounts/user/add/"]:
        assert client.get(url).status_code == 200
    page = client.get(f"/admin/accounts/user/{user.pk}/change/")
    assert page.status_code == 200 and b"display_name" in page.content
