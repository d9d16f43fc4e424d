"""What array-api-compat's Dask namespace lacks, or has otherwise than the standard: :class:`DaskCompat`.

The ``linalg`` functions Dask has no algorithm for (or has for 2-d arrays
only) run NumPy's on every matrix of a stack; the ``unique_*`` functions run
NumPy's on the whole array in one task; a few functions whose Dask results
differ from the standard's are corrected.  Every graph stays lazy: nothing
here computes.  The Dask adapter (:mod:`promo_ns.backends.dask`) wraps
array-api-compat's module in it; this module imports nothing of promo_ns.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from types import ModuleType
from typing import Any

import array_api_compat.numpy as compat_numpy
import dask
import dask.array as dask_array
import numpy
from dask.array.ufunc import ufunc as dask_ufunc

from promo_ns.backends._dask_indexing import getitem, known
from promo_ns.backends._values import check_sorter, numpy_spacing, reduced_axes, signed_counts

__all__ = ["DaskCompat"]


def _real(dtype: Any) -> Any:
    return numpy.finfo(dtype).dtype


def _complex(dtype: Any) -> Any:
    return numpy.result_type(dtype, numpy.complex64)


def _numpy_linalg(name: str, *arrays: Any, array_keyword: str | None = None, **kwargs: Any) -> Any:
    """array-api-compat's NumPy ``linalg.<name>`` on blocks; several results as a plain tuple.

    ``array_keyword`` names the keyword the last of ``arrays`` goes to (``rtol``).
    """
    if array_keyword is not None:
        kwargs[array_keyword] = arrays[-1]
        arrays = arrays[:-1]
    # NumPy's linalg has no float16 ("array type float16 is unsupported in linalg"), and Dask runs
    # the blocks only when computed, past the namespace's retry in a wider dtype: float32 here, and
    # its float32 results back to float16, as the NumPy backend does.
    half = any(a.dtype == numpy.float16 for a in arrays)
    if half:
        arrays = tuple(a.astype(numpy.float32) if a.dtype == numpy.float16 else a for a in arrays)
    out = getattr(compat_numpy.linalg, name)(*arrays, **kwargs)
    if name == "matrix_power" and arrays[0].dtype != out.dtype:  # bfloat16: NumPy returns float32
        out = out.astype(arrays[0].dtype)
    parts = tuple(out) if isinstance(out, tuple) else (out,)
    if half:
        parts = tuple(p.astype(numpy.float16) if p.dtype == numpy.float32 else p for p in parts)
    return parts if isinstance(out, tuple) else parts[0]


def _per_matrix(
    name: str,
    signature: str,
    operands: list[Any],
    dtypes: Any,
    result: Any = None,
    *,
    sizes: dict[str, int] | None = None,
    **kwargs: Any,
) -> Any:
    """NumPy's ``linalg.<name>`` on every matrix of the stack: Dask's ``apply_gufunc``, a matrix a block.

    An array ``rtol`` becomes an operand: one value per matrix.
    """
    if hasattr(kwargs.get("rtol"), "ndim"):
        signature = signature.replace("->", ",()->")
        operands = [*operands, kwargs.pop("rtol")]
        kwargs["array_keyword"] = "rtol"
    out = dask_array.apply_gufunc(
        partial(_numpy_linalg, name, **kwargs),
        signature,
        *operands,
        output_dtypes=dtypes,
        output_sizes=sizes,
        allow_rechunk=True,
    )
    return result(*out) if result is not None else out


def _k(x: Any) -> dict[str, int]:
    """The size ``k`` of a factorization's inner dimension: the smaller of the matrix's two."""
    return {"k": min(int(x.shape[-2]), int(x.shape[-1]))}


def _linalg(base: ModuleType) -> dict[str, Callable[..., Any]]:
    """The ``linalg`` functions Dask lacks, or has for 2-d arrays only: NumPy's on every matrix.

    Dask's own runs where it can (2-d arrays, reduced factorizations): it
    splits one large matrix across blocks, where NumPy's needs each matrix in one.
    """
    results = compat_numpy.linalg

    def one(
        name: str, signature: str, dtypes: Callable[[Any], Any], result: Any = None, *, rtol: bool = False
    ) -> Callable[..., Any]:
        """NumPy's ``linalg.<name>`` on every matrix; ``rtol``: whether it takes that keyword.

        Its arguments are checked now: the graph would only fail when computed.
        """

        def fn(x: Any, /, *args: Any, **kwargs: Any) -> Any:
            n = name == "matrix_power"
            if n and not args and "n" in kwargs:  # n= by name, as NumPy's and torch's take it
                args = (kwargs.pop("n"),)
            if len(args) != n or not kwargs.keys() <= ({"rtol"} if rtol else set()):
                raise _bad_call(name, 1 + n, args, kwargs, {"rtol"} if rtol else set())
            if n:
                kwargs["n"] = _int_argument(name, "n", args[0])
            return _per_matrix(name, signature, [x], dtypes(x.dtype), result, **kwargs)

        fn.__name__ = fn.__qualname__ = name
        fn.__doc__ = f"``linalg.{name}``: NumPy's, on every matrix of the stack (each in one block)."
        return fn

    def inv(x: Any, /) -> Any:
        return base.inv(x) if x.ndim == 2 else _per_matrix("inv", "(m,m)->(m,m)", [x], x.dtype)

    def cholesky(x: Any, /, *, upper: bool = False) -> Any:
        if x.ndim == 2:  # Dask's own (array-api-compat's Dask cholesky takes its upper factor for the lower)
            return dask_array.linalg.cholesky(x, lower=not upper)
        return _per_matrix("cholesky", "(m,m)->(m,m)", [x], x.dtype, upper=upper)

    def tall_or_wide(x: Any) -> bool:  # what Dask's qr and svd take: one row or column of blocks
        return bool(x.ndim == 2 and min(x.numblocks) == 1)

    def qr(x: Any, /, *, mode: str = "reduced") -> Any:
        if tall_or_wide(x) and mode == "reduced":
            return base.qr(x, mode=mode)
        signature = "(m,n)->(m,k),(k,n)" if mode == "reduced" else "(m,n)->(m,m),(m,n)"
        return _per_matrix("qr", signature, [x], (x.dtype, x.dtype), results.QRResult, sizes=_k(x), mode=mode)

    def svd(x: Any, /, *, full_matrices: bool = True) -> Any:
        if tall_or_wide(x) and not full_matrices:
            return base.svd(x, full_matrices=False)
        signature = "(m,n)->(m,m),(k),(n,n)" if full_matrices else "(m,n)->(m,k),(k),(k,n)"
        dtypes = (x.dtype, _real(x.dtype), x.dtype)
        return _per_matrix(
            "svd", signature, [x], dtypes, results.SVDResult, sizes=_k(x), full_matrices=full_matrices
        )

    def svdvals(x: Any, /) -> Any:
        return _per_matrix("svdvals", "(m,n)->(k)", [x], _real(x.dtype), sizes=_k(x))

    def solve(x1: Any, x2: Any, /) -> Any:
        if x1.ndim == 2 and x2.ndim <= 2:
            return base.solve(x1, x2)
        signature = "(m,m),(m)->(m)" if x2.ndim == 1 else "(m,m),(m,n)->(m,n)"
        return _per_matrix("solve", signature, [x1, x2], numpy.result_type(x1.dtype, x2.dtype))

    def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
        _check_axis("cross", axis)
        x1, x2 = dask_array.broadcast_arrays(x1, x2)  # (apply_gufunc broadcasts no loop dimension)
        if x1.ndim == 0 or not -x1.ndim <= axis < x1.ndim or x1.shape[axis] != 3:
            raise ValueError(
                f"cross() takes arrays of size 3 along axis {axis}; got shapes {x1.shape} and {x2.shape}"
            )
        return dask_array.apply_gufunc(
            partial(_numpy_linalg, "cross"),
            "(n),(n)->(n)",
            x1,
            x2,
            axes=[(axis,), (axis,), (axis,)],
            output_dtypes=numpy.result_type(x1.dtype, x2.dtype),
            allow_rechunk=True,
        )

    def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
        keepdims = bool(keepdims)  # (as NumPy's reads it; Dask's raises a TypeError for a str)
        if x.ndim == 2 or ord not in (2, -2, "nuc"):  # Dask's SVD-based norms take 2-d arrays only
            return base.matrix_norm(x, keepdims=keepdims, ord=ord)
        out = _per_matrix("matrix_norm", "(m,n)->()", [x], _real(x.dtype), ord=ord)
        return out[..., None, None] if keepdims else out

    def same(d: Any) -> Any:
        return d

    return {
        "det": one("det", "(m,m)->()", same),
        "slogdet": one("slogdet", "(m,m)->(),()", lambda d: (d, _real(d)), results.SlogdetResult),
        "eigh": one("eigh", "(m,m)->(m),(m,m)", lambda d: (_real(d), d), results.EighResult),
        "eigvalsh": one("eigvalsh", "(m,m)->(m)", _real),
        "eig": one("eig", "(m,m)->(m),(m,m)", lambda d: (_complex(d), _complex(d)), results.EigResult),
        "eigvals": one("eigvals", "(m,m)->(m)", _complex),
        "pinv": one("pinv", "(m,n)->(n,m)", same, rtol=True),
        "matrix_power": one("matrix_power", "(m,m)->(m,m)", same),
        # array-api-compat's Dask matrix_rank calls Dask's svd with a keyword Dask lacks
        "matrix_rank": one("matrix_rank", "(m,n)->()", lambda d: numpy.dtype(numpy.int64), rtol=True),
        "tensordot": _in_operand_dtype(base.tensordot),
        "vecdot": _in_operand_dtype(base.vecdot),
        **{f.__name__: f for f in (inv, cholesky, qr, svd, svdvals, solve, cross, matrix_norm)},
    }


#: The results of the unique functions: the dtype of each (None: the input's), and which has its shape.
_UNIQUE: dict[str, tuple[tuple[str | None, ...], int | None]] = {
    "unique_all": ((None, "int64", "int64", "int64"), 2),
    "unique_counts": ((None, "int64"), None),
    "unique_inverse": ((None, "int64"), 1),
    "unique_values": ((None,), None),
}


def _numpy_unique(name: str, x: Any) -> Any:
    out = getattr(compat_numpy, name)(x)
    return tuple(out) if isinstance(out, tuple) else out


def _whole(x: Any) -> Any:
    """Dask array ``x`` as one delayed NumPy array (its blocks joined in one task)."""
    blocks = x.to_delayed()
    return dask.delayed(numpy.block)(blocks.tolist()) if blocks.size > 1 else blocks.flat[0]


def _unique(name: str) -> Callable[[Any], Any]:
    """``name`` (``unique_all``, ...): NumPy's on the whole array, in one task; unknown sizes until computed.

    Dask's own ``unique`` counts every NaN as one value and fails on empty
    arrays; NumPy's follows the standard.
    """
    dtypes, same_shape = _UNIQUE[name]

    def unique(x: Any, /) -> Any:
        found = dask.delayed(_numpy_unique, nout=len(dtypes))(name, _whole(x))
        parts = found if len(dtypes) > 1 else (found,)
        size = 0 if x.size == 0 else numpy.nan  # unknown until computed, unless x is empty
        out = tuple(
            dask_array.from_delayed(
                part, shape=x.shape if i == same_shape else (size,), dtype=dtype or x.dtype
            )
            for i, (part, dtype) in enumerate(zip(parts, dtypes, strict=True))
        )
        return out if len(out) > 1 else out[0]

    unique.__name__ = unique.__qualname__ = name
    return unique


def _in_operand_dtype(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (``tensordot``, ``vecdot``) with its result in its operands' dtype.

    Dask sums integer and bool products in a 64-bit integer (``tensordot`` of
    uint8 gives uint64); cast back, the values are those NumPy gives.
    """
    name = getattr(fn, "__name__", "same_dtype")

    def same_dtype(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        if name == "vecdot" and (x1.ndim == 0 or x2.ndim == 0):  # (Dask's raises an IndexError)
            raise ValueError("vecdot() takes arrays of one dimension or more, not 0-d ones")
        out = fn(x1, x2, **kwargs)
        want = numpy.result_type(x1.dtype, x2.dtype)
        return out if out.dtype == want else out.astype(want)

    same_dtype.__name__ = same_dtype.__qualname__ = name
    return same_dtype


def _take_along_axis(x: Any, indices: Any, /, *, axis: int = -1) -> Any:
    """``take_along_axis``: NumPy's along ``axis`` (in one block), broadcast over the other axes."""
    n = x.ndim
    shape = numpy.broadcast_shapes(
        *(tuple(1 if i == axis % n else s for i, s in enumerate(a.shape)) for a in (x, indices))
    )
    x = dask_array.broadcast_to(x, tuple(x.shape[i] if i == axis % n else s for i, s in enumerate(shape)))
    indices = dask_array.broadcast_to(
        indices, tuple(indices.shape[i] if i == axis % n else s for i, s in enumerate(shape))
    )
    if 0 in indices.shape:  # nothing to take (apply_gufunc takes no empty core dimension)
        return dask_array.empty(indices.shape, dtype=x.dtype)
    return dask_array.apply_gufunc(
        partial(numpy.take_along_axis, axis=-1),
        "(n),(m)->(m)",
        x,
        indices,
        axes=[(axis,), (axis,), (axis,)],
        output_dtypes=x.dtype,
        allow_rechunk=True,
    )


def _take(x: Any, indices: Any, /, *, axis: int | None = None) -> Any:
    """``take`` as ``x[..., indices]`` along ``axis``: its indices checked against the axis.

    Dask's own reads an index out of bounds as another one; the indexing path
    checks known ones now, others when the graph is computed.  Known indices
    index as the NumPy array they are (Dask gives an index array of one
    element the shape of the whole axis).
    """
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"take() of a {x.ndim}-d array needs an axis")
        axis = 0
    values = known(indices)
    return getitem(x, (slice(None),) * (axis % x.ndim) + (indices if values is None else values,))


