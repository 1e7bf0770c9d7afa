"""No leaks through notifications: for two matches that differ only in what seat S cannot see
(``tests.api.test_no_leak_api.twin_of``), what S's player reads of their notifications about
each — over REST, bodies compared byte for byte, and in the Web Push messages sent to their
browser and in the mobile pushes (FCM and APNs request bodies) sent to their phones — is the
same. Matches are played with
takeovers (a bot deciding for a seat whose deadline passed), whose notifications show the
decision through the redaction path."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services import guest_create
from games import services
from games.engine import registry
from games.engine.bots import random_action
from games.models import Match, Seat
from notifications.channels import mobile
from notifications.channels.web_push import message_of
from notifications.models import Kind, Notification
from notifications.reads import render
from tests.api.test_no_leak_api import twin_of

from .test_inbox_api import client_of

pytestmark = pytest.mark.django_db


def played(rules, steps: int, rng: random.Random) -> tuple[Match, list]:
    lo, _ = rules.seat_range({})
    users = [guest_create()[0] for _ in range(lo)]
    match = services.match_create(user=users[0], game=rules.game_id, seats=lo)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    for _ in range(steps):
        match.refresh_from_db()
        if match.status != "active":
            break
        state = rules.from_json(match.state)
        seat = rng.choice(rules.to_act(state))
        if rng.random() < 0.4:  # the deadline passes: a bot decides for the seat
            Seat.objects.filter(match=match, position=seat).update(deadline="2000-01-01T00:00:00Z")
            services.deadline_expire(match_id=match.pk)
            continue
        action = random_action(rules.legal_actions(state, seat), rng)
        services.action_submit(match_id=match.pk, user=users[seat], action=action)
    match.refresh_from_db()
    return match, users


def copy_notifications(match: Match, twin: Match, user) -> None:
    for row in Notification.objects.filter(match=match, user=user).order_by("id"):
        row.pk, row.match = None, twin
        row.key = "twin:" + row.key
        row.save(force_insert=True)


def inbox_about(client, match: Match) -> list[str]:
    body = client.get("/api/me/notifications/?limit=200").json()
    out = []
    for item in body["results"]:
        if item["match"] != str(match.pk):
            continue
        item = {k: v for k, v in item.items() if k not in ("id", "created_at")}
        out.append(json.dumps(item, sort_keys=True).replace(str(match.pk), "MATCH"))
    return out


def pushed_about(user, match: Match) -> list[str]:
    """The Web Push messages (plaintext) of the user's notifications about ``match``."""
    rows = list(Notification.objects.filter(user=user, match=match, due_at__isnull=True))
    out = []
    for payload in render(sorted(rows, key=lambda r: r.pk)):
        payload = {k: v for k, v in payload.items() if k not in ("id", "created_at")}
        out.append(message_of(payload).decode().replace(str(match.pk), "MATCH"))
    return out


def mobile_about(user, match: Match) -> list[str]:
    """The mobile pushes (the FCM and the APNs request bodies) of the user's notifications
    about ``match``."""
    rows = list(Notification.objects.filter(user=user, match=match, due_at__isnull=True))
    out = []
    for payload in render(sorted(rows, key=lambda r: r.pk)):
        payload = {k: v for k, v in payload.items() if k not in ("id", "created_at")}
        message = mobile.message_of(payload)
        wire = [mobile.fcm_body("TOKEN", message), mobile.apns_body(message)]
        out.append(json.dumps(wire, sort_keys=True).replace(str(match.pk), "MATCH"))
    return out


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.integers(0, 30), pick=st.randoms(use_true_random=False))
def test_what_a_player_reads_of_a_notification_does_not_depend_on_what_their_seat_cannot_see(
    rules, steps, pick
):
    match, users = played(rules, steps, random.Random(pick.random()))
    for seat in range(match.seat_count):
        user = users[seat]
        twin = twin_of(match, seat, random.Random(pick.random()))
        copy_notifications(match, twin, user)
        client = client_of(user)
        mine = inbox_about(client, match)
        assert mine, "every player has at least match_started"
        assert inbox_about(client, twin) == mine
        pushed = pushed_about(user, match)
        assert len(pushed) == len(mine) and pushed_about(user, twin) == pushed
        phone = mobile_about(user, match)
        assert len(phone) == len(mine) and mobile_about(user, twin) == phone


