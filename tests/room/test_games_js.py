"""The room pages' one file of game names (room/overlay/games.js) names the engine's mixes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pokertable.controller.engine.rotation import NAMED_MIXES

GAMES_JS = Path(__file__).resolve().parents[2] / "room" / "overlay" / "games.js"


def test_the_pages_mix_names_are_the_engines_named_mixes() -> None:
    """A mix by orbit shows as "HORSE" only while its games are the engine's HORSE, in order."""
    block = re.search(r"const MIX_NAMES = (\{.*?\});", GAMES_JS.read_text(), re.S)
    assert block is not None, "MIX_NAMES is gone from games.js"
    shown = json.loads(re.sub(r",\s*}", "}", block.group(1)))
    assert shown == {" ".join(NAMED_MIXES["horse"]): "HORSE",
                     " ".join(NAMED_MIXES["8-game"]): "8-Game"}
