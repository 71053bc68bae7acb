"""The room's hand archive beside ``pokertable demo --archive DB``: the demo's tables publish,
``room.archive_service`` stores, and at the end every hand must replay to the table's stacks."""

from __future__ import annotations

from pokertable.controller.demo.room import DemoError
from pokertable.room.archive_service import ArchiveService
from pokertable.room.hand_archive import HandRecord
from pokertable.room.hand_store import StoreError, open_store


class DemoArchive:
    """The archive beside ``pokertable demo --archive DB``: every hand the demo plays is
    stored, and at the end each must replay to the table's stacks."""

    def __init__(self, host: str, port: int, venue: str, db: str, stall_s: float) -> None:
        try:
            self.store = open_store(db)
        except StoreError as error:
            raise DemoError(str(error)) from error
        self.venue, self.stall_s = venue, stall_s
        self.service = ArchiveService(
            host=host, port=port, venue=venue, login=("archive", ""), store=self.store
        )

    def __enter__(self) -> DemoArchive:
        self.service.start()
        if not self.service.subscribed.wait(self.stall_s):
            self.__exit__()
            raise DemoError("the archive could not subscribe to the broker")
        return self

    def __exit__(self, *_: object) -> None:
        self.service.stop()
        self.store.close()

    def check(self, hands: int) -> list[HandRecord]:
        """Wait for the demo's ``hands`` hands; DemoError names any that does not replay."""
        with self.service.stored:
            self.service.stored.wait_for(
                lambda: len(self.store.hands(self.venue)) >= hands, timeout=self.stall_s
            )
        records = self.store.hands(self.venue)
        if len(records) < hands:
            raise DemoError(f"the archive holds {len(records)} of {hands} hands")
        wrong = [f"{r.name}: {r.problem}" for r in records if not r.verified]
        if wrong:
            raise DemoError("; ".join(wrong))
        return records
