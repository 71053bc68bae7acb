"""``pokertable export phh``: every completed hand of a table's journal as a PHH file.

The journal holds the table's inputs, not its hands, so the export folds it through the
same pure ``TableSession`` the table ran (as ``TableApp.recover`` does after a restart)
and writes each hand from the engine's own record of it: the setup it was dealt with,
its ``ActionRecord`` list, board and shown cards. Each file is checked by replaying it
through the engine (``controller.replay``): a hand whose replay does not end on the
table's stacks is named, so a dispute never rests on a history that says otherwise.

PHH lists players in position order (``controller.phh``): p1 the small blind, the last
player the button; heads-up p1 the big blind and p2 the button. With a dead small blind
(R32: last hand's big blind has left, nobody sits in the small-blind position) p1 is the
first player after the button, who posts the big blind: ``blinds_or_straddles`` reads
``[200, 0, ...]``, which PHH readers such as PokerKit play in the right order (p2 opens,
p1 closes the first round and opens the others). The small blind the level would have had
goes in the user-defined field ``_dead_small_blind`` (PHH: fields named with a leading
underscore are the writer's own; readers ignore them); a pot-limit preflop raise counts it.
A dead button (on an empty seat) needs nothing: p1 and p2 post the blinds as usual.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any

from pokertable.controller.engine import HandSetup
from pokertable.controller.inputs import from_record
from pokertable.controller.model import AnteFormat, HandState, Phase, SeatState, Street, Variant
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.session import TableSession, apply


class ExportError(ValueError):
    """A hand the PHH format (as ``controller.phh`` reads it) cannot express."""


@dataclass(frozen=True, slots=True)
class ExportedHand:
    hand_id: str
    number: int  # the table's hand count when it completed
    text: str  # the PHH file; "" when the hand could not be written (see ``skipped``)
    finishing_stacks: tuple[int, ...]  # the table's stacks after the hand, in p1..pN order
    skipped: str | None = None  # why PHH cannot express this hand; the export goes on


DEAD_SMALL_BLIND = "_dead_small_blind"  # our user-defined PHH field (see the module doc)
_PHH_KIND = {"fold": "f", "check": "cc", "call": "cc"}


def position_order(hand: HandState) -> tuple[SeatState, ...]:
    """Dealt-in seats as PHH orders them; raises ExportError when PHH cannot say it."""
    if len(hand.seats) == 2:
        big = hand.seat(hand.big_blind_seat)
        other = next(s for s in hand.seats if s.seat != big.seat)
        if hand.small_blind_seat not in (None, other.seat):
            raise ExportError(f"hand {hand.hand_id}: heads-up small blind is not the button")
        return (big, other)
    order = hand.seats_clockwise_from(hand.button)
    if hand.small_blind_seat is None:
        # Dead small blind: nobody in its position (p1 the big blind), or a player dealt
        # in there who posts nothing (p1 posts 0, p2 the big blind).
        if hand.big_blind_seat not in (order[0].seat, order[1].seat):
            raise ExportError(
                f"hand {hand.hand_id}: dead small blind, but seats {order[0].seat} and "
                f"{order[1].seat} sit between the button and the big blind"
            )
        return order
    if (order[0].seat, order[1].seat) != (hand.small_blind_seat, hand.big_blind_seat):
        raise ExportError(f"hand {hand.hand_id}: blinds are not the two seats after the button")
    return order


def _antes(setup: HandSetup, hand: HandState, order: tuple[SeatState, ...]) -> list[int]:
    level = hand.level
    if setup.antes_by_seat is not None:
        by_seat = dict(setup.antes_by_seat)
    elif level.ante_format is AnteFormat.PER_PLAYER:
        by_seat = {s.seat: level.ante for s in order}
    elif level.ante_format is AnteFormat.BIG_BLIND_ANTE:
        by_seat = {hand.big_blind_seat: level.ante}
    else:
        by_seat = {}
    antes = [by_seat.get(s.seat, 0) for s in order]
    # Heads-up PokerKit reads antes like blinds, [small blind's, big blind's]: p2's first.
    return antes[::-1] if len(order) == 2 else antes


def _actions(hand: HandState, order: tuple[SeatState, ...], public: bool) -> list[str]:
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(order)}
    lines = []
    for s in order:
        known = s.hole and (s.shown or not public)
        cards = "".join(s.hole) if known else "??" * hand.variant.hole_cards
        lines.append(f"d dh {player[s.seat]} {cards}")
    for street in Street:
        if street is not Street.PREFLOP:
            dealt = hand.board[Street(street - 1).board_size : street.board_size]
            if len(dealt) < street.board_size - Street(street - 1).board_size:
                break
            lines.append(f"d db {''.join(dealt)}")
        for a in hand.actions:
            if a.street is street:
                word = _PHH_KIND.get(a.kind, f"cbr {a.to}")
                lines.append(f"{player[a.seat]} {word}")
    # Shows before mucks: the engine awards the pots once the last live hand is decided.
    tabled = [s for s in order if s.shown and s.hole]
    lines += [f"{player[s.seat]} sm {''.join(s.hole)}" for s in tabled]
    lines += [f"{player[s.seat]} sm" for s in order if s.mucked and s.in_hand]
    return lines


def _toml(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, time):  # a TOML local time, unquoted
        return value.isoformat()
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string


def render_phh(title: str, fields: Iterable[tuple[str, Any]]) -> str:
    """PHH text from its fields in order: one line each, the actions one per line."""
    lines = [f"# {title}"]
    for key, value in fields:
        if key == "actions":
            lines.append("actions = [")
            lines += [f"  {_toml(a)}," for a in value]
            lines.append("]")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def time_fields(started_ms: int) -> list[tuple[str, Any]]:
    """PHH's date and time of a hand (UTC) from milliseconds since the epoch."""
    when = datetime.fromtimestamp(started_ms / 1000, tz=UTC)
    return [
        ("year", when.year),
        ("month", when.month),
        ("day", when.day),
        ("time", when.time().replace(microsecond=0)),
        ("time_zone", "UTC"),
    ]


