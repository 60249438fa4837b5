"""``@frozen`` must make what ``@dataclass(frozen=True)`` makes: each behaviour is
checked on a pair of twin classes, one of each kind."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import ClassVar

import pytest

from companion.frozen import frozen


def _twins():
    def body(ns):
        ns["__annotations__"] = {"a": "int", "b": "str", "c": "tuple", "d": "int",
                                 "e": "int"}
        ns["b"] = "x"
        ns["c"] = field(default_factory=tuple)
        ns["d"] = field(default=4, compare=False, repr=False)
        ns["e"] = field(default=5, init=False)
        ns["__doc__"] = "A twin."
    out = []
    for make in (dataclass(frozen=True), frozen):
        import types

        out.append(make(types.new_class("Twin", (), exec_body=body)))
    return out


DC, FR = _twins()


@frozen
class Point:
    """A point."""

    x: int
    y: int = 0


@pytest.mark.parametrize("args, kwargs", [((1,), {}), ((1, "y"), {}), ((), {"a": 2}),
                                          ((1,), {"c": (1, 2), "d": 9})])
def test_made_alike(args, kwargs):
    one, two = DC(*args, **kwargs), FR(*args, **kwargs)
    assert dataclasses.asdict(one) == dataclasses.asdict(two)
    assert repr(one) == repr(two)
    assert hash(one) == hash(two)
    assert one.e == two.e == 5


@pytest.mark.parametrize("args, kwargs", [((), {}), ((1, "y", (), 3, 5), {}),
                                          ((1,), {"a": 2}), ((1,), {"e": 1}),
                                          ((1,), {"z": 1})])
def test_bad_calls_refused_alike(args, kwargs):
    for cls in (DC, FR):
        with pytest.raises(TypeError):
            cls(*args, **kwargs)


def test_equality_and_hash():
    assert FR(1) == FR(1, "x", (), d=7) and hash(FR(1)) == hash(FR(1, d=7))  # d: no compare
    assert FR(1) != FR(2) and FR(1) != DC(1) and FR(1) != (1, "x", ())
    assert {Point(1), Point(1, 0), Point(2)} == {Point(1), Point(2)}
    assert hash(Point(1, 2)) == hash((1, 2))  # as a frozen dataclass hashes its fields


def test_immutable():
    thing = FR(1)
    for change in (lambda: setattr(thing, "a", 2), lambda: setattr(thing, "new", 2),
                   lambda: delattr(thing, "a")):
        with pytest.raises(FrozenInstanceError):
            change()
    assert thing.a == 1


def test_dataclass_tools_and_copies():
    thing = FR(1, "y", ([1],))
    assert dataclasses.is_dataclass(thing)
    assert [f.name for f in dataclasses.fields(thing)] == ["a", "b", "c", "d", "e"]
    changed = dataclasses.replace(thing, b="z")
    assert (changed.a, changed.b, thing.b) == (1, "z", "y")
    assert copy.deepcopy(thing) == thing
    point = Point(3, 4)
    assert pickle.loads(pickle.dumps(point)) == point == copy.copy(point)
    assert FR.__match_args__ == DC.__match_args__ == ("a", "b", "c", "d")


def test_post_init_and_subclasses():
    @frozen
    class Checked:
        """Checked."""

        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    @frozen
    class More(Checked):
        """More."""

        m: str = "m"

    with pytest.raises(ValueError):
        More(-1)
    assert repr(More(1)) == "test_post_init_and_subclasses.<locals>.More(n=1, m='m')"
    assert More(1) != Checked(1) and More(1) == More(1, "m")


def test_refuses_what_it_would_get_wrong():
    with pytest.raises(TypeError):
        @frozen
        class Own:
            a: int

            def __eq__(self, other):
                return True
    with pytest.raises(TypeError):
        @frozen
        class Keyword:
            a: int = field(kw_only=True)
    with pytest.raises(TypeError):
        @frozen
        class Counted:
            a: int
            count: ClassVar[int] = 0
