"""The admin shows everything and changes nothing behind the services' back."""

from __future__ import annotations

import pytest

from accounts.models import User
from accounts.services import guest_create
from games import services
from games.models import Event, Match
from games.services import finisher

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client):
    client.force_login(User.objects.create_superuser("root", password="a-long-pass-phrase"))
    return client


def active_match() -> Match:
    users = [guest_create()[0] for _ in range(3)]
    match = services.match_create(user=users[0], game="fabfib", seats=3)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    return Match.objects.get(pk=match.pk)


def test_staff_see_every_model_but_cannot_edit_or_delete_a_match(staff):
    match = active_match()
    for url in (
        "/admin/games/match/",
        f"/admin/games/match/{match.pk}/change/",
        "/admin/games/event/",
        "/admin/games/career/",
        "/admin/games/idempotencyrecord/",
    ):
        assert staff.get(url).status_code == 200, url
    page = staff.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert 'name="status"' not in page and 'name="visibility"' not in page
    assert 'name="version"' not in page and 'name="_save"' not in page
    assert 'name="state"' not in page and 'name="seats-0-must_act"' not in page
    assert "field-state" in page and "field-visibility" in page  # shown, read-only
    posted = staff.post(f"/admin/games/match/{match.pk}/change/", {"status": "finished"})
    assert posted.status_code == 403
    assert staff.post(f"/admin/games/match/{match.pk}/delete/", {"post": "yes"}).status_code == 403
    assert staff.get("/admin/games/match/add/").status_code == 403
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.status, fresh.version) == ("active", match.version)


def test_the_abort_action_ends_a_match_through_the_finisher(staff, monkeypatch):
    match = active_match()
    finished = []
    the_finisher = finisher.match_finish

    def spy(**kwargs):
        finished.append((kwargs["match"].pk, kwargs["reason"], kwargs.get("aborted")))
        return the_finisher(**kwargs)

    monkeypatch.setattr(finisher, "match_finish", spy)
    response = staff.post(
        "/admin/games/match/", {"action": "abort", "_selected_action": [str(match.pk)]}
    )
    assert response.status_code == 302
    assert finished == [(match.pk, "aborted_by_staff", True)]
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.status == "aborted" and fresh.end_reason == "aborted_by_staff"
    assert fresh.version == match.version + 1 and fresh.deadline is None
    last = Event.objects.filter(match=match).order_by("-seq").first()
    assert last is not None and last.type == "aborted" and last.seq == fresh.last_seq
    assert not fresh.seats.filter(must_act=True).exists()
    # a match that has ended cannot be aborted: a warning, and nothing changes
    staff.post("/admin/games/match/", {"action": "abort", "_selected_action": [str(match.pk)]})
    assert Match.objects.get(pk=match.pk).version == fresh.version


def test_every_model_is_in_the_admin_read_only_and_without_its_secrets(staff):
    """Every model of ours has an admin page; the ones made only to be looked at answer 200
    for the list and a row, offer no add, and never print a secret."""
    from django.apps import apps
    from django.contrib import admin as django_admin

    from accounts.deletion import account_delete
    from accounts.services import token_issue
    from accounts.sessions import digest_of
    from notifications.models import PushSubscription, Webhook

    match = active_match()
    user = match.seats.exclude(user=None).first().user
    hook = Webhook.objects.create(user=user, url="https://hooks.example.org/x", secret="s3cr3t" * 4)
    PushSubscription.objects.create(
        user=user, endpoint="https://push.example.org/abc", p256dh="P" * 87, auth="A" * 22
    )
    token = token_issue(user=user, label="Pixel 8")
    ours = [
        m
        for m in apps.get_models()
        if m._meta.app_label in {"accounts", "games", "notifications", "matchmaking", "tournaments"}
    ]
    inline = {i.model for a in django_admin.site._registry.values() for i in a.inlines}
    missing = [m._meta.label for m in ours if m not in django_admin.site._registry]
    assert [label for label in missing if apps.get_model(label) not in inline] == []
    assert {"games.Seat", "tournaments.Entry"} <= set(
        missing
    )  # shown inside their match, tournament
    for model in ours:
        if model not in django_admin.site._registry:
            continue
        meta = model._meta
        listing = staff.get(f"/admin/{meta.app_label}/{meta.model_name}/")
        assert listing.status_code == 200, meta.label
        row = model._default_manager.first()
        if row is not None:
            page = staff.get(f"/admin/{meta.app_label}/{meta.model_name}/{row.pk}/change/")
            assert page.status_code == 200, meta.label
            text = page.content.decode()
            assert "s3cr3t" not in text and "P" * 87 not in text and "push.example.org" not in text
            assert token not in text and digest_of(token) not in text
    page = staff.get(f"/admin/notifications/webhook/{hook.pk}/change/").content.decode()
    assert "hooks.example.org" in page and "s3cr3t" not in page
    assert staff.get("/admin/notifications/webhook/add/").status_code == 403
    assert (
        staff.post(f"/admin/notifications/webhook/{hook.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert Webhook.objects.filter(pk=hook.pk).exists()
    account_delete(user=user)  # the audit and the hold have rows to show too
    assert staff.get("/admin/accounts/usernamehold/").status_code == 200
