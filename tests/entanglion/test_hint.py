"""Hints: honest (hidden order and future dice change nothing), deterministic for a seed,
complete (every legal input, best first), and consistent with what was already seen."""

from __future__ import annotations

import json
import os
import random

import pytest

from companion import cli, hintrate
from companion.games.entanglion import Entanglion, hint, values

from helpers import M, R, game

TINY = 600  # engine inputs: a dozen playouts, enough to tell worlds apart

# All eight components placed, so set-up shuffles nothing the players cannot see.
COMPONENTS = {
    "OMEGA_ZERO": "physical_qubits", "OMEGA_ONE": "qubit_interconnect",
    "PSI_MINUS": "dilution_refrigerator", "PHI_MINUS": "quantum_gates",
    "OMEGA_THREE": "quantum_programming", "OMEGA_TWO": "quantum_error_correction",
    "PHI_PLUS": "control_infrastructure", "PSI_PLUS": "magnetic_shielding",
}
HANDS = {M: ["X", "H", "CNOT"], R: ["X", "H", "SWAP"]}
# The 17 engine cards not in a hand, PROBE last (where set-up puts it), two orders.
STACK_A = ["H"] * 6 + ["CNOT"] * 6 + ["X"] * 3 + ["SWAP"] * 2 + ["PROBE"]
STACK_B = ["H", "SWAP", "X", "CNOT"] * 2 + ["CNOT", "H"] * 4 + ["X", "PROBE"]
# The event deck as set-up builds it: five, Quantum Shuffle, three.
EVENTS_A = ["bennett", "bit_flip_error", "heisenberg", "quantum_tunnel", "schrodinger",
            "quantum_shuffle", "spooky_action", "the_mechanic", "wave_function_collapse"]
EVENTS_B = ["wave_function_collapse", "the_mechanic", "spooky_action", "schrodinger",
            "heisenberg", "quantum_shuffle", "quantum_tunnel", "bit_flip_error", "bennett"]


def _pair(**kw):
    """Two games the players cannot tell apart: other deck orders, other dice to come."""
    a = game(stack=STACK_A, events=EVENTS_A, components=COMPONENTS, hands=HANDS, seed=1,
             dice=[8, 8, 8], **kw)
    b = game(stack=STACK_B, events=EVENTS_B, components=COMPONENTS, hands=HANDS, seed=99,
             dice=[1, 2, 1], **kw)
    return a, b


def _futures_differ(a: Entanglion, b: Entanglion) -> bool:
    """The hidden parts really differ: the same inputs soon give different outcomes."""
    a, b = a.copy(), b.copy()
    for _ in range(40):
        acts = a.legal_actions()
        if a.status != "playing" or acts != b.legal_actions():
            return True
        a.push(acts[0])
        b.push(acts[0])
    return a.log != b.log


def test_hidden_order_and_future_dice_change_nothing():
    a, b = _pair()
    assert _futures_differ(a, b)
    assert a.legal_actions() == b.legal_actions()
    assert hint.hints(a, TINY, seed=5) == hint.hints(b, TINY, seed=5)


def test_hidden_information_changes_nothing_mid_game():
    a, b = _pair()
    for g in (a, b):  # both stacks have an H on top: the same card is seen replacing it
        g.push({"do": "navigate", "card": "H"})
    assert a.state.hands == b.state.hands and _futures_differ(a, b)
    assert hint.hints(a, TINY, seed=2) == hint.hints(b, TINY, seed=2)


def test_a_pending_prompt_keeps_its_seen_roll_and_hides_the_rest():
    # Magnetic Shielding aboard, a failed ground defence roll (2 against 2): keep or reroll?
    kw = dict(ships=("PSI_PLUS", "PSI_PLUS"),
              ship_components={M: ["magnetic_shielding"], R: []})
    comps = dict(COMPONENTS, PSI_PLUS="physical_qubits", OMEGA_ZERO=None)
    a = game(stack=STACK_A, events=EVENTS_A, components=comps, hands=HANDS, seed=1,
             dice=[2, 8], detection=2, **kw)
    b = game(stack=STACK_B, events=EVENTS_B, components=comps, hands=HANDS, seed=7,
             dice=[2, 1], detection=2, **kw)
    for g in (a, b):
        g.push({"do": "retrieve"})
        assert g.pending["kind"] == "magnetic_shielding" and g.pending["raw"] == 2
    found = hint.hints(a, TINY, seed=3)
    assert found == hint.hints(b, TINY, seed=3)
    assert {h["action"]["value"] for h in found} == {"keep", "reroll"}
    # Keeping a failed roll can only lose the component: rerolling is the better answer.
    assert found[0]["action"]["value"] == "reroll"
    pub, rng = hint._Public(a), hint.Rng(0)
    for _ in range(10):  # in every sampled world the roll already seen is that 2
        w = hint.world(a, pub, rng)
        w.push({"do": "choose", "value": "keep"})
        assert w.state.detection == 3 and w.state.ship_components[M] == ["magnetic_shielding"]


