"""Indexing torch tensors as NumPy indexes arrays: keys checked before anything is written.

torch's ``x[key] = value`` writes the elements before a bad index in a list or
array, then raises; it takes an index tensor of another device without a word
(a ``meta`` index on a CPU tensor reads or writes nothing it should); it reads a
``uint8`` index tensor as a mask, and refuses ``int16`` ones.  Here every key
is first turned into what torch indexes with as NumPy would (Python lists and
NumPy arrays into tensors on the array's device, NumPy scalars and 0-d arrays
into ints) and checked against the array (devices, bounds, mask shapes), so a
bad key raises promo_ns's error with nothing written.  torch has no negative
strides: a negative-step slice reads and writes through ``flip``.

An index tensor out of bounds stops a CUDA kernel at a device-side assert,
after which every CUDA call of the process fails, and ``take_along_dim``
reads other elements on the CPU: index tensors are looked at before any
kernel reads with them (one host sync on a GPU).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy
import torch

from promo_ns.backends import _torch_numerics as numerics
from promo_ns.backends import _torch_unsigned as unsigned

__all__ = [
    "INDEX_DTYPES",
    "INTEGER_DTYPES",
    "SELF_OVERLAP",
    "check_bounds",
    "getitem",
    "int64_indices",
    "mask_store",
    "setitem",
    "shared_memory_error",
]

Tensor = torch.Tensor
_BOOL, _HALF = torch.bool, torch.float16
_HALF_MAX = 65504.0
_INT64_MAX = 2**63 - 1
#: key parts torch and NumPy read alike, looked at no further (bool is an int subclass, but not an index).
_PLAIN = frozenset((int, slice, type(None), type(Ellipsis)))
_SCALARS = frozenset((bool, int, float, complex))
#: index tensor dtypes torch takes as they are; other integer ones are read as int64.
INDEX_DTYPES = frozenset((torch.int64, torch.int32))
INTEGER_DTYPES = frozenset(
    (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16, torch.uint32, torch.uint64)
)


def getitem(x: Tensor, key: Any) -> Tensor:
    """``x[key]``; slices with negative steps through ``flip``.

    Raises
    ------
    IndexError
        A key part that is no index (a float array), or an index out of bounds.
    ValueError
        An index tensor on another device than ``x``.
    """
    key = _native_key(x, key, write=False)
    reversed_dims, key = _positive_steps(x, key)
    return unsigned.index(unsigned.flip(x, reversed_dims) if reversed_dims else x, key)


def setitem(x: Tensor, key: Any, value: Any) -> None:
    """``x[key] = value``, every key part checked first: ``x`` is left untouched when it raises.

    Negative-step slices write through the positive-step slice of the same
    elements, the value reversed along those axes; with index tensors among
    the keys, through a flipped copy of ``x``, copied back once written.
    uint16/32/64 write through their signed bits where torch has no kernel.

    Raises
    ------
    IndexError
        An index out of bounds (naming the index, the axis and its size), a
        mask of the wrong shape, too many indices, or a key part of no index kind.
    ValueError
        An index tensor or the value on another device than ``x``; a value
        whose shape does not broadcast to the selection's; ``x`` a broadcast
        view whose elements share memory.
    """
    scalar = value.__class__ in _SCALARS and not (value.__class__ is int and value > _INT64_MAX)
    if scalar and key.__class__ is Tensor and mask_store(x, key, value) is not NotImplemented:
        return  # a mask on x's device, a scalar: nothing else to check
    if isinstance(value, Tensor) and value.device != x.device:
        raise ValueError(
            f"setitem: the value is on {value.device} and the array on {x.device}; move the value "
            "with value.to_device(x.device) first"
        )
    if not x.is_contiguous() and any(s == 0 and n > 1 for s, n in zip(x.stride(), x.shape, strict=True)):
        raise shared_memory_error("setitem", x)  # torch would write each shared element at once
    if value.__class__ is int and value > _INT64_MAX and x.dtype == torch.uint64:
        value = torch.scalar_tensor(value, dtype=x.dtype, device=x.device)
    elif isinstance(value, Tensor):  # index_put takes x's dtype only
        value = numerics.cast(value, x.dtype)
    key = _native_key(x, key, write=True)
    keys = key if isinstance(key, tuple) else (key,)
    reversed_dims, positive = _positive_steps(x, key)
    if x.device.type == "meta" and any(isinstance(k, Tensor) for k in keys):
        # No data: nothing is written, and torch checks no value against an index tensor's selection;
        # a mask selects a number of elements that is unknown.
        if not any(_is_mask(k) for k in keys):
            selection = tuple(x[_flip_key(x, key) if reversed_dims else key].shape)
            if not _fits(value, selection):
                raise _shape_error(value, selection, "")
        return
    try:
        if not reversed_dims:
            _write(x, key, value)
        elif any(isinstance(k, Tensor) for k in keys):
            flipped = unsigned.flip(x, reversed_dims)  # a copy, written, then copied back
            _write(flipped, positive, value)
            x.copy_(unsigned.flip(flipped, reversed_dims))
        else:
            target = unsigned.flip(x, reversed_dims)[positive]  # a copy: only its shape is used
            if isinstance(value, Tensor):
                dims = _result_dims(x.ndim, keys, reversed_dims)
                value = unsigned.flip(value.broadcast_to(target.shape), dims)
            _write(x, _flip_key(x, key), value)
    except RuntimeError as e:
        raise _write_error(x, positive, value, e, flipped=reversed_dims) from e


def mask_store(x: Tensor, key: Any, value: Any) -> Any:
    """``x[key] = value`` for a bool mask ``key`` on ``x``'s device; NotImplemented, writing nothing, else.

    ``value`` is a Python scalar the plan takes as it is.  Torch checks a mask
    before it writes; it does not check index tensors' bounds first, takes a
    CPU mask for a CUDA ``x``, checks no mask on the meta device, writes each
    shared element of a broadcast view, and writes an inference tensor before
    refusing it: those, and any error, are left to :func:`setitem`'s checks.
    """
    if (
        key.dtype is not _BOOL
        or (key.is_cpu is not True if x.is_cpu else (x.is_meta or key.device != x.device))
        or not x.is_contiguous()
        or x.is_inference()
    ):
        return NotImplemented
    if value.__class__ is float and x.dtype is _HALF:
        value = _once_to_half(value)
    try:
        x[key] = value
    except Exception:  # refused before writing: setitem's checks say why
        return NotImplemented
    return None


def _once_to_half(value: float) -> float:
    """``value`` rounded to float16 once, as NumPy rounds it (torch rounds a double through float32)."""
    if -_HALF_MAX <= value <= _HALF_MAX:
        return float(numpy.float16(value))
    with numpy.errstate(over="ignore"):  # beyond the range (or NaN): inf, as torch writes it
        return float(numpy.float16(value))


# --- keys ---------------------------------------------------------------------------------------


def _native_key(x: Tensor, key: Any, *, write: bool) -> Any:
    """``key`` with every part as torch indexes with it as NumPy would, checked against ``x``.

    Plain keys (ints, slices, None, ...), which torch checks before it reads or
    writes, are returned as they are.  ``write``: index tensors are checked on
    their device too (torch checks them while it writes).
    """
    if key.__class__ in _PLAIN or (key.__class__ is tuple and all(k.__class__ in _PLAIN for k in key)):
        return key
    parts = [_part(x, k) for k in (key if key.__class__ is tuple else (key,))]
    if sum(1 for k in parts if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_axes(k) for k in parts if k is not Ellipsis)
    if used > x.ndim:
        raise IndexError(f"too many indices for an array of {x.ndim} dimensions: {used} were indexed")
    axis = 0
    for i, k in enumerate(parts):
        if k is Ellipsis:
            axis += x.ndim - used
            continue
        parts[i] = _checked(x, k, axis, write=write)
        axis += _axes(k)
    return tuple(parts)


def _part(x: Tensor, k: Any) -> Any:
    """Key part ``k`` as a Python index or list of ints, a NumPy integer or bool array, or a tensor.

    Lists, arrays and tensors are checked against the array later (:func:`_checked`).

    Raises
    ------
    IndexError
        ``k`` is of no index kind (a float array, a string).
    ValueError
        ``k`` is a tensor on another device than ``x``.
    """
    if k.__class__ in _PLAIN or k.__class__ is bool:
        return k
    if isinstance(k, Tensor):
        if k.device != x.device:
            raise ValueError(
                f"an index array is on {k.device} and the array on {x.device}; move the index with "
                "i.to_device(x.device) first"
            )
        if k.dtype.is_floating_point or k.dtype.is_complex:
            raise _not_an_index(f"a {str(k.dtype).removeprefix('torch.')} array")
        return k
    if isinstance(k, list):
        if k and all(v.__class__ is int for v in k):
            return k  # integer indices, checked as they are
        try:
            k = numpy.asarray(k)
        except (ValueError, TypeError) as e:  # ragged lists, arrays of another device
            raise _not_an_index(f"the list {k!r} ({e})") from None
        if k.size == 0:
            k = k.astype(numpy.intp)  # NumPy reads [] as an empty integer index
    if isinstance(k, numpy.generic):
        k = numpy.asarray(k)
    if isinstance(k, numpy.ndarray):
        if k.dtype.kind not in "biu":
            raise _not_an_index(f"an array of {k.dtype}")
        return bool(k) if k.ndim == 0 and k.dtype.kind == "b" else int(k) if k.ndim == 0 else k
    try:
        return operator.index(k)
    except TypeError:
        raise _not_an_index(f"{type(k).__name__} {k!r}") from None


def _not_an_index(what: str) -> IndexError:
    return IndexError(
        f"an index is an int, a slice, ..., None, or an integer or boolean array (or a tuple of these); "
        f"got {what}. Convert it first, e.g. xp.astype(i, xp.int64)."
    )


def _is_mask(k: Any) -> bool:
    return isinstance(k, (Tensor, numpy.ndarray)) and k.dtype in (torch.bool, numpy.bool_) and k.ndim > 0


def _axes(k: Any) -> int:
    """How many axes of the array key part ``k`` consumes."""
    if k is None or k.__class__ is bool:
        return 0
    if isinstance(k, (Tensor, numpy.ndarray)) and k.dtype in (torch.bool, numpy.bool_):
        return int(k.ndim)
    return 1


def _checked(x: Tensor, k: Any, axis: int, *, write: bool) -> Any:
    """Key part ``k``, indexing ``x`` from ``axis`` on, checked and as torch takes it.

    Raises
    ------
    IndexError
        An index out of bounds, or a mask whose shape is not that of the axes it covers.
    """
    if k.__class__ is int:
        n = int(x.shape[axis])
        if not -n <= k < n:
            raise _out_of_bounds(k, axis, n, write=write)
        return k
    if k.__class__ is list:
        n = int(x.shape[axis])
        if min(k) < -n or max(k) >= n:
            raise _out_of_bounds(next(i for i in k if not -n <= i < n), axis, n, write=write)
        return torch.tensor(k, dtype=torch.int64, device=x.device)
    if not isinstance(k, (Tensor, numpy.ndarray)):
        return k
    if k.dtype in (torch.bool, numpy.bool_):
        if k.ndim == 0:  # torch reads a 0-d mask as a bool, which a meta tensor has not: same shape
            return True if isinstance(k, numpy.ndarray) or k.device.type == "meta" else k
        covered = tuple(x.shape[axis : axis + k.ndim])
        if tuple(k.shape) != covered:
            raise IndexError(
                f"a boolean index of shape {tuple(k.shape)} does not match the shape {covered} of the "
                f"axes {axis}..{axis + k.ndim - 1} it masks; nothing was written"
            )
        return torch.as_tensor(k, device=x.device) if isinstance(k, numpy.ndarray) else k
    n = int(x.shape[axis])
    if isinstance(k, numpy.ndarray):
        if k.size and (k.max() >= n or (k.dtype.kind == "i" and k.min() < -n)):
            raise _out_of_bounds(int(k[(k >= n) | (k < -n)][0]), axis, n, write=write)
        return torch.as_tensor(k.astype(numpy.int64, copy=False), device=x.device)
    if k.dtype not in INDEX_DTYPES:
        k = int64_indices(k, axis, n, write=write)
    if k.device.type == "meta":
        if k.ndim == 0:  # torch reads a 0-d index as an int, which a meta tensor has not: any valid one
            if n == 0:
                raise _out_of_bounds(0, axis, n, write=write)
            return 0
        return k
    if write or k.device.type != "cpu":  # torch's CPU kernels raise IndexError themselves on reading
        check_bounds(k, axis, n, write=write)
    return k


def int64_indices(indices: Tensor, axis: int, n: int, *, write: bool) -> Tensor:
    """Integer index tensor ``indices`` as int64, which every torch kernel takes (a uint64 one as its bits).

    Raises
    ------
    IndexError
        A uint64 index beyond int64, out of bounds of any axis.
    """
    signed = indices.view(torch.int64) if indices.dtype == torch.uint64 else indices.to(torch.int64)
    if indices.dtype == torch.uint64 and indices.device.type != "meta" and bool((signed < 0).any()):
        raise _out_of_bounds(int(signed[signed < 0][0]) + 2**64, axis, n, write=write)
    return signed


def check_bounds(indices: Tensor, axis: int, n: int, *, write: bool = False) -> None:
    """NumPy's IndexError for the first of integer tensor ``indices`` beyond an axis of size ``n``."""
    if indices.numel() and indices.device.type != "meta":
        low, high = torch.aminmax(indices)
        if bool((low < -n) | (high >= n)):  # one host sync on a GPU
            bad = (indices >= n) | (indices < -n)
            raise _out_of_bounds(int(indices[bad][0]), axis, n, write=write)


