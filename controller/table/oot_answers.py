"""The floor's answer to an R53-B bound action whose action then changed (``oot_void``).

The irregularities layer offers the seat's options as of now: ``fold``, ``check`` or
``call N``, a bet or raise range ``raise to A..B``, and, when the bound out-of-turn action
was a bet or raise that is still legal, that action itself (``raise to 800``: it stands).
The director answers with one of them, or names an amount in the range (``raise to 1200``);
the answer is the seat's action and the hand goes on from it.

>>> options = ("fold", "call 600", "raise to 1000..9900", "raise to 1200")
>>> answer_action(options, 4, "raise to 1500", 0).amount
1500
>>> answer_action(options, 4, "raise to 900", 0)
'raise to 900 is outside the offered range raise to 1000..9900'
"""

from __future__ import annotations

from pokertable.controller.engine.events import ActionKind, PlayerAction

_PASSIVE = {"fold": ActionKind.FOLD, "check": ActionKind.CHECK, "call": ActionKind.CALL}
_AGGRESSIVE = {"bet": ActionKind.BET, "raise": ActionKind.RAISE}


def answer_action(
    options: tuple[str, ...], seat: int, decision: str, at_ms: int
) -> PlayerAction | str:
    """The seat's action the floor chose, or why ``decision`` is not one of ``options``."""
    words = decision.split()
    if not words or words[0] not in _PASSIVE | _AGGRESSIVE:
        return f"decision must be one of {list(options)} or a bet/raise 'to N' in the range"
    word = words[0]
    if word in _PASSIVE:
        if decision not in options:
            return f"decision must be one of {list(options)}"
        return PlayerAction(seat, _PASSIVE[word], at_ms=at_ms)
    bounds = _range(options, word)
    if bounds is None:
        return f"{word} is not among the options {list(options)}"
    low, high = bounds
    if len(words) != 3 or words[1] != "to" or not words[2].isdigit():
        return f"name the amount: '{word} to N' with {low} <= N <= {high}"
    amount = int(words[2])
    if not low <= amount <= high:
        return f"{decision} is outside the offered range {word} to {low}..{high}"
    return PlayerAction(seat, _AGGRESSIVE[word], amount, at_ms)


def _range(options: tuple[str, ...], word: str) -> tuple[int, int] | None:
    """(A, B) of the ``<word> to A..B`` option, if offered."""
    for option in options:
        head, _, span = option.partition(" to ")
        low, dots, high = span.partition("..")
        if head == word and dots and low.isdigit() and high.isdigit():
            return int(low), int(high)
    return None
