"""Repeats: a call of one array kept from its first run, run again with no decision.

A one-array function (``log``, ``sum``, ``astype``) that ran outside blocks
with nothing to report keeps what it ran (:func:`keep`): the native function
of the native array and the result's dtype.  The namespace's function
(:func:`repeating`, :func:`repeating_astype`) looks it up by the operand's
code on later calls and runs it in its own frame: a lookup, the kernel, the
wrapper.  Anything else (other arguments, a block, an array of another
namespace, a kernel's error, a result of another dtype: JAX with
``jax_enable_x64`` turned off since) takes the general path, which decides
and says what went wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from promo_ns._context import innermost
from promo_ns._dtypes import DType
from promo_ns._operands import Space, code_of

__all__ = ["Kept", "keep", "repeating", "repeating_astype"]

_new = object.__new__


class Kept(NamedTuple):
    """One kept call: what runs again, and the dtype its result must have."""

    #: the native function of the native array (``astype``'s: of the native array and ``native``)
    run: Callable[..., Any]
    code: int  #: the result's operand code, less its 0-d bit
    native: Any  #: the backend's dtype of ``dtype``
    dtype: DType  #: the result dtype


#: The repeats of a dtype ``astype`` has not cast to yet: read by the hot path, never written.
_NONE_KEPT: dict[int, Kept] = {}


def keep(ns: Space, function: Any, code: int, run: Callable[..., Any], dtype: DType) -> None:
    """Keep native function ``run``, whose result has ``dtype``, as ``function``'s repeat on operand ``code``.

    ``function`` keys the repeats in the namespace's plans: the general
    function of :func:`repeating`, the target dtype of ``astype`` (whose
    ``copy=False`` calls are kept under ``~code``).
    """
    backend = ns._backend
    kept = Kept(run, code_of(dtype, False), backend.native_dtype(dtype), dtype)
    ns._plans.setdefault(function, {})[code] = kept


def repeating(key: Any, ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's function of one array: ``key``'s repeat of the array's code, else ``general``.

    ``general``: the function's general path bound to ``ns``, which keeps
    repeats under ``key`` (:func:`keep`); a call with other arguments takes it.
    A maker (:data:`~promo_ns._plan_functions.MAKERS`) once ``key`` is bound.
    """
    plans, cls, backend = ns._plans, ns.Array, ns._backend
    repeats: dict[int, Kept] = plans.setdefault(key, {})
    to_array, dtype_of, array_type = backend.to_array, backend.dtype, backend.array_type

    def one(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if x.__class__ is cls and not args and not kwargs and x._ns is ns and innermost() is None:
            kept = repeats.get(x._k)
            if kept is not None:
                run, code, native, dtype = kept
                try:
                    out = run(x._x)
                except Exception:  # the general path runs it again and says what went wrong
                    return general(x)
                if out.__class__ is not array_type:  # NumPy's reductions return scalars
                    out = to_array(out)
                if out.dtype is native or dtype_of(out) is dtype:
                    a = _new(cls)
                    a._x = out
                    a._ns = ns
                    a._p = plans
                    a._k = code + (out.ndim == 0)
                    return a
        return general(x, *args, **kwargs)

    return one


def repeating_astype(ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's ``astype``: the repeat kept under the dtype for the array's code, else ``general``."""
    plans, cls, backend = ns._plans, ns.Array, ns._backend
    dtype_of = backend.dtype

    def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
        if (
            x.__class__ is cls
            and dtype.__class__ is DType
            and device is None
            and copy.__class__ is bool
            and x._ns is ns
            and innermost() is None
        ):
            kept = plans.get(dtype, _NONE_KEPT).get(x._k if copy else ~x._k)
            if kept is not None:
                cast, code, native, _ = kept
                try:
                    out = cast(x._x, native)
                except Exception:  # the general path runs it again and says what went wrong
                    return general(x, dtype, copy=copy)
                if out.dtype is native or dtype_of(out) is dtype:
                    a = _new(cls)
                    a._x = out
                    a._ns = ns
                    a._p = plans
                    a._k = code + (x._k & 1)  # the shape kept
                    return a
        return general(x, dtype, copy=copy, device=device)

    return astype
