"""Helpers the chapters share: binding functions to a namespace, one-array functions the policy decides."""

from __future__ import annotations

import functools
import inspect
import operator
from collections.abc import Callable
from functools import partial
from typing import Any

from promo_ns._context import innermost
from promo_ns._convert import is_numpy_like, native_argument, wrap_any
from promo_ns._dtypes import (
    DTYPES,
    DType,
    bfloat16,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int64,
    real_float,
    uint16,
    uint32,
)
from promo_ns._engine.functions import delegated_dtype
from promo_ns._engine.operands import PromotionError
from promo_ns._functions._arguments import with_rules
from promo_ns._operands import Space
from promo_ns._plan import finish, kernel_failure, one_array
from promo_ns._plan_functions import MAKERS, planned
from promo_ns._plan_repeats import keep, repeating
from promo_ns._report import ran, report_decided
from promo_ns.backends import Backend
from promo_ns.backends._base import cast_before, empty_reduction

__all__ = [
    "OWN_AXIS_CHECK",
    "SIGNATURES",
    "WIDER",
    "bind",
    "checked_axis",
    "checking_axes",
    "decided",
    "in_policy_dtype",
    "owner_function",
    "sequence_of",
]


#: The standard's signatures of functions built by factories (which take ``**kwargs``).
SIGNATURES: dict[str, Callable[..., None]] = {}
#: Functions that check their keyword ``axis`` themselves (:func:`checked_axis`): no wrapper checks it.
OWN_AXIS_CHECK: set[str] = set()
#: The standard's signature of a one-array function without keywords (``sin``, ``linalg.inv``).
_ONE_ARRAY = inspect.signature(lambda ns, x, /: None)


def bind(fn: Callable[..., Any], ns: Space) -> Callable[..., Any]:
    """``fn`` with the namespace as its first argument, named, documented and signed like the standard's.

    A function with a maker (:data:`~promo_ns._plan_functions.MAKERS`) runs its
    compiled plans first, in its own frame, and this general path for the rest.
    """
    bound = functools.update_wrapper(functools.partial(fn, ns), fn)
    sig = _bound_signature(fn)
    bound.__signature__ = sig  # type: ignore[attr-defined]
    general = with_rules(bound, fn.__name__)
    if fn.__name__ not in OWN_AXIS_CHECK:
        general = checking_axes(general, fn.__name__, sig)  # the axes checked first
    make = MAKERS.get(fn)
    if make is None:
        return general
    made = functools.update_wrapper(make(ns, general), fn)
    made.__signature__ = sig  # type: ignore[attr-defined]
    return made


@functools.cache
def _bound_signature(fn: Callable[..., Any]) -> inspect.Signature:
    """The standard's signature of ``fn`` bound to a namespace: its template's, else its own less ``ns``."""
    template = SIGNATURES.get(fn.__name__)
    if template is not None:
        return inspect.signature(template)
    sig = inspect.signature(fn)
    return sig.replace(parameters=list(sig.parameters.values())[1:])


#: Parameters naming axes: an int, a tuple of ints, or None (``axes``: a sequence of ints, or None).
_AXIS_PARAMETERS = ("axis", "source", "destination", "axes")
#: Functions whose ``axis`` is one int (or None) in the standard, not a tuple.
_ONE_AXIS = frozenset(
    (
        "argmax", "argmin", "argsort", "sort", "concat", "stack", "unstack", "cumulative_sum",
        "cumulative_prod", "take", "take_along_axis", "repeat", "diff", "vecdot", "cross",
        "fft", "ifft", "rfft", "irfft", "hfft", "ihfft",
    )
)  # fmt: skip


