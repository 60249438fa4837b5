"""Enrolment: every card of the box in turn, saved per tap, resumable, no reused UIDs."""

import pytest

from companion.enroll import Enrolment
from companion.registry import Card, Registry, RegistryError
from waiting import eventually


def uid(n):
    return f"04AA{n:04X}000000"


@pytest.fixture
def path(tmp_path):
    return tmp_path / "tags.toml"


def start(path):
    registry = Registry.load(path) if path.exists() else Registry()
    return Enrolment(registry, lambda r: r.save(path))


def test_cards_are_asked_for_in_box_order_with_copy_numbers(path):
    e = start(path)
    assert len(e.wanted) == 41
    assert e.current.prompt == "H, 1 of 8"
    assert e.screen()["lines"][1] == "H, 1 of 8"
    assert e.screen()["title"] == "Enrol 1/41"
    for n in range(8):
        assert e.tap(uid(n))
    assert e.current.prompt == "CNOT, 1 of 7"
    assert e.message == "Saved: H, 8 of 8"
    assert Registry.load(path).cards("entanglion") == [Card("entanglion", "engine", "H")] * 8


def test_an_interrupted_enrolment_resumes_where_it_stopped(path):
    e = start(path)
    for n in range(10):
        e.tap(uid(n))
    again = start(path)  # power cut, new process
    assert again.current.prompt == "CNOT, 3 of 7"
    assert again.screen()["title"] == "Enrol 11/41"


def test_a_uid_already_used_is_refused(path):
    e = start(path)
    e.tap(uid(1))
    assert not e.tap(uid(1).lower())  # the same tag spelled differently
    assert e.message == "Tag already used: H"
    assert e.current.prompt == "H, 2 of 8"
    assert len(Registry.load(path)) == 1


def test_an_unreadable_uid_is_refused(path):
    e = start(path)
    assert not e.tap("zz")
    assert e.message == "Unreadable tag: tap again"


def test_skip_and_finish(path):
    e = start(path)
    e.skip()  # no tags on the H cards today
    assert e.current.prompt == "CNOT, 1 of 7"
    for n in range(33):
        assert e.tap(uid(n)), e.message
    assert e.current is None
    screen = e.screen()
    assert screen["title"] == "Enrolment done" and "skipped: H" in screen["lines"][0]
    assert not e.tap(uid(99))
    assert len(Registry.load(path)) == 33


def test_a_failed_save_keeps_the_card_wanted(path):
    def broken(registry):
        raise RegistryError("disk full")

    e = Enrolment(Registry(), broken)
    assert not e.tap(uid(1))
    assert e.message == "Cannot save (see the log)"
    assert e.current.prompt == "H, 1 of 8" and len(e.registry) == 0


def test_tags_of_another_game_do_not_count(path):
    registry = Registry({uid(1): Card("qno", "card", "red_zero")})
    e = Enrolment(registry, lambda r: None)
    assert len(e.wanted) == 41


# ---------------------------------------------------------------------- on the box


def test_enrolment_on_the_box_with_the_pico_and_buttons(tmp_path, monkeypatch, capsys):
    """``companion enroll`` itself: taps arrive from the (fake) Pico, BACK skips, OK
    stops, and a second run resumes. Mock GPIO stands in for the buttons."""
    import threading
    import time

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from companion import enroll
    from companion.hardware.fake_pico import FakePico

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    previous, factory = Device.pin_factory, MockFactory()
    Device.pin_factory = factory
    tags = tmp_path / "tags.toml"
    config = tmp_path / "config.toml"
    try:
        with FakePico(hb_interval=0.2) as pico:
            config.write_text(f'[oled]\ndriver = "none"\n[link]\ndevice = "{pico.path}"\n'
                              f'[paths]\nstate_dir = "{tmp_path}"\nregistry = "{tags}"\n')

            def run_until(predicate, actions):
                result = {}
                opened = len(pico.commands)  # the link opens after the buttons
                worker = threading.Thread(
                    target=lambda: result.setdefault("status", enroll.main(str(config),
                                                                          "entanglion")))
                worker.start()
                assert eventually(lambda: any(c.kind == "HELLO?"
                                              for c in pico.commands[opened:]), 10.0)
                for action in actions:
                    action()
                assert eventually(predicate, 10.0), capsys.readouterr().out
                press(factory, 5)  # OK: stop
                worker.join(10)
                assert not worker.is_alive()
                return result["status"]

            status = run_until(
                lambda: tags.exists() and len(Registry.load(tags)) == 2,
                [lambda: pico.tap(1, uid(1)), lambda: time.sleep(0.2),
                 lambda: pico.tap(2, uid(1)),  # the same tag again: refused
                 lambda: time.sleep(0.2), lambda: pico.tap(3, uid(2))])
            assert status == 0
            assert "Tag already used: H" in capsys.readouterr().out

            status = run_until(  # resumes at H 3 of 8; BACK skips the rest of the Hs
                lambda: len(Registry.load(tags)) == 3,
                [lambda: press(factory, 6),
                 lambda: time.sleep(0.2), lambda: pico.tap(1, uid(3))])
            assert status == 0
            assert Registry.load(tags).lookup(uid(3)) == Card("entanglion", "engine", "CNOT")
            out = capsys.readouterr().out
            assert "H, 3 of 8" in out and "Skipped H" in out
    finally:
        factory.reset()
        Device.pin_factory = previous


def press(factory, pin):
    factory.pin(pin).drive_low()
    import time
    time.sleep(0.05)
    factory.pin(pin).drive_high()


def test_qno_enrolment_follows_the_printed_numbers():
    from companion.games.qno.cards import full_deck
    from companion.registry import Registry

    e = Enrolment(Registry(), lambda r: None, "qno")
    wanted = e.wanted
    assert len(wanted) == 112
    assert [w.card.name for w in wanted] == full_deck()  # the order companion cards prints
    assert wanted[0].prompt == "No. 1: |00> 0" and wanted[2].prompt == "No. 3: |00> 1"
    assert e.tap("04 11 22 33") and e.current.prompt == "No. 2: |00> 1"


def test_qlanet_enrolment_follows_the_printed_template():
    from companion.printing import qlanet
    from companion.registry import Registry

    wanted = Enrolment(Registry(), lambda r: None, "qlanet").wanted
    assert [w.card.name for w in wanted] == [c.name for c in qlanet.cards()]
    assert wanted[7].prompt == f"No. 8: {wanted[7].card.label}"
