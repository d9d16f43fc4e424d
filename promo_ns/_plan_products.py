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
from promo_ns._plan_functions import Compiled, compiled, finished

__all__ = ["planned_product", "planned_result_type"]

#: The key of ``result_type``'s decisions in a namespace's plans, before the operand codes.
_RESULT_TYPE = "result_type()"


def planned_product(name: str, module: str | None, general: Callable[..., Any]) -> Callable[..., Any]:
    """The product ``name`` of the namespace (of compat's ``module``): its compiled plan, else ``general``.

    Two arrays of the namespace run the plan their operand codes compiled:
    each cast to the result dtype where it has another, then the kernel the
    general path runs, with the same keywords (``axes``, ``axis``).
    """
    tag = f"{module}.{name}()" if module else f"{name}()"

    @functools.wraps(general)
    def planned(ns: Space, x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        cls = ns.Array
        if (
            x1.__class__ is cls
            and x2.__class__ is cls
            and x1._ns is ns
            and x2._ns is ns
            and innermost() is None
        ):
            k1, k2 = x1._k, x2._k
            plan = ns._plans.get((tag, k1, k2))
            if plan.__class__ is not Compiled:
                devices = bool((k1 | k2) & 1) or ns._backend.name != "numpy"  # NumPy has one device
                plan = compiled(ns, (tag, k1, k2), name, (k1, k2), devices, module=module)
            if plan is not None:
                try:
                    a = cast(ns, x1, plan.dtype) if plan.cast[0] else x1._x
                    b = cast(ns, x2, plan.dtype) if plan.cast[1] else x2._x
                    if not plan.compare_devices or ns._backend.same_device(a, b):
                        return finished(ns, name, plan, plan.kernel(a, b, **kwargs))
                except Exception:  # a shape or kernel error: the general path raises its own
                    pass
        return general(ns, x1, x2, **kwargs)

    return planned


def planned_result_type(general: Callable[..., Any]) -> Callable[..., Any]:
    """``result_type`` of the namespace: the dtype decided before for the operand codes, else ``general``.

    Arrays of the namespace and dtypes (a dtype: an n-d array of it) are
    keyed by their codes; the first call decides and keeps the dtype, and a
    refusal is decided (and raised) by ``general`` each time.
    """

    @functools.wraps(general)
    def planned(ns: Space, *arrays_and_dtypes: Any) -> DType:
        if innermost() is not None or not arrays_and_dtypes:
            return general(ns, *arrays_and_dtypes)  # type: ignore[no-any-return]
        codes: list[Any] = [_RESULT_TYPE]
        cls = ns.Array
        for x in arrays_and_dtypes:
            if x.__class__ is cls and x._ns is ns:
                codes.append(x._k)
            elif x.__class__ is DType:
                codes.append(code_of(x, False))
            else:
                return general(ns, *arrays_and_dtypes)  # type: ignore[no-any-return]
        plans = ns._plans
        codes_key = tuple(codes)
        dtype = plans.get(codes_key)
        if dtype is None:
            try:
                dtype = resolve_many(ns.policy, "result_type", [Operand(*key(c)) for c in codes[1:]])
            except Exception:  # refused: the general path raises the policy's error
                return general(ns, *arrays_and_dtypes)  # type: ignore[no-any-return]
            plans[codes_key] = dtype
        return dtype

    return planned
