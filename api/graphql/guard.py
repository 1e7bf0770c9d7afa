"""Refusals before work: what a GraphQL document may be, checked before it is parsed and before
it is validated (the first schema extension; ``limits.py`` holds the limits that run with
validation).

graphql-core's validation is not linear: the rule that checks that fields of the same name can
be merged compares every pair of selections with the same response name (so 400 copies of
``me { id }``, under the token limit, took 0.84 s of a worker), and fragments multiply what it
compares. Parsing recurses once per level of nesting. So, in this order:

1. before parsing (a scan of the text, no recursion): at most ``MAX_NESTING`` levels of
   ``{``, ``(`` and ``[`` (``query_too_complex``);
2. after parsing, before validation (one walk of the document, fragments expanded, that stops
   as soon as a limit is passed):

   - the operation to run, as the GraphQL specification says: several operations need an
     ``operationName``, which must name one of them (``invalid``); a subscription runs only
     over the websocket (``invalid``);
   - every fragment spread names a fragment of the document, and none spreads itself
     (``invalid``);
   - no integer literal longer than 11 characters (a GraphQL ``Int`` has 32 bits; ``invalid``);
   - at most ``MAX_FIELDS`` field selections once fragments are expanded, and at most
     ``MAX_REPEATS`` selections of one response name in one selection set
     (``query_too_complex``): what keeps validation at most a few tens of milliseconds
     (docs/graphql.md gives the worst case measured).

Each refusal is a GraphQL error with ``extensions.code`` and nothing runs after it. The same
extension runs for HTTP and the websocket.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    Visitor,
    parse,
    visit,
)
from strawberry.extensions import SchemaExtension

from .errors import TOO_COMPLEX

#: Integer literals longer than this cannot be a GraphQL ``Int`` (-2147483648 is 11).
MAX_INT_CHARS = 11


def limit(name: str, default: int) -> int:
    return int(dict(settings.GRAPHQL).get(name, default))


def _refuse(message: str, code: str = "invalid", **details: Any) -> GraphQLError:
    return GraphQLError(message, extensions={"code": code, **details})


def nesting(text: str, most: int) -> int:
    """The deepest nesting of ``{``, ``(`` and ``[`` outside strings and comments, counting no
    further than ``most + 1``."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c == '"':
            if text.startswith('"""', i):
                end = text.find('"""', i + 3)
                while end > 0 and text[end - 1] == "\\":
                    end = text.find('"""', end + 3)
                i = n if end < 0 else end + 3
                continue
            i += 1
            while i < n and text[i] != '"' and text[i] != "\n":
                i += 2 if text[i] == "\\" else 1
        elif c in "{([":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > most:
                    return deepest
        elif c in "})]":
            depth -= 1
        i += 1
    return deepest


def chosen_operation(document: DocumentNode, operation_name: str | None) -> OperationDefinitionNode:
    """The operation to run, by the specification's rule (GetOperation)."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name is None:
        if len(operations) != 1:
            raise _refuse(
                "This document has several operations: say which to run with operationName."
                if operations
                else "This document has no operation."
            )
        return operations[0]
    for operation in operations:
        if operation.name is not None and operation.name.value == operation_name:
            return operation
    raise _refuse(f"This document has no operation named {operation_name!r}.")


class _Literals(Visitor):
    def enter_int_value(self, node: IntValueNode, *_: Any) -> None:
        if len(node.value) > MAX_INT_CHARS:
            raise _refuse(
                f"An integer of {len(node.value)} digits is not an Int (32 bits).",
            )


class _Budget:
    """Walks the operation with fragments expanded, counting fields and repeated response
    names, and stops at the first limit passed."""

    def __init__(self, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.fragments = fragments
        self.fields = 0
        self.max_fields = limit("MAX_FIELDS", 400)
        self.max_repeats = limit("MAX_REPEATS", 4)

    def walk(self, selections: SelectionSetNode, path: frozenset[str]) -> None:
        names: dict[str, int] = {}
        self._level(selections, path, names)

    def _level(
        self, selections: SelectionSetNode, path: frozenset[str], names: dict[str, int]
    ) -> None:
        for node in selections.selections:
            if isinstance(node, FieldNode):
                self.fields += 1
                if self.fields > self.max_fields:
                    raise _refuse(
                        f"The query selects more than {self.max_fields} fields (fragments "
                        "counted where they are spread).",
                        TOO_COMPLEX,
                    )
                key = (node.alias or node.name).value
                names[key] = names.get(key, 0) + 1
                if names[key] > self.max_repeats:
                    raise _refuse(
                        f"{key!r} is selected more than {self.max_repeats} times in one place.",
                        TOO_COMPLEX,
                    )
                if node.selection_set is not None:
                    self.walk(node.selection_set, path)
            elif isinstance(node, InlineFragmentNode):
                self._level(node.selection_set, path, names)  # merges into this level
            elif isinstance(node, FragmentSpreadNode):
                self.fields += 1  # a spread is work too (a fragment bomb spreads, no fields)
                if self.fields > self.max_fields:
                    raise _refuse(
                        f"The query selects more than {self.max_fields} fields and fragments.",
                        TOO_COMPLEX,
                    )
                name = node.name.value
                fragment = self.fragments.get(name)
                if fragment is None:
                    raise _refuse(f"Unknown fragment {name!r}.")
                if name in path:
                    raise _refuse(f"Fragment {name!r} spreads itself.")
                self._level(fragment.selection_set, path | {name}, names)


def check_document(document: DocumentNode, operation_name: str | None, websocket: bool) -> None:
    """Step 2 of the module's docstring; raises the refusal."""
    operation = chosen_operation(document, operation_name)
    if operation.operation is OperationType.SUBSCRIPTION and not websocket:
        raise _refuse(
            "Subscriptions run over the websocket (graphql-transport-ws on /graphql/), not "
            "over HTTP."
        )
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    visit(document, _Literals())
    budget = _Budget(fragments)
    budget.walk(operation.selection_set, frozenset())
    for definition in fragments.values():  # a fragment never spread is still validated
        budget.walk(definition.selection_set, frozenset({definition.name.value}))


class DocumentGuard(SchemaExtension):
    """The module's checks, before parsing and before validation.

    A refusal must reach the client as a GraphQL error on every path (HTTP, and the
    websocket's subscription stream, where an exception raised by an extension would only end
    the stream's task): the refused request's errors are set as its pre-execution errors and
    its document is replaced by a trivial one of an allowed kind, so Strawberry neither parses
    nor validates anything more and answers those errors."""

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        most = limit("MAX_NESTING", 32)
        if context.query and nesting(context.query, most) > most:
            self._refused(_refuse(f"The document nests deeper than {most} levels.", TOO_COMPLEX))
        yield
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            websocket = bool(getattr(context.context, "websocket", False))
            # What the request named (``operation_name`` falls back to the first operation).
            named = getattr(context, "_provided_operation_name", context.operation_name)
            try:
                check_document(document, named, websocket)
            except GraphQLError as error:
                self._refused(error)

    def _refused(self, error: GraphQLError) -> None:
        context = self.execution_context
        allowed = [kind.value for kind in context.allowed_operations]
        kind = "query" if "query" in allowed else allowed[0]
        context.pre_execution_errors = [error]
        context.graphql_document = parse(f"{kind} {{ __typename }}")
        context._provided_operation_name = None  # the trivial document's one operation
