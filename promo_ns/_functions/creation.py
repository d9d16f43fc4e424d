"""Creation functions: Python data gets the active policy's default dtypes."""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

from promo_ns._convert import (
    array_of,
    is_numpy_like,
    native,
    native_device,
    operand_of,
    unknown_device,
    wrap,
)
from promo_ns._dtypes import INT_RANGE, DType, a_or_an, canonical
from promo_ns._engine.operands import Operand, PromotionError, operand
from promo_ns._engine.resolution import check_kept, promote_elements
from promo_ns._functions._common import SIGNATURES, sequence_of
from promo_ns._functions._creation_values import (
    INT64_MAX,
    INT64_MIN,
    PYTHON_SCALARS,
    as_python,
    buffer_data,
    check_int_range,
    check_no_copy,
    check_spaced,
    checked_fill,
    floats_with_big_ints,
    holding,
    into_real,
    leaves_of,
    offers_array,
    python_scalars,
    ragged,
    short,
)
from promo_ns._operands import Space
from promo_ns._report import report_default, report_kept
from promo_ns.policies import Policy, Role, get_policy

__all__ = ["DELEGATED", "FUNCTIONS", "creation_kwargs"]

DELEGATED = ("empty_like", "from_dlpack", "ones_like", "tril", "triu", "zeros_like")

_DEFAULT_KIND = {bool: "bool", int: "int", float: "float", complex: "complex"}
_KIND_NAME = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}


def creation_kwargs(ns: Space, kwargs: dict[str, Any], kind: str | None, op: str = "") -> dict[str, Any]:
    """Native ``dtype=``/``device=`` for creation function ``op``: the policy's default dtype of ``kind``.

    A default taken is reported to a ``compare`` block, if any.
    """
    dtype = kwargs.get("dtype")
    if dtype is None and kind is not None:
        dtype = ns.policy_now().defaults[kind]
        report_default(op, kind, dtype)
    if dtype is not None:
        kwargs["dtype"] = ns._backend.native_dtype(canonical(dtype, f"{op}()'s dtype" if op else ""))
    if kwargs.get("device") is None and ns._device is not None:
        kwargs["device"] = ns._device
    elif kwargs.get("device").__class__ is str:
        kwargs["device"] = native_device(ns, kwargs["device"])
    return kwargs


def _kind_of_scalar(x: Any) -> str:
    for t, kind in _DEFAULT_KIND.items():
        if isinstance(x, t):
            return kind
    raise _bad_fill_value(x)


def _bad_fill_value(x: Any, name: str = "full") -> TypeError:
    example = "xp.full(shape, float(value))" if name == "full" else "xp.full_like(x, float(value))"
    return TypeError(
        f"{name}() takes a Python bool, int, float or complex fill_value, not {type(x).__name__} "
        f"{short(x)}; convert it first, e.g. {example}"
    )


