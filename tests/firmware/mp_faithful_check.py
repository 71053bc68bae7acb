"""PN5180 driver and node loop against the datasheet-faithful fake, on simulated time.

    MICROPYPATH=firmware/host:firmware micropython mp_faithful_check.py <case>
    MICROPYPATH=tests/firmware/fixtures/wave1:firmware/host:firmware ... wave1_driver_fails

Time is a FakeClock that only the simulated hardware moves (each SPI transfer and pin
access costs what it costs on an RP2040, see firmware/host/machine.py), so every time
figure here is a deterministic outcome of the model, never a wall-clock measurement.
Each case prints `PASS <case> ...` or raises.
"""

import sys

import machine
import node_config
import wire
from antenna_mux import AntennaMux
from clock import FakeClock
from iso15693 import Iso15693Reader
from machine import SPI, UART, Pin
from pn5180 import Pn5180
from reader_errors import ReaderError, ReaderTimeout
from sim_field import FakePn5180, SimField


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def uid(i, zone=0):
    # Spread low bits like a real reel of chips: some slots collide, most do not.
    return bytes((0xE0, 0x04, 0x01, zone, 0x12, (i * 97) & 0xFF, (i * 7) & 0xFF, (i * 37) & 0xFF))


def rig(channel=None):
    clock = FakeClock(1000)
    machine.sim_clock = clock
    cs, busy, rst = Pin(17, Pin.OUT), Pin(20, Pin.IN), Pin(21, Pin.OUT)
    spi = SPI(0, baudrate=2000000)
    field = SimField(channel, clock=clock)
    fake = FakePn5180(field, cs, busy, rst, clock)
    spi.sim_attach(fake)
    clock.advance(10)  # power-on start-up over
    chip = Pn5180(spi, cs, busy, rst, clock)
    return clock, field, fake, chip


def timed_scan(clock, reader):
    t0 = clock.ticks_us()
    got = reader.scan()
    return got, (clock.ticks_us() - t0) // 1000


def case_wave1_driver_fails():
    """The wave-1 driver (fixtures/wave1) never arms TIMER1: its first silent slot hangs."""
    _clock, field, fake, chip = rig()
    check(not hasattr(chip, "arm_rx_timeout"), "this case must run the wave-1 driver")
    chip.reset()
    check(any("10 us" in v for v in fake.violations), "short reset pulse not caught")
    field.add(0, uid(1))
    reader = Iso15693Reader(chip)
    try:
        reader.scan()
    except ReaderTimeout as e:
        check("RX/timer" in str(e), "timed out elsewhere: %s" % e)
        check(fake.unarmed_silences >= 1, "the fake did not see an unarmed silent slot")
        print("PASS wave1_driver_fails:", e, "unarmed silent slots:", fake.unarmed_silences)
        return
    raise AssertionError("the wave-1 driver read the field without a receive timer")


def case_reset_sequence():
    clock, _field, fake, chip = rig()
    t0 = clock.ticks_us()
    chip.reset()
    check(fake.resets == 1, "reset pulse not taken (%r)" % fake.violations)
    check(clock.ticks_us() - t0 >= 2500, "commands sent before the 2.5 ms start-up")
    check(chip.read_register(0x02) == 0, "IRQs not cleared after IDLE_IRQ")
    check(fake.violations == [], "violations %r" % fake.violations)
    check(chip.versions() == (0x0305, 0x0401, 0x9100), "versions")
    print("PASS reset_sequence")


def case_reads_1_to_30_tags():
    """With STAY QUIET and the closing round (confirm, the driver real chips were timed
    with) the model's scan times match theirs; without (the default) every tag is still
    read, in less time."""
    for confirm in (True, False):
        reads_1_to_30_tags(confirm)


