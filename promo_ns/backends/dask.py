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

In-place ops and setitem build a new Dask array computing the new values in
the old dtype, and the promo_ns array holds it from then on (as Dask's own
``d += 1`` rebinds ``d``); the Dask array it held before is never changed,
so its graph and values stay (:func:`previous` gives them back).  Every
error they can see while building (shapes, dtypes, an int or index array out
of bounds, a negative integer exponent whose values are known without
computing) comes before anything is built; an error that depends on values
only a computation gives comes when the graph is computed, naming the op
(see ``docs/scaling.md``, "What can only fail at compute time").

Dask arrays are lazy: converting one to a Python scalar (``bool``, ``int``,
``float``, ``complex``, ``__index__``) computes its graph, as Dask's own
arrays and array-api-compat's Dask do, and so does reading a size the graph
knows only once computed (``x.shape`` after a boolean mask, ``unique_values``,
``nonzero``: ``shape[0] > 2`` is a Python comparison); the arrays still answer
as lazy to ``array_api_compat.is_lazy_array`` (clients pick their lazy code
paths that way).  :func:`compute_conversions` ``(False)`` makes those
conversions raise a ValueError instead, and unknown sizes None, as the
standard allows lazy arrays to.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from math import isnan
from typing import Any

import dask.array as dask_array
import numpy
from dask.array.core import broadcast_shapes, elemwise

from promo_ns._dtypes import BY_NAME, DType
from promo_ns.backends._base import NUMPY_VALUES, Plan, Values
from promo_ns.backends._dask_compat import DaskCompat
from promo_ns.backends._dask_indexing import failed_when_computed, getitem, known, setitem
from promo_ns.backends.numpylike import NumpyLike
from promo_ns.policies import Role

__all__ = ["DaskBackend", "DaskCompat", "compute_conversions", "previous"]


# --- the blocks: NumPy's kernels -------------------------------------------------------------


@cache
def _numpy() -> NumpyLike:
    """The NumPy adapter, which computes every block (also in a worker process)."""
    return NumpyLike("numpy")


@cache
def _plan(
    compute: str, direct: bool, to_bool: bool, rounded: str | None = None, values: Values = NUMPY_VALUES
) -> Plan:
    """The part of a plan the NumPy adapter reads, from what travels in a task (names and flags)."""
    return Plan(
        0,
        BY_NAME[compute],
        direct,
        to_bool,
        False,
        True,
        None,
        BY_NAME[rounded] if rounded else None,
        values=values,
    )


def _blocks_binary(
    op: str,
    compute: str,
    to_bool: bool,
    x: Any,
    y: Any,
    *,
    rounded: str | None = None,
    values: Values = NUMPY_VALUES,
) -> Any:
    """One block of ``x op y`` computed in dtype ``compute`` (names; ``rounded`` too) by the NumPy adapter."""
    return _numpy().binary(op, x, y, _plan(compute, False, to_bool, rounded, values))


def _inplace_kernel(
    op: str, compute: str, direct: bool, x: Any, y: Any, *, values: Values = NUMPY_VALUES
) -> Any:
    """``x op= y`` in ``x``'s dtype, computed in ``compute`` by the NumPy adapter into a new array.

    A block may be shared with other graphs (a view of the NumPy array the
    Dask array was made from): it is never written to.
    """
    out = numpy.empty_like(x)
    _numpy().inplace(op, x, y, _plan(compute, direct, False, values=values), out)
    return out


#: The in-place ops' symbols, for the errors that name them.
_SYMBOLS = {
    **{"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//"},
    **{"remainder": "%", "pow": "**", "bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"},
    **{"bitwise_left_shift": "<<", "bitwise_right_shift": ">>"},
}
#: The errors of NumPy's kernels that a block of an in-place op re-raises naming the op.
_KERNEL_ERRORS = (ValueError, TypeError, ArithmeticError)


def _blocks_inplace(
    op: str, compute: str, direct: bool, x: Any, y: Any, *, values: Values = NUMPY_VALUES
) -> Any:
    """One block of ``x op= y`` (:func:`_inplace_kernel`); an error names the op when the graph runs."""
    try:
        return _inplace_kernel(op, compute, direct, x, y, values=values)
    except _KERNEL_ERRORS as e:
        what = f"x {_SYMBOLS.get(op, op)}= y (in-place {op})"
        raise type(e)(failed_when_computed(what, e, updated=True)) from e


