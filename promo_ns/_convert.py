"""Conversion between native arrays and promo_ns arrays, and the errors for what cannot cross.

:func:`wrap` makes a native array an array of a namespace (zero-copy),
:func:`native` and :func:`array_of` give the native array back; the
operands of the standard's functions (Python and NumPy scalars, dtypes)
become engine operands (:func:`operand_of`) and native operands of a dtype
(:func:`cast`).  What cannot cross raises here, once: arrays of two
backends (:func:`mixed_backends`) or devices (:func:`device_error`), an
unknown device, a bare native array or a type promo_ns does not know
(:func:`_unsupported`), and a backend kernel's own errors in promo_ns's words
(:func:`_kernel_error`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any

from promo_ns._dtypes import BY_NAME, DTYPES, FLOAT_OVERFLOW, INT_RANGE, DType, real_float
from promo_ns._engine.functions import check_input_kind
from promo_ns._engine.operands import Operand, PromotionError, operand
from promo_ns._operands import _KEYS, _SCALAR_CODE, _SCALAR_TYPES, Space, code_of
from promo_ns._report import ran, report_decided
from promo_ns.backends import Backend, Plan
from promo_ns.policies import Role

__all__ = [
    "array_of",
    "cast",
    "defers_to",
    "device_error",
    "fit",
    "input_of",
    "is_numpy_like",
    "is_numpy_scalar",
    "mixed_backends",
    "native",
    "native_argument",
    "native_device",
    "operand_of",
    "promoted_operand",
    "reflected_name",
    "unknown_device",
    "wrap",
    "wrap_any",
    "wrap_result",
]


# --- native <-> promo_ns arrays -----------------------------------------------------------------


_new = object.__new__


def wrap(x: Any, ns: Space) -> Any:
    """Wrap native array ``x`` (zero-copy) as an array of namespace ``ns``."""
    backend = ns._backend
    x = backend.to_array(x)
    a = _new(ns.Array)
    a._x = x
    a._ns = ns
    a._p = ns._plans
    a._k = code_of(backend.dtype(x), x.ndim == 0)
    return a


def wrap_any(ns: Space, x: Any) -> Any:
    """Wrap a native result (array, or tuple/namedtuple/list of arrays) into promo_ns arrays."""
    if isinstance(x, ns._backend.array_type) or is_numpy_like(x):
        return wrap(x, ns)
    if isinstance(x, tuple):
        items = [wrap_any(ns, v) for v in x]
        if hasattr(x, "_fields"):
            return type(x)(*items)
        return type(x)(items)  # a tuple, or a struct sequence (torch.return_types)
    if isinstance(x, list):
        return [wrap_any(ns, v) for v in x]
    return x


def native(ns: Space, x: Any) -> Any:
    """Native arrays for promo_ns arrays, also inside lists and tuples; dtypes to native ones."""
    if x.__class__ is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return x._x
    if x.__class__ is DType:
        return ns._backend.native_dtype(x)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(native(ns, v) for v in x)
    return x


def wrap_result(ns: Space, op: str, out: Any, dtype: DType) -> Any:
    """Wrap the native result of ``op`` as a promo_ns array of the policy's ``dtype``.

    ``out`` is rounded to ``dtype`` where the backend computed a float dtype in
    a wider one (NumPy's bfloat16 ``matmul`` returns float32).

    Raises
    ------
    TypeError
        The backend returned another kind (NumPy's integer ``solve`` returns
        float64): it has no kernel for ``dtype``, and a result in a dtype the
        policy did not give would be wrong.
    """
    backend = ns._backend
    out = backend.to_array(out)
    got = backend.dtype(out)
    if got is not dtype:
        if got.kind == dtype.kind and got.kind in "fc" and got.bits > dtype.bits:
            out = backend.astype(out, dtype)
        else:
            raise TypeError(
                f"{backend.name} has no {op!r} kernel that returns {dtype}, the dtype policy "
                f"{ns.policy_now().name!r} gives (its kernel returned {got}). Cast the "
                "operands explicitly to a dtype the backend supports first."
            )
    ran(op)
    return wrap(out, ns)


def array_of(ns: Space, x: Any, op: str) -> Any:
    """The native array of promo_ns array ``x`` where ``op`` takes an array; a TypeError for anything else.

    Raises
    ------
    TypeError
        ``x`` is a bare native array (wrap it with ``xp.asarray``), no array
        at all, or an array of another backend's namespace.
    """
    if x.__class__ is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return x._x
    raise _unsupported(x, op, ns, scalars=False)


def input_of(ns: Space, x: Any, op: str) -> Any:
    """:func:`array_of`, refused where the active policy's ``input_kinds`` give ``op`` no ``x.dtype``."""
    native_x = array_of(ns, x, op)
    try:
        check_input_kind(ns.policy_now(), op, x.dtype)
    except PromotionError:
        report_decided(op, x, None)
        raise
    return native_x


#: Argument types a delegated function passes through as they are, without a look.
_PLAIN = frozenset((bool, int, float, complex, str, type(None), slice, type(Ellipsis)))


def native_argument(ns: Space, x: Any, op: str) -> Any:
    """:func:`native` for an argument of delegated function ``op``: a bare native array raises.

    Raises
    ------
    TypeError
        ``x`` is (or holds) a bare NumPy/CuPy/torch array: wrap it with ``xp.asarray``.
    """
    cls = x.__class__
    if cls in _PLAIN:
        return x
    if cls is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return x._x
    if cls is DType:
        return ns._backend.native_dtype(x)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(native_argument(ns, v, op) for v in x)
    from promo_ns.backends import backend_of

    if backend_of(x) is not None:
        raise _unsupported(x, op, ns)
    return x


def _adopted(ns: Space, x: Any) -> Any:
    """``x`` as an array of namespace ``ns`` (zero-copy) if it is an array of another one; else ``x``."""
    if x.__class__ is not ns.Array or x._ns is ns:
        return x
    if x._ns._backend is not ns._backend:
        raise mixed_backends(ns._backend, x._ns._backend)
    a = _new(ns.Array)
    a._x = x._x
    a._ns = ns
    a._p = ns._plans
    a._k = x._k
    return a


# --- operands of functions: Python scalars, NumPy scalars, casts ---------------------------------


def operand_of(ns: Space, x: Any) -> Operand:
    """The engine operand of a promo_ns array, DType, NumPy scalar or Python scalar."""
    if x.__class__ is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return Operand(*_KEYS[x._k])
    if x.__class__ is DType:
        return Operand(x, Role.ND)
    if isinstance(x, (bool, int, float, complex)) and not is_numpy_like(x):
        return operand(x)
    raise _unsupported(x, "this function", ns)


def promoted_operand(ns: Space, x: Any, op: str) -> Any:
    """``x`` as the plan layer takes it: a NumPy/CuPy scalar as the policy takes it (``_other_operand``)."""
    if x.__class__ is ns.Array or x.__class__ is DType or type(x) in _SCALAR_CODE:
        return x
    return _other_operand(ns, x, op)


def _other_operand(ns: Any, x: Any, op: str) -> Any:
    """A NumPy/CuPy scalar or 0-d array as the policy in force takes it.

    A 0-d CuPy or NumPy array is the 0-d array it is (strong, as in NEP 50),
    and so is a NumPy scalar, but under a policy whose ``numpy_scalars`` is
    ``"python"``, where it is the Python scalar it holds.  A subclass of a
    Python scalar type becomes that Python scalar; anything else raises.
    """
    if is_numpy_like(x) and x.ndim == 0:
        if is_numpy_scalar(x) and ns.policy_now().numpy_scalars == "python":
            return x.item()
        return ns.asarray(x)
    for t in _SCALAR_TYPES:
        if isinstance(x, t):
            return t(x)
    raise _unsupported(x, op, ns)


def is_numpy_like(x: Any) -> bool:
    """Whether ``x`` is a NumPy or CuPy array or scalar (a NumPy scalar is a 0-d array to promo_ns).

    ml_dtypes' scalars (``ml_dtypes.bfloat16(1)``) are NumPy scalars too.
    """
    return type(x).__module__ in _NUMPY_MODULES and hasattr(x, "dtype") and hasattr(x, "ndim")


_NUMPY_MODULES = ("numpy", "cupy", "ml_dtypes")


def is_numpy_scalar(x: Any) -> bool:
    """Whether ``x`` is a NumPy scalar of a canonical dtype (``np.float64(1.5)``, ``ml_dtypes.bfloat16(1)``).

    Not an array, and not ``np.longdouble``, ``np.timedelta64`` (a NumPy integer) or a string.
    """
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.generic) and x.dtype.name in BY_NAME


