"""Enrollment logic fed by snapshots (no port): stability windows and deck order."""

from __future__ import annotations

from pokertable.hardware.enroll import DECK_ORDER, ChipEnrollment, DeckEnrollment, store_chips
from pokertable.hardware.registry import TagRegistry


def uids(*ns: int) -> frozenset[str]:
    return frozenset(f"e0040200{n:08x}" for n in ns)


def test_deck_order_is_documented_new_deck_order() -> None:
    assert len(DECK_ORDER) == len(set(DECK_ORDER)) == 52
    assert DECK_ORDER[:3] == ("As", "2s", "3s")
    assert DECK_ORDER[12:14] == ("Ks", "Ad")  # a new deck: spades, diamonds, clubs, hearts
    assert DECK_ORDER[-1] == "Ah"


def test_chip_pile_is_taken_only_after_it_held_still() -> None:
    enrollment = ChipEnrollment(stable_ms=2000)
    assert enrollment.result(0) is None  # empty pad never completes
    enrollment.feed(uids(1, 2), 0)
    assert enrollment.result(1500) is None
    enrollment.feed(uids(1, 2, 3), 1500)  # more chips arrive: the window restarts
    assert enrollment.result(3000) is None
    enrollment.feed(uids(1, 2, 3), 3200)  # same set again does not restart it
    assert enrollment.result(3500) == uids(1, 2, 3)


def test_store_chips_skips_already_enrolled(registry: TagRegistry) -> None:
    registry.add_chip("e004020000000001", denomination=25)
    stored, known = store_chips(registry, uids(1, 2, 3), denomination=500, chip_set="club",
                                colour="purple")
    assert known == ["e004020000000001"]
    assert sorted(c.uid for c in stored) == sorted(uids(2, 3))
    chip = registry.lookup("e004020000000002")
    assert chip is not None and getattr(chip, "denomination", None) == 500


def test_deck_cards_one_at_a_time_in_order() -> None:
    deck = DeckEnrollment("red-1", stable_ms=300)
    t = 0
    for n in range(52):
        assert deck.feed(uids(n), t) is None  # just placed
        card = deck.feed(uids(n), t + 300)
        assert card is not None and card.code == DECK_ORDER[n] and card.deck_id == "red-1"
        assert deck.feed(uids(n), t + 600) is None  # still lying there: not taken twice
        deck.feed(frozenset(), t + 700)
        t += 1000
    assert deck.done and deck.next_card is None
    assert len({c.uid for c in deck.assigned}) == 52


def test_deck_refuses_two_cards_and_a_repeat() -> None:
    deck = DeckEnrollment("d", stable_ms=100)
    deck.feed(uids(1, 2), 0)
    assert deck.problem is not None and "one card at a time" in deck.problem
    assert deck.poll(500) is None
    deck.feed(frozenset(), 600)
    deck.feed(uids(1), 700)
    assert deck.poll(800) is not None
    deck.feed(frozenset(), 900)
    deck.feed(uids(1), 1000)  # the ace of spades again
    assert deck.poll(2000) is None
    assert deck.problem is not None and "already enrolled" in deck.problem
    assert deck.next_card == "2s"


def test_card_removal_in_the_same_batch_still_counts_the_time_it_lay_there() -> None:
    deck = DeckEnrollment("d", stable_ms=300)
    assert deck.feed(uids(7), 1000) is None
    card = deck.feed(frozenset(), 1400)  # removal seen before anyone polled in between
    assert card is not None and card.code == "As"
    deck2 = DeckEnrollment("d", stable_ms=300)
    deck2.feed(uids(7), 1000)
    assert deck2.feed(frozenset(), 1100) is None  # a brush past the pad is not a card
    assert deck2.next_card == "As"
