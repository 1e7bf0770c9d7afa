"""The fast lane's long-poll handler (``api.fast.follower``) answers exactly what Django's view
answers, shares one read among waiters asking the same thing, and hands the rest to Django."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.request

import orjson
import pytest
from django.conf import settings
from rest_framework.test import APIClient

from api.fast import follower
from api.play.hub import hub as the_hub
from games.reads import feeds
from tests.servers import follower_in_a_thread

from .helpers import Player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (CI sets REDIS_URL)"),
]

#: Headers that differ between servers or responses by nature.
VARYING = {"date", "server", "content-length", "connection", "transfer-encoding"}


@pytest.fixture
def follower_url():
    with follower_in_a_thread() as address:
        yield f"http://{address}"


def fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=40) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                (response.read()),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def started_match() -> tuple[dict, list[Player]]:
    players = [Player() for _ in range(3)]
    match = players[0].create(game="fabfib", seats=3)
    for p in players[1:]:
        p.post(f"/api/matches/{match['id']}/join/")
    return players[0].view(match["id"]), players


def test_the_lean_answer_is_djangos_answer(follower_url):
    view, players = started_match()
    path = f"/api/matches/{view['id']}/events/?after=0"
    for who in (players[0], None):  # a player (their private parts) and a spectator
        auth = {"Authorization": f"Bearer {who.token}"} if who else {}
        status, headers, body = fetch(follower_url + path, **auth)
        django = (who.client if who else APIClient()).get(path)
        assert status == 200 == django.status_code
        assert orjson.loads(body) == django.json()
        expected = {k.lower(): v for k, v in django.items() if k.lower() not in VARYING}
        assert {k: v for k, v in headers.items() if k not in VARYING} == expected


@pytest.mark.parametrize(
    "overrides, sent",
    [
        ({}, {}),
        (  # behind a proxy that speaks HTTPS: HSTS, and every security header on
            {
                "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
                "SECURE_HSTS_SECONDS": 3600,
                "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
                "SECURE_HSTS_PRELOAD": True,
                "SECURE_REFERRER_POLICY": ["same-origin", "strict-origin"],
                "SECURE_CROSS_ORIGIN_OPENER_POLICY": "same-origin-allow-popups",
                "X_FRAME_OPTIONS": "SAMEORIGIN",
            },
            {"X-Forwarded-Proto": "https"},
        ),
        (  # the same proxy settings, a plain HTTP request: no HSTS
            {"SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https")},
            {"X-Forwarded-Proto": "http"},
        ),
        ({"CORS_URLS_REGEX": r"^/graphql/.*$"}, {}),  # events outside CORS: no Vary
        ({}, {"X-Request-ID": "req-42.a:b"}),  # the proxy's request id, echoed
        ({}, {"X-Request-ID": "not an id!"}),  # not one we take: only logged, as another
    ],
)
def test_every_header_of_the_fast_answer_is_djangos(follower_url, settings, overrides, sent):
    """The fast lane's follower adds its headers with Django's own middleware: for each of
    these settings, header for header what Django's view answers."""
    for name, value in overrides.items():
        setattr(settings, name, value)
    view, _players = started_match()
    path = f"/api/matches/{view['id']}/events/?after=0"
    status, headers, body = fetch(follower_url + path, **sent)
    meta = {"HTTP_" + k.upper().replace("-", "_"): v for k, v in sent.items()}
    django = APIClient().get(path, **meta)
    assert status == 200 == django.status_code
    assert orjson.loads(body) == django.json()
    expected = {k.lower(): v for k, v in django.items() if k.lower() not in VARYING}
    assert {k: v for k, v in headers.items() if k not in VARYING} == expected


