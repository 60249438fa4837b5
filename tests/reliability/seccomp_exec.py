"""Run a command under the system-call filter of systemd/companion.service.

    /usr/bin/python3 seccomp_exec.py FILTER.json -- COMMAND [ARGS...]

FILTER.json: {"allow": [names...], "errno": 1}. Every system call not allowed fails
with that errno, exactly as systemd's ``SystemCallFilter=`` with
``SystemCallErrorNumber=`` does (libseccomp underneath, as in systemd); then
COMMAND is exec'd, keeping the filter. Needs libseccomp's Python binding (Debian:
python3-seccomp), which is why it runs under the system Python, not the venv.
"""

import json
import os
import sys


def main() -> None:
    import seccomp

    spec = json.load(open(sys.argv[1]))
    command = sys.argv[sys.argv.index("--") + 1:]
    rules = seccomp.SyscallFilter(defaction=seccomp.ERRNO(spec["errno"]))
    for name in spec["allow"]:
        try:
            rules.add_rule(seccomp.ALLOW, name)
        except (RuntimeError, ValueError, OSError):
            pass  # not a system call on this architecture
    rules.load()
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
