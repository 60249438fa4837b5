"""``companion enroll``: teaching the box which sticker is on which card.

The OLED asks for each card of a game in turn ("Tap: CNOT, 3 of 7"); each tap is
written to the tag registry at once (atomically), so pulling the plug half way
loses nothing and the next ``companion enroll`` carries on where it stopped: what
is still wanted is simply the box's contents minus what the registry already knows.

:class:`Enrolment` is the pure part (registry in, screens out); :func:`main` runs it
on the box's buttons, reader pads and OLED.
"""

from __future__ import annotations

import logging
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .frozen import frozen
from .hardware.inbox import Inbox
from .inputs import BACK, OK, Hold, Press, Tag
from .registry import Card, Registry, RegistryError, normalise_uid, sim_registry

log = logging.getLogger(__name__)


PRINTED = ("qno", "qlanet")  # games whose cards we print, numbered in enrolment order


@frozen
class Wanted:
    card: Card
    copy: int  # 1-based: "3 of 7"
    copies: int
    number: int = 0  # the number printed on a print-and-play card (0: none)

    @property
    def prompt(self) -> str:
        if self.number:
            return f"No. {self.number}: {self.card.label}"
        return f"{self.card.label}, {self.copy} of {self.copies}" if self.copies > 1 \
            else self.card.label


class Enrolment:
    """The cards of ``game`` still without a tag, and what each tap does."""

    def __init__(self, registry: Registry, save: Callable[[Registry], None],
                 game: str = "entanglion"):
        self.registry = registry
        self.save = save
        self.game = game
        self.box = sim_registry().cards(game)  # the box's contents, copies repeated
        if not self.box:
            raise ValueError(f"no cards known for {game!r}")
        self.skipped: set[Card] = set()
        self.message = ""  # what the last tap did

    @property
    def wanted(self) -> list[Wanted]:
        """Cards still to enrol, in box order, resuming after whatever is enrolled."""
        copies = Counter(self.box)
        have = Counter(card for _, card in self.registry if card.game == self.game)
        first = {card: i for i, card in reversed(list(enumerate(self.box)))}
        printed = self.game in PRINTED  # box order is print order (companion cards)
        out = []
        for card in dict.fromkeys(self.box):
            if card in self.skipped:
                continue
            out += [Wanted(card, n, copies[card], first[card] + n if printed else 0)
                    for n in range(have[card] + 1, copies[card] + 1)]
        return out

    @property
    def current(self) -> Wanted | None:
        wanted = self.wanted
        return wanted[0] if wanted else None

    def tap(self, uid: str) -> bool:
        """Enrol ``uid`` as the current card; False (with :attr:`message`) if refused."""
        want = self.current
        if want is None:
            self.message = "All cards have tags"
            return False
        try:
            key = normalise_uid(uid)
        except RegistryError:
            self.message = "Unreadable tag: tap again"
            return False
        known = self.registry.lookup(key)
        if known is not None:
            self.message = f"Tag already used: {known.label}"
            return False
        self.registry.add(key, want.card)
        try:
            self.save(self.registry)
        except (OSError, RegistryError) as exc:
            self.registry.remove(key)
            log.error("cannot save the tag registry: %s", exc)
            self.message = "Cannot save (see the log)"
            return False
        self.message = f"Saved: {want.prompt}"
        return True

    def skip(self) -> None:
        """Leave the current card without a tag (lost, or not to be tagged) for now."""
        want = self.current
        if want is not None:
            self.skipped.add(want.card)
            self.message = f"Skipped {want.card.label}"

    def screen(self) -> dict[str, Any]:
        want = self.current
        total = len(self.box)
        if want is None:
            lines = ["Every card has a tag." if not self.skipped else
                     f"Done; skipped: {', '.join(sorted(c.label for c in self.skipped))}"]
            return {"screen": "text", "title": "Enrolment done", "lines": lines + [self.message],
                    "hint": "OK finish"}
        return {"screen": "text", "title": f"Enrol {total - len(self.wanted) + 1}/{total}",
                "lines": ["Tap on any pad:", want.prompt, self.message],
                "hint": "BACK skip  OK stop"}


def main(config_path: str | None, game: str) -> int:
    """Run an enrolment on the box's own hardware (stop the service first)."""
    from .daemon import close_devices, next_inputs, open_for
    from .hardware.buttons import Classifier
    from .views import oled

    events = Inbox()
    opened = open_for("enroll", config_path, events)
    if isinstance(opened, int):
        return opened
    config, devices = opened
    path = Path(config.paths.registry_path)
    try:
        registry = Registry.load(path) if path.exists() else Registry()
    except RegistryError as exc:
        close_devices(devices)
        print(f"companion enroll: {exc}", file=sys.stderr)
        return 2
    enrolment = Enrolment(registry, lambda r: r.save(path), game)
    classifier = Classifier(config.buttons.hold_time, config.buttons.debounce)
    print(f"Enrolling {game} tags into {path}; BACK skips a card, OK stops.")
    shown = None
    try:
        while True:
            model = enrolment.screen()
            if model != shown:
                shown = model
                devices.display.show(oled.render(model))
                print(" | ".join([model["title"], *filter(None, model["lines"])]), flush=True)
            for e in next_inputs(events, classifier, 1.0):
                if isinstance(e, Tag):
                    enrolment.tap(e.uid)
                elif isinstance(e, (Press, Hold)) and e.button == BACK:
                    enrolment.skip()
                elif isinstance(e, Press) and e.button == OK:
                    return 0
            devices.display.retry()
    except KeyboardInterrupt:
        return 0
    finally:
        close_devices(devices)
        print(f"{len(enrolment.registry.cards(game))} {game} tags in {path}")
