"""R37 at the live table: the button dealt one card short who acts anyway has a dead hand,
and the table carries on (issue #26: an input must never raise out of the session)."""

from __future__ import annotations

from tests.app.rules_table import RulesTable


def test_R37_short_button_who_acts_is_dead_and_the_next_chips_are_read() -> None:
    """Seat 3 (the button) gets one card of two; he calls preflop: his hand is dead
    (R37) with no action recorded for him. The small blind's chips that follow are read
    as his call: the interpretation layer's street log holds only recorded actions (it
    used to take the dead call for one and raise IndexError on the next chips)."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    for seat, card in ((1, "As"), (2, "Kd"), (3, "Qc"), (1, "Ah"), (2, "Kh")):
        table.card(f"seat{seat}.cards", card)
    table.press("check_call")  # the button, one card in front of him
    assert "button_short_dead" in table.alert_codes()
    assert table.hand.seat(3).in_hand is False
    table.push(1, 100, 100)  # the small blind's zone, first read: his 100 and 100 more
    assert table.hand.seat(1).bet == 200
    assert table.hand.action_on == 2
    assert len([a for a in table.hand.actions if a.seat == 1]) == 1