def _out_of_bounds(index: int, axis: int, n: int, *, write: bool) -> IndexError:
    done = "; nothing was written" if write else ""
    return IndexError(f"index {index} is out of bounds for axis {axis} with size {n}{done}")


# --- writing --------------------------------------------------------------------------------------

#: torch's words for an output and an input that share some memory (it checks before writing).
_OVERLAP = "some elements of the input tensor and the written-to tensor refer to a single memory location"
#: torch's words for a Python scalar beyond the range of the tensor's dtype.
_OUT_OF_RANGE = "without overflow"
#: torch's words for an output whose elements share memory (a broadcast view).
SELF_OVERLAP = "more than one element of the written-to tensor refers to a single memory location"


def _write(x: Tensor, key: Any, value: Any) -> None:
    """``x[key] = value``; a value sharing memory with ``x`` is copied first, as NumPy reads it whole.

    A Python float beyond a float ``x``'s range is the infinity a cast gives
    (torch refuses it); uint16/32/64 write through their signed bits where
    torch has no kernel.
    """
    if value.__class__ is float and x.dtype is _HALF:
        value = _once_to_half(value)
    try:
        _assign(x, key, value)
    except RuntimeError as e:
        if isinstance(value, Tensor) and _OVERLAP in str(e):
            _assign(x, key, value.clone())
        elif value.__class__ in (float, complex) and _OUT_OF_RANGE in str(e):
            _assign(x, key, numerics.scalar_tensor(value, x.dtype, x.device))
        else:
            raise