def test_what_the_lean_path_does_not_do_goes_to_django(follower_url):
    view, players = started_match()
    base = f"{follower_url}/api/matches/{view['id']}/events/"
    # CORS, a HEAD, bad input, a bad token, a private match: all Django's.
    status, headers, _ = fetch(base, Origin="https://elsewhere.example")
    assert status == 200 and "access-control-allow-origin" not in headers
    request = urllib.request.Request(base, method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    for query, code in (
        ("?after=-1", 400),
        ("?wait=x", 400),
        ("?seat=9", 403),
        ("?n%00=1", 400),
        ("?after=0&limit=5", 400),
    ):
        status, _, body = fetch(base + query, Authorization=f"Bearer {players[0].token}")
        assert status == code and orjson.loads(body)["error"], (query, body)
    status, _, body = fetch(base, Authorization="Bearer nope")
    assert status == 401 and orjson.loads(body)["error"]["code"]
    private = players[0].create(game="fabfib", seats=3, visibility="private")
    status, _, body = fetch(f"{follower_url}/api/matches/{private['id']}/events/")
    assert status == 404 and orjson.loads(body)["error"]["code"] == "not_found"


def test_an_unknown_parameter_is_refused_as_django_refuses_it(follower_url):
    view, players = started_match()
    path = f"/api/matches/{view['id']}/events/?after=0&limit=5"
    auth = {"Authorization": f"Bearer {players[0].token}"}
    status, _, body = fetch(follower_url + path, **auth)
    django = players[0].client.get(path)
    assert status == 400 == django.status_code
    assert orjson.loads(body) == django.json()
    assert django.json()["error"]["fields"].keys() == {"limit"}


def test_waiters_asking_the_same_thing_share_one_read(monkeypatch):
    calls = []

    def slow_page(match_id, user, after, seat):
        calls.append(match_id)
        time.sleep(0.2)
        return {"events": [], "last_seq": after, "more": False, "version": 1, "status": "active"}

    monkeypatch.setattr(feeds, "read_feed", slow_page)

    async def many() -> list:
        reads = follower.Reads()
        same = [reads.page(("m", 3, None, None), "m", None, 3, None) for _ in range(50)]
        other = reads.page(("m", 2, None, None), "m", None, 2, None)
        return await asyncio.gather(*same, other)

    results = asyncio.run(many())
    assert len(calls) == 2 and len(results) == 51
    assert all(r[1] == results[0][1] for r in results[:50])


def test_many_spectators_are_woken_by_one_move(follower_url):
    view, players = started_match()
    url = f"{follower_url}/api/matches/{view['id']}/events/?after={view['last_seq']}&wait=20"
    results: list = []

    def follow() -> None:
        results.append(fetch(url))

    threads = [threading.Thread(target=follow) for _ in range(20)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    assert not results
    mover = next(p for p in players if p.view(view["id"])["legal_actions"])
    action = mover.view(view["id"])["legal_actions"][0]
    params = {name: domain["one_of"][0] for name, domain in action["params"].items()}
    assert mover.act(view["id"], {"type": action["type"], **params}).status_code == 200
    for t in threads:
        t.join(timeout=30)
    assert len(results) == 20
    seqs = {tuple(e["seq"] for e in orjson.loads(body)["events"]) for _s, _h, body in results}
    assert all(status == 200 for status, _h, _b in results) and len(seqs) == 1
    assert next(iter(seqs))[0] == view["last_seq"] + 1


def test_a_kept_read_answers_only_until_the_match_changes(monkeypatch):
    calls = []

    def page(match_id, user, after, seat):
        calls.append(after)
        return {"events": [], "last_seq": after, "more": False, "version": 1, "status": "active"}

    monkeypatch.setattr(feeds, "read_feed", page)
    monkeypatch.setattr(follower, "_user", lambda auth: None)
    hub = the_hub
    monkeypatch.setattr(hub, "connected", True)

    async def scenario() -> None:
        reads = follower.Reads()
        key = ("m", 3, None, None)
        with hub.listening("m"):
            await reads.page(key, "m", None, 3, None)
            await reads.page(key, "m", None, 3, None)  # nothing published: kept
            assert len(calls) == 1
            hub.wake("m")  # a change was published
            await reads.page(key, "m", None, 3, None)
            assert len(calls) == 2
            await reads.page(("m", 3, None, "Bearer t"), "m", "Bearer t", 3, None)
            await reads.page(("m", 3, None, "Bearer t"), "m", "Bearer t", 3, None)
            assert len(calls) == 4  # a token's question is never kept
        with hub.listening("m"):  # followed again later: a new stamp, nothing kept
            await reads.page(key, "m", None, 3, None)
            assert len(calls) == 5

    asyncio.run(scenario())