def test_cards_seen_before_a_prompt_are_the_ones_the_rerun_meets():
    # Quantum Gates aboard: exchange draws two (seen, top of the stack) and asks which to
    # keep. Every sampled world must deal those two again, whatever it re-deals below.
    g = game(stack=["CNOT", "SWAP"], ship_components={M: ["quantum_gates"]})
    g.push({"do": "exchange", "card": "X"})
    assert g.pending["kind"] == "quantum_gates" and sorted(g.pending["options"]) == [
        "CNOT", "SWAP"]
    pub = hint._Public(g)
    rng = hint.Rng(1)
    stacks = set()
    for _ in range(20):
        w = hint.world(g, pub, rng)
        w.push({"do": "choose", "value": "SWAP"})
        assert sorted(w.state.hands[M]) == ["CNOT", "H", "SWAP"]
        assert w.state.engine_discard[-1] == "CNOT"
        stacks.add(tuple(w.state.engine_stack))
    assert len(stacks) > 1  # ...and the cards below them are dealt afresh


def test_the_probe_stays_at_the_bottom_until_the_first_reshuffle():
    g, _ = _pair()
    pub = hint._Public(g)
    rng = hint.Rng(4)
    for _ in range(10):
        w = hint.world(g, pub, rng)
        assert w.state.engine_stack[-1] == "PROBE"
        assert sorted(w.state.engine_stack) == sorted(g.state.engine_stack)
        assert w.state.event_deck.index("quantum_shuffle") == 5
        assert sorted(w.state.event_deck) == sorted(g.state.event_deck)
        assert w.state.forced == []


def test_after_a_reshuffle_the_probe_may_be_anywhere():
    g = Entanglion(3)
    while not any(e["type"] == "reshuffle" and e["deck"] == "engine" for e in g.log):
        g.push(next(a for a in g.legal_actions() if a["do"] in ("exchange", "choose")))
    assert not hint._Public(g).probe_fixed


def test_same_seed_same_answer_and_every_legal_input_best_first():
    g = Entanglion(11)
    first = hint.hints(g, TINY, seed=8)
    assert first == hint.hints(g, TINY, seed=8)
    acts = g.legal_actions()
    assert sorted(map(json.dumps, (h["action"] for h in first))) == sorted(
        map(json.dumps, acts))
    scored = [h["win"] for h in first if h["win"] is not None]
    assert all(0 <= w <= 1 for w in scored)
    assert scored == sorted(scored, reverse=True)  # the number shown is the order
    # The last two standing play every round; the others stood less long.
    most = max(h["playouts"] for h in first)
    assert [h["playouts"] for h in first[:2]] == [most, most]
    assert min(h["playouts"] for h in first if h["win"] is not None) >= 1


def test_the_list_is_in_the_order_shown_and_never_tops_with_an_input_doing_nothing():
    rnd = random.Random(5)
    tops = 0
    for seed in range(6):
        g = Entanglion(seed)
        while g.status == "playing" and len(g.inputs) < 60:
            acts = g.legal_actions()
            if len(acts) > 1 and rnd.random() < 0.3:
                found = hint.hints(g, TINY, seed=seed)
                wins = [h["win"] for h in found]
                shown = [w for w in wins if w is not None]
                assert shown == sorted(shown, reverse=True)
                assert wins[len(shown):] == [None] * (len(wins) - len(shown))
                useful = [a for a in acts if not hint.no_effect(g, a)]
                if useful:
                    assert not hint.no_effect(g, found[0]["action"])
                    tops += 1
            g.push(rnd.choice(acts))
    assert tops > 10


