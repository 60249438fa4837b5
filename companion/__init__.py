"""The companion box. Importing the package first checks the optional compiled engine
on disk (see :mod:`companion.games.compiled`), before anything can import it."""

from .games import compiled as _compiled

_compiled.guard()
