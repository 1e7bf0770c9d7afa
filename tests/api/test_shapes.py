"""An answer declared once (``kernel.shapes``, e.g. ``matchmaking.reads.TICKET``) is what the
reader fills, what the OpenAPI component documents and what the GraphQL type offers, field for
field and in the same order; a field added to the declaration appears in both faces."""

from __future__ import annotations

import pytest
from strawberry.types.base import get_object_definition

from accounts.services import guest_create
from api.graphql import queue_types
from api.graphql.shapes import strawberry_type
from api.rest.openapi.shapes import property_of
from kernel.shapes import Field, Shape
from matchmaking import reads
from matchmaking.services import ticket_create
from notifications import reads as reads_n
from tests.api.openapi_validation import document


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def test_the_ticket_component_is_the_declaration():
    component = document()["components"]["schemas"]["TicketOut"]
    assert list(component["properties"]) == reads.TICKET.names()
    assert component["required"] == reads.TICKET.names()
    assert component["description"] == reads.TICKET.about


def test_the_ticket_graphql_type_is_the_declaration():
    definition = get_object_definition(queue_types.Ticket, strict=True)
    assert [f.name for f in definition.fields] == reads.TICKET.names()
    assert [f.graphql_name or _camel(f.name) for f in definition.fields] == [
        _camel(n) for n in reads.TICKET.names()
    ]


@pytest.mark.django_db
def test_the_reader_fills_exactly_the_declared_fields():
    user = guest_create()[0]
    ticket = ticket_create(user=user, game="fibber", seats_min=2, seats_max=2)
    answer = reads.render_ticket(ticket)
    assert list(answer) == reads.TICKET.names()
    assert queue_types.Ticket.of(answer).status.value == "waiting"


def test_a_field_added_to_a_declaration_appears_in_both_faces():
    extra = Field("patience", "float", "Seconds it will still wait.", nullable=True, lo=0)
    assert property_of(extra, {}) == {
        "type": "number",
        "minimum": 0,
        "description": "Seconds it will still wait.",
        "nullable": True,
    }
    shape = Shape("ProbeOut", "Probe", "A probe.", (*reads.TICKET.fields, extra))
    probe = strawberry_type(shape, {"Game": str, "TicketStatus": str, "QueueTimeControl": str})
    fields = get_object_definition(probe, strict=True).fields
    assert fields[-1].name == "patience" and fields[-1].description == extra.about


def test_the_notification_component_and_type_are_the_declaration():
    from api.graphql import notification_types

    component = document()["components"]["schemas"]["NotificationOut"]
    assert list(component["properties"]) == reads_n.NOTIFICATION.names()
    definition = get_object_definition(notification_types.Notification, strict=True)
    assert [f.name for f in definition.fields] == [
        f.graphql_name or f.name for f in reads_n.NOTIFICATION.fields
    ]


@pytest.mark.django_db
def test_the_inbox_reader_fills_exactly_the_declared_fields():
    from api.graphql import notification_types
    from tests.notifications.helpers import table

    _match, users = table()
    rows = list(reads_n.inbox(user=users[0]))
    assert rows
    answer = reads_n.render(rows)[0]
    assert list(answer) == reads_n.NOTIFICATION.names()
    assert notification_types.Notification.of(answer).match_id == answer["match"]
