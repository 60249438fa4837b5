"""A card tapped on a pad: looked up in the tag registry, checked against the game in
play, and handed to the game's ui module, whose answer the session carries out."""

from __future__ import annotations

from ..games.common import GAMES, ui_for
from ..i18n import _
from ..inputs import Tag


class Tags:
    """Taps (a part of :class:`~companion.session.Session`)."""

    # Translators: What a tag tapped on a reader means; each is a line of the box's OLED
    # screen (21 characters; Japanese 16 full-width).
    def _tag(self, event: Tag) -> None:
        card = self.registry.lookup(event.uid)
        if card is None:
            self._error(_("Unknown tag {uid}").format(uid=event.uid[:14]))
            return
        if event.pad not in self.config.pads:
            self._error(_("Tag on unknown pad {pad}").format(pad=event.pad))
            return
        if self.mode != "game":
            self._error(_("Start a game first"))
            return
        if card.game != self.ui.NAME:
            self._error(_("That card is from {game}").format(game=ui_for(card.game).TITLE
                                                          if card.game in GAMES else card.game))
            return
        if not self.ui.card_from_tag(card):  # e.g. a typo in a hand-edited registry
            self._error(_("Registry card {card} is not in {game}").format(
                card=repr(card.name), game=self.ui.TITLE))
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
