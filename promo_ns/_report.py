"""What the plan layer reports to the ``trace`` or ``compare`` block in force, if any.

A binary op is recorded once it has run (:func:`_record`) or refused
(:func:`_record_refusal`); a function's cast is noted (:func:`traced`) and
committed when the function has run (:func:`ran`); a one-array function's
decision goes to a compare (:func:`report_decided`).  Outside such blocks
each report is one context-variable lookup.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from promo_ns._context import Scope, current, innermost
from promo_ns._dtypes import DTYPES, DType, canonical
from promo_ns._engine.operands import Operand
from promo_ns._operands import _KEYS, Space
from promo_ns.backends import Plan
from promo_ns.policies import Role

if TYPE_CHECKING:
    from promo_ns._trace import Trace

__all__ = [
    "numpy_scalar",
    "numpy_scalar_at",
    "ran",
    "report_decided",
    "report_default",
    "report_resolved",
    "report_uncast",
    "stored_into",
    "storing_into",
    "traced",
]

_noted = threading.local()  #: per thread, the binary op's operand that is a NumPy scalar: (index, scalar)


@contextmanager
def numpy_scalar_at(index: int, scalar: Any) -> Iterator[None]:
    """Within, this thread's binary op reports operand ``index`` as NumPy scalar ``scalar``.

    The op took it as a 0-d array or as a Python scalar, as its policy takes
    NumPy scalars; a compare decides it as each compared policy takes it.
    """
    outer = getattr(_noted, "operand", None)
    _noted.operand = (index, scalar)
    try:
        yield
    finally:
        _noted.operand = outer


#: The dtype of the array the op being reported stores its result into (torch's ``out=``, ``x.sqrt_()``),
#: and whether that is the op's own operand (in place); None where the op makes a new array.
_STORED_INTO: ContextVar[tuple[DType, bool] | None] = ContextVar("promo_ns_stored_into", default=None)


@contextmanager
def storing_into(dtype: DType, *, in_place: bool) -> Iterator[None]:
    """Within, the ops reported store their results in an array of ``dtype``, where the policy casts them.

    A compare then decides, per policy, what that array holds or the
    refusal, as the op's caller stores it: in the op's operand (``x.sqrt_()``)
    or in another array (torch's ``out=``).
    """
    token = _STORED_INTO.set((dtype, in_place))
    try:
        yield
    finally:
        _STORED_INTO.reset(token)


def stored_into() -> tuple[DType, bool] | None:
    """The dtype and place :func:`storing_into` set for the ops reported now, if any."""
    return _STORED_INTO.get()


def numpy_scalar(scalar: Any) -> tuple[DType, Role, Any]:
    """The reported operand of NumPy scalar ``scalar`` (whichever way the op took it)."""
    return (canonical(scalar.dtype), Role.NP_SCALAR, scalar)


def ran(op: str) -> None:
    """Report to the trace, if any, that ``op`` (noted with :func:`traced`) has run."""
    scope = innermost() and current()
    if scope is not None and scope.tracer is not None:
        scope.tracer.commit(op)


def report_decided(op: str, x: Any, result: DType | None) -> None:
    """Report one-array function ``op`` of array ``x``, which gave ``result`` (None: refused), to a compare.

    A trace records casts only: it hears of these through :func:`traced` where one is made.
    """
    scope = innermost() and current()
    if scope is None or scope.tracer is None or not scope.tracer.every_op:
        return
    operands = [(*_KEYS[x._k], x._x)]
    if result is None:
        scope.tracer.refused(op, operands)
    else:
        scope.tracer.record(op, operands, result, result)


def report_resolved(op: str, operands: Sequence[Operand], result: DType | None, error: str = "") -> None:
    """Report ``op``'s decision over engine ``operands``, with no kernel run (``result_type``), to a compare.

    ``result`` None: refused with ``error`` (the exception class's name).
    """
    scope = innermost() and current()
    if scope is None or scope.tracer is None or not scope.tracer.every_op:
        return
    reported = [(o.dtype, o.role, o.value) for o in operands]
    if result is None:
        scope.tracer.refused(op, reported, error=error)
    else:
        scope.tracer.record(op, reported, result, result)


def report_default(op: str, kind: str, result: DType) -> None:
    """Report creation function ``op``, which took the default ``kind`` dtype ``result``, to a compare."""
    scope = innermost() and current()
    if scope is not None and scope.tracer is not None:
        scope.tracer.defaulted(op, kind, result)


def report_kept(op: str, xs: Sequence[Any], *, refused: bool) -> None:
    """Report ``op`` of arrays ``xs``, whose results keep each one's dtype (``meshgrid``), to a compare.

    ``refused``: the policy refused the dtypes together.  A trace of casts hears nothing of it.
    """
    scope = innermost() and current()
    if scope is None or scope.tracer is None or not scope.tracer.every_op:
        return
    operands = [(*_KEYS[x._k], x._x) for x in xs]
    if refused:
        scope.tracer.refused(op, operands)
    else:
        scope.tracer.kept(op, operands)


def report_uncast(op: str, x: Any, result: DType) -> None:
    """Note for a compare that ``op`` of array ``x`` gives ``result`` with no cast; :func:`ran` commits it.

    A trace of casts hears nothing of it.
    """
    scope = innermost() and current()
    if scope is not None and scope.tracer is not None and scope.tracer.every_op:
        scope.tracer.pending(op, [(*_KEYS[x._k], x._x)], result, DTYPES[x._k >> 1])


def traced(ns: Space, op: str, x: Any, result: DType, compute: DType) -> None:
    """Note, inside a trace block, that ``op`` converts array ``x`` to ``compute`` for a ``result``.

    The cast is recorded once :func:`ran` (or :func:`finish`) reports that the op has run.
    """
    scope = innermost() and current()
    if scope is not None and scope.tracer is not None:
        scope.tracer.pending(op, [(*_KEYS[x._k], x._x)], result, compute)


def _record(
    scope: Scope, op: str, plan: Plan, a: tuple[int, Any], b: tuple[int, Any], *, inplace: bool = False
) -> None:
    """Report binary ``op`` on cell ``(a, b)`` (code, native operand), which has run, to the block's trace."""
    tracer = _tracer(scope) if scope.closed else scope.tracer
    if tracer is None:
        return
    compute = plan.compute
    first, second = _KEYS[a[0]][0], _KEYS[b[0]][0]
    converts = (first is not None and first is not compute) or (second is not None and second is not compute)
    if converts or tracer.every_op:  # a trace of casts hears only of ops that convert an array
        tracer.record(op, _binary_operands(a, b), DTYPES[plan.result >> 1], compute, inplace=inplace)


def _record_refusal(
    scope: Scope,
    op: str,
    a: tuple[int, Any],
    b: tuple[int, Any],
    *,
    inplace: bool,
    error: str = "PromotionError",
) -> None:
    """Report binary ``op`` on cell ``(a, b)``, refused with ``error``, to the block's trace."""
    tracer = _tracer(scope)
    if tracer is not None:
        tracer.refused(op, _binary_operands(a, b), inplace=inplace, error=error)


def _binary_operands(a: tuple[int, Any], b: tuple[int, Any]) -> list[tuple[DType | None, Role, Any]]:
    """The reported operands of a binary op on ``a`` and ``b`` (code, native operand)."""
    operands = [(*_KEYS[code], x) for code, x in (a, b)]
    noted = getattr(_noted, "operand", None)
    if noted is not None:
        index, scalar = noted
        operands[index] = numpy_scalar(scalar)
    return operands


def _tracer(scope: Scope) -> Trace | None:
    """The trace of ``scope``, or of the block now in force where ``scope`` has closed; None without one."""
    if scope.closed:
        found = current()
        if found is None:
            return None
        scope = found
    return scope.tracer