def checking_axes(fn: Callable[..., Any], name: str, sig: inspect.Signature | None) -> Callable[..., Any]:
    """``fn`` checking the type of its axis arguments first, if it has any; else ``fn`` itself.

    An axis that is no int (a str, a float, a bool, a list, a tuple holding
    one of those) is promo_ns's TypeError naming the argument, on every
    backend: the libraries' own errors range from NumPy's "'str' object cannot
    be interpreted as an integer" to JAX's NameError for an unbound axis name
    (a str axis is a named axis there) and wrong results (a float axis).
    """
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    parameters = list(sig.parameters.values()) if sig is not None else []
    places = {
        p.name: i if p.kind in positional else None
        for i, p in enumerate(parameters)
        if p.name in _AXIS_PARAMETERS
    }
    if sig is None:  # a function written in C (torch's): the standard's places
        places = _STANDARD_PLACES.get(name, {"axis": None})
    if not places or name == "tensordot":  # tensordot's axes: an int or two sequences
        return fn
    one = name in _ONE_AXIS

    if places == {"axis": None}:  # the common case: one keyword-only axis
        along = 2 if name.rpartition(".")[2] in ("vecdot", "cross") else 1  # the arrays the axis is of

        @functools.wraps(fn)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                axis = kwargs.get("axis")
                if axis is not None:
                    if axis.__class__ is not int:
                        axis = kwargs["axis"] = _checked_axes(name, "axis", axis, one)
                    for x in args[:along]:
                        _within(name, "axis", axis, x, 0)
            return fn(*args, **kwargs)

        return checked

    new_axes = name == "expand_dims"  # its axes are the result's: one more per axis given

    @functools.wraps(fn)
    def checked_all(*args: Any, **kwargs: Any) -> Any:
        for parameter, i in places.items():
            if i is None or i >= len(args):
                value = kwargs.get(parameter)
                if value is not None and value.__class__ is not int:
                    value = kwargs[parameter] = _checked_axes(name, parameter, value, one)
            elif (value := args[i]) is not None and value.__class__ is not int:
                value = _checked_axes(name, parameter, value, one)
                args = (*args[:i], value, *args[i + 1 :])
            if value is not None and args:
                beyond = (len(value) if isinstance(value, (tuple, list)) else 1) if new_axes else 0
                _within(name, parameter, value, args[0], beyond)
        return fn(*args, **kwargs)

    return checked_all


def _within(name: str, parameter: str, value: Any, x: Any, beyond: int) -> None:
    """Check ``value`` (an int, or a tuple or list of them) against the axes of promo_ns array ``x``.

    ``beyond``: how many axes the result has beyond ``x``'s (``expand_dims``'s, one per axis).

    Raises
    ------
    numpy.exceptions.AxisError
        An axis outside ``-ndim .. ndim - 1`` (a ValueError and an IndexError), on every backend: the
        libraries disagree on a 0-d array's ``axis=0``, NumPy's reductions taking it.
    ValueError
        A tuple naming an axis twice (as NumPy refuses it; torch's is a RuntimeError, Dask's
        ``sum`` takes it).
    """
    if not hasattr(x, "_k") or not hasattr(x, "_x"):  # a sequence of arrays (concat, stack): the function's
        return
    n = x.ndim + beyond
    several = isinstance(value, (tuple, list))
    for axis in value if several else (value,):
        if axis.__class__ is int and not -n <= axis < n:
            from numpy.exceptions import AxisError

            raise AxisError(
                f"{name}(): {parameter} {axis} is out of bounds for an array of {x.ndim} dimension"
                f"{'' if x.ndim == 1 else 's'} (axes {-n} .. {n - 1})"
            )
    if several and name != "roll":  # roll's axes pair with its shifts: one may come twice
        seen = [a % n for a in value if a.__class__ is int]
        if len(set(seen)) < len(seen):
            raise ValueError(
                f"{name}(): {parameter} {tuple(value)!r} names an axis twice (axes of {x.ndim} "
                f"dimensions, counted from the end where negative); name each once"
            )


