"""What the PokerKit corpora share: the game set-up, playing a random action, and reading
PokerKit's record of a hand into the pots the TDA rules build.

``phh_corpus`` (hold'em, Omaha), ``phh_corpus_hilo`` (Omaha hi-lo) and ``stud_corpus``
differ in their games and in how a pot is split; the betting (R43, R47) and the layering of
pots (R21) are the same rules, so they are written once here. PokerKit is the oracle:
nothing here asks our engine.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

AUTOMATIONS_NAMES = (
    "ANTE_POSTING",
    "BET_COLLECTION",
    "BLIND_OR_STRADDLE_POSTING",
    "CARD_BURNING",
    "HOLE_DEALING",
    "BOARD_DEALING",
    "HOLE_CARDS_SHOWING_OR_MUCKING",
    "HAND_KILLING",
    "CHIPS_PUSHING",
    "CHIPS_PULLING",
)


def automations() -> tuple[Any, ...]:
    """PokerKit deals, posts, shows and pushes; the corpora choose only the actions."""
    import pokerkit as pk

    return tuple(getattr(pk.Automation, n) for n in AUTOMATIONS_NAMES)


@dataclass
class StreetBetting:
    """What Rule 47 needs about the current street: the level each player last acted at."""

    street: int
    level: int  # the current bet to call
    increment: int  # the last full bet or raise (R43)
    acted_at: dict[int, int] = field(default_factory=dict)  # player -> level after acting

    def forbids_raise(self, player: int, limit: bool) -> str | None:
        """Why R47 forbids ``player`` to raise now (None: the betting is open to him)."""
        if player not in self.acted_at:
            return None
        facing = self.level - self.acted_at[player]
        needed = (self.increment + 1) // 2 if limit else self.increment
        if facing >= needed:
            return None
        rule = "R47-B: less than half a bet" if limit else "R47-A: less than a full raise"
        return f"{rule} ({facing} < {needed}) since his last action"

    def record(self, player: int, new_level: int) -> None:
        raise_by = new_level - self.level
        if raise_by >= self.increment:  # a full bet or raise sets the increment (R43)
            self.increment = raise_by
        self.level = max(self.level, new_level)
        self.acted_at[player] = self.level


@dataclass
class Blinds:
    """A random blind game: players, blinds, antes (none, each, or big blind ante) and
    stacks, often short so that all-ins and side pots are common; every poster covers his
    forced bets (short forced bets are open questions A4/A5)."""

    players: int
    sb: int
    bb: int
    antes: list[int]
    stacks: list[int]


def random_blinds(rng: random.Random) -> Blinds:
    """The draws of one hand's blind game, in a fixed order (a seed gives the same hands)."""
    n = rng.randint(2, 9)
    bb = rng.choice((2, 10, 100, 200))
    sb = bb // 2
    ante_kind = rng.choice(("none", "none", "per_player", "bba"))
    ante = max(1, bb // rng.choice((1, 2, 4, 8)))
    antes = [0] * n
    if ante_kind == "per_player":
        antes = [ante] * n
    elif ante_kind == "bba":
        antes[1] = ante
    stacks = [
        rng.randint(bb + sb + ante + 1, bb * (200 if rng.random() < 0.5 else 25)) for _ in range(n)
    ]
    return Blinds(n, sb, bb, antes, stacks)


def act(state: Any, betting: StreetBetting, actor: int, action: tuple[str, int]) -> None:
    """Play a fold (``f``), check or call (``cc``) or bet or raise to (``cbr``) in PokerKit
    and record the level the actor reached for Rule 47."""
    if action[0] == "f":
        state.fold()
        return
    if action[0] == "cc":
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action[1])
    betting.record(actor, state.bets[actor])


def act_marking_r47(
    state: Any,
    betting: StreetBetting,
    actor: int,
    action: tuple[str, int],
    limit: bool,
    illegal: tuple[str, str] | None,
) -> tuple[str, str] | None:
    """Play ``action`` as ``act`` does, PokerKit allowing it; the hand's first raise Rule 47
    forbids (``illegal`` until there is one) is kept in the hand and returned, marked as
    ``("p3 cbr 900", why)``: our replay must refuse exactly that action, citing R47."""
    if action[0] == "cbr" and illegal is None:
        why = betting.forbids_raise(actor, limit=limit)
        if why is not None:
            illegal = (f"p{actor + 1} cbr {action[1]}", why)
    act(state, betting, actor, action)
    return illegal


