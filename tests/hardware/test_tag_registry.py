"""Tag registry: CRUD, persistence, and refusals that name the bad field."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokertable.hardware.errors import RegistryError
from pokertable.hardware.registry import Card, Chip, TagRegistry, uid_hex

UID_A = bytes.fromhex("e004010000000001")
UID_B = bytes.fromhex("e004010000000002")


def test_chip_round_trip_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / "tags.sqlite"
    reg = TagRegistry(path)
    chip = reg.add_chip(UID_A, denomination=500, chip_set="club", colour="purple")
    assert chip == Chip("e004010000000001", 500, "club", "purple", "value", "in_play")
    reg.add_card(UID_B, rank="A", suit="s", deck_id="red-1")
    reg.close()

    reopened = TagRegistry(path)
    assert reopened.lookup(UID_A) == chip
    assert reopened.lookup("E004010000000002") == Card("e004010000000002", "A", "s", "red-1")
    assert reopened.lookup(bytes(8)) is None
    assert len(reopened) == 2
    reopened.close()


def test_status_changes_and_removal(registry: TagRegistry) -> None:
    registry.add_chip(UID_A, denomination=25, chip_set="club", colour="green")
    registry.add_chip(UID_B, denomination=25, chip_set="club", colour="green")
    assert registry.set_denomination_status("club", 25, "removed_denomination") == 2
    chip = registry.lookup(UID_A)
    assert isinstance(chip, Chip) and chip.status == "removed_denomination"
    registry.set_chip_status(UID_A, "retired")
    registry.reload()  # the status reached the database, not only the cache
    chip = registry.lookup(UID_A)
    assert isinstance(chip, Chip) and chip.status == "retired"
    registry.remove(UID_B)
    assert registry.lookup(UID_B) is None
    with pytest.raises(RegistryError, match="uid"):
        registry.remove(UID_B)


def test_duplicate_uid_refused_and_batch_is_atomic(registry: TagRegistry) -> None:
    registry.add_chip(UID_A, denomination=100)
    with pytest.raises(RegistryError, match="uid: e004010000000001 is already enrolled"):
        registry.add_card(UID_A, rank="K", suit="h", deck_id="d")
    batch = [Chip(uid_hex(UID_B), 100, "", ""), Chip(uid_hex(UID_A), 100, "", "")]
    with pytest.raises(RegistryError):
        registry.add_chips(batch)
    assert registry.lookup(UID_B) is None  # nothing of the refused batch was stored


def test_one_card_per_deck(registry: TagRegistry) -> None:
    registry.add_card(UID_A, rank="Q", suit="d", deck_id="blue")
    with pytest.raises(RegistryError, match="card"):
        registry.add_card(UID_B, rank="Q", suit="d", deck_id="blue")
    registry.add_card(UID_B, rank="Q", suit="d", deck_id="red")  # another deck is fine


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"denomination": 0}, "denomination"),
        ({"denomination": 5, "kind": "gold"}, "kind"),
        ({"denomination": 5, "status": "lost"}, "status"),
    ],
)
def test_bad_chip_fields_are_named(registry: TagRegistry, kwargs: dict, field: str) -> None:
    with pytest.raises(RegistryError, match=rf"^{field}:"):
        registry.add_chip(UID_A, **kwargs)


def test_bad_card_and_uid_fields_are_named(registry: TagRegistry) -> None:
    with pytest.raises(RegistryError, match=r"^rank:"):
        registry.add_card(UID_A, rank="1", suit="s", deck_id="d")
    with pytest.raises(RegistryError, match=r"^suit:"):
        registry.add_card(UID_A, rank="A", suit="x", deck_id="d")
    with pytest.raises(RegistryError, match=r"^uid:"):
        registry.add_chip(b"\x01\x02", denomination=5)


def test_non_value_chip_may_have_zero_denomination(registry: TagRegistry) -> None:
    chip = registry.add_chip(UID_A, denomination=0, kind="bounty")
    assert chip.kind == "bounty"
    assert registry.chips() == [chip]
