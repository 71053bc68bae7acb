"""How the table says things: events, alerts, replies and floor calls as ``Output`` records.

Every part of the session (hand routing, console words, room commands) builds its
outputs here, so the parts never import each other for that.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import (
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.table.inputs import (
    RoomCommand,
)
from pokertable.controller.table.state import Channel, Output, PendingAlert, TableSession


def warn(
    out: list[Output],
    session: TableSession,
    concept: str,
    text: str,
    code: str,
    at_ms: int,
    seat: int | None = None,
) -> None:
    """Tell the dealer something is off, citing the rule concept (an ALERT, no decision)."""
    ruling = Ruling(
        RulingKind.ALERT, (session.config.rules.cite(concept),), text, seat=seat, code=code
    )
    alert_out(out, session, ruling, at_ms)


def alert_out(
    out: list[Output], session: TableSession, ruling: Ruling, at_ms: int, kind: str | None = None
) -> None:
    out.append(event_out(session, kind or ruling.code or "alert", (ruling,), {}, at_ms))


def event_out(
    session: TableSession, kind: str, rulings: tuple[Ruling, ...], data: dict[str, Any], at_ms: int
) -> Output:
    public: list[dict[str, Any]] = []
    for r in rulings:
        said: dict[str, Any] = {
            "rule_ids": list(r.rule_ids),
            "kind": _public_kind(r.kind),
            "seat": r.seat,
            "text": r.text[:500],
        }
        alert_id = alert_id_of(session, r) if r.kind is RulingKind.FLOOR else None
        if alert_id is not None:
            said["alert_id"] = alert_id  # what the director answers with floor_decision
        public.append(said)
    hand_id = session.hand.hand_id if session.hand is not None else None
    return Output(
        Channel.EVENT,
        {"hand_id": hand_id, "kind": kind, "rulings": public, "data": data, "ts_ms": at_ms},
    )


def _public_kind(kind: RulingKind) -> str:
    # The public schema has no "rejected"/"info": a refused action is an alert to the dealer,
    # an automatic step is accepted play.
    return {RulingKind.REJECTED: "alert", RulingKind.INFO: "accepted"}.get(kind, str(kind))


def raise_floor(
    session: TableSession, ruling: Ruling, out: list[Output], at_ms: int
) -> TableSession:
    """Park a FLOOR ruling as a pending alert under its one id (see ``PendingAlert``)."""
    hand_id = session.hand.hand_id if session.hand is not None else None
    held = session.pending.floor(ruling.code)
    if held is not None:  # the interpretation layer numbered it already
        kind = held.topic or "bet_ruling"
        pending = PendingAlert(held.ruling_id, ruling, hand_id, kind, interpretation=True)
        return evolve(session, alerts=(*session.alerts, pending))
    number = session.pending.next_floor
    alert_id = f"{hand_id or session.config.table}/F{number}"
    pending = PendingAlert(alert_id, ruling, hand_id, ruling.code or "floor")
    return evolve(
        session,
        alerts=(*session.alerts, pending),
        pending=evolve(session.pending, next_floor=number + 1),
    )


def alert_id_of(session: TableSession, ruling: Ruling) -> str | None:
    return next((a.id for a in session.alerts if a.ruling is ruling), None)


def reply(
    session: TableSession,
    cmd: RoomCommand,
    out: list[Output],
    ok: bool,
    error: str | None = None,
    field_name: str | None = None,
) -> None:
    payload: dict[str, Any] = {
        "request_id": cmd.request_id,
        "ok": ok,
        "command": cmd.command,
        "ts_ms": cmd.at_ms,
    }
    if error is not None:
        payload["error"] = error[:500]
    if field_name is not None:
        payload["field"] = field_name
    out.append(Output(Channel.REPLY, payload))
