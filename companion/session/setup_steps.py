"""The guided setup of a new game: the game's setup menus one after another, each
starting on the box's configured choice, then the game begins and is journaled."""

from __future__ import annotations

from typing import Any

from ..i18n import _
from ..journal import JournalError


class SetupSteps:
    """The setup of a new game (a part of :class:`~companion.session.Session`): the
    step on show (``setup_step``) and the choices made so far (``setup_choices``)."""

    def _setup_total(self) -> int:
        """Every setup screen, the game's own after these menus included (it may
        depend on the choices: real cards or dice add screens)."""
        if not hasattr(self.ui, "setup_total"):
            return len(self.ui.SETUP_STEPS)
        options = {step.key: self.setup_choices.get(step.key, self._step_default(step))
                   for step in self.ui.SETUP_STEPS}
        return self.ui.setup_total(options)

    def _step_default(self, step: Any) -> Any:
        room = self.config.room_rules.get(self.ui.NAME, {})
        if step.key in room:
            return room[step.key]
        return getattr(self.config, step.key, step.default)

    def _setup_default(self) -> int:
        step = self.ui.SETUP_STEPS[self.setup_step]
        want = self.setup_choices.get(step.key, self._step_default(step))
        values = [v for _, v in step.choices]
        return values.index(want) if want in values else 0

    def _setup_back(self) -> None:
        if self.setup_step == 0:
            self.mode, self.cursor = "menu", 0
        else:
            self.setup_step -= 1
            self.cursor = self._setup_default()

    # Translators: The title of the screen when a new game could not be saved (a title bar).
    def _start_game(self) -> None:
        seed = self.seed_source()
        options = dict(self.setup_choices)
        g = self.ui.new_game(seed, options)
        try:
            if self.resumable is not None:
                self.journal.abandon(self.resumable)
                self.resumable = None
            game_id = self.journal.new_game(self.ui.NAME, seed, options, {})
        except JournalError as exc:
            self._journal_error(_("Not saved"), exc)
            return
        self.game, self.game_id, self.mode = g, game_id, "game"
        self._close()
        self.page = 0
        self._show(self.ui.notices(g, g.log), entry=0)