def cast(ns: Space, x: Any, dtype: DType, like: Any = None) -> Any:
    """Native ``x`` as ``dtype``; a Python scalar becomes a 0-d array on ``like``'s device.

    The engine has already checked a Python int's value where the policy
    checks it; where the policy's rule is ``"wrap"``, the value wraps into
    ``dtype`` here, as the framework would.
    """
    if x.__class__ is ns.Array:
        if dtype.kind in "iuf" and x.dtype.kind == "c":  # the real part, as the framework casts it
            return ns._backend.astype(ns._backend.compat.real(x._x), dtype)
        return ns._backend.astype(x._x, dtype)
    return ns._backend.scalar(fit(x, dtype), dtype, like)


_INT64 = (-(2**63), 2**63 - 1)


def fit(value: Any, dtype: DType) -> Any:
    """Python scalar ``value`` converted to ``dtype``'s kind as a cast would: ints wrap into range.

    For a floating dtype, an int that rounds beyond the dtype's range is an
    infinity and one beyond int64 a Python float (backends take Python ints
    up to 64 bits, and torch checks some against the dtype).
    """
    kind = dtype.kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        real = value.real if isinstance(value, complex) else value
        if isinstance(real, float) and not math.isfinite(real):
            raise ValueError(f"{value!r} has no {dtype} value: a NaN or an infinity converts to no integer")
        v = int(real)
        lo, hi = INT_RANGE[dtype]
        return v if lo <= v <= hi else lo + (v - lo) % (hi - lo + 1)
    if kind == "f" and isinstance(value, complex):
        return value.real
    if value.__class__ is int and kind in "fc":
        if abs(value) >= FLOAT_OVERFLOW[real_float(dtype)]:
            return math.copysign(math.inf, value)
        if not _INT64[0] <= value <= _INT64[1]:
            return float(value)
    return value


