"""Push subscriptions over REST and GraphQL: registered from what ``PushSubscription.toJSON()``
gives, listed, deleted; the same endpoint again updates its keys; bad input is a 4xx in the
JSON error shape and changes nothing; the VAPID key is the one the channel signs with."""

from __future__ import annotations

import pytest

from notifications.channels import web_push
from notifications.models import PushSubscription
from tests.graphql.helpers import GqlPlayer

from .push_receiver import PushService, b64
from .test_inbox_api import client_of

pytestmark = pytest.mark.django_db

LOCAL = {"WEBHOOK_ALLOW_HTTP": True, "WEBHOOK_ALLOW_PRIVATE": True}
URL = "/api/me/push-subscriptions/"


@pytest.fixture
def local(settings):
    settings.NOTIFICATIONS = dict(LOCAL)
    return settings


def browser(name: str = "b") -> dict:
    service = PushService(status=201, origin="https://push.example.com")
    return service.subscription(name)


def test_register_list_update_and_delete(local):
    from accounts.services import guest_create

    user = guest_create()[0]
    client = client_of(user)
    sub = browser()
    made = client.post(URL, sub, format="json")
    assert made.status_code == 201
    body = made.json()
    assert set(body) == {"id", "endpoint", "created_at"} and body["endpoint"] == sub["endpoint"]
    assert client.get(URL).json() == {"results": [body]}
    fresh = browser()  # the same endpoint, new keys
    again = client.post(URL, fresh, format="json")
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    row = PushSubscription.objects.get()
    assert (row.p256dh, row.auth) == (fresh["keys"]["p256dh"], fresh["keys"]["auth"])
    assert client.delete(f"{URL}{body['id']}/").status_code == 204
    assert client.delete(f"{URL}{body['id']}/").status_code == 404
    assert client.get(URL).json() == {"results": []}


def test_an_endpoint_registered_by_another_account_moves(local):
    from accounts.services import guest_create

    a, b = guest_create()[0], guest_create()[0]
    sub = browser()
    client_of(a).post(URL, sub, format="json")
    assert client_of(b).post(URL, sub, format="json").status_code == 201
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [b.pk]
    assert client_of(a).get(URL).json() == {"results": []}


