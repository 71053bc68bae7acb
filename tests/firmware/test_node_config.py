"""Node config validation: defaults, and errors that name the field."""

import json
from pathlib import Path

import node_config
import pytest


def test_defaults() -> None:
    cfg = node_config.validate({})
    assert cfg["present_after"] >= 1 and cfg["heartbeat_ms"] == 1000


def test_board_files_are_valid_json_with_pins() -> None:
    boards = Path(__file__).resolve().parents[2] / "firmware" / "boards"
    files = sorted(boards.glob("*.json"))
    assert {f.stem for f in files} >= {"rp2040_pico", "esp32_devkit"}
    for f in files:
        b = json.loads(f.read_text())
        for key in ("spi", "pn5180", "mux_select", "uart", "rs485_de"):
            assert key in b, f"{f.name}: {key}"
        pins = [b["pn5180"][k] for k in ("cs", "busy", "rst")] + b["mux_select"] + [b["rs485_de"]]
        pins += [b["spi"][k] for k in ("sck", "mosi", "miso")] + [b["uart"]["tx"], b["uart"]["rx"]]
        assert len(pins) == len(set(pins)), f"{f.name}: a pin is used twice"


def test_example_node_config_is_valid() -> None:
    path = Path(__file__).resolve().parents[2] / "firmware" / "node_config.example.json"
    cfg = node_config.load(str(path))
    assert node_config.zone_list(cfg)[0][0] == "seat1.bet"


@pytest.mark.parametrize(
    ("cfg", "field"),
    [
        ({"settle_ms": -1}, "settle_ms"),
        ({"present_after": "2"}, "present_after"),
        ({"transport": "can"}, "transport"),
        ({"zones": []}, "zones"),
        ({"zones": [{"name": "a", "channel": 0}, {"name": "a", "channel": 1}]}, r"zones\[1\].name"),
        ({"zones": [{"name": "a", "channel": 99}]}, r"zones\[0\].channel"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_fields_are_named(cfg: dict, field: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=field):
        node_config.validate(cfg)


def test_unreadable_or_bad_json(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        node_config.load(str(tmp_path / "missing.json"))
    p = tmp_path / "bad.json"
    p.write_text("{nope")
    with pytest.raises(ValueError, match="JSON"):
        node_config.load(str(p))
