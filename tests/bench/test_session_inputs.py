"""bench/session_inputs.py times what it says: the e2e rig's hands as session inputs, each
hand played out (blinds, the deal, the button's call, a fold) so no input is a refusal."""

from __future__ import annotations

from pokertable.bench.session_inputs import cold_by_kind_us, cold_us, per_input_us, timed_pairs
from pokertable.controller.table.inputs import CardDetected, ChipsMoved
from pokertable.controller.table.session import apply


def test_the_timed_inputs_are_the_deal_and_a_call_each_decided_without_an_alert() -> None:
    pairs = timed_pairs(2)
    assert [type(i) for _, i in pairs] == [CardDetected] * 4 + [ChipsMoved] + (
        [CardDetected] * 4 + [ChipsMoved])
    for session, item in pairs:
        after, outputs = apply(session, item)
        assert after.alerts == ()
        rulings = [r for o in outputs for r in o.payload.get("rulings", ())]
        assert {r["kind"] for r in rulings} <= {"accepted"}
    call_session, call = pairs[4]
    after, _ = apply(call_session, call)
    assert isinstance(call, ChipsMoved) and call.seat is not None and after.hand is not None
    assert after.hand.seat(call.seat).bet == 200  # the button completed to the big blind
    assert set(per_input_us(pairs, 1)) == {"apply", "state", "both"}


def test_the_cold_mode_times_each_step_of_an_input() -> None:
    figures = cold_us(timed_pairs(1), 1)
    assert set(figures) == {"apply", "state", "compare", "encode"}
    assert all(us > 0 for us in figures.values())


def test_the_cold_mode_parts_the_dealt_cards_from_the_call_chips() -> None:
    figures = cold_by_kind_us(timed_pairs(1), 1)
    assert set(figures) == {"card", "chips"}
    assert all(set(by_step) == {"apply", "state", "compare", "encode"}
               for by_step in figures.values())