#: The positional axis arguments of the standard's functions that have any.
_STANDARD_PLACES: dict[str, dict[str, int | None]] = {
    "moveaxis": {"source": 1, "destination": 2},
    "squeeze": {"axis": 1},
    "expand_dims": {"axis": 1},
    "permute_dims": {"axes": 1},
}


def _is_axis(value: Any) -> bool:
    return value.__class__ is not bool and hasattr(value, "__index__")


def checked_axis(name: str, axis: Any) -> Any:
    """Keyword ``axis`` of ``name`` (not an int) checked as :func:`checking_axes`'s wrapper checks it."""
    return _checked_axes(name, "axis", axis, name in _ONE_AXIS)


def _checked_axes(name: str, parameter: str, value: Any, one: bool) -> Any:
    """``value`` of ``name``'s ``parameter`` as Python ints (also from NumPy's), checked.

    Raises
    ------
    TypeError
        ``value`` is not what ``parameter`` takes.
    """
    many = (tuple, list) if parameter == "axes" else tuple
    if value.__class__ is tuple and not one and all(a.__class__ is int for a in value):
        return value  # the common case, first
    if _is_axis(value):
        try:
            return operator.index(value)
        except (TypeError, ValueError):  # an array of several elements, or lazy: the function's to refuse
            return value
    if not one and isinstance(value, many) and all(map(_is_axis, value)):
        return type(value)(map(operator.index, value))
    if one:
        takes = "an int or None"
    elif parameter in ("source", "destination"):
        takes = "an int or a tuple of ints"
    elif parameter == "axes":
        takes = "a tuple of ints or None"
    else:
        takes = "an int, a tuple of ints or None"
    hint = f" (a tuple, not a list: {parameter}={tuple(value)!r})" if isinstance(value, list) else ""
    raise TypeError(f"{name}() takes {parameter} as {takes}, not {type(value).__name__} {value!r}{hint}")


def sequence_of(ns: Space, arrays: list[Any]) -> tuple[Any, ...] | list[Any]:
    """Several arrays as the namespace's version returns them: a tuple from 2025.12, a list before."""
    return list(arrays) if ns.__array_api_version__ < "2025.12" else tuple(arrays)


def owner_function(ns: Space, name: str) -> Callable[..., Any]:
    """``array_api_compat.<backend>``'s function ``name`` (``"log"``, ``"linalg.inv"``)."""
    return _compat_function(ns._backend, name)


@functools.cache
def _compat_function(backend: Backend, name: str) -> Callable[..., Any]:
    owner, _, short = name.rpartition(".")
    compat = backend.compat
    return getattr(getattr(compat, owner) if owner else compat, short)  # type: ignore[no-any-return]


def in_policy_dtype(ns: Space, name: str, x: Any, call: Callable[[], Any]) -> Any:
    """``call()``, the backend's own function ``name`` of promo_ns array ``x``, in the policy's dtype.

    The result dtype is the policy's (see :func:`~promo_ns._engine.functions.delegated_dtype`):
    the backend's result is cast to it, or ``x``'s dtype is refused before anything runs.
    """
    try:
        dtype = delegated_dtype(ns.policy_now(), name, DTYPES[x._k >> 1])
    except PromotionError:
        report_decided(name, x, None)
        raise
    out = finish(ns, call(), dtype)
    report_decided(name, x, dtype)
    return out


