"""A finished hand step by step, for the hand replayer page (``room/replayer/``).

The hand is played again through the engine the table runs (as ``pokertable replay``
does), and after every action the replayer keeps what a viewer needs: the action, the
board, the pots, each seat's stack, bet and cards, the rulings the engine gave with the
passages of the rulebook they cite (``room.rule_texts``), and on every street with all live
hands known the equities (``controller.evaluation.equity``).

Pure: PHH text in, a JSON-ready dict out. ``python -m pokertable.room.replayer hand.phh``
serves the page for one file (``docs/tournament-server.md``).

>>> steps = hand_steps(open(EXAMPLE).read())["steps"]
>>> [(s["action"], s["pot"]) for s in steps][:2]
[('deal', 500), ('Ann: dealt Ah Ad', 500)]
>>> steps[-1]["street"], steps[-1]["board"], [w["player"] for w in steps[-1]["winners"]]
('complete', ['2c', '7d', '8s', '4h', 'Jc'], ['Ann', 'Bob'])
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pokertable.controller.engine import EngineError, start_hand, step
from pokertable.controller.engine.events import ShowHand
from pokertable.controller.engine.model import HandState, Phase, SeatStatus
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.evaluation.equity import equities
from pokertable.controller.history import phh_toml
from pokertable.controller.history.phh import PhhError, action_where, parse_hand, to_event
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.room.web import ROOM_DIR, PageServer

EXAMPLE = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "side-pot.phh")
_WORDS = {"f": "folds", "sm": "shows"}


@functools.cache
def _texts() -> dict[str, dict[str, list[str]]]:
    from pokertable.room.rule_texts import rule_texts

    return rule_texts()


def _ruling(ruling: Ruling) -> dict[str, Any]:
    from pokertable.room.rule_texts import lookup

    passages = [p for rule in ruling.rule_ids for p in lookup(_texts(), rule)["passages"]]
    return {
        "kind": str(ruling.kind),
        "rule_ids": list(ruling.rule_ids),
        "seat": ruling.seat,
        "text": ruling.text,
        "rule_text": passages[:3],
    }


def _label(action: str, names: Sequence[str], to_call: int) -> str:
    """A PHH action in words: ``p2 cbr 600`` facing a bet -> ``Bob: raises to 600``."""
    words = action.split()
    if words[0] == "d":
        if words[1] == "dh":
            return f"{names[int(words[2][1:]) - 1]}: dealt {_spaced(words[3])}"
        return f"board {_spaced(words[2])}" if words[1] == "db" else action
    who = names[int(words[0][1:]) - 1]
    rest = " ".join(_spaced(w) if words[1] == "sm" else w for w in words[2:])
    word = {"cc": "calls" if to_call else "checks", "cbr": "raises to" if to_call else "bets"}.get(
        words[1]
    ) or _WORDS.get(words[1], words[1])
    return f"{who}: {word} {rest}".rstrip()


def _spaced(cards: str) -> str:
    return " ".join(cards[i : i + 2] for i in range(0, len(cards), 2))


def _snapshot(
    state: HandState, action: str, rulings: Sequence[Ruling], spot: dict[int, float] | None
) -> dict[str, Any]:
    returned = sum(amount for _, amount in state.returned)
    complete = state.phase is Phase.COMPLETE
    names = {s.seat: s.player for s in state.seats}
    return {
        "action": action,
        "street": "complete" if complete else state.street.name.lower(),
        "board": list(state.board),
        "pot": 0 if complete else sum(s.committed for s in state.seats) - returned,
        "pots": [
            {"amount": p.amount, "eligible": [names[s] for s in p.eligible]} for p in state.pots
        ],
        "action_on": names.get(state.action_on) if state.action_on else None,
        "seats": [
            {
                "seat": s.seat,
                "player": s.player,
                "stack": s.stack,
                "bet": s.bet,
                "folded": s.status is SeatStatus.FOLDED,
                "cards": list(s.hole),
                "equity": None if spot is None else spot.get(s.seat),
            }
            for s in state.seats
        ],
        "rulings": [_ruling(r) for r in rulings],
        "winners": [
            {"player": names[a.seat], "amount": a.amount, "hand": a.hand_name} for a in state.awards
        ],
    }


def _equities(state: HandState) -> dict[int, float] | None:
    """Each live hand's equity (percent) when every live hand is known, else None."""
    live = [s for s in state.seats if s.status is not SeatStatus.FOLDED]
    if (
        len(live) < 2
        or state.phase is Phase.COMPLETE
        or any(len(s.hole) < 2 or "?" in "".join(s.hole) for s in live)
    ):
        return None
    variant = "PLO" if all(len(s.hole) == 4 for s in live) else "NLHE"
    spot = equities(variant, {s.seat: s.hole for s in live}, state.board)
    return {s.seat: round(100 * s.equity, 1) for s in spot.seats}


