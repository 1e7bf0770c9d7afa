"""The schema of ``DELETE /api/me/``, the one operation whose DELETE reads a body (the
confirmation): drf-spectacular documents request bodies of PUT, PATCH and POST only."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema


class DeleteWithBodySchema(AutoSchema):
    """Documents a DELETE's declared ``request=`` body as it does a POST's."""

    def _get_request_body(self, direction: str = "request") -> Any:
        if self.method != "DELETE":
            return super()._get_request_body(direction)
        self.method = "POST"
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"