def hand_to_phh(
    setup: HandSetup,
    hand: HandState,
    *,
    venue: str,
    table: str,
    seat_count: int,
    number: int,
    started_ms: int | None,
    public: bool = False,
) -> str:
    """One completed hand as the text of a PHH file.

    ``public``: only the hole cards tabled at the table are written (the others as
    ``????``), for the public event stream; the room's archive adds the cards it may read.
    """
    if hand.phase is not Phase.COMPLETE:
        raise ExportError(f"hand {hand.hand_id} is not complete")
    order = position_order(hand)
    starting = dict((seat, stack) for seat, _, stack in setup.players)
    level = hand.level
    dead_small_blind = hand.small_blind_seat is None
    if dead_small_blind and len(order) > 2 and order[0].seat == hand.big_blind_seat:
        blinds = [level.big_blind] + [0] * (len(order) - 1)  # p1 posts the big blind
    else:
        # Heads-up too the list reads [small, big]: PokerKit swaps the two posts itself.
        small = 0 if dead_small_blind else level.small_blind
        blinds = [small, level.big_blind] + [0] * (len(order) - 2)
    fields: list[tuple[str, Any]] = [
        ("variant", hand.variant.value),
        ("antes", _antes(setup, hand, order)),
        ("blinds_or_straddles", blinds),
    ]
    if hand.variant is Variant.FLHE:
        fields += [("small_bet", level.big_blind), ("big_bet", 2 * level.big_blind)]
    else:
        fields.append(("min_bet", level.big_blind))
    fields += [
        ("starting_stacks", [starting[s.seat] for s in order]),
        ("actions", _actions(hand, order, public)),
        ("finishing_stacks", [s.stack for s in order]),
        ("players", [s.player for s in order]),
        ("seats", [s.seat for s in order]),
        ("seat_count", seat_count),
        ("venue", venue),
        ("table", table),
        ("hand", number),
    ]
    if dead_small_blind:
        fields.append((DEAD_SMALL_BLIND, level.small_blind))
    if started_ms is not None:
        fields += time_fields(started_ms)
    return render_phh(f"{venue}/{table} hand {hand.hand_id}", fields)


def published_hand(session: TableSession) -> dict[str, Any]:
    """What the table adds to its ``hand_complete`` event for the room's archive: the hand
    as PHH with only the cards tabled at the table (the event stream is public; the archive
    reads the hole cards on the secure lane), or why PHH cannot express it."""
    tracked = session.tracked
    assert tracked is not None
    config = session.config
    try:
        text = hand_to_phh(
            tracked.setup,
            tracked.hand,
            venue=config.venue,
            table=config.table,
            seat_count=config.max_seats,
            number=session.hand_number,
            started_ms=None,
            public=True,
        )
    except ExportError as exc:
        return {"hand_number": session.hand_number, "phh": None, "phh_problem": str(exc)}
    return {"hand_number": session.hand_number, "phh": text}


