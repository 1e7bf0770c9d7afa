"""``POST /api/me/password/``: the current password, a valid new one; every other session
signed out, the calling one kept."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.services import token_issue, user_register
from tests.accounts.test_deletion import PASSWORD, assert_error
from tests.api.helpers import Player

pytestmark = pytest.mark.django_db

NEW = "another-long-phrase"


def change(client: APIClient, body: object):
    return client.post("/api/me/password/", body, format="json")


def test_the_password_changes_and_every_other_device_is_signed_out():
    user = user_register(username="dora", password=PASSWORD)
    phone, laptop, tablet = APIClient(), APIClient(), APIClient()
    for client, label in ((phone, "Phone"), (laptop, "Laptop"), (tablet, "Tablet")):
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=user, label=label)}")
        assert client.get("/api/me/").status_code == 200  # cached: the revocation must drop it
    token = phone._credentials["HTTP_AUTHORIZATION"].split()[1]
    response = change(phone, {"current_password": PASSWORD, "new_password": NEW})
    assert response.status_code == 200, response.content
    assert response.json()["token"] == token  # this device stays signed in
    for other in (laptop, tablet):
        assert_error(other.get("/api/me/"), 401, "authentication_failed")
    assert phone.get("/api/me/").status_code == 200
    assert [s["label"] for s in phone.get("/api/me/sessions/").json()["results"]] == ["Phone"]
    login = APIClient().post(
        "/api/auth/login/", {"username": "dora", "password": NEW}, format="json"
    )
    assert login.status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"current_password": "wrong-one", "new_password": NEW}, 400, "invalid_credentials"),
        ({"current_password": PASSWORD, "new_password": "123456789012"}, 400, "invalid"),
        ({"current_password": PASSWORD, "new_password": "short"}, 400, "invalid"),
        ({"current_password": PASSWORD}, 400, "invalid"),
        ({"current_password": PASSWORD, "new_password": NEW, "x": 1}, 400, "invalid"),
        ([], 400, "invalid"),
    ],
)
def test_bad_changes_are_refused_and_change_nothing(body, status, code):
    user = user_register(username="dora", password=PASSWORD)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_issue(user=user)}")
    response = change(client, body)
    assert_error(response, status, code)
    if code == "invalid" and isinstance(body, dict) and len(body) == 2:
        assert set(response.json()["error"]["fields"]) == {"new_password"}
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    assert client.get("/api/me/").status_code == 200


def test_a_guest_has_no_password_to_change():
    guest = Player()
    body = {"current_password": PASSWORD, "new_password": NEW}
    assert_error(change(guest.client, body), 409, "no_password")
    assert_error(change(APIClient(), body), 401, "not_authenticated")