def _check_known_values(kernel: Callable[[Any, Any], Any], op: str, plan: Plan, y: Any, dtype: Any) -> None:
    """Run ``kernel`` on ones of ``dtype`` and ``y``'s values where they are known without computing.

    Integer ``pow``'s exponent and ``//``'s and ``%``'s divisor decide whether
    the kernel raises (a negative exponent, a zero divisor): where ``y`` is a
    Python scalar or a Dask array made from data
    (:func:`~promo_ns.backends._dask_indexing.known`), the error comes now, as on NumPy.
    """
    if op not in _VALUE_ERRORS or plan.compute.kind not in "iu":
        return
    values = known(y) if isinstance(y, dask_array.Array) else y
    if values is not None:
        kernel(numpy.ones(numpy.shape(values), dtype=dtype), values)


def _meta(x: Any) -> Any:
    """What a block function sees of operand ``x`` when it runs on no data: Dask's ``_meta``, or ``x``.

    The ``_meta`` (``x``'s dimensions, each of size 0) is taken 1-d: it checks
    the dtypes only, which NumPy checks before the shapes.
    """
    return x._meta.reshape(-1) if isinstance(x, dask_array.Array) else x


#: Integer ops whose kernel error depends on the values (a negative exponent, a zero divisor).
_VALUE_ERRORS = frozenset(("pow", "floor_divide", "remainder"))
#: The attribute of a Dask array an in-place op or setitem built that holds the one it updated.
_BEFORE = "_promo_ns_before"


def _updated(new: Any, old: Any) -> Any:
    """``new``, the Dask array an in-place op or setitem built from ``old``, remembering ``old``."""
    setattr(new, _BEFORE, old)
    return new


# --- the adapter ---------------------------------------------------------------------------