def reads_1_to_30_tags(confirm):
    clock, field, fake, chip = rig()
    chip.reset()
    reader = Iso15693Reader(chip)
    reader.confirm = confirm
    figures = []
    for n in (0, 1, 2, 5, 10, 15, 20, 25, 30):
        field.clear(0)
        for i in range(n):
            field.add(0, uid(i))
        air0 = fake.air_us
        got, ms = timed_scan(clock, reader)
        want = sorted(t.uid for t in field.tags[0])
        check(sorted(got) == want, "%d tags: read %d" % (n, len(got)))
        check(reader.complete, "%d tags: inventory not complete" % n)
        check(ms * 1000 >= fake.air_us - air0, "faster than the air time")
        figures.append("%d:%dms" % (n, ms))
        if n == 0:
            check(20 <= ms <= 70, "empty zone scan %d ms, real chips take ~40-65 ms" % ms)
        if n == 20 and confirm:
            check(250 <= ms <= 500, "20-chip scan %d ms, real chips take ~0.3-0.45 s" % ms)
    check(fake.violations == [], "datasheet violations %r" % fake.violations[:3])
    check(field.early_requests == 0, "requests before the tags powered up")
    print("PASS reads_1_to_30_tags", "confirm" if confirm else "fast", " ".join(figures))


def case_back_to_back_scans_see_everyone():
    """Field off >= 5 ms between scans: no tag stays quiet from the previous scan."""
    _clock, field, fake, chip = rig()
    chip.reset()
    for i in range(8):
        field.add(0, uid(i))
    reader = Iso15693Reader(chip)
    for k in range(3):
        check(len(reader.scan()) == 8, "scan %d missed quiet tags" % k)
    # The hazard itself: a field gap shorter than the tags' hold time keeps them quiet.
    chip.rf_on()
    for t in field.tags[0]:
        t.quiet = True
    chip.rf_off()
    chip.rf_on()
    check(all(t.quiet for t in field.tags[0]), "the fake forgot STAY QUIET over a short gap")
    chip.rf_off()
    check(fake.violations == [], "violations %r" % fake.violations)
    print("PASS back_to_back_scans_see_everyone")


def case_rf_on_collision_avoidance():
    _clock, field, fake, chip = rig()
    chip.reset()
    field.add(0, uid(3))
    field.external_field = True
    reader = Iso15693Reader(chip)
    try:
        reader.scan()
    except ReaderError as e:
        check(type(e).__name__ == "ReaderFieldBusy", "wrong error %r" % e)
        check(not fake.rf_on, "field switched on over a neighbour's")
    else:
        raise AssertionError("RF_ACTIVE_ERROR not reported")
    field.external_field = False
    check(reader.scan() == [uid(3)], "no recovery once the neighbour's field is off")
    print("PASS rf_on_collision_avoidance")


def case_general_error_is_not_an_empty_slot():
    _clock, field, fake, chip = rig()
    chip.reset()
    field.add(0, uid(4))
    reader = Iso15693Reader(chip)
    fake.fail_next_send = True
    try:
        got = reader.scan()
    except ReaderError as e:
        check(type(e).__name__ == "ReaderChipError", "wrong error %r" % e)
        print("PASS general_error_is_not_an_empty_slot")
        return
    raise AssertionError("a general error read as a field: %r" % got)


def case_inventory_bounded_by_time():
    _clock, field, _fake, chip = rig()
    chip.reset()
    for i in range(30):
        field.add(0, uid(i))
    reader = Iso15693Reader(chip, max_scan_ms=120)
    got = reader.scan()
    check(not reader.complete, "a cut-short inventory claimed to be complete")
    check(0 < len(got) < 30, "read %d" % len(got))
    print("PASS inventory_bounded_by_time read", len(got))


