"""Named sessions in GraphQL (docs/accounts.md): your signed-in devices and signing one out,
through :mod:`accounts.sessions` as REST's ``/api/me/sessions/``. ``SessionQuery`` and
``SessionMutation`` are parts of the schema's root types (:mod:`.schema`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.types import Info

from accounts import sessions

from .context import context_of, require_user


@strawberry.type(description="A signed-in device of yours (REST `SessionOut`).")
class Session:
    id: strawberry.ID
    label: str = strawberry.field(description="The `device` given at sign-in, else its agent.")
    created: datetime
    last_used: datetime = strawberry.field(description="To within five minutes.")
    client_address: str | None
    current: bool = strawberry.field(description="The session making this call.")

    @classmethod
    def of(cls, row: dict[str, Any]) -> Session:
        return cls(
            id=strawberry.ID(row["id"]),
            label=row["label"],
            created=datetime.fromisoformat(row["created"]),
            last_used=datetime.fromisoformat(row["last_used"]),
            client_address=row["client_address"],
            current=row["current"],
        )


@strawberry.type
class SessionQuery:
    @strawberry.field(description="Your sessions, the most recently used first.")
    def sessions(self, info: Info) -> list[Session] | None:
        user = require_user(info)
        rows = sessions.listing(user=user, current=context_of(info).session)
        return [Session.of(row) for row in rows]


@strawberry.type
class SessionMutation:
    @strawberry.mutation(
        description="Sign one of your sessions out: its token stops working at once (REST "
        "`DELETE /api/me/sessions/{id}/`)."
    )
    def revoke_session(self, info: Info, id: strawberry.ID) -> bool | None:
        sessions.session_revoke(user=require_user(info), session_id=str(id))
        return True
