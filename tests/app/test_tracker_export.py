"""Tracker hand histories (issue #31): archived hands as PokerStars text and Open Hand History,
read back by parsers that are not ours (``tests/app/tracker_readers.py``) to the table's own
stacks and winners; and PHH with the spec's ``level`` and ``winnings``, the dead button's
seat and board repairs in the spec's terms."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from pokertable.controller.app.journal import Journal
from pokertable.controller.app.journal_export import ExportedHand, export_journal
from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    PlayerAction,
    RepairReason,
    ReplaceBoard,
)
from pokertable.controller.engine.model import HandState, Level, Phase, Street, Variant
from pokertable.controller.history.ohh import hand_to_ohh, read_ohh, render_ohh
from pokertable.controller.history.phh import PhhError
from pokertable.controller.history.pokerstars import hand_to_pokerstars, join_hands
from pokertable.controller.history.render import ExportError, hand_to_phh, replayed_stacks
from pokertable.controller.history.tracker import ExportContext, FinishedHand, read_hand
from tests.app.test_phh_export import (
    JournaledTable,
    _play_mucked_at_showdown,
    _play_session,
    _play_to_showdown,
)
from tests.app.tracker_readers import ohh_outcome, pokerkit_outcomes

CONTEXT = ExportContext(event="Friday Deepstack", tournament="20261127", initial_stack=5000)


def _session_hands(tmp_path: Path) -> list[ExportedHand]:
    """Three hands of a table: a side pot, heads-up a fold, a short big blind all in for a
    big-blind ante and part of the blind (tests/app/test_phh_export.py)."""
    journal = Journal(tmp_path / "journal.jsonl", fsync=False)
    table = JournaledTable(journal)
    _play_session(table)
    journal.close()
    records = list(Journal(tmp_path / "journal.jsonl", fsync=False).records())
    return list(export_journal(table.start, records))


def _expected(text: str) -> tuple[dict[str, int], set[str]]:
    """The table's finishing stacks by player and who won chips, from the PHH it wrote."""
    data = tomllib.loads(text)
    stacks = dict(zip(data["players"], data["finishing_stacks"], strict=True))
    won = {p for p, w in zip(data["players"], data["winnings"], strict=True) if w > 0}
    return stacks, won


@pytest.mark.needs("pokerkit")
def test_a_session_as_pokerstars_text_parses_to_the_table_stacks_and_winners(
    tmp_path: Path,
) -> None:
    hands = _session_hands(tmp_path)
    texts = [
        hand_to_pokerstars(read_hand(h.text, h.hand_id), CONTEXT, 1000 + h.number) for h in hands
    ]
    first = texts[0].splitlines()
    assert first[0] == (
        "PokerStars Hand #1001: Tournament #20261127, Freeroll  Hold'em No Limit - Level I "
        "(100/200) - 1970/01/01 00:00:00 UTC"
    )
    assert first[1] == "Table '20261127 t1' 10-max Seat #3 is the button"
    assert "Cat: raises 1300 to 1500 and is all-in" in first
    assert "Ann collected 5400 from side pot" in first
    assert "Total pot 9900 Main pot 4500. Side pot 5400. | Rake 0" in first
    assert "Bob: posts the ante 300" in texts[2]  # short for the big-blind ante
    outcomes = pokerkit_outcomes(join_hands(texts))
    assert outcomes == [_expected(h.text) for h in hands]


@pytest.mark.needs("ohh-pydantic")
def test_a_session_as_ohh_checks_on_the_spec_models_and_adds_up_to_the_table_stacks(
    tmp_path: Path,
) -> None:
    hands = _session_hands(tmp_path)
    objects = [hand_to_ohh(read_hand(h.text, h.hand_id), CONTEXT, 1000 + h.number) for h in hands]
    text = render_ohh(objects)
    assert text.count("\n\n") == 3 and not text.startswith("[")  # a blank line after each
    assert read_ohh(text) == objects
    assert [ohh_outcome(o) for o in read_ohh(text)] == [_expected(h.text) for h in hands]
    preflop = objects[0]["ohh"]["rounds"][0]["actions"]
    raise_ = next(a for a in preflop if a["action"] == "Raise" and a["player_id"] == 1)
    assert raise_["amount"] == 4000  # Bob's raise to 4,200 over his big blind: chips put in
    assert objects[0]["ohh"]["tournament_info"]["tournament_number"] == "20261127"


