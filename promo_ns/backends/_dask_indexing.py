"""Indexing Dask arrays as the standard (and NumPy) does, where Dask's own indexing differs.

:func:`getitem` and :func:`setitem` take the standard's keys: several integer
index arrays, n-d ones and ints mixed with them (NumPy's points), a 0-d
boolean mask, slice bounds that are 0-d arrays, negative-step slices and
``None`` in setitem keys.  Index arrays are checked against the axis they
index: now where their values are known without computing (a list, a NumPy
array, a Dask array made from one: :func:`known`), else when the graph is
computed (Dask alone reads an index out of bounds as some other index).

:func:`setitem` never writes into the Dask array it is given: it returns a
new one, and every error it can see while building comes before anything
is built.  This module imports nothing of promo_ns.
"""

from __future__ import annotations

import operator
from functools import partial
from math import isnan, prod
from typing import Any

import dask
import dask.array as dask_array
import numpy
from dask.array.core import broadcast_shapes
from dask.highlevelgraph import MaterializedLayer

__all__ = ["failed_when_computed", "getitem", "known", "setitem"]


def failed_when_computed(what: str, error: object, *, updated: bool) -> str:
    """The message of an error that ``what`` (an op on a promo_ns Dask array) raised when its graph ran.

    ``updated``: the op updated an array (in place, setitem), which keeps its
    values from before the op (:func:`promo_ns.backends.dask.previous`).
    """
    text = f"{what} on a promo_ns dask array failed when its graph was computed: {str(error).rstrip('.')}"
    if not updated:
        return text
    return (
        f"{text}. The array it updated holds this graph from then on, and every graph built from it "
        "raises this error; its values from before the op are kept: promo_ns.backends.dask.previous(x) "
        "gives them, x being the array the op updated"
    )


def known(a: Any) -> Any:
    """The values of index or operand ``a`` where they are known without computing; else None.

    A list or NumPy array is its own values; a Dask array made from a NumPy
    array or a list (``xp.asarray([0, 5])``) holds its blocks as data in a
    graph of one layer, which are read, not computed.  Any other Dask array's
    values come from a computation: None.
    """
    if isinstance(a, numpy.ndarray):
        return a
    if isinstance(a, list):
        return _as_index(a)
    if not isinstance(a, dask_array.Array) or len(a.dask.layers) != 1:
        return None
    (layer,) = a.dask.layers.values()
    if type(layer) is not MaterializedLayer:
        return None
    blocks = dict(layer)
    if len(blocks) != prod(a.numblocks) or not all(type(b) is numpy.ndarray for b in blocks.values()):
        return None
    if a.ndim == 0:
        return next(iter(blocks.values()))
    grid = numpy.empty(a.numblocks, dtype=object)
    for key, block in blocks.items():
        grid[key[1:]] = block
    return numpy.block(grid.tolist())


def getitem(x: Any, key: Any) -> Any:
    """``x[key]``, index arrays checked against ``x``'s shape (see the module's docstring).

    Raises
    ------
    IndexError
        An int, or an index array whose values are known, out of bounds.
    """
    key = _checked(x, _normalized(key), writing=False)
    keys = key if isinstance(key, tuple) else (key,)
    _check_masks(x, keys)
    mask = keys[0] if len(keys) == 1 and isinstance(keys[0], dask_array.Array) else None
    if mask is not None and mask.dtype == bool and mask.ndim == 0:
        return x[None][mask.reshape((1,))]
    points = _leading(keys)
    if _points_apply(x, points):
        return _points(x, points)
    return x[key]


