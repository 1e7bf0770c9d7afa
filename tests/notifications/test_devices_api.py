"""Registering phones for mobile push (``/api/me/devices/`` and GraphQL ``devices``,
``registerDevice``, ``deleteDevice``): the same token again updates it, a token registered by
another account moves, ids not yours are 404, bad input is 400 and changes nothing."""

from __future__ import annotations

import pytest

from notifications.models import Device
from tests.graphql.helpers import GqlPlayer

from .test_inbox_api import client_of

pytestmark = pytest.mark.django_db

URL = "/api/me/devices/"
FCM = "fcm-token:AbC_d-1"
APNS = "0f" * 32


def test_register_update_list_and_delete():
    a = GqlPlayer("A")
    client = client_of(a.user)
    made = client.post(URL, {"platform": "fcm", "token": FCM, "label": "Pixel"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["platform"] == "fcm" and body["token"] == FCM and body["label"] == "Pixel"
    again = client.post(URL, {"platform": "fcm", "token": FCM, "label": "Pixel 8"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert client.post(URL, {"platform": "apns", "token": APNS}, format="json").status_code == 201
    listed = client.get(URL).json()["results"]
    assert [(d["platform"], d["label"]) for d in listed] == [("fcm", "Pixel 8"), ("apns", "")]
    assert client.delete(f"{URL}{body['id']}/").status_code == 204
    gone = client.delete(f"{URL}{body['id']}/")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"
    assert [d["platform"] for d in client.get(URL).json()["results"]] == ["apns"]


def test_a_token_registered_by_another_account_moves_to_it():
    a, b = GqlPlayer("A"), GqlPlayer("B")
    first = client_of(a.user).post(URL, {"platform": "fcm", "token": FCM}, format="json").json()
    moved = client_of(b.user).post(URL, {"platform": "fcm", "token": FCM}, format="json")
    assert moved.status_code == 201 and moved.json()["id"] == first["id"]
    assert client_of(a.user).get(URL).json()["results"] == []
    assert Device.objects.get(token=FCM).user_id == b.user.pk
    refused = client_of(a.user).delete(f"{URL}{first['id']}/")  # not A's any more
    assert refused.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"platform": "fcm"},
        {"token": FCM},
        {"platform": "gcm", "token": FCM},
        {"platform": "fcm", "token": ""},
        {"platform": "fcm", "token": "has space"},
        {"platform": "fcm", "token": "a/b"},
        {"platform": "fcm", "token": "x" * 513},
        {"platform": "fcm", "token": FCM, "label": "l" * 101},
        {"platform": "fcm", "token": FCM, "extra": 1},
        {"platform": ["fcm"], "token": FCM},
        {"platform": "fcm", "token": 12},
    ],
)
def test_bad_registrations_are_refused_and_change_nothing(body):
    client = client_of(GqlPlayer("A").user)
    response = client.post(URL, body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid"
    assert not Device.objects.exists()


def test_at_most_so_many_devices(settings):
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "MAX_DEVICES": 2}
    client = client_of(GqlPlayer("A").user)
    for n in range(2):
        token = f"t{n}"
        assert (
            client.post(URL, {"platform": "fcm", "token": token}, format="json").status_code == 201
        )
    third = client.post(URL, {"platform": "fcm", "token": "t2"}, format="json")
    assert third.status_code == 409 and third.json()["error"]["code"] == "conflict"
    assert Device.objects.count() == 2
    # a known token is still updated at the limit
    assert client.post(URL, {"platform": "fcm", "token": "t1"}, format="json").status_code == 200


def test_anonymous_callers_get_401():
    anonymous = GqlPlayer(anonymous=True)
    for response in (
        anonymous.client.get(URL),
        anonymous.client.post(
            URL, {"platform": "fcm", "token": FCM}, content_type="application/json"
        ),
        anonymous.client.delete(f"{URL}1/"),
    ):
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"


REGISTER = (
    "mutation($platform: DevicePlatform!, $token: String!, $label: String!) "
    "{ registerDevice(platform: $platform, token: $token, label: $label) "
    "{ id platform token label createdAt lastUsedAt } }"
)
LIST = "{ devices { id platform label } }"
DELETE = "mutation($id: Int!) { deleteDevice(id: $id) }"


def test_devices_in_graphql_as_in_rest():
    a = GqlPlayer("A")
    made = a.data(REGISTER, platform="apns", token=APNS, label="iPhone")["registerDevice"]
    assert made["platform"] == "apns" and made["token"] == APNS and made["label"] == "iPhone"
    assert a.data(LIST)["devices"] == [{"id": made["id"], "platform": "apns", "label": "iPhone"}]
    rest = client_of(a.user).get(URL).json()["results"]
    assert [(d["id"], d["platform"]) for d in rest] == [(made["id"], "apns")]
    bad = a.error(REGISTER, platform="fcm", token="no spaces allowed", label="")
    assert bad["extensions"]["code"] == "invalid"
    assert a.data(DELETE, id=made["id"])["deleteDevice"] is True
    assert a.error(DELETE, id=made["id"])["extensions"]["code"] == "not_found"
    assert a.error(DELETE, id=0)["extensions"]["code"] == "not_found"
    anonymous = GqlPlayer(anonymous=True).error(LIST)
    assert anonymous["extensions"]["code"] == "not_authenticated"
