"""A card tapped on a pad: looked up in the tag registry, checked against the game in
play, and handed to the game's ui module, whose answer the session carries out."""

from __future__ import annotations

from ..inputs import Tag


class Tags:
    """Taps (a part of :class:`~companion.session.Session`)."""

    def _tag(self, event: Tag) -> None:
        card = self.registry.lookup(event.uid)
        if card is None:
            self._error(f"Unknown tag {event.uid[:14]}")
            return
        if event.pad not in self.config.pads:
            self._error(f"Tag on unknown pad {event.pad}")
            return
        if self.mode != "game":
            self._error("Start a game first")
            return
        if card.game != self.ui.NAME:
            self._error(f"That is a {card.game} card")
            return
        if not self.ui.card_from_tag(card):  # e.g. a typo in a hand-edited registry
            self._error(f"Registry card {card.name!r} is not in {self.ui.TITLE}")
            return
        exchange = self.menu is not None and self.menu.kind == "exchange"
        if self.menu is not None and self.menu.kind != "exchange":
            self._close()
        result = self.ui.tag_action(self.game, card, self.ui.seat(self.config, event.pad),
                                    event.pad, exchange)
        if isinstance(result, str):
            self._error(result)
        elif "screen" in result:
            self.overlay = result
        elif "menu" in result:
            self._open(result["menu"], result)
        elif self._apply(result):
            self._close()  # a refused exchange keeps its menu open for the right card