def case_150_chip_zone_completes_and_reports_removals():
    """Issue #28 goal 3: a 150-chip stack is inventoried over several scans (resumed, not
    restarted), completes, and a chip taken off is reported gone."""
    from zone_scanner import ZoneScanner

    clock, field, _fake, chip = rig()
    chip.reset()
    for i in range(150):
        field.add(0, uid(i))
    reader = Iso15693Reader(chip, max_scan_ms=500)  # 150 tags take ~1.5 s: 3+ scans
    scanner = ZoneScanner(reader, None, [("s1.stack", 0)], clock, 1, 1, 0)

    def run_until(done, limit_s=120):
        end = clock.ticks_ms() + limit_s * 1000
        slices = 0
        while clock.ticks_ms() < end:
            snap = scanner.step()
            clock.advance_us(LOOP_US)
            if not scanner.scanning:
                slices += 1
            if snap is not None and done(snap):
                return snap, slices
        raise AssertionError("no such snapshot in %d s; scans %d" % (limit_s, scanner.scans))

    t0 = clock.ticks_ms()
    snap, slices = run_until(lambda s: len(s[2]) == 150)
    took = clock.ticks_ms() - t0
    check(slices > 1, "150 chips in one scan: the resume path was not exercised")
    check(not scanner.is_incomplete("s1.stack"), "a completed zone flagged incomplete")
    field.remove(0, uid(77))
    t1 = clock.ticks_ms()
    snap, _ = run_until(lambda s: len(s[2]) == 149)
    check(uid(77) not in snap[2], "the chip taken off is still reported")
    print("PASS 150_chip_zone_completes_and_reports_removals in %d ms over %d scans, removal "
          "in %d ms" % (took, slices, clock.ticks_ms() - t1))


def case_150_chip_zone_completes_in_a_three_seat_node():
    """Issue #28 goal 3 at table scale: the node of three seats cuts a stack's inventory in
    60 ms slices between its bet sweeps (~20 of them for 150 chips). The zone completes,
    is never flagged incomplete, and a chip taken off is reported gone, on the wire."""
    from reader_timing import build, run_until  # the bench's three-seat node

    clock, field, node, uart = build(2, 3, 300)
    for ch in (1, 7):
        for i in range(40):
            field.add(ch, uid(i, ch))
    big = [uid(i, 4) for i in range(150)]
    for u in big:
        field.add(4, u)
    node.boot()
    flagged = []
    t0 = clock.ticks_ms()
    run_until(clock, node, uart, "seat2.stack", sorted(big), 120000, flagged)
    took = clock.ticks_ms() - t0
    field.remove(4, big[77])
    t1 = clock.ticks_ms()
    run_until(clock, node, uart, "seat2.stack", sorted(big[:77] + big[78:]), 120000, flagged)
    check(not flagged, "the 150-chip zone was flagged incomplete at %r ms" % flagged[:3])
    check(not node.scanner.is_incomplete("seat2.stack"), "the zone is still flagged incomplete")
    print("PASS 150_chip_zone_completes_in_a_three_seat_node settled in %d ms, removal "
          "reported settled in %d ms" % (took, clock.ticks_ms() - t1))


def case_a_collided_slot_split_at_its_collision_bit_loses_no_tag():
    """A collided slot is split in two one-slot requests at the collision bit (RX_COLL_POS)
    where slots hold two or three tags. The halves cover the whole slot, so a chip that
    reported the position wrongly would cost time, never a tag: with positions one bit
    late (never a split) or rounded down to the slot's boundary (split where the tags do
    not differ: one half holds them all) every inventory is still complete and whole."""
    import sim_field

    true_bit = sim_field.first_collision_bit
    wrong = {
        "exact": true_bit,
        "late": lambda answers: true_bit(answers) + 1,
        "boundary": lambda answers: true_bit(answers) - (true_bit(answers) - 16) % 4,
    }
    times = {}
    try:
        for shift, report in wrong.items():
            sim_field.first_collision_bit = report
            for n in (12, 20, 40):
                clock, field, fake, chip = rig()
                chip.reset()
                tags = [uid(i) for i in range(n)]
                for t in tags:
                    field.add(0, t)
                reader = Iso15693Reader(chip)
                got, ms = timed_scan(clock, reader)
                check(reader.complete and sorted(got) == sorted(tags),
                      "%s positions, %d tags: read %d" % (shift, n, len(got)))
                check(fake.violations == [], "violations %r" % fake.violations[:2])
                times[(shift, n)] = ms
    finally:
        sim_field.first_collision_bit = true_bit
    check(times[("exact", 40)] < times[("late", 40)], "the split did not pay: %r" % times)
    print("PASS a_collided_slot_split_at_its_collision_bit_loses_no_tag %r" % sorted(times.items()))


