"""What a document may ask for, checked before any resolver runs (settings ``GRAPHQL``):

- ``MAX_TOKENS``: the parser stops past this many tokens (``query_too_large``);
- ``MAX_DEPTH``: fields nested deeper than this (``query_too_complex``);
- ``MAX_ALIASES``: aliases in one document (``query_too_complex``);
- ``MAX_COST``: the estimated number of values a document can produce (``query_too_complex``):
  every field counts once per time it can appear, so a field under a list counts once per list
  entry. A list's length is its ``first`` argument where it has one (a variable counts as
  ``MAX_PAGE``), else its bound in :data:`LIST_SIZES` (the longest that list can be), else
  :data:`DEFAULT_LIST_SIZE`. Introspection fields cost nothing (they are bounded by the
  schema, and switched off with ``INTROSPECTION``);
- ``INTROSPECTION``: whether ``__schema`` / ``__type`` may be asked at all.

Batching (a JSON list of operations) is off: the Strawberry default. Persisted queries are not
supported, so every document is checked in full.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    get_named_type,
)
from graphql.validation import NoSchemaIntrospectionCustomRule
from strawberry.extensions import (
    AddValidationRules,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    SchemaExtension,
)
from strawberry.extensions import QueryDepthLimiter as DepthLimiter
from strawberry.types.graphql import OperationType

from .context import Context
from .errors import TOO_COMPLEX

#: The longest a list field can be, by (type, field): seats at a table, recent events, etc.
LIST_SIZES: dict[tuple[str, str], int] = {
    ("MatchConnection", "edges"): 1,  # counted by `matches(first:)` itself
    ("MatchView", "seats"): 16,
    ("MatchSummary", "seats"): 16,
    ("MatchStats", "seats"): 16,
    ("MatchView", "events"): 20,
    ("EventsPage", "events"): 200,
    ("MatchView", "legalActions"): 20,
    ("Query", "myTurns"): 50,
    ("Leaderboard", "entries"): 1,  # counted by `leaderboard(first:)` itself
    ("Query", "myStats"): 4,  # one per game
    ("Player", "games"): 4,
    ("PlayerGameStats", "history"): 100,  # the latest rating points
    ("PlayerGameStats", "boards"): 5,
}
DEFAULT_LIST_SIZE = 10
#: ``matches`` without ``first``.
DEFAULT_PAGE = 50


def limits() -> dict[str, Any]:
    return dict(settings.GRAPHQL)


def document_cost(context: ValidationContext, selections: SelectionSetNode, parent: Any) -> int:
    """The cost of ``selections`` on type ``parent``, once (see the module's docstring)."""
    return _cost(context, selections, parent, 1, frozenset())


def _list_size(node: FieldNode, type_name: str, field_name: str, is_list: bool) -> int:
    for argument in node.arguments or ():
        if argument.name.value == "first":
            if isinstance(argument.value, IntValueNode):
                return max(0, int(argument.value.value))
            return int(limits()["MAX_PAGE"])  # a variable: the most it may be
    if (type_name, field_name) == ("Query", "matches"):
        return DEFAULT_PAGE
    return LIST_SIZES.get((type_name, field_name), DEFAULT_LIST_SIZE if is_list else 1)


def _cost(
    context: ValidationContext,
    selections: SelectionSetNode,
    parent: Any,
    times: int,
    seen: frozenset[str],
) -> int:
    total = 0
    schema = context.schema
    for node in selections.selections:
        if isinstance(node, FieldNode):
            name = node.name.value
            fields = getattr(parent, "fields", None)
            if name.startswith("__") or not fields or name not in fields:
                continue  # introspection, or an unknown field (another rule reports it)
            total += times
            if node.selection_set is None:
                continue
            kind = fields[name].type
            if isinstance(kind, GraphQLNonNull):
                kind = kind.of_type
            size = _list_size(node, parent.name, name, isinstance(kind, GraphQLList))
            inner = get_named_type(kind)
            total += _cost(context, node.selection_set, inner, times * size, seen)
        elif isinstance(node, InlineFragmentNode):
            condition = node.type_condition
            inner = schema.get_type(condition.name.value) if condition else parent
            total += _cost(context, node.selection_set, inner, times, seen)
        elif isinstance(node, FragmentSpreadNode):
            name = node.name.value
            fragment = context.get_fragment(name)
            if fragment is None or name in seen:
                continue  # unknown or cyclic: other rules report it
            inner = schema.get_type(fragment.type_condition.name.value)
            total += _cost(context, fragment.selection_set, inner, times, seen | {name})
    return total


class CostLimit(ValidationRule):
    """Refuse an operation whose :func:`document_cost` is over ``MAX_COST``."""

    def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> None:
        root = self.context.schema.get_root_type(node.operation)
        if not isinstance(root, GraphQLObjectType):
            return
        cost = document_cost(self.context, node.selection_set, root)
        most = int(limits()["MAX_COST"])
        if cost > most:
            self.report_error(
                GraphQLError(
                    f"The query would cost {cost}; at most {most} is allowed. Ask for fewer "
                    "fields or a smaller `first`.",
                    node,
                    extensions={"code": TOO_COMPLEX, "cost": cost, "max_cost": most},
                )
            )


class Introspection(AddValidationRules):
    """``__schema`` and ``__type`` only where ``GRAPHQL["INTROSPECTION"]`` allows them (read per
    operation, so the setting can change without rebuilding the schema)."""

    def __init__(self) -> None:
        super().__init__([])

    def on_operation(self) -> Any:
        self.validation_rules = (
            [] if limits()["INTROSPECTION"] else [NoSchemaIntrospectionCustomRule]
        )
        yield from super().on_operation()


class SubscriptionsOnly(SchemaExtension):
    """Over a websocket, only subscriptions: queries and mutations belong to the API workers."""

    def on_execute(self) -> Iterator[None]:
        context = self.execution_context.context
        if (
            isinstance(context, Context)
            and context.websocket
            and self.execution_context.operation_type is not OperationType.SUBSCRIPTION
        ):
            raise GraphQLError(
                "Only subscriptions run over the websocket; send queries and mutations to "
                "/graphql/ over HTTP.",
                extensions={"code": "invalid"},
            )
        yield


def extensions() -> list[Any]:
    """The schema extensions that enforce the limits: made for each operation, so they read the
    settings as they are then."""
    from .guard import DocumentGuard

    return [
        DocumentGuard,
        lambda: MaxTokensLimiter(max_token_count=int(limits()["MAX_TOKENS"])),
        lambda: DepthLimiter(max_depth=int(limits()["MAX_DEPTH"])),
        lambda: MaxAliasesLimiter(max_alias_count=int(limits()["MAX_ALIASES"])),
        lambda: AddValidationRules([CostLimit]),
        Introspection,
        SubscriptionsOnly,
    ]
