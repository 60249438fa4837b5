"""A real Mosquitto on a free loopback port for the tests: users in a password file,
an ACL file (each table writes only its own topics and reads its room's commands),
optionally a TLS listener with a throwaway CA made by the openssl command. The room
bench (bench/room_scale.py) starts it with its own users, ACL and settings."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = "/usr/sbin/mosquitto"

# user -> password; tables are named after their room and table
USERS = {"t1": "pw-t1", "t2": "pw-t2", "t3": "pw-t3", "teacher": "pw-teacher",
         "rogue": "pw-rogue", "watcher": "pw-watcher"}
ACL = """\
user teacher
topic write companion/r1/command
topic read companion/r1/#

user watcher
topic read companion/#
topic read homeassistant/#

user rogue
topic read companion/#

user t1
topic write companion/r1/t1/#
topic write homeassistant/sensor/companion_r1_t1/#
topic read companion/r1/command

user t2
topic write companion/r1/t2/#
topic read companion/r1/command

user t3
topic write companion/r2/t3/#
topic read companion/r2/command
"""


def missing() -> str | None:
    if not os.access(MOSQUITTO, os.X_OK) or shutil.which("mosquitto_passwd") is None:
        return "Debian's mosquitto is not installed (apt-get install mosquitto)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, folder: Path, tls: bool = False, users: dict[str, str] | None = None,
                 acl: str = ACL, settings: tuple[str, ...] = ()):
        self.folder = folder
        self.port = free_port()
        self.tls_port = free_port() if tls else None
        self.passwords = folder / "passwd"
        self.proc: subprocess.Popen | None = None
        self.write_passwords(USERS if users is None else users)
        (folder / "acl").write_text(acl)
        lines = ["per_listener_settings false", "allow_anonymous false",
                 f"password_file {self.passwords}", f"acl_file {folder / 'acl'}",
                 "persistence false", "log_dest stderr", "log_type error",
                 "log_type warning", *settings, f"listener {self.port} 127.0.0.1"]
        if os.geteuid() == 0:
            lines.insert(0, "user root")  # as root it would drop to "mosquitto" and not read these
        if tls:
            self.ca = make_certificates(folder)
            lines += [f"listener {self.tls_port} 127.0.0.1", f"cafile {self.ca}",
                      f"certfile {folder / 'server.crt'}", f"keyfile {folder / 'server.key'}"]
        (folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")

    def write_passwords(self, users: dict[str, str]) -> None:
        # In plain text, then hashed in place by one run (a thousand tables: one process)
        self.passwords.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
        os.chmod(self.passwords, 0o600)
        subprocess.run(["mosquitto_passwd", "-U", str(self.passwords)], check=True,
                       capture_output=True)

    def start(self) -> Broker:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.proc.stderr.read().decode())
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen")

    def reload(self) -> None:
        """Mosquitto reads its password and ACL files again on SIGHUP."""
        self.proc.send_signal(1)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def make_certificates(folder: Path) -> Path:
    """A throwaway CA and a server certificate for 127.0.0.1, by the openssl command."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt",
        "-days", "2", "-subj", "/CN=companion test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
        "-subj", "/CN=127.0.0.1")
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "ext.cnf")
    return folder / "ca.crt"