def setitem(x: Any, key: Any, value: Any) -> Any:
    """A new Dask array: ``x`` with ``x[key] = value`` written (``x`` itself is left as it is).

    Negative-step slices and ``None`` (which Dask's setitem refuses) write
    through the same elements with positive steps, the value flipped along
    those axes; several or n-d integer index arrays write NumPy's points
    through the indexed axes flattened into one.  Where the key has index
    arrays, the value's shape is checked against the selection's before the
    indices' bounds, in NumPy's order.

    Raises
    ------
    ValueError
        ``value`` does not broadcast to the selection's shape.
    IndexError
        An int, or an index array whose values are known, out of bounds.
    """
    key = _normalized(key)
    keys = key if isinstance(key, tuple) else (key,)
    _check_masks(x, keys)
    mask = keys[0] if len(keys) == 1 and isinstance(keys[0], dask_array.Array) else None
    if mask is not None and mask.dtype == bool and (mask.ndim == 0 or getattr(value, "ndim", 0) > 0):
        return _masked_write(x, mask, value)
    if any(_is_index_array(k) and getattr(k, "ndim", 1) > 0 for k in keys):  # a 0-d one is an int
        _check_value_shape(x, keys, value)
    key = _checked(x, key, writing=True)
    masks = any(numpy.dtype(getattr(k, "dtype", object)).kind == "b" for k in keys)  # checked by Dask
    if not masks and 0 in _selection_shape(tuple(x.shape), keys):  # nothing to write; Dask won't broadcast
        _check_value_shape(x, keys, value)
        return x.copy()
    keys = key if isinstance(key, tuple) else (key,)
    new = x.copy()  # a new Dask array object on the same graph: Dask's setitem rewrites the object
    points = _leading(keys)
    if _points_apply(x, points):
        return _set_points(x, points, value)
    expanded = _expanded(x.ndim, keys)
    if not any(k is None or (isinstance(k, slice) and (k.step or 1) < 0) for k in expanded):
        new[key] = value
        return new
    if any(not isinstance(k, (int, numpy.integer, slice)) and k is not None for k in expanded):
        raise IndexError(
            "promo_ns cannot assign through a negative-step slice or None combined with an index "
            "array on dask; write the slice with a positive step, or index with an array alone"
        )
    positive, flipped, dropped = _positive_steps(x, expanded)
    if isinstance(value, dask_array.Array):
        value = dask_array.broadcast_to(value, _selection_shape(tuple(x.shape), keys))
        for d in flipped:
            value = dask_array.flip(value, axis=d)
        value = dask_array.squeeze(value, axis=tuple(dropped)) if dropped else value
    new[tuple(positive)] = value
    return new


def _masked_write(x: Any, mask: Any, value: Any) -> Any:
    """``x`` with ``x[mask] = value`` written as NumPy does, for what Dask's own setitem cannot take.

    A 0-d mask selects all of ``x`` (or nothing): ``value`` broadcasts to
    ``(1, *x.shape)``.  A mask of ``x``'s shape (or of its leading axes) with an array value, or a 0-d
    mask with a value whose size is known only once computed (``x[m] = x[m] * 2``,
    ``x[m] = x[m]`` for a 0-d ``x``), writes the value's elements into the
    selected places in order, in one task over the whole array; a value of the
    wrong size raises when the graph is computed.
    """
    if mask.ndim == 0 and not any(map(isnan, getattr(value, "shape", ()))):
        selected = dask_array.broadcast_to(dask_array.asarray(value, dtype=x.dtype), (1, *x.shape))[0]
        return dask_array.where(mask, selected, x)
    written = dask.delayed(_write_where, pure=True)(x, mask, value)
    out = dask_array.from_delayed(written, shape=x.shape, dtype=x.dtype, meta=x._meta)
    return out if any(map(isnan, x.shape)) else out.rechunk(x.chunks)


def _write_where(x: Any, mask: Any, value: Any) -> Any:
    """One task of :func:`_masked_write`: NumPy's ``x[mask] = value`` on a copy of ``x``."""
    out = numpy.array(x, copy=True)
    try:
        out[mask] = value
    except ValueError as e:
        raise ValueError(failed_when_computed("x[mask] = value", e, updated=True)) from e
    return out


def _positive_steps(x: Any, keys: list[Any]) -> tuple[list[Any], list[int], list[int]]:
    """``keys`` (ints, slices, None) with positive steps: the entries, the flipped and dropped dimensions.

    Flipped: the dimensions of the selection a negative step reversed; dropped: those ``None`` added.
    """
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
    return positive, flipped, dropped


# --- keys ------------------------------------------------------------------------------------


def _plain_list(k: Any) -> bool:
    """Whether ``k`` is a (nested) list of Python ints and bools only: an index array NumPy reads."""
    return isinstance(k, list) and all(
        _plain_list(v) if isinstance(v, list) else isinstance(v, (int, numpy.integer, numpy.bool_)) for v in k
    )


def _as_index(k: list[Any]) -> Any:
    """List ``k`` as the NumPy index array it stands for (an empty one of integers)."""
    a = numpy.asarray(k)
    return a.astype(numpy.intp) if a.size == 0 else a


def _normalized(key: Any) -> Any:
    """``key`` with lists of ints or bools as NumPy arrays and slice bounds as ints.

    (Slice bounds go through ``__index__``: Dask takes ints only.)
    """
    keys = key if isinstance(key, tuple) else (key,)
    out = tuple(
        _as_index(k)
        if _plain_list(k)
        else slice(*(None if v is None else operator.index(v) for v in (k.start, k.stop, k.step)))
        if isinstance(k, slice)
        else k
        for k in keys
    )
    return out if isinstance(key, tuple) else out[0]


