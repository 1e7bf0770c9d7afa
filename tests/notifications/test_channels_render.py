"""Every channel sends the inbox's rendering: what a webhook, a browser (Web Push), a phone (FCM)
and a mailbox receive of a notification is what its recipient's inbox shows of it, over REST
and GraphQL — even when the channels send it in one batch with other players' notifications
about the same step (a ``takeover`` of the seat whose decision a bot took)."""

from __future__ import annotations

import orjson
import pytest
from django.core import mail

from accounts.services import token_issue
from games import services as game_services
from games.models import Seat
from notifications import services
from notifications.channels.email import text_of
from notifications.channels.mobile import MAX_BODY
from notifications.models import Kind, Notification
from notifications.tasks import relay
from tests.graphql.helpers import GqlPlayer

from .helpers import LOCAL, table, to_act
from .mobile_fakes import fake_fcm
from .push_receiver import push_service
from .receivers import http_receiver
from .test_graphql import INBOX
from .test_inbox_api import client_of

pytestmark = pytest.mark.django_db


def test_a_your_turn_after_a_bots_step_is_sent_on_every_channel_as_the_inbox_shows_it(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with http_receiver() as (url, hooked), push_service() as browser, fake_fcm() as fcm:
        settings.NOTIFICATIONS = {**LOCAL, **fcm.settings()}
        match, users = table()
        for user in users:
            user.email = f"player{user.pk}@example.org"
            user.save(update_fields=["email"])
            services.webhook_create(user=user, url=url)
            response = client_of(user).post(
                "/api/me/push-subscriptions/", browser.subscription(f"u{user.pk}"), format="json"
            )
            assert response.status_code == 201, response.content
            response = client_of(user).post(
                "/api/me/devices/", {"platform": "fcm", "token": f"fcm-{user.pk}"}, format="json"
            )
            assert response.status_code == 201, response.content
        relay()  # match_started and the first your_turn out of the way
        hooked.requests.clear()
        browser.messages.clear()
        fcm.messages.clear()
        mail.outbox.clear()

        late = to_act(match)[0]
        Seat.objects.filter(match=match, position=late).update(deadline="2000-01-01T00:00:00Z")
        assert game_services.deadline_expire(match_id=match.pk) == 1
        relay()  # the takeover and the next your_turn go out in one batch
        assert browser.errors == [] and fcm.errors == []

    (taken,) = Notification.objects.filter(match=match, kind=Kind.TAKEOVER)
    turns = Notification.objects.filter(match=match, kind=Kind.YOUR_TURN, version=taken.version)
    assert turns.exists()  # the batch has both kinds of the one step
    for turn in turns:
        user = turn.user
        inbox = client_of(user).get("/api/me/notifications/").json()["results"]
        (shown,) = [n for n in inbox if n["id"] == turn.pk]
        gql = GqlPlayer(token=token_issue(user=user)).data(INBOX, unread=False)
        (node,) = [n for n in gql["notifications"]["items"] if n["id"] == turn.pk]
        assert [e["data"] for e in node["events"]] == [e["data"] for e in shown["events"]]
        body = text_of(shown)

        (hooked_note,) = [
            b["notification"]
            for _, raw in hooked.requests
            if (b := orjson.loads(raw))["notification"]["id"] == turn.pk
        ]
        assert hooked_note == shown
        (pushed,) = [m for m in browser.messages if m["notification"]["id"] == turn.pk]
        assert pushed["notification"] == shown
        assert pushed["body"] == body.strip()
        (phoned,) = [m for m in fcm.messages if m["data"]["id"] == str(turn.pk)]
        assert phoned["notification"]["body"] == body.strip()[:MAX_BODY]
        assert phoned["data"]["version"] == str(shown["version"])
        (mailed,) = [
            m for m in mail.outbox if m.to == [user.email] and m.subject.endswith("Your turn")
        ]
        assert mailed.body == body