def _from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """A Dask array of one block over any DLPack-capable array (NumPy's ``from_dlpack``).

    Raises
    ------
    TypeError
        ``x`` has no ``__dlpack__`` (a Dask array has none: it is lazy, and has no buffer to share).
    BufferError
        ``copy=False``: Dask's ``from_array`` copies NumPy's array (its blocks stay private).
    """
    if not hasattr(x, "__dlpack__"):
        lazy = " (a Dask array is lazy: compute it first)" if isinstance(x, dask_array.Array) else ""
        raise TypeError(f"from_dlpack() takes an array that supports DLPack, not {type(x).__name__}{lazy}")
    if copy is False:
        raise BufferError("from_dlpack(x, copy=False) on the dask backend: Dask copies all; use copy=None")
    return dask_array.from_array(numpy.from_dlpack(x, device=device, copy=copy))


# --- arguments: checked while the graph is built, where Dask would fail when it is computed ----


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, (bool, numpy.bool_))


def _int_argument(name: str, what: str, v: Any) -> Any:
    """``v``, the int argument ``what`` of ``name``; a TypeError for anything else."""
    if not _is_int(v):
        raise TypeError(f"{name}()'s {what} is an int, not {type(v).__name__} {v!r}")
    return v


def _bad_call(name: str, positional: int, args: tuple[Any, ...], kwargs: Any, keywords: Any) -> TypeError:
    """The TypeError for ``name`` called with ``args`` after its first argument and ``kwargs``."""
    unknown = sorted(set(kwargs) - set(keywords))
    if unknown:
        return TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
    plural = "s" if positional != 1 else ""
    return TypeError(
        f"{name}() takes {positional} positional argument{plural} but {1 + len(args)} were given"
    )


