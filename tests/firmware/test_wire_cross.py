"""The same codec vectors under MicroPython, and frames crossing interpreters both ways."""

import subprocess
from collections.abc import Callable
from pathlib import Path

from pokertable.firmware import wire

from .codec_vectors import vectors

RunMp = Callable[..., subprocess.CompletedProcess[str]]


def test_codec_checks_pass_under_micropython(run_mp: RunMp) -> None:
    out = run_mp("mp_codec_check.py", "check").stdout
    assert f"PASS codec_check {len(vectors())} vectors" in out


def test_micropython_frames_decode_on_cpython(run_mp: RunMp) -> None:
    lines = run_mp("mp_codec_check.py", "encode").stdout.split("\n")
    encoded = dict(line.split() for line in lines if line.strip())
    assert set(encoded) == {v[0] for v in vectors()}
    for name, node, t, seq, payload in vectors():
        frame = bytes.fromhex(encoded[name])
        assert frame == wire.encode_frame(node, t, seq, payload), name
        assert wire.FrameDecoder().feed(frame) == [(node, t, seq, payload)], name


def test_cpython_frames_decode_on_micropython(run_mp: RunMp, tmp_path: Path) -> None:
    path = tmp_path / "frames.txt"
    path.write_text(
        "".join(
            f"{name} {wire.encode_frame(node, t, seq, p).hex()}\n"
            for name, node, t, seq, p in vectors()
        )
    )
    out = run_mp("mp_codec_check.py", "decode", str(path)).stdout.split("\n")
    got = {line.split()[0]: line.split()[1:] for line in out if line.strip()}
    for name, node, t, seq, payload in vectors():
        assert got[name] == [str(node), str(t), str(seq), payload.hex()] or (
            not payload and got[name] == [str(node), str(t), str(seq)]
        ), name
