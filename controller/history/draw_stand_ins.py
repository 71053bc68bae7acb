"""Stand-in cards for a draw game's public history, so that our own replay plays it.

A public PHH of a draw hand (the table's ``hand_complete`` event, an archive without the
secure lane) writes what nobody saw as ``??``: each deal (``d dh p1 ??????????``), each
discard (``p1 sd ????``) and each draw (``d dh p1 ????``); only the hands tabled at the
showdown (``p2 sm 8h6c5d4s2c``) are known. The engine plays a draw only with the cards
themselves: a player discards what he holds and shows what he drew. So, for each player
whose cards are all unknown, a history of cards is built backwards from his last hand
(the tabled one, else cards the history names nowhere): each draw's new cards are taken
from the hand after it, its discards are unnamed cards, and what remains is his deal.
The chips and the pots are the history's; the unknown cards never play.

    >>> list(draw_stand_ins(("d dh p1 ????", "d dh p2 ????", "p1 sd ??", "p2 sd",
    ...     "d dh p1 ??", "p1 sm 2c3d", "p2 sm 4h5s"), 4, "2c3d4h5s6c7d"))
    ['d dh p1 2c6c', 'd dh p2 4h5s', 'p1 sd 6c', 'p2 sd', 'd dh p1 3d', 'p1 sm 2c3d', 'p2 sm 4h5s']
"""

from __future__ import annotations

from collections.abc import Iterator

from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.history.phh import PhhError


def draw_stand_ins(actions: tuple[str, ...], hole_cards: int,
                   deck: str | None = None) -> tuple[str, ...]:
    """``actions`` with every fully unknown player's cards replaced by stand-ins; a player
    with any known card of his own is left as written. ``deck``: the unnamed cards to
    take, in order (by default every card the history names nowhere, sorted)."""
    words = [_words(a) for a in actions]
    named = {a[i:i + 2] for a in actions for i in range(len(a) - 1)}
    if deck is None:
        pool = iter(sorted(STANDARD_DECK - named))
    else:
        pool = iter(deck[i:i + 2] for i in range(0, len(deck), 2) if deck[i:i + 2] not in named)
    out = list(actions)
    for player in _masked_players(words):
        for index, cards in _history(words, player, hole_cards, pool).items():
            head = words[index][:-1] if words[index][-1].startswith("??") else words[index]
            out[index] = " ".join([*head, cards]) if cards else " ".join(head)
    return tuple(out)


def _words(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _cards_of(words: list[str], player: str) -> str | None:
    """The cards of ``player``'s own deal, discard or tabled hand in this action."""
    if words[:3] == ["d", "dh", player] and len(words) == 4:
        return words[3]
    if len(words) >= 2 and words[0] == player and words[1] in ("sd", "sm"):
        return words[2] if len(words) == 3 else ""
    return None


def _masked_players(words: list[list[str]]) -> list[str]:
    """Players whose deals and discards are all unknown (``??``)."""
    players = sorted({w[2] for w in words if w[:2] == ["d", "dh"] and len(w) == 4})
    masked = []
    for player in players:
        own = [w for w in words if _cards_of(w, player) is not None and w[1] != "sm"]
        cards = "".join(_cards_of(w, player) or "" for w in own)
        if cards and set(cards) == {"?"}:
            masked.append(player)
    return masked


def _history(words: list[list[str]], player: str, hole_cards: int,
             pool: Iterator[str]) -> dict[int, str]:
    """Index -> stand-in cards of ``player``'s deal, discards and draws, built backwards
    from his last hand so that each discard is held and the tabled hand is what he drew."""
    def spare(count: int) -> list[str]:
        try:
            return [next(pool) for _ in range(count)]
        except StopIteration:
            raise PhhError(f"{player}'s unknown draws need more cards than the deck has "
                           "left unnamed (the hand reshuffled its discards): replay it "
                           "with the hole cards (the archive's export)") from None

    steps = [i for i, w in enumerate(words) if _cards_of(w, player) is not None]
    shown = next((words[i][2] for i in steps if words[i][1:2] == ["sm"]
                  and len(words[i]) == 3 and "?" not in words[i][2]), None)
    hand = ([shown[i:i + 2] for i in range(0, len(shown), 2)] if shown
            else spare(hole_cards))
    written: dict[int, str] = {}
    for index in reversed(steps):
        w = words[index]
        if w[0] == "d":  # his deal or a draw's new cards
            count = len(w[3]) // 2
            new, hand = hand[len(hand) - count:], hand[:len(hand) - count]
            written[index] = "".join(new)
        elif w[1] == "sd":  # a discard: cards he held before the draw
            thrown = spare(len(w[2]) // 2 if len(w) == 3 else 0)
            hand = hand + thrown
            written[index] = "".join(thrown)
    if hand:
        raise PhhError(f"{player}'s deal and draws do not add up to his hand")
    return written