def _is_index_array(k: Any) -> bool:
    """Whether key entry ``k`` is an integer index array (Dask's or NumPy's)."""
    return isinstance(k, (dask_array.Array, numpy.ndarray)) and k.dtype.kind in "iu"


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


def _leading(keys: tuple[Any, ...]) -> tuple[Any, ...]:
    """``keys`` without the full slices and Ellipsis at their end (which select every remaining axis)."""
    n = len(keys)
    while n and (keys[n - 1] is Ellipsis or (isinstance(keys[n - 1], slice) and keys[n - 1] == slice(None))):
        n -= 1
    return keys[:n]


def _is_int(k: Any) -> bool:
    return isinstance(k, (int, numpy.integer)) and not isinstance(k, (bool, numpy.bool_))


# --- bounds ----------------------------------------------------------------------------------


def _check_masks(x: Any, keys: tuple[Any, ...]) -> None:
    """Raise NumPy's IndexError where a boolean mask's known sizes differ from the axes it indexes.

    (Dask's getitem says only that "chunks do not add up".)
    """
    axis = 0
    for k in _expanded(x.ndim, keys):
        if k is None:
            continue
        if getattr(k, "dtype", None) is not None and k.dtype.kind == "b":
            for d, (m, n) in enumerate(zip(k.shape, x.shape[axis : axis + k.ndim], strict=False)):
                if not (isnan(m) or isnan(n)) and m != n:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {axis + d}; size of axis "
                        f"is {int(n)} but size of corresponding boolean axis is {int(m)}"
                    )
        axis += _axes(k)


def _out_of_bounds(values: Any, n: int, axis: int) -> str | None:
    """NumPy's words for the first of integer ``values`` out of bounds for axis ``axis`` of size ``n``."""
    bad = values[(values < -n) | (values >= n)]
    return f"index {bad.flat[0]} is out of bounds for axis {axis} with size {n}" if bad.size else None


def _in_bounds(n: int, axis: int, writing: bool, index: Any) -> Any:
    """Block of an index array, checked against axis ``axis`` of size ``n`` when the graph is computed."""
    error = _out_of_bounds(index, n, axis)
    if error is not None:
        what = "x[key] = value" if writing else "x[key]"
        raise IndexError(failed_when_computed(what, error, updated=writing))
    return index


def _checked(x: Any, key: Any, *, writing: bool) -> Any:
    """``key`` with each integer index array checked against its axis of ``x``.

    Known values are checked now; any other Dask index array when the graph
    is computed (its blocks go through :func:`_in_bounds`).

    Raises
    ------
    IndexError
        An index array whose values are known is out of bounds.
    """
    keys = key if isinstance(key, tuple) else (key,)
    if not any(_is_index_array(k) for k in keys):
        return key
    out, axis = [], 0
    for k in _expanded(x.ndim, keys):
        entry = k
        if _is_index_array(k) and not isnan(x.shape[axis]):
            n = int(x.shape[axis])
            values = known(k)
            if values is not None:
                error = _out_of_bounds(values, n, axis)
                if error is not None:
                    raise IndexError(error)
            else:
                entry = k.map_blocks(partial(_in_bounds, n, axis, writing), dtype=k.dtype)
        out.append(entry)
        axis += 0 if k is None else _axes(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


def _check_value_shape(x: Any, keys: tuple[Any, ...], value: Any) -> None:
    """Raise NumPy's ValueError where ``value`` does not broadcast to the shape ``x[keys]`` selects."""
    selected = _selection_shape(tuple(x.shape), keys)
    shape = tuple(getattr(value, "shape", ()))
    while len(shape) > len(selected) and shape[0] == 1:
        shape = shape[1:]
    if any(isnan(s) for s in (*shape, *selected)):
        return
    have, want = tuple(map(int, shape)), tuple(map(int, selected))
    try:
        fits = numpy.broadcast_shapes(have, want) == want
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"shape mismatch: value array of shape {have} could not be broadcast to indexing result of "
            f"shape {want}"
        )