def export_journal(
    session: TableSession, records: Iterable[dict[str, Any]]
) -> Iterator[ExportedHand]:
    """Fold the journal's inputs over ``session`` and yield each hand as it completes."""
    started: dict[str, int] = {}
    for index, record in enumerate(records):
        try:
            item = from_record(record)
        except (ValueError, TypeError) as exc:
            raise ExportError(f"journal record {index}: {exc}") from exc
        before = len(session.history)
        session, _ = apply(session, item)
        tracked = session.tracked
        if tracked is not None:
            started.setdefault(tracked.hand.hand_id, item.at_ms)
        if len(session.history) == before or tracked is None:
            continue
        hand = tracked.hand
        try:
            text = hand_to_phh(
                tracked.setup,
                hand,
                venue=session.config.venue,
                table=session.config.table,
                seat_count=session.config.max_seats,
                number=session.hand_number,
                started_ms=started.get(hand.hand_id),
            )
        except ExportError as exc:
            yield ExportedHand(hand.hand_id, session.hand_number, "", (), skipped=str(exc))
            continue
        yield ExportedHand(
            hand.hand_id,
            session.hand_number,
            text,
            tuple(s.stack for s in position_order(hand)),
        )


def read_journal(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The journal's records and the length of a torn last line, without touching the file.

    ``Journal`` repairs a torn tail in place; the export may run beside the live table
    (whose last line may be mid-write), so it only reads.
    """
    from pokertable.controller.journal import good_records

    records, found = good_records(path.read_bytes())
    if found.problem is not None:
        raise ExportError(f"{path}: line {found.problem.line}: {found.problem.reason}")
    return records, len(found.torn_tail)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    formats = parser.add_subparsers(dest="format", required=True)
    phh = formats.add_parser("phh", help="one PHH file per completed hand of a journal")
    phh.add_argument("journal", type=Path, nargs="?", help="the journal (default: the config's)")
    phh.add_argument("--config", required=True, type=Path, help="the table's table.toml")
    phh.add_argument("-o", "--output", type=Path, default=Path("."), help="directory for .phh")


def _file_name(hand: ExportedHand) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in hand.hand_id)
    return f"{hand.number:04d}-{safe}.phh"


def run(args: argparse.Namespace) -> int:
    """Write the files, replay each one, and name any hand that does not replay the same."""
    from pokertable.controller.config import ConfigError, load_config
    from pokertable.controller.phh import PhhError

    try:
        config = load_config(args.config)
    except (ConfigError, OSError) as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 78
    path: Path = args.journal or Path(config.journal.path)
    if not path.is_file():
        print(f"error: no journal at {path}", file=sys.stderr)
        return 1
    try:
        records, torn = read_journal(path)
    except (ExportError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if torn:
        print(f"note: {path}: a torn last line ({torn} bytes) was left out", file=sys.stderr)
    from pokertable.controller.sealing import SealError, open_record, sealer_for

    try:  # hole cards sealed at rest need the table's key (controller/sealing.py)
        sealer = sealer_for(config.seal_key_file)
        records = [open_record(record, sealer) for record in records]
    except SealError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 1
    from pokertable.controller.app import fresh_session

    session = fresh_session(config)
    args.output.mkdir(parents=True, exist_ok=True)
    failures = written = 0
    rules = session.config.rules
    try:
        for hand in export_journal(session, records):
            if hand.skipped is not None:
                print(f"error: not written: {hand.skipped}", file=sys.stderr)
                failures += 1
                continue
            target = args.output / _file_name(hand)
            target.write_text(hand.text, encoding="utf-8")
            written += 1
            try:
                stacks = replayed_stacks(hand.text, str(target), rules)
            except PhhError as exc:
                print(f"error: {target}: does not replay: {exc}", file=sys.stderr)
                failures += 1
                continue
            if stacks != hand.finishing_stacks:
                print(
                    f"error: {target}: replay ends on {list(stacks)}, "
                    f"the table had {list(hand.finishing_stacks)}",
                    file=sys.stderr,
                )
                failures += 1
    except ExportError as exc:  # an unreadable journal record: the hands before it are out
        print(f"error: {exc}", file=sys.stderr)
        failures += 1
    print(f"{written} hands written to {args.output}")
    return 1 if failures else 0


def replayed_stacks(text: str, name: str, rules: RuleProfile = TDA_2024) -> tuple[int, ...]:
    """Finishing stacks (p1..pN) of a PHH text replayed through the engine; PhhError if not."""
    from pokertable.controller.phh import PhhError, parse_hand
    from pokertable.controller.replay import replay_hand

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{name}: {exc}") from exc
    hand = parse_hand(data, name)
    state = replay_hand(hand, rules).state
    return tuple(state.seat(i + 1).stack for i in range(hand.player_count))
