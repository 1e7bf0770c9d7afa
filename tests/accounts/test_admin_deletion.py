"""Staff delete an account through the same service as the player, and see the audit record."""

from __future__ import annotations

import pytest

from accounts.models import AccountDeletion, User
from tests.api.helpers import Player

pytestmark = pytest.mark.django_db


def test_staff_delete_an_account_and_the_audit_names_who_and_when(client):
    root = User.objects.create_superuser("root", password="a-long-pass-phrase")
    client.force_login(root)
    player = Player("Zed")
    response = client.post(
        "/admin/accounts/user/",
        {"action": "delete_accounts", "_selected_action": [player.user.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "Deleted 1 account(s)." in response.content.decode()
    tomb = User.objects.get(pk=player.user.pk)
    assert tomb.deleted_at is not None and tomb.public_name.startswith("Deleted player ")
    assert player.get("/api/me/").status_code == 401
    audit = AccountDeletion.objects.get(subject_id=player.user.pk)
    assert (audit.by, audit.staff) == ("staff", root)
    page = client.get("/admin/accounts/accountdeletion/").content.decode()
    assert str(player.user.pk) in page and "Zed" not in page
    # again: refused cleanly, no second record
    client.post(
        "/admin/accounts/user/", {"action": "delete_accounts", "_selected_action": [tomb.pk]}
    )
    assert AccountDeletion.objects.filter(subject_id=tomb.pk).count() == 1
    # a user row cannot be removed by hand
    assert (
        client.post(f"/admin/accounts/user/{tomb.pk}/delete/", {"post": "yes"}).status_code == 403
    )