# --- operands of other libraries: Python's reflected operators -----------------------------------


#: The reflected Python operator of each binary op (a comparison's is its mirror image).
_REFLECTED_NAMES = {
    "add": "__radd__", "subtract": "__rsub__", "multiply": "__rmul__", "divide": "__rtruediv__",
    "floor_divide": "__rfloordiv__", "remainder": "__rmod__", "pow": "__rpow__",
    "bitwise_and": "__rand__", "bitwise_or": "__ror__", "bitwise_xor": "__rxor__",
    "bitwise_left_shift": "__rlshift__", "bitwise_right_shift": "__rrshift__", "matmul": "__rmatmul__",
    "equal": "__eq__", "not_equal": "__ne__", "less": "__gt__", "less_equal": "__ge__",
    "greater": "__lt__", "greater_equal": "__le__",
}  # fmt: skip


def reflected_name(op: str) -> str:
    """The name of the Python operator another operand implements to take ``op`` reflected."""
    return _REFLECTED_NAMES[op]


def defers_to(other: Any, name: str) -> bool:
    """Whether a Python operator leaves ``other`` to its own reflected operator ``name``.

    True for a type promo_ns does not know (neither a Python scalar, nor a
    backend's array or scalar) that implements ``name`` itself: xarray's
    DataArray, marray's MaskedArray.  Their reflected operator then runs; for
    anything else promo_ns raises its own TypeError, naming what to do.
    """
    from promo_ns.backends import backend_of

    cls = other.__class__
    if cls.__module__ == "builtins" or is_numpy_like(other) or backend_of(other) is not None:
        return False
    return getattr(cls, name, None) is not getattr(object, name, None)


# --- errors for what cannot cross, and for a kernel's own --------------------------------------


def mixed_backends(mine: Backend, theirs: Backend) -> TypeError:
    """The error for an array of backend ``theirs`` met by an array or namespace of backend ``mine``."""
    return TypeError(
        f"cannot combine a {mine.name} array with a {theirs.name} array; move one to the other's "
        f"backend first, e.g. with the {mine.name} namespace's xp.from_dlpack(x), or use one namespace."
    )


