"""The questions of Entanglion's guided set-up (what the setup screens offer), apart from
the screens so that the story can word a game's options as the screens did."""

from __future__ import annotations

from ...i18n import N_
from ..common import Step

# Translators: The set-up's questions (a title bar) and answers (an item of an OLED menu (20
# characters; Japanese 16 full-width)); the story says an option as its answer here.
SETUP_STEPS = (
    Step("start_space", N_("Difficulty"), (
        (N_("Easy: track at 1"), 1), (N_("Easy: track at 2"), 2), (N_("Hard: track at 3"), 4))),
    Step("deck", N_("Cards"), ((N_("Box deals (virtual)"), "virtual"),
                               (N_("Real cards"), "physical"))),
    Step("dice", N_("Dice"), ((N_("Box rolls"), "auto"), (N_("Real dice"), "manual"))),
)
