"""The codec checks under MicroPython (run by test_wire_cross.py).

micropython mp_codec_check.py check           # round trip + corruption, prints PASS
micropython mp_codec_check.py encode          # one line per vector: name hex
micropython mp_codec_check.py decode <file>   # file of `name hex` lines -> decoded
"""

import sys
from binascii import hexlify, unhexlify

import wire

from codec_vectors import vectors


def check():
    if wire.crc32_table(b"123456789") != 0xCBF43926 or wire.crc32(b"123456789") != 0xCBF43926:
        raise AssertionError("CRC-32 check value")
    vs = vectors()
    stream = bytearray(b"\x00\x13\x37garbage\x00")
    for name, node, t, seq, payload in vs:
        f = wire.encode_frame(node, t, seq, payload)
        buf = bytearray(wire.MAX_FRAME)
        n = wire.encode_into(buf, node, t, seq, payload)
        if bytes(buf[:n]) != f:
            raise AssertionError("encode_into != encode_frame for " + name)
        if f.count(b"\x00") != 1 or f[-1] != 0:
            raise AssertionError("delimiter misplaced in " + name)
        got = wire.FrameDecoder().feed(f)
        if got != [(node, t, seq & 0xFFFF, payload)]:
            raise AssertionError("round trip " + name)
        # every single-bit flip in the body is caught
        dec = wire.FrameDecoder()
        for i in range(0, len(f) - 1, max(1, len(f) // 40)):
            for bit in range(8):
                bad = bytearray(f)
                bad[i] ^= 1 << bit
                if bad[i] == 0:
                    continue
                if dec.feed(bytes(bad)):
                    raise AssertionError("corrupt frame decoded in %s at %d.%d" % (name, i, bit))
                dec.feed(b"\x00")
        # a byte inserted before the delimiter, or one dropped, or the tail cut off
        for bad in (f[:-1] + b"\x01\x00", f[1:], f[:-2] + b"\x00", f[: len(f) // 2] + b"\x00"):
            if dec.feed(bytes(bad)):
                raise AssertionError("insert/delete/truncate decoded in " + name)
            dec.feed(b"\x00")
        raw = bytes(payload)
        if wire.crc32_table(raw) != wire.crc32(raw):
            raise AssertionError("table CRC-32 differs from binascii in " + name)
        stream.extend(f)
        stream.extend(b"\xff\xfe\x00")  # noise then a delimiter between frames
    got = wire.FrameDecoder().feed(bytes(stream))
    want = [(node, t, seq, payload) for _n, node, t, seq, payload in vs]
    if got != want:
        raise AssertionError("stream with garbage: got %d frames" % len(got))
    print("PASS codec_check %d vectors" % len(vs))


def encode():
    for name, node, t, seq, payload in vectors():
        print(name, hexlify(wire.encode_frame(node, t, seq, payload)).decode())


def decode(path):
    with open(path) as f:
        for line in f:
            name, hx = line.split()
            dec = wire.FrameDecoder()
            frames = dec.feed(unhexlify(hx))
            if len(frames) != 1:
                print(name, "ERROR", dec.crc_errors, dec.framing_errors)
                continue
            node, t, seq, payload = frames[0]
            print(name, node, t, seq, hexlify(payload).decode())


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "check":
        check()
    elif mode == "encode":
        encode()
    else:
        decode(sys.argv[2])
