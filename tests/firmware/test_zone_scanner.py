"""Zone scanner debounce and settle, on CPython with a fake clock (no sleeping)."""

import pytest
from antenna_mux import AntennaMux  # flat firmware imports, as on the node
from clock import FakeClock
from hypothesis import given
from hypothesis import strategies as st
from reader_errors import AntennaFault
from zone_scanner import ZoneScanner

A = b"\xe0\x04" + b"\x00" * 5 + b"\x0a"
B = b"\xe0\x04" + b"\x00" * 5 + b"\x0b"


class ScriptedReader:
    """Returns, per scan, what the test says the antenna currently sees."""

    def __init__(self, mux: "FakeMux") -> None:
        self.mux = mux
        self.seen: dict[int, list[bytes]] = {}

    def scan(self) -> list[bytes]:
        return list(self.seen.get(self.mux.channel, []))


class FakeMux:
    def __init__(self) -> None:
        self.channel = -1
        self.history: list[int] = []

    def select(self, ch: int) -> None:
        self.channel = ch
        self.history.append(ch)


def make(present_after: int = 2, absent_after: int = 3, settle_ms: int = 300):  # type: ignore[no-untyped-def]
    clock = FakeClock()
    mux = FakeMux()
    reader = ScriptedReader(mux)
    sc = ZoneScanner(reader, mux, [("bet", 0)], clock, present_after, absent_after, settle_ms)
    return sc, reader, clock


def step(sc, clock, ms: int = 50):  # type: ignore[no-untyped-def]
    clock.advance(ms)
    return sc.poll()


def test_present_only_after_n_consecutive_sightings() -> None:
    sc, reader, clock = make(present_after=3)
    reader.seen[0] = [A]
    assert step(sc, clock) is None
    assert step(sc, clock) is None
    assert step(sc, clock) == ("bet", False, [A])


def test_sightings_must_be_consecutive() -> None:
    sc, reader, clock = make(present_after=2)
    reader.seen[0] = [A]
    assert step(sc, clock) is None
    reader.seen[0] = []
    assert step(sc, clock) is None
    reader.seen[0] = [A]
    assert step(sc, clock) is None  # count restarted
    assert step(sc, clock) == ("bet", False, [A])


def test_absent_only_after_m_misses_and_snapshot_is_full_set() -> None:
    sc, reader, clock = make(present_after=1, absent_after=3)
    reader.seen[0] = [A, B]
    assert step(sc, clock) == ("bet", False, [A, B])
    reader.seen[0] = [B]
    assert step(sc, clock) is None
    assert step(sc, clock) is None
    assert step(sc, clock) == ("bet", False, [B])  # full snapshot, not a diff


def test_a_single_missed_read_does_not_drop_a_chip() -> None:
    sc, reader, clock = make(present_after=1, absent_after=2)
    reader.seen[0] = [A]
    assert step(sc, clock) == ("bet", False, [A])
    reader.seen[0] = []
    assert step(sc, clock) is None
    reader.seen[0] = [A]
    out = [step(sc, clock) for _ in range(3)]
    assert all(o is None or o == ("bet", True, [A]) for o in out)


def test_settled_after_quiet_window_exactly_once() -> None:
    sc, reader, clock = make(present_after=1, settle_ms=300)
    reader.seen[0] = [A]
    assert step(sc, clock, 10) == ("bet", False, [A])
    assert step(sc, clock, 299) is None  # 299 ms since the change
    assert step(sc, clock, 1) == ("bet", True, [A])
    assert step(sc, clock, 1000) is None


def test_pending_chip_holds_off_settling() -> None:
    sc, reader, clock = make(present_after=1, absent_after=5, settle_ms=100)
    reader.seen[0] = [A]
    assert step(sc, clock, 10) == ("bet", False, [A])
    reader.seen[0] = []  # A is leaving: misses pending, not settled yet
    for _ in range(4):
        assert step(sc, clock, 60) is None
    # Gone on the 5th miss; the inventories have seen an empty zone since the first miss
    # 240 ms ago (over settle_ms): settled at once.
    assert step(sc, clock, 60) == ("bet", True, [])