def _check_axis(name: str, axis: Any) -> None:
    """Raise a TypeError naming ``name`` where ``axis`` is no int, tuple of ints or None."""
    if axis is not None and not (_is_int(axis) or (isinstance(axis, tuple) and all(map(_is_int, axis)))):
        kind = type(axis).__name__
        raise TypeError(f"{name}()'s axis is an int, a tuple of ints or None, not {kind} {axis!r}")


#: The functions whose Dask versions fail on an ``axis`` of a wrong type when the graph is computed,
#: with an AssertionError or a ValueError, or take a float (NumPy raises a TypeError at once).
_AXIS_CHECKED = frozenset(("cumulative_prod", "cumulative_sum", "diff", "roll"))
#: The same for ``keepdims`` (Dask's ``mean`` raises an IndexError; NumPy takes any int or bool).
_KEEPDIMS_CHECKED = frozenset(("count_nonzero", "mean", "std", "var"))
#: Creation functions whose Dask versions take any keyword (and drop it): the keywords they take.
_CREATION = dict.fromkeys(("empty", "ones", "zeros"), frozenset(("dtype", "device", "chunks")))


def _bool_diff(diff: Callable[..., Any]) -> Callable[..., Any]:
    """``diff``, of bools too: NumPy's ``not_equal`` of neighbours (Dask's subtracts, which bools refuse)."""

    @wraps(diff)
    def exact(x: Any, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> Any:
        if x.dtype != numpy.bool_ or not isinstance(n, int) or n < 1:
            return diff(x, axis=axis, n=n, prepend=prepend, append=append)
        ends = [
            e.astype(numpy.int8) if getattr(e, "dtype", None) == numpy.bool_ else e for e in (prepend, append)
        ]
        out = diff(x.astype(numpy.int8), axis=axis, prepend=ends[0], append=ends[1]) != 0
        for _ in range(n - 1):
            out = diff(out.astype(numpy.int8), axis=axis) != 0
        return out

    return exact


#: Reductions without an identity: over an axis known to be empty, NumPy's ValueError when called
#: (Dask's gave an array of the wrong shape, or failed only when computed).
_NO_IDENTITY = frozenset(("argmax", "argmin", "max", "min"))


def _check_not_empty(name: str, x: Any, axis: Any) -> None:
    """Raise NumPy's ValueError where ``name`` reduces an axis of ``x`` known to have no element."""
    shape = getattr(x, "shape", ())
    axes = reduced_axes(len(shape), axis)
    if any(isinstance(a, int) and -len(shape) <= a < len(shape) and shape[a] == 0 for a in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")


def _checked(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn``, compat's ``name``, its keywords checked where Dask's would fail late or take them silently."""
    keywords = _CREATION.get(name)
    axis, keepdims = name in _AXIS_CHECKED, name in _KEEPDIMS_CHECKED
    empty = name in _NO_IDENTITY
    if keywords is None and not axis and not keepdims and not empty:
        return fn

    @wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if keywords is not None and not kwargs.keys() <= keywords:
            raise _bad_call(name, 1, (), kwargs, keywords)
        if axis:
            _check_axis(name, kwargs.get("axis"))
        if empty and args:
            _check_not_empty(name, args[0], kwargs.get("axis"))
            shape = getattr(args[0], "shape", (1,))
            if 0 in shape and all(isinstance(n, int) for n in shape):  # NumPy's empty result (Dask's fails)
                return dask_array.from_array(
                    getattr(compat_numpy, name)(numpy.empty(shape, args[0].dtype), **kwargs)
                )
        flag = kwargs.get("keepdims", False)
        if keepdims and not isinstance(flag, (bool, int, numpy.bool_, numpy.integer)):
            raise TypeError(f"{name}()'s keepdims is a bool, not {type(flag).__name__} {flag!r}")
        return fn(*args, **kwargs)

    return checked


def _one_array(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn``, an element-wise function of one array, taking that array only.

    Dask's ufuncs take a second positional argument as ``out`` (whose graph
    they would rewrite), and its ``imag`` and ``real`` return NotImplemented.
    """

    @wraps(fn)
    def one(x: Any, /, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:
            raise _bad_call(name, 1, args, kwargs, ())
        return fn(x)

    return one


def _wrapped(fn: Any, name: str) -> Any:
    """Compat's attribute ``name``, with its arguments checked where it is a function."""
    if name.startswith("_") or not callable(fn) or isinstance(fn, type):
        return fn
    if name in ("imag", "real") or (isinstance(fn, dask_ufunc) and fn._ufunc.nin == 1):
        return _one_array(fn, name)
    return _checked(fn, name)


class DaskCompat(ModuleType):
    """``array_api_compat.dask.array`` (or its ``linalg``), with what the standard has and it lacks.

    ``from_dlpack`` goes through NumPy; ``eye`` with more columns than rows
    is cut from a square one (Dask's own loses blocks there); the ``linalg``
    functions Dask has no algorithm for run NumPy's on every matrix of the
    stack (:func:`_linalg`); ``tensordot`` and ``vecdot`` give their
    operands' dtype; ``searchsorted`` takes a ``sorter``, ``repeat`` no
    axis; ``linspace`` ends at ``stop`` exactly; ``take_along_axis`` is
    NumPy's along the axis, ``take`` indexing that checks its indices.
    Every other name is the compat module's own,
    with its arguments checked where Dask's would take them silently or fail
    only when the graph is computed (:func:`_wrapped`).
    """

    def __init__(self, base: ModuleType) -> None:
        super().__init__(base.__name__, base.__doc__)
        self._base = base
        if hasattr(base, "linalg"):
            self.linalg = DaskCompat(base.linalg)
            self.from_dlpack = _from_dlpack
            self.eye = self._eye
            for name in _UNIQUE:
                setattr(self, name, _unique(name))
            self.tensordot = _in_operand_dtype(base.tensordot)
            self.vecdot = _in_operand_dtype(base.vecdot)
            self.full_like = self._full_like
            self.reshape = self._reshape
            self.permute_dims = self._permute_dims
            self.searchsorted = self._searchsorted
            self.linspace = self._linspace
            self.repeat = self._repeat
            self.take_along_axis = _take_along_axis
            self.take = _take
            self.diff = _bool_diff(_wrapped(base.diff, "diff"))
        else:
            for name, fn in _linalg(base).items():
                setattr(self, name, fn)

    def _eye(self, n_rows: int, n_cols: int | None = None, /, **kwargs: Any) -> Any:
        if n_cols is not None and n_cols > n_rows:
            return self._base.eye(n_cols, n_cols, **kwargs)[:n_rows]
        return self._base.eye(n_rows, n_cols, **kwargs)

    def _linspace(self, start: Any, stop: Any, /, num: int, *, endpoint: bool = True, **kwargs: Any) -> Any:
        """``linspace``, whose last value is ``stop`` itself where it is included, as NumPy's.

        (Dask's computes it as ``start + (num - 1) * step``, which may round elsewhere.)  An
        integer or bool dtype takes NumPy's values (:func:`._values.numpy_spacing`).  A
        complex bound (Dask's takes none) spaces the real and imaginary parts apart, as
        NumPy's complex steps do, and casts them to a bool or real ``dtype`` as NumPy does.
        """
        if start.__class__ is complex or stop.__class__ is complex:
            dtype = numpy.dtype(kwargs.pop("dtype", None) or numpy.complex128)
            re, im = (
                self._linspace(a, b, num, endpoint=endpoint, dtype=numpy.dtype(numpy.float64), **kwargs)
                for a, b in (
                    (complex(start).real, complex(stop).real),
                    (complex(start).imag, complex(stop).imag),
                )
            )
            if dtype.kind == "f":
                return re.astype(dtype)
            spaced = re + 1j * im
            return spaced != 0 if dtype.kind == "b" else spaced.astype(dtype)
        kind = None if kwargs.get("dtype") is None else numpy.dtype(kwargs["dtype"]).kind
        if kind is not None and kind in "iub":  # NumPy's floors (Dask's truncate)
            asked = kwargs.pop("dtype")
            base = self._base
            spaced = numpy_spacing(
                base, start, stop, num, endpoint=endpoint, float_dtype=numpy.float64, **kwargs
            )
            return spaced != 0 if kind == "b" else base.astype(base.floor(spaced), asked)
        out = self._base.linspace(start, stop, num, endpoint=endpoint, **kwargs)
        if endpoint and num > 1:
            out[-1] = stop
        return out

    def _reshape(self, x: Any, /, shape: Any, *args: Any, copy: bool | None = None) -> Any:
        """``reshape``, its ``shape`` and ``copy`` checked (Dask's takes any ``copy``).

        A list of ints is a shape too, as on every other backend (einops passes one).
        """
        if args:
            raise _bad_call("reshape", 2, args, {}, ())
        if not _is_int(shape) and not (isinstance(shape, (tuple, list)) and all(map(_is_int, shape))):
            raise TypeError(f"reshape()'s shape is a tuple of ints, not {type(shape).__name__} {shape!r}")
        shape = tuple(shape) if isinstance(shape, list) else shape
        if isinstance(copy, str):
            raise ValueError(f"reshape()'s copy is True, False or None, not {copy!r}")
        return self._base.reshape(x, shape, copy=copy)

    def _permute_dims(self, x: Any, /, axes: Any, *args: Any) -> Any:
        """``permute_dims``, its ``axes`` checked (Dask's says only that they do not match)."""
        if args:
            raise _bad_call("permute_dims", 2, args, {}, ())
        if axes is not None and (not isinstance(axes, (tuple, list)) or not all(map(_is_int, axes))):
            raise TypeError(f"permute_dims()'s axes are a tuple of ints, not {type(axes).__name__} {axes!r}")
        return self._base.permute_dims(x, axes)

    def _repeat(self, x: Any, repeats: Any, /, *args: Any, axis: int | None = None) -> Any:
        """``repeat``; without ``axis``, of the flattened array (Dask's wants an axis).

        Dask's takes an int ``repeats`` only, and fails on an empty axis: an
        array of repeats runs NumPy's on the whole array in one task (the
        axis's size is unknown until computed, as the values decide it), and
        an empty axis stays empty.
        """
        if args:
            raise _bad_call("repeat", 2, args, {}, ())
        if axis is None:
            x, axis = self._base.reshape(x, (-1,)), 0
        if x.shape[axis] == 0:
            return x.copy()
        if not isinstance(repeats, dask_array.Array):
            return self._base.repeat(x, _int_argument("repeat", "repeats", repeats), axis=axis)
        shape = list(x.shape)
        shape[axis] = numpy.nan
        task = dask.delayed(numpy.repeat)(_whole(x), _whole(signed_counts(repeats)), axis=axis)
        return dask_array.from_delayed(task, shape=tuple(shape), dtype=x.dtype)

    def _searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """``searchsorted``; a ``sorter`` (Dask takes none) through ``take``: the same positions.

        A 0-d ``x2`` is searched as a 1-d one (Dask's fails on it when computed).
        """
        if x2.ndim == 0:
            return self._searchsorted(x1, x2.reshape((1,)), side=side, sorter=sorter).reshape(())
        if sorter is not None:
            values = known(sorter)
            n = int(x1.shape[-1])
            if values is not None and values.size:
                check_sorter(int(values.min()), int(values.max()), n, values.size)
            x1 = _take(x1, sorter)  # indices known only when computed: checked then
        return self._base.searchsorted(x1, x2, side=side)

    def _full_like(self, x: Any, /, fill_value: Any, **kwargs: Any) -> Any:
        """``full_like``, its dtype and value checked now (Dask's would fail when computed)."""
        dtype = kwargs.get("dtype")
        if dtype is not None and not isinstance(dtype, numpy.dtype):
            raise TypeError(f"full_like()'s dtype is a dtype, not {type(dtype).__name__} {dtype!r}")
        dtype = dtype or x.dtype
        if not isinstance(fill_value, dask_array.Array):
            numpy.full((), fill_value, dtype=dtype)  # NumPy's cast, or its OverflowError or ValueError
        return self._base.full_like(x, fill_value, **kwargs)

    def __getattr__(self, name: str) -> Any:
        found = _wrapped(getattr(self._base, name), name)
        setattr(self, name, found)  # looked up once
        return found
