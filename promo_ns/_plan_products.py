"""Compiled plans of the products of two arrays (``matmul``, ``tensordot``, ``vecdot``) and ``result_type``.

As in :mod:`promo_ns._plan_functions`: outside policy and trace blocks, where
every operand is an array of the namespace (or, for ``result_type``, a
dtype), one dict lookup keyed by the function and the operand codes gives
the decision made the first time.  A product then casts what the plan casts
and runs the general path's kernel; anything else (Python or NumPy scalars,
arrays of another namespace, a refused cell, a kernel's error) takes the
general path, which decides, raises and traces as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from promo_ns._context import innermost
from promo_ns._convert import cast
from promo_ns._dtypes import DType
from promo_ns._engine.operands import Operand
from promo_ns._engine.resolution import resolve_many
from promo_ns._operands import Space, code_of, key
from promo_ns._plan_functions import Compiled, compiled, finished, planned

__all__ = ["planned_product", "planned_result_type"]

#: The key of ``result_type``'s decisions in a namespace's plans, before the operand codes.
_RESULT_TYPE = "result_type()"


def planned_product(name: str, module: str | None, general: Callable[..., Any]) -> Callable[..., Any]:
    """The product ``name`` (of compat's ``module``): its compiled plan, else ``general``.

    Two arrays of the namespace, without keywords, run the plan their operand
    codes compiled: each cast to the result dtype where it has another, then
    the kernel the general path runs.  Keywords (``axes``, ``axis``) take the
    general path, which checks them first.
    """
    return planned(general, functools.partial(_product_of, name, module))


def _product_of(name: str, module: str | None, ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's product ``name`` (see :func:`planned_product`)."""
    tag = f"{module}.{name}()" if module else f"{name}()"
    cls, plans, backend = ns.Array, ns._plans, ns._backend

    def product(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        if (  # keywords (axes, axis) go through the general path's checks
            not kwargs
            and x1.__class__ is cls
            and x2.__class__ is cls
            and x1._ns is ns
            and x2._ns is ns
            and innermost() is None
        ):
            k1, k2 = x1._k, x2._k
            plan = plans.get((tag, k1, k2))
            if plan.__class__ is not Compiled:
                devices = bool((k1 | k2) & 1) or backend.name != "numpy"  # NumPy has one device
                plan = compiled(ns, (tag, k1, k2), name, (k1, k2), devices, module=module)
            if plan is not None:
                try:
                    a = cast(ns, x1, plan.dtype) if plan.cast[0] else x1._x
                    b = cast(ns, x2, plan.dtype) if plan.cast[1] else x2._x
                    if not plan.compare_devices or backend.same_device(a, b):
                        out = plan.kernel(a, b)
                        return finished(ns, name, plan, out, cls, plans)
                except Exception:  # a shape or kernel error: the general path raises its own
                    pass
        return general(x1, x2, **kwargs)

    product.__name__ = product.__qualname__ = name
    return product


def planned_result_type(general: Callable[..., Any]) -> Callable[..., Any]:
    """``result_type``: the dtype decided before for the operand codes, else ``general``.

    Arrays of the namespace and dtypes (a dtype: an n-d array of it) are
    keyed by their codes; the first call decides and keeps the dtype, and a
    refusal is decided (and raised) by ``general`` each time.
    """
    return planned(general, _result_type_of)


def _result_type_of(ns: Space, general: Callable[..., Any]) -> Callable[..., Any]:
    """The namespace's ``result_type`` (see :func:`planned_result_type`)."""
    cls, plans = ns.Array, ns._plans

    def result_type(*arrays_and_dtypes: Any) -> DType:
        if innermost() is not None or not arrays_and_dtypes:
            return general(*arrays_and_dtypes)  # type: ignore[no-any-return]
        codes: list[Any] = [_RESULT_TYPE]
        for x in arrays_and_dtypes:
            if x.__class__ is cls and x._ns is ns:
                codes.append(x._k)
            elif x.__class__ is DType:
                codes.append(code_of(x, False))
            else:
                return general(*arrays_and_dtypes)  # type: ignore[no-any-return]
        codes_key = tuple(codes)
        dtype = plans.get(codes_key)
        if dtype is None:
            try:
                dtype = resolve_many(ns.policy, "result_type", [Operand(*key(c)) for c in codes[1:]])
            except Exception:  # refused: the general path raises the policy's error
                return general(*arrays_and_dtypes)  # type: ignore[no-any-return]
            plans[codes_key] = dtype
        return dtype

    return result_type
