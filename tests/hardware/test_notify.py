"""sd_notify over a real AF_UNIX datagram socket, as systemd provides it."""

import os
import socket
import threading
import time

import pytest

from companion.notify import Notifier


@pytest.fixture
def systemd(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_ready_status_watchdog_stopping(systemd):
    path, sock = systemd
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "15000000"})
    assert n.enabled and n.watchdog_interval == 7.5
    n.ready("Main menu")
    assert sock.recv(4096) == b"READY=1\nSTATUS=Main menu"
    n.status("Game #3: turn 2")
    assert sock.recv(4096) == b"STATUS=Game #3: turn 2"
    n.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    n.stopping("Pausing")
    assert sock.recv(4096) == b"STOPPING=1\nSTATUS=Pausing"
    n.close()
    n.status("ignored after close")


def test_abstract_namespace_address(tmp_path):
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        Notifier({"NOTIFY_SOCKET": "@" + name}).ready("x")
        assert sock.recv(100).startswith(b"READY=1")
    finally:
        sock.close()


def test_outside_systemd_everything_is_a_no_op():
    n = Notifier({})
    assert not n.enabled and n.watchdog_interval is None
    n.ready("x"), n.watchdog(), n.stopping(), n.close()


def test_a_vanished_socket_is_ignored(tmp_path):
    n = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    n.ready("x")  # no exception: systemd going away must not end the game


def test_watchdog_meant_for_another_process_is_not_ours():
    n = Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"})
    assert n.watchdog_interval is None
    assert Notifier({"WATCHDOG_USEC": "1000000",
                     "WATCHDOG_PID": str(os.getpid())}).watchdog_interval == 0.5


def test_a_long_start_asks_for_more_time_until_it_is_done(systemd):
    path, sock = systemd
    n = Notifier({"NOTIFY_SOCKET": path})
    stop = n.keep_starting(every=0.05, extend=30)
    assert sock.recv(4096) == b"EXTEND_TIMEOUT_USEC=30000000"
    assert sock.recv(4096) == b"EXTEND_TIMEOUT_USEC=30000000"  # again, while it lasts
    stop()
    time.sleep(0.1)
    sock.setblocking(False)
    try:
        sock.recv(4096)  # at most one more was already on its way
    except BlockingIOError:
        pass
    sock.settimeout(0.3)
    with pytest.raises(socket.timeout):
        sock.recv(4096)
    n.close()
    Notifier({}).keep_starting()()  # outside systemd: nothing, and stopping is safe


def test_a_listener_that_stops_reading_never_blocks_the_box(systemd):
    """The kernel queues only a few datagrams for an unread socket; then sendto would
    block. The game loop sends its watchdog pings from its own thread."""
    path, sock = systemd
    n = Notifier({"NOTIFY_SOCKET": path})
    done = threading.Event()

    def flood():
        for _ in range(200):
            n.watchdog()
        done.set()

    threading.Thread(target=flood, daemon=True).start()
    assert done.wait(5), "sendto blocked on a full notify socket"
    assert sock.recv(4096) == b"WATCHDOG=1"  # the first ones did arrive
    n.close()