def _assign(x: Tensor, key: Any, value: Any) -> None:
    try:
        x[key] = value
    except NotImplementedError:
        if x.dtype not in unsigned.SIGNED:
            raise
        x.view(unsigned.SIGNED[x.dtype])[key] = unsigned.setitem_value(x, value)


def shared_memory_error(op: str, x: Tensor) -> ValueError:
    """The error for writing into ``x``, a view whose elements share memory (``broadcast_to``'s)."""
    return ValueError(
        f"{op}: cannot write into this array of shape {tuple(x.shape)}: several of its elements share "
        "memory (a broadcast view, e.g. from xp.broadcast_to, is read-only); copy it first with "
        "xp.asarray(x, copy=True)"
    )


def _write_error(
    x: Tensor, key: Any, value: Any, error: RuntimeError, *, flipped: tuple[int, ...]
) -> Exception:
    """promo_ns's error for torch's RuntimeError writing ``value`` into ``x[key]``.

    ``key`` selects on ``x`` flipped along the axes ``flipped`` (positive steps).
    """
    if SELF_OVERLAP in str(error):
        return shared_memory_error("setitem", x)
    selection = tuple(unsigned.index(unsigned.flip(x, flipped) if flipped else x, key).shape)
    if not _fits(value, selection):
        return _shape_error(value, selection, f" ({error})")
    shape = tuple(value.shape) if isinstance(value, Tensor) else ()
    dtype = str(value.dtype if isinstance(value, Tensor) else type(value).__name__).removeprefix("torch.")
    return ValueError(
        f"setitem: torch could not write a value of shape {shape} and type {dtype} into the selection "
        f"of shape {selection} of a {str(x.dtype).removeprefix('torch.')} array: {error}"
    )


