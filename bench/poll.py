"""SPI time of the Pico's reader polling, at the firmware's SPI clock and at 4 MHz.

Runs the real firmware (``firmware/main.py``'s ``build`` and main loop) under CPython on
the register-level fakes of ``tests/firmware`` (three MFRC522 chips, no card, then a
card resting on pad 1), counts the bytes its loop exchanges on the SPI bus per turn,
and prints the SPI clock time that costs at each bus speed. The MFRC522's own radio
timing (its REQA wait) is not in it: this is the share the SPI clock decides.

    python bench/poll.py [--turns 200]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "firmware"))
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT))
_spec = importlib.util.spec_from_file_location("protocol",
                                               ROOT / "companion" / "hardware" / "protocol.py")
_protocol = importlib.util.module_from_spec(_spec)
sys.modules["protocol"] = _protocol
_spec.loader.exec_module(_protocol)

import fw_fakes  # noqa: E402

fw_fakes.install()

import board  # noqa: E402
from fw_rfid import Card  # noqa: E402
from fw_rig import Rig  # noqa: E402


def bytes_per_turn(turns: int, card: bool) -> float:
    fw_fakes.reset_state()
    rig = Rig()
    if card:
        rig.chips[1].place(Card("04A1B2C3D4E580"))
    bus = fw_fakes.state.bus(board.SPI_ID)
    rig.run(1000)  # boot, first reads
    before = bus.transfers
    for _ in range(turns):
        rig.step(10)
    return (bus.transfers - before) / turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()
    for card in (False, True):
        per = bytes_per_turn(args.turns, card)
        cost = ", ".join(f"{per * 8 / hz * 1000:.3f} ms at {hz / 1e6:g} MHz"
                         for hz in (4_000_000, board.SPI_BAUD))
        print(f"{board.READERS} readers, {'a card on pad 1' if card else 'no card'}: "
              f"{per:.1f} SPI bytes per loop turn: {cost}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