def play_seeded(
    rng: random.Random,
    game: Any,
    stacks: list[int],
    play: Callable[Concatenate[Any, P], T],
    *args: P.args,
    **kwargs: P.kwargs,
) -> tuple[T, bool]:
    """Start a hand of ``game`` with PokerKit's deck shuffled from ``rng`` and ``play`` it
    (``play(state, *args)``); whether PokerKit dealt reserved cards (it warns when it
    re-deals a short stub)."""
    random.seed(rng.random())  # PokerKit shuffles its deck with the global generator
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        played = play(game(stacks, len(stacks)), *args, **kwargs)
    return played, any("reserved" in str(w.message) for w in caught)


def random_action(
    state: Any, rng: random.Random, fixed: int | None = None, capped: bool = False
) -> tuple[str, int]:
    """A random legal action, biased towards raises and all-ins for side pots; in fixed
    limit a bet or raise is one bet of the street (all in for less when short)."""
    roll = rng.random()
    if state.can_complete_bet_or_raise_to() and not capped:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        if fixed is not None:
            target = min(max(state.bets) + fixed, high)  # high: his all-in when short
            if roll < 0.40 and low <= target:
                return ("cbr", target)
        elif roll < 0.15:
            return ("cbr", high)
        elif roll < 0.40:
            return ("cbr", rng.randint(low, high))
    if state.can_fold() and roll > 0.80:
        return ("f", 0)
    return ("cc", 0)


@dataclass
class Pots:
    """PokerKit's record of a hand, laid out as the TDA rules build its pots."""

    hole: dict[int, list[Any]]  # player -> his hole cards (stud: all his cards)
    board: list[Any]
    live: list[int]  # not folded
    mucked: set[int]  # dead at the showdown: no claim, like a fold
    stacks: list[int]  # what each player has behind, before any pot is pushed
    contested: list[tuple[int, list[int]]]  # (amount, the live hands with a claim on it)


def layered_pots(state: Any, starting: list[int]) -> Pots:
    """The pots by the TDA, from PokerKit's record of the hand.

    PokerKit mucks losing hands at the showdown and then merges pots whose remaining
    contenders match; under the TDA a pot is formed by the players still in the hand
    when it is built, all-in players included, and each pot is split on its own (R21).
    Antes are dead money in the main pot. A tabled hand keeps its claim; only a mucked
    hand is dead, and then the layers the same live hands contest are one pot.
    """
    import pokerkit as pk

    hole: dict[int, list[Any]] = {}
    board: list[Any] = []
    folded: set[int] = set()
    mucked: set[int] = set()
    pushed = [0] * len(starting)
    antes = [0] * len(starting)  # as posted (heads-up the big blind is the first player)
    for operation in state.operations:
        if isinstance(operation, pk.AntePosting):
            antes[operation.player_index] += operation.amount
        elif isinstance(operation, pk.HoleDealing):
            hole.setdefault(operation.player_index, []).extend(operation.cards)
        elif isinstance(operation, pk.BoardDealing):
            board.extend(operation.cards)
        elif isinstance(operation, pk.Folding):
            folded.add(operation.player_index)
        elif isinstance(operation, pk.HoleCardsShowingOrMucking) and not operation.hole_cards:
            mucked.add(operation.player_index)
        elif isinstance(operation, pk.ChipsPushing):
            pushed = [a + b for a, b in zip(pushed, operation.amounts, strict=True)]
    # What each player put in and left there (an uncalled bet came back to him).
    put_in = [s + p - f for s, p, f in zip(starting, pushed, state.stacks, strict=True)]
    bets = [c - a for c, a in zip(put_in, antes, strict=True)]
    live = [i for i in range(len(starting)) if i not in folded]
    stacks = [s - c for s, c in zip(starting, put_in, strict=True)]
    carry, previous = sum(antes), 0
    pots: list[tuple[int, list[int]]] = []
    for level in sorted({bets[i] for i in live}):
        amount = carry + sum(min(b, level) - min(b, previous) for b in bets)
        eligible = [i for i in live if bets[i] >= level]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        carry, previous = 0, level
    # A folded player's chips above every live player's (PokerKit hands a bet nobody
    # matched back whole, so the called part of it can sit here) are dead money too.
    above = sum(max(0, b - previous) for b in bets)
    if above and pots:
        pots[-1] = (pots[-1][0] + above, pots[-1][1])
    elif above:
        pots.append((above, live))
    contested: list[tuple[int, list[int]]] = []
    for amount, eligible in pots:
        alive = [i for i in eligible if i not in mucked] or eligible
        if contested and contested[-1][1] == alive:
            contested[-1] = (contested[-1][0] + amount, alive)
        else:
            contested.append((amount, alive))
    return Pots(hole, board, live, mucked, stacks, contested)