def test_the_search_leaves_the_real_game_untouched():
    g = Entanglion(12)
    g.push(g.legal_actions()[0])
    prompted = Entanglion(5, {"deck": "physical"})  # playout copies share a pending prompt
    while not prompted.pending:
        prompted.push(prompted.legal_actions()[0])
    for game in (g, prompted):
        before = game.to_dict()
        hint.hints(game, TINY, seed=1)
        assert game.to_dict() == before


def test_more_work_goes_to_the_better_inputs():
    a, _ = _pair()
    found = hint.hints(a, 20 * TINY, seed=1)
    assert found[0]["playouts"] > found[-1]["playouts"]


def test_a_finished_game_has_no_hints():
    g = game(components=COMPONENTS, hands=HANDS, detection=11, stack=["PROBE"], dice=[1])
    g.push({"do": "exchange", "card": "X"})  # the PROBE detects: X reached
    assert g.status == "lost" and hint.hints(g, TINY) == []


@pytest.mark.parametrize("options", [{"deck": "physical"}, {"dice": "manual"},
                                     {"deck": "physical", "dice": "manual"}])
def test_physical_decks_and_dice_are_played_out_too(options):
    g = Entanglion(5, options)
    while not g.pending:  # the first physical draw or manual roll
        g.push(g.legal_actions()[0])
    found = hint.hints(g, TINY, seed=2)
    assert len(found) == len(g.legal_actions())


def test_a_physical_deck_s_list_order_means_nothing():
    a = Entanglion(5, {"deck": "physical"}, {"first_player": M, "hands": HANDS,
                                               "components": COMPONENTS,
                                               "ships": {M: "ZERO", R: "ZERO"}})
    b = Entanglion.from_dict(a.to_dict())
    b.state.engine_stack.reverse()
    b.state.event_deck.reverse()
    b.state.rng = 12345
    a.state.forced, b.state.forced = [8, 8, 8], [1, 2, 1]  # other dice to come
    assert _futures_differ(a, b)
    assert hint.hints(a, TINY, seed=6) == hint.hints(b, TINY, seed=6)


def test_the_greedy_policy_always_gives_a_legal_input():
    rng = hint.Rng(0)
    for seed, options in ((1, {}), (2, {"deck": "physical", "dice": "manual"}),
                          (3, {"start_space": 4, "component_scope": "team"})):
        g = Entanglion(seed, options)
        while g.status == "playing" and len(g.inputs) < 400:
            act = hint.greedy_action(g, rng)
            assert g.check(act) is None
            g.push(act)


def test_budget_in_milliseconds_is_a_work_count():
    assert hint.budget_for_ms(1) == hint.PI_INPUTS_PER_MS
    assert hint.budget_for_ms(1000) == 1000 * hint.PI_INPUTS_PER_MS
    assert hint.DEFAULT_BUDGET == hint.budget_for_ms(hint.DEFAULT_BUDGET_MS)


# ------------------------------------------------------------------ the command

