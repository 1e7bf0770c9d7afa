"""The daily digest: a preference; once a day in the player's time zone, an email of the matches
waiting for them, sent to a real SMTP server (aiosmtpd) by the pass beat and the embedded
runner make."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Seat
from notifications import services
from notifications.digest import digests_send
from notifications.models import Preference
from notifications.tasks import digests
from tests.api.helpers import Player, assert_error

from .helpers import table, to_act
from .receivers import Mailbox, smtp_receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def smtp(settings) -> Iterator[Mailbox]:
    with smtp_receiver() as (port, mailbox):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_TIMEOUT = 5
        settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "DIGEST_HOUR": 8}
        yield mailbox


def waiting_player(zone: str = "UTC", digest: bool = True, email: str = "me@example.org"):
    """A player with a match waiting for them (their turn, async) and the digest set."""
    match, users = table(time_control="async")
    me = users[to_act(match)[0]]
    me.email = email
    me.save(update_fields=["email"])
    services.preference_update(user=me, time_zone=zone, digest=digest)
    return match, me


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_the_digest_lists_the_matches_waiting_and_comes_once_a_day(smtp):
    match, me = waiting_player()
    assert digests_send(now=at("2026-12-03 07:59")) == 0  # before the morning
    assert digests_send(now=at("2026-12-03 08:00")) == 1
    assert digests_send(now=at("2026-12-03 08:05")) == 0
    assert digests_send(now=at("2026-12-03 23:59")) == 0
    [message] = smtp.messages
    assert smtp.envelopes[0][1] == ["me@example.org"]
    assert message["Subject"] == "fibserver: 1 match waiting"
    body = message.get_content()
    assert str(match.pk) in body and "fibber" in body
    deadline = Seat.objects.get(match=match, user=me).deadline
    assert f"{deadline:%Y-%m-%d %H:%M} (UTC)" in body
    assert digests_send(now=at("2026-12-04 08:00")) == 1  # the next day
    assert len(smtp.messages) == 2


def test_the_morning_is_the_players_own(smtp):
    _, tokyo = waiting_player("Asia/Tokyo", email="tokyo@example.org")
    _, lima = waiting_player("America/Lima", email="lima@example.org")
    # 23:30 UTC: 08:30 the next day in Tokyo, 18:30 in Lima (both past 08:00 locally)
    assert digests_send(now=at("2026-12-02 23:30")) == 2
    # 00:30 UTC: Tokyo's day already had one; in Lima it is still the 2nd: done too
    assert digests_send(now=at("2026-12-03 00:30")) == 0
    # 13:30 UTC: 08:30 on the 3rd in Lima: its next one; Tokyo waits for the 4th
    assert digests_send(now=at("2026-12-03 13:30")) == 1
    to = [e[1][0] for e in smtp.envelopes]
    assert to.count(tokyo.email) == 1 and to.count(lima.email) == 2
    assert Preference.objects.get(user=tokyo).digest_sent_on.isoformat() == "2026-12-03"


def test_nothing_waiting_or_no_digest_asked_sends_nothing(smtp):
    match, _ = waiting_player()
    Seat.objects.filter(match=match).update(must_act=False)
    waiting_player(digest=False)
    waiting_player(email="")
    assert digests_send(now=at("2026-12-03 09:00")) == 0
    assert smtp.messages == []


def test_a_failed_send_gives_the_day_back(smtp):
    waiting_player()
    smtp.refuse = "451 Try again later"
    assert digests_send(now=at("2026-12-03 09:00")) == 0
    assert Preference.objects.get(digest=True).digest_sent_on is None
    smtp.refuse = None
    assert digests_send(now=at("2026-12-03 09:05")) == 1
    assert len(smtp.messages) == 1


def test_the_task_beat_and_the_runner_call_sends_what_is_due_now(smtp, settings):
    waiting_player()
    settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "DIGEST_HOUR": 0}
    assert digests() == 1 and digests() == 0
    assert len(smtp.messages) == 1


def test_the_digest_is_a_preference_over_rest():
    me = Player()
    assert me.get("/api/me/notification-preferences/").json()["digest"] is False
    response = me.client.patch("/api/me/notification-preferences/", {"digest": True}, format="json")
    assert response.status_code == 200 and response.json()["digest"] is True
    bad = me.client.patch("/api/me/notification-preferences/", {"digest": "yes"}, format="json")
    assert_error(bad, 400)
    assert Preference.objects.get(user=me.user).digest is True


def test_a_day_is_a_local_date_even_over_a_change_of_zone(smtp):
    _, me = waiting_player("Asia/Tokyo")
    assert digests_send(now=at("2026-12-03 00:00")) == 1  # 09:00 on the 3rd in Tokyo
    services.preference_update(user=me, time_zone="UTC")
    assert digests_send(now=at("2026-12-03 09:00") - timedelta(minutes=1)) == 0
