"""Node configuration: zone map, debounce and timing, from a JSON file over defaults.

Each node has a small JSON file (copied next to main.py, or pushed later with
CMD_CONFIGURE) that names its zones and the antenna channel of each::

    {"node_id": 3, "board": "rp2040_pico", "transport": "rs485",
     "zones": [{"name": "seat1.bet", "channel": 0}, {"name": "seat1.stack", "channel": 1}],
     "present_after": 2, "absent_after": 3, "settle_ms": 300, "heartbeat_ms": 1000,
     "refresh_ms": 1000}

Bad values raise ValueError naming the field, so a typo never half-applies.
"""

import json

DEFAULTS = {
    "node_id": 1,
    "board": "rp2040_pico",
    "reader": "pn5180",
    "transport": "uart",
    "baudrate": 115200,
    "zones": [{"name": "zone0", "channel": 0}],
    "present_after": 2,
    "absent_after": 3,
    "settle_ms": 300,
    "bet_settle_ms": 60,  # zones named *.bet: scanned every ~0.1 s, a bet is quick to settle
    "heartbeat_ms": 1000,
    "refresh_ms": 1000,  # one zone's full snapshot per period, zones in turn; 0 = off
}

_INT_FIELDS = (
    ("node_id", 1, 254),
    ("baudrate", 1200, 4000000),
    ("present_after", 1, 100),
    ("absent_after", 1, 100),
    ("settle_ms", 0, 60000),
    ("bet_settle_ms", 0, 60000),
    ("heartbeat_ms", 100, 600000),
    ("refresh_ms", 0, 600000),
)
TRANSPORTS = ("uart", "rs485")
READERS = ("pn5180", "mfrc522")


def validate(cfg: dict) -> dict:
    """Return a full config (defaults filled in); raise ValueError naming the field."""
    out = dict(DEFAULTS)
    for key in cfg:
        if key not in DEFAULTS:
            raise ValueError("%s: unknown config field" % key)
        out[key] = cfg[key]
    for name, lo, hi in _INT_FIELDS:
        v = out[name]
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ValueError("%s: %r not an integer in %d..%d" % (name, v, lo, hi))
    if out["transport"] not in TRANSPORTS:
        raise ValueError("transport: %r not one of %r" % (out["transport"], TRANSPORTS))
    if out["reader"] not in READERS:
        raise ValueError("reader: %r not one of %r" % (out["reader"], READERS))
    if not isinstance(out["board"], str):
        raise ValueError("board: %r is not a string" % (out["board"],))
    zones = out["zones"]
    if not isinstance(zones, list) or not zones:
        raise ValueError("zones: must be a non-empty list")
    names = []
    for i, z in enumerate(zones):
        if not isinstance(z, dict) or not isinstance(z.get("name"), str) or not z["name"]:
            raise ValueError("zones[%d].name: missing or not a string" % i)
        ch = z.get("channel")
        if not isinstance(ch, int) or isinstance(ch, bool) or not 0 <= ch < 16:
            raise ValueError("zones[%d].channel: %r not an integer in 0..15" % (i, ch))
        if z["name"] in names:
            raise ValueError("zones[%d].name: %r listed twice" % (i, z["name"]))
        names.append(z["name"])
    return out


def loads(text: str | bytes) -> dict:
    try:
        cfg = json.loads(text)
    except ValueError:
        raise ValueError("config: not valid JSON") from None
    if not isinstance(cfg, dict):
        raise ValueError("config: top level must be a JSON object")
    return validate(cfg)


def load(path: str | None) -> dict:
    """Read a config file; None gives the defaults, an unreadable file is an error."""
    if path is None:
        return validate({})
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise ValueError("config: cannot read %s" % path) from None
    return loads(text)


def zone_list(cfg: dict) -> list[tuple[str, int]]:
    return [(z["name"], z["channel"]) for z in cfg["zones"]]
