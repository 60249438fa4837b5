"""Turns a pad's flickering reads into clean ON/OFF edges.

An MFRC522 polling a resting card does not see it on every poll (a card at the
edge of the field, a poll that lands mid-exchange), so "not read this time" is not
"gone". :class:`Presence` reports a card ON the first time it is read, and OFF
only once it has gone unread for ``gone_after_ms``. A different card read while
one is present means a swap: OFF for the old one, ON for the new one.

Pure: the caller passes the time (milliseconds, any monotonic count), so the
tests drive it with a made-up clock.
"""


class Presence:
    """The debounced state of one pad: :attr:`uid` (a hex str) or None."""

    def __init__(self, gone_after_ms=500):
        self.gone_after_ms = gone_after_ms
        self.uid = None
        self.last_seen = 0

    def update(self, uid, now):
        """Feed one poll's result (hex UID or None) at time ``now`` (ms).

        Returns the edges to report, in order: a list of ``(uid, on)`` pairs,
        usually empty.
        """
        if uid is None:
            if self.uid is not None and now - self.last_seen >= self.gone_after_ms:
                gone, self.uid = self.uid, None
                return [(gone, False)]
            return []
        if uid == self.uid:
            self.last_seen = now
            return []
        edges = []
        if self.uid is not None:
            edges.append((self.uid, False))  # swapped without a gap long enough to see
        self.uid = uid
        self.last_seen = now
        edges.append((uid, True))
        return edges
