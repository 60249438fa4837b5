"""The story of one game of Entanglion, told from its log.

:func:`story` is a pure function of a replayed game and (optionally) its journal
record, which adds the time played and the status "abandoned". The box shows it on
the end screen's pages (:func:`pages`), ``companion games`` prints :func:`line` for
each game, ``companion games show`` prints :func:`text`, and ``companion stats``
sums many stories with :func:`aggregate`. A story is plain JSON data, so a web page
can use it as it is.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ...i18n import N_, for_catalog
from ..common import duration, played_seconds, rate
from ..rulings import say
from . import odds
from .cards import COMPONENTS, pretty
from .options import RULINGS
from .setup_steps import SETUP_STEPS
from .words import name, part

_, ngettext, pgettext = for_catalog("entanglion")

CHECKS = ("orbital defence", "ground defence", "probe")
CAUSE = {"orbital defence": "orbital defence", "ground defence": "ground defence",
         "probe": "PROBE", "schrodinger": "Schrödinger", "bit_flip_error": "Bit Flip Error"}
# Translators: A game's status in the story and on the page (one word).
STATUS = {"won": N_("won"), "lost": N_("lost"), "abandoned": N_("abandoned"),
          "playing": N_("playing")}


def story(g: Any, record: Any = None) -> dict[str, Any]:
    """What happened in ``g``: result, turns, time, detections by cause, rolls made and
    failed, who retrieved what, and the closest call (the least likely roll that
    still went the players' way)."""
    detections: Counter[str] = Counter()
    retrieved: dict[str, list[str]] = {}
    rolls = failed = 0
    space = peak = 0
    last_cause = None
    closest = None
    turn = 0
    for e in g.log:
        t = e["type"]
        if t == "setup":
            space = peak = e["detection"]
        elif t == "turn":
            turn = e["number"]
        elif t == "detection":
            if e["space"] > space:
                cause = CAUSE.get(e["reason"], e["reason"])
                detections[cause] += 1  # each raise once, however far (a Bit Flip)
                last_cause = cause
            space = e["space"]
            peak = max(peak, space)
        elif t == "retrieved":
            retrieved.setdefault(e["player"], []).append(e["component"])
        elif t == "roll" and e["purpose"] in CHECKS and e.get("result") is not None:
            rolls += 1
            if e["result"] == "detected":
                failed += 1
                continue
            chance = odds.single(e["beat"], e["modifier"])
            if closest is None or chance < closest[0]:
                closest = (chance, {
                    "turn": turn, "player": e["player"], "purpose": e["purpose"],
                    "face": e.get("reroll", e["raw"]), "need": odds.need(e["beat"], e["modifier"]),
                    "chance": f"{chance.numerator}/{chance.denominator}",
                    "eighths": int(chance * 8)})
    s = g.state
    status = record.status if record is not None else s.status
    options = dict(record.options if record is not None else s.options)
    return {
        "game": "entanglion", "status": status,
        "reason": next((e["reason"] for e in reversed(g.log) if e["type"] == "game_over"), None),
        "turns": s.turn_number, "seconds": played_seconds(record),
        "time": duration(played_seconds(record)),
        "parts": sum(len(c) for c in s.ship_components.values()),
        "retrieved": retrieved, "detections": dict(detections),
        "rolls": rolls, "failed": failed, "peak": peak,
        "lost_to": last_cause if status == "lost" else None,
        "closest": closest[1] if closest else None,
        "start_space": options.get("start_space", RULINGS["start_space"].default),
        "options": {k: v for k, v in options.items()
                    if k in RULINGS and k != "start_space" and v != RULINGS[k].default},
    }


def _detections(st: dict[str, Any]) -> str:
    total = sum(st["detections"].values())
    return f"detected {total}x" if total else "never detected"


def line(st: dict[str, Any]) -> str:
    """One line for ``companion games``."""
    parts = [f"{st['parts']}/8 parts", _detections(st)]
    if st["time"]:
        parts.insert(0, st["time"])
    if st["closest"] and st["closest"]["eighths"] <= 2:
        parts.append(f"closest: {st['closest']['face']} on {st['closest']['need']}+")
    return ", ".join(parts)




# Translators: A cause of detection on the end pages (about 16 characters).
CAUSE_WORDS = {  # how the box's end pages say a cause of detection (keys: CAUSE values)
    "orbital defence": N_("orbital defence"), "ground defence": N_("ground defence"),
    "Schrödinger": N_("Schrödinger"), "Bit Flip Error": N_("Bit Flip Error"),
}
_CLOSEST = {"orbital defence": N_("{ship} evaded with a {face}"),
            "ground defence": N_("{ship} retrieved with a {face}"),
            "probe": N_("{ship} beat a PROBE with a {face}")}


# Translators: The story's pages on the OLED after a game ("The story" is their title); each
# line is a line of the box's OLED screen (21 characters; Japanese 16 full-width).
def pages(st: dict[str, Any]) -> list[dict[str, Any]]:
    """The story on the end screen's pages (in the table's language): each a title and
    up to five lines."""
    turns = ngettext("{n} turn", "{n} turns", st["turns"]).format(n=st["turns"])
    total = sum(st["detections"].values())
    first = [turns + (f", {st['time']}" if st["time"] else ""),
             _("Parts aboard {parts}/8").format(parts=st["parts"]),
             _("Rolls {rolls}, failed {failed}").format(rolls=st["rolls"], failed=st["failed"]),
             ngettext("Detected {n} time", "Detected {n} times", total).format(n=total)
             if total else _("Never detected"),
             _("Track peak: space {space}").format(space=st["peak"])]
    causes = [_("{n}x {cause}").format(
        n=n, cause=_(CAUSE_WORDS[cause]) if cause in CAUSE_WORDS else cause)
              for cause, n in sorted(st["detections"].items(), key=lambda kv: -kv[1])] \
        or [_("none!")]
    out = [(_("The story"), first),
           # Translators: a story page's title; its lines list the causes ("3x orbital
           # defence").
           (_("Detected by"), causes)]
    for ship, comps in st["retrieved"].items():
        names = [part(c) for c in comps]
        for i in range(0, len(names), 5):
            out.append((_("{ship} got").format(ship=ship.capitalize()), names[i:i + 5]))
    c = st["closest"]
    if c:
        out.append((_("Closest call"), [
            _("Turn {number}:").format(number=c["turn"]),
            _(str(_CLOSEST[c["purpose"]])).format(ship=c["player"].capitalize(), face=c["face"]),
            _("needing {need}+ ({eighths}/8)").format(need=c["need"], eighths=c["eighths"])]))
    pages_ = [{"title": title, "lines": lines} for title, lines in out]
    return pages_ + analysis_pages(st.get("analysis"))


# Translators: A choice that changed nothing, in place of a chance on the analysis page
# (about 12 characters).
def _pct(win: float | None) -> str:
    return _("did nothing") if win is None else f"{round(100 * win)}%"


# Translators: Titles of the analysis pages after a game (a title bar, about 18 characters).
def analysis_pages(analysis: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The analysis after the game, once the box has worked it out: the choice that
    cost most, then the chance to win along the game as a small chart."""
    if not analysis or not analysis["decisions"]:
        return []
    c = analysis["costliest"]
    if c is None:
        # Translators: one sentence over two screen lines of 21 characters ("Every
        # choice was as good as the box's"); split yours where it reads best.
        lines = [_("Every choice was as"), _("good as the box's")]
    else:
        lines = [_("Turn {number}, {ship}:").format(number=c["turn"],
                                                     ship=str(c["player"]).capitalize()),
                 # Translators: between the move played (the line above) and the
                 # better one (the line below), each with its chance to win.
                 f"{c['played']} ({_pct(c['played_win'])})", _("instead of"),
                 f"{c['best']} ({_pct(c['best_win'])})"]
    return [{"title": _("Costliest choice"), "lines": lines},
            {"title": _("Chance to win"),
             # Translators: under the title "Chance to win", above its chart.
             "lines": [_("at each choice, played well")],
             "chart": list(analysis["chart"])}]


def analysis_text(analysis: dict[str, Any]) -> list[str]:
    """The analysis in lines, for ``companion games show ID --analysis``."""
    out = [_("Analysis: {n} decisions, {budget} engine inputs each").format(
        n=len(analysis["decisions"]), budget=analysis["budget"])]
    c = analysis["costliest"]
    if c is None:
        out.append(_("Every choice was as good as the search's best"))
    else:
        out.append(_("The choice that cost most: turn {turn}, {played} ({mine}) vs {best} "
                     "({theirs})").format(turn=c["turn"], played=c["played"],
                                          mine=_pct(c["played_win"]), best=c["best"],
                                          theirs=_pct(c["best_win"])))
    # Translators: the lead-in of a line of bars, one per decision, in the analysis text.
    out.append(_("Chance to win at each decision (played well from there):"))
    chart = analysis["chart"]
    bars = " ▁▂▃▄▅▆▇█"
    out.append("  " + "".join(bars[min(8, round(v * 8 / 100))] for v in chart))
    for d in analysis["decisions"]:
        mark = "" if d["same"] else f"  (best: {d['best']} {_pct(d['best_win'])})"
        out.append(f"  {_('turn')} {d['turn']:>3} {str(d['player'])[:1].upper()} "
                   f"{d['played']} {_pct(d['played_win'])}{mark}")
    return out


def _cause(cause: str) -> str:
    return _(CAUSE_WORDS[cause]) if cause in CAUSE_WORDS else cause


def _option(key: str, value: Any) -> str:
    """A setup option as its setup screen words it ("Real cards"); a ruling with no
    setup screen by its short name and value ("Quantum Tunnel: after a failure")."""
    for step in SETUP_STEPS:
        for label, choice in step.choices if step.key == key else ():
            if choice == value:
                return _(label)
    ruling, said = say(RULINGS[key], value, pgettext)
    # Translators: a ruling and its value in the story's "Options:" list.
    return _("{ruling}: {value}").format(ruling=ruling, value=said)


# Translators: The lines of a game's story in the CLI and on the past-games page (the page
# wraps a long line).
def text(st: dict[str, Any]) -> list[str]:
    """The whole story in lines, for ``companion games show`` and the web page (in the
    language in use: English for the command)."""
    status = _(str(STATUS[st["status"]])) if st["status"] in STATUS else st["status"]
    out = [_("Result: {status}").format(status=status)
           + (f" ({_(st['reason'])})" if st["reason"] else ""),
           _("Turns: {turns}").format(turns=st["turns"])
           + (_(", played for {time}").format(time=st["time"]) if st["time"] else ""),
           _("Difficulty: {difficulty}").format(
               difficulty=say(RULINGS["start_space"], st["start_space"], pgettext)[1])]
    if st["options"]:
        out.append(_("Options: {options}").format(
            # Translators: between the items of a list on one line (Japanese: 、).
            options=_(", ").join(_option(k, v) for k, v in st["options"].items())))
    out.append(_("Components aboard: {parts}/8").format(parts=st["parts"]))
    for ship, comps in st["retrieved"].items():
        out.append("  " + _("{ship} retrieved {components}").format(
            ship=ship.capitalize(), components=_(", ").join(name(c) for c in comps)))
    out.append(_("Rolls: {rolls} made, {failed} failed").format(rolls=st["rolls"],
                                                               failed=st["failed"]))
    causes = _(", ").join(f"{_cause(cause)} {n}" for cause, n in st["detections"].items())
    out.append(_("Detections: {n}").format(n=sum(st["detections"].values()))
               + (f" ({causes})" if causes else "")
               + _(", track peaked at space {space}").format(space=st["peak"]))
    if st["lost_to"]:
        out.append(_("Lost to: {cause}").format(cause=_cause(st["lost_to"])))
    c = st["closest"]
    if c:
        closest = _(str(_CLOSEST[c["purpose"]])).format(ship=c["player"].capitalize(),
                                                         face=c["face"])
        out.append(_("Closest call: turn {turn}, {what} (needed {need}+, {chance})").format(
            turn=c["turn"], what=closest, need=c["need"], chance=c["chance"]))
    return out


def _mode(st: dict[str, Any]) -> list[str]:
    # Translators: the options of a game that kept every default ruling.
    return [_option(k, v) for k, v in st["options"].items()] or [_("rule book")]


def aggregate(stories: Iterable[dict[str, Any]]) -> list[str]:
    """``companion stats`` for Entanglion: win rates by difficulty and options, turns,
    what lost the games."""
    stories = list(stories)
    finished = [st for st in stories if st["status"] in ("won", "lost")]
    won = [st for st in finished if st["status"] == "won"]
    out = [f"Entanglion: {len(stories)} game{'s' * (len(stories) != 1)}, "
           f"{len(finished)} finished, {rate(len(won), len(finished))}"]
    if not finished:
        return out
    for title, key in (("By difficulty",
                        lambda st: [say(RULINGS["start_space"], st["start_space"], pgettext)[1]]),
                       ("By options", _mode)):
        groups: dict[str, list[dict[str, Any]]] = {}
        for st in finished:
            for name in key(st):
                groups.setdefault(name, []).append(st)
        out.append(f"{title}:")
        out += [f"  {name}: {rate(sum(st['status'] == 'won' for st in g), len(g))}"
                for name, g in sorted(groups.items())]

    def mean(xs: list[dict[str, Any]]) -> str:
        return f"{sum(st['turns'] for st in xs) / len(xs):.1f}" if xs else "-"

    lost = [st for st in finished if st["status"] == "lost"]
    out.append(f"Average turns: {mean(finished)} (won {mean(won)}, lost {mean(lost)})")
    causes = Counter(st["lost_to"] for st in lost if st["lost_to"])
    if causes:
        cause, n = causes.most_common(1)[0]
        out.append(f"Most common cause of loss: {cause} ({n} of {len(lost)})")
    comps = Counter(c for st in finished for cs in st["retrieved"].values() for c in cs)
    if comps:
        out.append("Retrieved most: " + ", ".join(
            f"{pretty(c)} {n}" for c, n in comps.most_common(3) if c in COMPONENTS))
    return out
