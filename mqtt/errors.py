"""The one exception base of the ``mqtt`` package: callers catch bridge faults in one place."""

from __future__ import annotations


class MqttBridgeError(Exception):
    """Base class for every error the MQTT bridge raises."""


class PayloadError(MqttBridgeError):
    """A payload broke its JSON Schema; ``field`` names the offending field (dotted path)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message if field is None else f"{field}: {message}")
        self.message = message
        self.field = field
