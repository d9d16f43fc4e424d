"""The plan layer: operands in, a plan out, for operators and functions alike.

Every binary operator (reflected and in place), every binary function of the
namespace and setitem is one :func:`operator`: one list index into the plans
of ``(policy, backend, op)`` (:mod:`promo_ns._binary_plans` compiles a cell on
its first use) gives the result dtype, the dtype the
kernel computes in, and the backend's native function where its own promotion
already gives those.  Functions over several operands (``where``, ``clip``,
``concat``, ``matmul``) go through :func:`promoted` where their compiled plans
(:mod:`promo_ns._plan_functions`, :mod:`promo_ns._plan_products`) do not
take the operands, functions of one array
whose result dtype the policy decides (``log``, ``mean``, ``abs``) through
:func:`one_array`.  Device checks and Python scalar checks happen here once.
This is the only caller of :mod:`promo_ns._engine` on the hot path.

Around it: :mod:`promo_ns._operands` packs operands into operand codes,
:mod:`promo_ns._convert` converts between native and promo_ns arrays and
raises the errors for what cannot cross, :mod:`promo_ns._report` tells a
trace or compare block what ran, and :mod:`promo_ns._float_scalars` holds the
policy's rules for floating arrays with Python scalars.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from inspect import Parameter, Signature
from typing import Any

from promo_ns._binary_plans import plan_of, plans, refusals
from promo_ns._context import Scope, current, innermost
from promo_ns._convert import (
    _adopted,
    _kernel_error,
    _no_kernel,
    _other_operand,
    _unsupported,
    cast,
    defers_to,
    device_error,
    is_numpy_scalar,
    mixed_backends,
    operand_of,
    promoted_operand,
    reflected_name,
)
from promo_ns._dtypes import DTYPES, DType, bool_, float32, uint8
from promo_ns._engine.decisions import compute_cell, family_name
from promo_ns._engine.functions import COMPLEX_LIKE, complex_like, one_array_plan
from promo_ns._engine.operands import PromotionError, Refusal
from promo_ns._engine.resolution import resolve, resolve_many
from promo_ns._engine.scalars import int_value
from promo_ns._float_scalars import fixed_scalar
from promo_ns._operands import _NA, _NK, _SCALAR_CODE, Space, _engine_operand, code_of
from promo_ns._report import (
    _record,
    _record_refusal,
    numpy_scalar,
    numpy_scalar_at,
    ran,
    report_decided,
    report_uncast,
    traced,
)
from promo_ns.backends import Plan
from promo_ns.policies import Role

__all__ = [
    "INPLACE",
    "NORMAL",
    "PREPARE",
    "REFLECTED",
    "binary_function",
    "compared",
    "finish",
    "kernel",
    "kernel_failure",
    "meet",
    "one_array",
    "operator",
    "plan_of",
    "plans",
    "prepared_done",
    "promoted",
]


#: binary modes: ``a op b``, ``b op a``, ``a op= b``, and the checks of ``a op= b`` alone.
NORMAL, REFLECTED, INPLACE, PREPARE = 0, 1, 2, 3


# --- the binary path: operators and binary functions -----------------------------------------


_new = object.__new__

#: The plan field of the native function a mode's fast path runs on two n-d arrays.
_FAST_FIELD = {NORMAL: Plan._fields.index("arrays_kernel"), INPLACE: Plan._fields.index("inplace_kernel")}


@cache
def operator(op: str, mode: int, *, defer: bool = False, function: bool = False) -> Callable[[Any, Any], Any]:
    """The binary path: ``a op b`` (or ``b op a``, ``a op= b``) under the active policy: :func:`_binary`."""
    return _binary(op, mode, defer=defer, function=function)


def _binary(  # noqa: PLR0915
    op: str,
    mode: int,
    *,
    defer: bool = False,
    function: bool = False,
    bound: Space | None = None,
    outside: Callable[[Any, Any], Any] | None = None,
) -> Callable[[Any, Any], Any]:
    """The binary path: ``a op b`` (or ``b op a``, ``a op= b``) under the active policy.

    Every binary operator and function is one of these.  One list index in the
    plans compiled for ``(policy, backend, op)`` gives the cell; a ``direct``
    cell calls the backend's native function on the operands as they are.  Two
    n-d arrays of the namespace outside blocks whose cell has a native
    function for them (``Plan.arrays_kernel``, ``Plan.inplace_kernel`` for
    ``a op= b``) run it with no other step; anything else, or an error there,
    takes the full path, which says what went wrong.  In
    ``PREPARE`` mode it checks ``a op= b`` and returns ``(plan, x, y)``; the
    caller reports the op to a trace with :func:`prepared_done` once it has run.
    Inside a ``trace`` block an op is recorded once it has succeeded.  With
    ``defer`` (Python's forward and in-place operators) an operand of a type
    promo_ns does not know that implements the reflected operator gets
    ``NotImplemented`` (see :func:`defers_to`).  ``function``: the function
    spelling's cells (see :func:`plans`).  ``bound``: the namespace whose
    function ``xp.op(x1, x2)`` this is; operands that are not both arrays of
    that namespace (or an array of it and a scalar) go to ``outside``.
    """
    table = f"{op}()" if function else op
    reflected = mode == REFLECTED
    inplace = mode >= INPLACE
    other_side = reflected_name(op) if defer else ""
    fast = _FAST_FIELD.get(mode)
    plans_bound, array_type = (None, None) if bound is None else (bound._plans, bound.Array)

    def binary(self: Any, other: Any, /) -> Any:  # noqa: PLR0915
        if bound is not None and (
            self.__class__ is not array_type
            or self._p is not plans_bound
            or (other.__class__ is array_type and other._p is not plans_bound)
        ):
            return outside(self, other)  # type: ignore[misc]  # set with bound
        cls = self.__class__
        p = self._p
        looked_up = None  #: the cell's plan, found outside blocks by the fast path's test
        if fast is not None and other.__class__ is cls and other._p is p and innermost() is None:
            try:
                cells = p[table]
            except KeyError:
                cells = _table(self._ns, op, function)
            plan = looked_up = cells[self._k * _NK + other._k]
            run = None if plan is None else plan[fast]
            if run is not None:  # n-d arrays and a native function for them: it needs no check
                try:
                    out = run(self._x, other._x)
                except Exception:  # nothing was written: the full path says what failed
                    pass
                else:
                    if inplace:
                        return self
                    result = _new(cls)
                    result._x = out
                    result._ns = self._ns
                    result._p = p
                    result._k = plan[0]
                    return result
        ns = self._ns
        x = self._x
        ka = self._k
        if other.__class__ is cls:
            if other._ns is not ns:
                meet(self, other, op, mode)
            y = other._x
            kb = other._k
        else:
            kb = _SCALAR_CODE.get(other.__class__)
            if kb is None:
                if other_side and defers_to(other, other_side):
                    return NotImplemented
                taken = _other_operand(ns, other, op)
                with _noting(other, 0 if reflected else 1):
                    return binary(self, taken)
            y = other
        if reflected:
            ka, kb, x, y = kb, ka, y, x
        scope = None if looked_up is not None else innermost()
        if scope is None or (scope.policy is None and not scope.closed):  # the namespace's policy decides
            plan = looked_up or (p.get(table) or _table(ns, op, function))[ka * _NK + kb]
            own = True
        else:
            plan = _scoped(ns, op, scope, (ka, x), (kb, y), function=function)
            own = False
        if plan is None and own:  # not compiled yet, or refused
            plan = plan_of(ns.policy, ns._backend, op, ka * _NK + kb, function=function)
        if plan is None or (inplace and not plan.inplace_ok):
            if scope is not None:
                _record_refusal(scope, op, (ka, x), (kb, y), inplace=inplace)
            raise _refuse(self, other, op, mode)
        r, _, _, _, fix, _, kernel, _, _, _, _, _, _ = plan
        x_given, y_given = x, y  # for a block: its other policies check a Python scalar as given
        if fix:
            try:
                x, y, plan = fixed_scalar(op, ns, plan, x, y, index=0 if reflected else 1)
            except (PromotionError, OverflowError, ValueError) as e:
                if scope is not None:
                    _record_refusal(scope, op, (ka, x), (kb, y), inplace=inplace, error=type(e).__name__)
                raise
            kernel = plan.kernel
        elif (ka | kb) & 1 and ka < _NA and kb < _NA and not ns._backend.same_device(x, y):
            raise device_error(x, y)
        if mode == PREPARE:
            return plan, x, y
        try:
            if inplace:
                updated = ns._backend.inplace(op, x, y, plan)
                if updated is not None:  # an immutable backend's new array (JAX): the wrapper rebinds
                    self._x = updated
                if scope is not None:
                    _record(scope, op, plan, (ka, x_given), (kb, y_given), inplace=True)
                return self
            if kernel is not None:
                out = kernel(x, y)
                if r & 1:
                    out = ns._backend.to_array(out)
            else:
                out = ns._backend.binary(op, x, y, plan)
        except Exception as e:  # the backend's words on devices or shapes: ours instead
            error = _kernel_error(ns, op, e, tuple(a for a in (x, y) if hasattr(a, "dtype")))
            if error is None:
                raise
            raise error from e
        if kernel is None and ns._backend.dtype(out) is not DTYPES[r >> 1]:
            raise _no_kernel(ns, op, plan, out)
        result = _new(cls)
        result._x = out
        result._ns = ns
        result._p = p
        result._k = r
        if scope is not None:
            _record(scope, op, plan, (ka, x_given), (kb, y_given))
        return result

    return binary


def meet(a: Any, other: Any, op: str, mode: int) -> None:
    """Check that arrays ``a`` and ``other`` of two namespaces may meet in operator ``op``.

    Raises
    ------
    TypeError
        They are arrays of two backends.
    PromotionError
        They follow two policies and no ``promo_ns.policy(...)`` block decides.
    """
    mine, theirs = a._ns, other._ns
    if theirs._backend is not mine._backend:
        raise mixed_backends(mine._backend, theirs._backend)
    if theirs.policy is mine.policy:
        return
    scope = current()
    if scope is not None and scope.policy is not None:
        return
    left, right = (theirs, mine) if mode == REFLECTED else (mine, theirs)
    if op == "setitem":
        call = "x1[key] = x2"
        fix = "make x2 an array of x1's namespace first: x1[key] = xp.asarray(x2) (zero-copy)"
    else:
        call = f"{op}(x1, x2)"
        fix = (
            f"call the function of the namespace whose policy should decide, xp.{op}(x1, x2) (a "
            "namespace's functions follow its policy), or move one array to the other's namespace "
            "with xp.asarray(x) (zero-copy)"
        )
    raise PromotionError(
        f"{call} of arrays of two policies: x1 follows policy {left.policy.name!r} ({left.__name__}), "
        f"x2 policy {right.policy.name!r} ({right.__name__}); an operator does not choose between them. "
        f"Fix: {fix}; or run it in a promo_ns.policy(...) block, e.g. promo_ns.policy({left.policy.name!r})."
    )


#: The standard's signature of a binary function: ``add(x1, x2, /)``.
_BINARY_SIGNATURE = Signature([Parameter(name, Parameter.POSITIONAL_ONLY) for name in ("x1", "x2")])


def binary_function(op: str, ns: Space) -> Callable[[Any, Any], Any]:
    """The namespace function of binary elementwise ``op``: ``xp.add(x1, x2)``.

    It follows the policy of ``ns`` (or the active block's), whatever
    namespace its arrays belong to, and returns an array of ``ns``.
    """
    reflected = operator(op, REFLECTED, function=True)
    array_type = ns.Array

    def outside(x1: Any, x2: Any) -> Any:  # not two arrays of ns, nor one and a scalar
        if x1.__class__ is array_type:  # an array of another namespace among them: now of ns
            return f(_adopted(ns, x1), _adopted(ns, x2))
        if x2.__class__ is array_type:
            return reflected(_adopted(ns, x2), x1)
        from promo_ns.backends import backend_of

        for x in (x1, x2):
            if backend_of(x) is not None:
                raise _unsupported(x, op)
        raise TypeError(
            f"{op}() needs at least one promo_ns array, got {type(x1).__name__} and {type(x2).__name__}; "
            "make one with xp.asarray(...) first."
        )

    f = _binary(op, NORMAL, bound=ns, outside=outside)
    f.__name__ = f.__qualname__ = op
    f.__signature__ = _BINARY_SIGNATURE  # type: ignore[attr-defined]
    f.__doc__ = f"``{op}(x1, x2)`` of the Array API standard, with the result dtype of the active policy."
    return f


# --- functions of several operands, and of one array -----------------------------------------


def compared(ns: Space, op: str, x1: Any, x2: Any) -> tuple[Any, Any]:
    """The operands of a comparison-like function (``isin``, ``searchsorted``) in the dtype it compares in.

    The policy decides as for ``op``'s family (comparisons promote, then
    compare); a Python scalar becomes a 0-d array on the array's device.
    """
    xs = [promoted_operand(ns, x, op) for x in (x1, x2)]
    a, b = (operand_of(ns, x) for x in xs)
    policy = ns.policy_now()
    resolve(policy, op, a, b)  # raises the policy's refusal, or OverflowError for an int out of range
    cell = compute_cell(policy, family_name(policy, op), (a.dtype, a.role, b.dtype, b.role))
    assert not isinstance(cell, Refusal)  # resolve() raised for a refused cell
    compute = cell[1]
    for i, o in enumerate((a, b)):
        if o.role is Role.INT and (value := int_value(policy, op, (a, b), i)).__class__ is float:
            compute, xs[i] = float32, value  # compared exactly: an int beyond the dtype as an infinity
    arrays = [x._x for x in xs if x.__class__ is ns.Array]
    if len(arrays) == 2 and not ns._backend.same_device(*arrays):
        raise device_error(*arrays)
    first, second = (cast(ns, x, compute, arrays[0]) for x in xs)
    return first, second


def promoted(
    ns: Space, op: str, xs: Sequence[Any], like: Any = None, *, optional: bool = False
) -> tuple[DType, list[Any]]:
    """The policy's dtype for ``op`` over ``xs`` and the native operands cast to it.

    NumPy scalars take part as in operators, as the policy takes them.
    ``like`` is a native array the operands must share a device with (``where``'s
    condition); Python scalars become 0-d arrays on its device, else on the first array's.
    With ``optional``, ``None`` is an absent operand (``clip``'s missing bound)
    that stays None, as does a Python int the policy drops (a ``clip`` bound
    beyond the dtype on the side that clips nothing).
    """
    given = xs
    xs = [None if x is None and optional else promoted_operand(ns, x, op) for x in xs]
    operands = [None if x is None else operand_of(ns, x) for x in xs]
    policy = ns.policy_now()
    scope = innermost() and current()
    tracer = None if scope is None else scope.tracer
    reported = (
        []
        if tracer is None
        else [
            numpy_scalar(g)
            if is_numpy_scalar(g)
            else (o.dtype, o.role, x._x if x.__class__ is ns.Array else x)
            for o, x, g in zip(operands, xs, given, strict=True)
            if o is not None
        ]
    )
    try:
        dtype = resolve_many(policy, op, operands)
        xs = [
            int_value(policy, op, operands, i) if o is not None and o.role is Role.INT else x
            for i, (o, x) in enumerate(zip(operands, xs, strict=True))
        ]
    except (PromotionError, OverflowError) as e:
        if tracer is not None and tracer.every_op:  # a compare hears of the refusal too
            tracer.refused(op, reported, error=type(e).__name__)
        raise
    arrays = [x._x for x in xs if x.__class__ is ns.Array]
    if like is not None:
        arrays.insert(0, like)
    for other in arrays[1:]:
        if not ns._backend.same_device(arrays[0], other):
            raise device_error(arrays[0], other)
    if tracer is not None:  # recorded by wrap_result once the kernel has run
        tracer.pending(op, reported, dtype, dtype)
    try:
        return dtype, [None if x is None else cast(ns, x, dtype, arrays[0] if arrays else like) for x in xs]
    except ValueError as e:  # a NaN or infinite Python scalar into an integer dtype
        raise ValueError(
            f"{op}(): {e}; give a finite value, or cast the arrays to a floating dtype first"
        ) from None


def one_array(ns: Space, op: str, x: Any, *, like: str | None = None) -> tuple[DType, Any]:
    """The policy's result dtype of one-array function ``op`` (``log``, ``mean``) of ``x``, and native ``x``.

    ``like``: the function whose grid cell decides (``linalg.eigvals`` computes like
    ``linalg.inv``); a compare or trace hears of ``op``, with its complex results.

    The native operand is cast to the dtype the function computes in (see
    :func:`~promo_ns._engine.functions.one_array_plan`; no cast where that is its own dtype); :func:`finish`
    brings the backend's result to the policy's dtype.  Outside ``policy``
    blocks the plan is one lookup in the namespace's cache.
    """
    if x.__class__ is not ns.Array or x._ns._backend is not ns._backend:
        raise (
            _unsupported(x, op, ns, scalars=False)
            if x.__class__ is not ns.Array
            else mixed_backends(ns._backend, x._ns._backend)
        )
    k = x._k
    scope = innermost() and current()
    policy = ns.policy if scope is None or scope.policy is None else scope.policy
    own = policy is ns.policy  #: the namespace's policy decides: its plans are cached
    cell = like or op
    plan = ns._plans.get((cell, k)) if own else None
    if plan is None:
        try:
            plan = one_array_plan(policy, cell, DTYPES[k >> 1])
        except PromotionError:
            if scope is not None:
                report_decided(op, x, None)
            raise
        if own:
            ns._plans[(cell, k)] = plan
    result, compute = plan
    dtype = DTYPES[k >> 1]
    if scope is None:
        return result, x._x if compute is dtype else ns._backend.astype(x._x, compute)
    shown = complex_like(result) if op in COMPLEX_LIKE else result  # what the function gives
    if compute is dtype or (dtype is bool_ and compute is uint8):  # no cast, or a bool kernel's stand-in
        report_uncast(op, x, shown)
    else:
        traced(ns, op, x, shown, compute)
    return result, x._x if compute is dtype else ns._backend.astype(x._x, compute)


def finish(ns: Space, out: Any, result: DType, op: str = "") -> Any:
    """A one-array function's native result as a promo_ns array of the policy's ``result`` dtype.

    ``op``: the function, whose cast :func:`one_array` noted for a trace: it has run.
    """
    backend = ns._backend
    out = backend.to_array(out)
    if backend.dtype(out) is not result:
        out = backend.astype(out, result)
    if op:
        ran(op)
    a = _new(ns.Array)
    a._x = out
    a._ns = ns
    a._p = ns._plans
    a._k = code_of(result, out.ndim == 0)
    return a


# --- plan lookups in blocks, reports, kernels with promo_ns's errors -------------------------


def _table(ns: Space, op: str, function: bool = False) -> list[Plan | None]:
    """The plans of ``op`` (its ``function`` spelling's) under the namespace's policy, cached there."""
    found = ns._plans[f"{op}()" if function else op] = plans(ns.policy, ns._backend, op, function=function)
    return found


def _scoped(
    ns: Space, op: str, scope: Scope, a: tuple[int, Any], b: tuple[int, Any], *, function: bool = False
) -> Plan | None:
    """The plan of cell ``(a, b)`` (code, native operand) inside a policy or trace block.

    Under the namespace's own policy (a trace block, a block of that policy)
    it is the namespace's cached table's, as outside blocks.
    """
    around: Scope | None = current() if scope.closed else scope  # a block ended in another context
    policy = ns.policy if around is None or around.policy is None else around.policy
    code = a[0] * _NK + b[0]
    if policy is ns.policy:
        plan = (ns._plans.get(f"{op}()" if function else op) or _table(ns, op, function))[code]
        if plan is not None:
            return plan
    return plan_of(policy, ns._backend, op, code, function=function)


def prepared_done(op: str, a: Any, other: Any, plan: Plan, y: Any) -> None:
    """Report ``a op= other``, checked in ``PREPARE`` mode (``y``: ``other`` as it ran), once it has run."""
    if innermost() is None:
        return
    scope = current()
    if scope is None or scope.tracer is None:
        return
    kb = other._k if other.__class__ is a.__class__ else _SCALAR_CODE.get(other.__class__)
    given = other if kb is not None and kb >= _NA else y  # a Python scalar as given: other policies check it
    if kb is None:  # a NumPy scalar, taken as a 0-d array or a Python scalar
        taken = _other_operand(a._ns, other, op)
        kb = taken._k if taken.__class__ is a.__class__ else _SCALAR_CODE[taken.__class__]
    with _noting(other, 1):
        _record(scope, op, plan, (a._k, a._x), (kb, given), inplace=True)


def _noting(other: Any, index: int) -> AbstractContextManager[Any]:
    """The note reporting ``other`` as NumPy scalar operand ``index``, where it is one inside a block."""
    if innermost() is None or not is_numpy_scalar(other):
        return nullcontext()
    return numpy_scalar_at(index, other)


def kernel(ns: Space, op: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, the backend's kernel of ``op`` on native operands, with promo_ns's errors.

    Raises
    ------
    ValueError
        The arrays' shapes do not fit (torch's RuntimeError, NumPy's ValueError), or their devices differ.
    """
    try:
        return fn(*args, **kwargs)
    except Exception as e:
        raise kernel_failure(ns, op, e, args)  # noqa: B904 - its cause is set


def kernel_failure(ns: Space, op: str, error: Exception, args: Sequence[Any]) -> Exception:
    """What to raise for the ``error`` of ``op``'s kernel on ``args``: promo_ns's error, or ``error``.

    See :func:`kernel`.
    """
    arrays = [a for arg in args for a in (arg if isinstance(arg, (list, tuple)) else (arg,))]
    translated = _kernel_error(ns, op, error, [a for a in arrays if isinstance(a, ns._backend.array_type)])
    if translated is None:
        return error
    translated.__cause__ = error
    translated.__suppress_context__ = True
    return translated


def _refuse(a: Any, other: Any, op: str, mode: int) -> PromotionError:
    """The engine's error for a refused cell, with the operands in the op's order.

    The message of a cell of two arrays is kept with the policy's compiled
    plans (:func:`~promo_ns._binary_plans.refusals`) the first time; a Python
    scalar's names its value, and is made each time.
    """
    policy = a._ns.policy_now()
    left, right = (other, a) if mode == REFLECTED else (a, other)
    inplace = mode >= INPLACE
    arrays = left.__class__ is right.__class__ is a.__class__
    known = refusals(policy, op) if arrays else {}
    key = (left._k * _NK + right._k, inplace) if arrays else (-1, inplace)
    message = known.get(key)
    if message is not None:
        return PromotionError(message)
    try:
        resolve(policy, op, _engine_operand(left), _engine_operand(right), inplace=inplace)
    except PromotionError as e:
        if arrays:
            known[key] = str(e)
        return e
    raise AssertionError(f"compiled plan and engine disagree on {op}")  # pragma: no cover
