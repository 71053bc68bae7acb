"""The one exception base of the ``hardware`` package.

Callers catch :class:`HardwareError` to handle any failure that comes from the
table's devices or their data (a bad registry entry, a port that will not open),
as pyserial's callers catch ``SerialException``.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every error raised on purpose by ``hardware``."""


class RegistryError(HardwareError):
    """A tag registry operation was refused (duplicate UID, bad field value)."""


class EnrollmentError(HardwareError):
    """An enrollment could not finish (timeout, a card placed out of order)."""