def test_settle_runs_from_the_first_sighting_not_the_debounce() -> None:
    """present_after 2: the second inventory confirms A; the zone settles there only if
    the two inventories that saw the same set lie settle_ms apart (issue #28 speed)."""
    sc, reader, clock = make(present_after=2, absent_after=2, settle_ms=100)
    reader.seen[0] = [A]
    assert step(sc, clock, 10) is None  # first sighting
    assert step(sc, clock, 60) == ("bet", False, [A])  # confirmed 60 ms later: not settled
    assert step(sc, clock, 60) == ("bet", True, [A])  # 120 ms of the same sightings
    sc2, reader2, clock2 = make(present_after=2, absent_after=2, settle_ms=100)
    reader2.seen[0] = [A]
    assert step(sc2, clock2, 10) is None
    assert step(sc2, clock2, 150) == ("bet", True, [A])  # one snapshot, already settled


def test_a_resumed_inventory_counts_one_sighting_per_tag() -> None:
    """A stack read over two slices reports A at both slice ends: one sighting, so
    present_after 2 still needs a second inventory (the debounce is not halved)."""
    sc, _reader, _clock = make(present_after=2, absent_after=2, settle_ms=0)
    assert sc.update(0, [A], 10, complete=False, carry=True) is None  # slice 1
    assert sc.update(0, [A, B], 20, complete=True) is None  # slice 2: same inventory
    assert sc.update(0, [A, B], 30) == ("bet", True, [A, B])  # second inventory


def test_empty_zone_settles_after_boot() -> None:
    sc, _reader, clock = make(settle_ms=200)
    assert step(sc, clock, 100) is None
    assert step(sc, clock, 100) == ("bet", True, [])


def test_round_robin_over_zones_through_the_mux() -> None:
    clock = FakeClock()
    mux = FakeMux()
    reader = ScriptedReader(mux)
    sc = ZoneScanner(reader, mux, [("bet", 2), ("stack", 0), ("cards", 1)], clock, 1, 1, 0)
    reader.seen[0] = [B]
    got = [step(sc, clock, 1) for _ in range(6)]
    assert mux.history == [2, 0, 1, 2, 0, 1]
    assert got[1] == ("stack", False, [B])
    assert got[4] == ("stack", True, [B])


def test_a_zone_that_changed_is_watched_until_it_settles() -> None:
    """A bet lands: its zone is scanned again until settled, not after every other zone."""
    clock = FakeClock()
    mux = FakeMux()
    reader = ScriptedReader(mux)
    sc = ZoneScanner(reader, mux, [("bet", 0), ("stack", 1), ("cards", 2)], clock, 1, 1, 30)
    reader.seen[0] = [A]
    got = [step(sc, clock, 10) for _ in range(6)]
    assert mux.history[:4] == [0, 0, 0, 0]  # watched: 10 ms scans, settled 30 ms after
    assert got[0] == ("bet", False, [A]) and got[3] == ("bet", True, [A])
    assert mux.history[4:] == [1, 2]  # settled: round robin again


def test_reconfigure_validates_fields() -> None:
    sc, _reader, _clock = make()
    with pytest.raises(ValueError, match="present_after"):
        sc.configure(0, 1, 1)
    with pytest.raises(ValueError, match="settle_ms"):
        sc.configure(1, 1, -1)


class RecordingPin:
    def __init__(self) -> None:
        self.v = 0

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.v
        self.v = v
        return None


def test_antenna_mux_drives_binary_select_lines() -> None:
    pins = [RecordingPin(), RecordingPin()]
    en = RecordingPin()
    mux = AntennaMux(pins, enable=en)  # type: ignore[arg-type]
    mux.select(2)
    assert [p.v for p in pins] == [0, 1] and en.v == 0 and mux.current() == 2
    mux.select(3)
    assert mux.current() == 3
    with pytest.raises(AntennaFault, match="channel 4"):
        mux.select(4)


C = b"\xe0\x04" + b"\x00" * 5 + b"\x0c"


