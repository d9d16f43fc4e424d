"""Tracing implicit casts: what ``with promo_ns.trace() as t:`` records."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from promo_ns._dtypes import DType, widens
from promo_ns.policies import Role

__all__ = ["Cast", "Trace"]


@dataclass(frozen=True)
class Cast:
    """One op whose array operands promo_ns converted to another dtype."""

    op: str  #: the op (``"add"``, ``"where"``, ``"setitem"``, ...)
    operands: tuple[str, ...]  #: each operand's dtype and role: ``"int8 (n-d array)"``, ``"Python float"``
    result: DType  #: the result dtype
    compute: DType  #: the dtype the operands were converted to
    converted: tuple[str, ...]  #: the conversions: ``"int8 -> float32"``
    bytes: int  #: the converted operands' size in ``compute``: what materializing the casts would take
    widened: bool  #: the result is none of the inputs' dtypes and wider than each of them

    def __str__(self) -> str:
        wide = ", widened past every input" if self.widened else ""
        return (
            f"{self.op}({', '.join(self.operands)}) -> {self.result}: "
            f"{', '.join(self.converted)} ({self.bytes} bytes{wide})"
        )


@dataclass
class Trace:
    """The implicit casts made inside one ``promo_ns.trace()`` block, in order."""

    records: list[Cast] = field(default_factory=list)
    #: An op noted before its kernel runs, recorded by :meth:`commit` once it has run.
    _pending: tuple[Any, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def __iter__(self) -> Iterator[Cast]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def record(
        self, op: str, operands: Sequence[tuple[DType | None, Role, Any]], result: DType, compute: DType
    ) -> None:
        """Note ``op`` on ``operands`` (dtype or None, role, native array or scalar) if it converted one."""
        arrays = [(d, x) for d, _, x in operands if d is not None and d is not compute]
        if not arrays:
            return
        inputs = [d for d, _, _ in operands if d is not None]
        self.records.append(
            Cast(
                op,
                tuple(str(r) if d is None else f"{d} ({r})" for d, r, _ in operands),
                result,
                compute,
                tuple(f"{d} -> {compute}" for d, _ in arrays),
                sum(math.prod(x.shape) * compute.itemsize for _, x in arrays),
                widens(result, inputs),
            )
        )

    def pending(
        self, op: str, operands: Sequence[tuple[DType | None, Role, Any]], result: DType, compute: DType
    ) -> None:
        """Note ``op`` as :meth:`record` takes it, to be recorded by :meth:`commit` if it succeeds."""
        self._pending = (op, operands, result, compute)

    def commit(self, op: str) -> None:
        """Record the op :meth:`pending` noted, which has now run, if it is ``op``; drop a failed one."""
        pending, self._pending = self._pending, None
        if pending is not None and pending[0] == op:
            self.record(*pending)

    def summary(self) -> str:
        """The casts grouped by op, operands and result: count and bytes, most bytes first."""
        groups: Counter[str] = Counter()
        nbytes: Counter[str] = Counter()
        for c in self.records:
            key = f"{c.op}({', '.join(c.operands)}) -> {c.result}" + (" [widened]" if c.widened else "")
            groups[key] += 1
            nbytes[key] += c.bytes
        lines = [f"{len(self.records)} implicit casts, {sum(nbytes.values())} bytes converted"]
        lines += [f"{groups[k]:>6}x  {nbytes[k]:>12} bytes  {k}" for k, _ in nbytes.most_common()]
        return "\n".join(lines)
