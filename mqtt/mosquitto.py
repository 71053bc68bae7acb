"""Run and configure mosquitto from Python: the shipped configs, password files, a broker process.

The test suite and ``bench`` start their own broker on a free port from the same config files
that ship for installers, so the ACL under test is the ACL in production.

    users = {table_login("casino", "t07"): "t-secret", "overlay": "o-secret"}
    with MosquittoProcess.from_shipped(workdir, users=users) as broker:
        print(broker.port)
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from pokertable.mqtt.errors import MqttBridgeError

BROKER_DIR = Path(__file__).parent / "broker"
ROLES = ("clock", "director", "floor", "overlay", "overlay-secure", "broadcaster", "broadcast")
"""Logins by role; each table has its own login besides (``table_login``)."""
WEBSOCKET_PORTS = ("9001", "9443")
"""The shipped configs' WebSockets listeners (the overlay page); the others are MQTT."""


def table_login(venue: str, table: str) -> str:
    """A table's broker login (and client id): the ACL pattern gives it its own subtree."""
    return f"{venue}/{table}"


MOSQUITTO_CANDIDATES = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


class BrokerError(MqttBridgeError):
    """mosquitto is missing, refused its config, or did not start listening."""


def find_mosquitto() -> str | None:
    """Path of the mosquitto binary (Debian puts it in /usr/sbin, often not on PATH)."""
    found = shutil.which("mosquitto")
    if found:
        return found
    for candidate in MOSQUITTO_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def write_password_file(path: Path, users: Mapping[str, str]) -> Path:
    """Create a mosquitto password file (hashed by ``mosquitto_passwd``) for ``users``."""
    tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    if not Path(tool).exists():
        raise BrokerError("mosquitto_passwd not found (Debian package: mosquitto)")
    path.unlink(missing_ok=True)
    for index, (user, password) in enumerate(users.items()):
        flags = ["-c"] if index == 0 else []
        subprocess.run([tool, *flags, "-b", str(path), user, password], check=True,
                       capture_output=True)
    path.chmod(0o600)
    return path


@dataclass(frozen=True, slots=True)
class TlsFiles:
    cafile: Path
    certfile: Path
    keyfile: Path


def render_shipped_config(
    name: str,
    *,
    port: int,
    workdir: Path,
    ws_port: int | None = None,
    password_file: Path | None,
    acl_file: Path | None,
    tls: TlsFiles | None = None,
    run_as: str | None = None,
) -> str:
    """The shipped config ``name`` with paths and port pointed at ``workdir`` (tests, bench)."""
    text = (BROKER_DIR / name).read_text(encoding="utf-8")
    def listener(match: re.Match[str]) -> str:
        websocket = match.group(1) in WEBSOCKET_PORTS
        return f"listener {(ws_port or free_port()) if websocket else port} 127.0.0.1"

    text = re.sub(r"(?m)^listener (\d+)$", listener, text)
    replacements = {
        "persistence_location": f"persistence_location {workdir}/",
        "password_file": f"password_file {password_file}" if password_file else "",
        "acl_file": f"acl_file {acl_file}" if acl_file else "",
    }
    if password_file is None:
        replacements["allow_anonymous"] = "allow_anonymous true"
    if tls is not None:
        replacements.update(
            cafile=f"cafile {tls.cafile}",
            certfile=f"certfile {tls.certfile}",
            keyfile=f"keyfile {tls.keyfile}",
        )
    for directive, line in replacements.items():
        text = re.sub(rf"(?m)^{directive} .*$", line, text)
    if run_as is not None:
        # Started as root, mosquitto drops to user "mosquitto", which cannot read a 0600
        # password file owned by root in a temp dir.
        text += f"\nuser {run_as}\n"
    return text


def _ports_listening(pid: int) -> set[int]:
    """TCP ports on which process ``pid`` itself listens.

    A port that merely answers is not proof: a probe's connect can pick the probed port as
    its own and connect to itself, and a port taken by another process answers too; either
    way mosquitto then fails to bind, exits, and the suite's next connect is refused. So
    the broker is ready when the kernel's table shows its own sockets listening.
    """
    try:
        fds = Path(f"/proc/{pid}/fd")
        links = [os.readlink(fds / fd) for fd in os.listdir(fds)]
        inodes = {link[8:-1] for link in links if link.startswith("socket:[")}
    except OSError:  # raced with the process's exit, or no /proc: the caller polls again
        return set()
    ports: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == _TCP_LISTEN and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


_TCP_LISTEN = "0A"
"""The LISTEN state in /proc/net/tcp (include/net/tcp_states.h)."""


class MosquittoProcess:
    """A mosquitto child process on a free port; restartable on the same port."""

    def __init__(self, config_path: Path, port: int, binary: str | None = None,
                 ws_port: int | None = None) -> None:
        found = binary or find_mosquitto()
        if found is None:
            raise BrokerError("mosquitto not installed (apt-get install mosquitto)")
        self.binary = found
        self.config_path = config_path
        self.port = port
        self.ws_port = ws_port
        """The MQTT-over-WebSockets port, when the config has that listener."""
        self.log_path = config_path.with_suffix(".log")
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_start = 0

    @classmethod
    def from_shipped(
        cls,
        workdir: Path,
        *,
        users: Mapping[str, str] | None = None,
        name: str = "mosquitto.conf",
        tls: TlsFiles | None = None,
        port: int | None = None,
    ) -> MosquittoProcess:
        """Broker from a shipped config; ``users`` None means anonymous and no ACL."""
        port = port or free_port()
        ws_port = free_port()
        while ws_port == port:  # two free ports a moment apart can be the same one
            ws_port = free_port()
        password_file = acl_file = None
        if users is not None:
            password_file = write_password_file(workdir / "passwd", users)
            acl_file = workdir / "pokertable.acl"
            acl_file.write_text((BROKER_DIR / "pokertable.acl").read_text(encoding="utf-8"))
        config = workdir / "mosquitto.conf"
        config.write_text(
            render_shipped_config(
                name, port=port, ws_port=ws_port, workdir=workdir, password_file=password_file,
                acl_file=acl_file, tls=tls, run_as="root" if os.geteuid() == 0 else None,
            )
        )
        return cls(config, port, ws_port=ws_port)

    def start(self, timeout: float = 5.0) -> None:
        if self._proc is not None:
            raise BrokerError("broker already running")
        log = self.log_path.open("ab")
        self._log_start = log.tell()
        self._proc = subprocess.Popen(
            [self.binary, "-c", str(self.config_path)], stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + timeout
        wanted = {port for port in (self.port, self.ws_port) if port is not None}
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                self._proc = None
                raise BrokerError(f"mosquitto exited: {self.log_path.read_text()[-2000:]}")
            if self._listening(wanted):
                return
            time.sleep(0.02)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on {self.port} within {timeout} s")

    def _listening(self, wanted: set[int]) -> bool:
        """Every listener is open, by the kernel's table where there is one (Linux), else by
        mosquitto's own word: it logs "running" once all its listeners are bound."""
        assert self._proc is not None
        if Path("/proc/net/tcp").exists():
            return wanted <= _ports_listening(self._proc.pid)
        return b" running" in self.log_path.read_bytes()[self._log_start:]

    def stop(self) -> None:
        """SIGTERM, so mosquitto saves its persistence file like a service restart does."""
        if self._proc is None:
            return
        self._proc.terminate()
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> MosquittoProcess:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
