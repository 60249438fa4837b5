"""What Japanese costs the OLED views: load time, render time and memory, against English.

Each run is a fresh process that imports the views and renders the same screens
(a menu, a text screen, a card) with English text or with Japanese text, so the only
difference is the script. It reports the time of the first screen (for Japanese it
includes reading the glyph file), the median time of a screen afterwards, and the
process's RSS and peak RSS when done. ``ja-all`` then draws every glyph of the file
once, the bound on what the per-character masks can ever hold. Medians of ``--runs``
runs. Linux only (reads /proc).

    python bench/font_cost.py [--runs 5] [--renders 300]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import machine, median  # noqa: E402
from bench.harness import memory_mb  # noqa: E402

TEXTS = {
    "en": {
        "title": "Mercurial: your move", "items": ["Retrieve need 5+ 4/8", "Play Heisenberg",
                                                   "Exchange CNOT", "Undo last action"],
        "lines": ["Rubicon plays CNOT", "Orbital 1: DETECTED", "Det 2 to 3 orbital",
                  "Take the X card", "Schrödinger's cat"],
        "card": ("Quantum Error Correction", "Re-roll one die of a detection roll."),
    },
    "ja": {
        "title": "Mercurialの手番", "items": ["かいしゅう 5いじょう", "ハイゼンベルクをつかう",
                                            "CNOTをこうかん", "ひとつもどす"],
        "lines": ["RubiconがCNOTをだした", "きどう1: みつかった！", "たんちレベル 2→3",
                  "Xのカードをとってね", "量子惑星を確定する"],
        "card": ("量子誤り訂正", "たんちのサイコロを1つ ふりなおせる。"),
    },
}
SCRIPTS = ("en", "ja", "ja-all")


def child(script: str, renders: int) -> int:
    start = time.perf_counter()
    from companion.views import font, oled
    imported = time.perf_counter()
    text = TEXTS[script[:2]]
    models = [
        {"screen": "menu", "title": text["title"], "text": [], "items": text["items"],
         "cursor": 1},
        {"screen": "text", "title": text["title"], "lines": text["lines"], "hint": "OK"},
        {"screen": "card", "title": text["title"], "kind": "Component",
         "name": text["card"][0], "text": text["card"][1], "footer": "OK"},
    ]
    before = time.perf_counter()
    oled.render(models[0])
    first = time.perf_counter() - before
    times = []
    for n in range(renders):
        before = time.perf_counter()
        oled.render(models[n % len(models)])
        times.append(time.perf_counter() - before)
    if script == "ja-all":
        image = oled.Image.new("1", (128, 64))
        for char in font.wide_glyphs():
            font.draw_text(image, (0, 1), char)
    print(json.dumps({"import_ms": (imported - start) * 1000, "first_ms": first * 1000,
                      "render_ms": median(times) * 1000, **memory_mb(),
                      "wide_loaded": font.wide_glyphs.cache_info().currsize}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--renders", type=int, default=300)
    parser.add_argument("--child", choices=SCRIPTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.renders)
    print(f"machine: {machine()}")
    results: dict[str, list[dict]] = {s: [] for s in SCRIPTS}
    for _ in range(args.runs):
        for script in SCRIPTS:  # interleaved, so load changes hit all alike
            out = subprocess.run([sys.executable, __file__, "--child", script,
                                  "--renders", str(args.renders)],
                                 check=True, capture_output=True, text=True).stdout
            results[script].append(json.loads(out))
    for script, runs in results.items():
        def m(key: str) -> float:
            return median([r[key] for r in runs])
        print(f"{script:6}: import views {m('import_ms'):.1f} ms; first screen "
              f"{m('first_ms'):.2f} ms; a screen after {m('render_ms'):.3f} ms; RSS "
              f"{m('VmRSS'):.1f} MB (peak {m('VmHWM'):.1f} MB); Japanese file loaded: "
              f"{'yes' if runs[0]['wide_loaded'] else 'no'}  (median of {len(runs)} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
