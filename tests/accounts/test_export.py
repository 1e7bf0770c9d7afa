"""Export my data (``/api/me/export/``): the job's status flow, one job at a time, other
players' jobs unseen, bad input, the purge, the size cap, and the document against what the
API shows the player."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import deletion, export, export_document, tasks
from accounts.models import DataExport
from tests.api.helpers import Player, assert_error, play_to_the_end

pytestmark = pytest.mark.django_db


def start(player: Player, capture) -> dict:
    with capture(execute=True):
        response = player.post("/api/me/export/")
    assert response.status_code == 202, response.content
    return response.json()


def document(player: Player, job: dict) -> dict:
    response = player.get(f"/api/me/export/{job['id']}/download/")
    assert response.status_code == 200, response.content
    assert response.streaming
    assert response["Content-Type"] == "application/json"
    return json.loads(b"".join(response.streaming_content))


def test_an_export_runs_from_pending_to_done_and_is_downloaded(django_capture_on_commit_callbacks):
    alice = Player("Alice")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = alice.post("/api/me/export/")
    assert response.status_code == 202, response.content
    job = response.json()
    assert job["status"] == "pending" and job["download"] is None and job["size"] == 0
    assert set(job) == {"id", "status", "created", "finished", "size", "truncated", "download"}
    status = alice.get(f"/api/me/export/{job['id']}/").json()
    assert status["status"] == "pending"
    assert_error(alice.get(f"/api/me/export/{job['id']}/download/"), 409, "conflict")
    assert_error(alice.post("/api/me/export/"), 409, "conflict")  # one at a time
    for callback in queued:
        callback()  # the task runs
    done = alice.get(f"/api/me/export/{job['id']}/").json()
    assert done["status"] == "done" and done["finished"] is not None
    assert done["download"].endswith(f"/api/me/export/{job['id']}/download/")
    doc = document(alice, job)
    assert done["size"] == len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode())
    assert doc["profile"]["display_name"] == "Alice" and doc["truncated"] is False
    # done: a new one may be requested
    again = start(alice, django_capture_on_commit_callbacks)
    assert again["id"] != job["id"]
    assert tasks.build_export(job["id"]) is False  # a task delivered twice writes once


def test_a_stuck_job_does_not_block_the_next(django_capture_on_commit_callbacks):
    alice = Player()
    with django_capture_on_commit_callbacks(execute=False):
        first = alice.post("/api/me/export/").json()
    old = timezone.now() - timedelta(minutes=export.STALE_MINUTES + 1)
    DataExport.objects.filter(pk=first["id"]).update(created_at=old)
    second = start(alice, django_capture_on_commit_callbacks)
    assert alice.get(f"/api/me/export/{first['id']}/").json()["status"] == "failed"
    assert alice.get(f"/api/me/export/{second['id']}/").json()["status"] == "done"


def test_another_players_job_and_nonsense_ids_are_404(django_capture_on_commit_callbacks):
    alice, bob = Player(), Player()
    job = start(alice, django_capture_on_commit_callbacks)
    for path in ("", "download/"):
        assert_error(bob.get(f"/api/me/export/{job['id']}/{path}"), 404, "not_found")
        for bad in ("nope", "1", "00000000-0000-0000-0000-000000000000", "%E2%98%83", "x" * 300):
            assert_error(alice.get(f"/api/me/export/{bad}/{path}"), 404, "not_found")
    assert_error(APIClient().post("/api/me/export/"), 401)
    assert_error(APIClient().get(f"/api/me/export/{job['id']}/"), 401)


def test_bad_input_is_refused_with_the_error_shape_and_changes_nothing():
    alice = Player()
    for body in ({"x": 1}, [1], "text", 3):
        assert_error(alice.post("/api/me/export/", body), 400)
    bad = alice.client.post("/api/me/export/", "{not json", content_type="application/json")
    assert_error(bad, 400, "malformed_request")
    plain = alice.client.post("/api/me/export/", "a=1", content_type="text/plain")
    assert_error(plain, 415)
    assert_error(alice.client.put("/api/me/export/"), 405)
    assert not DataExport.objects.exists()


def test_the_purge_deletes_jobs_older_than_seven_days(django_capture_on_commit_callbacks):
    alice = Player()
    old, new = (start(alice, django_capture_on_commit_callbacks) for _ in range(2))
    created = timezone.now() - timedelta(days=export.KEEP_DAYS, minutes=1)
    DataExport.objects.filter(pk=old["id"]).update(created_at=created)
    tasks.purge()
    assert list(DataExport.objects.values_list("pk", flat=True)) == [
        DataExport.objects.get(pk=new["id"]).pk
    ]
    assert_error(alice.get(f"/api/me/export/{old['id']}/"), 404, "not_found")


def test_the_jobs_are_deleted_with_the_account(django_capture_on_commit_callbacks):
    alice = Player()
    start(alice, django_capture_on_commit_callbacks)
    deletion.account_delete(user=alice.user)
    assert not DataExport.objects.exists()


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
def test_the_cap_leaves_out_the_oldest_matches_and_says_so(
    django_capture_on_commit_callbacks, monkeypatch
):
    rng = random.Random(3)
    alice, bob = Player(), Player()
    for _ in range(3):
        match = alice.create(game="fibber", seats=2)
        bob.post(f"/api/matches/{match['id']}/join/")
        play_to_the_end(match["id"], [alice, bob], rng)
    full = document(alice, start(alice, django_capture_on_commit_callbacks))
    assert len(full["matches"]) == 3 and full["omitted_matches"] == 0
    sizes = [len(export_document.dumps(m).encode()) for m in full["matches"]]
    whole = len(export_document.dumps(full).encode())
    monkeypatch.setattr(export_document, "MAX_BYTES", whole - sizes[-1] // 2)
    cut = document(alice, start(alice, django_capture_on_commit_callbacks))
    assert cut["truncated"] is True and cut["omitted_matches"] == 1
    assert [m["match"] for m in cut["matches"]] == [m["match"] for m in full["matches"][:2]]
    assert DataExport.objects.filter(truncated=True).count() == 1
