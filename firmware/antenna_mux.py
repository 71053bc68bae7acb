"""Antenna multiplexer: GPIO lines select which antenna the reader's RF switches feed.

One reader serves several zones (bet, stack, hole-card pad; three seats = 9 antennas).
Channel k drives select line i to bit i of k: four lines reach 16 antennas through a
two-level tree of SP4T RF switches (binary-coded select inputs of the RF switches after the
EMC filter, both TX legs switched, one matching network per antenna: docs/wiring.md; an
analogue mux such as a 74HC4052 cannot carry the PN5180's drive); an optional
active-low enable line turns every antenna off while switching::

    mux = AntennaMux([Pin(6, Pin.OUT), Pin(7, Pin.OUT)], enable=Pin(8, Pin.OUT))
    mux.select(2)
"""

from reader_errors import AntennaFault

try:
    from typing import Any
except ImportError:
    pass


class AntennaMux:
    def __init__(self, select_pins: list[Any], enable: Any = None) -> None:
        self._pins = select_pins
        self._enable = enable
        self.channel = -1
        if enable is not None:
            enable.value(1)  # active low: all antennas off until the first select

    @property
    def channels(self) -> int:
        return 1 << len(self._pins)

    def select(self, channel: int) -> None:
        """Switch the RF path to antenna `channel` (0 .. channels-1)."""
        if not 0 <= channel < self.channels:
            raise AntennaFault(
                "channel %d: the antenna switch has channels 0..%d (%d select lines)"
                % (channel, self.channels - 1, len(self._pins))
            )
        if channel == self.channel:
            return
        if self._enable is not None:
            self._enable.value(1)
        for i, pin in enumerate(self._pins):
            pin.value((channel >> i) & 1)
        if self._enable is not None:
            self._enable.value(0)
        self.channel = channel

    def current(self) -> int:
        """The channel the select lines encode right now (what the RF switch sees)."""
        ch = 0
        for i, pin in enumerate(self._pins):
            if pin.value():
                ch |= 1 << i
        return ch
