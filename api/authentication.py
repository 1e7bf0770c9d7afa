"""Token authentication: ``Authorization: Bearer <token>``.

DRF's own ``Authorization: Token <token>`` keeps working too (settings list both classes); the
token is the same DRF ``authtoken`` key either way.
"""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework.authentication import TokenAuthentication


class BearerTokenAuthentication(TokenAuthentication):
    keyword = "Bearer"


def token_user(request: Any) -> Any:
    """The user of the request's token, the same way as the REST views (``Bearer`` or DRF
    ``Token``), or ``None`` without one; a token that is not valid raises DRF's
    ``AuthenticationFailed``. ``request`` needs only ``META`` (the follower's plain Django
    requests, and the GraphQL websocket's ``connection_init`` payload)."""
    for scheme in (BearerTokenAuthentication(), TokenAuthentication()):
        found = scheme.authenticate(request)
        if found is not None:
            return found[0]
    return None


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """OpenAPI: document the Bearer scheme apart from DRF's ``Token`` scheme."""

    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"
    priority = 1

    def get_security_definition(self, auto_schema):  # type: ignore[no-untyped-def]
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.keyword
        )
