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
from functools import partial
from types import ModuleType
from typing import Any

import array_api_compat.numpy as compat_numpy
import dask
import dask.array as dask_array
import numpy

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
    out = getattr(compat_numpy.linalg, name)(*arrays, **kwargs)
    return tuple(out) if isinstance(out, tuple) else out


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
        name: str, signature: str, dtypes: Callable[[Any], Any], result: Any = None
    ) -> Callable[..., Any]:
        def fn(x: Any, /, *args: Any, **kwargs: Any) -> Any:
            if args:  # matrix_power's n
                kwargs["n"] = args[0]
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
        x1, x2 = dask_array.broadcast_arrays(x1, x2)  # (apply_gufunc broadcasts no loop dimension)
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
        "pinv": one("pinv", "(m,n)->(n,m)", same),
        "matrix_power": one("matrix_power", "(m,m)->(m,m)", same),
        # array-api-compat's Dask matrix_rank calls Dask's svd with a keyword Dask lacks
        "matrix_rank": one("matrix_rank", "(m,n)->()", lambda d: numpy.dtype(numpy.int64)),
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

    def same_dtype(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        out = fn(x1, x2, **kwargs)
        want = numpy.result_type(x1.dtype, x2.dtype)
        return out if out.dtype == want else out.astype(want)

    same_dtype.__name__ = same_dtype.__qualname__ = getattr(fn, "__name__", "same_dtype")
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


def _from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """A Dask array of one block over any DLPack-capable array (NumPy's ``from_dlpack``)."""
    return dask_array.from_array(numpy.from_dlpack(x, device=device, copy=copy))


class DaskCompat(ModuleType):
    """``array_api_compat.dask.array`` (or its ``linalg``), with what the standard has and it lacks.

    ``from_dlpack`` goes through NumPy; ``eye`` with more columns than rows
    is cut from a square one (Dask's own loses blocks there); the ``linalg``
    functions Dask has no algorithm for run NumPy's on every matrix of the
    stack (:func:`_linalg`); ``tensordot`` and ``vecdot`` give their
    operands' dtype; ``searchsorted`` takes a ``sorter``, ``repeat`` no
    axis; ``linspace`` ends at ``stop`` exactly; ``take_along_axis`` is
    NumPy's along the axis.  Every other name is the compat module's own.
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
            self.searchsorted = self._searchsorted
            self.linspace = self._linspace
            self.repeat = self._repeat
            self.take_along_axis = _take_along_axis
        else:
            for name, fn in _linalg(base).items():
                setattr(self, name, fn)

    def _eye(self, n_rows: int, n_cols: int | None = None, /, **kwargs: Any) -> Any:
        if n_cols is not None and n_cols > n_rows:
            return self._base.eye(n_cols, n_cols, **kwargs)[:n_rows]
        return self._base.eye(n_rows, n_cols, **kwargs)

    def _linspace(self, start: Any, stop: Any, /, num: int, *, endpoint: bool = True, **kwargs: Any) -> Any:
        """``linspace``, whose last value is ``stop`` itself where it is included, as NumPy's.

        (Dask's computes it as ``start + (num - 1) * step``, which may round elsewhere.)
        """
        out = self._base.linspace(start, stop, num, endpoint=endpoint, **kwargs)
        if endpoint and num > 1:
            out[-1] = stop
        return out

    def _repeat(self, x: Any, repeats: Any, /, *, axis: int | None = None) -> Any:
        """``repeat``; without ``axis``, of the flattened array (Dask's wants an axis).

        Dask's takes an int ``repeats`` only, and fails on an empty axis: an
        array of repeats runs NumPy's on the whole array in one task (the
        axis's size is unknown until computed, as the values decide it), and
        an empty axis stays empty.
        """
        if axis is None:
            x, axis = self._base.reshape(x, (-1,)), 0
        if x.shape[axis] == 0:
            return x.copy()
        if not isinstance(repeats, dask_array.Array):
            return self._base.repeat(x, repeats, axis=axis)
        shape = list(x.shape)
        shape[axis] = numpy.nan
        task = dask.delayed(numpy.repeat)(_whole(x), _whole(repeats), axis=axis)
        return dask_array.from_delayed(task, shape=tuple(shape), dtype=x.dtype)

    def _searchsorted(self, x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
        """``searchsorted``; a ``sorter`` (Dask takes none) through ``take``: the same positions."""
        if sorter is not None:
            x1 = self._base.take(x1, sorter)
        return self._base.searchsorted(x1, x2, side=side)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)