def _three_handed(button: int, small_blind_seat: int | None, seats: tuple[int, ...]) -> HandSetup:
    names = ("Ann", "Bob", "Cat")
    return HandSetup(
        hand_id="h",
        variant=Variant.NLHE,
        level=Level(small_blind=100, big_blind=200, number=4),
        button=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=seats[1] if small_blind_seat is not None else seats[0],
        players=tuple((s, names[i], 2000) for i, s in enumerate(seats)),
    )


def _played(setup: HandSetup) -> HandState:
    state, _ = start_hand(setup)
    for seat, cards in zip((s for s, _, _ in setup.players), ("AhAd", "KcKs", "Qh9h"), strict=True):
        state, _ = step(state, DealHole(seat, (cards[:2], cards[2:])))
    return _play_to_showdown(state)


def _finished(setup: HandSetup, state: HandState) -> tuple[str, FinishedHand]:
    text = hand_to_phh(
        setup, state, venue="v", table="t1", seat_count=6, number=9, started_ms=1_764_248_000_000
    )
    return text, read_hand(text, "h")


@pytest.mark.needs("pokerkit", "ohh-pydantic")
@pytest.mark.parametrize(
    ("button", "small_blind_seat", "post"),
    [
        (6, None, "Ann: posts big blind 200"),  # nobody in the small blind's position
        (3, None, "Bob: posts big blind 200"),  # Ann in it, posting nothing
    ],
)
def test_TDA24_32_a_dead_small_blind_exports_without_a_small_blind_post(
    button: int, small_blind_seat: int | None, post: str
) -> None:
    """R32: the dead small blind is not posted; PokerKit and the OHH reckoning agree."""
    setup = _three_handed(button, small_blind_seat, (1, 2, 3))
    if button == 3:  # Ann sits in the small blind's seat 1 and posts nothing
        setup = replace(setup, big_blind_seat=2)
    state = _played(setup)
    text, hand = _finished(setup, state)
    stars = hand_to_pokerstars(hand, CONTEXT, 7)
    assert post in stars and "small blind" not in stars.split("*** HOLE CARDS ***")[0]
    assert f"Seat #{button} is the button" in stars
    assert "Level IV (100/200)" in stars
    assert pokerkit_outcomes(stars) == [_expected(text)]
    ohh = hand_to_ohh(hand, CONTEXT, 7)
    posts = [a["action"] for a in ohh["ohh"]["rounds"][0]["actions"] if "Post" in a["action"]]
    assert posts == ["Post BB"]
    assert ohh_outcome(ohh) == _expected(text)


@pytest.mark.needs("pokerkit", "ohh-pydantic")
def test_TDA24_32_a_dead_button_on_an_empty_seat_is_named_in_every_format() -> None:
    """The button on empty seat 4: PHH keeps it in ``_button_seat``, PokerStars and OHH name
    it as the button's seat, and the blinds are the two players after it."""
    setup = _three_handed(4, 5, (5, 6, 2))
    state = _played(setup)
    text, hand = _finished(setup, state)
    assert "_button_seat = 4" in text
    assert hand.button_seat == 4
    stars = hand_to_pokerstars(hand, CONTEXT, 8)
    assert "6-max Seat #4 is the button" in stars
    assert "Ann: posts small blind 100" in stars and "Bob: posts big blind 200" in stars
    assert pokerkit_outcomes(stars) == [_expected(text)]
    ohh = hand_to_ohh(hand, CONTEXT, 8)["ohh"]
    assert ohh["dealer_seat"] == 4 and ohh["table_size"] == 6
    assert ohh_outcome({"ohh": ohh}) == _expected(text)


