"""MicroPython firmware for the reader nodes under the felt.

Each reader node drives an RFID reader (PN5180 for ISO 15693 chip stacks, MFRC522 for
ISO 14443A cards), multiplexes it across zones (bet, stack, hole cards, board, burn,
muck), debounces what it sees and reports full zone snapshots to the Pi over a framed,
CRC-checked serial link. The wire codec is one source file that runs unchanged on
MicroPython and on CPython, which is why this folder is also an importable package.
"""