class DaskBackend(NumpyLike):
    """``dask.array``: NumPy's promotion on lazy arrays, NumPy's kernels on each block.

    What Dask arrays share with NumPy's (dtypes, ``astype``, reductions with
    ``dtype=``, ``to_array``, the ufuncs of ``direct`` cells) is the
    NumPy-like adapter's code.
    """

    #: Arrays are lazy graphs: Python scalars of them compute (see :func:`compute_conversions`).
    lazy = True
    refuses_conversions = False

    def __init__(self) -> None:
        super().__init__("dask", "dask.array", array_type="Array")
        self.compat = DaskCompat(self.compat)

    def native_dtype(self, dtype: DType) -> Any:
        """NumPy's dtype for ``dtype`` (Dask arrays hold NumPy dtypes; bfloat16 through ml_dtypes)."""
        return _numpy().native_dtype(dtype)

    def computed_sizes(self, x: Any) -> Any:
        """``x`` with its unknown (nan) chunk sizes computed, in place: its graph runs once, for them."""
        return x.compute_chunk_sizes()

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``: the NumPy adapter's kernel on each pair of blocks.

        The kernel runs on the operands' ``_meta`` first: NumPy's error for a
        dtype it has no kernel for comes now, and the result's dtype is the
        one NumPy's kernel gives.
        """
        rounded = plan.rounded.name if plan.rounded else None
        fn = partial(_blocks_binary, op, plan.compute.name, plan.to_bool, rounded=rounded, values=plan.values)
        dtype = fn(_meta(x), _meta(y)).dtype
        _check_known_values(fn, op, plan, y, self.native_dtype(plan.compute))
        return elemwise(fn, x, y, dtype=dtype)

    def rounded_kernel(self, op: str, compute: DType, rounded: DType, values: Values) -> None:
        """None: :meth:`binary` computes and rounds block by block."""
        return None

    def inplace_kernel(self, op: str, compute: DType, values: Values) -> None:
        """None: a Dask array is not written in place (see :meth:`inplace`)."""
        return None

    def inplace(self, op: str, x: Any, y: Any, plan: Plan, out: Any = None) -> Any:
        """``x op= y`` in ``x``'s dtype: a new Dask array computing it, for the wrapper to hold.

        ``x`` is left as it is (:func:`previous` gives it back).  What can be
        checked without computing is checked first, in NumPy's order: NumPy's
        kernel for the dtypes (on the ``_meta`` arrays), the shapes, and an
        integer ``pow``'s exponent or ``//``'s and ``%``'s divisor where its values are known (a Python int, a
        Dask array made from data: :func:`~promo_ns.backends._dask_indexing.known`).
        A block's error when the graph is computed names the op.

        Raises
        ------
        ValueError
            The shapes do not broadcast, or ``y`` would broadcast ``x`` to
            another shape; an integer ``pow`` with a known negative exponent.
        TypeError
            NumPy has no kernel for these dtypes.
        """
        compute = plan.compute.name
        kernel = partial(_inplace_kernel, op, compute, plan.direct, values=plan.values)
        kernel(_meta(x), _meta(y))
        shape = broadcast_shapes(x.shape, tuple(getattr(y, "shape", ())))
        if not _same_shape(shape, x.shape):
            raise ValueError(f"in-place {op} would change the shape {_shown(x.shape)} to {_shown(shape)}")
        _check_known_values(kernel, op, plan, y, x.dtype)
        blocks = partial(_blocks_inplace, op, compute, plan.direct, values=plan.values)
        return _updated(elemwise(blocks, x, y, dtype=x.dtype), x)

    def kernel(
        self, op: str, x: DType | Role, y: DType | Role, compute: DType, result: DType, *, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """Dask's own ufunc of ``op``, unless the policy's ``values`` are not NumPy's kernel's.

        Those cells (integer ``//`` and ``%`` that raise on a zero divisor,
        integer powers that compute negative exponents, floating ``%`` whose
        zeros take the dividend's sign) run the NumPy adapter's kernel on each
        block (:meth:`binary`).
        """
        if op in self._ufunc and self._valued(op, compute, values) is not self._ufunc[op]:
            return None
        return super().kernel(op, x, y, compute, result, values=values)

    def scalar(self, value: object, dtype: DType, like: Any) -> Any:
        """A 0-d Dask array of ``value`` as ``dtype``."""
        return self.module.from_array(numpy.asarray(value, dtype=self.native_dtype(dtype)))

    def same_device(self, x: Any, y: Any) -> bool:
        """Always: Dask arrays live on the cluster, promo_ns's one device for them."""
        return True

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """A Dask array of ``obj``: a Dask array as it is, anything else through NumPy, in ``chunks``.

        Keywords: ``dtype``, ``device``, ``copy`` (the standard's) and
        ``chunks`` (Dask's; default: Dask's choice).  Anything but a Dask array
        is copied (``copy=False`` raises): Dask's ``from_array`` copies a NumPy
        array, to keep its blocks private (Dask's setitem writes into them).
        """
        dtype, device, copy = (kwargs.pop(k, None) for k in ("dtype", "device", "copy"))
        chunks = kwargs.pop("chunks", "auto")
        if kwargs:
            raise TypeError(f"asarray() got unexpected keyword arguments {sorted(kwargs)}")
        if isinstance(copy, str):  # (NumPy's rule; Dask's asarray takes any copy)
            raise ValueError(f"asarray()'s copy is True, False or None, not {copy!r}")
        if isinstance(obj, self.array_type):
            x = self.compat.asarray(obj, dtype=dtype, device=device, copy=copy)
            return x if chunks == "auto" else x.rechunk(chunks)
        if device is not None and device not in self.compat.__array_namespace_info__().devices():
            raise ValueError(f"Unsupported device for Dask: {device!r}")
        if copy is False:
            raise ValueError(
                "asarray(obj, copy=False) on the dask backend: Dask copies every NumPy array it makes an "
                "array of (dask.array.from_array, which keeps its blocks private), so nothing can be "
                "shared; use asarray(obj), which copies once, or keep the data in a NumPy namespace"
            )
        return self.module.from_array(numpy.asarray(obj, dtype=dtype, copy=copy), chunks=chunks)

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]`` with the standard's keys (:func:`~promo_ns.backends._dask_indexing.getitem`).

        Index arrays are checked against ``x``'s shape: now where their values
        are known, else when the graph is computed (Dask itself reads an index
        out of bounds as some other index).
        """
        return getitem(x, key)

    def setitem(self, x: Any, key: Any, value: Any) -> Any:
        """``x[key] = value``: a new Dask array, for the wrapper to hold; ``x`` is left as it is.

        See :func:`~promo_ns.backends._dask_indexing.setitem` (negative steps,
        ``None``, several index arrays, and the checks made before anything is built).
        """
        return _updated(setitem(x, key, value), x)


def previous(x: Any) -> Any:
    """``x`` as it was before its last in-place op or setitem: a promo_ns Dask array (or a Dask array).

    An in-place op (``x += y``) or setitem (``x[key] = v``) on a promo_ns Dask
    array makes it hold a new graph, built on the one it held before, which
    is never changed.  Where the new graph fails when computed (an error
    that depends on values: a negative integer exponent, an index out of
    bounds), ``x`` holds it from then on, and its error says so; this gives
    back the array of the values before that op (call it again to go back
    further).  The link lives in this process (a pickled array travels
    without it).

    Parameters
    ----------
    x
        A promo_ns array of the Dask namespace, or the Dask array inside one (``promo_ns.unwrap(x)``).

    Returns
    -------
    Array
        The array before the op, of ``x``'s namespace (a Dask array for a Dask array).

    Raises
    ------
    ValueError
        ``x`` holds no graph an in-place op or setitem built.

    Examples
    --------
    >>> import promo_ns
    >>> from promo_ns.backends import dask
    >>> xp = promo_ns.namespace("dask", policy="numpy")
    >>> x = xp.asarray([2, 3, 4])
    >>> x **= xp.asarray([1, 0, 2]) - 1  # the exponent's values come from a computation
    >>> promo_ns.unwrap(dask.previous(x)).compute().tolist()
    [2, 3, 4]
    """
    native = getattr(x, "_x", x)  # the promo_ns wrapper's Dask array
    before = getattr(native, _BEFORE, None) if isinstance(native, dask_array.Array) else None
    if before is None:
        raise ValueError(
            "previous() takes a promo_ns dask array that an in-place op or setitem updated in this "
            f"process; this {type(x).__name__} holds no graph one built"
        )
    return before if native is x else x.__array_namespace__().asarray(before)


def compute_conversions(enabled: bool = True) -> bool:
    """Whether Python scalars of promo_ns's Dask arrays compute their graph, in this whole process.

    On (the default), ``bool(x)``, ``int(x)``, ``float(x)``, ``complex(x)`` and
    ``x.__index__()`` of a promo_ns Dask array compute ``x``'s graph and
    convert the value, as Dask's own arrays and array-api-compat's Dask do
    (scikit-learn's ``if xp.any(...):`` works), and ``x.shape`` computes the
    sizes ``x``'s graph knows only once computed (after a boolean mask,
    ``unique_*``, ``nonzero``), once: scikit-learn's ``unique(y).shape[0] > 2``
    works (Dask's own nan answers False, silently).  Off, conversions raise a
    ValueError and unknown sizes are None, as the standard allows lazy arrays,
    so that code computing a graph once per ``if`` is found.  Either way
    ``array_api_compat.is_lazy_array`` answers True (and computes nothing), and
    nothing else about the arrays changes.

    Parameters
    ----------
    enabled
        True to let conversions compute (the default state), False to refuse them.

    Returns
    -------
    bool
        Whether conversions computed before this call, to restore it with.

    Examples
    --------
    >>> import promo_ns
    >>> from promo_ns.backends import dask
    >>> xp = promo_ns.namespace("dask")
    >>> float(xp.asarray([2.5])[0])
    2.5
    >>> before = dask.compute_conversions(False)
    >>> float(xp.asarray([2.5])[0])
    Traceback (most recent call last):
    ValueError: float() of a lazy dask array would compute its graph; ...
    >>> _ = dask.compute_conversions(before)
    """
    before = not DaskBackend.refuses_conversions
    DaskBackend.refuses_conversions = not enabled
    return before


def _same_shape(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two Dask shapes are equal, an unknown size (nan) matching any."""
    return len(a) == len(b) and all(s == t or isnan(s) or isnan(t) for s, t in zip(a, b, strict=True))


def _shown(shape: tuple[float, ...]) -> tuple[int | None, ...]:
    return tuple(None if isnan(s) else int(s) for s in shape)