def test_phh_carries_level_winnings_and_a_board_repair_in_the_spec_terms() -> None:
    """R39-A (a four-card flop): the PHH deals the flop that stood, says what it replaced in
    a PHH comment and lists the repair in ``_board_repairs``; it replays to the same stacks."""
    setup = _three_handed(3, 1, (1, 2, 3))
    state, _ = start_hand(setup)
    for seat, cards in ((1, "AhAd"), (2, "KcKs"), (3, "Qh9h")):
        state, _ = step(state, DealHole(seat, (cards[:2], cards[2:])))
    for seat, kind in ((3, ActionKind.CALL), (1, ActionKind.CALL), (2, ActionKind.CHECK)):
        state, _ = step(state, PlayerAction(seat, kind))
    state, _ = step(state, DealBoard(("2c", "7d", "8s")))
    state, rulings = step(
        state, ReplaceBoard(Street.FLOP, ("2c", "7d", "4s"), RepairReason.FOUR_CARD_FLOP)
    )
    assert state.board_repairs, [r.text for r in rulings]
    state = _play_to_showdown(state)
    assert state.phase is Phase.COMPLETE
    text, hand = _finished(setup, state)
    data = tomllib.loads(text)
    repair = state.board_repairs[0]
    assert f"d db 2c7d4s # repaired {repair.rule_id}: replaced 2c7d8s" in data["actions"]
    assert data["_board_repairs"] == [f"flop 2c7d8s 2c7d4s {repair.rule_id}"]
    assert data["level"] == 4
    assert data["winnings"] == [600, 0, 0]  # Ann's aces: the three calls of 200
    assert replayed_stacks(text, "repair") == tuple(data["finishing_stacks"])
    assert "repaired" not in hand_to_pokerstars(hand, CONTEXT, 9)  # no notation there


@pytest.mark.needs("pokerkit")
def test_the_phh_fields_added_are_the_spec_fields_pokerkit_reads() -> None:
    """``level`` and ``winnings`` are PHH's own optional fields: PokerKit takes them as such
    (no warning about unknown fields), and ours start with an underscore."""
    import warnings

    import pokerkit as pk

    setup = _three_handed(4, 5, (5, 6, 2))
    text, _ = _finished(setup, _played(setup))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        history = pk.HandHistory.loads(text)
    assert history.level == 4 and history.winnings == [600, 0, 0]
    assert history.user_defined_fields == {"_button_seat": 4}


def test_an_ohh_file_that_is_not_ohh_is_named() -> None:
    with pytest.raises(ExportError, match="hand 2: not an"):
        read_ohh(json.dumps({"ohh": {}}) + "\n\n" + json.dumps({"other": 1}) + "\n\n")
    with pytest.raises(ExportError, match="hand 1: not JSON"):
        read_ohh("{oops")
    with pytest.raises(ExportError, match="must be digits"):
        ExportContext(event="e", tournament="T#1")


def test_an_incomplete_hand_is_not_exported() -> None:
    """A tracker file never holds a hand that stops before its end (here before the river)."""
    example = Path(__file__).parents[2] / "docs" / "examples" / "side-pot.phh"
    cut = example.read_text().replace('"d db Jc",', "")
    with pytest.raises(PhhError, match="incomplete"):
        read_hand(cut, "cut")