def _bad(sub: dict, **changes) -> dict:
    out = {**sub, **changes}
    return {k: v for k, v in out.items() if v is not ...}


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "not a url"},
        {"endpoint": "ftp://push.example.com/x"},
        {"endpoint": ...},
        {"keys": ...},
        {"keys": {"p256dh": "AAAA", "auth": b64(b"0" * 16)}},
        {"keys": {"p256dh": b64(b"\x04" + b"\x01" * 64), "auth": b64(b"0" * 16)}},
        {"keys": {"auth": b64(b"0" * 16)}},
        {"keys": "x"},
        {"auth": "x"},
        {"expirationTime": "soon"},
        {"expirationTime": -1},
    ],
)
def test_bad_subscriptions_are_refused_and_change_nothing(local, change):
    from accounts.services import guest_create

    client = client_of(guest_create()[0])
    sub = browser()
    response = client.post(URL, _bad(sub, **change), format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid"
    assert PushSubscription.objects.count() == 0


def test_a_bad_auth_length_and_private_endpoints_are_refused(settings):
    from accounts.services import guest_create

    client = client_of(guest_create()[0])
    sub = browser()
    short = {**sub, "keys": {**sub["keys"], "auth": b64(b"0" * 8)}}
    assert client.post(URL, short, format="json").status_code == 400
    local_one = {**sub, "endpoint": "https://127.0.0.1/push/x"}
    assert client.post(URL, local_one, format="json").status_code == 400
    plain = {**sub, "endpoint": "http://push.example.com/push/x"}
    assert client.post(URL, plain, format="json").status_code == 400
    assert client.post(URL, b"[1]", content_type="application/json").status_code == 400
    assert client.post(URL, "x", content_type="text/plain").status_code == 415
    assert PushSubscription.objects.count() == 0


def test_anonymous_callers_get_401_and_ids_not_yours_404(local):
    from rest_framework.test import APIClient

    from accounts.services import guest_create

    anonymous = APIClient()
    for response in (
        anonymous.get(URL),
        anonymous.post(URL, browser(), format="json"),
        anonymous.get("/api/push/vapid-key/"),
        anonymous.delete(f"{URL}1/"),
    ):
        assert response.status_code == 401 and "error" in response.json()
    a, b = guest_create()[0], guest_create()[0]
    made = client_of(a).post(URL, browser(), format="json").json()
    for bad in (str(made["id"]), "abc", "0", "9" * 30):
        response = client_of(b).delete(f"{URL}{bad}/")
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert PushSubscription.objects.count() == 1


def test_at_most_so_many_subscriptions(settings):
    settings.NOTIFICATIONS = {**LOCAL, "MAX_PUSH_SUBSCRIPTIONS": 2}
    from accounts.services import guest_create

    client = client_of(guest_create()[0])
    for name in ("a", "b"):
        assert client.post(URL, browser(name), format="json").status_code == 201
    refused = client.post(URL, browser("c"), format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "conflict"
    assert client.post(URL, browser("a"), format="json").status_code == 200  # known: fine


def test_the_vapid_key_is_a_p256_point_and_stable(local):
    from cryptography.hazmat.primitives.asymmetric import ec

    from accounts.services import guest_create

    from .push_receiver import unb64

    key = client_of(guest_create()[0]).get("/api/push/vapid-key/").json()["public_key"]
    assert key == web_push.public_key() == web_push.public_key()
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    local.NOTIFICATIONS = {**LOCAL, "VAPID_PRIVATE_KEY": b64(b"\x07" * 32)}
    assert web_push.public_key() != key


SUBSCRIBE = (
    "mutation($input: PushSubscriptionInput!) { registerPushSubscription(input: $input) "
    "{ id endpoint createdAt } }"
)
LIST = "{ pushSubscriptions { id endpoint } vapidPublicKey }"
DELETE = "mutation($id: Int!) { deletePushSubscription(id: $id) }"


def test_push_subscriptions_in_graphql(local):
    a = GqlPlayer("A")
    sub = browser()
    made = a.data(SUBSCRIBE, input={**sub, "expirationTime": 1.7e12})
    made = made["registerPushSubscription"]
    assert made["endpoint"] == sub["endpoint"]
    listed = a.data(LIST)
    assert listed["pushSubscriptions"] == [{"id": made["id"], "endpoint": sub["endpoint"]}]
    assert listed["vapidPublicKey"] == web_push.public_key()
    rest = client_of(a.user).get(URL).json()["results"]
    assert [s["id"] for s in rest] == [made["id"]]
    bad = {**sub, "keys": {**sub["keys"], "p256dh": "AAAA"}}
    error = a.error(SUBSCRIBE, input=bad)
    assert error["extensions"]["code"] == "invalid"
    assert a.data(DELETE, id=made["id"])["deletePushSubscription"] is True
    assert a.error(DELETE, id=made["id"])["extensions"]["code"] == "not_found"
    assert a.error(DELETE, id=0)["extensions"]["code"] == "not_found"
    anonymous = GqlPlayer(anonymous=True).error("{ pushSubscriptions { id } }")
    assert anonymous["extensions"]["code"] == "not_authenticated"


def test_vapid_key_makes_a_key_the_channel_accepts(settings):
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("vapid_key", stdout=out)
    private_line, public_line = out.getvalue().splitlines()
    private = private_line.split("=", 1)[1]
    settings.NOTIFICATIONS = {**LOCAL, "VAPID_PRIVATE_KEY": private}
    assert web_push.public_key() == public_line.split(": ", 1)[1]


def test_a_pem_vapid_key_is_accepted(settings):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    settings.NOTIFICATIONS = {**LOCAL, "VAPID_PRIVATE_KEY": pem}
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert web_push.public_key() == b64(point)