def test_the_property_sees_takeovers():
    """The property above is not vacuous: a played match has takeover notifications with
    events, and a seat's private part of them differs between the twins' raw rows."""
    rules = registry.get("fibber")
    match, _users = played(rules, 30, random.Random(7))
    taken = Notification.objects.filter(match=match, kind=Kind.TAKEOVER)
    assert taken.exists()
    body = client_of(taken[0].user).get("/api/me/notifications/?limit=200").json()
    assert any(n["kind"] == "takeover" and n["events"] for n in body["results"])


@pytest.mark.parametrize("rules", registry.all_rules(), ids=lambda r: r.game_id)
@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.integers(0, 30), pick=st.randoms(use_true_random=False))
def test_what_the_daily_digest_says_of_a_match_does_not_depend_on_what_a_seat_cannot_see(
    rules, steps, pick
):
    from games.reads.lists import read_turns
    from notifications.digest import text_of

    match, users = played(rules, steps, random.Random(pick.random()))
    for seat in range(match.seat_count):
        twin = twin_of(match, seat, random.Random(pick.random()))
        turns = {t["match"]: t for t in read_turns(user=users[seat])}
        if str(match.pk) not in turns:
            continue
        mine = text_of([turns[str(match.pk)]], "UTC").replace(str(match.pk), "MATCH")
        assert text_of([turns[str(twin.pk)]], "UTC").replace(str(twin.pk), "MATCH") == mine
        Match.objects.filter(pk=twin.pk).delete()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["fabfib", "fibber", "fibbers_dice", "skull"]),
    twins=st.lists(
        st.tuples(
            st.integers(0, 3),  # extra seats
            st.sampled_from(["live", "async"]),
            st.one_of(st.none(), st.integers(0, 600)),  # bots_after
            st.floats(800, 2400),  # rating
        ),
        min_size=2,
        max_size=2,
    ),
)
def test_what_a_follower_reads_of_followed_looking_names_the_player_and_game_only(game, twins):
    """Two tickets of one player for one game that differ in everything else the follower may
    not see (seat range, time control, bots, rating, ticket id): what the follower reads of the
    notices, in the inbox and in every channel's message, is the same."""
    from matchmaking.models import Follow, Ticket
    from matchmaking.services import ticket_cancel, ticket_create
    from notifications.channels.email import text_of
    from notifications.services import reminders_fire

    rules = registry.get(game)
    lo, hi = rules.seat_range({})
    star, fan = guest_create()[0], guest_create()[0]
    Follow.objects.create(follower=fan, followed=star)
    seen = []
    for extra, time_control, bots_after, rating in twins:
        ticket = ticket_create(
            user=star,
            game=game,
            seats_min=lo,
            seats_max=min(hi, lo + extra),
            time_control=time_control,
            bots_after=bots_after,
        )
        Ticket.objects.filter(pk=ticket.pk).update(rating=rating)
        Notification.objects.filter(user=fan).update(due_at="2000-01-01T00:00:00Z")
        reminders_fire()
        rows = list(Notification.objects.filter(user=fan, due_at__isnull=True))
        assert [r.kind for r in rows] == [Kind.FOLLOWED_LOOKING]
        (payload,) = render(rows)
        payload = {k: v for k, v in payload.items() if k not in ("id", "created_at")}
        message = mobile.message_of(payload)
        seen.append(
            json.dumps(
                [
                    payload,
                    message_of(payload).decode(),
                    mobile.fcm_body("TOKEN", message),
                    mobile.apns_body(message),
                    text_of(payload),
                ],
                sort_keys=True,
            )
        )
        ticket_cancel(user=star, ticket_id=ticket.pk)
        Notification.objects.filter(user=fan).delete()  # the window: the next one is written
    assert seen[0] == seen[1]
    assert str(star.pk) in seen[0] and game in seen[0]
