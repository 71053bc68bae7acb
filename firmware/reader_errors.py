"""One exception base for the reader drivers, so the node loop can catch them all.

A `ReaderTimeout` means the chip stopped answering (BUSY stuck, no IRQ): the node
counts it and resets the chip instead of hanging the scan loop.
"""


class ReaderError(Exception):
    """Base of every reader-driver failure."""


class ReaderTimeout(ReaderError):
    """The chip did not become ready (BUSY low / IRQ) before the deadline."""


class ReaderProtocolError(ReaderError):
    """The chip or a tag answered something the protocol does not allow."""
