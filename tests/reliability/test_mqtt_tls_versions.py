"""The shipped TLS variant speaks TLS 1.2 and 1.3 (issue #12, "held up well and must stay
so"): the real mosquitto with mosquitto-tls.conf, probed with ``openssl s_client``.

TLS 1.0 and 1.1 are refused by the config's ``tls_version tlsv1.2`` and, on this Debian,
by OpenSSL's own security level too, so no handshake here can tell the config's refusal
from OpenSSL's: this test checks only what the config must still allow."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pokertable.mqtt.mosquitto import MosquittoProcess, TlsFiles

pytestmark = pytest.mark.needs("mosquitto", "openssl")


def make_certs(directory: Path) -> TlsFiles:
    """A throwaway CA and a server certificate for 127.0.0.1."""

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=ca",
            "-keyout", "ca.key", "-out", "ca.crt")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", "server.key", "-out", "server.csr")
    (directory / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
    return TlsFiles(directory / "ca.crt", directory / "server.crt", directory / "server.key")


def handshake(port: int, version_flag: str, cafile: Path) -> str:
    """The protocol openssl negotiated, or '' when the server refused the handshake."""
    result = subprocess.run(
        ["openssl", "s_client", "-connect", f"127.0.0.1:{port}", version_flag,
         "-cipher", "DEFAULT:@SECLEVEL=0", "-CAfile", str(cafile), "-brief"],
        input=b"", capture_output=True, timeout=60,
    )
    output = (result.stdout + result.stderr).decode(errors="replace")
    for line in output.splitlines():
        if line.startswith("Protocol version:"):
            return line.split(":", 1)[1].strip()
    return ""


def test_mqtt_tls_variant_speaks_tls_1_2_and_1_3(tmp_path):
    certs = make_certs(tmp_path)
    broker = MosquittoProcess.from_shipped(tmp_path, users={"overlay": "pw"},
                                           name="mosquitto-tls.conf", tls=certs)
    broker.start()
    try:
        assert handshake(broker.port, "-tls1_2", certs.cafile) == "TLSv1.2"
        assert handshake(broker.port, "-tls1_3", certs.cafile) == "TLSv1.3"
    finally:
        broker.stop()