def hand_steps(phh_text: str, rules: RuleProfile = TDA_2024, name: str = "hand") -> dict[str, Any]:
    """Every step of one PHH hand; PhhError names the action the engine refuses."""
    try:
        hand = parse_hand(phh_toml.loads(phh_text), name)
    except PhhError:
        raise
    except ValueError as error:  # TOML
        raise PhhError(f"{name}: cannot read PHH: {error}") from None
    try:
        state, first = start_hand(hand.setup, rules)
    except EngineError as error:
        raise PhhError(str(error)) from error
    names = [s.player for s in sorted(state.seats, key=lambda s: s.seat)]
    steps = [_snapshot(state, "deal", first, None)]
    street, spot = state.street, None
    for index, action in enumerate(hand.actions):
        to_call = 0
        if not action.startswith("d") and state.action_on is not None:
            to_call = max(0, state.call_to - state.seat(state.action_on).bet)
        event = to_event(action, hand.player_count, action_where(hand, index), to_call)
        if event is None:
            continue
        state, out = step(state, event, rules)
        for ruling in out:
            if ruling.kind is RulingKind.REJECTED:
                raise PhhError(
                    f"{action_where(hand, index)}: illegal: {ruling.text} "
                    f"({', '.join(ruling.rule_ids)})"
                )
        if state.street != street or spot is None or state.phase is Phase.COMPLETE:
            street, spot = state.street, _equities(state)  # a new street: new equities
        steps.append(_snapshot(state, _label(action, names, to_call), out, spot))
    if state.phase is Phase.SHOWDOWN:  # cards speak: table the live hands nobody showed
        for seat in state.in_hand:
            if not seat.shown and not seat.mucked and seat.hole:
                state, out = step(state, ShowHand(seat.seat), rules)
                steps.append(_snapshot(state, f"{seat.player}: cards speak", out, None))
    return {"hand": hand.name, "players": names, "steps": steps}


def archive_routes(
    store_url: str, venue: str, key_file: str | None = None
) -> dict[str, Callable[[dict[str, str]], tuple[str, bytes]]]:
    """``/hands.json`` (every archived hand of the venue) and ``/hand.json?table=&number=
    [&session=]`` (one, step by step), read from the hand archive (``room.hand_store``)
    at each request: hands archived since the page opened are there."""
    from pokertable.room.hand_store import open_store

    def hands(query: dict[str, str]) -> tuple[str, bytes]:
        store = open_store(store_url, key_file)
        try:
            rows = [
                {
                    "table": r.table,
                    "session": r.session,
                    "hand_number": r.hand_number,
                    "hand_id": r.hand_id,
                    "players": list(r.players),
                    "finished_ms": r.finished_ms,
                    "verified": r.verified,
                    "phh": r.problem is None,
                }
                for r in store.hands(venue)
            ]
        finally:
            store.close()
        return "application/json", json.dumps(rows).encode()

    def hand(query: dict[str, str]) -> tuple[str, bytes]:
        try:
            table, number = query["table"], int(query["number"])
        except (KeyError, ValueError):
            raise LookupError("hand.json needs table= and number=") from None
        store = open_store(store_url, key_file)
        try:
            record = store.get(venue, table, number, query.get("session"))
        finally:
            store.close()
        if record is None or record.phh is None:
            raise LookupError(f"no replayable hand {number} of table {table} in the archive")
        try:
            steps = hand_steps(record.phh, name=record.name)
        except PhhError as error:
            raise LookupError(f"{record.name}: {error}") from None
        return "application/json", json.dumps(steps).encode()

    return {"/hands.json": hands, "/hand.json": hand}


def server(args: argparse.Namespace) -> PageServer:
    """The replayer's page server: one PHH file, or the venue's hand archive."""
    if args.db is not None:
        routes = archive_routes(args.db, args.venue, args.key_file)
    else:
        body = json.dumps(hand_steps(args.phh.read_text("utf-8"), name=args.phh.name)).encode()
        routes = {"/hand.json": lambda query: ("application/json", body)}
    return PageServer(
        ROOM_DIR,
        {"archive": args.db is not None},
        args.http_port,
        page="replayer/",
        bind=args.bind,
        routes=routes,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the replayer page for one PHH file or the hand archive (Ctrl-C stops it)."""
    from pokertable.room.serving import add_bind_argument, run_until_interrupted

    parser = argparse.ArgumentParser(
        prog="python -m pokertable.room.replayer",
        description="Step through archived hands in a browser: one PHH file, or every hand "
        "of a venue's archive (--db, as `pokertable archive run` writes it).",
    )
    parser.add_argument("phh", type=Path, nargs="?", help="one .phh file")
    parser.add_argument("--db", help="the hand archive: a SQLite file or postgresql:// URL")
    parser.add_argument("--venue", help="the venue in the archive (with --db)")
    parser.add_argument("--key-file", help="the archive's sealing key, if it has one")
    parser.add_argument("--http-port", type=int, default=8084)
    add_bind_argument(parser)
    args = parser.parse_args(argv)
    if (args.phh is None) == (args.db is None) or (args.db is not None and not args.venue):
        parser.error("give one PHH file, or --db and --venue")
    try:
        pages = server(args)
    except (OSError, PhhError) as error:
        print(f"replayer: {error}", file=sys.stderr)
        return 65
    pages.start()
    print(f"hand replayer: {pages.url}", flush=True)
    return run_until_interrupted(pages)


if __name__ == "__main__":
    raise SystemExit(main())
