#!/usr/bin/env bash
# Install, upgrade or remove the companion service on Raspberry Pi OS (Bookworm).
#
#   sudo systemd/install.sh              install, or upgrade in place (idempotent)
#   sudo systemd/install.sh --uninstall  remove it, keeping the games and the config
#   systemd/install.sh --dry-run         print what it would do (no root needed)
#   systemd/install.sh --help
#
# What it sets up (paths overridable through the environment, see --help):
#   user companion (system user, no login, home /var/lib/companion)
#   /opt/companion/venv            Python venv with this checkout installed
#   /etc/companion/config.toml     copied from examples/config.toml if absent
#   /etc/udev/rules.d/99-companion.rules
#   /etc/systemd/system/companion.service (enabled and started)
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi # started as `sh install.sh`
set -euo pipefail
umask 022 # the venv and the unit must be readable by the service user

PROG=install.sh
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${PREFIX:-/opt/companion}
SYSCONFDIR=${SYSCONFDIR:-/etc}
UNITDIR=${UNITDIR:-/etc/systemd/system}
UDEVDIR=${UDEVDIR:-/etc/udev/rules.d}
STATEDIR=${STATEDIR:-/var/lib/companion}
# The distribution's Python: the venv links to it, and a Python under /home or
# /root (pyenv, a hand build) would be hidden from the service by ProtectHome=.
if [[ -z ${PYTHON:-} ]]; then
    PYTHON=python3
    [[ -x /usr/bin/python3 ]] && PYTHON=/usr/bin/python3
fi

SERVICE=companion
SERVICE_USER=companion
DEVICE_GROUPS=(gpio i2c spi dialout)
VENV=$PREFIX/venv
STAMP=$PREFIX/.installed-source.sha256
CONFDIR=$SYSCONFDIR/companion
UNIT=$UNITDIR/$SERVICE.service
DROPIN_DIR=$UNITDIR/$SERVICE.service.d
GROUPS_DROPIN=$DROPIN_DIR/10-groups.conf
WEB_DROPIN=$DROPIN_DIR/20-web.conf
RULE=$UDEVDIR/99-companion.rules
POWEROFF_PATH=$UNITDIR/companion-poweroff.path
POWEROFF_SERVICE=$UNITDIR/companion-poweroff.service
BLANK_UNIT=$UNITDIR/companion-blank.service

usage() {
    cat <<EOF
Usage: sudo systemd/install.sh [--dry-run] [--no-start]
       sudo systemd/install.sh --uninstall [--purge] [--dry-run]

Installs the companion daemon from this checkout ($SRC) as a systemd
service. Safe to run again: it upgrades in place and changes only what differs.

Options:
  --dry-run     print every command that would change the system, run none
                (does not need root)
  --no-start    install, but do not enable or start the service
  --uninstall   remove the service, udev rule, venv and user; keep the games
                ($STATEDIR) and the config ($CONFDIR)
  --purge       with --uninstall: also delete the games and the config
  -h, --help    show this help

Environment (defaults in brackets; for tests and packaging):
  PREFIX [/opt/companion]  SYSCONFDIR [/etc]  UNITDIR [/etc/systemd/system]
  UDEVDIR [/etc/udev/rules.d]  STATEDIR [/var/lib/companion]
  PYTHON [/usr/bin/python3]
EOF
}

DRY_RUN=0
NO_START=0
UNINSTALL=0
PURGE=0
for arg in "$@"; do
    case $arg in
    -h | --help) usage; exit 0 ;;
    -n | --dry-run) DRY_RUN=1 ;;
    --no-start) NO_START=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --purge) PURGE=1 ;;
    *) echo "$PROG: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done
if ((PURGE && !UNINSTALL)); then
    echo "$PROG: --purge only goes with --uninstall (see --help)" >&2
    exit 2
fi

CHANGES=0 # commands that changed (or, in a dry run, would change) the system
FAILED=0

