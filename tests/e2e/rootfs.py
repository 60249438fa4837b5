"""Build, or reuse, the Debian Bookworm root file system the end-to-end install test boots.

    sudo python3 tests/e2e/rootfs.py [--arch amd64|arm64]    prints the tree's path

debootstrap's minimal variant plus what a Raspberry Pi OS Lite box has that the
install needs (systemd, udev, D-Bus, Python with venv). The mirror is this machine's
own, read from its apt sources, so nothing about the network is written in the
repository. The tree is cached outside the checkout (COMPANION_E2E_CACHE, default
/var/cache/companion-e2e) under a key made of everything that goes into it, so the
next run reuses it; the test boots a throw-away copy and never changes it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

SUITE = "bookworm"
VARIANT = "minbase"
# What the box's OS has that minbase lacks and install.sh or the test relies on:
# an init to boot (systemd-sysv), udevadm for the rule, D-Bus for systemctl,
# Python 3.11 with venv, sudo for the README's commands, and ps/kill for the test.
PACKAGES = (
    "systemd", "systemd-sysv", "dbus", "udev", "python3", "python3-venv", "sudo", "procps",
)
DEFAULT_CACHE = Path("/var/cache/companion-e2e")
SOURCES = Path("/etc/apt/sources.list.d")


def host_arch() -> str:
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def mirror(sources_dir: Path = SOURCES, legacy: Path = Path("/etc/apt/sources.list")) -> str:
    """The Debian mirror this machine's apt uses (deb822 or one-line format)."""
    candidates = sorted(sources_dir.glob("*.sources")) + sorted(sources_dir.glob("*.list"))
    if legacy.exists():
        candidates.append(legacy)
    for path in candidates:
        text = path.read_text(errors="replace")
        if path.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(
                    line.split(":", 1) for line in stanza.splitlines()
                    if ":" in line and not line.lstrip().startswith("#")
                )
                suites = fields.get("Suites", "").split()
                if SUITE in suites and "deb" in fields.get("Types", "").split():
                    return fields["URIs"].split()[0]
        else:
            for line in text.splitlines():
                words = line.split("#", 1)[0].split()
                if words[:1] == ["deb"]:
                    words = [w for w in words[1:] if not w.startswith("[")]
                    if len(words) >= 2 and words[1] == SUITE:
                        return words[0]
    raise LookupError(f"no '{SUITE}' deb source in {sources_dir} or {legacy}")


def key(arch: str) -> str:
    recipe = "\n".join([SUITE, VARIANT, arch, *PACKAGES])
    return hashlib.sha256(recipe.encode()).hexdigest()[:16]


def cache_dir() -> Path:
    return Path(os.environ.get("COMPANION_E2E_CACHE", DEFAULT_CACHE))


def path_for(arch: str) -> Path:
    return cache_dir() / f"{SUITE}-{arch}-{key(arch)}"


def build(arch: str, log=sys.stderr) -> Path:
    """The cached tree for arch, built first if missing (a half-built one is redone)."""
    root = path_for(arch)
    if (root / ".complete").exists():
        return root
    partial = root.with_name(root.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        "debootstrap", f"--variant={VARIANT}", f"--arch={arch}",
        "--include=" + ",".join(PACKAGES), SUITE, str(partial), mirror(),
    ]
    subprocess.run(cmd, check=True, stdout=log, stderr=log)
    # A booted copy needs a machine id of its own (systemd makes one when it is empty)
    # and no leftover apt lists (they are half of the tree's size).
    (partial / "etc/machine-id").write_text("")
    for lists in (partial / "var/lib/apt/lists").glob("*_*"):
        lists.unlink()
    shutil.rmtree(partial / "var/cache/apt/archives", ignore_errors=True)
    (partial / "var/cache/apt/archives/partial").mkdir(parents=True)
    (partial / ".complete").write_text(" ".join(cmd[:-2]) + "\n")
    partial.rename(root)
    for stale in root.parent.glob(f"{SUITE}-{arch}-*"):
        if stale != root and not stale.name.endswith(".partial"):
            shutil.rmtree(stale, ignore_errors=True)  # an older recipe's tree
    return root


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default=host_arch())
    args = parser.parse_args(argv)
    print(build(args.arch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