def device_error(a: Any, b: Any) -> ValueError:
    """The error for native arrays ``a`` and ``b`` on different devices."""
    return ValueError(
        f"operands are on different devices ({a.device} and {b.device}); "
        "move one with x.to_device(other.device) first."
    )


def native_device(ns: Space, device: Any) -> Any:
    """``device`` as the backend takes it: a device's text (``"cpu"``, ``"cuda:0"``) as the device it names.

    Text matches a device the namespace lists, as :func:`unknown_device`
    reads it (``"cuda"`` stands for ``"cuda:0"``); JAX takes device objects
    only ("'str' object has no attribute '_is_concrete'").  Anything else as it is.
    """
    if device.__class__ is not str:
        return device
    try:
        known = list(ns.__array_namespace_info__().devices())
    except Exception:  # a backend that cannot list them: the backend reads the text
        return device
    return next((d for d in known if device in (str(d), str(d).split(":")[0])), device)


def unknown_device(ns: Space, op: str, device: Any, error: Exception) -> ValueError | None:
    """The ValueError for ``op``'s ``device`` that failed with ``error``, if the backend has no such device.

    Looked at on the error path only: ``device`` is compared (as text, ``"cuda"``
    standing for ``"cuda:0"``) with the devices the namespace lists.
    """
    if device is None:
        return None
    try:
        known = list(ns.__array_namespace_info__().devices())
    except Exception:  # a backend that cannot list them: its own error stands
        return None
    if any(device is d or str(device) in (str(d), str(d).split(":")[0]) for d in known):
        return None
    return ValueError(
        f"{op}(): {device!r} is no device of the {ns._backend.name} backend here; its devices: "
        f"{', '.join(map(str, known))} ({type(error).__name__}: {error})"
    )


def _unsupported(other: Any, op: str, ns: Any = None, *, scalars: bool = True) -> TypeError:
    """The error for ``other`` given to ``op``: a bare native array (wrap it), or no array at all.

    ``scalars``: whether ``op`` also takes Python scalars there.
    """
    from promo_ns.backends import backend_of

    cls = type(other)
    name = cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    found = backend_of(other)
    if found is not None or is_numpy_like(other):
        mine = ns._backend.name if ns is not None else None
        theirs = found.name if found is not None else type(other).__module__
        if mine is not None and theirs != mine:
            return TypeError(
                f"{op!r} got a bare {name}, an array of another library than this {mine} namespace's; "
                f"wrap it with the {theirs} namespace (promo_ns.namespace({theirs!r}).asarray(x), "
                f"zero-copy), or convert it to {mine} first and wrap that with xp.asarray(x)."
            )
        return TypeError(
            f"{op!r} got a bare {name}; wrap it first with xp.asarray(x) (zero-copy) "
            "so that the policy can see its dtype."
        )
    takes = "promo_ns arrays and Python bool/int/float/complex" if scalars else "a promo_ns array"
    return TypeError(f"{op!r} takes {takes}, not {name}; make an array with xp.asarray(...) first.")


def _kernel_error(ns: Space, op: str, error: Exception, arrays: Sequence[Any]) -> Exception | None:
    """promo_ns's error for a kernel's ``error`` on native ``arrays``, or None to let it through.

    Arrays on two devices get :func:`device_error`; the backend reads the rest
    (:meth:`~promo_ns.backends.Backend.kernel_error`): shapes that do not fit,
    dtypes its kernel has no loop for.
    """
    for other in arrays[1:]:
        if not ns._backend.same_device(arrays[0], other):
            return device_error(arrays[0], other)
    return ns._backend.kernel_error(op, error, arrays)


def _no_kernel(ns: Space, op: str, plan: Plan, out: Any) -> TypeError:
    return TypeError(
        f"{ns._backend.name} has no {op!r} kernel that computes in {plan.compute} and returns "
        f"{DTYPES[plan.result >> 1]} (its kernel returned {ns._backend.dtype(out)}); the policy's "
        f"dtype cannot be produced on this backend. Cast the operands explicitly first."
    )
