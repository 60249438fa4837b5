"""The durable game journal (docs/journal.md): :mod:`.store` keeps every input on disk
before it shows, with its checksum chain and mark; :mod:`.salvaging` rebuilds a damaged
journal from what still verifies.  The public names of both are here."""

from .salvaging import Replays, SalvageReport, finish_salvage, salvage, salvage_told
from .store import (
    ARCHIVE_BATCH, CHECKPOINT_IDLE, KEEP_FINISHED, PAGE_SIZE, SCHEMA_VERSION, STATUSES,
    Entry, GameRecord, GameSummary, Journal, JournalError, Loss, Mark, is_damage,
)

__all__ = [
    "ARCHIVE_BATCH", "CHECKPOINT_IDLE", "KEEP_FINISHED", "PAGE_SIZE", "SCHEMA_VERSION",
    "STATUSES", "Entry", "GameRecord", "GameSummary", "Journal", "JournalError", "Loss",
    "Mark", "Replays", "SalvageReport", "finish_salvage", "is_damage", "salvage",
    "salvage_told",
]
