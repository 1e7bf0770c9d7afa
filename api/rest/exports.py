"""Export my data over REST (docs/accounts.md): start a job, read its status, download the
document (streamed)."""

from __future__ import annotations

from collections.abc import Iterator

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import export
from api.play.exports import ExportIn, render_job
from api.play.fields import validate

from .openapi import exports as _components  # noqa: F401  (defines the components)
from .openapi import responses as r
from .openapi.extensions import component
from .parsers import LimitedJSONParser

TAG = "auth"
CHUNK = 64 * 1024
EXPORT_ID = OpenApiParameter(
    "export_id",
    OpenApiTypes.UUID,
    OpenApiParameter.PATH,
    description="An export id of yours; anything else: 404.",
)


def _base(request: Request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


class _ExportBase(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser]


class ExportView(_ExportBase):
    @extend_schema(
        tags=[TAG],
        operation_id="me_export_create",
        summary="Export my data",
        description="Starts writing a document of everything the server holds about you "
        "(profile, sign-ins, matches seen through your seats, statistics, ratings, "
        "notifications, queue, blocks, follows, challenges); follow it at the job's "
        f"`GET`. One at a time; kept {export.KEEP_DAYS} days. Takes no fields.",
        request=ExportIn,
        responses=r.answers(
            {202: component("ExportJobOut")},
            400,
            401,
            409,
            413,
            415,
            e409="An export of yours is already pending or running.",
        ),
    )
    def post(self, request: Request) -> Response:
        validate(ExportIn, request.data if request.body else {})
        job = export.export_request(user=request.user)
        return Response(render_job(job, _base(request)), status=status.HTTP_202_ACCEPTED)


class ExportStatusView(_ExportBase):
    @extend_schema(
        tags=[TAG],
        operation_id="me_export_retrieve",
        summary="An export of my data: its status, and where to download it once done",
        parameters=[EXPORT_ID],
        responses=r.answers({200: component("ExportJobOut")}, 401, 404),
    )
    def get(self, request: Request, export_id: str) -> Response:
        job = export.export_read(user=request.user, export_id=export_id)
        return Response(render_job(job, _base(request)))


class ExportDownloadView(_ExportBase):
    @extend_schema(
        tags=[TAG],
        operation_id="me_export_download",
        summary="Download an export of my data (the JSON document, streamed)",
        parameters=[EXPORT_ID],
        responses=r.answers(
            {200: component("ExportDocumentOut")},
            401,
            404,
            409,
            e409="The export is not done (pending, running or failed).",
        ),
    )
    def get(self, request: Request, export_id: str) -> StreamingHttpResponse:
        body = export.export_body(user=request.user, export_id=export_id)

        def chunks() -> Iterator[bytes]:
            data = body.encode()
            for start in range(0, len(data), CHUNK):
                yield data[start : start + CHUNK]

        response = StreamingHttpResponse(chunks(), content_type="application/json")
        name = f"fibserver-export-{export_id}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
