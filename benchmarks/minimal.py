"""The floor of any Python-level array wrapper: the ``minimal`` peer of the benchmarks.

One slotted object holding the native array; an operator or function is one
Python call that unwraps its operands, runs the backend's own op and wraps the
result in one new object.  It decides nothing (no policy, no checks), so
promo_ns's time over its time is what the policy costs beyond wrapping.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

__all__ = ["Minimal", "MinimalNamespace"]


class Minimal:
    """A native array in a slot; operators run the native operator and wrap the result."""

    __slots__ = ("x",)

    def __init__(self, x: Any) -> None:
        self.x = x

    def __add__(self, other: Minimal) -> Minimal:
        return _new(self.x + other.x)

    def __lt__(self, other: Minimal) -> Minimal:
        return _new(self.x < other.x)

    def __iadd__(self, other: Minimal) -> Minimal:
        self.x += other.x
        return self

    def __setitem__(self, key: Minimal, value: float) -> None:
        self.x[key.x] = value


def _new(x: Any) -> Minimal:
    """A wrapper around ``x`` without calling ``__init__`` (what promo_ns's wrapper does too)."""
    out = Minimal.__new__(Minimal)
    out.x = x
    return out


class MinimalNamespace:
    """The functions the benchmarks call, each one call into ``module`` between unwrap and wrap."""

    def __init__(self, module: ModuleType) -> None:
        self._m = module

    def asarray(self, x: Any) -> Minimal:
        """``x``, wrapped."""
        return _new(x)

    def add(self, a: Minimal, b: Minimal) -> Minimal:
        """The native ``add``."""
        return _new(self._m.add(a.x, b.x))

    def log(self, a: Minimal) -> Minimal:
        """The native ``log``."""
        return _new(self._m.log(a.x))

    def matmul(self, a: Minimal, b: Minimal) -> Minimal:
        """The native ``matmul``."""
        return _new(self._m.matmul(a.x, b.x))

    def result_type(self, a: Minimal, b: Minimal) -> Any:
        """The native ``result_type`` (a dtype: nothing to wrap)."""
        return self._m.result_type(a.x, b.x)

    def mean(self, a: Minimal) -> Minimal:
        """The native ``mean``."""
        return _new(self._m.mean(a.x))

    def sum(self, a: Minimal) -> Minimal:
        """The native ``sum``."""
        return _new(self._m.sum(a.x))

    def where(self, c: Minimal, a: Minimal, b: Minimal) -> Minimal:
        """The native ``where``."""
        return _new(self._m.where(c.x, a.x, b.x))

    def clip(self, a: Minimal, lo: float, hi: float) -> Minimal:
        """The native ``clip``."""
        return _new(self._m.clip(a.x, lo, hi))

    def concat(self, arrays: list[Minimal]) -> Minimal:
        """The native ``concat`` (``concatenate`` where the module has no ``concat``)."""
        concat = getattr(self._m, "concat", None) or self._m.concatenate
        return _new(concat([a.x for a in arrays]))

    def astype(self, a: Minimal, dtype: Any) -> Minimal:
        """The native array's ``astype`` (torch's ``to``)."""
        x = a.x
        return _new(x.astype(dtype) if hasattr(x, "astype") else x.to(dtype))