def _selection_shape(shape: tuple[float, ...], keys: tuple[Any, ...]) -> tuple[float, ...]:
    """The shape ``x[keys]`` has, for ``x`` of ``shape``, by NumPy's rules (nan: known once computed).

    Index arrays (and ints among them) are advanced indices: their broadcast
    shape takes the place of the first where they are adjacent, else comes
    first.  Index arrays that do not broadcast give nan sizes (indexing raises).
    """
    expanded = _expanded(len(shape), keys)
    arrays = any(getattr(k, "ndim", None) is not None for k in expanded)
    out: list[float] = []
    advanced: list[tuple[float, ...]] = []
    where: list[int] = []  # the positions in ``expanded`` of the advanced indices
    at = axis = 0  # where they go in ``out``; the axis of ``shape``
    for i, k in enumerate(expanded):
        if k is None:
            out.append(1)
        elif isinstance(k, slice):
            n = shape[axis]
            out.append(n if isnan(n) else len(range(*k.indices(int(n)))))
            axis += 1
        elif getattr(k, "dtype", None) is not None and k.dtype.kind == "b":
            values = known(k)
            advanced.append((numpy.nan if values is None else int(numpy.count_nonzero(values)),))
            axis += k.ndim
        elif arrays:
            advanced.append(tuple(getattr(k, "shape", ())))
            axis += 1
        else:  # an int without index arrays: drops its axis
            axis += 1
            continue
        if len(advanced) > len(where):
            at = len(out) if not where else at
            where.append(i)
    if not advanced:
        return tuple(out)
    try:
        block = tuple(broadcast_shapes(*advanced))
    except ValueError:
        block = (numpy.nan,)
    adjacent = where == list(range(where[0], where[0] + len(where)))
    return (*out[:at], *block, *out[at:]) if adjacent else (*block, *out)


# --- points: several or n-d integer index arrays ----------------------------------------------


def _points_apply(x: Any, keys: tuple[Any, ...]) -> bool:
    """Whether ``x[keys]`` takes points Dask's indexing cannot (:func:`_points` takes them).

    That is: only ints and integer index arrays, two arrays or more or an n-d
    one, over axes of known sizes.
    """
    arrays = [k for k in keys if _is_index_array(k)]
    return (
        bool(arrays)
        and (len(arrays) > 1 or arrays[0].ndim != 1)
        and len(arrays) + sum(map(_is_int, keys)) == len(keys) <= x.ndim
        and not any(isnan(s) for s in x.shape[: len(keys)])
    )


def _flat(x: Any, keys: tuple[Any, ...]) -> Any:
    """Points ``keys`` (ints, index arrays over ``x``'s first axes) as positions in those axes flattened.

    A NumPy array where the indices' values are known (:func:`known`), else a Dask array.

    Raises
    ------
    IndexError
        An int out of bounds (index arrays are checked by :func:`_checked`).
    """
    sizes = [int(s) for s in x.shape[: len(keys)]]
    for axis, (k, n) in enumerate(zip(keys, sizes, strict=True)):
        if _is_int(k) and not -n <= k < n:
            raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
    values = [k if _is_int(k) else known(k) for k in keys]
    if all(v is not None for v in values):  # NumPy's positions, now
        lib: Any = numpy
        parts = [numpy.asarray(v) for v in values]
    else:
        lib, parts = dask_array, [dask_array.asarray(k) for k in keys]
    indices = lib.broadcast_arrays(*(p.astype(numpy.int64) for p in parts))
    flat: Any = None
    for index, n in zip(indices, sizes, strict=True):
        i = lib.where(index < 0, index + n, index)
        flat = i if flat is None else flat * n + i
    return flat


def _points(x: Any, keys: tuple[Any, ...]) -> Any:
    """``x[keys]`` for ints and integer index arrays over the first ``len(keys)`` axes (NumPy's rule).

    The indices are broadcast together and made positions in ``x`` with those
    axes flattened into one, which Dask indexes with one 1-d array; the result
    has the indices' shape followed by ``x``'s remaining axes.
    """
    flat = _flat(x, keys)
    rest = tuple(x.shape[len(keys) :])
    rows = x.reshape((prod(int(s) for s in x.shape[: len(keys)]), *rest))
    return rows[flat.ravel()].reshape((*flat.shape, *rest))


def _set_points(x: Any, keys: tuple[Any, ...], value: Any) -> Any:
    """A new Dask array: ``x`` with ``x[keys] = value`` for the points of :func:`_points`."""
    flat = _flat(x, keys)
    rest = tuple(x.shape[len(keys) :])
    rows = x.reshape((prod(int(s) for s in x.shape[: len(keys)]), *rest))
    if isinstance(value, dask_array.Array):
        value = dask_array.broadcast_to(value, (*flat.shape, *rest)).reshape((-1, *rest))
    rows[flat.ravel()] = value
    return rows.reshape(x.shape)