def _fits(value: Any, selection: tuple[int, ...]) -> bool:
    """Whether ``value`` (a tensor or a Python scalar) broadcasts to the shape ``selection``."""
    if not isinstance(value, Tensor):
        return True
    try:
        return numpy.broadcast_shapes(tuple(value.shape), selection) == selection
    except ValueError:
        return False


def _shape_error(value: Any, selection: tuple[int, ...], why: str) -> ValueError:
    return ValueError(
        f"setitem: cannot assign a value of shape {tuple(value.shape)} to the selection of shape "
        f"{selection}; the value must broadcast to it{why}"
    )


# --- negative steps -----------------------------------------------------------------------------


def _is_bool_tensor(k: Any) -> bool:
    return isinstance(k, Tensor) and k.dtype == torch.bool


def _expanded(ndim: int, keys: tuple[Any, ...]) -> list[Any]:
    """``keys`` with the Ellipsis written out as full slices (one per axis it stands for)."""
    consumed = sum(_axes(k) for k in keys if k is not Ellipsis)
    out: list[Any] = []
    for k in keys:
        if k is Ellipsis:
            out += [slice(None)] * (ndim - consumed)
        else:
            out.append(k)
    return out


def _negative_slices(x: Tensor, key: Any) -> list[tuple[int, int, slice]]:
    """``(position in the expanded key, axis of x, slice)`` of every slice with a negative step."""
    keys = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, slice) and k.step is not None and k.step < 0 for k in keys):
        return []
    out = []
    axis = 0
    for i, k in enumerate(_expanded(x.ndim, keys)):
        if isinstance(k, slice) and k.step is not None and k.step < 0:
            out.append((i, axis, k))
        axis += _axes(k)
    return out


