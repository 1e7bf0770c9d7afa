"""Email through a real SMTP server: Django's SMTP backend sends the notifications to an
aiosmtpd server started by the test on 127.0.0.1; a refusal is recorded and tried again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accounts.services import guest_create
from games import services as game_services
from notifications.models import Channel, Delivery
from notifications.tasks import relay

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
        settings.DEFAULT_FROM_EMAIL = "fibserver@example.org"
        settings.NOTIFICATIONS = {**settings.NOTIFICATIONS, "BACKOFF_SECONDS": 0.0}
        yield mailbox


def two_players(email: str = "player@example.org"):
    user, other = guest_create()[0], guest_create()[0]
    user.email = email
    user.save(update_fields=["email"])
    match = game_services.match_create(user=user, game="fibber", seats=2)
    game_services.match_join(match_id=match.pk, user=other)
    return match, user


def test_the_notification_email_reaches_the_smtp_server_once(smtp):
    match, _ = two_players()
    relay()
    relay()  # nothing twice
    subjects = sorted(m["Subject"] for m in smtp.messages)
    assert "fibserver: Your match has started" in subjects
    assert len(subjects) == len(set(subjects))
    for message, (sender, to) in zip(smtp.messages, smtp.envelopes, strict=True):
        assert sender == "fibserver@example.org" and to == ["player@example.org"]
        assert message["To"] == "player@example.org"
        assert str(match.pk) in message.get_content()
    sent = Delivery.objects.filter(channel=Channel.EMAIL, status=Delivery.Status.SENT)
    assert sent.count() == len(smtp.messages)


def test_a_refusal_of_the_server_is_recorded_and_tried_again(smtp):
    smtp.refuse = "451 Try again later"
    two_players()
    relay()
    assert smtp.messages == []
    pending = Delivery.objects.filter(channel=Channel.EMAIL, status=Delivery.Status.PENDING)
    assert pending.exists()
    assert all(not d.attempts[0]["ok"] and "451" in d.attempts[0]["detail"] for d in pending)
    smtp.refuse = None
    relay()
    assert len(smtp.messages) == Delivery.objects.filter(channel=Channel.EMAIL).count()
    for delivery in Delivery.objects.filter(channel=Channel.EMAIL):
        oks = [a["ok"] for a in delivery.attempts]
        assert delivery.status == Delivery.Status.SENT, delivery.attempts
        assert oks[-1] and not any(oks[:-1]) and len(oks) >= 2


def test_an_account_without_an_address_gets_no_mail(smtp):
    two_players(email="")
    relay()
    assert smtp.messages == []
    assert not Delivery.objects.filter(channel=Channel.EMAIL).exists()
