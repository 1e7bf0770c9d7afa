"""Web Push subscriptions under concurrency, on real PostgreSQL: the same endpoint registered
by several requests at once (one account, or several) never answers 500 and leaves one row."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.services import guest_create
from notifications import services
from notifications.models import PushSubscription
from tests.services.test_ratings_concurrency import in_threads

from .push_receiver import PushService

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


@pytest.fixture(autouse=True)
def local(settings):
    settings.NOTIFICATIONS = {"WEBHOOK_ALLOW_HTTP": True, "WEBHOOK_ALLOW_PRIVATE": True}


def _register(user, sub):
    def run():
        row, new = services.push_subscribe(
            user=user,
            endpoint=sub["endpoint"],
            p256dh=sub["keys"]["p256dh"],
            auth=sub["keys"]["auth"],
        )
        return row.pk, new

    return run


def test_one_endpoint_registered_at_once_by_one_account_is_one_row():
    user = guest_create()[0]
    for round_ in range(5):
        sub = PushService(status=201, origin="https://push.example.com").subscription(f"r{round_}")
        results = in_threads([_register(user, sub)] * 4, 4)
        assert len({pk for pk, _ in results}) == 1
        assert sorted(new for _, new in results) == [False] * 3 + [True]
        assert PushSubscription.objects.filter(endpoint=sub["endpoint"]).count() == 1


def test_one_endpoint_registered_at_once_by_several_accounts_ends_with_one_of_them():
    users = [guest_create()[0] for _ in range(4)]
    for round_ in range(5):
        sub = PushService(status=201, origin="https://push.example.com").subscription(f"s{round_}")
        in_threads([_register(u, sub) for u in users], 4)
        rows = list(PushSubscription.objects.filter(endpoint=sub["endpoint"]))
        assert len(rows) == 1 and rows[0].user_id in {u.pk for u in users}