step() { printf '\n==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() {
    printf '    WARNING: %s\n' "$1" >&2
    shift
    for line in "$@"; do printf '             %s\n' "$line" >&2; done
}
die() {
    printf '%s: %s\n' "$PROG" "$1" >&2
    shift
    for line in "$@"; do printf '    %s\n' "$line" >&2; done
    exit 1
}

# Run a command that changes the system; in a dry run only print it.
run() {
    CHANGES=$((CHANGES + 1))
    if ((DRY_RUN)); then
        printf '    would run:'
    else
        printf '    +'
    fi
    printf ' %q' "$@"
    printf '\n'
    ((DRY_RUN)) || "$@"
}

# Install a file with a mode, only when its content or mode differ. Sets
# FILE_CHANGED=1 when it did (or would, in a dry run), else 0. Call it as a
# plain command (not in `if`/`||`), so that set -e still stops on a failure.
install_file() {
    local src=$1 dst=$2 mode=$3
    FILE_CHANGED=0
    if [[ -f $dst ]] && cmp -s "$src" "$dst" &&
        [[ $(stat -c %a "$dst") == "${mode#0}" ]]; then
        info "up to date: $dst"
        return 0
    fi
    FILE_CHANGED=1
    run install -D -m "$mode" "$src" "$dst"
}

# The same for generated content, read from stdin (redirect, don't pipe:
# a pipeline would run it in a subshell and lose FILE_CHANGED).
install_content() {
    local dst=$1 mode=$2 content tmp
    content=$(cat; printf x) # the x keeps trailing newlines
    FILE_CHANGED=0
    if [[ -f $dst ]] && [[ "$(cat "$dst"; printf x)" == "$content" ]] &&
        [[ $(stat -c %a "$dst") == "${mode#0}" ]]; then
        info "up to date: $dst"
        return 0
    fi
    FILE_CHANGED=1
    if ((DRY_RUN)); then
        CHANGES=$((CHANGES + 1))
        printf '    would run: install -D -m %s <generated> %q\n' "$mode" "$dst"
        return 0
    fi
    tmp=$(mktemp)
    printf '%s' "${content%x}" >"$tmp"
    run install -D -m "$mode" "$tmp" "$dst"
    rm -f "$tmp"
}

remove_path() {
    if [[ -e $1 || -L $1 ]]; then
        run rm -rf -- "$1"
    fi
}

# Package lists go stale on a freshly flashed card: refresh them once before the
# first apt-get install of this run.
APT_UPDATED=0
apt_update() {
    if ((!APT_UPDATED)); then
        APT_UPDATED=1
        run apt-get update || warn "apt-get update failed; trying with the lists as they are"
    fi
    return 0
}

user_exists() { getent passwd "$SERVICE_USER" >/dev/null; }
group_exists() { getent group "$1" >/dev/null; }
systemd_running() { [[ -d /run/systemd/system ]]; }
is_raspberry_pi() { grep -qs 'Raspberry Pi' /proc/device-tree/model; }

# This checkout without VCS, venvs, caches and build output, NUL-separated and
# sorted, relative to $SRC: files and symlinks alike. What goes into the package is
# decided by pyproject.toml when pip builds the wheel, never by this list.
source_files() {
    (cd "$SRC" && find . \( -name .git -o -name '.venv*' -o -name venv \
        -o -name __pycache__ -o -name '*.egg-info' -o -name build -o -name dist \
        -o -name .hypothesis -o -name .benchmarks -o -name '.*_cache' \) -prune \
        -o \( -type f -o -type l \) -print0 | LC_ALL=C sort -z)
}

