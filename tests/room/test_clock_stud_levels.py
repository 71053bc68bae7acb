"""Stud levels on the clock and in a table's config (issue #30): the level carries the
bring-in (RP-10-E) to the tables; a stud level without one is refused naming the field."""

from __future__ import annotations

import pytest

from pokertable.controller.app.config import ConfigError, parse_config
from pokertable.mqtt.payloads import validate
from pokertable.room.clock import StructureError, parse_structure

STUD_STEP = """
[[step]]
game = "F7S"
small_blind = 50
big_blind = 100
ante = 10
bring_in = 25
minutes = 20
"""


def test_RP10E_a_stud_step_tells_the_tables_its_bring_in() -> None:
    [step] = parse_structure(STUD_STEP)
    payload = step.level_payload()
    assert payload["game"] == "F7S" and payload["bring_in"] == 25
    validate("clock", {"command": "level", "request_id": "r1", "level": payload})


def test_RP10E_a_stud_step_without_a_bring_in_names_the_step() -> None:
    with pytest.raises(StructureError, match=r"^step 1\.bring_in: a level with a stud game"):
        parse_structure(STUD_STEP.replace("bring_in = 25\n", ""))


def test_RP10E_a_stud_table_config_needs_a_bring_in_per_level() -> None:
    table = {"venue": "v", "id": "t1", "variant": "FR"}
    level = {"number": 1, "small_blind": 0, "big_blind": 100, "ante": 10,
             "ante_format": "per_player"}
    config = parse_config({"table": table, "levels": [{**level, "bring_in": 25}]})
    assert config.levels[0].to_level().bring_in == 25 and config.variant().is_stud
    with pytest.raises(ConfigError, match=r"level 1 deals FR: it needs a bring_in"):
        parse_config({"table": table, "levels": [level]})