def _cli(capsys, tmp_path, data, *flags):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    code = cli.main(["hint", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def test_hint_command_prints_every_input_with_its_chance(capsys, tmp_path):
    code, out, err = _cli(capsys, tmp_path, {"seed": 4}, "--budget", "300", "--seed", "2")
    assert code == 0 and err == ""
    printed = json.loads(out)
    assert printed["hints"] == hint.hints(Entanglion(4), 300, 2) and printed["budget"] == 300
    assert {"action", "win"} <= set(printed["hints"][0])
    again = _cli(capsys, tmp_path, {"seed": 4}, "--budget", "300", "--seed", "2")[1]
    assert again == out


def test_hint_command_thinks_for_milliseconds_at_this_machine_s_kept_rate(capsys, tmp_path):
    hintrate.save(tmp_path, 40.0)  # as the box kept it at its first start
    code, out, _ = _cli(capsys, tmp_path, {"seed": 4}, "--budget-ms", "30",
                        "--state-dir", str(tmp_path))
    assert code == 0 and json.loads(out)["budget"] == 30 * 40
    code, out, _ = _cli(capsys, tmp_path, {"seed": 4}, "--state-dir", str(tmp_path))
    assert json.loads(out)["budget"] == hint.DEFAULT_BUDGET_MS * 40


def test_hint_command_measures_the_rate_when_none_is_kept(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(hintrate, "measure", lambda seconds: 2.5)
    code, out, _ = _cli(capsys, tmp_path, {"seed": 4}, "--budget-ms", "40",
                        "--state-dir", str(tmp_path / "none"))
    assert code == 0 and json.loads(out)["budget"] == 100
    assert not (tmp_path / "none").exists()  # a command run by hand keeps nothing


def test_hint_command_takes_time_or_work_not_both(capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        _cli(capsys, tmp_path, {"seed": 4}, "--budget", "300", "--budget-ms", "30")
    assert exc.value.code == 2 and "not allowed with" in capsys.readouterr().err


@pytest.mark.parametrize("text,message", [
    ("{", "not valid JSON"),
    ('{"game": "qno"}', "hints are for Entanglion games"),
    ('{"options": {"deck": "paper"}}', "deck"),
])
def test_hint_command_bad_files_exit_2_with_one_line(capsys, tmp_path, text, message):
    code, out, err = _cli(capsys, tmp_path, text)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_hint_command_illegal_action_exits_3(capsys, tmp_path):
    code, out, err = _cli(capsys, tmp_path, {"actions": [{"do": "navigate", "card": "Q"}]})
    assert code == 3 and out == "" and "action 0 is illegal" in err


def test_hint_command_missing_file_exits_2(capsys, tmp_path):
    assert cli.main(["hint", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


LONG = os.environ.get("COMPANION_LONG") == "1"


def _draws_and_rolls(log):
    return [(e["type"], e.get("card"), e.get("raw"), e.get("reroll")) for e in log
            if e["type"] in ("draw", "roll")]


@pytest.mark.parametrize("options", [{}, {"start_space": 4, "mechanic_fills_slots": True},
                                     {"quantum_shuffle_gathers": "all_events"}])
def test_every_answer_to_every_prompt_plays_in_every_sampled_world(options):
    # Prompts after draws, reshuffles and rolls in the same input: each re-dealt world
    # must re-run the input to a position where the real answers are legal.
    prompts = 0
    for seed in range(60 if LONG else 8):
        r = random.Random(seed)
        g = Entanglion(seed, options)
        while g.status == "playing" and len(g.inputs) < 400:
            acts = g.legal_actions()
            if g.pending and len(acts) > 1:
                prompts += 1
                pub, rng = hint._Public(g), hint.Rng(seed)
                start = g._inflight[1]
                seen = _draws_and_rolls(g.log[start:])
                rebuilt = any(e["type"] == "reshuffle" and e["deck"] == "event"
                              for e in g.log[start:])
                for act in acts:
                    w = hint.world(g, pub, rng, copy=Entanglion.copy)
                    w.push(act)
                    if not rebuilt:  # the cards and dice seen come again, in order
                        assert _draws_and_rolls(w.log[start:])[:len(seen)] == seen
            g.push(r.choice(acts))
    assert prompts > 20


# ------------------------------------------------------------------ the cut-off playouts

def test_the_worth_table_rises_with_components_and_falls_with_detection():
    for at in (0, 1):
        for aboard in range(values.ABOARD):
            row = values.WON[at][aboard]
            assert len(row) == values.SPACES and all(0 <= v <= 100 for v in row)
            assert list(row) == sorted(row, reverse=True)  # higher on the track: worse
            if aboard:
                assert all(a >= b for a, b in zip(row, values.WON[at][aboard - 1]))


def test_a_playout_cut_off_is_worth_the_table_s_figure_and_an_end_is_0_or_1():
    g = Entanglion(6).playout_copy()
    assert not g.pending
    worth, used = hint.playout(g, hint.Rng(1), horizon=0)
    assert used == 0 and worth == values.worth(g.state)
    at, aboard, space = values.cell(g.state)
    assert worth == values.WON[at][aboard][space - 1] / 100
    ended, used = hint.playout(Entanglion(6).playout_copy(), hint.Rng(1), horizon=10 ** 6)
    assert ended in (0.0, 1.0) and used > 8


def test_an_input_clearly_behind_drops_out_of_the_race_and_close_ones_stay():
    rounds = [{0: 1.0, 1: 0.9 + 0.2 * (i % 2), 2: 0.0, 3: 1.0 - 0.5 * (i == 0)}
              for i in range(12)]
    worth = [sum(o[k] for o in rounds) for k in range(4)]
    assert hint._race([0, 1, 2, 3], worth, rounds) == [0, 1, 3]
    # However far behind, the best two stay in.
    assert hint._race([0, 2], worth, rounds) == [0, 2]
