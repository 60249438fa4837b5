"""The Hint item of the box's move menu: the best move and the next best with their
chances, computed only when opened, fitting the OLED, and playable from there."""

from __future__ import annotations

import random

import pytest

from companion import i18n
from companion.box import Box
from companion.games.common import default_cursor
from companion.games.entanglion import Entanglion, hint, ui
from companion.hardware.display import dummy_display
from companion.hardware.leds import RecordingLeds
from companion.inputs import BACK, DOWN, OK, Press
from companion.journal import Journal
from companion.registry import Registry, default_sim_path
from companion.session import Session, SessionConfig
from companion.views import oled
from companion.views.font import text_width, truncations


def _box(tmp_path, seed=2018):
    journal = Journal(tmp_path / "journal.db")
    session = Session(journal, Registry.load(default_sim_path()), SessionConfig(),
                      seed_source=lambda: seed)
    return journal, session, Box(session, dummy_display(keep=True), RecordingLeds())


def _press(box, *buttons):
    for b in buttons:
        box.handle(Press(b))


def _choose(box, session, label):
    items = session.screen()["items"]
    _press(box, *[DOWN] * ((items.index(label) - session.screen()["cursor"]) % len(items)), OK)


def test_hint_in_the_move_menu_shows_best_and_next_best_and_plays_the_chosen(
        tmp_path, monkeypatch):
    monkeypatch.setattr(hint, "DEFAULT_BUDGET", 1500)  # the box's, only shorter
    journal, session, box = _box(tmp_path)
    try:
        items = session.screen()["items"]
        _press(box, *[DOWN] * next(i for i, t in enumerate(items) if t.startswith("New")))
        _press(box, OK, OK, OK, OK, BACK)  # the set-up defaults, notices skipped
        g = session.game
        _press(box, OK)
        menu = session.screen()
        assert menu["title"].endswith("your move") and "Hint" in menu["items"]
        assert menu["items"].index("Hint") == 0 == menu["cursor"]  # one press: OK
        _choose(box, session, "Hint")
        screen = session.screen()
        found = hint.hints(g, hint.DEFAULT_BUDGET, seed=len(g.inputs))
        assert screen["title"] == "Hint"
        assert screen["items"] == [ui.hint_label(g, h["action"], h["win"])
                                   for h in found[:2]] + ["Back"]
        assert all(label.endswith("%") for label in screen["items"][:2])
        with truncations(draw=False) as cut:
            oled.render(screen)
        assert cut == []
        before = len(g.inputs)
        _press(box, OK)  # the best move
        assert len(g.inputs) == before + 1
        assert g.inputs[-1] == found[0]["action"]
    finally:
        journal.close()


def test_the_hint_is_only_worked_out_when_opened(monkeypatch):
    monkeypatch.setattr(hint, "DEFAULT_BUDGET", 300)
    g = Entanglion(3)
    item = ui.action_menu(g)["items"][0]
    assert item.label == "Hint"
    assert set(dict(item.action)) == {"menu", "title"}  # no search yet
    assert item.action["items"][-1].label == "Back"
    assert set(dict(item.action)) == {"menu", "title", "text", "items"}


@pytest.mark.parametrize("speaking", list(i18n.LANGUAGES), indirect=True)
def test_hint_screens_fit_the_oled_in_random_positions(speaking):
    rnd = random.Random(4)
    cuts, shown = [], 0
    for seed in range(8):
        g = Entanglion(seed, {"start_space": rnd.choice((1, 2, 4))})
        while g.status == "playing" and len(g.inputs) < 120:
            acts = g.legal_actions()
            if not g.pending and len(acts) > 1:
                for act in acts:  # every input the hint may name, at any chance
                    for win in (0.0, 0.5, 1.0):
                        assert text_width(ui.hint_label(g, act, win)) <= oled.MENU_LABEL
                if rnd.random() < 0.1:
                    model = ui.hint_menu(g, budget=40)
                    screen = {"screen": "menu", "title": model["title"], "text": model["text"],
                              "items": [i.label for i in model["items"]], "cursor": 0}
                    with truncations(draw=False) as cut:
                        oled.render(screen)
                    cuts += cut
                    shown += 1
            g.push(rnd.choice(acts))
    assert shown > 12 and cuts == []


def test_every_prompt_with_a_choice_offers_the_hint_one_press_from_its_default(monkeypatch):
    """Magnetic Shielding's re-roll, The Mechanic, exchanges' discards...: the Hint is
    the last item, so from the pre-selected answer it is one press away (the menu wraps),
    and it names the prompt's own answers."""
    monkeypatch.setattr(hint, "DEFAULT_BUDGET", 200)
    rnd, kinds = random.Random(7), set()
    for seed in range(12):
        g = Entanglion(seed, {"start_space": rnd.choice((1, 2, 4))})
        while g.status == "playing" and len(g.inputs) < 150:
            p = g.pending
            if p and p["kind"] not in ("roll", "draw") and len(p["options"]) > 1:
                menu = ui.prompt_menu(g)
                labels = [item.label for item in menu["items"]]
                assert labels[-1] == "Hint" and labels.count("Hint") == 1
                cursor = default_cursor(menu["items"])
                assert min((len(labels) - 1 - cursor), cursor + 1) <= 1, (p["kind"], labels)
                if p["kind"] not in kinds:
                    kinds.add(p["kind"])
                    shown = menu["items"][-1].action["items"][:-1]
                    assert shown and all(i.action["do"] == "choose" or "confirm" in i.action
                                         for i in shown)
            g.push(hint.greedy_action(g, hint.Rng(len(g.inputs))))
    assert {"magnetic_shielding", "discard", "quantum_tunnel"} <= kinds
