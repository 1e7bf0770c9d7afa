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
