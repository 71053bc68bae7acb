"""The fake and the driver both agree with the datasheet fixture, each on its own.

The fake (firmware/host/sim_field.py) must not import the driver's constants, or it
would agree with the driver's mistakes; this test holds both to the recorded tables.
"""

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from .conftest import FIRMWARE, HERE

FIXTURE = json.loads((HERE / "fixtures" / "pn5180_datasheet.json").read_text())


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_fake_does_not_import_the_driver() -> None:
    text = (FIRMWARE / "host" / "sim_field.py").read_text()
    assert "import pn5180" not in text and "from pn5180" not in text
    assert "from iso15693" not in text


def test_fake_registers_and_bits_match_the_datasheet_tables() -> None:
    fake = _load(FIRMWARE / "host" / "sim_field.py", "sim_field_under_test")
    for name, reg in FIXTURE["registers"].items():
        assert getattr(fake, f"REG_{name}") == reg["address"], (name, reg["cite"])
    bits = FIXTURE["bits"]
    assert bits["IRQ_TIMER1"]["value"] == fake.IRQ_TIMER1
    assert bits["IRQ_GENERAL_ERROR"]["value"] == fake.IRQ_GENERAL_ERROR
    assert bits["IRQ_RF_ACTIVE_ERROR"]["value"] == fake.IRQ_RF_ACTIVE_ERROR
    assert bits["T1_START_ON_TX_ENDED"]["value"] == fake.T1_START_ON_TX_ENDED
    assert bits["T1_STOP_ON_RX_STARTED"]["value"] == fake.T1_STOP_ON_RX_STARTED
    eof_only = bits["TX_DATA_ENABLE_AND_START_SYMBOL"]["value"]
    assert eof_only == fake.TX_DATA_ENABLE | fake.TX_START_SYMBOL_MASK
    assert FIXTURE["timing_us"]["reset_low_min"]["value"] == fake.T_RESET_MIN_US
    assert FIXTURE["timing_us"]["boot_typ"]["value"] == fake.T_BOOT_US
    assert (FIXTURE["rf_config_iso15693"]["tx"],
                                    FIXTURE["rf_config_iso15693"]["rx"]) == fake.RF_CONFIG_15693
    golden = FIXTURE["golden_registers_after_load_rf_config_0D_8D"]
    for key, value in golden.items():
        if key == "cite":
            continue
        addr = int(key.split("(")[1].rstrip(")"), 16)
        assert fake.RF_CONFIG_15693_REGS[addr] == value, key


def test_driver_constants_match_the_datasheet_tables(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    stub = ModuleType("micropython")
    stub.const = lambda x: x  # type: ignore[attr-defined]  # compile-time hint on the board
    monkeypatch.setitem(__import__("sys").modules, "micropython", stub)
    pn5180 = _load(FIRMWARE / "pn5180.py", "pn5180")
    monkeypatch.setitem(__import__("sys").modules, "pn5180", pn5180)
    iso15693 = _load(FIRMWARE / "iso15693.py", "iso15693_under_test")

    for name, reg in FIXTURE["registers"].items():
        if hasattr(pn5180, f"REG_{name}"):
            assert getattr(pn5180, f"REG_{name}") == reg["address"], (name, reg["cite"])
    bits = FIXTURE["bits"]
    for name in ("IRQ_RX", "IRQ_TX", "IRQ_IDLE", "IRQ_TX_RFON", "IRQ_RF_ACTIVE_ERROR",
                 "IRQ_TIMER1", "IRQ_GENERAL_ERROR", "RX_NUM_BYTES_MASK",
                 "RX_DATA_INTEGRITY_ERROR", "RX_PROTOCOL_ERROR", "RX_COLLISION_DETECTED",
                 "RX_COLL_POS_SHIFT", "CRC_ENABLE", "T1_ENABLE", "T1_START_ON_TX_ENDED",
                 "T1_STOP_ON_RX_STARTED"):
        assert getattr(pn5180, name) == bits[name]["value"], (name, bits[name]["cite"])
    assert bits["TX_DATA_ENABLE_AND_START_SYMBOL"]["value"] == pn5180.TX_CONFIG_DATA_ENABLE
    assert (bits["T1_ENABLE"]["value"] | bits["T1_START_ON_TX_ENDED"][
        "value"] | bits["T1_STOP_ON_RX_STARTED"]["value"]) == pn5180.T1_RX_TIMEOUT
    rf = FIXTURE["rf_config_iso15693"]
    assert (rf["tx"], rf["rx"]) == (pn5180.RF_CONFIG_ISO15693_TX, pn5180.RF_CONFIG_ISO15693_RX)
    t = FIXTURE["timing_us"]
    assert iso15693.RX_TIMEOUT_US == t["rx_timeout"]["value"] == (
        t["iso15693_t1"]["value"] + t["iso15693_sof_high"]["value"]
        + t["pn5180_digital_delay_15693_high"]["value"])
    assert t["field_recovery"]["value"] == iso15693.GUARD_US
    assert t["field_off"]["value"] == iso15693.FIELD_OFF_US
