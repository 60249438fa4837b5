"""``@frozen``: an immutable plain-data class, what ``@dataclass(frozen=True)`` makes,
without compiling code for every class.

Python's ``dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as source text and compiles it when
the class is created: about 0.6 ms a class, and the box builds some thirty of them
(its config, its inputs, the journal's records) before it can show the game. Here
``dataclass`` only collects the fields (so ``dataclasses.fields``, ``replace``,
``asdict`` and ``is_dataclass`` work as before) and every class gets the same
methods, written once below, which read the field names kept on the class.

Instances behave as a frozen dataclass's: equal when of the same class with equal
fields (those with ``compare``), hashed by them, ``dataclasses.FrozenInstanceError``
on assigning or deleting a field, defaults and ``default_factory`` filling what is not
given, ``__post_init__`` run last, and the same repr. Refused when the class is made,
rather than half supported: ``ClassVar``, ``InitVar`` and keyword-only fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)


class _Spec(NamedTuple):
    init: tuple[tuple[str, Any, Any], ...]  # (name, default, default_factory), in order
    later: tuple[tuple[str, Any, Any], ...]  # init=False fields, set from their defaults
    names: frozenset[str]  # every field
    compared: Callable[[Any], tuple]  # the values __eq__ compares
    hashed: Callable[[Any], tuple]  # the values __hash__ hashes
    shown: tuple[str, ...]  # what __repr__ shows
    post_init: bool


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    if len(names) > 1:
        return attrgetter(*names)  # a tuple already
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    spec: _Spec = cls.__frozen__
    if len(args) > len(spec.init):
        raise TypeError(f"{cls.__qualname__}() takes {len(spec.init)} positional "
                        f"arguments but {len(args)} were given")
    put = object.__setattr__
    for (name, _, _), value in zip(spec.init, args):
        if name in kwargs:
            raise TypeError(f"{cls.__qualname__}() got multiple values for argument {name!r}")
        put(self, name, value)
    for name, default, factory in spec.init[len(args):]:
        if name in kwargs:
            put(self, name, kwargs.pop(name))
        elif default is not MISSING:
            put(self, name, default)
        elif factory is not MISSING:
            put(self, name, factory())
        else:
            raise TypeError(f"{cls.__qualname__}() missing required argument: {name!r}")
    if kwargs:
        raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument "
                        f"{next(iter(kwargs))!r}")
    for name, default, factory in spec.later:
        put(self, name, default if default is not MISSING else factory())
    if spec.post_init:
        self.__post_init__()


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__frozen__.shown)
    return f"{type(self).__qualname__}({shown})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    compared = self.__frozen__.compared
    return compared(self) == compared(other)


def _hash(self: Any) -> int:
    return hash(self.__frozen__.hashed(self))


def _setattr(self: Any, name: str, value: Any) -> None:
    # As dataclass's: a subclass that is not itself frozen may add attributes of its own.
    if "__frozen__" in type(self).__dict__ or name in self.__frozen__.names:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _delattr(self: Any, name: str) -> None:
    if "__frozen__" in type(self).__dict__ or name in self.__frozen__.names:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


_METHODS = {"__init__": _init, "__repr__": _repr, "__eq__": _eq, "__hash__": _hash,
            "__setattr__": _setattr, "__delattr__": _delattr}


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: T) -> T:
    """The class as an immutable dataclass (see the module's docstring)."""
    for name in _METHODS:
        if name in cls.__dict__:
            raise TypeError(f"{cls.__name__} defines {name}: @frozen writes it")
    cls = dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(cls)
    # fields() leaves out ClassVar and InitVar annotations, which dataclass also keeps.
    if len(fields) != len(cls.__dataclass_fields__) or any(f.kw_only is True for f in fields):
        raise TypeError(f"{cls.__name__}: @frozen takes no ClassVar, InitVar or "
                        "keyword-only fields")
    cls.__frozen__ = _Spec(
        init=tuple((f.name, f.default, f.default_factory) for f in fields if f.init),
        later=tuple((f.name, f.default, f.default_factory) for f in fields
                    if not f.init and (f.default is not MISSING
                                       or f.default_factory is not MISSING)),
        names=frozenset(f.name for f in fields),
        compared=_values(tuple(f.name for f in fields if f.compare)),
        hashed=_values(tuple(f.name for f in fields
                             if (f.compare if f.hash is None else f.hash))),
        shown=tuple(f.name for f in fields if f.repr),
        post_init=hasattr(cls, "__post_init__"))
    for name, method in _METHODS.items():
        setattr(cls, name, method)
    return cls
