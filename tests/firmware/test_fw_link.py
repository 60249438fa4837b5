"""The device side of the link on its own: numbering, HELLO?, rate-limited errors."""

from link import DeviceLink

from companion.hardware import protocol as host_protocol


def make(**kwargs):
    out = bytearray()
    link = DeviceLink(out.extend, "9.9", 2, 3, **kwargs)
    return link, out


def lines(out):
    return [host_protocol.decode(line) for line in bytes(out).splitlines()]


def test_sequence_numbers_wrap():
    link, out = make()
    link.seq = 65535
    link.hello()
    link.tag(1, "DEADBEEF", True)
    assert [m.seq for m in lines(out)] == [65535, 0]


def test_hello_question_restarts_the_hosts_numbering():
    applied = []
    link, out = make(on_bri=applied.append)
    link.feed(host_protocol.encode(7, "BRI", "10"))
    link.feed(host_protocol.encode(7, "BRI", "20"))  # duplicate: ACKed, not applied
    link.feed(host_protocol.encode(0, "HELLO?"))  # the host reconnected
    link.feed(host_protocol.encode(1, "BRI", "30"))
    assert applied == [10, 30]
    assert [(m.kind,) + m.fields for m in lines(out) if m.kind != "HELLO"] == [
        ("ACK", "7"), ("ACK", "7"), ("ACK", "0"), ("ACK", "1")]


def test_an_older_seq_without_hello_is_a_restart_and_applied():
    applied = []
    link, _ = make(on_bri=applied.append)
    for seq, level in ((500, 1), (501, 2), (3, 3)):
        link.feed(host_protocol.encode(seq, "BRI", str(level)))
    assert applied == [1, 2, 3]


def test_callback_bug_still_gets_an_answer_and_a_report():
    def broken(pixels):
        raise KeyError("oops")

    link, out = make(on_led=broken)
    link.feed(host_protocol.encode(2, "LED", "00" * 9), now=100)
    link.feed(host_protocol.encode(3, "PING"), now=100)
    got = [(m.kind,) + m.fields for m in lines(out)]
    assert got[0] == ("NAK", "2", "BUSY")
    assert got[1][:3] == ("ERR", "INTERNAL", "KeyError:")
    assert got[2] == ("ACK", "3")


def test_internal_errors_are_summarised():
    link, out = make()
    for now in (0, 10, 20, 999, 1000):
        link.internal(ValueError("x"), now)
    got = [" ".join(m.fields) for m in lines(out)]
    assert got == ["INTERNAL ValueError: x",
                   "INTERNAL ValueError: x (and 3 more since the last report)"]


def test_long_error_text_is_cut_and_cleaned():
    link, out = make()
    link.error("INTERNAL", "Traceback\n" + "y" * 500)
    (msg,) = lines(out)
    assert msg.fields[1] == "Traceback"
    assert len(" ".join(msg.fields[1:])) <= host_protocol.ERR_TEXT_MAX
