"""The broker connection every room service opens: an id nobody can take over, quick
reconnects, and a last will that tells the room the service is gone.

MQTT lets a second connection with the same client id take the session over (the first
is disconnected). A service that used its login or a name like ``seating-<venue>`` as its
id could be knocked off by anyone who guessed it. A service keeps a random id, or, when
it needs the broker to keep its messages across a restart (a persistent session, the
archive), an id derived from its own password that only a holder of the password can
compute (as a table's, ``mqtt.inbound.table_client_id``).

Each service publishes ``online`` (retained) on ``<venue>/services/<login>/<service>`` (the
ACL lets a login write only under its own name) when it
connects, ``offline`` when it stops, and the broker publishes its will, ``lost``, when the
connection dies: a display or the floor console can say which service is missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.mqtt.payloads import SCHEMA_VERSION
from pokertable.mqtt.topics import ROOT

LOG = logging.getLogger(__name__)
RECONNECT_MIN_S, RECONNECT_MAX_S = 1, 5
"""paho's default backoff grows to 120 s; a room service is back within 5 s of the broker."""


def service_client_id(service: str, login: tuple[str, str], *, persistent: bool) -> str:
    """A random id, or for a persistent session one derived from the password.

    >>> a = service_client_id("archive", ("archive", "pw"), persistent=True)
    >>> a == service_client_id("archive", ("archive", "pw"), persistent=True)
    True
    >>> a == service_client_id("archive", ("archive", "other"), persistent=True)
    False
    >>> service_client_id("clock", ("clock", ""), persistent=False).startswith("clock-")
    True
    """
    if not persistent:
        return f"{service}-{secrets.token_hex(8)}"
    tag = hmac.new(login[1].encode(), f"client-id:{service}/{login[0]}".encode(), hashlib.sha256)
    return f"{service}-{tag.hexdigest()[:20]}"


def service_status_topic(venue: str, login: str, service: str) -> str:
    """Where a room service says online / offline / lost (retained)."""
    return f"{ROOT}/{venue}/services/{login}/{service}"


def service_status(venue: str, service: str, state: str) -> str:
    return json.dumps({"schema_version": SCHEMA_VERSION, "venue": venue, "service": service,
                       "state": state,
                       "ts_ms": time.time_ns() // 1_000_000})


class ServiceClient(mqtt.Client):
    """A paho client for room service ``service`` of ``venue``: unguessable id, reconnects
    within 5 s, retained status with a ``lost`` will. Call ``say_online`` from on_connect."""

    def __init__(self, service: str, venue: str, login: tuple[str, str], *,
                 persistent: bool = False) -> None:
        super().__init__(
            CallbackAPIVersion.VERSION2,
            client_id=service_client_id(service, login, persistent=persistent),
            clean_session=not persistent,
        )
        self.service, self.venue = service, venue
        self.status_topic = service_status_topic(venue, login[0], service)
        self.username_pw_set(*login)
        self.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
        self.will_set(self.status_topic, service_status(venue, service, "lost"), 1, retain=True)
        # Never silent about the broker, never a line per retry: one line when it cannot be
        # reached or is lost, one when it answers again.
        self.failed_attempts = 0  # since the broker last answered
        self.refused: str | None = None  # why the broker last refused our login, if it did
        self.on_connect_fail = self._unreachable
        self.on_disconnect = self._disconnected

    def _unreachable(self, client: mqtt.Client, userdata: Any) -> None:
        self.failed_attempts += 1
        if self.failed_attempts == 1:
            LOG.warning("%s: broker %s:%s unreachable; trying again every %d s until it answers",
                        self.service, self.host, self.port, RECONNECT_MAX_S)

    def accepted(self, reason: Any) -> bool:
        """Whether the broker took our login; call first in on_connect.

        A refused login (a wrong password, a login missing from the broker's password
        file) is a setup error an installer must see once, named, not a "lost the broker"
        line per retry; paho keeps retrying, so a fixed password file is picked up."""
        if not getattr(reason, "is_failure", False):
            return True
        if self.refused != str(reason):
            self.refused = str(reason)
            LOG.error("%s: broker %s:%s refused login %r: %s; check the service's "
                      "password_file against the broker's password file (docs/room.md); "
                      "trying again every %d s", self.service, self.host, self.port,
                      self.username, reason,
                      RECONNECT_MAX_S)
        return False

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                      properties: Any) -> None:
        if self.refused is not None:  # the refusal said it; the retries say nothing more
            return
        if getattr(reason, "is_failure", False):
            LOG.warning("%s: lost the broker %s:%s (%s); reconnecting within %d s",
                        self.service, self.host, self.port, reason, RECONNECT_MAX_S)
            self.failed_attempts = max(self.failed_attempts, 1)  # the retries say nothing more

    def say_online(self) -> None:
        """Connected: ``online`` (retained), and a line if the broker had been unreachable."""
        if self.failed_attempts:
            LOG.warning("%s: broker %s:%s answers again", self.service, self.host, self.port)
            self.failed_attempts = 0
        if self.refused is not None:
            LOG.warning("%s: broker %s:%s accepted login %r", self.service, self.host,
                        self.port, self.username)
            self.refused = None
        self.publish(self.status_topic, service_status(self.venue, self.service, "online"), 1,
                     retain=True)

    def say_offline_and_disconnect(self) -> None:
        """A clean stop: ``offline`` (not the will), then disconnect."""
        if self.is_connected():
            info = self.publish(self.status_topic,
                                service_status(self.venue, self.service, "offline"), 1,
                                retain=True)
            # the connection may go while stopping: the will says lost instead
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2)
        self.disconnect()
