"""What the JAX adapter checks before JAX runs: index keys, new arrays' sizes and fill values, 64-bit dtypes.

JAX checks none of these the way NumPy does: it drops writes out of bounds,
aborts the process on a shape whose size overflows, and wraps a fill value
its dtype cannot hold.  Each check looks only at what is known before JAX
runs (Python ints, NumPy data, concrete JAX arrays, static shapes); a
tracer's values are unknown until the compiled program runs, and JAX's own
semantics apply there.
"""

from __future__ import annotations

import functools
import math
import operator
import os
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from promo_ns._dtypes import DType, canonical, complex128, float64, int64, uint64
from promo_ns.backends._values import check_counts, taken_axis

__all__ = [
    "WIDE",
    "JaxX64Error",
    "check_bounds",
    "check_size",
    "checked_creators",
    "checked_repeat",
    "checked_take",
    "concrete_extremes",
    "in_wide",
    "is_tracer",
    "jax_key",
    "refuse_wide_data",
    "require_x64",
    "x64_enabled",
    "x64_error",
]


# --- index keys ------------------------------------------------------------------------------


def is_tracer(x: Any) -> bool:
    """Whether ``x`` is a tracer: its values are unknown while JAX traces."""
    return isinstance(x, jax.core.Tracer)


def jax_key(key: Any) -> Any:
    """Index ``key`` as JAX takes it: lists as NumPy index arrays, NumPy bools as Python bools.

    JAX refuses a list of indices (NumPy takes it as an index array) and
    fails on a NumPy bool scalar (NumPy takes it as Python's bool).
    """
    if isinstance(key, tuple):
        return tuple(_jax_part(k) for k in key)
    return _jax_part(key)


def _jax_part(k: Any) -> Any:
    if isinstance(k, list):
        return np.asarray(k) if k else np.asarray(k, dtype=np.intp)
    if isinstance(k, np.bool_):
        return bool(k)
    return k


def _consumed(k: Any) -> int:
    """How many axes of the indexed array key component ``k`` stands for."""
    if k is None or isinstance(k, bool):
        return 0
    dtype = getattr(k, "dtype", None)
    if dtype is not None and dtype.kind == "b":
        return int(k.ndim)
    return 1


def _first_outside(k: Any, n: int) -> int | None:
    """The first integer in index ``k`` outside ``[-n, n)``; None if none is or ``k``'s values are unknown.

    A concrete JAX array's values are read (waiting for the device); a tracer's are unknown.
    """
    if isinstance(k, bool | jax.core.Tracer):
        return None
    if isinstance(k, int | np.integer):
        return int(k) if not -n <= k < n else None
    kind = getattr(getattr(k, "dtype", None), "kind", None)
    if kind not in ("i", "u") or k.size == 0:
        return None
    if isinstance(k, jax.Array) and any(d.platform != "cpu" for d in k.devices()):
        # Also a concrete array closed over by a jitted function: its bounds are computed eagerly, on
        # its device (on the CPU, NumPy reads the same memory without compiling max and min for it).
        with jax.ensure_compile_time_eval():
            if bool(k.max() < n) and (kind == "u" or bool(k.min() >= -n)):
                return None
    k = np.asarray(k)
    outside = (k >= n) if kind == "u" else (k < -n) | (k >= n)
    return int(k[outside].flat[0]) if outside.any() else None


def check_bounds(x: Any, key: Any, *, writing: bool = True) -> None:
    """Raise IndexError for a concrete integer index in ``key`` out of ``x``'s bounds.

    Indices that are tracers are JAX's to handle (``x.at[key].set`` drops the
    writes out of bounds, ``x[key]`` clamps the reads): their values are
    unknown until the program runs.  A concrete JAX array of indices is read
    (one wait for the device, as on CuPy and torch on a GPU): a clamped read
    would be silently wrong.

    Raises
    ------
    IndexError
        An index is out of bounds: its value, the axis and the axis's size.
    """
    keys = key if isinstance(key, tuple) else (key,)
    axis = 0
    for k in keys:
        if k is Ellipsis:
            axis += x.ndim - sum(_consumed(c) for c in keys if c is not Ellipsis)
            continue
        if axis < x.ndim and (bad := _first_outside(k, int(x.shape[axis]))) is not None:
            done = "nothing was written" if writing else "JAX would read the nearest element instead"
            size = x.shape[axis]
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {size}; {done}")
        axis += _consumed(k)


def checked_take(take: Callable[..., Any], *, default_axis: int | None) -> Callable[..., Any]:
    """``take`` or ``take_along_axis`` (``default_axis``: its ``axis`` unless given), indices checked.

    JAX fills what an index out of bounds reads (nan, or the dtype's lowest
    integer): such an index is NumPy's IndexError instead.  ``take_along_axis``'s
    indices of other dimensions get JAX's shape error first; traced ones are JAX's.
    """

    @functools.wraps(take)
    def checked(x: Any, indices: Any, /, **kwargs: Any) -> Any:
        taken = taken_axis(x, indices, kwargs.get("axis", default_axis), along=default_axis is not None)
        if taken is None:  # JAX's own error comes first
            return take(x, indices, **kwargs)
        dim, n = taken
        bad = _first_outside(indices, n)
        if bad is not None:
            name = take.__name__
            raise IndexError(f"{name}: index {bad} is out of bounds for axis {dim} with size {n}")
        return take(x, indices, **kwargs)

    return checked


