"""Compiled plans of functions of several operands: ``where``, ``clip``, ``concat`` and ``stack``.

The binary operators' hot path (:func:`promo_ns._plan.operator`) has its
counterpart here.  Outside policy and trace blocks, where every operand is an
array of the namespace or a Python scalar, one dict lookup keyed by the op and
the operands' codes gives a :class:`Compiled` plan: the result dtype, which
operands are cast, what a Python scalar may be for the plan to take it as it
is, and the kernel.  Plans are compiled once per namespace (its policy and
backend) and key.

Everything else returns :data:`SLOW`, and the function takes its general path
(:func:`promo_ns._plan.promoted`), which is the reference: blocks and traces,
NumPy scalars, arrays of another namespace, a refused cell, a Python int the
policy would check (beyond what the plan takes as it is), a Python float or
complex the policy checks and refuses, a value that cannot be converted, and
a kernel's error.  A plan takes only what that path takes as it is, and makes
the same casts and kernel calls (or calls the library's own function where
that is what the general path's calls come to, see :func:`_kernel`), so
results, dtypes and errors are the same.

:func:`planned_where`, :func:`planned_clip` and :func:`planned_join` register
makers (:data:`MAKERS`) of the namespace's functions: when a namespace binds
the general path (in :mod:`promo_ns._functions`), the maker makes a closure
holding the namespace, its ``Array`` class and its plans.  The commonest plans
(arrays of the result dtype; ``clip`` with float bounds; every ``concat`` and
``stack``) run in that one frame, others through :func:`where` and
:func:`clip`, and :data:`SLOW` in the general path.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from promo_ns._context import innermost
from promo_ns._convert import cast, wrap_result
from promo_ns._dtypes import FLOAT_MAX, DType, bfloat16, bool_, float32, float64
from promo_ns._engine.decisions import family_name
from promo_ns._engine.resolution import decided_many, inexact_dtype
from promo_ns._engine.scalars import checked_inexact, int_limits
from promo_ns._operands import _KEYS, _NA, _SCALAR_CODE, Space, code_of
from promo_ns.policies import Policy, Role

__all__ = [
    "MAKERS",
    "SLOW",
    "Compiled",
    "clip",
    "compiled",
    "finished",
    "planned",
    "planned_clip",
    "planned_join",
    "planned_where",
    "where",
]

_new = object.__new__

#: What a planned function returns where the general path must run instead.
SLOW: Any = object()
#: A key whose operands have no plan: the general path decides every call.
_NONE: Any = object()
#: At most this many arrays are joined by a plan (a key per count and codes).
MAX_JOINED = 8
#: The plan caches' keys: the op's name, then the operand codes.
_WHERE, _CLIP = "where()", "clip()"
_JOIN = {"concat": "concat()", "stack": "stack()"}


class Compiled(NamedTuple):
    """What one key of operand codes needs: the plan of ``op`` over those operands."""

    dtype: DType  #: the result dtype
    code: int  #: the result's operand code, less its 0-d bit
    native: Any  #: the backend's dtype of ``dtype``
    cast: tuple[bool, ...]  #: per operand: cast (or a Python scalar converted) to ``dtype``
    ints: tuple[tuple[float, float] | None, ...]  #: per operand: the Python ints taken as they are
    inexact: tuple[DType | None, ...]  #: per operand: the dtype a Python float/complex is checked against
    #: Per operand: a Python float within this magnitude goes to ``scalar_kernel`` as it is (:func:`_kernel`).
    asis: tuple[float | None, ...]
    #: The operands' devices are compared before the kernel: a 0-d array takes part (backends take a 0-d
    #: CPU one), or a product on a backend whose kernels take torch's meta device with the CPU.
    compare_devices: bool
    kernel: Callable[..., Any]  #: the backend's function, on operands of ``dtype``
    #: the one taking the ``asis`` floats as they are (``concat``/``stack``: the axis positional)
    scalar_kernel: Callable[..., Any] | None
    plain: bool  #: every operand is an array of ``dtype`` and no device is compared: the kernel takes them
    #: ``clip`` of an array of ``dtype`` with Python float bounds (or none): within this magnitude
    #: each goes to ``scalar_kernel`` as it is.
    top: float | None
    array_type: Any  #: the backend's array type, which its kernels return (NumPy: also scalars)


def _compile(
    ns: Space, op: str, codes: Sequence[int], compare_devices: bool, module: str | None
) -> Compiled | None:
    """The plan of ``op`` over operands of ``codes`` (-1: an absent ``clip`` bound); None: none.

    The engine decides from the operands' dtypes and roles; a Python
    int's plan range is where :func:`~promo_ns._engine.scalars.checked_int`
    returns it as it is, a float or complex is checked per call where the
    policy checks it (as :func:`~promo_ns._engine.resolution.resolve_many` does).
    """
    policy = ns.policy
    keys = [None if k < 0 else _KEYS[k] for k in codes]
    dtype = decided_many(policy, op, keys)
    if dtype is None:  # refused: the general path raises the policy's error
        return None
    name = family_name(policy, op)
    ints: list[tuple[float, float] | None] = []
    inexact: list[DType | None] = []
    first = keys[0][0] if keys[0] is not None else None
    for i, key in enumerate(keys):
        role = None if key is None or key[0] is not None else key[1]
        ints.append(_int_range(policy, name, keys, i) if role is Role.INT else None)
        inexact.append(
            inexact_dtype(policy, name, first, role, dtype, index=i)
            if role is Role.FLOAT or role is Role.COMPLEX
            else None
        )
    guarded = ns._backend.guarded
    kernel, scalar_kernel = _kernel(ns, op, dtype, module)
    kernel, scalar_kernel = guarded(kernel, dtype), scalar_kernel and guarded(scalar_kernel, dtype)
    floats = op == "clip" and scalar_kernel is not None
    asis = tuple(  # a float within the dtype's range passes a check against that dtype
        _FLOAT_MAX[dtype]
        if floats and key == (None, Role.FLOAT) and (checked is None or checked is dtype)
        else None
        for key, checked in zip(keys, inexact, strict=True)
    )
    casts = tuple(key is not None and (key[0] is None or key[0] is not dtype) for key in keys)
    return Compiled(
        dtype,
        code_of(dtype, False),
        ns._backend.native_dtype(dtype),
        casts,
        tuple(ints),
        tuple(inexact),
        asis,
        compare_devices,
        kernel,
        scalar_kernel,
        not compare_devices and not any(casts),
        (
            _FLOAT_MAX[dtype]
            if floats
            and not compare_devices
            and not casts[0]
            and all(t is not None or k is None for t, k in zip(asis[1:], keys[1:], strict=True))
            else None
        ),
        ns._backend.array_type,
    )


def _int_range(policy: Policy, name: str, keys: Sequence[Any], index: int) -> tuple[float, float]:
    """The Python ints at ``keys[index]`` that ``checked_int`` returns as they are (checked or not)."""
    limits = int_limits(policy, name, tuple(keys), index)
    lo, hi = limits.accepted or (-math.inf, math.inf)
    if limits.fits is not None:
        lo, hi = max(lo, limits.fits[0]), min(hi, limits.fits[1])
        if limits.rule == "non-negative" and limits.integer:
            lo = max(lo, 0)
    return lo, hi


#: The largest finite float32 and float64: a Python float within goes to a clip kernel as it is.
_FLOAT_MAX = {float32: float(FLOAT_MAX[float32]), float64: float(FLOAT_MAX[float64])}


def _kernel(
    ns: Space, op: str, dtype: DType, module: str | None
) -> tuple[Callable[..., Any], Callable[..., Any] | None]:
    """The backend's function the general path runs for ``op`` on operands of ``dtype``, and one for floats.

    The general path runs ``compat.<op>`` on operands it has cast to
    ``dtype``.  Where that is the library's own function on such operands,
    the plan calls that directly:

    - NumPy's ``clip`` (not of bfloat16, which has no loop): array-api-compat
      casts and broadcasts the bounds, then calls ``numpy.clip`` on what are
      already ``dtype`` arrays (its integer range fix-ups change none of them);
    - torch's ``where``: compat's casts nothing of operands of one dtype (a
      dtype without a kernel raises, and the general path takes over);
    - torch's ``concat`` along an axis (``axis=None`` raises there: compat
      flattens the arrays first, on the general path);
    - ``matmul`` (also ``linalg.matmul``): NumPy's, which compat's calls as it is,
      and torch's of floating operands (compat's casts operands of one dtype to
      that dtype; promo_ns's own products differ only for bool and integers).

    ``module`` names the compat submodule of the general path's function (``"linalg"``).

    The second function of ``concat`` and ``stack`` is NumPy's or torch's
    own, which takes the axis as a positional argument.  That of ``clip`` of
    a float32 or float64 array takes a finite Python float bound as it is
    (NumPy's and torch's kernels round it to the array's dtype, as the general
    path's 0-d array of it does): NumPy's ``clip``, torch's ``clamp`` (what
    compat's clip calls for such bounds), and on CuPy promo_ns's compat ``clip``,
    which gives bounds in order to CuPy's clip kernel.
    """
    backend = ns._backend
    compat = backend.compat
    if op == "clip" and backend.name == "numpy" and dtype is not bfloat16:
        clip: Callable[..., Any] = backend.module.clip
        return clip, clip if dtype in _FLOAT_MAX else None
    if op == "clip" and backend.name == "torch" and dtype in _FLOAT_MAX:
        return compat.clip, backend.module.clamp
    if op == "clip" and backend.name == "cupy" and dtype in _FLOAT_MAX:
        return compat.clip, compat.clip  # Python floats in order: CuPy's one clip kernel
    if op == "where" and backend.name == "torch":
        return backend.module.where, None
    if op in _JOIN and backend.name in ("numpy", "torch"):  # NumPy's and torch's own: the axis positional
        join: Callable[..., Any] = getattr(
            backend.module if op == "concat" and backend.name == "torch" else compat, op
        )
        return join, join
    if op == "matmul" and (backend.name == "numpy" or (backend.name == "torch" and dtype.kind in "fc")):
        return backend.module.matmul, None
    return getattr(compat if module is None else getattr(compat, module), op), None


def compiled(
    ns: Space,
    key: tuple[Any, ...],
    op: str,
    codes: Sequence[int],
    compare_devices: bool,
    *,
    module: str | None = None,
) -> Compiled | None:
    """The plan cached under ``key``, compiled the first time; None where the general path decides.

    ``module``: the compat submodule whose function ``op`` the kernel is (``"linalg"``).
    """
    plan = ns._plans.get(key)
    if plan is None:
        plan = ns._plans[key] = _compile(ns, op, codes, compare_devices, module) or _NONE
    return None if plan is _NONE else plan


def _native(ns: Space, op: str, plan: Compiled, i: int, x: Any, *, like: Any) -> Any:
    """Operand ``x`` at ``i`` cast for the kernel; ``_SlowPathError`` where the general path must decide.

    A Python scalar is checked as the general path checks it (an int beyond
    the plan's range leaves it) and converted to a 0-d array on ``like``'s device.
    """
    dtype = plan.dtype
    if x.__class__ is ns.Array:
        return cast(ns, x, dtype)
    ints = plan.ints[i]
    if ints is not None:
        if not ints[0] <= x <= ints[1]:
            raise _SlowPathError
    elif (checked := plan.inexact[i]) is not None:
        checked_inexact(ns.policy, op, x, checked, i)  # raises where the policy refuses x
    return cast(ns, x, dtype, like)


class _SlowPathError(Exception):
    """The operands leave the plan: the general path decides."""


def finished(  # noqa: PLR0917 - positional: the hot paths call it
    ns: Space, op: str, plan: Compiled, out: Any, cls: Any = None, plans: Any = None
) -> Any:
    """The kernel's native result ``out`` as an array of the namespace.

    ``cls`` and ``plans``: the namespace's ``Array`` and ``_plans``, which the
    namespace's functions hold (a module's attributes cost more to look up).
    """
    if out.__class__ is not plan.array_type:
        out = ns._backend.to_array(out)
    if out.dtype is not plan.native and ns._backend.dtype(out) is not plan.dtype:
        return wrap_result(ns, op, out, plan.dtype)
    a = _new(cls or ns.Array)
    a._x = out
    a._ns = ns
    a._p = plans or ns._plans
    a._k = plan.code + (out.ndim == 0)
    return a


def _same_device(ns: Space, arrays: Sequence[Any]) -> bool:
    """Whether the native ``arrays`` (the first: the one the others must share a device with) are alike."""
    same = ns._backend.same_device
    first = arrays[0]
    return all(same(first, other) for other in arrays[1:] if hasattr(other, "device"))


def where(ns: Space, condition: Any, x1: Any, x2: Any) -> Any:
    """``where(condition, x1, x2)`` by its compiled plan, or :data:`SLOW`."""
    cls = ns.Array
    if innermost() is not None or condition.__class__ is not cls or condition._ns is not ns:
        return SLOW
    kc = condition._k
    if kc >> 1 != 0:  # not a bool condition: the general path's TypeError
        return SLOW
    k1 = (x1._k if x1._ns is ns else None) if x1.__class__ is cls else _SCALAR_CODE.get(x1.__class__)
    k2 = (x2._k if x2._ns is ns else None) if x2.__class__ is cls else _SCALAR_CODE.get(x2.__class__)
    if k1 is None or k2 is None:
        return SLOW
    key = (_WHERE, kc, k1, k2)
    plan = ns._plans.get(key)
    if plan is None or plan is _NONE:
        zero_d = bool((kc | (k1 if k1 < _NA else 0) | (k2 if k2 < _NA else 0)) & 1)
        plan = compiled(ns, key, "where", (k1, k2), zero_d)
        if plan is None:
            return SLOW
    c = condition._x
    if plan.plain:
        try:
            out = plan.kernel(c, x1._x, x2._x)
        except Exception:  # a kernel error: the general path raises its own
            return SLOW
        return finished(ns, "where", plan, out)
    try:
        a = _native(ns, "where", plan, 0, x1, like=c) if plan.cast[0] else x1._x
        b = _native(ns, "where", plan, 1, x2, like=c) if plan.cast[1] else x2._x
        if plan.compare_devices and not _same_device(ns, (c, a, b)):
            return SLOW
        out = plan.kernel(c, a, b)
    except Exception:  # a value or kernel error: the general path raises its own
        return SLOW
    return finished(ns, "where", plan, out)


def clip(ns: Space, x: Any, lo: Any, hi: Any) -> Any:
    """``clip(x, lo, hi)`` (one bound may be None) by its compiled plan, or :data:`SLOW`."""
    cls = ns.Array
    if innermost() is not None or x.__class__ is not cls or x._ns is not ns:
        return SLOW
    k1 = -1 if lo is None else _SCALAR_CODE.get(lo.__class__) or _code(ns, lo)
    k2 = -1 if hi is None else _SCALAR_CODE.get(hi.__class__) or _code(ns, hi)
    if k1 is None or k2 is None:
        return SLOW
    key = (_CLIP, x._k, k1, k2)
    plan = ns._plans.get(key)
    if plan is None or plan is _NONE:
        codes = key[1:]
        zero_d = any(0 <= k < _NA and k & 1 for k in codes)
        plan = compiled(ns, key, "clip", codes, zero_d)
        if plan is None:
            return SLOW
    top = plan.top
    if top is not None and (lo is None or -top <= lo <= top) and (hi is None or -top <= hi <= top):
        try:  # float bounds, not NaN and within the dtype: as they are
            out = plan.scalar_kernel(x._x, lo, hi)
        except Exception:  # a kernel error: the general path raises its own
            return SLOW
        return finished(ns, "clip", plan, out)
    try:
        kernel, natives = _clip_operands(ns, plan, (x, lo, hi))
        if plan.compare_devices and not _same_device(ns, [n for n in natives if hasattr(n, "device")]):
            return SLOW
        out = kernel(*natives)
    except Exception:  # a value or kernel error: the general path raises its own
        return SLOW
    return finished(ns, "clip", plan, out)


def _code(ns: Space, x: Any) -> int | None:
    """The operand code of ``x`` if it is an array of the namespace; else None."""
    if x.__class__ is ns.Array and x._ns is ns:
        return x._k  # type: ignore[no-any-return]
    return None


def _clip_operands(ns: Space, plan: Compiled, xs: Sequence[Any]) -> tuple[Callable[..., Any], list[Any]]:
    """``clip``'s kernel and native operands: ``scalar_kernel`` where each bound is a float as it is."""
    kernel = plan.scalar_kernel
    if kernel is not None:
        for x, top in zip(xs[1:], plan.asis[1:], strict=True):
            if x is not None and (top is None or not -top <= x <= top):  # not NaN, not beyond the dtype
                kernel = None
                break
    like = xs[0]._x
    natives: list[Any] = []
    for i, (x, casts) in enumerate(zip(xs, plan.cast, strict=True)):
        if x is None or not casts:
            natives.append(None if x is None else x._x)
        elif kernel is not None and i:  # a float bound as it is
            natives.append(x)
        else:
            natives.append(_native(ns, "clip", plan, i, x, like=like))
    return kernel or plan.kernel, natives


#: What makes a namespace's function from its general path: ``make(ns, general)``, where
#: ``general`` is the general path bound to ``ns`` with its argument checks
#: (:func:`promo_ns._functions._common.bind`).  The function made runs compiled
#: plans in its own frame and calls ``general`` for everything else.
Maker = Callable[[Space, Callable[..., Any]], Callable[..., Any]]
#: general function -> the maker of the namespace's function (see :func:`planned`).
MAKERS: dict[Callable[..., Any], Maker] = {}


def planned(general: Callable[..., Any], make: Maker) -> Callable[..., Any]:
    """Register ``make`` as the maker of ``general``'s namespace function; return ``general``."""
    MAKERS[general] = make
    return general


def planned_where(general: Callable[..., Any]) -> Callable[..., Any]:
    """``where``: its compiled plan, else ``general`` (the general path).

    Arrays of the result dtype go to the kernel in the namespace function's
    frame; anything else goes through :func:`where` first.
    """
    return planned(general, _where_of)


def _where_of(ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's ``where`` (see :func:`planned_where`)."""
    cls, plans = ns.Array, ns._plans

    def where_(condition: Any, x1: Any, x2: Any, /) -> Any:
        if condition.__class__ is cls and x1.__class__ is cls and x2.__class__ is cls and innermost() is None:
            plan = plans.get((_WHERE, condition._k, x1._k, x2._k))
            if (
                plan.__class__ is Compiled
                and plan.plain
                and condition._ns is ns
                and x1._ns is ns
                and x2._ns is ns
            ):
                try:
                    out = plan.kernel(condition._x, x1._x, x2._x)
                except Exception:  # a kernel error: the general path raises its own
                    return general(condition, x1, x2)
                return finished(ns, "where", plan, out, cls, plans)
        out = where(ns, condition, x1, x2)
        return general(condition, x1, x2) if out is SLOW else out

    return where_


def planned_clip(general: Callable[..., Any]) -> Callable[..., Any]:
    """``clip``: its compiled plan (:func:`clip`), else ``general`` (the general path)."""
    return planned(general, _clip_of)


def _clip_of(ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's ``clip``: float bounds within the dtype run in its frame (see :func:`planned_clip`)."""
    cls, plans = ns.Array, ns._plans

    def clip_(x: Any, /, min: Any = None, max: Any = None) -> Any:
        if x.__class__ is cls and innermost() is None:
            k1 = -1 if min is None else _SCALAR_CODE.get(min.__class__)
            k2 = -1 if max is None else _SCALAR_CODE.get(max.__class__)
            plan = plans.get((_CLIP, x._k, k1, k2))
            if (
                plan.__class__ is Compiled
                and (top := plan.top) is not None
                and x._ns is ns
                and (min is None or -top <= min <= top)
                and (max is None or -top <= max <= top)
            ):
                try:
                    out = plan.scalar_kernel(x._x, min, max)  # type: ignore[misc]  # set where top is
                except Exception:  # a kernel error: the general path raises its own
                    return general(x, min, max)
                return finished(ns, "clip", plan, out, cls, plans)
        out = SLOW if min is None and max is None else clip(ns, x, min, max)
        return general(x, min, max) if out is SLOW else out

    return clip_


def planned_join(name: str, general: Callable[..., Any]) -> Callable[..., Any]:
    """``concat`` or ``stack`` (``name``): its compiled plan, else ``general``.

    Up to :data:`MAX_JOINED` arrays of the namespace, with an int axis or
    None, outside blocks, run the plan of their operand codes: those of
    another dtype cast to the result dtype, then the kernel.
    """
    return planned(general, functools.partial(_join_of, name))


def _join_of(name: str, ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's ``concat`` or ``stack`` (see :func:`planned_join`)."""
    table = _JOIN[name]
    cls, plans = ns.Array, ns._plans

    def join(arrays: Any, /, *, axis: Any = 0) -> Any:
        if (
            (arrays.__class__ is list or arrays.__class__ is tuple)
            and (axis.__class__ is int or axis is None)
            and 0 < len(arrays) <= MAX_JOINED
            and innermost() is None
        ):
            if len(arrays) == 2:  # the common case, without a loop
                x, y = arrays
                if x.__class__ is not cls or y.__class__ is not cls or x._ns is not ns or y._ns is not ns:
                    return general(arrays, axis=axis)
                key: tuple[Any, ...] = (table, x._k, y._k)
                natives = [x._x, y._x]
            else:
                codes: list[Any] = [table]
                natives = []
                for x in arrays:
                    if x.__class__ is not cls or x._ns is not ns:
                        return general(arrays, axis=axis)
                    codes.append(x._k)
                    natives.append(x._x)
                key = tuple(codes)
            plan = plans.get(key)
            if plan is None or plan is _NONE:
                plan = compiled(ns, key, name, key[1:], any(k & 1 for k in key[1:]))
                if plan is None:
                    return general(arrays, axis=axis)
            try:
                if not plan.plain:
                    natives = [
                        cast(ns, x, plan.dtype) if c else x._x for c, x in zip(plan.cast, arrays, strict=True)
                    ]
                    if plan.compare_devices and not _same_device(ns, natives):
                        return general(arrays, axis=axis)
                out = (
                    plan.scalar_kernel(natives, axis)
                    if plan.scalar_kernel
                    else plan.kernel(natives, axis=axis)
                )
            except Exception:  # a shape or kernel error: the general path raises its own
                return general(arrays, axis=axis)
            return finished(ns, name, plan, out, cls, plans)
        return general(arrays, axis=axis)

    join.__name__ = join.__qualname__ = name
    return join


assert bool_ is _KEYS[0][0]  # where's condition: operand codes 0 and 1
