"""The Dask adapter: the NumPy adapter, run block by block in a lazy graph.

Dask arrays promote as NumPy does (their dtype is the NumPy dtype of their
``_meta``), so the NumPy adapter's decisions hold unchanged: a ``direct`` cell
runs ``dask.array``'s own ufunc, and every other cell runs the NumPy
adapter's kernel on each block (:func:`_blocks_binary`, :func:`_blocks_inplace`),
casting inside NumPy's ufunc as on NumPy arrays.  Everything the policy
decides is decided while the graph is built, from dtypes and shapes; nothing
here computes.  The NumPy kernel first runs on the operands' empty ``_meta``
arrays, so that a dtype NumPy has no kernel for raises when the op is
written, as on NumPy, not when the graph is computed.

In-place ops and setitem are Dask's own ``out=`` and ``x[key] = value``: the
Dask array object gets a graph computing the new values in its old dtype, so
every reference to it sees them.  (Where its shape is unknown, after a
boolean mask, Dask cannot take ``out=``: the wrapper holds the new Dask array
instead.)  A kernel's error that depends on values (an integer ``pow`` with a
negative exponent, an index array out of bounds) comes when the graph is
computed.

Dask arrays are lazy: converting one to a Python scalar (``bool``, ``int``,
``float``, ``complex``, ``__index__``) would compute its graph, and the
standard says lazy arrays should raise a ValueError there instead; the
wrapper does so where its backend's ``lazy`` is true.  A test harness that
reads values through Python scalars (the array-api-tests suite) turns that
off for its process with :func:`compute_conversions`; library code computes
explicitly instead.
"""

from __future__ import annotations

import operator
from functools import cache, partial
from math import isnan
from typing import Any

import dask.array as dask_array
import numpy
from dask.array.core import elemwise, handle_out

from promo_ns._dtypes import BY_NAME, DType
from promo_ns.backends._base import Plan
from promo_ns.backends._dask_compat import DaskCompat
from promo_ns.backends.numpylike import NumpyLike

__all__ = ["DaskBackend", "DaskCompat", "compute_conversions"]


# --- the blocks: NumPy's kernels -------------------------------------------------------------


@cache
def _numpy() -> NumpyLike:
    """The NumPy adapter, which computes every block (also in a worker process)."""
    return NumpyLike("numpy")


@cache
def _plan(compute: str, direct: bool, to_bool: bool, rounded: str | None = None) -> Plan:
    """The part of a plan the NumPy adapter reads, from what travels in a task (names and flags)."""
    return Plan(
        0, BY_NAME[compute], direct, to_bool, False, True, None, BY_NAME[rounded] if rounded else None
    )


def _blocks_binary(
    op: str, compute: str, to_bool: bool, x: Any, y: Any, *, rounded: str | None = None
) -> Any:
    """One block of ``x op y`` computed in dtype ``compute`` (names; ``rounded`` too) by the NumPy adapter."""
    return _numpy().binary(op, x, y, _plan(compute, False, to_bool, rounded))


def _blocks_inplace(op: str, compute: str, direct: bool, x: Any, y: Any) -> Any:
    """One block of ``x op= y`` in ``x``'s dtype, computed in ``compute`` into a new block.

    A block may be shared with other graphs (a view of the NumPy array the
    Dask array was made from): it is never written to.
    """
    out = numpy.empty_like(x)
    _numpy().inplace(op, x, y, _plan(compute, direct, False), out)
    return out


def _meta(x: Any) -> Any:
    """What a block function sees of operand ``x`` when it runs on no data: Dask's ``_meta``, or ``x``."""
    return x._meta if isinstance(x, dask_array.Array) else x