# --- sizes of new arrays ------------------------------------------------------------------------

#: The most bytes (and elements) an array can have: XLA aborts the process past it.
_MOST = 2**63 - 1
#: Arrays below this many bytes are made without asking the device how much memory it has.
_SMALL = 2**30


def concrete_extremes(values: Any) -> tuple[int, int] | None:
    """The least and the greatest of a nonempty concrete integer array; None for a tracer or an empty one."""
    if not isinstance(values, jax.Array) or is_tracer(values) or not values.size:
        return None
    host = np.asarray(values)
    return (int(host.min()), int(host.max())) if host.dtype.kind in "iu" else None


def checked_repeat(x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
    """``jax.numpy.repeat``, a concrete array of counts checked first (:func:`.check_counts`).

    JAX took a negative count as none and a uint64 count past int64 as none, silently.
    A traced array of counts is JAX's to take.
    """
    if (extremes := concrete_extremes(repeats)) is not None:
        check_counts(*extremes)
    return jax.numpy.repeat(x, repeats, axis=axis)


def _memory(device: Any) -> int | None:
    """The bytes ``device`` can hold: its memory limit (GPUs), the machine's memory (CPUs), or None."""
    try:
        stats = device.memory_stats()
    except (AttributeError, NotImplementedError, RuntimeError):  # a platform that keeps no statistics
        stats = None
    if stats and stats.get("bytes_limit"):
        return int(stats["bytes_limit"])
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # no sysconf (Windows): left to JAX
        return None


def _words(n: int) -> str:
    """``n`` bytes in words, e.g. ``"7.3 TiB"``."""
    size = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if size < 1024 or unit == "EiB":
            return f"{n} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def check_size(name: str, shape: tuple[int, ...], dtype: Any, device: Any) -> None:
    """Refuse to make an array of ``shape`` that no device can hold, before JAX tries (and aborts).

    Raises
    ------
    ValueError
        The array's size or bytes pass ``2**63 - 1``, past which XLA aborts
        the process (NumPy's "array is too big").
    MemoryError
        Its bytes pass the device's memory (a GPU's limit, a CPU's RAM).
    """
    count = math.prod(shape)
    itemsize = np.dtype(dtype).itemsize if dtype is not None else 8
    nbytes = count * itemsize
    if nbytes < _SMALL:
        return
    what = f"{name}() of shape {shape} ({count} elements of {np.dtype(dtype) if dtype else 'float'})"
    if count > _MOST or nbytes > _MOST:
        raise ValueError(
            f"{what} is too big: {nbytes} bytes, past the most an array can have (2**63 - 1 bytes), "
            "where JAX would abort the process; ask for a smaller shape"
        )
    device = device if device is not None and hasattr(device, "platform") else jax.devices()[0]
    memory = _memory(device)
    if memory is not None and nbytes > memory:
        raise MemoryError(
            f"{what} needs {_words(nbytes)}, more than the {_words(memory)} device {device} has; "
            "ask for a smaller shape or a smaller dtype"
        )


def out_of_memory(name: str, error: Exception) -> MemoryError | None:
    """promo_ns's MemoryError for JAX's RESOURCE_EXHAUSTED (an allocation that failed), else None."""
    if "RESOURCE_EXHAUSTED" not in str(error):
        return None
    return MemoryError(f"{name}(): the device ran out of memory ({str(error).splitlines()[0]})")


def arange_count(start: Any, stop: Any = None, step: Any = 1) -> int:
    """The number of values ``arange(start, stop, step)`` makes (NumPy's ``ceil((stop - start) / step)``)."""
    if stop is None:
        start, stop = 0, start
    if all(isinstance(v, int) for v in (start, stop, step)):
        return max(0, -(operator.index(start - stop) // operator.index(step)))
    return max(0, math.ceil((float(stop) - float(start)) / float(step)))


def _shape(shape: Any, *_: Any, **__: Any) -> tuple[int, ...]:
    return tuple(map(operator.index, shape)) if isinstance(shape, tuple | list) else (operator.index(shape),)


def _eye(n_rows: Any, n_cols: Any = None, /, *_: Any, **__: Any) -> tuple[int, ...]:
    return (operator.index(n_rows), operator.index(n_rows if n_cols is None else n_cols))


def _meshgrid(*arrays: Any, **_: Any) -> tuple[int, ...]:
    return tuple(math.prod(a.shape) for a in arrays)  # the shape of each of its outputs


#: The shape each creating function of ``jax.numpy`` makes, from its arguments.
_SHAPES: dict[str, Callable[..., tuple[int, ...]]] = {
    **dict.fromkeys(("zeros", "ones", "empty", "full"), _shape),
    "broadcast_to": lambda x, /, shape, **_: _shape(shape),
    "eye": _eye,
    "arange": lambda *args, **_: (arange_count(*args),),
    "linspace": lambda start, stop, num, *_, **__: (operator.index(num),),
    "meshgrid": _meshgrid,
    "fft.fftfreq": lambda n, *_, **__: (operator.index(n),),
    "fft.rfftfreq": lambda n, *_, **__: (operator.index(n) // 2 + 1,),
}


def _checked(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` that checks the size of what it makes first (and a Python int ``full`` fills with)."""
    shape_of = _SHAPES[name]

    @functools.wraps(fn)
    def make(*args: Any, **kwargs: Any) -> Any:
        try:
            shape = shape_of(*args, **kwargs)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            shape = None  # arguments JAX refuses itself (promo_ns words its refusal)
        dtype = kwargs.get("dtype")
        if shape is not None:
            like = args[0] if name in ("broadcast_to", "meshgrid") and args else None
            check_size(name, shape, getattr(like, "dtype", dtype), kwargs.get("device"))
        if name == "full" and len(args) > 1:
            _check_fill(args[1], dtype)
        try:
            return fn(*args, **kwargs)
        except jax.errors.JaxRuntimeError as e:
            error = out_of_memory(name, e)
            if error is None:
                raise
            raise error from e

    return make


def _check_fill(value: Any, dtype: Any) -> None:
    """NumPy's OverflowError for a Python int fill value out of an integer dtype's range (JAX wraps it)."""
    if value.__class__ is not int or dtype is None or np.dtype(dtype).kind not in "iu":
        return
    info = np.iinfo(dtype)
    if not info.min <= value <= info.max:
        raise OverflowError(
            f"full() got fill_value {value}, out of bounds for {np.dtype(dtype)} [{info.min}, {info.max}]; "
            "pass a value that fits, or a wider dtype"
        )


def checked_creators(module: Any) -> dict[str, Callable[..., Any]]:
    """``module``'s (``jax.numpy``'s or ``jax.numpy.fft``'s) creating functions, checking sizes first."""
    prefix = "fft." if module.__name__.endswith(".fft") else ""
    return {
        name[len(prefix) :]: _checked(name, getattr(module, name[len(prefix) :]))
        for name in _SHAPES
        if name.startswith(prefix) and (prefix or not name.startswith("fft."))
    }


# --- 64-bit dtypes ---------------------------------------------------------------------------

#: The dtypes JAX has only with ``jax_enable_x64`` on.
WIDE = frozenset((int64, uint64, float64, complex128))


class JaxX64Error(TypeError):
    """A 64-bit dtype was needed while ``jax_enable_x64`` is off (JAX would silently give 32 bits)."""


def x64_enabled() -> bool:
    """Whether JAX has its 64-bit dtypes now (``jax_enable_x64``, also inside ``jax.enable_x64(...)``)."""
    return bool(jax.config.read("jax_enable_x64"))  # type: ignore[no-untyped-call]


#: The 32-bit dtype JAX makes of each 64-bit one while x64 is off.
_NARROW = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}


def require_x64(dtype: DType) -> None:
    """Raise JaxX64Error where ``dtype`` is 64-bit and x64 is off (JAX would narrow it)."""
    if dtype in WIDE and not x64_enabled():
        raise x64_error(dtype)


def in_wide(fn: Callable[..., Any], compute: DType, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` in 64-bit ``compute``; JaxX64Error where x64 is off (JAX narrows)."""
    require_x64(compute)
    return fn(*args, **kwargs)


def x64_error(dtype: DType, what: str | None = None) -> JaxX64Error:
    """The JaxX64Error for ``dtype``; ``what`` says what needed it (default: the jax backend)."""
    narrow = _NARROW[dtype.name]
    return JaxX64Error(
        f"{what or f'the jax backend needs {dtype} here'}, which JAX has only with 64-bit types enabled "
        f"(jax_enable_x64 is off, and JAX would silently make it {narrow}); promo_ns does not narrow "
        "a dtype the policy gives. Enable them before creating arrays: "
        "jax.config.update('jax_enable_x64', True) (or JAX_ENABLE_X64=1, or a `with "
        f"jax.enable_x64(True):` block), or ask for {narrow} explicitly (dtype=xp.{narrow}, "
        f"xp.astype(x, xp.{narrow})), or use a policy whose default dtypes are 32-bit: "
        "promo_ns.get_policy(name).derive(new_name, defaults={...})."
    )


def refuse_wide_data(op: str, obj: Any) -> None:
    """A JaxX64Error for data of a 64-bit dtype (a NumPy array or scalar): JAX, x64 off, would narrow it."""
    dtype = getattr(obj, "dtype", None)
    try:
        wide = None if dtype is None else canonical(dtype)
    except TypeError:  # no dtype promo_ns knows: JAX's to take or refuse
        return
    if wide in WIDE:
        kind = f"{type(obj).__module__}.{type(obj).__name__}"
        raise x64_error(wide, f"{op}() got {kind} data of dtype {wide}")
