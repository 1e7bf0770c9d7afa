"""Mobile devices under concurrency, on real PostgreSQL: one push token registered by several
requests at once (one account, or several) never fails and leaves one row."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.services import guest_create
from notifications import services
from notifications.models import Device
from tests.services.test_ratings_concurrency import in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (CI runs it)"
    ),
]


def _register(user, token: str):
    def run():
        row, new = services.device_register(user=user, platform="fcm", token=token, label="")
        return row.pk, new

    return run


def test_one_token_registered_at_once_by_one_account_is_one_row():
    user = guest_create()[0]
    for round_ in range(5):
        token = f"fcm-at-once-{round_}"
        results = in_threads([_register(user, token)] * 4, 4)
        assert len({pk for pk, _ in results}) == 1
        assert sorted(new for _, new in results) == [False] * 3 + [True]
        assert Device.objects.filter(token=token).count() == 1


def test_one_token_registered_at_once_by_several_accounts_ends_with_one_of_them():
    users = [guest_create()[0] for _ in range(4)]
    for round_ in range(5):
        token = f"fcm-shared-{round_}"
        in_threads([_register(u, token) for u in users], 4)
        rows = list(Device.objects.filter(token=token))
        assert len(rows) == 1 and rows[0].user_id in {u.pk for u in users}
