"""What changed between two snapshots, so a page is sent that instead of the whole.

A snapshot is a few kilobytes (the board's SVG alone is several) while an input
changes a few of its fields, so each open page would otherwise receive the whole of
it per input. A patch is JSON of its own shape, applied to the previous snapshot:

* between two objects: ``{"set": {key: new value}, "del": [key], "sub": {key: patch}}``
  (each part only when needed; ``sub`` for a field that is itself an object or list
  worth patching);
* between two lists: ``{"drop": n, "add": [...]}``: the old list less its first ``n``
  items, then ``add`` (the log's window moving on by a line or two), or
  ``{"at": {index: new item}}`` for a list of the same length with a few items changed.

``diff`` returns None when nothing changed; ``apply`` is the page's reader
(``app.js`` does the same), kept here so the two sides can be tested against each other.
"""

from __future__ import annotations

import json
from typing import Any

_SIZE = {"separators": (",", ":"), "ensure_ascii": False}


def _size(value: Any) -> int:
    return len(json.dumps(value, **_SIZE))


def diff(old: Any, new: Any) -> Any:
    """A patch taking ``old`` to ``new`` (both dicts), or None if they are equal."""
    if old == new:
        return None
    return _diff_object(old, new)


def _diff_object(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    changed = {}
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        before = old.get(key)
        sub = None
        if key in old and type(before) is type(value) and isinstance(value, (dict, list)):
            sub = _diff_object(before, value) if isinstance(value, dict) \
                else _diff_list(before, value)
        if sub is not None and _size(sub) < _size(value):
            out.setdefault("sub", {})[key] = sub
        else:
            changed[key] = value
    if changed:
        out["set"] = changed
    gone = [key for key in old if key not in new]
    if gone:
        out["del"] = gone
    return out


def _diff_list(old: list[Any], new: list[Any]) -> dict[str, Any] | None:
    """The cheaper of "drop n, add the rest" and "these indices changed", or None
    when neither applies."""
    for n in range(len(old) + 1):
        kept = len(old) - n
        if kept <= len(new) and old[n:] == new[:kept]:
            if kept or not old:  # nothing kept: the whole list is as cheap
                return {"drop": n, "add": new[kept:]}
            break
    if len(old) == len(new):
        return {"at": {str(i): b for i, (a, b) in enumerate(zip(old, new)) if a != b}}
    return None


def apply(old: Any, patch: dict[str, Any]) -> Any:
    """``old`` with ``patch`` applied (a new value; ``old`` is not changed)."""
    if isinstance(old, list):
        if "at" in patch:
            out = list(old)
            for index, value in patch["at"].items():
                out[int(index)] = value
            return out
        return old[patch["drop"]:] + patch["add"]
    out = dict(old)
    for key in patch.get("del", ()):
        out.pop(key, None)
    out.update(patch.get("set", {}))
    for key, sub in patch.get("sub", {}).items():
        out[key] = apply(out[key], sub)
    return out