def split_odd_chips(stacks: list[int], amount: int, winners: list[int]) -> None:
    """A pot split among ``winners``, its odd chips one each in their order: R20-A's
    clockwise from the button is PHH's list order (from the first seat left of the button
    round), R20-B's is by the high card by suit."""
    share, odd = divmod(amount, len(winners))
    for rank, i in enumerate(winners):
        stacks[i] += share + (1 if rank < odd else 0)


def award_best(pots: Pots, strength: dict[int, Any]) -> list[int]:
    """The finishing stacks when each pot goes to its best hands by ``strength`` (the
    larger the better), split as R20-A and R21 say."""
    stacks = pots.stacks
    for amount, eligible in pots.contested:
        winners = eligible
        if len(eligible) > 1:
            best = max(strength[i] for i in eligible)
            winners = [i for i in eligible if strength[i] == best]
        split_odd_chips(stacks, amount, winners)
    return stacks


HAND_FILE = re.compile(r"hand(\d{5})\.phh")
"""The file ``replay_json`` writes hand ``i`` to; group 1 is ``i`` in replay's output."""


def replay_json(hands: Sequence[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """Write the PHH documents into ``folder`` (``hand00000.phh`` on) and replay them all
    with one ``pokertable replay --json``: a line of JSON per hand on stdout, an ``error``
    line on stderr per hand it refuses."""
    files = []
    for i, doc in enumerate(hands):
        path = folder / f"hand{i:05d}.phh"
        path.write_text(doc)
        files.append(str(path))
    return subprocess.run(
        [sys.executable, "-m", "pokertable.controller.cli", "replay", "--json", *files],
        capture_output=True,
        text=True,
        check=False,
    )


@dataclass
class Differential:
    """Our replay of one variant's hands against PokerKit and the rules (a corpus module's
    ``compare``); each game adds the departures from PokerKit it counts apart."""

    hands: int = 0
    equal_to_pokerkit: int = 0
    refused_r47: int = 0  # stopped at the raise R47 forbids, citing it
    mismatches: list[str] = field(default_factory=list)

    def lines(self, variant: str) -> list[str]:
        return [
            f"{variant}: {self.hands} hands generated by PokerKit, replayed; "
            f"{len(self.mismatches)} mismatches",
            f"  equal to PokerKit {self.equal_to_pokerkit}; equal to the rules where PokerKit "
            f"differs: {self.departures()}",
        ]

    def departures(self) -> str:
        """The game's departures from PokerKit and their counts."""
        raise NotImplementedError


def differential_main(
    argv: list[str] | None,
    description: str | None,
    variants: Sequence[str],
    generate: Callable[..., Any],
    compare: Callable[[Any, str], Differential],
) -> int:
    """A corpus module's ``main``: generate each variant's hands, replay and compare them,
    print the figures and the first mismatches; 1 when any hand mismatched."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--hands", type=int, default=2000, help="hands per variant")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--variant", choices=variants, action="append", help="default: all")
    args = parser.parse_args(argv)
    failed = False
    for variant in args.variant or variants:
        corpus = generate(args.hands, seed=args.seed, variants=(variant,))
        result = compare(corpus, variant)
        print("\n".join(result.lines(variant)))
        for line in result.mismatches[:10]:
            print("  " + line)
        failed = failed or bool(result.mismatches)
    return 1 if failed else 0


class Variants(Protocol):
    """A corpus of several variants' hands, one list each, by hand index."""

    hands: list[str]  # PHH documents (TOML text)
    variants: list[str]


def hands_of(corpus: Variants, variant: str) -> Iterator[tuple[int, str]]:
    """The index and PHH document of each of ``variant``'s hands in ``corpus``."""
    return ((i, doc) for i, doc in enumerate(corpus.hands) if corpus.variants[i] == variant)


class Expectation(Protocol):
    """What a corpus holds per hand to judge our replay by (``check_stacks``)."""

    pokerkit_stacks: list[list[int]]
    expected_stacks: list[list[int]]  # by the rules, worked out from PokerKit's record
    tda_illegal: dict[int, tuple[str, str]]  # the first raise R47 forbids


def check_stacks(corpus: Expectation, i: int, result: Any) -> tuple[list[int], str | None]:
    """Our finishing stacks of hand ``i`` (a ``ReplayResult``) and what is wrong with them:
    a raise R47 forbids went unrefused, or they are not the rules' (None: they are)."""
    ours = [result.state.seat(k + 1).stack for k in range(result.hand.player_count)]
    if i in corpus.tda_illegal:
        return ours, f"hand {i}: not refused: {corpus.tda_illegal[i]}"
    if ours != corpus.expected_stacks[i]:
        return ours, (
            f"hand {i}: ours {ours}, by the rules {corpus.expected_stacks[i]}, "
            f"PokerKit {corpus.pokerkit_stacks[i]}"
        )
    return ours, None