def case_a_zone_that_cannot_complete_is_flagged():
    """More tags than the reader will list: the zone says so instead of looking complete."""
    from zone_scanner import ZoneScanner

    clock, field, _fake, chip = rig()
    chip.reset()
    for i in range(20):
        field.add(0, uid(i))
    scanner = ZoneScanner(Iso15693Reader(chip, max_uids=10), None, [("s1.stack", 0)], clock,
                          1, 1, 0)
    end = clock.ticks_ms() + 20000
    while not scanner.is_incomplete("s1.stack"):
        scanner.step()
        clock.advance_us(LOOP_US)
        check(clock.ticks_ms() < end, "an endless zone never flagged")
    print("PASS a_zone_that_cannot_complete_is_flagged")


def case_crc_only_collisions_and_crc_errors_lose_no_tag():
    """Issue #28 goal 5: a collision seen only as a CRC error, and noise on single answers,
    are someone in the slot: a complete inventory still holds every tag (a driver that
    takes a CRC error for an empty slot misses tags and still says complete)."""
    import random

    random.seed(5)
    _clock, field, _fake, chip = rig()
    chip.reset()
    tags = [uid(i) for i in range(20)]
    for t in tags:
        field.add(0, t)
    field.crc_only_collision = 0.5
    field.crc_error = 0.05
    reader = Iso15693Reader(chip)
    complete = 0
    for _ in range(12):
        got = reader.scan()
        if reader.complete:
            complete += 1
            check(sorted(got) == sorted(tags), "complete inventory read %d of 20" % len(got))
    check(complete >= 10, "only %d of 12 inventories complete" % complete)
    print("PASS crc_only_collisions_and_crc_errors_lose_no_tag")


def case_a_late_answer_is_not_an_empty_zone():
    """TIMER1 runs out while a slow tag's answer is coming in (SOF seen): the driver waits
    for the frame instead of reading an empty slot, so the zone never reads empty."""
    _clock, field, _fake, chip = rig()
    chip.reset()
    field.add(0, uid(3))
    # T1 321 us + 250 us late: the SOF (151 us) is in at 722 us, TIMER1 (797 us) fires
    # before the 4 bits that stop it (873 us).
    field.late_answer_us = 250
    reader = Iso15693Reader(chip)
    got = reader.scan()
    check(got == [uid(3)] and reader.complete, "late tag read as %r" % got)
    check(reader.late_answers > 0, "the late answer was not exercised")
    print("PASS a_late_answer_is_not_an_empty_zone late=%d" % reader.late_answers)


def case_busy_rise_and_length_swept():
    """Issue #28 goal 5: BUSY rises some time after a frame (§11.4.1: wait for it high,
    then low) and stays high for a while; a driver that reads "BUSY low" before the
    rise, or never waits, talks into the busy chip. Swept over both."""
    for scale in (1, 5, 20):
        for rise in (0, 10, 30, 60):
            _clock, field, fake, chip = rig()
            fake.busy_scale = scale
            fake.busy_rise_us = rise
            chip.reset()
            for i in range(5):
                field.add(0, uid(i))
            reader = Iso15693Reader(chip)
            got = reader.scan()
            check(sorted(got) == sorted(uid(i) for i in range(5)) and reader.complete,
                  "BUSY x%d rise %d us: read %d of 5" % (scale, rise, len(got)))
            check(fake.violations == [], "BUSY x%d rise %d us: %r" % (scale, rise,
                                                                   fake.violations[:2]))
    print("PASS busy_rise_and_length_swept")


def case_tag_hold_times_swept():
    """A tag keeps STAY QUIET across a field gap shorter than its hold time. The driver's
    5 ms field-off covers holds up to 5 ms with STAY QUIET on (confirm); the default
    inventory sends no STAY QUIET, so no hold time can hide a tag from it."""
    from iso15693 import FIELD_OFF_US

    for hold in (0, 1500, 4900, 8000, 20000):
        for confirm in (True, False):
            _clock, field, fake, chip = rig()
            field.tag_hold_us = hold
            chip.reset()
            for i in range(8):
                field.add(0, uid(i))
            reader = Iso15693Reader(chip)
            reader.confirm = confirm
            counts = [len(reader.scan()) for _ in range(3)]
            if confirm and hold > FIELD_OFF_US + 2000:  # off 5 ms + RF config and RF_ON
                check(counts[1] < 8, "hold %d us: quiet tags answered %r" % (hold, counts))
            else:
                check(counts == [8, 8, 8], "hold %d us confirm %s: %r" % (hold, confirm, counts))
            check(fake.violations == [], "violations %r" % fake.violations[:2])
    print("PASS tag_hold_times_swept")