def _positive_steps(x: Tensor, key: Any) -> tuple[tuple[int, ...], Any]:
    """The axes to flip and the key that selects, on the flipped array, what ``key`` selects on ``x``."""
    found = _negative_slices(x, key)
    if not found:
        return (), key
    keys = _expanded(x.ndim, key if isinstance(key, tuple) else (key,))
    for i, axis, k in found:
        n = int(x.shape[axis])
        start, stop, step = k.indices(n)
        count = len(range(start, stop, step))
        first = n - 1 - start
        keys[i] = slice(first, first + count * -step, -step) if count else slice(0, 0)
    return tuple(axis for _, axis, _ in found), tuple(keys)


def _flip_key(x: Tensor, key: Any) -> tuple[Any, ...]:
    """The key with positive steps selecting on ``x`` itself the elements a negative-step ``key`` selects."""
    keys = _expanded(x.ndim, key if isinstance(key, tuple) else (key,))
    for i, axis, k in _negative_slices(x, key):
        start, stop, step = k.indices(int(x.shape[axis]))
        picked = range(start, stop, step)
        keys[i] = slice(picked[-1], picked[0] + 1, -step) if picked else slice(0, 0)
    return tuple(keys)


def _result_dims(ndim: int, keys: tuple[Any, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """The dimensions of ``x[keys]`` (basic indexing only) that the given axes of ``x`` become."""
    out, axis, dim = [], 0, 0
    for k in _expanded(ndim, keys):
        if k is None:
            dim += 1
            continue
        if isinstance(k, slice):
            if axis in axes:
                out.append(dim)
            dim += 1
        axis += _axes(k)
    return tuple(out)
