"""ISO 15693 protocol layer on a PN5180: 16-slot inventory with mask anticollision.

A stack of chips puts 20+ tags in one field. A 16-slot inventory lets each tag answer
in the slot given by the 4 UID bits after the mask; a slot where two or more answer
collides, and that slot's bits are appended to the mask for a sub-round. Identified
tags are sent STAY QUIET so they drop out; a final unmasked round confirms that
nobody is left (a tag that was drowned out answers there). Usage::

    reader = Iso15693Reader(chip)
    reader.start()                       # RF config + field on
    uids = reader.inventory()            # list of 8-byte UIDs, MSB first (E0 ...)

UIDs are reported MSB first, the way they are printed on tag labels; on air they
travel LSB first, and the mask covers the least significant bits.
"""

from micropython import const

from pn5180 import (
    CRC_ENABLE,
    IRQ_RX,
    REG_CRC_RX_CONFIG,
    REG_CRC_TX_CONFIG,
    REG_RX_STATUS,
    RF_CONFIG_ISO15693_RX,
    RF_CONFIG_ISO15693_TX,
    RX_COLLISION_DETECTED,
    RX_DATA_INTEGRITY_ERROR,
    RX_NUM_BYTES_MASK,
    RX_PROTOCOL_ERROR,
)
from reader_errors import ReaderProtocolError

try:
    from typing import Any
except ImportError:
    pass

_DEBUG = const(False)

# Request flags (ISO 15693-3 table 3/4).
_FLAG_HIGH_DATA_RATE = const(0x02)
_FLAG_INVENTORY = const(0x04)
_FLAG_ONE_SLOT = const(0x20)  # with the inventory flag: Nb_slots = 1
_FLAG_ADDRESSED = const(0x20)  # without the inventory flag: addressed mode
_INVENTORY_16_SLOTS = const(0x06)  # _FLAG_HIGH_DATA_RATE | _FLAG_INVENTORY
_ADDRESSED_REQUEST = const(0x22)  # _FLAG_HIGH_DATA_RATE | _FLAG_ADDRESSED

_CMD_INVENTORY = const(0x01)
_CMD_STAY_QUIET = const(0x02)

_UID_LEN = const(8)
_UID_BITS = const(64)
_INVENTORY_RESPONSE_LEN = const(10)  # flags, DSFID, UID (CRC stripped by the chip)
_SLOTS = const(16)
_MAX_ROUNDS = const(200)  # bounds one inventory even with a pathological field

# Slot outcomes.
SLOT_EMPTY = const(0)
SLOT_ONE = const(1)
SLOT_COLLISION = const(2)


class Iso15693Reader:
    """Protocol layer: complete inventory of every ISO 15693 tag in the field."""

    def __init__(self, chip: Any, max_uids: int = 128) -> None:
        self._chip = chip
        self.max_uids = max_uids
        self._req = bytearray(12)  # flags, cmd, mask_len, up to 8 mask bytes
        self._quiet = bytearray(2 + _UID_LEN)
        self._pending: list[tuple[int, int]] = []  # (mask, mask_len) sub-rounds to run
        self._found_round: list[bytes] = []
        self.collisions = 0  # slots that collided (diagnostics: counts a real stack)
        self.rounds = 0

    def start(self) -> None:
        """Load the ISO 15693 RF configuration, enable CRCs and switch the field on."""
        chip = self._chip
        chip.load_rf_config(RF_CONFIG_ISO15693_TX, RF_CONFIG_ISO15693_RX)
        chip.write_register_or_mask(REG_CRC_RX_CONFIG, CRC_ENABLE)
        chip.write_register_or_mask(REG_CRC_TX_CONFIG, CRC_ENABLE)
        chip.rf_on()

    def stop(self) -> None:
        """Field off: every tag loses power and forgets its quiet state."""
        self._chip.rf_off()

    def inventory(self) -> list[bytes]:
        """Return the UIDs (MSB first) of all tags in the field, each once."""
        found: list[bytes] = []
        pending = self._pending
        del pending[:]
        pending.append((0, 0))
        rounds = 0
        confirmed = False
        while rounds < _MAX_ROUNDS and len(found) < self.max_uids:
            if not pending:
                if confirmed:
                    break
                # Final unmasked round: everyone identified is quiet, so silence
                # proves the stack is complete.
                pending.append((0, 0))
                confirmed = True
            mask, mask_len = pending.pop()
            answered = self._round(mask, mask_len, found)
            rounds += 1
            if answered:
                confirmed = False
        self.rounds = rounds
        return found

    def _round(self, mask: int, mask_len: int, found: list[bytes]) -> bool:
        """One 16-slot round; returns True if any tag answered (or collided)."""
        chip = self._chip
        req = self._req
        n_mask = (mask_len + 7) // 8
        req[0] = _INVENTORY_16_SLOTS
        req[1] = _CMD_INVENTORY
        req[2] = mask_len
        for i in range(n_mask):
            req[3 + i] = (mask >> (8 * i)) & 0xFF
        frame = memoryview(req)[: 3 + n_mask]
        new = self._found_round
        del new[:]
        answered = False
        for slot in range(_SLOTS):
            chip.start_transceive(frame, slot > 0)
            outcome = self._slot_result(new)
            if outcome == SLOT_EMPTY:
                continue
            answered = True
            if outcome == SLOT_COLLISION:
                self.collisions += 1
                if mask_len + 4 <= _UID_BITS - 4:
                    self._pending.append((mask | (slot << mask_len), mask_len + 4))
        for uid in new:
            if uid not in found:
                found.append(uid)
            self._stay_quiet(uid)
        if _DEBUG:
            print("iso15693 round mask", mask, mask_len, "found", len(new))
        return answered

    def _slot_result(self, new: list[bytes]) -> int:
        chip = self._chip
        irq = chip.wait_transceive()
        if not irq & IRQ_RX:
            return SLOT_EMPTY
        status = chip.read_register(REG_RX_STATUS)
        if status & RX_COLLISION_DETECTED:
            return SLOT_COLLISION
        if status & (RX_DATA_INTEGRITY_ERROR | RX_PROTOCOL_ERROR):
            # A garbled answer still means someone is in this slot: dig into it.
            return SLOT_COLLISION
        n = status & RX_NUM_BYTES_MASK
        if n != _INVENTORY_RESPONSE_LEN:
            return SLOT_COLLISION
        data = chip.read_data(n)
        if data[0] & 0x01:
            raise ReaderProtocolError("inventory response error flag 0x%02x" % data[0])
        uid = bytearray(_UID_LEN)
        for i in range(_UID_LEN):
            uid[i] = data[_INVENTORY_RESPONSE_LEN - 1 - i]  # LSB first on air
        new.append(bytes(uid))
        return SLOT_ONE

    def _stay_quiet(self, uid: bytes) -> None:
        """Addressed STAY QUIET: the tag ignores inventories until the field drops."""
        q = self._quiet
        q[0] = _ADDRESSED_REQUEST
        q[1] = _CMD_STAY_QUIET
        for i in range(_UID_LEN):
            q[2 + i] = uid[_UID_LEN - 1 - i]
        self._chip.start_transceive(q)
        self._chip.wait_transceive()  # no answer expected: the RX timer ends it

    def scan(self) -> list[bytes]:
        """One zone scan: field on, full inventory, field off (tags forget STAY QUIET)."""
        self.start()
        try:
            return self.inventory()
        finally:
            self.stop()
