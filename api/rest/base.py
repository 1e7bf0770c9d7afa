"""What the REST views share: the JSON parser, pagination, the caller."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.play.fields import validate
from api.play.queries import PageQuery, plain
from games.access import Caller

from .parsers import LimitedJSONParser


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


def user_or_none(request: Request) -> Caller:
    return request.user if request.user and request.user.is_authenticated else None


def paginated(
    request: Request, view: APIView, items: Any, render: Callable[[Any], Any] | None = None
) -> Response:
    """A page of ``items`` (``?limit=&offset=``, checked as documented)."""
    validate(PageQuery, plain(request.query_params))
    paginator = Pagination()
    page = paginator.paginate_queryset(items, request, view=view)
    assert page is not None
    return paginator.get_paginated_response([render(i) for i in page] if render else page)


class MatchBase(APIView):
    parser_classes = [LimitedJSONParser]
