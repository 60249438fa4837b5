"""The unit with the web drop-in: only the address families and addresses the page
needs, and systemd's exposure score still at most 2.0. The unit alone keeps its
network-less hardening (tests/test_systemd.py)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from test_systemd import UNIT, parse_unit, values, verifiable_copy

DROP_IN = UNIT.parent / "web.conf"
EXPOSURE_GOAL = 2.0


def test_the_drop_in_opens_only_inet_and_keeps_ip_addresses_fenced():
    drop = parse_unit(DROP_IN.read_text())
    families = values(drop, "Service", "RestrictAddressFamilies")
    assert families == ["", "AF_UNIX AF_INET AF_INET6"]  # reset, then exactly these
    assert values(drop, "Service", "PrivateNetwork") == ["no"]
    allowed = values(drop, "Service", "IPAddressAllow")[0].split()
    assert "localhost" in allowed and "0.0.0.0/0" not in allowed and "any" not in allowed
    assert not values(drop, "Service", "IPAddressDeny")  # the unit's "any" stays
    base = parse_unit(UNIT.read_text())
    assert values(base, "Service", "IPAddressDeny") == ["any"]
    assert values(base, "Service", "RestrictAddressFamilies") == ["AF_UNIX"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed")
def test_exposure_with_the_web_drop_in_is_at_most_2(tmp_path):
    unit = verifiable_copy(tmp_path)
    # A unit file may repeat a section: appending the drop-in's [Service] is how
    # systemd reads a drop-in after the unit.
    unit.write_text(unit.read_text() + "\n" + DROP_IN.read_text())
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager",
                             str(unit)], capture_output=True, text=True, timeout=60)
    if "--offline" in result.stderr and result.returncode != 0:
        pytest.skip(f"this systemd-analyze has no --offline: {result.stderr.strip()}")
    m = re.search(r"Overall exposure level for companion\.service: (\d+\.\d+)", result.stdout)
    assert m, result.stdout + result.stderr
    print(f"systemd-analyze security exposure with the web drop-in: {m.group(1)}")
    assert float(m.group(1)) <= EXPOSURE_GOAL, result.stdout


def test_install_adds_the_web_drop_in_only_when_the_config_turns_the_page_on(tmp_path):
    from test_systemd import run_install

    etc = tmp_path / "etc" / "companion"
    etc.mkdir(parents=True)
    drop_in = f"<generated> {tmp_path}/unit/companion.service.d/20-web.conf"
    (etc / "config.toml").write_text("[web]\nenabled = false\n")
    off = run_install("--dry-run", tmp_path=tmp_path, as_user=False)
    assert off.returncode == 0, off.stderr
    assert drop_in not in off.stdout
    (etc / "config.toml").write_text('[web]\nenabled = true\naddress = "0.0.0.0"\n')
    on = run_install("--dry-run", tmp_path=tmp_path, as_user=False)
    assert on.returncode == 0, on.stderr
    assert drop_in in on.stdout


def test_install_adds_the_network_drop_in_for_the_rooms_mqtt_broker_too(tmp_path):
    from test_systemd import run_install

    etc = tmp_path / "etc" / "companion"
    etc.mkdir(parents=True)
    drop_in = f"<generated> {tmp_path}/unit/companion.service.d/20-web.conf"
    (etc / "config.toml").write_text('[mqtt]\nenabled = true\nhost = "10.0.0.2"\n')
    on = run_install("--dry-run", tmp_path=tmp_path, as_user=False)
    assert on.returncode == 0, on.stderr
    assert drop_in in on.stdout
