"""Export my data over GraphQL: ``requestExport`` and ``export(id)``, the same service and
document as REST, the same error codes."""

from __future__ import annotations

import pytest

from accounts.models import DataExport
from tests.graphql.helpers import GqlPlayer

pytestmark = pytest.mark.django_db

REQUEST = "mutation { requestExport { id status created download } }"
READ = "query E($id: ID!) { export(id: $id) { id status size truncated download document } }"


def code(error: dict) -> str:
    return error["extensions"]["code"]


def test_an_export_is_requested_and_read_over_graphql(django_capture_on_commit_callbacks):
    alice, bob = GqlPlayer("Alice"), GqlPlayer("Bob")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        job = alice.data(REQUEST)["requestExport"]
    assert job["status"] == "pending" and job["download"] is None
    assert code(alice.error(REQUEST)) == "conflict"  # one at a time
    pending = alice.data(READ, id=job["id"])["export"]
    assert pending["status"] == "pending" and pending["document"] is None
    for callback in queued:
        callback()
    done = alice.data(READ, id=job["id"])["export"]
    assert done["status"] == "done" and done["download"].endswith("/download/")
    row = DataExport.objects.get(pk=job["id"])
    assert done["size"] == row.size and done["truncated"] is False
    assert done["document"]["profile"]["display_name"] == "Alice"
    rest = alice.client.get(
        f"/api/me/export/{job['id']}/download/", HTTP_AUTHORIZATION=f"Bearer {alice.token}"
    )
    assert b"".join(rest.streaming_content).decode() == row.body
    assert code(bob.error(READ, id=job["id"])) == "not_found"
    assert code(alice.error(READ, id="nope")) == "not_found"
    assert code(GqlPlayer(anonymous=True).error(REQUEST)) == "not_authenticated"
