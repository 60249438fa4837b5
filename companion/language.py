"""The table's language across restarts: the choice made in Settings, kept in the
state directory, over the config's ``[game] language`` (the default).

The file holds one language code. It is written atomically (a temporary file
renamed over it), so a pulled plug leaves the old choice or the new one, never half
of either; a file that does not hold a shipped code is ignored (logged), and the
default applies. A symbolic link in its place is refused, never followed.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from . import i18n
from .statelock import open_nofollow

log = logging.getLogger(__name__)

FILE = "language"


def saved(state_dir: Path) -> str | None:
    """The code chosen in Settings, or None (never chosen, or unreadable)."""
    try:
        with os.fdopen(open_nofollow(state_dir / FILE, os.O_RDONLY), "rb") as fh:
            code = fh.read(64).decode("utf-8").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("cannot read the language choice: %s", exc)
        return None
    if code not in i18n.LANGUAGES:
        log.warning("%s holds %r, not a shipped language; using the default",
                    state_dir / FILE, code)
        return None
    return code


def save(state_dir: Path, code: str) -> None:
    """Keep ``code`` for the next start. Raises OSError if it cannot be written."""
    path = state_dir / FILE
    tmp = path.with_name(f".{FILE}.tmp")
    with os.fdopen(open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), "w",
                   encoding="utf-8") as fh:
        fh.write(code + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def start(state_dir: Path, default: str, forced: str | None = None) -> str:
    """Speak the language to start in: ``forced`` (a command-line choice), else the
    one saved from Settings, else ``default``. Returns its code."""
    code = forced or saved(state_dir) or default
    i18n.set_language(code)
    return code