def _in_bounds(n: int, index: Any) -> Any:
    """Block of an index array, checked against an axis of size ``n`` when the graph is computed."""
    if index.size and (index.min() < -n or index.max() >= n):
        bad = index[(index < -n) | (index >= n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis of size {n}")
    return index


# --- the adapter ---------------------------------------------------------------------------


class DaskBackend(NumpyLike):
    """``dask.array``: NumPy's promotion on lazy arrays, NumPy's kernels on each block.

    What Dask arrays share with NumPy's (dtypes, ``astype``, reductions with
    ``dtype=``, ``to_array``, the ufuncs of ``direct`` cells) is the
    NumPy-like adapter's code.
    """

    #: Arrays are lazy: Python scalars of them would compute the graph, so the wrapper refuses
    #: (unless :func:`compute_conversions` turned that off).
    lazy = True

    def __init__(self) -> None:
        super().__init__("dask", "dask.array", array_type="Array")
        self.compat = DaskCompat(self.compat)

    def native_dtype(self, dtype: DType) -> Any:
        """NumPy's dtype for ``dtype`` (Dask arrays hold NumPy dtypes; bfloat16 through ml_dtypes)."""
        return _numpy().native_dtype(dtype)

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``: the NumPy adapter's kernel on each pair of blocks.

        The kernel runs on the operands' ``_meta`` first: NumPy's error for a
        dtype it has no kernel for comes now, and the result's dtype is the
        one NumPy's kernel gives.
        """
        rounded = plan.rounded.name if plan.rounded else None
        fn = partial(_blocks_binary, op, plan.compute.name, plan.to_bool, rounded=rounded)
        return elemwise(fn, x, y, dtype=fn(_meta(x), _meta(y)).dtype)

    def inplace(self, op: str, x: Any, y: Any, plan: Plan, out: Any = None) -> Any:
        """``x op= y`` in ``x``'s dtype: ``x`` gets a graph computing it, as with Dask's ``out=``.

        Returns None, or, where ``x``'s shape is unknown (Dask refuses
        ``out=`` there), the new Dask array for the wrapper to hold.

        Raises
        ------
        ValueError
            ``y`` broadcasts ``x`` to another shape.
        TypeError
            NumPy has no kernel for these dtypes.
        """
        fn = partial(_blocks_inplace, op, plan.compute.name, plan.direct)
        fn(_meta(x), _meta(y))
        result = elemwise(fn, x, y, dtype=x.dtype)
        if not _same_shape(result.shape, x.shape):
            raise ValueError(
                f"in-place {op} would change the shape {_shown(x.shape)} to {_shown(result.shape)}"
            )
        if any(isnan(s) for s in x.shape):
            return result
        handle_out(x, result)
        return None

    def scalar(self, value: object, dtype: DType, like: Any) -> Any:
        """A 0-d Dask array of ``value`` as ``dtype``."""
        return self.module.from_array(numpy.asarray(value, dtype=self.native_dtype(dtype)))

    def same_device(self, x: Any, y: Any) -> bool:
        """Always: Dask arrays live on the cluster, promo_ns's one device for them."""
        return True

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """A Dask array of ``obj``: a Dask array as it is, anything else through NumPy, in ``chunks``.

        Keywords: ``dtype``, ``device``, ``copy`` (the standard's) and
        ``chunks`` (Dask's; default: Dask's choice).  A NumPy array becomes the
        blocks of the Dask array without a copy (unless ``copy=True``).
        """
        dtype, device, copy = (kwargs.pop(k, None) for k in ("dtype", "device", "copy"))
        chunks = kwargs.pop("chunks", "auto")
        if kwargs:
            raise TypeError(f"asarray() got unexpected keyword arguments {sorted(kwargs)}")
        if isinstance(obj, self.array_type):
            x = self.compat.asarray(obj, dtype=dtype, device=device, copy=copy)
            return x if chunks == "auto" else x.rechunk(chunks)
        if device is not None and device not in self.compat.__array_namespace_info__().devices():
            raise ValueError(f"Unsupported device for Dask: {device!r}")
        return self.module.from_array(numpy.asarray(obj, dtype=dtype, copy=copy), chunks=chunks)

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]``; index arrays are checked against ``x``'s shape when the graph is computed.

        (Dask itself reads an index out of bounds as some other index.)  What
        Dask's own indexing lacks: a 0-d boolean mask (``x[None]`` masked by
        it), several integer index arrays or n-d ones mixed with ints
        (:func:`_points`), and slice bounds that are 0-d arrays (their
        ``__index__``, which a lazy array refuses unless conversions compute).
        """
        key = _checked(x, _int_slices(key))
        keys = key if isinstance(key, tuple) else (key,)
        mask = keys[0] if len(keys) == 1 and isinstance(keys[0], dask_array.Array) else None
        if mask is not None and mask.dtype == bool and mask.ndim == 0:
            return x[None][mask.reshape((1,))]
        points = _leading(keys)
        if _points_apply(x, points):
            return _points(x, points)
        return x[key]

    def setitem(self, x: Any, key: Any, value: Any) -> None:
        """``x[key] = value`` (Dask's), for the standard's keys.

        Dask's own setitem fails on ``None`` and negative-step slices in the
        key: those write through the same elements with positive steps, the
        value reversed along those axes.  Index arrays are checked against
        ``x``'s shape when the graph is computed.
        """
        key = _checked(x, _int_slices(key))
        keys = _expanded(x.ndim, key if isinstance(key, tuple) else (key,))
        if not any(k is None or (isinstance(k, slice) and (k.step or 1) < 0) for k in keys):
            x[key] = value
            return
        if any(not isinstance(k, (int, numpy.integer, slice)) and k is not None for k in keys):
            raise IndexError(
                "promo_ns cannot assign through a negative-step slice or None combined with an index "
                "array on dask; write the slice with a positive step, or index with an array alone"
            )
        if isinstance(value, self.array_type):
            value = self.module.broadcast_to(value, x[key].shape)
        positive: list[Any] = []
        flipped: list[int] = []
        dropped: list[int] = []
        dim = axis = 0  # the dimension of the selection, the axis of x
        for k in keys:
            if k is None:
                dropped.append(dim)
                dim += 1
                continue
            entry = k
            if isinstance(k, slice):
                start, stop, step = k.indices(int(x.shape[axis]))
                picked = range(start, stop, step)
                if step < 0:
                    entry = slice(picked[-1], picked[0] + 1, -step) if picked else slice(0, 0)
                    flipped.append(dim)
                dim += 1
            positive.append(entry)
            axis += 1
        if isinstance(value, self.array_type):
            for d in flipped:
                value = self.module.flip(value, axis=d)
            value = self.module.squeeze(value, axis=tuple(dropped)) if dropped else value
        x[tuple(positive)] = value


def compute_conversions(enabled: bool = True) -> bool:
    """Let Python scalars of promo_ns's Dask arrays compute their graph, in this whole process.

    With it on, ``bool(x)``, ``int(x)``, ``float(x)``, ``complex(x)`` and
    ``x.__index__()`` of a promo_ns Dask array compute ``x``'s graph and
    convert the value, as Dask's own arrays do, where by default they raise
    ValueError as the standard says lazy arrays do (and
    ``array_api_compat.is_lazy_array`` then answers False).  It is meant for
    test harnesses that read values that way, such as the array-api-tests
    suite (``python -m conformance.array_api_tests --backend dask`` turns it
    on in the suite's process); nothing else about the arrays changes.

    Parameters
    ----------
    enabled
        True to let conversions compute, False to refuse them again (the default state).

    Returns
    -------
    bool
        Whether conversions computed before this call, to restore it with.

    Examples
    --------
    >>> import promo_ns
    >>> from promo_ns.backends import dask
    >>> xp = promo_ns.namespace("dask")
    >>> before = dask.compute_conversions(True)
    >>> float(xp.asarray([2.5])[0])
    2.5
    >>> _ = dask.compute_conversions(before)
    """
    before = not DaskBackend.lazy
    DaskBackend.lazy = not enabled
    return before


def _expanded(ndim: int, keys: tuple[Any, ...]) -> list[Any]:
    """``keys`` with the Ellipsis written out as full slices (one per axis it stands for)."""
    consumed = sum(_axes(k) for k in keys if k is not None and k is not Ellipsis)
    out: list[Any] = []
    for k in keys:
        out += [slice(None)] * (ndim - consumed) if k is Ellipsis else [k]
    if not any(k is Ellipsis for k in keys):  # (``in`` would compare index arrays elementwise)
        out += [slice(None)] * (ndim - consumed)
    return out


def _axes(k: Any) -> int:
    """How many axes of the array key entry ``k`` selects on (a boolean mask: its dimensions)."""
    return int(k.ndim) if getattr(k, "dtype", None) is not None and k.dtype.kind == "b" else 1


def _checked(x: Any, key: Any) -> Any:
    """``key`` with each lazy integer index array checked against its axis when the graph is computed."""
    keys = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, dask_array.Array) and k.dtype.kind in "iu" for k in keys):
        return key
    out, axis = [], 0
    for k in _expanded(x.ndim, keys):
        if isinstance(k, dask_array.Array) and k.dtype.kind in "iu" and not isnan(x.shape[axis]):
            out.append(k.map_blocks(partial(_in_bounds, int(x.shape[axis])), dtype=k.dtype))
        else:
            out.append(k)
        axis += 0 if k is None else _axes(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


def _int_slices(key: Any) -> Any:
    """``key`` with the bounds of its slices as ints (``__index__``: Dask takes ints only)."""
    keys = key if isinstance(key, tuple) else (key,)
    if not any(isinstance(k, slice) for k in keys):
        return key
    out = tuple(
        slice(*(None if v is None else operator.index(v) for v in (k.start, k.stop, k.step)))
        if isinstance(k, slice)
        else k
        for k in keys
    )
    return out if isinstance(key, tuple) else out[0]


def _leading(keys: tuple[Any, ...]) -> tuple[Any, ...]:
    """``keys`` without the full slices and Ellipsis at their end (which select every remaining axis)."""
    n = len(keys)
    while n and (keys[n - 1] is Ellipsis or (isinstance(keys[n - 1], slice) and keys[n - 1] == slice(None))):
        n -= 1
    return keys[:n]


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, numpy.integer)) and not isinstance(k, (bool, numpy.bool_))


def _points_apply(x: Any, keys: tuple[Any, ...]) -> bool:
    """Whether ``x[keys]`` takes points Dask's indexing cannot (:func:`_points` takes them).

    That is: only ints and integer index arrays, two arrays or more or an n-d
    one, over axes of known sizes.
    """
    arrays = [k for k in keys if isinstance(k, dask_array.Array) and k.dtype.kind in "iu"]
    return (
        bool(arrays)
        and (len(arrays) > 1 or arrays[0].ndim != 1)
        and len(arrays) + sum(map(_is_int, keys)) == len(keys) <= x.ndim
        and not any(isnan(s) for s in x.shape[: len(keys)])
    )


def _points(x: Any, keys: tuple[Any, ...]) -> Any:
    """``x[keys]`` for ints and integer index arrays over the first ``len(keys)`` axes (NumPy's rule).

    The indices are broadcast together and made positions in ``x`` with those
    axes flattened into one, which Dask indexes with one 1-d array; the result
    has the indices' shape followed by ``x``'s remaining axes.

    Raises
    ------
    IndexError
        An int out of bounds (index arrays are checked when the graph is computed).
    """
    sizes = [int(s) for s in x.shape[: len(keys)]]
    for k, n in zip(keys, sizes, strict=True):
        if _is_int(k) and not -n <= k < n:
            raise IndexError(f"index {k} is out of bounds for axis of size {n}")
    indices = dask_array.broadcast_arrays(*(dask_array.asarray(k).astype(numpy.int64) for k in keys))
    flat: Any = None
    for index, n in zip(indices, sizes, strict=True):
        i = dask_array.where(index < 0, index + n, index)
        flat = i if flat is None else flat * n + i
    rest = tuple(x.shape[len(keys) :])
    rows = x.reshape((int(numpy.prod(sizes)), *rest))
    return rows[flat.ravel()].reshape((*flat.shape, *rest))


def _same_shape(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two Dask shapes are equal, an unknown size (nan) matching any."""
    return len(a) == len(b) and all(s == t or isnan(s) or isnan(t) for s, t in zip(a, b, strict=True))


def _shown(shape: tuple[float, ...]) -> tuple[int | None, ...]:
    return tuple(None if isnan(s) else int(s) for s in shape)
