"""The quick-play queue and blocks in GraphQL: the same services and readers as REST, REST's
codes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matchmaking import services
from matchmaking.models import Ticket

from .helpers import GqlPlayer

pytestmark = pytest.mark.django_db

FIELDS = """id game status seatsMin seatsMax timeControl rated botsAfter botLevel position waited
  estimate match createdAt expiresAt"""
QUEUE = f"mutation Q($input: QueueInput!) {{ queue(input: $input) {{ {FIELDS} }} }}"
CANCEL = f"mutation C($id: Int!) {{ cancelTicket(id: $id) {{ {FIELDS} }} }}"
MINE = f"query M {{ myTickets {{ {FIELDS} }} }}"
BLOCK = "mutation B($p: Int!) { blockPlayer(player: $p) }"
UNBLOCK = "mutation U($p: Int!) { unblockPlayer(player: $p) }"
BLOCKED = "query { blockedPlayers }"


def rest(player: GqlPlayer, path: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {player.token}")
    return client.get(path).json()


def test_queue_match_and_cancel_through_graphql_as_rest_answers():
    a, b = GqlPlayer("A"), GqlPlayer("B")
    ticket = a.data(QUEUE, input={"game": "fibbers_dice", "seatsMin": 2})["queue"]
    assert ticket["status"] == "waiting" and ticket["seatsMax"] == 2 and ticket["position"] == 1
    assert (
        a.error(QUEUE, input={"game": "fibbers_dice", "seatsMin": 2})["extensions"]["code"]
        == "conflict"
    )
    b.data(QUEUE, input={"game": "fibbers_dice", "seatsMin": 2, "timeControl": "live"})
    (match_id,) = services.queue_match()
    (mine,) = a.data(MINE)["myTickets"]
    assert mine["status"] == "matched" and mine["match"] == str(match_id)
    (as_rest,) = rest(a, "/api/queue/")["tickets"]
    assert as_rest["match"] == mine["match"] and as_rest["id"] == mine["id"]
    assert a.error(CANCEL, id=mine["id"])["extensions"]["code"] == "conflict"
    assert b.error(CANCEL, id=mine["id"])["extensions"]["code"] == "not_found"
    again = a.data(QUEUE, input={"game": "skull", "seatsMin": 3, "botsAfter": 5})["queue"]
    assert again["botLevel"] == "basic"
    assert a.data(CANCEL, id=again["id"])["cancelTicket"]["status"] == "cancelled"


ONE = f"query T($id: Int!) {{ ticket(id: $id) {{ {FIELDS} }} }}"


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def test_one_ticket_through_graphql_is_what_rest_answers_and_only_yours():
    a, b = GqlPlayer("A"), GqlPlayer("B")
    made = a.data(QUEUE, input={"game": "fabfib", "seatsMin": 3, "seatsMax": 4})["queue"]
    one = a.data(ONE, id=made["id"])["ticket"]
    as_rest = rest(a, f"/api/queue/{made['id']}/")
    assert {_snake(k): v for k, v in one.items() if k != "waited"} == {
        k: v for k, v in as_rest.items() if k != "waited"
    }
    assert one["status"] == "waiting" and one["seatsMax"] == 4
    # Someone else's ticket, no such ticket, a non-positive id: not found, as REST's 404.
    for who, which in ((b, made["id"]), (a, made["id"] + 1000), (a, 0), (a, -3)):
        answer = who.run(ONE, id=which)
        assert answer["data"] == {"ticket": None}
        assert answer["errors"][0]["extensions"]["code"] == "not_found"
    assert rest(b, f"/api/queue/{made['id']}/")["error"]["code"] == "not_found"
    assert GqlPlayer(anonymous=True).error(ONE, id=made["id"])["extensions"]["code"] == (
        "not_authenticated"
    )


def test_bad_input_is_refused_with_rests_codes_and_changes_nothing():
    a = GqlPlayer("A")
    assert a.error(QUEUE, input={"game": "skull", "seatsMin": 2})["extensions"]["code"] in (
        "invalid_options",
        "refused",
    )
    bad_level = {"game": "fabfib", "seatsMin": 2, "botsAfter": 1, "botLevel": "nope"}
    assert a.error(QUEUE, input=bad_level)["extensions"]["code"] == "invalid"
    assert a.error(QUEUE, input={"game": "fabfib", "seatsMin": 99})["extensions"]["code"] == (
        "invalid"
    )
    assert a.error(CANCEL, id=0)["extensions"]["code"] == "not_found"
    anonymous = GqlPlayer(anonymous=True)
    assert anonymous.error(MINE)["extensions"]["code"] == "not_authenticated"
    assert not Ticket.objects.exists()


def test_blocks_through_graphql():
    a, b = GqlPlayer("A"), GqlPlayer("B")
    assert a.data(BLOCK, p=b.user.pk)["blockPlayer"] == [b.user.pk]
    assert a.data(BLOCKED)["blockedPlayers"] == [b.user.pk]
    assert rest(a, "/api/blocks/") == {"players": [b.user.pk]}
    assert a.error(BLOCK, p=a.user.pk)["extensions"]["code"] in ("invalid_options", "refused")
    assert a.data(UNBLOCK, p=b.user.pk)["unblockPlayer"] == []
    assert a.error(UNBLOCK, p=b.user.pk)["extensions"]["code"] == "not_found"


REMATCH = "query R($id: ID!) { rematch(matchId: $id) { status accepted waitingFor match } }"
ACCEPT = "mutation A($id: ID!) { acceptRematch(matchId: $id) { status accepted waitingFor match } }"
DECLINE = "mutation D($id: ID!) { declineRematch(matchId: $id) { status } }"


def test_rematch_through_graphql():
    from tests.services.finished import finished_match

    a, b = GqlPlayer("A"), GqlPlayer("B")
    match = finished_match("fibbers_dice", [a.user, b.user], [1, 2])
    assert a.data(REMATCH, id=str(match.pk))["rematch"]["status"] == "none"
    offered = a.data(ACCEPT, id=str(match.pk))["acceptRematch"]
    assert offered == {
        "status": "open",
        "accepted": [a.user.pk],
        "waitingFor": [b.user.pk],
        "match": None,
    }
    assert a.error(ACCEPT, id=str(match.pk))["extensions"]["code"] == "conflict"
    assert GqlPlayer("S").error(ACCEPT, id=str(match.pk))["extensions"]["code"] == "forbidden"
    started = b.data(ACCEPT, id=str(match.pk))["acceptRematch"]
    assert started["status"] == "started" and started["match"]
    assert b.error(DECLINE, id=str(match.pk))["extensions"]["code"] == "conflict"


CHALLENGE = (
    "mutation C($input: ChallengeInput!) { challengePlayers(input: $input) "
    "{ id status players accepted match game options } }"
)
ACCEPT_CHALLENGE = "mutation A($id: Int!) { acceptChallenge(id: $id) { status match } }"
MY_CHALLENGES = "query { myChallenges { id status } }"


def test_challenges_through_graphql():
    a, b = GqlPlayer("A"), GqlPlayer("B")
    made = a.data(CHALLENGE, input={"players": [b.user.pk], "game": "fibbers_dice"})[
        "challengePlayers"
    ]
    assert made["status"] == "open" and made["players"] == [b.user.pk]
    assert b.data(MY_CHALLENGES)["myChallenges"] == [{"id": made["id"], "status": "open"}]
    bad = {"players": [b.user.pk], "game": "fibbers_dice", "options": {"nope": 1}}
    assert a.error(CHALLENGE, input=bad)["extensions"]["code"] == "invalid_options"
    assert a.error(ACCEPT_CHALLENGE, id=made["id"])["extensions"]["code"] == "conflict"
    started = b.data(ACCEPT_CHALLENGE, id=made["id"])["acceptChallenge"]
    assert started["status"] == "started" and started["match"]


ONE_CHALLENGE = (
    "query C($id: Int!) { challenge(id: $id) { id challenger players accepted game options "
    "timeControl decisionSeconds bots rated status declinedBy match createdAt expiresAt } }"
)


def test_one_challenge_through_graphql_is_what_rest_answers_to_its_players_only():
    a, b, c = GqlPlayer("A"), GqlPlayer("B"), GqlPlayer("C")
    made = a.data(CHALLENGE, input={"players": [b.user.pk], "game": "fibbers_dice"})[
        "challengePlayers"
    ]
    for who in (a, b):
        one = who.data(ONE_CHALLENGE, id=made["id"])["challenge"]
        as_rest = rest(who, f"/api/challenges/{made['id']}/")
        assert {_snake(k): v for k, v in one.items()} == as_rest
    # A player who is neither challenger nor challenged, no such id, a non-positive id.
    for who, which in ((c, made["id"]), (a, made["id"] + 1000), (a, 0)):
        answer = who.run(ONE_CHALLENGE, id=which)
        assert answer["data"] == {"challenge": None}
        assert answer["errors"][0]["extensions"]["code"] == "not_found"
    assert rest(c, f"/api/challenges/{made['id']}/")["error"]["code"] == "not_found"


FOLLOW = (
    "mutation F($p: Int!) { followPlayer(player: $p) { player { id name } lookingFor matches } }"
)
FOLLOWED = "query { followedPlayers { player { id } lookingFor matches } }"
UNFOLLOW = "mutation U($p: Int!) { unfollowPlayer(player: $p) { player { id } } }"


def test_follows_through_graphql():
    a, b = GqlPlayer("A"), GqlPlayer("B")
    assert a.data(FOLLOW, p=b.user.pk)["followPlayer"] == [
        {"player": {"id": b.user.pk, "name": "B"}, "lookingFor": None, "matches": []}
    ]
    b.data(QUEUE, input={"game": "fabfib", "seatsMin": 3})
    assert a.data(FOLLOWED)["followedPlayers"][0]["lookingFor"] == "fabfib"
    assert a.error(FOLLOW, p=a.user.pk)["extensions"]["code"] == "invalid_options"
    assert a.data(UNFOLLOW, p=b.user.pk)["unfollowPlayer"] == []
    assert a.error(UNFOLLOW, p=b.user.pk)["extensions"]["code"] == "not_found"
