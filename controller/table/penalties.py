"""Penalties the director gives (TDA 2024 Rules 70-71): warnings, missed hands or rounds,
disqualification, under the profile's ``penalties`` scheme.

A player on a missed-hand penalty is away from the table for exactly that many hands: each
hand he is dealt in, his blinds and antes are posted and his hand is killed after the
initial deal (R71-C, ``irregularities/presence.py``). A missed round is one hand for every
player at the table when the penalty is given, offender included (R71-A). A hand re-dealt
after a misdeal counts once (R35-C). The penalty starts with the next hand (R68: "any
penalty begins at the end of the hand"). TDA 2011 R50 allows a one-hand penalty or one to
four rounds; ACE League sits nobody out (warnings, talks, removal): such a penalty is
refused with the profile's reason.
"""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import PenaltyScheme
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.outputs import event_out, reply
from pokertable.controller.table.state import Output, TableSession

SIT_OUT = ("missed_hands", "missed_rounds")


def _refusal(scheme: PenaltyScheme, kind: str, count: int) -> str | None:
    """Why the profile does not allow this penalty, or None."""
    if kind not in SIT_OUT:
        return None
    if scheme is PenaltyScheme.NO_SIT_OUT:
        return "this profile gives no missed-hand or missed-round penalties (penalties=no_sit_out)"
    if scheme is PenaltyScheme.TDA2011_HAND_OR_ROUNDS:
        if kind == "missed_hands" and count != 1:
            return "TDA 2011 R50: a missed-hand penalty is one hand; longer ones are rounds"
        if kind == "missed_rounds" and not 1 <= count <= 4:
            return "TDA 2011 R50: 1, 2, 3 or 4 rounds"
    return None


def record_penalty(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    """The director's ``penalty``: always an event with its rule ids; a sit-out is kept."""
    p = cmd.payload
    seat, kind = int(p["seat"]), str(p["penalty"])
    count = int(p.get("count") or 1)
    rules = session.config.rules
    if session.table.occupied(seat) is None:
        reply(session, cmd, out, False, f"seat {seat} is empty", "seat")
        return session
    why = _refusal(rules.penalties, kind, count)
    if why is not None:
        reply(session, cmd, out, False, f"{rules.rule_id('penalty_hand')}: {why}", "penalty")
        return session
    hands = 0
    if kind == "missed_hands":
        hands = count
    elif kind == "missed_rounds":  # R71-A: one hand per player at the table, times rounds
        hands = count * sum(1 for s in session.table.seats if s.stack > 0)
    reply(session, cmd, out, True)
    cited = tuple(str(r) for r in p["rule_ids"])
    text = f"penalty for seat {seat}: {kind.replace('_', ' ')}"
    if hands:
        text += (
            f": away for the next {hands} hands, dealt in with blinds and antes posted "
            f"and the hand killed ({rules.rule_id('penalty_hand')})"
        )
    hand = session.hand
    playing = hand is not None and hand.phase is not Phase.COMPLETE and hand.has_seat(seat)
    if kind == "disqualification":
        text += (
            f": chips removed from play {'when this hand ends' if playing else 'now'} "
            f"({rules.rule_id('disqualified_chips')})"
        )
    data = {"seat": seat, "penalty": kind, "count": p.get("count"), "hands": hands}
    ruling = Ruling(RulingKind.BINDING, cited, text, seat=seat, code="penalty")
    out.append(event_out(session, "penalty", (ruling,), data, cmd.at_ms))
    if kind == "disqualification":
        session = evolve(session, disqualified=(*session.disqualified, seat))
        return session if playing else remove_disqualified(session, out, cmd.at_ms)
    if not hands:
        return session
    kept = tuple(e for e in session.penalties if e[0] != seat)
    return evolve(session, penalties=tuple(sorted((*kept, (seat, hands, cited)))))


def remove_disqualified(session: TableSession, out: list[Output], at_ms: int) -> TableSession:
    """R71-D: a disqualified player's chips leave play, and the player leaves the seat. Chips
    he put in the pot of the hand he was in stay there (the removal waits for its end). The
    event names the amount, which the director records as an adjustment of the room's
    chip audit (``room/chipcounts.py``)."""
    rules = session.config.rules
    table = session.table
    for seat in session.disqualified:
        occupant = table.occupied(seat)
        if occupant is None:
            continue
        table, removed = table.unseat_player(seat, occupant.player)
        text = f"seat {seat} ({occupant.player}) disqualified: {removed} chips removed from play"
        ruling = Ruling(
            RulingKind.BINDING, (rules.cite("disqualified_chips"),), text, seat=seat,
            code="chips_removed",
        )
        data = {"seat": seat, "player": occupant.player, "removed": removed}
        out.append(event_out(session, "chips_removed", (ruling,), data, at_ms))
    gone = set(session.disqualified)
    return evolve(
        session,
        table=table,
        disqualified=(),
        absent=session.absent - gone,
        penalties=tuple(e for e in session.penalties if e[0] not in gone),
    )


def on_penalty(session: TableSession) -> frozenset[int]:
    """Seats that sit out the hand about to start (dealt in and killed, R71-C)."""
    return frozenset(
        seat
        for seat, left, _ in session.penalties
        if left > 0 and session.table.occupied(seat) is not None
    )


def penalty_hand_dealt(session: TableSession) -> TableSession:
    """A new hand started (not a re-deal): one penalty hand served by every seat dealt in.

    Entries whose last hand this is stay until the next hand starts, so the state shows the
    seat on penalty while it sits out that hand.
    """
    hand = session.hand
    if hand is None:
        return session
    kept = []
    for seat, left, cited in session.penalties:
        if left == 0 or session.table.occupied(seat) is None:
            continue  # served, or the player is gone
        kept.append((seat, left - 1 if hand.has_seat(seat) else left, cited))
    return evolve(session, penalties=tuple(kept))


def penalties_json(session: TableSession) -> list[dict[str, object]]:
    """The public state's ``penalties``: seats away on penalty and hands still to sit out."""
    sitting = session.tracked.on_penalty if session.tracked is not None else frozenset()
    return [
        {"seat": seat, "hands_left": left, "rule_ids": list(cited)}
        for seat, left, cited in session.penalties
        if left > 0 or seat in sitting
    ]
