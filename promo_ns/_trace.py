"""Tracing implicit casts: what ``with promo_ns.trace() as t:`` records."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from threading import get_ident
from typing import Any, ClassVar

from promo_ns._dtypes import DType, widens
from promo_ns.policies import Role

__all__ = ["Cast", "Reported", "Trace"]

#: The operands of an op as the plan layer reports them: dtype (None for a Python scalar), role,
#: and the native array or the scalar itself.
Reported = Sequence[tuple[DType | None, Role, Any]]


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
    """The implicit casts made inside one ``promo_ns.trace()`` block, in order.

    Threads may share a trace (each running in a copy of the block's context,
    ``contextvars.copy_context().run``): every op of every thread is recorded.
    A record holds dtypes, roles and sizes, never the operands themselves.
    The trace of a block inside another's records into both (``enclosing``).

    Under ``jax.jit`` (and ``vmap``, ``grad``, ...) promo_ns runs while JAX
    traces the function, so a cast is recorded once per tracing (each
    compilation), not once per call of the compiled function.
    """

    #: Whether the plan layer reports one-array functions that convert nothing too (a comparison's).
    every_op: ClassVar[bool] = False
    records: list[Cast] = field(default_factory=list)
    #: The trace of the block around this one, which gets every record too.
    enclosing: Trace | None = field(default=None, repr=False, compare=False)
    #: Per thread, the op :meth:`pending` noted before its kernel ran, and its record if it casts.
    _pending: dict[int, tuple[str, Cast | None]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __iter__(self) -> Iterator[Cast]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def record(
        self, op: str, operands: Reported, result: DType, compute: DType, *, inplace: bool = False
    ) -> None:
        """Note ``op`` on ``operands`` (dtype or None, role, native array or scalar) if it converted one.

        ``inplace``: the op was ``x op= y`` (recorded as ``op`` all the same).
        """
        cast = _cast(op, operands, result, compute)
        if cast is not None:
            self.add((cast,))

    def pending(self, op: str, operands: Reported, result: DType, compute: DType) -> None:
        """Note ``op`` as :meth:`record` takes it, to be recorded by :meth:`commit` if it succeeds.

        What is kept until then is the record, not the operands: an op that
        fails leaves nothing alive.
        """
        self._pending[get_ident()] = (op, _cast(op, operands, result, compute))

    def commit(self, op: str) -> None:
        """Record the op this thread last noted with :meth:`pending`, if it is ``op``, which has now run.

        The note is dropped whatever it is: that of an op that failed before
        reaching here is never recorded.
        """
        op_noted, cast = self._pending.pop(get_ident(), ("", None))
        if cast is not None and op_noted == op:
            self.add((cast,))

    def refused(
        self, op: str, operands: Reported, *, inplace: bool = False, error: str = "PromotionError"
    ) -> None:
        """Note ``op`` on ``operands``, refused with ``error``: a trace keeps only what ran."""

    def kept(self, op: str, operands: Reported) -> None:
        """Note ``op`` on ``operands``, whose results keep their dtypes: a trace of casts has none."""

    def defaulted(self, op: str, kind: str, result: DType) -> None:
        """Note creation function ``op`` taking the default ``kind`` dtype: a trace hands it on."""
        if self.enclosing is not None:
            self.enclosing.defaulted(op, kind, result)

    def add(self, casts: Sequence[Cast]) -> None:
        """Append ``casts``, records of ops that have run, here and to every enclosing trace."""
        trace: Trace | None = self
        while trace is not None:
            trace.records.extend(casts)
            trace = trace.enclosing

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


def _cast(op: str, operands: Reported, result: DType, compute: DType) -> Cast | None:
    """The record of ``op`` on ``operands`` (dtype or None, role, native array or scalar); None: no cast."""
    arrays = [
        (d, x) for d, r, x in operands if d is not None and d is not compute and r is not Role.NP_SCALAR
    ]
    if not arrays:
        return None
    inputs = [d for d, r, _ in operands if d is not None and r is not Role.NP_SCALAR]
    return Cast(
        op,
        tuple(str(r) if d is None else f"{d} ({r})" for d, r, _ in operands),
        result,
        compute,
        tuple(f"{d} -> {compute}" for d, _ in arrays),
        sum(math.prod(x.shape) * compute.itemsize for _, x in arrays),
        widens(result, inputs),
    )