source_digest() {
    (cd "$SRC" && source_files | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# The unit with this install's paths in ExecStart= (identical to
# systemd/companion.service with the default PREFIX and SYSCONFDIR).
render_unit() {
    sed -e "s#/opt/companion/venv/bin/companion#$VENV/bin/companion#" \
        -e "s#/etc/companion/config.toml#$CONFDIR/config.toml#" \
        "$SRC/systemd/${1:-companion.service}"
}

# ---------------------------------------------------------------- checks ----

check_system() {
    step "Checking the system"
    local problems=()
    [[ $(uname -s) == Linux ]] ||
        problems+=("This is not Linux: the service needs Raspberry Pi OS or another Linux with systemd.")
    if ! systemd_running; then
        problems+=("systemd is not running here (no /run/systemd/system): the service needs a systemd-booted OS such as Raspberry Pi OS.")
    fi
    if ! command -v "$PYTHON" >/dev/null; then
        problems+=("No $PYTHON found. Fix: sudo apt install python3 python3-venv")
    elif ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
        problems+=("$("$PYTHON" -V 2>&1) is too old: companion needs Python 3.11 or newer (Raspberry Pi OS Bookworm has 3.11).")
    elif ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
        problems+=("$PYTHON cannot create venvs. Fix: sudo apt install python3-venv")
    else
        local base
        base=$("$PYTHON" -c 'import os, sys; print(os.path.realpath(sys.base_prefix))')
        if [[ $base == /home/* || $base == /root || $base == /root/* ]]; then
            problems+=("$PYTHON lives in $base, which the service cannot see (ProtectHome=yes). Use the system one: PYTHON=/usr/bin/python3")
        fi
    fi
    [[ -f $SRC/pyproject.toml && -f $SRC/systemd/companion.service ]] ||
        problems+=("$SRC does not look like a companion checkout (no pyproject.toml or systemd/companion.service).")
    if ((${#problems[@]})); then
        if ((DRY_RUN)); then
            for p in "${problems[@]}"; do warn "$p (dry run: continuing)"; done
        else
            die "cannot install here:" "${problems[@]}"
        fi
    else
        info "Linux, systemd, $("$PYTHON" -V 2>&1) with venv: ok"
    fi
}

check_root() {
    if ((!DRY_RUN)) && [[ $(id -u) -ne 0 ]]; then
        die "must be run as root: sudo $0 $*" "(--dry-run shows what it would do without root)"
    fi
}

# ----------------------------------------------------------------- install --

setup_user() {
    step "Service user '$SERVICE_USER'"
    if user_exists; then
        info "exists: $(id "$SERVICE_USER")"
    else
        local nologin
        nologin=$(command -v nologin || echo /usr/sbin/nologin)
        local group_opt=(--user-group)
        group_exists "$SERVICE_USER" && group_opt=(--gid "$SERVICE_USER")
        run useradd --system "${group_opt[@]}" --home-dir "$STATEDIR" --no-create-home \
            --shell "$nologin" --comment "Entanglion companion daemon" "$SERVICE_USER"
    fi

    PRESENT_GROUPS=()
    MISSING_GROUPS=()
    local member_of=" "
    user_exists && member_of=" $(id -nG "$SERVICE_USER") "
    for g in "${DEVICE_GROUPS[@]}"; do
        if ! group_exists "$g"; then
            MISSING_GROUPS+=("$g")
        elif [[ $member_of == *" $g "* ]]; then
            PRESENT_GROUPS+=("$g")
            info "member of $g"
        else
            PRESENT_GROUPS+=("$g")
            run usermod --append --groups "$g" "$SERVICE_USER"
        fi
    done
    if ((${#MISSING_GROUPS[@]})); then
        warn "missing on this system: group ${MISSING_GROUPS[*]}; the service runs without." \
            "On Raspberry Pi OS these groups come with raspberrypi-sys-mods; elsewhere" \
            "check which groups own the devices: ls -l /dev/gpiochip* /dev/i2c-* /dev/spidev*"
    fi
}

setup_state_dir() {
    step "State directory $STATEDIR (games, tag registry)"
    # 0700: the games and the tags are the service user's only (the unit's
    # StateDirectoryMode= says the same; its UMask=0077 keeps the files 0600).
    if [[ ! -d $STATEDIR ]]; then
        run install -d -m 0700 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATEDIR"
        return
    fi
    if user_exists && [[ -n $(find "$STATEDIR" \( ! -user "$SERVICE_USER" -o ! -group "$SERVICE_USER" \) -print -quit) ]]; then
        # e.g. files created by `sudo companion ...` run as root, or left by a
        # previous install whose user had another uid
        run chown -R "$SERVICE_USER:$SERVICE_USER" "$STATEDIR"
    else
        info "exists, owned by $SERVICE_USER"
    fi
    if [[ $(stat -c %a "$STATEDIR") != 700 ]]; then
        run chmod 0700 "$STATEDIR" # e.g. made 0755 by an earlier version
    fi
    if [[ -n $(find "$STATEDIR" -mindepth 1 -perm /0077 -print -quit) ]]; then
        run chmod -R go-rwx "$STATEDIR"/
    fi
}

setup_venv() {
    step "Python environment $VENV"
    # --system-site-packages: Raspberry Pi OS ships lgpio (the GPIO backend, a C
    # extension) as the apt package python3-lgpio; the venv uses it as is
    # instead of compiling it (swig, liblgpio-dev). Everything else comes from
    # PyPI into the venv and takes precedence over apt's copies.
    local fresh=0 which='import sys; print(sys.base_prefix, *sys.version_info[:2])'
    if [[ -e $VENV ]] && [[ $("$VENV/bin/python" -c "$which" 2>/dev/null) != "$("$PYTHON" -c "$which")" ]]; then
        warn "the venv was made with another Python than $PYTHON (or an OS upgrade broke it): recreating it"
        remove_path "$VENV"
        fresh=1
    fi
    if [[ ! -x $VENV/bin/python ]] || ((fresh)); then
        run "$PYTHON" -m venv --system-site-packages "$VENV"
        fresh=1
    fi
    local digest
    digest=$(source_digest)
    if ((!fresh)) && [[ -x $VENV/bin/companion && -f $STAMP && $(<"$STAMP") == "$digest" ]]; then
        info "companion is up to date (same source as last install)"
        VENV_CHANGED=0
    else
        # pip builds a wheel from a copy (it would otherwise write build/ and
        # *.egg-info into this checkout as root) and the venv gets that wheel: the
        # files pyproject.toml packages, as any pip install would have them.
        # [firmware]: mpremote, so 'companion firmware install' works from this venv
        # with the firmware shipped inside the package.
        if ((DRY_RUN)); then
            info "(would copy $SRC to a temporary directory COPY and build the wheel there)"
            run "$VENV/bin/pip" wheel --disable-pip-version-check --no-input --no-deps --wheel-dir COPY/dist COPY
            run "$VENV/bin/pip" install --disable-pip-version-check --no-input --force-reinstall --no-deps "COPY/dist/companion-VERSION.whl"
            run "$VENV/bin/pip" install --disable-pip-version-check --no-input "COPY/dist/companion-VERSION.whl[firmware]"
            info "would record the source digest in $STAMP"
        else
            local tmp wheel
            tmp=$(mktemp -d)
            # shellcheck disable=SC2064 # expand $tmp now
            trap "rm -rf '$tmp'" EXIT
            mkdir "$tmp/src"
            (cd "$SRC" && source_files | tar --null --no-recursion -T - -cf -) | tar -C "$tmp/src" -xf -
            run "$VENV/bin/pip" wheel --disable-pip-version-check --no-input --no-deps --wheel-dir "$tmp/dist" "$tmp/src"
            wheel=$(echo "$tmp"/dist/companion-*.whl)
            # The same version as the one installed is a new build all the same.
            run "$VENV/bin/pip" install --disable-pip-version-check --no-input --force-reinstall --no-deps "$wheel"
            run "$VENV/bin/pip" install --disable-pip-version-check --no-input "${wheel}[firmware]"
            rm -rf "$tmp"
            trap - EXIT
            printf '%s\n' "$digest" >"$STAMP"
        fi
        VENV_CHANGED=1
    fi

    if ! is_raspberry_pi; then
        info "not a Raspberry Pi: skipping the lgpio check (the simulator needs no GPIO)"
    elif [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
        info "lgpio (GPIO backend) importable: ok"
    elif command -v apt-get >/dev/null && apt_update && apt-cache show python3-lgpio >/dev/null 2>&1; then
        run apt-get install -y python3-lgpio
        VENV_CHANGED=1
    else
        info "python3-lgpio is not packaged here: installing lgpio from PyPI"
        if ! run "$VENV/bin/pip" install --disable-pip-version-check --no-input lgpio; then
            warn "building lgpio failed; it needs: sudo apt install swig liblgpio-dev python3-dev"
            FAILED=1
        fi
        VENV_CHANGED=1
    fi
}

# The compiled engine: the hint's search gets about 1.5x the playouts per second.
# Built where a C compiler and Python's headers are present, else pure Python (the
# same game, slower hints). compile_engine builds one module at a time and the
# largest one leaner on a board with under 1 GB (a Zero 2 W): gcc stays under 300 MB.
# The Cython bound is pyproject.toml's [compiled] extra.
setup_compiled() {
    step "Compiled engine"
    local check='import sys; from companion.games import compiled
import companion.games.entanglion.engine
sys.exit(not compiled.loaded_compiled())'
    if ! command -v cc >/dev/null; then
        info "no C compiler: the engine runs as pure Python (for the compiled build:"
        info "sudo apt install build-essential python3-dev, then run install.sh again)"
        return 0
    fi
    if ! "$PYTHON" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        info "no Python headers: the engine runs as pure Python (for the compiled build:"
        info "sudo apt install python3-dev, then run install.sh again)"
        return 0
    fi
    if ((!VENV_CHANGED)) && [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c "$check" 2>/dev/null; then
        info "the compiled engine is built and current: ok"
        return 0
    fi
    info "building it (a few minutes on a Zero 2 W)"
    if run "$VENV/bin/pip" install --disable-pip-version-check --no-input 'cython>=3.0' &&
        run "$VENV/bin/python" -m companion.compile_engine; then
        VENV_CHANGED=1
    else
        warn "building the compiled engine failed: the engine runs as pure Python" \
            "(companion doctor says which build runs; see the messages above)"
    fi
}

# An SPI OLED: luma drives D/C and reset through the RPi.GPIO API, which rpi-lgpio
# provides on lgpio (Raspberry Pi OS's own RPi.GPIO does not work on a Pi 5), and
# talks to /dev/spidev* through spidev. Installed into the venv only when needed.
setup_spi_oled() {
    step "SPI OLED support"
    local bus=unknown
    if [[ -x $VENV/bin/python && -f $CONFDIR/config.toml ]]; then
        bus=$("$VENV/bin/python" -c 'import sys; from companion import config
print(config.load(sys.argv[1]).oled.bus)' "$CONFDIR/config.toml" 2>/dev/null) || bus=unknown
    fi
    if [[ $bus != spi ]]; then
        info "the OLED is not on SPI ($bus): nothing to add"
        return 0
    fi
    if "$VENV/bin/python" -c 'import importlib.metadata as m; m.version("rpi-lgpio"); m.version("spidev")' 2>/dev/null; then
        info "rpi-lgpio and spidev: ok"
        return 0
    fi
    if run "$VENV/bin/pip" install --disable-pip-version-check --no-input 'rpi-lgpio>=0.6' 'spidev>=3.6'; then
        VENV_CHANGED=1
    else
        warn "installing rpi-lgpio and spidev failed (the SPI OLED will not open); see pip's message"
        FAILED=1
    fi
}

# The OLED's bus at 400 kHz: a full frame takes 23 ms instead of 93 ms at the Pi's
# default 100 kHz. A baud rate the maker already wrote is left alone.
setup_i2c_speed() {
    step "I2C bus speed (the OLED)"
    local conf=${BOOTCONFIG:-}
    if [[ -z $conf ]]; then
        for candidate in /boot/firmware/config.txt /boot/config.txt; do
            [[ -f $candidate ]] && { conf=$candidate; break; }
        done
    fi
    if [[ -z $conf || ! -f $conf ]]; then
        info "no Raspberry Pi config.txt here: skipped"
    elif grep -Eq '^[[:space:]]*dtparam=i2c_arm_baudrate=' "$conf"; then
        info "already set in $conf: $(grep -E '^[[:space:]]*dtparam=i2c_arm_baudrate=' "$conf" | tail -n1)"
    else
        # [all]: appended lines would otherwise belong to the file's last filter section.
        info "adding to $conf, under [all]: dtparam=i2c_arm_baudrate=400000"
        run sh -c "printf '\n[all]\n# companion: the OLED at 400 kHz\ndtparam=i2c_arm_baudrate=400000\n' >> \"\$1\"" sh "$conf"
        info "400 kHz from the next reboot"
    fi
}

setup_config() {
    step "Configuration $CONFDIR/config.toml"
    if [[ -e $CONFDIR/config.toml ]]; then
        info "exists: left as it is (compare with $SRC/examples/config.toml after upgrades)"
    elif [[ -f $SRC/examples/config.toml ]]; then
        install_file "$SRC/examples/config.toml" "$CONFDIR/config.toml" 0644
    else
        warn "no examples/config.toml in this checkout: writing an empty config (all defaults)"
        install_content "$CONFDIR/config.toml" 0644 \
            <<<'# companion configuration: every key is optional (built-in defaults).'
    fi
}

setup_udev() {
    step "udev rule $RULE (Pico -> /dev/companion-io)"
    install_file "$SRC/systemd/99-companion.rules" "$RULE" 0644
    if ((FILE_CHANGED)); then
        udev_reload
    fi
}

# Apply the rule now where udev runs; a chroot or an image build has no udev
# daemon to talk to, and the rule applies from the next boot all the same.
udev_reload() {
    if ! command -v udevadm >/dev/null; then
        info "udevadm not found: skipping the reload (the rule applies from the next boot)"
    elif ! run udevadm control --reload ||
        ! run udevadm trigger --subsystem-match=tty --action=change; then
        warn "udev did not reload (no udev running here, e.g. a chroot or an image build);" \
            "the rule applies from the next boot"
    fi
}

setup_unit() {
    step "systemd unit $UNIT"
    install_content "$UNIT" 0644 < <(render_unit)
    UNIT_CHANGED=$FILE_CHANGED
    # The menu's "Switch the box off": the service writes /run/companion/poweroff,
    # this root-owned path unit powers off. Nothing else is granted.
    install_file "$SRC/systemd/companion-poweroff.path" "$POWEROFF_PATH" 0644
    ((FILE_CHANGED == 0)) || UNIT_CHANGED=1
    install_file "$SRC/systemd/companion-poweroff.service" "$POWEROFF_SERVICE" 0644
    ((FILE_CHANGED == 0)) || UNIT_CHANGED=1
    # The OLEDs go dark at shutdown (its ExecStop), not just "Paused".
    # Only the device groups this system has (a missing one stops a unit from starting).
    install_content "$BLANK_UNIT" 0644 < <(render_unit companion-blank.service |
        sed -e "s/^SupplementaryGroups=.*/SupplementaryGroups=${PRESENT_GROUPS[*]:-}/")
    ((FILE_CHANGED == 0)) || UNIT_CHANGED=1
    # A missing SupplementaryGroups= group stops the service from starting
    # (status 216/GROUP), so list only the groups this system has.
    if ((${#MISSING_GROUPS[@]})); then
        install_content "$GROUPS_DROPIN" 0644 <<EOF
# Written by install.sh: no group ${MISSING_GROUPS[*]} on this system.
[Service]
SupplementaryGroups=
SupplementaryGroups=${PRESENT_GROUPS[*]}
EOF
        ((FILE_CHANGED == 0)) || UNIT_CHANGED=1
    elif [[ -e $GROUPS_DROPIN ]]; then
        remove_path "$GROUPS_DROPIN"
        UNIT_CHANGED=1
    fi
    # The table's web page and the room's MQTT broker need the network
    # (systemd/web.conf); without either the unit keeps its network-less hardening.
    if web_enabled; then
        install_content "$WEB_DROPIN" 0644 < "$SRC/systemd/web.conf"
        ((FILE_CHANGED == 0)) || UNIT_CHANGED=1
    elif [[ -e $WEB_DROPIN ]]; then
        remove_path "$WEB_DROPIN"
        UNIT_CHANGED=1
    fi
    if ((UNIT_CHANGED)); then
        run systemctl daemon-reload
    fi
}

# Whether the config turns the web page or MQTT on (read with the system Python's
# tomllib; an unreadable or broken file counts as off: the daemon reports it at start).
web_enabled() {
    [[ -r $CONFDIR/config.toml ]] || return 1
    "$PYTHON" - "$CONFDIR/config.toml" 2>/dev/null <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as fh:
    data = tomllib.load(fh)
on = [t for t in ("web", "mqtt") if isinstance(data.get(t), dict) and data[t].get("enabled") is True]
sys.exit(0 if on else 1)
PY
}

start_service() {
    step "Service"
    local ok=1 helper
    # The power-off path and the shutdown blanking serve the service whenever it
    # runs, also when a person starts it later: enabled even with --no-start.
    for helper in companion-poweroff.path companion-blank.service; do
        if ! systemctl is-enabled --quiet "$helper" 2>/dev/null; then
            run systemctl enable --now "$helper" || ok=0
        fi
    done
    if ((NO_START)); then
        info "--no-start: not enabling or starting it. Later: sudo systemctl enable --now $SERVICE"
        if systemctl is-active --quiet "$SERVICE" 2>/dev/null && ((VENV_CHANGED || UNIT_CHANGED)); then
            info "it is running the previous version: sudo systemctl restart $SERVICE"
        fi
    else
        start_main_service || ok=0
    fi
    if ((!ok)); then
        warn "the service did not start. See: journalctl -u $SERVICE -n 50 --no-pager"
        FAILED=1
    fi
}

start_main_service() {
    local enabled=0 active=0 ok=1
    systemctl is-enabled --quiet "$SERVICE" 2>/dev/null && enabled=1
    systemctl is-active --quiet "$SERVICE" 2>/dev/null && active=1
    systemctl is-failed --quiet "$SERVICE" 2>/dev/null && run systemctl reset-failed "$SERVICE"
    if ((!enabled)); then
        run systemctl enable --now "$SERVICE" || ok=0
    elif ((!active)); then
        run systemctl start "$SERVICE" || ok=0
    elif ((VENV_CHANGED || UNIT_CHANGED)); then
        run systemctl restart "$SERVICE" || ok=0
    else
        info "enabled and running"
    fi
    ((ok))
}

check_i2c() {
    step "I2C (the OLED)"
    if command -v raspi-config >/dev/null; then
        if [[ $(raspi-config nonint get_i2c 2>/dev/null) == 0 ]]; then
            info "enabled"
        else
            warn "I2C is off. Enable it, then reboot:"
            info "  sudo raspi-config nonint do_i2c 0 && sudo reboot"
        fi
    elif compgen -G '/dev/i2c-*' >/dev/null; then
        info "I2C device present: $(echo /dev/i2c-*)"
    else
        info "no raspi-config and no /dev/i2c-*: on a Raspberry Pi put 'dtparam=i2c_arm=on'"
        info "in /boot/firmware/config.txt and 'i2c-dev' in /etc/modules, then reboot"
    fi
}

do_install() {
    check_root "$@"
    check_system
    setup_user
    setup_state_dir
    setup_venv
    setup_compiled
    setup_config
    setup_spi_oled
    setup_udev
    setup_unit
    start_service
    check_i2c
    setup_i2c_speed

    step "Done"
    if ((CHANGES == 0)); then
        info "Nothing changed: companion was already installed and up to date."
    elif ((DRY_RUN)); then
        info "Dry run: $CHANGES command(s) would have been run; nothing was changed."
    else
        info "$CHANGES command(s) run."
    fi
    cat <<EOF

    Logs:    journalctl -u $SERVICE -f
    Status:  systemctl status $SERVICE
    Next steps (the devices have one owner at a time, so stop the service first;
    the commands run as $SERVICE_USER in its private folder $STATEDIR):
      sudo systemctl stop $SERVICE
      sudo -u $SERVICE_USER env -C $STATEDIR GPIOZERO_PIN_FACTORY=lgpio $VENV/bin/companion doctor
      sudo -u $SERVICE_USER env -C $STATEDIR GPIOZERO_PIN_FACTORY=lgpio $VENV/bin/companion enroll
      sudo systemctl start $SERVICE
    (doctor checks I2C/OLED, serial, groups and pins; enroll teaches it your card tags)
    Upgrade: git pull, then run this script again.
EOF
    ((FAILED == 0)) || exit 1
}

# --------------------------------------------------------------- uninstall --

do_uninstall() {
    check_root "$@"
    step "Removing the service"
    if [[ -e $UNIT ]] && systemd_running; then
        if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null ||
            systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
            run systemctl disable --now "$SERVICE"
        fi
    fi
    local helper
    for helper in companion-poweroff.path companion-blank.service; do
        if [[ -e $UNITDIR/$helper ]] && systemd_running &&
            systemctl is-enabled --quiet "$helper" 2>/dev/null; then
            # --now on companion-blank blanks the OLED, as the service is gone too
            run systemctl disable --now "$helper"
        fi
    done
    local had_unit=0
    [[ -e $UNIT || -e $DROPIN_DIR || -e $POWEROFF_PATH || -e $BLANK_UNIT ]] && had_unit=1
    remove_path "$UNIT"
    remove_path "$POWEROFF_PATH"
    remove_path "$POWEROFF_SERVICE"
    remove_path "$BLANK_UNIT"
    # Only the drop-ins this script writes: the maker's own (`systemctl edit
    # companion` -> override.conf) stay, for a later install to pick up again.
    remove_path "$GROUPS_DROPIN"
    remove_path "$WEB_DROPIN"
    if [[ -d $DROPIN_DIR ]]; then
        local yours
        yours=$(find "$DROPIN_DIR" -mindepth 1 -maxdepth 1 ! -name "${GROUPS_DROPIN##*/}" \
            ! -name "${WEB_DROPIN##*/}" -printf '%f ')
        if [[ -z $yours ]]; then
            run rmdir "$DROPIN_DIR"
        else
            info "kept your drop-ins in $DROPIN_DIR: $yours"
        fi
    fi
    if ((had_unit)) && systemd_running; then
        run systemctl daemon-reload
        systemctl reset-failed "$SERVICE" 2>/dev/null || true
    fi

    step "Removing the udev rule"
    if [[ -e $RULE ]]; then
        remove_path "$RULE"
        udev_reload
    fi

    step "Removing the venv $VENV"
    remove_path "$VENV"
    remove_path "$STAMP"
    if [[ -d $PREFIX ]] && [[ -z $(ls -A "$PREFIX") ]]; then
        run rmdir "$PREFIX"
    fi

    step "Removing the user '$SERVICE_USER'"
    if user_exists; then
        run userdel "$SERVICE_USER"
    fi
    if group_exists "$SERVICE_USER" && ((!DRY_RUN)); then
        run groupdel "$SERVICE_USER"
    fi

    step "Games and configuration"
    if ((PURGE)); then
        remove_path "$STATEDIR"
        remove_path "$CONFDIR"
    else
        for d in "$STATEDIR" "$CONFDIR"; do
            [[ -e $d ]] && info "kept $d"
        done
        info "(--uninstall --purge deletes them)"
    fi

    step "Done"
    if ((CHANGES == 0)); then
        info "Nothing to remove: companion was not installed."
    elif ((DRY_RUN)); then
        info "Dry run: $CHANGES command(s) would have been run; nothing was changed."
    else
        info "companion removed ($CHANGES command(s) run)."
    fi
}

if ((UNINSTALL)); then
    do_uninstall "$@"
else
    do_install "$@"
fi