def node_rig(zones, tags_per_zone):
    from link import Rs485Link
    from node import Node
    from zone_scanner import ZoneScanner

    mux_pins = [Pin(6, Pin.OUT), Pin(7, Pin.OUT)]

    def channel():
        return mux_pins[0].value() | (mux_pins[1].value() << 1)

    clock, field, fake, chip = rig(channel)
    chip.reset()
    for z in range(zones):
        for i in range(tags_per_zone):
            field.add(z, uid(i, z))
    cfg = node_config.validate({
        "node_id": 5, "transport": "rs485", "present_after": 1, "absent_after": 2,
        "zones": [{"name": "s%d.stack" % z, "channel": z} for z in range(zones)],
    })
    scanner = ZoneScanner(Iso15693Reader(chip), AntennaMux(mux_pins), node_config.zone_list(cfg),
                          clock, 1, 2, cfg["settle_ms"])
    uart = UART(1)
    wdt = machine.WDT(timeout=2000)
    node = Node(Rs485Link(uart, 5, Pin(2, Pin.OUT)), scanner, clock, cfg, recover=chip.reset,
                wdt=wdt)
    return clock, field, fake, node, uart, wdt


def case_node_answers_polls_while_scanning_20_chip_stacks():
    """A poll every 7 ms of simulated time, 3 zones of 20 chips: every answer in its window."""
    clock, _field, fake, node, uart, wdt = node_rig(3, 20)
    node.boot()
    window_us = 50000  # the master's response window (hardware/rs485.py)
    period_us = 7000
    seq = 0
    latencies = []
    mid_scan = 0
    snaps = {}
    next_poll = clock.ticks_us()
    pending = None
    end = clock.ticks_us() + 3000000
    while clock.ticks_us() < end:
        if pending is None and clock.ticks_us() >= next_poll:
            seq += 1
            uart.sim_feed(wire.encode_frame(5, wire.MSG_POLL, seq))
            pending = clock.ticks_us()
            if node.scanner.scanning:
                mid_scan += 1
        node.step()
        clock.advance_us(LOOP_US)
        out = uart.sim_take_tx()
        if out and pending is not None:
            latencies.append(clock.ticks_us() - pending)
            pending = None
            next_poll = clock.ticks_us() + period_us
            for f in wire.FrameDecoder().feed(out):
                if f[1] == wire.MSG_SNAPSHOT:
                    z, _settled, uids = wire.unpack_snapshot(f[3])
                    snaps[z] = len(uids)
    check(seq > 100, "only %d polls" % seq)
    check(len(latencies) >= seq - 1, "%d of %d polls answered" % (len(latencies), seq))
    worst = max(latencies)
    check(worst < window_us, "a poll waited %d us, past the %d us window" % (worst, window_us))
    check(mid_scan > seq // 2, "polls rarely hit a scan in progress (%d of %d)" % (mid_scan, seq))
    check(snaps == {"s0.stack": 20, "s1.stack": 20, "s2.stack": 20}, "snapshots %r" % snaps)
    check(wdt.longest_gap_us < 2000000, "watchdog starved %d us" % wdt.longest_gap_us)
    check(fake.violations == [], "violations %r" % fake.violations[:3])
    print("PASS node_answers_polls_while_scanning_20_chip_stacks polls=%d mid_scan=%d "
          "worst_us=%d scans=%d" % (seq, mid_scan, worst, node.scanner.scans))


def run_until(clock, node, cond, limit_us=3000000):
    """Step the node until cond() holds, each loop turn costing LOOP_US of simulated time."""
    end = clock.ticks_us() + limit_us
    while not cond():
        if clock.ticks_us() > end:
            raise AssertionError("condition not reached in %d simulated us" % limit_us)
        node.step()
        clock.advance_us(LOOP_US)


LOOP_US = 60  # one Node.step() turn of the interpreter besides its bus traffic


def case_node_survives_reader_faults():
    clock, field, fake, node, _uart, _wdt = node_rig(1, 3)
    node.boot()
    run_until(clock, node, lambda: len(node.scanner.snapshot(0)[2]) == 3)
    fake.fail_next_send = True
    run_until(clock, node, lambda: node.reader_errors >= 1)
    check(node.resets >= 1, "fault not followed by a chip reset")
    scans = node.scanner.scans
    run_until(clock, node, lambda: node.scanner.scans > scans + 2)  # scanning again
    field.external_field = True
    skipped = node.scanner.skipped
    run_until(clock, node, lambda: node.scanner.skipped > skipped + 3)
    present = node.scanner.snapshot(0)[2]
    check(len(present) == 3, "a busy field emptied the zone: %r" % present)
    print("PASS node_survives_reader_faults")




def case_trace_record_and_replay():
    """Record a scan's SPI trace on the fake, replay it with no chip: same UIDs, same bytes."""
    from spi_trace import TraceRecorder, TraceReplay, loads

    clock, field, fake, chip = rig()
    chip.reset()
    for i in range(3):
        field.add(0, uid(i))
    rec = TraceRecorder(fake, clock)
    chip._spi.sim_attach(rec)
    want = sorted(Iso15693Reader(chip).scan())
    text = rec.dumps()
    frames = loads(text)
    check(len(frames) > 100, "trace too short")
    # Replay: a fresh driver, no fake at all, only the recorded answers.
    cs, busy, rst = Pin(27, Pin.OUT), Pin(28, Pin.IN), Pin(29, Pin.OUT)
    spi = SPI(0, baudrate=2000000)
    replay = TraceReplay(frames, cs)
    spi.sim_attach(replay)
    chip2 = Pn5180(spi, cs, busy, rst, clock)
    chip2._timer_reload = -1
    got = sorted(Iso15693Reader(chip2).scan())
    check(got == want, "replay read %r, recorded %r" % (got, want))
    check(replay.complete, "replay diverged: %s" % replay.divergence)
    # A driver that speaks differently is caught at the first differing frame.
    replay2 = TraceReplay(frames, cs)
    spi.sim_attach(replay2)
    chip3 = Pn5180(spi, cs, busy, rst, clock)
    chip3.arm_rx_timeout(500)  # not what the recorded driver sent first
    check(replay2.divergence.startswith("frame 0"), "divergence %r" % replay2.divergence)
    print("PASS trace_record_and_replay frames=%d" % len(frames))


def case_main_never_stops_at_the_repl():
    """No config, then no reader on the SPI bus: main() reports, feeds the watchdog, retries."""
    import json

    import main

    machine.sim_clock = None
    main.RETRY_MS = 60
    main.CONFIG_PATH = "/nonexistent/node_config.json"
    main.main(attempts=2)  # returns after its attempts instead of raising
    with open(main.__file__.rsplit("/", 1)[0] + "/boards/rp2040_pico.json") as f:
        board = json.loads(f.read())
    main.load_board = lambda name, base="": board
    cfg_path = "/tmp/pokertable-main-check.json"
    with open(cfg_path, "w") as f:
        f.write('{"node_id": 3}')
    main.CONFIG_PATH = cfg_path
    wdt = main.start_watchdog()
    # Nothing answers on SPI (the reset finds no IDLE_IRQ): the node boots all the same,
    # says so in its BIRTH, and goes on (heartbeat, link, watchdog) instead of restarting.
    node = main.build(main.node_config.load(cfg_path), board, wdt)
    node.boot()
    for _ in range(20):
        node.step()
    out = wire.FrameDecoder().feed(node.link._port.sim_take_tx())
    births = [wire.unpack_birth_faults(f[3]) for f in out if f[1] == wire.MSG_BIRTH]
    check(births and births[0] and births[0][0][0] == "", "no reader fault in BIRTH: %r" % births)
    check(wdt.feeds > 0, "watchdog not fed while the reader is out of service")
    print("PASS main_never_stops_at_the_repl")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    for n in sys.argv[1:] or sorted(CASES):
        CASES[n]()
