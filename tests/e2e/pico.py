"""Inside the booted container: the fake Pico where udev would put the real one.

Run by the end-to-end test with the installed venv's Python (the package it fakes is
the one install.sh put there). It plugs a fake Pico in, links /dev/companion-io to
its pty as the udev rule would, gives the pty to group dialout (as a real ttyACM
is) and then takes commands on stdin, one a line, answering each:

    tap PAD UID     a tag arrives on a pad           -> ok
    frames          how many LED frames it accepted  -> <count>
    quit
"""

import grp
import os
import sys
import tempfile

from companion.firmware import shipped_version, source_dir
from companion.hardware.fake_pico import FakePico

LINK = "/dev/companion-io"


def main() -> int:
    # Its pty's link lives in a temporary folder: not /tmp, which the service
    # (PrivateTmp=yes) sees a private one of.
    os.makedirs("/run/fake-pico", exist_ok=True)
    tempfile.tempdir = "/run/fake-pico"
    pico = FakePico(fw=shipped_version(source_dir()))  # flashed from this checkout
    os.chmod(os.path.dirname(pico.path), 0o755)  # the service's user walks into it
    os.chown(pico.tty, -1, grp.getgrnam("dialout").gr_gid)
    os.chmod(pico.tty, 0o660)
    if os.path.lexists(LINK):
        os.unlink(LINK)
    os.symlink(pico.path, LINK)
    print("ready", pico.tty, flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["tap"]:
                pico.tap(int(words[1]), words[2])
                print("ok", flush=True)
            elif words == ["frames"]:
                print(len(pico.frames), flush=True)
            elif words == ["quit"]:
                break
            else:
                print("unknown command", line.strip(), flush=True)
    finally:
        os.unlink(LINK)
        pico.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
