"""Export my data in GraphQL (docs/accounts.md): the same service and renderer as REST
(:mod:`accounts.export`, :mod:`api.play.exports`). ``ExportQuery`` and ``ExportMutation`` are
parts of the schema's root types (:mod:`.schema`)."""

from __future__ import annotations

import json
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from accounts import export
from accounts.models import DataExport as ExportRow
from api.play.exports import render_job

from .context import require_user
from .types import _value, _when


@strawberry.enum(description="Where an export of your data is.")
class ExportStatus(Enum):
    PENDING = _value("pending")
    RUNNING = _value("running")
    DONE = _value("done")
    FAILED = _value("failed")


@strawberry.type(
    description="An export of your data (REST `ExportJobOut`); kept 7 days. `document` once "
    "`done` (REST `ExportDocumentOut`)."
)
class DataExport:
    id: strawberry.ID
    status: ExportStatus
    created: datetime
    finished: datetime | None
    size: int = strawberry.field(description="The document's size in bytes (0 until done).")
    truncated: bool = strawberry.field(
        description="Whether matches were left out to keep the document under the cap."
    )
    download: str | None = strawberry.field(
        description="The REST path that streams the document, once done."
    )
    owner: strawberry.Private[Any]

    @strawberry.field(description="The document (JSON), once done; else null.")
    def document(self) -> JSON | None:
        if self.status is not ExportStatus.DONE:
            return None
        body = export.export_body(user=self.owner, export_id=self.id)
        return JSON(json.loads(body))

    @classmethod
    def of(cls, job: ExportRow, user: Any) -> DataExport:
        d = render_job(job)
        return cls(
            id=strawberry.ID(d["id"]),
            status=ExportStatus(d["status"]),
            created=job.created_at,
            finished=_when(d["finished"]),
            size=d["size"],
            truncated=d["truncated"],
            download=d["download"],
            owner=user,
        )


@strawberry.type
class ExportQuery:
    @strawberry.field(
        description="An export of your data (REST `GET /api/me/export/{id}/`); another "
        "player's or none: `not_found`."
    )
    def export(self, info: Info, id: strawberry.ID) -> DataExport | None:
        user = require_user(info)
        return DataExport.of(export.export_read(user=user, export_id=id), user)


@strawberry.type
class ExportMutation:
    @strawberry.mutation(
        description="Start an export of your data (REST `POST /api/me/export/`); one at a "
        "time (`conflict` while one is pending or running)."
    )
    def request_export(self, info: Info) -> DataExport | None:
        user = require_user(info)
        return DataExport.of(export.export_request(user=user), user)
