"""The tag registry: UID spelling, JSON/TOML files, one-line errors, the sim registry."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.entanglion.cards import COMPONENTS, ENGINE_COUNTS, EVENTS
from companion.games.qlanet.cards import DECK_COUNTS as QLANET_DECK
from companion.games.qno.cards import full_deck as qno_deck
from companion.registry import (
    Card, Registry, RegistryError, default_sim_path, main, normalise_uid, sim_registry,
)

UID = "04A1B2C3D4E580"
CNOT = Card("entanglion", "engine", "CNOT")
TUNNEL = Card("entanglion", "event", "quantum_tunnel")


def sample() -> Registry:
    return Registry({
        UID: CNOT,
        "04A1B2C3D4E581": Card("entanglion", "engine", "CNOT"),
        "DEADBEEF": TUNNEL,  # 4-byte UID
        "04112233445566778899": Card("entanglion", "component", "quantum_gates"),  # 10 bytes
        "04000000000001": Card("qno", "gate", 'Schrödinger "cat" \\ #1'),  # quoting survives
    })


# ------------------------------------------------------------------ UIDs


@pytest.mark.parametrize("text", [
    "04A1B2C3D4E580", "04a1b2c3d4e580", "04:a1:b2:c3:d4:e5:80", "04-A1-B2-C3-D4-E5-80",
    "04 A1 B2 C3 D4 E5 80", "  04:A1:B2:C3:D4:E5:80\n", "04A1:B2C3 D4-E580",
])
def test_normalise_accepts_separators_and_either_case(text):
    assert normalise_uid(text) == UID


@pytest.mark.parametrize("text", ["deadbeef", "04112233445566778899"])
def test_normalise_accepts_4_and_10_byte_uids(text):
    assert normalise_uid(text) == text.upper()


@pytest.mark.parametrize("text, why", [
    ("", "no hex digits"),
    (" : - ", "no hex digits"),
    ("04A1B2C3D4E5", "6 bytes"),
    ("04A1B2", "3 bytes"),
    ("04A1B2C3D4E58", "odd"),
    ("04G1B2C3D4E580", "'G' is not a hex digit"),
    ("0x04A1B2C3D4E580", "'x' is not a hex digit"),
    ("04A1B2C3\tD4E580", "'\\t' is not a hex digit"),
    ("uid=04A1B2C3D4E580", "'u' is not a hex digit"),
    ("０４A1B2C3D4E580", "is not a hex digit"),  # full-width digits are not hex
    (None, "a UID is text"),
    (0x04A1B2C3D4E580, "a UID is text"),
])
def test_normalise_rejects_with_a_reason(text, why):
    with pytest.raises(RegistryError) as info:
        normalise_uid(text)
    assert why in str(info.value)
    assert "\n" not in str(info.value)


@given(st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       st.sampled_from(["", ":", "-", " "]), st.booleans())
def test_normalise_recovers_any_spelling(raw, sep, lower):
    text = sep.join(f"{b:02x}" if lower else f"{b:02X}" for b in raw)
    assert normalise_uid(text) == raw.hex().upper()


# ------------------------------------------------------------------ cards


def test_card_labels():
    assert CNOT.label == "CNOT"
    assert Card("entanglion", "engine", "PROBE").label == "PROBE"
    assert TUNNEL.label == "Quantum Tunnel"
    assert Card("entanglion", "component", "quantum_error_correction").label == (
        "Quantum Error Correction")


@pytest.mark.parametrize("game, kind, name", [
    ("Entanglion", "engine", "H"), ("", "engine", "H"), ("entanglion", "engine card", "H"),
    ("entanglion", "engine", ""), ("entanglion", "engine", " H"), ("entanglion", "engine", "H\n"),
    (1, "engine", "H"),
])
def test_card_rejects_what_a_file_could_not_hold(game, kind, name):
    with pytest.raises(ValueError):
        Card(game, kind, name)


# ------------------------------------------------------------------ registry


def test_lookup_normalises_and_unknown_or_invalid_is_none():
    reg = sample()
    assert reg.lookup("04:a1:b2:c3:d4:e5:80") is CNOT
    assert reg.lookup("de ad be ef") is TUNNEL
    assert reg.lookup("04FFFFFFFFFFFF") is None  # valid UID, not enrolled
    assert reg.lookup("04A1") is None  # garbled read
    assert reg.lookup("not a uid") is None
    assert reg.lookup(None) is None  # type: ignore[arg-type]


def test_find_is_case_insensitive_on_name_and_in_uid_order():
    reg = sample()
    expected = [("04A1B2C3D4E580", CNOT), ("04A1B2C3D4E581", CNOT)]
    assert reg.find("CNOT") == reg.find("cnot") == reg.find("Cnot") == expected
    assert reg.find("QUANTUM_TUNNEL") == [("DEADBEEF", TUNNEL)]
    assert reg.find("cnot", game="entanglion", kind="engine") == expected
    assert reg.find("cnot", game="qno") == []
    assert reg.find("cnot", kind="event") == []
    assert reg.find("toffoli") == []


def test_add_replaces_remove_len_iter_cards():
    reg = Registry()
    assert len(reg) == 0 and list(reg) == []
    assert reg.add("04:e1:00:00:00:00:02", CNOT) == "04E10000000002"
    reg.add("04E10000000001", CNOT)
    reg.add("04e10000000002", TUNNEL)  # re-enrolling the same tag replaces its card
    assert len(reg) == 2
    assert list(reg) == [("04E10000000001", CNOT), ("04E10000000002", TUNNEL)]
    assert reg.cards("entanglion") == [CNOT, TUNNEL]
    assert reg.cards("qno") == []
    assert reg.remove("04-E1-00-00-00-00-01") == CNOT
    assert list(reg) == [("04E10000000002", TUNNEL)]
    with pytest.raises(KeyError):
        reg.remove("04E10000000001")
    with pytest.raises(RegistryError):
        reg.add("04E1", CNOT)
    with pytest.raises(TypeError):
        reg.add("04E10000000003", ("entanglion", "engine", "H"))  # type: ignore[arg-type]


def test_constructor_refuses_duplicates_after_normalising():
    with pytest.raises(RegistryError, match="04A1B2C3D4E580"):
        Registry({"04:a1:b2:c3:d4:e5:80": CNOT, UID: TUNNEL})
    assert Registry([(UID, CNOT)]) == Registry({UID: CNOT})


# ------------------------------------------------------------------ files


@pytest.mark.parametrize("suffix", [".json", ".toml", ".JSON"])
def test_save_then_load_round_trips(tmp_path, suffix):
    path = tmp_path / f"tags{suffix}"
    sample().save(path)
    assert Registry.load(path) == sample()
    assert Registry.load(str(path)) == sample()


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_empty_registry_round_trips(tmp_path, suffix):
    path = tmp_path / f"tags{suffix}"
    Registry().save(path)
    assert Registry.load(path) == Registry()


def test_json_and_toml_files_have_the_documented_shape(tmp_path):
    reg = Registry({UID: CNOT})
    reg.save(tmp_path / "a.json")
    reg.save(tmp_path / "a.toml")
    shape = {"version": 1, "tags": {UID: {"game": "entanglion", "kind": "engine", "name": "CNOT"}}}
    assert json.loads((tmp_path / "a.json").read_text()) == shape
    text = (tmp_path / "a.toml").read_text()
    assert tomllib.loads(text) == shape
    assert f"[tags.{UID}]" in text.splitlines()


def test_hand_written_files_load_in_both_formats(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"version": 1, "tags": {
        "04:a1:b2:c3:d4:e5:80": {"name": "CNOT", "kind": "engine", "game": "entanglion"}}}))
    (tmp_path / "a.toml").write_text(
        'version = 1\n[tags."04 A1 B2 C3 D4 E5 80"]\ngame = "entanglion"\nkind = "engine"\n'
        'name = "CNOT"\n')
    assert Registry.load(tmp_path / "a.json") == Registry.load(tmp_path / "a.toml") == (
        Registry({UID: CNOT}))


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_saved_file_is_0600_even_over_a_readable_one(tmp_path, suffix):
    path = tmp_path / f"tags{suffix}"
    path.write_text("old")
    path.chmod(0o644)
    sample().save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert os.listdir(tmp_path) == [path.name]  # no temp file left behind


def test_save_refuses_unknown_suffix_and_writes_nothing(tmp_path):
    with pytest.raises(RegistryError, match=r"tags\.yaml"):
        sample().save(tmp_path / "tags.yaml")
    assert os.listdir(tmp_path) == []


def test_save_into_a_missing_directory_is_a_registry_error(tmp_path):
    with pytest.raises(RegistryError, match="cannot write"):
        sample().save(tmp_path / "nope" / "tags.json")


ENTRY = '{"game": "entanglion", "kind": "engine", "name": "CNOT"}'
K = f"tags.{UID}"

# (file name, text, fragments the one-line message must contain besides the file name)
BROKEN = [
    # JSON syntax: the parser knows the line
    ("bad.json", '{\n  "version": 1,\n  "tags": {\n    "%s": {"game": "entanglion" "kind": 1}\n'
     "  }\n}\n" % UID, ["line 4", "delimiter"]),
    ("empty.json", "", ["line 1"]),
    ("top.json", "[]", ["top level", "object"]),
    ("nover.json", '{"tags": {}}', ["version", "missing"]),
    ("v2.json", '{"version": 2, "tags": {}}', ["version", "unknown version 2"]),
    ("vstr.json", '{"version": "1", "tags": {}}', ["version", "a string"]),
    ("vbool.json", '{"version": true, "tags": {}}', ["version", "a boolean"]),
    ("notags.json", '{"version": 1}', ["tags", 'missing "tags"']),
    ("extra.json", '{"version": 1, "tags": {}, "tag": {}}', ["tag:", "unknown key"]),
    ("tagslist.json", '{"version": 1, "tags": []}', ["tags:", "a list"]),
    ("shortuid.json", '{"version": 1, "tags": {"04A1": %s}}' % ENTRY, ["tags.04A1:", "2 bytes"]),
    ("hexuid.json", '{"version": 1, "tags": {"04Z1B2C3D4E580": %s}}' % ENTRY,
     ["tags.04Z1B2C3D4E580:", "'Z'"]),
    ("nluid.json", '{"version": 1, "tags": {"04\\nA1": %s}}' % ENTRY, ['tags."04\\nA1"']),
    ("entry.json", '{"version": 1, "tags": {"%s": "CNOT"}}' % UID, [K, "a string"]),
    ("noname.json", '{"version": 1, "tags": {"%s": {"game": "entanglion", "kind": "engine"}}}'
     % UID, [f'{K}: missing "name"']),
    ("nogame.json", '{"version": 1, "tags": {"%s": {"kind": "engine", "name": "H"}}}' % UID,
     [f'{K}: missing "game"']),
    ("gametype.json", '{"version": 1, "tags": {"%s": {"game": 7, "kind": "engine", "name": "H"}}}'
     % UID, [f"{K}.game:", "a number"]),
    ("gamecase.json", '{"version": 1, "tags": {"%s": {"game": "Entanglion", "kind": "engine", '
     '"name": "H"}}}' % UID, [f"{K}.game:", "lowercase identifier"]),
    ("kind.json", '{"version": 1, "tags": {"%s": {"game": "entanglion", "kind": "", '
     '"name": "H"}}}' % UID, [f"{K}.kind:"]),
    ("name.json", '{"version": 1, "tags": {"%s": {"game": "entanglion", "kind": "engine", '
     '"name": ""}}}' % UID, [f"{K}.name:"]),
    ("field.json", '{"version": 1, "tags": {"%s": {"game": "entanglion", "kind": "engine", '
     '"name": "H", "colour": "red"}}}' % UID, [f"{K}.colour:", "unknown field"]),
    ("dupnorm.json", '{"version": 1, "tags": {"%s": %s, "04:a1:b2:c3:d4:e5:80": %s}}'
     % (UID, ENTRY, ENTRY), ['tags."04:a1:b2:c3:d4:e5:80":', K, "same UID"]),
    ("dupexact.json", '{"version": 1, "tags": {"%s": %s, "%s": %s}}' % (UID, ENTRY, UID, ENTRY),
     [K, "duplicate key"]),
    ("dupfield.json", '{"version": 1, "tags": {"%s": {"game": "entanglion", "kind": "engine", '
     '"name": "H", "name": "X"}}}' % UID, [f"{K}.name:", "duplicate key"]),
    # TOML
    ("bad.toml", f"version = 1\n\n[tags.{UID}]\ngame = entanglion\n", ["line 4"]),
    ("twice.toml", f'version = 1\n[tags.{UID}]\ngame = "entanglion"\nkind = "engine"\n'
     f'name = "H"\n[tags.{UID}]\n', ["line 6", UID]),
    ("v2.toml", "version = 2\n[tags]\n", ["version", "unknown version 2"]),
    ("vfloat.toml", "version = 1.0\n[tags]\n", ["version", "a decimal number"]),
    ("noname.toml", f'version = 1\n[tags.{UID}]\ngame = "entanglion"\nkind = "engine"\n',
     [f'{K}: missing "name"']),
    ("shortuid.toml", 'version = 1\n[tags.04A1B2]\ngame = "entanglion"\nkind = "engine"\n'
     'name = "H"\n', ["tags.04A1B2:", "3 bytes"]),
    ("dotted.toml", 'version = 1\n[tags.04A1B2C3.D4E580]\ngame = "entanglion"\n',
     ["tags.04A1B2C3.D4E580:", "unknown field"]),
    ("dupnorm.toml", f'version = 1\n[tags.{UID}]\ngame = "entanglion"\nkind = "engine"\n'
     'name = "H"\n[tags."04:a1:b2:c3:d4:e5:80"]\ngame = "entanglion"\nkind = "engine"\n'
     'name = "X"\n', ['tags."04:a1:b2:c3:d4:e5:80"', K, "same UID"]),
    ("gametype.toml", f'version = 1\n[tags.{UID}]\ngame = 1979-05-27\nkind = "engine"\n'
     'name = "H"\n', [f"{K}.game:", "a date"]),
]


@pytest.mark.parametrize("filename, text, fragments", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_is_one_line_naming_file_and_key(tmp_path, filename, text, fragments):
    path = tmp_path / filename
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RegistryError) as info:
        Registry.load(path)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message
    assert message.startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in message


def test_unreadable_files(tmp_path):
    for path, why in [
        (tmp_path / "missing.json", "cannot read"),
        (tmp_path / "a-directory.json", "cannot read"),
        (tmp_path / "latin1.json", "not UTF-8"),
        (tmp_path / "tags.yaml", "unknown registry format"),
    ]:
        if path.name == "a-directory.json":
            path.mkdir()
        elif path.name != "missing.json":
            path.write_bytes('{"version": 1, "tags": {}, "é": 1}'.encode("latin-1"))
        with pytest.raises(RegistryError) as info:
            Registry.load(path)
        message = str(info.value)
        assert "\n" not in message and str(path) in message and why in message


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_permission_denied_is_a_registry_error(tmp_path):
    path = tmp_path / "locked.json"
    Registry().save(path)
    path.chmod(0)
    with pytest.raises(RegistryError, match="cannot read"):
        Registry.load(path)


def test_byte_order_mark_is_tolerated(tmp_path):
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + Registry({UID: CNOT}).dumps(), encoding="utf-8")
    assert Registry.load(path) == Registry({UID: CNOT})


# ------------------------------------------------------------------ simulator registry


def test_shipped_sim_registry_is_one_tag_per_physical_card():
    reg = Registry.load(default_sim_path())
    assert len(reg) == sum(ENGINE_COUNTS.values()) + len(EVENTS) + len(COMPONENTS) + 112 + 48 \
        == 201
    assert {card.game for _, card in reg} == {"entanglion", "qno", "qlanet"}
    qlanet = Counter(card.name for _, card in reg if card.game == "qlanet")
    assert qlanet == Counter(QLANET_DECK)
    assert reg.find("CX0", "qlanet")[0] == ("04C10105010000", Card("qlanet", "gate", "CX0"))
    assert Card("qlanet", "gate", "CX0").label == "CX0"
    qno = Counter(card.name for _, card in reg if card.game == "qno")
    assert qno == Counter(qno_deck())
    assert reg.find("01_7", "qno")[1][1] == Card("qno", "state", "01_7")
    by_kind = Counter((card.kind, card.name) for _, card in reg if card.game == "entanglion")
    assert {name: n for (kind, name), n in by_kind.items() if kind == "engine"} == ENGINE_COUNTS
    assert {name: n for (kind, name), n in by_kind.items() if kind == "event"} == dict.fromkeys(
        EVENTS, 1)
    assert {name: n for (kind, name), n in by_kind.items() if kind == "component"} == (
        dict.fromkeys(COMPONENTS, 1))
    for uid, _ in reg:
        assert len(bytes.fromhex(uid)) == 7 and uid.startswith("04"), uid
    assert reg.find("cnot", game="entanglion", kind="engine")[2][0] == "04E10102030000"


def test_shipped_sim_registry_is_exactly_what_the_generator_writes():
    # Byte for byte, so the file cannot drift from cards.py or the generator.
    assert default_sim_path().read_text(encoding="utf-8") == sim_registry().dumps("json")
    assert Registry.load(default_sim_path()) == sim_registry()


def test_make_sim_command_writes_the_registry(tmp_path, capsys):
    out = tmp_path / "sim.json"
    assert main(["--make-sim", "-o", str(out)]) == 0
    assert "201 tags" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == default_sim_path().read_text(encoding="utf-8")
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # shipped data, readable by all
