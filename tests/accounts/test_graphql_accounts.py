"""The account's lifecycle over GraphQL: the same service and the same error codes as REST."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.services import token_issue, user_register
from tests.accounts.test_deletion import PASSWORD
from tests.graphql.helpers import GqlPlayer

pytestmark = pytest.mark.django_db

DELETE = "mutation D($p: String, $t: String) { deleteAccount(password: $p, token: $t) }"
CHANGE = (
    "mutation C($c: String!, $n: String!) { changePassword(currentPassword: $c, "
    "newPassword: $n) { token user { id } } }"
)
ME = "{ me { id } }"


def code(error: dict) -> str:
    return error["extensions"]["code"]


def test_a_guest_deletes_itself_with_its_token_once():
    guest = GqlPlayer("Gus")
    assert code(guest.error(DELETE)) == "invalid_credentials"
    assert code(guest.error(DELETE, t="not-my-token")) == "invalid_credentials"
    assert code(guest.error(DELETE, t="x" * 65)) == "invalid"
    assert User.objects.get(pk=guest.user.pk).deleted_at is None
    assert guest.data(DELETE, t=guest.token) == {"deleteAccount": True}
    assert User.objects.get(pk=guest.user.pk).deleted_at is not None
    assert code(guest.error(DELETE, t=guest.token)) == "authentication_failed"


def test_a_registered_account_confirms_with_its_password_and_changes_it():
    user = user_register(username="erin", password=PASSWORD)
    player = GqlPlayer(token=token_issue(user=user))
    elsewhere = GqlPlayer(token=token_issue(user=user, label="Tablet"))
    assert code(player.error(CHANGE, c="wrong-pass", n="another-long-one")) == (
        "invalid_credentials"
    )
    assert code(player.error(CHANGE, c=PASSWORD, n="short")) == "invalid"
    changed = player.data(CHANGE, c=PASSWORD, n="another-long-one")["changePassword"]
    assert changed["token"] == player.token  # this session stays signed in
    assert player.data(ME)["me"]["id"] == user.pk
    assert code(elsewhere.error(ME)) == "authentication_failed"  # the other one is signed out
    assert code(player.error(DELETE, p=PASSWORD)) == "invalid_credentials"
    assert player.data(DELETE, p="another-long-one") == {"deleteAccount": True}
    assert code(GqlPlayer(anonymous=True).error(DELETE, p="x")) == "not_authenticated"
