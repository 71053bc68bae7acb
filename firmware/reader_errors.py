"""One exception base for the reader drivers, so the node loop can catch them all.

A `ReaderTimeout` means the chip stopped answering (BUSY stuck, no IRQ) and a
`ReaderChipError` that it flagged an error of its own (GENERAL_ERROR_IRQ): the node counts
either and resets the chip instead of hanging the scan loop or reading "no tags".
`ReaderFieldBusy` is not a fault of ours: another reader's field was on, so this zone's
scan is skipped (not read as empty) and tried again later.
"""


class ReaderError(Exception):
    """Base of every reader-driver failure."""


class ReaderTimeout(ReaderError):
    """The chip did not become ready (BUSY low / IRQ) before the deadline."""


class ReaderProtocolError(ReaderError):
    """The chip or a tag answered something the protocol does not allow."""


class ReaderChipError(ReaderError):
    """The chip raised its general error: a command's condition failed."""


class ReaderFieldBusy(ReaderError):
    """RF_ON found another field (collision avoidance): try this zone again later."""


class AntennaFault(ReaderError):
    """The antenna switch cannot reach a zone's channel: that zone is out of service."""