@given(
    st.lists(st.frozensets(st.sampled_from([A, B, C])), min_size=1, max_size=25),
    st.integers(1, 3),
    st.integers(1, 3),
)
def test_any_history_converges_to_what_the_antenna_sees(
    history: list[frozenset[bytes]], n: int, m: int
) -> None:
    """Whatever flickered before, a set seen long enough is published, then settled."""
    sc, reader, clock = make(present_after=n, absent_after=m, settle_ms=100)
    last = None
    for seen in history + [history[-1]] * max(n, m):
        reader.seen[0] = sorted(seen)
        snap = step(sc, clock, 10)
        if snap is not None:
            assert snap[2] == sorted(sc.zones[0].present)  # every snapshot is the full set
            last = snap
    assert sc.snapshot(0)[2] == sorted(history[-1])
    for _ in range(20):
        snap = step(sc, clock, 10)
        if snap is not None:
            last = snap
    assert last == ("bet", True, sorted(history[-1]))


def test_a_full_zone_is_published_whole_and_split_into_frame_sized_parts() -> None:
    """128 chips in one zone: the snapshot holds all of them, the wire carries it in parts."""
    from wire import SNAPSHOT_PART_UIDS, snapshot_parts, unpack_snapshot_part

    sc, reader, clock = make(present_after=1)
    reader.seen[0] = [b"\xe0\x04" + i.to_bytes(6, "big") for i in range(128)]
    snap = step(sc, clock)
    assert snap is not None and len(snap[2]) == 128
    parts = [unpack_snapshot_part(p) for p in snapshot_parts(*snap, gen=7)]
    assert len(parts) == 128 // SNAPSHOT_PART_UIDS
    assert [p[4] for p in parts] == [(7, k, len(parts)) for k in range(len(parts))]
    assert sorted(u for p in parts for u in p[2]) == sorted(reader.seen[0])


def test_a_zone_the_switch_cannot_reach_is_a_fault_and_the_others_scan() -> None:
    """Channel 5 on a 2-line (4-channel) switch: reported, never selected, no crash."""
    pins = [RecordingPin(), RecordingPin()]
    clock = FakeClock()
    mux = AntennaMux(pins)  # type: ignore[arg-type]
    reader = ScriptedReader(mux)  # type: ignore[arg-type]
    reader.seen[0] = [A]
    sc = ZoneScanner(reader, mux, [("bet", 0), ("far", 5)], clock, 1, 1, 0)
    assert sc.zone_names() == ["bet"]
    assert sc.faults() == [("far", "channel 5: the antenna switch has channels 0..3")]
    snaps = [step(sc, clock) for _ in range(4)]
    assert ("bet", False, [A]) in snaps


class CutShortReader(ScriptedReader):
    """An inventory that ran out of time: it saw only part of the stack."""

    complete = True

    def scan(self) -> list[bytes]:
        return super().scan()


def test_an_incomplete_inventory_adds_sightings_but_no_misses() -> None:
    clock = FakeClock()
    mux = FakeMux()
    reader = CutShortReader(mux)
    sc = ZoneScanner(reader, mux, [("bet", 0)], clock, 1, 1, 100)
    reader.seen[0] = [A, B]
    assert step(sc, clock) == ("bet", False, [A, B])
    reader.complete = False
    reader.resuming = True  # type: ignore[attr-defined]  # the next scan carries on
    reader.seen[0] = [A]  # B not reached before the time budget ran out
    assert step(sc, clock) is None
    assert sc.zones[0].present == {A, B}
    assert not sc.is_incomplete("bet")  # progress, not a fault
    reader.complete = True
    assert step(sc, clock) == ("bet", False, [A])


def test_an_inventory_that_cannot_complete_flags_the_zone_until_one_does() -> None:
    clock = FakeClock()
    mux = FakeMux()
    reader = CutShortReader(mux)
    sc = ZoneScanner(reader, mux, [("bet", 0)], clock, 1, 1, 100)
    reader.seen[0] = [A]
    assert step(sc, clock) == ("bet", False, [A])
    reader.complete = False  # given up (too many tags): not resuming
    reader.seen[0] = [B]
    assert step(sc, clock) == ("bet", False, [A, B])  # published at once, with the flag
    assert sc.is_incomplete("bet")
    assert step(sc, clock) is None  # flagged once
    reader.complete = True
    reader.seen[0] = [A, B]
    assert step(sc, clock) is not None and not sc.is_incomplete("bet")