@pytest.mark.needs("pokerkit")
def test_with_a_hero_only_his_hole_cards_are_dealt_and_pokerkit_still_plays_the_hand(
    tmp_path: Path,
) -> None:
    """A player's own tracker file: his cards in ``Dealt to``, the others' only when tabled."""
    hands = _session_hands(tmp_path)
    hand = read_hand(hands[1].text, hands[1].hand_id)  # heads-up: Bob folds, nothing tabled
    stars = hand_to_pokerstars(hand, CONTEXT, 2, hero="Bob")
    assert "Dealt to Bob [2d 3d]" in stars and "Dealt to Ann" not in stars
    assert pokerkit_outcomes(stars) == [_expected(hands[1].text)]
    ohh = hand_to_ohh(hand, CONTEXT, 2, hero="Bob")["ohh"]
    dealt = {
        a["player_id"]: a.get("cards")
        for a in ohh["rounds"][0]["actions"]
        if a["action"] == "Dealt Cards"
    }
    bob = next(p["id"] for p in ohh["players"] if p["name"] == "Bob")
    assert ohh["hero_player_id"] == bob and dealt[bob] == ["2d", "3d"]
    assert [cards for pid, cards in dealt.items() if pid != bob] == [None]


@pytest.mark.needs("pokerkit", "ohh-pydantic")
def test_a_hand_mucked_at_showdown_is_mucked_in_both_formats() -> None:
    """Ann tables her aces, Bob mucks his kings: ``mucks hand`` / "Mucks Cards", and the
    readers still end on the table's stacks (his cards were read: ``Dealt to`` has them)."""
    setup = _three_handed(3, 1, (1, 2, 3))
    state = _play_mucked_at_showdown(setup)
    text, hand = _finished(setup, state)
    stars = hand_to_pokerstars(hand, CONTEXT, 3)
    assert "Bob: mucks hand" in stars and "Seat 2: Bob (big blind) mucked" in stars
    assert "Seat 3: Cat (button) folded before Flop (didn't bet)" in stars
    assert pokerkit_outcomes(stars) == [_expected(text)]
    ohh = hand_to_ohh(hand, CONTEXT, 3)
    showdown = ohh["ohh"]["rounds"][-1]
    assert showdown["street"] == "Showdown"
    assert [a["action"] for a in showdown["actions"]] == ["Shows Cards", "Mucks Cards"]
    assert ohh_outcome(ohh) == _expected(text)


def test_a_fixed_limit_hand_is_named_by_its_bets_as_pokerstars_does() -> None:
    setup = replace(_three_handed(3, 1, (1, 2, 3)), variant=Variant.FLHE)
    _, hand = _finished(setup, _played(setup))
    header = hand_to_pokerstars(hand, CONTEXT, 4).splitlines()[0]
    assert "Hold'em Limit - Level IV (200/400)" in header


@pytest.mark.needs("pokerkit", "ohh-pydantic")
def test_hands_pokerkit_generates_read_back_from_both_formats_to_the_same_stacks() -> None:
    """60 random hands of PokerKit's (bench/phh_corpus.py: side pots, short all-ins, antes,
    fixed limit, Omaha), replayed by the engine and exported: PokerKit's PokerStars parser
    (no-limit hold'em, all it reads) and the OHH reckoning end on the engine's stacks and
    winners. Hands whose odd chip PokerKit splits otherwise than Rule 20-A are left out:
    PokerKit would split it its own way again."""
    from pokertable.bench.phh_corpus import generate

    corpus = generate(60, seed=31)
    checked = {"pokerstars": 0, "ohh": 0}
    for index, doc in enumerate(corpus.hands):
        if corpus.expected_stacks[index] != corpus.pokerkit_stacks[index]:
            continue  # R20-A's odd chip
        hand = read_hand(doc, f"corpus {index}", started_ms=0)
        stacks = {s.player: s.stack for s in hand.end.seats}
        won = {s.player for s in hand.end.seats if hand.won(s.seat) > 0}
        assert ohh_outcome(hand_to_ohh(hand, CONTEXT, index)) == (stacks, won), doc
        checked["ohh"] += 1
        if hand.end.variant is Variant.NLHE:
            text = hand_to_pokerstars(hand, CONTEXT, index)
            assert pokerkit_outcomes(text) == [(stacks, won)], text
            checked["pokerstars"] += 1
    assert checked["ohh"] >= 50 and checked["pokerstars"] >= 15, checked