def decided(name: str, *, like: str | None = None) -> Callable[..., Any]:
    """The one-array function ``name`` whose result dtype the active policy decides.

    The operand is cast to the dtype the function computes in, the backend's
    own function runs, and the result comes back in the policy's dtype.  A
    function of several results (``linalg.eigh``, ``linalg.slogdet``) returns
    them as computed in that dtype (eigenvalues real, vectors of the
    computed dtype).  Where the backend has no kernel for that dtype, the
    function runs in a wider one of the same values (see :data:`WIDER`) and
    its results are cast back.  ``like`` names a function whose grid cell
    decides the dtype ``name`` computes in, its results then kept as computed
    (``linalg.eigvals`` computes like ``linalg.inv``, and returns complex).
    """
    short = name.rpartition(".")[2]

    def one(ns: Space, x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:
            _check_arguments(name, args, kwargs)
        result, native_x = one_array(ns, name, x, like=like)
        fn = owner_function(ns, name)
        if args or kwargs:  # promo_ns arrays among them (``rtol``) go to the backend as its own
            args = tuple(native_argument(ns, a, name) for a in args)
            kwargs = {k: native_argument(ns, v, name) for k, v in kwargs.items()}
        widened = False
        try:
            if ns._backend.lazy and name.startswith("linalg.") and ns._backend.dtype(native_x) in _NO_LAPACK:
                # a lazy backend would fail only when computing: LAPACK has no 16-bit floats
                raise TypeError(f"no LAPACK kernel for {ns._backend.dtype(native_x)}")
            out = fn(native_x, *args, **kwargs)
        except Exception as e:
            if "LinAlgError" in type(e).__name__:  # NumPy's is a ValueError, torch's a RuntimeError
                raise ValueError(f"{name}() cannot compute on this input: {e}") from e
            # NumPy's linalg refuses ml_dtypes' bfloat16 with a ValueError ("not inexact"): no kernel.
            no_dtype = isinstance(e, ValueError) and ns._backend.dtype(native_x) in WIDER
            if not isinstance(e, (TypeError, RuntimeError, NotImplementedError)) and not no_dtype:
                raise kernel_failure(ns, name, e, (native_x,))  # noqa: B904 - its cause is set
            out = _in_wider_dtype(ns, name, partial(fn, *args, **kwargs), native_x, e)
            widened = True
        if like is not None or isinstance(out, tuple):
            ran(name)
            return wrap_any(ns, _in_precision_of(ns, out, native_x))
        backend = ns._backend
        repeatable = not (args or kwargs or widened) and x._ns is ns and innermost() is None
        if repeatable and backend.dtype(backend.to_array(out)) is result:
            cast = native_x is not x._x
            run = partial(cast_before, backend.astype, backend.dtype(native_x), fn) if cast else fn
            keep(ns, one, x._k, run, result)
        return finish(ns, out, result, name)

    one.__name__ = one.__qualname__ = short
    one.__doc__ = f"``{name}`` of the Array API standard, with the result dtype of the active policy."
    one.__signature__ = _ONE_ARRAY  # type: ignore[attr-defined]  # SIGNATURES adds keywords
    return planned(one, functools.partial(repeating, one))


def _check_arguments(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """A TypeError naming ``name`` and its signature for arguments the standard's signature does not take.

    Backends take extra arguments of their own (NumPy's ``eigvalsh(x, UPLO)``,
    Dask's ``imag(x, deg)``): a misplaced value would reach them and be
    misread, or fail in their words.
    """
    sig = _standard_signature(name)
    if not args and kwargs.keys() <= _keywords(name):
        return
    try:
        sig.bind(None, *args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{name}{sig}: {e}; pass the array, then the standard's keywords by name") from None


@functools.cache
def _standard_signature(name: str) -> inspect.Signature:
    """The standard's signature of one-array function ``name`` (read once)."""
    template = SIGNATURES.get(name.rpartition(".")[2])
    return _X_ONLY if template is None else inspect.signature(template)


@functools.cache
def _keywords(name: str) -> frozenset[str]:
    """The keyword-only parameters of one-array function ``name``: these alone always bind."""
    kinds = (inspect.Parameter.KEYWORD_ONLY,)
    return frozenset(p.name for p in _standard_signature(name).parameters.values() if p.kind in kinds)


#: The standard's signature of a one-array function without keywords.
_X_ONLY = inspect.Signature([inspect.Parameter("x", inspect.Parameter.POSITIONAL_ONLY)])


#: Where a backend lacks a function's kernel for a dtype: the dtype that holds every value of it.
WIDER: dict[DType, DType] = {float16: float32, bfloat16: float32, uint16: int64, uint32: int64}
#: Dtypes NumPy's LAPACK (Dask's per block) has no kernel for.
_NO_LAPACK = frozenset((float16, bfloat16))
#: Statistics of integers where the policy keeps the integer dtype (Paddle's ``mean``): computed in float64.
_STATISTICS = frozenset(("mean", "std", "var"))


def _in_wider_dtype(ns: Space, name: str, fn: Callable[[Any], Any], x: Any, error: Exception) -> Any:
    """``fn(x)`` computed in the dtype :data:`WIDER` gives ``x``'s, its array results cast back."""
    backend = ns._backend
    dtype = backend.dtype(x)
    wider = float64 if name in _STATISTICS and dtype.kind in "iu" else WIDER.get(dtype)
    if wider is None:
        raise _no_kernel(ns, name, x, error) from error
    try:
        out = fn(backend.astype(x, wider))
    except (TypeError, RuntimeError, NotImplementedError) as e:
        raise _no_kernel(ns, name, x, e) from e

    def back(o: Any) -> Any:
        is_array = isinstance(o, backend.array_type) or is_numpy_like(o)
        return backend.astype(o, dtype) if is_array and backend.dtype(o) is wider else o

    return _each_result(out, back)


def _each_result(out: Any, fn: Callable[[Any], Any]) -> Any:
    """``fn`` of a function's result, or of each of its results (a tuple or named tuple)."""
    if not isinstance(out, tuple):
        return fn(out)
    parts = [fn(o) for o in out]
    return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)


def _in_precision_of(ns: Space, out: Any, x: Any) -> Any:
    """A result (or tuple of results) with each floating part in the precision ``x`` computes in.

    NumPy computes the linalg of ml_dtypes' bfloat16 in float64 (it is no
    NumPy float): its eigenvalues, factors and ``slogdet`` come back to
    bfloat16, and complex eigenvalues to complex64, the narrowest complex
    dtype holding bfloat16's values (as torch gives them).
    """
    backend = ns._backend
    real = real_float(backend.dtype(x)) if backend.dtype(x).kind in "fc" else None
    complex_ = None if real is None else (complex128 if real is float64 else complex64)

    def back(o: Any) -> Any:
        if real is None or not (isinstance(o, backend.array_type) or is_numpy_like(o)):
            return o
        have = backend.dtype(o)
        want = {"f": real, "c": complex_}.get(have.kind)
        return o if want is None or have is want else backend.astype(o, want)

    return _each_result(out, back)


#: Words of a library's RuntimeError for a dtype it has no kernel for; any other is about the input.
_NO_KERNEL_WORDS = ("not implemented", "not supported", "unsupported", "scalar type", "floating point")


def _no_kernel(ns: Space, name: str, x: Any, error: Exception) -> Exception:
    """The error for ``name`` of native array ``x`` that failed with ``error`` also in a wider dtype.

    A TypeError where the backend has no kernel for the dtype; a ValueError
    with the library's words where its RuntimeError is about the input
    (torch's ``max()`` of an empty array, ``matrix_norm`` of a vector).
    """
    text, dtype = str(error), ns._backend.dtype(x)
    empty = empty_reduction(name, error, str(tuple(x.shape)))
    if empty is not None:
        return empty
    if type(error) is RuntimeError and not any(w in text.lower() for w in _NO_KERNEL_WORDS):
        return ValueError(f"{name}() cannot compute on this input: {text}")
    return TypeError(
        f"{ns._backend.name} has no {name!r} kernel for {dtype}, the dtype policy "
        f"{ns.policy_now().name!r} computes {name!r} in here, nor one in a wider dtype holding its "
        f"values; cast explicitly first, e.g. {name}(xp.astype(x, xp.float64))."
    )