class BusyFieldReader(ScriptedReader):
    def scan(self) -> list[bytes]:
        from reader_errors import ReaderFieldBusy

        raise ReaderFieldBusy("another reader's field")


def test_a_busy_field_skips_the_zone_instead_of_emptying_it() -> None:
    sc, reader, clock = make(present_after=1, absent_after=1)
    reader.seen[0] = [A]
    assert step(sc, clock) == ("bet", False, [A])
    sc._reader = BusyFieldReader(reader.mux)
    for _ in range(3):
        assert step(sc, clock) is None
    assert sc.skipped == 3 and sc.zones[0].present == {A}


def test_a_pending_change_is_confirmed_at_once_not_a_round_later() -> None:
    """A chip seen once (present_after 2) is rescanned right away: one round, not two."""
    clock = FakeClock()
    mux = FakeMux()
    reader = ScriptedReader(mux)
    sc = ZoneScanner(reader, mux, [("bet", 0), ("stack", 1), ("cards", 2)], clock, 2, 2, 0)
    reader.seen[0] = [A]
    got = [step(sc, clock, 1) for _ in range(4)]
    assert mux.history == [0, 0, 1, 2]
    assert got[1] == ("bet", True, [A])  # settle_ms 0: two equal inventories settle it
    reader.seen[0] = []  # A leaves: the first miss is confirmed by the very next scan
    got = [step(sc, clock, 1) for _ in range(3)]
    assert mux.history[4:] == [0, 0, 1]
    assert got[1] == ("bet", True, [])


class SlicedReader(ScriptedReader):
    """Records the time budget each scan was given."""

    max_scan_ms = 1500

    def __init__(self, mux: "FakeMux") -> None:
        super().__init__(mux)
        self.budgets: list[tuple[int, int]] = []

    def scan(self) -> list[bytes]:
        self.budgets.append((self.mux.channel, self.max_scan_ms))
        return super().scan()


def two_seats() -> "tuple[ZoneScanner, SlicedReader, FakeMux, FakeClock]":
    """Two seats (bet and stack each) and a board zone on a sliced reader."""
    clock = FakeClock()
    mux = FakeMux()
    reader = SlicedReader(mux)
    zones = [("s1.bet", 0), ("s1.stack", 1), ("s2.bet", 2), ("s2.stack", 3), ("board", 4)]
    return ZoneScanner(reader, mux, zones, clock, 1, 1, 0), reader, mux, clock


def test_bet_zones_are_swept_between_slices_of_the_other_zones() -> None:
    """Issue #28 goal 4: a bet waits for one slice of a stack inventory, not a round."""
    sc, reader, mux, clock = two_seats()
    for _ in range(12):
        step(sc, clock, 1)
    assert mux.history == [1, 0, 2, 3, 0, 2, 4, 0, 2, 1, 0, 2]
    budgets = dict(reader.budgets)
    assert budgets[0] == budgets[2] == 1500  # a bet zone's inventory runs whole
    assert budgets[1] == budgets[3] == budgets[4] == sc.slice_ms < 1500


def test_chips_landing_in_a_bet_zone_put_the_seats_stack_next() -> None:
    """Issue #28 goal 4: the stack a bet came from is inventoried twice back to back
    (after the bet sweeps), not once per round of the node's zones; other seats wait."""
    sc, reader, mux, clock = two_seats()
    for _ in range(4):
        step(sc, clock, 1)
    assert mux.history == [1, 0, 2, 3]
    reader.seen[0] = [A]  # a bet lands in s1.bet
    got = [step(sc, clock, 1) for _ in range(9)]
    assert got[0] == ("s1.bet", False, [A])
    assert got[3] == ("s1.bet", True, [A])  # settled at its next sweep
    # s1.stack twice, each after a sweep of the bets; then the round robin (board) again
    assert mux.history[4:] == [0, 2, 1, 0, 2, 1, 0, 2, 4]
    assert reader.budgets[-1] == (4, sc.slice_ms)
    assert {ch: ms for ch, ms in reader.budgets}[1] == sc.slice_ms  # slices stay short
