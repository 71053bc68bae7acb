"""Playing cards as two-character strings ("As", "Td") and the decks a game allows.

Cards stay plain strings in engine state so that state, events and journals serialise
without conversion; this module is the one place that knows what a valid card is.

>>> parse_cards("AsKd")
('As', 'Kd')
>>> parse_cards("As Kd Kd")
Traceback (most recent call last):
...
ValueError: duplicate card 'Kd' in 'As Kd Kd'
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs < diamonds < hearts < spades (a config matter: open question A20)
STANDARD_DECK: frozenset[str] = frozenset(r + s for r in RANKS for s in SUITS)


def is_card(text: str) -> bool:
    """True for a standard-deck card such as "As"."""
    return text in STANDARD_DECK


def parse_cards(text: str) -> tuple[str, ...]:
    """Parse concatenated or space-separated cards; rejects unknown and duplicate cards."""
    compact = "".join(text.split())
    if len(compact) % 2:
        raise ValueError(f"cannot split {text!r} into two-character cards")
    cards = tuple(compact[i : i + 2] for i in range(0, len(compact), 2))
    seen: set[str] = set()
    for card in cards:
        if card not in STANDARD_DECK:
            raise ValueError(f"unknown card {card!r} in {text!r}")
        if card in seen:
            raise ValueError(f"duplicate card {card!r} in {text!r}")
        seen.add(card)
    return cards