def _is_size(x: Any) -> bool:
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def _created(ns: Space, name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` wrapped; a bad size, value or device gets promo_ns's error, not the backend's.

    Only on the error path are the arguments looked at: sizes (a shape, ``n``,
    ``num``) must be ints or tuples of them, not negative; ``arange``'s and
    ``linspace``'s bounds real (or complex) numbers; ``full``'s value a scalar.
    """
    if ns._backend.lazy and (bad := _bad_arguments(name, args)) is not None:
        raise bad  # a lazy library takes a negative size, and fails only when computing
    try:
        return wrap(fn(*args, **kwargs), ns)
    except (
        TypeError,
        ValueError,
        RuntimeError,
        AttributeError,
        ZeroDivisionError,
        AssertionError,
        OverflowError,
    ) as e:  # AssertionError: torch's for a CUDA device in a build without CUDA
        error = _bad_arguments(name, args) or unknown_device(ns, name, kwargs.get("device"), e)
        if error is None:
            raise
        raise error from e


#: Per creation function, what each positional argument is: a shape, a size, a number.
_ARGUMENTS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("empty", "ones", "zeros", "full"), ("shape",)),
    "eye": ("n_rows", "n_cols"),
    **dict.fromkeys(("fftfreq", "rfftfreq"), ("n",)),
    "arange": ("start", "stop", "step"),
    "linspace": ("start", "stop", "num"),
}


def _bad_arguments(name: str, args: tuple[Any, ...]) -> Exception | None:
    """promo_ns's error for creation function ``name``'s positional arguments; None if they are fine."""
    for arg, value in zip(_ARGUMENTS.get(name, ()), args, strict=False):
        if arg == "shape":
            sizes = value if isinstance(value, (tuple, list)) else (value,)  # a list, as NumPy takes
            if not all(map(_is_size, sizes)):
                return TypeError(
                    f"{name}() takes a shape: an int or a tuple of ints, not {type(value).__name__} "
                    f"{short(value)}; e.g. xp.{name}((2, 3))"
                )
            if any(operator.index(s) < 0 for s in sizes):
                return ValueError(f"{name}() got a negative size in the shape {value!r}; sizes are >= 0")
        elif arg in ("n_rows", "n_cols", "n", "num"):
            if value is None and arg == "n_cols":
                continue
            if not _is_size(value):
                return TypeError(
                    f"{name}()'s {arg} must be an int, not {type(value).__name__} {short(value)}"
                )
            if operator.index(value) < 0:
                return ValueError(f"{name}()'s {arg} must be >= 0, not {value!r}")
        elif (value is not None or arg == "start") and not isinstance(
            value, (int, float) if name == "arange" else (int, float, complex)
        ):
            return TypeError(
                f"{name}()'s {arg} must be a Python int or float, not {type(value).__name__} {short(value)}"
            )
        elif arg == "step" and value == 0:
            return ValueError(f"{name}()'s step must not be zero; e.g. xp.arange(0, 10, 2)")
        elif name == "arange" and isinstance(value, float) and not math.isfinite(value):
            return ValueError(
                f"arange()'s {arg} must be finite, not {value!r}: the count of values has no end"
            )
    if name == "full" and len(args) > 1 and not isinstance(args[1], (bool, int, float, complex)):
        return _bad_fill_value(args[1])
    return None


def asarray(
    ns: Space,
    obj: Any,
    /,
    *,
    dtype: DType | None = None,
    device: Any = None,
    copy: bool | None = None,
    **options: Any,
) -> Any:
    """An array from an object: a promo_ns or native array (zero-copy), a scalar, a nested sequence.

    Without ``dtype``, Python data gets the active policy's default dtype of its kind.
    ``options`` are the backend's own keywords, passed to its ``asarray`` (Dask's ``chunks=``).
    """
    backend = ns._backend
    if dtype is not None:  # a name or another library's dtype names one of promo_ns's
        dtype = canonical(dtype, "asarray()'s dtype")
    if isinstance(obj, (str, bytes)):  # NumPy's string scalars: parsed by NumPy, read as bytes by torch
        raise _not_data(obj)
    if copy is False:
        check_no_copy(obj, dtype)
    if obj.__class__ is ns.Array:
        obj = native(ns, obj)
    elif isinstance(obj, (list, tuple)):
        leaves = list(leaves_of(obj))
        text = next((leaf for leaf in leaves if isinstance(leaf, (str, bytes))), None)
        if text is not None:
            raise _not_data(text, nested=True)
        other = next((leaf for leaf in leaves if not _nested_leaf(ns, leaf)), None)
        if other is not None:  # NumPy's .item() of it raised "can only convert an array of size 1"
            shape = tuple(getattr(other, "shape", ()))
            raise TypeError(
                f"asarray() got {a_or_an(type(other).__name__)} of shape {shape} inside nested data; it "
                "takes promo_ns arrays, NumPy scalars and Python bool/int/float/complex there: make each "
                "an array and stack them, xp.stack([xp.asarray(a) for a in data])"
            )
        if any(type(leaf) not in PYTHON_SCALARS for leaf in leaves):
            if ns.policy_now().nested != "refused" or any(leaf.__class__ is ns.Array for leaf in leaves):
                out = _nested(ns, obj, leaves, dtype, device)
                return asarray(ns, out, copy=False, **options) if options else out
            obj = python_scalars(obj)  # NumPy scalars alone: as the Python scalars they hold
    elif not isinstance(obj, (*PYTHON_SCALARS, backend.array_type)):
        buffer = buffer_data(obj)
        obj = obj if buffer is None else buffer
    if dtype is not None and isinstance(obj, (list, tuple, float, complex)):
        obj = into_real(obj, dtype)
    kwargs = creation_kwargs(ns, {"dtype": dtype, "device": device, **options}, None)
    try:
        x = backend.asarray(obj, copy=copy, **kwargs)
        have = backend.dtype(x)
    except (TypeError, ValueError, OverflowError, RuntimeError, NotImplementedError) as e:
        if isinstance(obj, (list, tuple, int)):
            if (error := _int_out_of_range(ns, obj, dtype)) is not None:
                raise error from e
            if (shapes := ragged(obj)) is not None:
                raise ValueError(
                    f"asarray() got nested sequences of different lengths ({shapes}); an array has one "
                    "length per dimension: pad them, or make one array of each"
                ) from e
            if dtype is None and floats_with_big_ints(obj):  # NumPy makes an object array
                return asarray(ns, obj, dtype=_data_dtype(ns, obj), device=device, copy=copy, **options)
        raise
    unsigned_data = dtype is not None and dtype.kind == "u" and isinstance(obj, (list, tuple, int))
    if unsigned_data and (error := _int_out_of_range(ns, obj, dtype)) is not None:
        raise error  # torch wraps a negative int into an unsigned dtype
    if dtype is None and not isinstance(obj, backend.array_type) and not is_numpy_like(obj):
        want = ns.policy_now().defaults[_KIND_NAME[have.kind]]
        report_default("asarray", _KIND_NAME[have.kind], want)
        if have.kind in "uif" and (error := _int_out_of_range(ns, obj, dtype)) is not None:
            # NumPy made uint64 or float64 of an int beyond int64, or int64 of one beyond the
            # policy's 32-bit default int: neither is the policy's
            raise error
        if have is not want and have.kind != "u":
            x = backend.asarray(
                obj, copy=copy, **creation_kwargs(ns, {"dtype": want, "device": device, **options}, None)
            )
    return wrap(x, ns)


def _int_out_of_range(ns: Space, obj: Any, dtype: DType | None) -> OverflowError | None:
    """The error for a Python int in ``obj`` beyond ``dtype``, or beyond the policy's default int dtype.

    Only looked at where the backend refused the data or made a dtype the
    policy did not ask for: NumPy makes uint64, float64 or object arrays of
    ints beyond int64, torch raises, JAX and Dask raise NumPy's words.  Data
    with a float or complex in it, or a floating ``dtype``, takes any int.
    """
    if dtype is None:
        if any(isinstance(v, (float, complex)) for v in leaves_of(obj)):
            return None
        target = ns.policy_now().defaults["int"]
    elif dtype.kind in "iu":
        target = dtype
    else:
        return None
    lo, hi = INT_RANGE[target]
    bad = next((v for v in leaves_of(obj) if v.__class__ is int and not lo <= v <= hi), None)
    if bad is None:
        return None
    whose = "the policy's default integer dtype " if dtype is None else ""
    return OverflowError(
        f"asarray() got the Python int {short(bad)}, out of range of {whose}{target} ({lo}..{hi}); "
        f"{holding(bad, bad)}, or convert the data first."
    )


def _data_dtype(ns: Space, obj: Any) -> DType:
    """The policy's default dtype of the highest kind of Python data ``obj``: float, or complex."""
    kind = "complex" if any(isinstance(v, complex) for v in leaves_of(obj)) else "float"
    dtype: DType = ns.policy_now().defaults[kind]
    return dtype


def _nested(ns: Space, obj: Any, leaves: list[Any], dtype: DType | None, device: Any) -> Any:
    """``asarray`` of nested data holding arrays or NumPy scalars: the policy promotes across the elements.

    Raises
    ------
    PromotionError
        The policy refuses arrays inside nested data, or the elements' dtypes.
    ValueError
        The elements' shapes do not stack.
    """
    policy = ns.policy_now()
    arrays = [leaf for leaf in leaves if leaf.__class__ is ns.Array]
    if dtype is None:
        dtype = _nested_dtype(ns, policy, leaves, arrays)
    dtype = canonical(dtype)
    kwargs = creation_kwargs(ns, {"dtype": dtype, "device": device}, None)
    backend = ns._backend

    def build(item: Any) -> Any:
        if isinstance(item, (list, tuple)):
            parts = [build(i) for i in item]
            if not parts:
                return backend.asarray([], **kwargs)
            try:
                return backend.compat.stack(parts)
            except (ValueError, RuntimeError) as e:
                shapes = sorted({tuple(p.shape) for p in parts})
                raise ValueError(f"asarray() of nested data whose elements have shapes {shapes}: {e}") from e
        if item.__class__ is ns.Array:
            return backend.astype(native(ns, item), dtype)
        return backend.asarray(item.item() if is_numpy_like(item) else item, **kwargs)

    return wrap(build(obj), ns)


def _nested_dtype(ns: Space, policy: Policy, leaves: list[Any], arrays: list[Any]) -> DType:
    if arrays and policy.nested == "refused":
        raise PromotionError(
            f"policy {policy.name!r} refuses asarray() of nested data holding arrays ({policy.reference}). "
            "Fix: xp.stack([...]) the arrays, or xp.asarray a list of Python scalars."
        )
    rules = get_policy(policy.nested_rules) if policy.nested_rules else policy
    operands = []
    for leaf in leaves:
        if leaf.__class__ is ns.Array:
            operands.append(Operand(leaf.dtype, Role.ND))
        elif is_numpy_like(leaf) and policy.nested != "refused":
            operands.append(Operand(canonical(leaf.dtype), Role.ND))
        elif isinstance(leaf, PYTHON_SCALARS) or is_numpy_like(leaf):
            value = leaf.item() if is_numpy_like(leaf) else leaf
            if rules.nested == "weak-scalars":
                operands.append(operand(value))
            else:
                operands.append(Operand(rules.defaults[_DEFAULT_KIND[type(value)]], Role.ND))
        else:
            raise TypeError(
                f"asarray() got {a_or_an(type(leaf).__name__)} inside nested data; it takes promo_ns arrays, "
                "NumPy scalars and Python bool/int/float/complex"
            )
    return promote_elements(rules, "asarray", operands)


def _refusing_other_data(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``asarray`` whose backend's error on data that is no array (a dict, None, a str) is promo_ns's."""

    @functools.wraps(fn)
    def make(ns: Space, obj: Any, /, **kwargs: Any) -> Any:
        try:
            return fn(ns, obj, **kwargs)
        except (TypeError, ValueError, RuntimeError, AssertionError) as e:  # torch's for a CUDA device
            bad = next((leaf for leaf in leaves_of(obj) if not _array_data(ns, leaf)), _OK)
            if bad is _OK or isinstance(e, PromotionError):
                given = kwargs.get("device")
                device = unknown_device(ns, "asarray", ns._device if given is None else given, e)
                if device is None:
                    raise
                raise device from e
            raise _not_data(bad, nested=bad is not obj) from e

    return make


_OK = object()


def _nested_leaf(ns: Space, leaf: Any) -> bool:
    """Whether nested data may hold ``leaf``: a Python or NumPy scalar (or 0-d array), a promo_ns array."""
    if leaf.__class__ in PYTHON_SCALARS or leaf.__class__ is ns.Array:
        return True
    return is_numpy_like(leaf) and getattr(leaf, "ndim", 0) == 0


def _not_data(bad: Any, *, nested: bool = False) -> TypeError:
    """The error for ``bad``, which ``asarray`` cannot read as data (``nested``: inside a list)."""
    where = " inside nested data" if nested else ""
    return TypeError(
        f"asarray() cannot make an array of {type(bad).__name__} {short(bad)}{where}; it takes "
        "promo_ns or native arrays, Python bool/int/float/complex, nested lists or tuples of "
        "them, and objects with __array__, __dlpack__ or the buffer protocol"
    )


def _array_data(ns: Space, x: Any) -> bool:
    """Whether ``asarray`` can read ``x`` as data: a scalar, an array, or an object offering its buffer."""
    if x.__class__ is ns.Array or isinstance(x, (*PYTHON_SCALARS, ns._backend.array_type)):
        return True
    if is_numpy_like(x) or offers_array(x):
        return True
    try:
        memoryview(x)
    except TypeError:
        return False
    return True


def _creation(name: str, kind: str | None) -> Callable[..., Any]:
    """``name`` (``"ones"``, ``"fft.fftfreq"``) with the policy's default ``kind`` dtype."""
    owner, _, short = name.rpartition(".")

    def create(ns: Space, *args: Any, **kwargs: Any) -> Any:
        compat = ns._backend.compat
        fn = getattr(getattr(compat, owner) if owner else compat, short)
        dtype = kwargs.get("dtype")
        if owner == "fft" and dtype is not None and canonical(dtype, f"{short}()'s dtype").kind != "f":
            raise ValueError(
                f"{name}() makes real floating-point frequencies: its dtype must be a real floating-point "
                f"dtype (the standard's rule), not {canonical(dtype)}; e.g. dtype=xp.float64"
            )
        return _created(ns, short, fn, *args, **creation_kwargs(ns, kwargs, kind, short))

    create.__name__ = create.__qualname__ = short
    create.__doc__ = (
        f"``{name}`` of the Array API standard; without ``dtype``, the policy's default {kind} dtype."
    )
    return create


def full(ns: Space, shape: Any, fill_value: Any, *, dtype: DType | None = None, device: Any = None) -> Any:
    """An array of ``shape`` filled with ``fill_value``; without ``dtype``, the policy's default dtype."""
    kind = None if dtype is not None else _kind_of_scalar(fill_value)
    target = None if dtype is None else canonical(dtype, "full()'s dtype")
    kwargs = creation_kwargs(ns, {"dtype": target, "device": device}, kind, "full")  # a dtype it lacks first
    filled = target if kind is None else ns.policy_now().defaults[kind]
    assert filled is not None  # a dtype given, or the policy's default of the value's kind
    fill_value = checked_fill("full", fill_value, filled)
    return _created(ns, "full", ns._backend.compat.full, shape, native(ns, fill_value), **kwargs)


def full_like(
    ns: Space, x: Any, /, fill_value: Any, *, dtype: DType | None = None, device: Any = None
) -> Any:
    """An array shaped like ``x`` filled with ``fill_value``; without ``dtype``, ``x``'s dtype."""
    native_x = array_of(ns, x, "full_like")
    if fill_value.__class__ not in _DEFAULT_KIND:
        raise _bad_fill_value(fill_value, "full_like")
    target = x.dtype if dtype is None else canonical(dtype, "full_like()'s dtype")
    kwargs: dict[str, Any] = {} if device is None else {"device": native_device(ns, device)}
    if dtype is not None:
        kwargs["dtype"] = ns._backend.native_dtype(target)  # a dtype the backend lacks, before the value
    fill_value = checked_fill("full_like", fill_value, target)
    return _created(ns, "full_like", ns._backend.compat.full_like, native_x, fill_value, **kwargs)


def arange(
    ns: Space,
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: DType | None = None,
    device: Any = None,
) -> Any:
    """Evenly spaced values; without ``dtype``, the policy's default int or float dtype.

    bool values are NumPy's on every backend: at most two, ``bool(start)`` and
    ``bool(start + step)``; a longer sequence has no bool meaning (NumPy raises,
    torch and JAX have no kernel).
    """
    # NumPy scalars (a size from NumPy's arithmetic) count as the Python numbers they hold: np.int64(3)
    # was a float bound, and Dask refused it
    start, stop, step = (as_python(v) for v in (start, stop, step))
    step = 1 if step is None else step  # as NumPy takes it
    bad = _bad_arguments("arange", (start, stop, step))
    if bad is not None:  # torch and Dask take apart NaN, inf and complex bounds in their own words
        raise bad
    dtype = None if dtype is None else canonical(dtype, "arange()'s dtype")
    first, last = (0, start) if stop is None else (start, stop)
    if dtype is not None and dtype.kind == "b":
        try:
            n = max(0, math.ceil((last - first) / step))
        except (TypeError, ZeroDivisionError, ValueError, OverflowError) as e:
            raise ValueError(
                f"arange() cannot count the values from {first!r} to {last!r} by {step!r} ({e}); "
                "give finite bounds"
            ) from e
        if n > 2:
            raise TypeError(
                f"arange() of bool gives at most 2 values, bool(start) and bool(start + step), and "
                f"these bounds give {n}; make the values, then compare: xp.arange(start, stop, step) != 0"
            )
        values = [bool(first), bool(first + step)][:n]
        return ns.asarray(values, dtype=dtype, device=device)
    ints = all(isinstance(v, int) for v in (start, stop, step) if v is not None)
    target = dtype if dtype is not None or not ints else ns.policy_now().defaults["int"]
    if target is not None and target.kind in "iu":  # float bounds too: NumPy's OverflowError, not wrapping
        check_int_range(start, stop, step, target, default=dtype is None)
    if _count(first, last, step) > INT64_MAX:  # NumPy's arange(2**63) was empty, the others' errors their own
        raise ValueError(
            f"arange() from {first!r} to {last!r} by {step!r} would make more values than an array "
            f"can hold ({INT64_MAX}); narrow the bounds or take a larger step"
        )
    kwargs = creation_kwargs(ns, {"dtype": dtype, "device": device}, "int" if ints else "float", "arange")
    out = _created(ns, "arange", ns._backend.compat.arange, start, stop, step, **kwargs)
    if (
        stop is not None
        and start == 0
        and math.copysign(1.0, start) < 0
        and out.dtype.kind in "fc"
        and out.size
    ):
        # NumPy's first value is start itself, -0.0; the others' start + 0 * step is +0.0
        zero = complex(-0.0, 0.0) if out.dtype.kind == "c" else -0.0
        out = ns.concat([ns.full((1,), zero, dtype=out.dtype, device=out.device), out[1:]])
    return out


def _count(first: float, last: float, step: float) -> float:
    """How many values ``arange`` makes: exact for ints, infinite past what a float holds."""
    if all(isinstance(v, int) for v in (first, last, step)):
        return -((first - last) // step)
    try:
        return math.ceil((last - first) / step)
    except OverflowError:  # an int bound past 1e308 with a float step
        return math.inf


def linspace(
    ns: Space,
    start: int | float | complex,
    stop: int | float | complex,
    /,
    num: int,
    *,
    dtype: DType | None = None,
    device: Any = None,
    endpoint: bool = True,
) -> Any:
    """``num`` evenly spaced values; without ``dtype``, the policy's default float (complex) dtype."""
    kind = "complex" if isinstance(start, complex) or isinstance(stop, complex) else "float"
    dtype = None if dtype is None else canonical(dtype, "linspace()'s dtype")
    if kind == "complex" and dtype is not None and dtype.kind in "iu":
        raise TypeError(
            f"linspace() cannot space {dtype} values between the complex bounds {start!r} and "
            f"{stop!r} (NumPy has no complex floor); give real bounds, or a complex dtype and cast the result"
        )
    kwargs = creation_kwargs(ns, {"dtype": dtype, "device": device}, kind, "linspace")
    # an int beyond int64 as its float64, which NumPy spaces in (it makes an object array of it,
    # torch and JAX raise in their words)
    start, stop = (
        float(b) if b.__class__ is int and not INT64_MIN <= b <= INT64_MAX else b for b in (start, stop)
    )
    bad = next((b for b in (start, stop) if isinstance(b, float) and not math.isfinite(b)), None)
    if bad is not None:  # NumPy's values are NaN and infinities, in a pattern of its own; torch's another
        raise ValueError(f"linspace() spaces finite bounds only, not {bad!r}; pass finite start and stop")
    if dtype is not None and num.__class__ is int and num > 0:
        check_spaced(start, stop, num, endpoint, dtype)
    return _created(
        ns, "linspace", ns._backend.compat.linspace, start, stop, num, endpoint=endpoint, **kwargs
    )


def meshgrid(ns: Space, *arrays: Any, indexing: str = "xy") -> tuple[Any, ...] | list[Any]:
    """``meshgrid`` of the Array API standard: a tuple of arrays (a list in 2024.12).

    No array changes dtype; a policy that names a family for ``meshgrid`` holds the
    arrays to it (PyTorch's and the standard's: one dtype; :func:`.check_kept`).
    """
    reshape = ns._backend.compat.reshape
    natives = [array_of(ns, x, "meshgrid") for x in arrays]
    natives = [reshape(x, (1,)) if x.ndim == 0 else x for x in natives]  # JAX refuses what others take
    try:
        check_kept(ns.policy_now(), "meshgrid", [operand_of(ns, x) for x in arrays])
    except PromotionError:
        report_kept("meshgrid", arrays, refused=True)
        raise
    out = ns._backend.compat.meshgrid(*natives, indexing=indexing)
    report_kept("meshgrid", arrays, refused=False)
    return sequence_of(ns, [wrap(x, ns) for x in out])


_SIGNATURES: dict[str, Callable[..., None]] = {
    "empty": lambda shape, *, dtype=None, device=None: None,
    "ones": lambda shape, *, dtype=None, device=None: None,
    "zeros": lambda shape, *, dtype=None, device=None: None,
    "eye": lambda n_rows, n_cols=None, /, *, k=0, dtype=None, device=None: None,
    "fftfreq": lambda n, /, *, d=1.0, dtype=None, device=None: None,
    "rfftfreq": lambda n, /, *, d=1.0, dtype=None, device=None: None,
}
SIGNATURES.update(_SIGNATURES)

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "asarray": _refusing_other_data(asarray),
    "arange": arange,
    "linspace": linspace,
    "full": full,
    "full_like": full_like,
    "meshgrid": meshgrid,
    **{name: _creation(name, "float") for name in ("empty", "ones", "zeros", "eye")},
}
FFT_FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: _creation(f"fft.{name}", "float") for name in ("fftfreq", "rfftfreq")
}
