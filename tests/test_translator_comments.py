"""Translators know where a short label shows and how long it may be: every short
message and every sentence half in the templates (.pot) carries a translator comment
(``# Translators:`` beside the string, or one above its table or screen function) or a
``msgctxt``. The templates are checked as committed; ``test_language`` checks they are
current with the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import catalogs

SHORT = 20  # characters: a menu item's width on the OLED, a label on the page
# A sentence half: starts with a joining word, or ends leading into what follows.
HALF = re.compile(r"^(?:and|or|then|but|to|on|for|into|of|with|within)\b|[,;:]$")
# Short messages that say all a translator needs, each with why.
SELF_EXPLANATORY: dict[str, str] = {}


def _templates() -> list[Path]:
    return sorted(catalogs.LOCALE.glob("*.pot"))


def needs_note(message_id: str) -> bool:
    text = message_id.strip()
    return len(message_id) <= SHORT or bool(HALF.search(text))


def unexplained(pot: Path) -> list[str]:
    with pot.open("rb") as f:
        catalog = read_po(f)
    out = []
    for m in catalog:
        if not m.id:
            continue
        mid = m.id if isinstance(m.id, str) else m.id[0]
        noted = m.context or any(c.startswith("Translators:") for c in m.auto_comments)
        if needs_note(mid) and not noted and mid not in SELF_EXPLANATORY:
            where = ", ".join(f"{f}:{n}" for f, n in m.locations[:2])
            out.append(f"{mid!r} ({where})")
    return out


@pytest.mark.parametrize("pot", _templates(), ids=lambda p: p.stem)
def test_every_short_label_and_sentence_half_has_a_note(pot):
    found = unexplained(pot)
    assert not found, (f"{len(found)} messages without '# Translators:' or a context "
                       f"(say where each shows and how long it may be): {found[:20]}")


def test_the_allowed_ones_exist():
    ids = set()
    for pot in _templates():
        with pot.open("rb") as f:
            ids |= {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert set(SELF_EXPLANATORY) <= ids


def test_the_check_can_fail(tmp_path):
    pot = tmp_path / "x.pot"
    pot.write_text('msgid ""\nmsgstr ""\n\n#: a.py:1\nmsgid "Pass"\nmsgstr ""\n\n'
                   '#. Translators: a menu item.\n#: a.py:2\nmsgid "Stop"\nmsgstr ""\n\n'
                   '#: a.py:3\nmsgid "and takes the card that was offered to the ship"\n'
                   'msgstr ""\n\n#: a.py:4\nmsgctxt "short"\nmsgid "Tunnel"\nmsgstr ""\n',
                   encoding="utf-8")
    found = unexplained(pot)
    assert len(found) == 2 and "Pass" in found[0] and "and takes" in found[1]


def test_one_comment_reaches_a_whole_table_or_screen_function():
    source = '''
# Translators: a table's labels.
TABLE = {"a": N_("One"),
         "b": N_("Two")}
N_("Three")


# Translators: a screen's lines.
def screen():
    return [_("Four"),
            _("Five")]


def other():
    return _("Six")
'''
    notes = catalogs.table_comments(source)
    lines = source.split("\n")
    said = {m: notes.get(i) for i, line in enumerate(lines, 1)
            for m in re.findall(r'_\("(\w+)"\)', line)}
    assert said["One"] == said["Two"] == "Translators: a table's labels."
    assert said["Four"] == said["Five"] == "Translators: a screen's lines."
    assert said["Three"] is None and said["Six"] is None
