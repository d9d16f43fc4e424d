# ruff: noqa: N803  (the parameters are named as torch names them: A, B, UPLO, that keywords bind alike)
"""``torch.linalg`` (and torch's older names of its functions) and ``torch.fft`` as the namespace's calls.

torch's arguments the standard spells otherwise are translated (``dim`` to
``axis``, ``keepdim`` to ``keepdims``, ``norm=None`` to ``"backward"``); those
it has not are honoured where a view does it (``UPLO="U"`` is the lower
triangle of the conjugate transpose, ``solve(left=False)`` a transposed solve,
``matrix_norm(dim=...)`` the norm of the matrix moved last), and refused with
:class:`~promo_ns.audit.torch_policy._call.ArgumentError` where nothing does
(``pinv(atol=...)``, ``hermitian=True``, ``driver=``).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

import torch

from promo_ns.audit.torch_policy._call import (
    Call,
    Translator,
    axis,
    both,
    computed,
    decided_as,
    is_dim,
    one_array,
    tensors,
    unhonoured,
)

__all__ = ["FFT", "LINALG"]


def _refusing(function: str, reference: str, **given: Any) -> None:
    """Raise for the first of ``given`` (torch's argument -> its value) that is not at its default.

    Raises
    ------
    ArgumentError
        That argument's value.
    """
    for argument, value in given.items():
        if value is not None and value is not False:
            raise unhonoured(function, argument, value, reference)


def _cholesky(A: Any, *, upper: bool = False) -> Call | None:
    return Call("linalg.cholesky", (A,), {"upper": upper}) if tensors(A) else None


def _qr(A: Any, mode: str = "reduced") -> Call | None:
    ours = tensors(A) and mode in ("reduced", "complete")  # mode="r": torch's own
    return Call("linalg.qr", (A,), {"mode": mode}) if ours else None


def _svd(A: Any, full_matrices: bool = True, *, driver: str | None = None) -> Call | None:
    if not tensors(A):
        return None
    _refusing("torch.linalg.svd", "linalg.svd(x, /, *, full_matrices=True)", driver=driver)
    return Call("linalg.svd", (A,), {"full_matrices": full_matrices})


def _svdvals(A: Any, *, driver: str | None = None) -> Call | None:
    if not tensors(A):
        return None
    _refusing("torch.linalg.svdvals", "linalg.svdvals(x, /)", driver=driver)
    return Call("linalg.svdvals", (A,), {})


def _hermitian(name: str) -> Translator:
    """``torch.linalg.eigh``/``eigvalsh(A, UPLO="L")``; the upper triangle is the lower one of ``A.mH``."""

    def call(A: Any, UPLO: str = "L") -> Call | None:
        if not tensors(A) or UPLO not in ("L", "U"):
            return None
        return Call(name, (A if UPLO == "L" else A.mH,), {})

    return call


def _tolerant(name: str) -> Translator:
    """``torch.linalg.pinv``/``matrix_rank(A, *, atol=None, rtol=None, hermitian=False)``; ``rtol`` only."""

    def call(A: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Call | None:
        if not tensors(A):
            return None
        _refusing(f"torch.{name}", f"{name}(x, /, *, rtol=None)", atol=atol, hermitian=hermitian)
        return Call(name, (A,), {"rtol": rtol})

    return call


#: The orders of a matrix norm (torch's and the standard's); any other is torch's own error.
_MATRIX_ORDERS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def _real_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _over_matrices(A: Any, dim: Any, ord: Any, keepdim: bool) -> Call | None:
    """The namespace's ``matrix_norm`` of ``A`` over the two axes ``dim``: moved last, then (keepdim) back."""
    if not isinstance(dim, (tuple, list)) or len(dim) != 2 or not is_dim(dim) or A.ndim < 2:
        return None  # torch's own error
    if not any(ord == o and type(ord) is not bool for o in _MATRIX_ORDERS):
        return None  # torch's own error names the order, where the namespace's is about its kernel
    dims = tuple(d % A.ndim for d in dim)
    last = (A.ndim - 2, A.ndim - 1)
    if dims == last:
        return Call("linalg.matrix_norm", (A,), {"keepdims": keepdim, "ord": ord})
    moved = A.movedim(dims, last)
    after = (lambda out: out.movedim(last, dims)) if keepdim else None
    return Call("linalg.matrix_norm", (moved,), {"keepdims": keepdim, "ord": ord}, after)


def _matrix_norm(
    A: Any, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *, dtype: Any = None
) -> Call | None:
    """``torch.linalg.matrix_norm``; with ``dtype=`` (no spelling in the standard's), torch's own."""
    return _over_matrices(A, dim, ord, keepdim) if tensors(A) and dtype is None else None


def _vector_norm(
    A: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Call | None:
    """``torch.linalg.vector_norm``; with ``dtype=`` (no spelling in the standard's), torch's own."""
    if not tensors(A) or dtype is not None or not is_dim(dim) or not _real_number(ord):
        return None  # a dtype=, or torch's own error (an order that is no number)
    return Call("linalg.vector_norm", (A,), {"axis": axis(dim), "keepdims": keepdim, "ord": ord})


def _norm(
    A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Call | None:
    """``torch.linalg.norm``: a vector norm over one axis (every one, without ``ord``), else a matrix norm."""
    if not tensors(A) or dtype is not None:
        return None
    if dim is None and ord is not None:  # a vector or a matrix, as its number of axes says
        dim = {1: (0,), 2: (-2, -1)}.get(A.ndim)
        if dim is None:  # torch's own error
            return None
    if dim is None or isinstance(dim, int) or (isinstance(dim, (tuple, list)) and len(dim) == 1):
        return _vector_norm(A, 2 if ord is None else ord, dim, keepdim)
    return _over_matrices(A, dim, "fro" if ord is None else ord, keepdim)


def _trace(x: Any) -> Call | None:
    """``torch.trace`` of a matrix (of anything else: torch's own error; the namespace's traces stacks)."""
    return Call("linalg.trace", (x,), {}) if isinstance(x, torch.Tensor) and x.ndim == 2 else None


def _old_norm(
    A: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False, *, dtype: Any = None
) -> Call | None:
    """``torch.norm`` and ``x.norm``, as torch runs them: a vector norm, or a matrix norm (``"nuc"``).

    ``"fro"`` over at most two axes (all, without ``dim``) is the vector
    2-norm; another string ``p`` the matrix norm over ``dim`` (every axis,
    without it: torch's own error unless there are two); a number the
    vector ``p``-norm.  With ``dtype=``, torch's own.
    """
    if not tensors(A) or dtype is not None:
        return None
    dims = [dim] if isinstance(dim, int) else dim
    if not isinstance(p, str):
        return _vector_norm(A, 2.0 if p is None else p, dims, keepdim)
    if p == "fro" and (dims is None or (isinstance(dims, (tuple, list)) and len(dims) <= 2)):
        return _vector_norm(A, 2, dims, keepdim)
    return _over_matrices(A, list(range(A.ndim)) if dims is None else dims, p, keepdim)


def _solve(A: Any, B: Any, *, left: bool = True) -> Call | None:
    """``torch.linalg.solve``; ``left=False`` (``X A = B``) as ``solve(A.mT, B.mT).mT``.

    A ``B`` of one axis fewer than ``A`` is a (batch of) vector(s), as torch
    reads it: solved as one column each.
    """
    if not tensors(A, B):
        return None
    if B.ndim >= 1 and B.shape == A.shape[:-1]:  # torch's (batch of) vector(s); left=False: its error
        return (
            Call("linalg.solve", (A, B.unsqueeze(-1)), {}, lambda solved: solved.squeeze(-1))
            if left
            else None
        )
    if left:
        return Call("linalg.solve", (A, B), {})
    return Call("linalg.solve", (A.mT, B.mT), {}, lambda solved: solved.mT)


def _cross(x: Any, y: Any, *, dim: int = -1) -> Call | None:
    return Call("linalg.cross", (x, y), {"axis": dim}) if tensors(x, y) and isinstance(dim, int) else None


def _old_cross(x: Any, y: Any, dim: int | None = None) -> Call | None:
    """``torch.cross(x, y, dim=None)``: without ``dim``, the first axis of ``x`` of size 3 (torch's rule)."""
    if dim is None and isinstance(x, torch.Tensor):
        dim = next((i for i, n in enumerate(x.shape) if n == 3), None)
        if dim is None:  # torch's own error
            return None
        if isinstance(y, torch.Tensor):  # torch's own deprecation warning (once), on shapes alone
            with contextlib.suppress(RuntimeError):
                torch.cross(x.to("meta"), y.to("meta"))
    return _cross(x, y, dim=dim if dim is not None else -1)


def _vecdot(x: Any, y: Any, *, dim: int = -1) -> Call | None:
    return Call("linalg.vecdot", (x, y), {"axis": dim}) if tensors(x, y) and isinstance(dim, int) else None


def _matrix_power(A: Any, n: int) -> Call | None:
    return Call("linalg.matrix_power", (A, n), {}) if tensors(A) and isinstance(n, int) else None


#: ``torch.linalg`` functions that take one matrix and nothing else, and torch's older names of them.
_PLAIN = {
    "det": ("det",),
    "inv": ("inverse",),
    "slogdet": ("slogdet",),
    "eig": (),
    "eigvals": (),
}
#: Torch's linear algebra whose dtype the policy decides -> its translators.
LINALG: dict[Callable[..., Any], Translator] = {
    **{
        fn: one_array(f"linalg.{name}")
        for name, older in _PLAIN.items()
        for fn in (getattr(torch.linalg, name), *(f for o in older for f in both(o)))
    },
    torch.linalg.cholesky: _cholesky,
    torch.linalg.qr: _qr,
    torch.linalg.svd: _svd,
    torch.linalg.svdvals: _svdvals,
    torch.linalg.eigh: _hermitian("linalg.eigh"),
    torch.linalg.eigvalsh: _hermitian("linalg.eigvalsh"),
    torch.linalg.pinv: _tolerant("linalg.pinv"),
    torch.linalg.matrix_rank: _tolerant("linalg.matrix_rank"),
    torch.linalg.matrix_norm: _matrix_norm,
    torch.linalg.vector_norm: _vector_norm,
    torch.linalg.norm: _norm,
    **dict.fromkeys(both("norm"), _old_norm),
    torch.linalg.solve: _solve,
    torch.linalg.cross: _cross,
    **dict.fromkeys(both("cross"), _old_cross),
    torch.linalg.vecdot: _vecdot,
    **dict.fromkeys((torch.linalg.matrix_power, *both("matrix_power")), _matrix_power),
    **dict.fromkeys(both("trace"), _trace),
}


def _fft(name: str) -> Translator:
    """``torch.fft.<name>(x, n=None, dim=-1, norm=None)`` as the namespace's ``fft.<name>``."""

    def call(x: Any, n: int | None = None, dim: int = -1, norm: str | None = None) -> Call | None:
        if not tensors(x) or not isinstance(dim, int):
            return None
        return Call(f"fft.{name}", (x,), {"n": n, "axis": dim, "norm": norm or "backward"})

    return call


def _fftn(name: str, default: tuple[int, ...] | None = None) -> Translator:
    """``torch.fft.<name>n(x, s=None, dim=None, norm=None)`` (``<name>2``: ``dim=(-2, -1)``) as ours."""

    def call(x: Any, s: Any = None, dim: Any = default, norm: str | None = None) -> Call | None:
        if not tensors(x) or not is_dim(dim) or not (s is None or isinstance(s, (tuple, list))):
            return None
        axes = (dim,) if isinstance(dim, int) else None if dim is None else tuple(dim)
        size = None if s is None else tuple(s)
        return Call(f"fft.{name}n", (x,), {"s": size, "axes": axes, "norm": norm or "backward"})

    return call


def _hermitian_n(name: str, default: tuple[int, ...] | None = None) -> Translator:
    """``torch.fft.<name>n``/``<name>2`` (``hfft``, ``ihfft``): torch's, in the namespace's ``name``'s dtypes.

    The standard has ``hfft``/``ihfft`` of one axis only: the namespace's
    decides the result dtype (or refuses), and torch's transform runs on ``x``
    cast to the input dtype of that result (its complex or real counterpart).
    """
    transform = getattr(torch.fft, f"{name}{'n' if default is None else '2'}")

    def call(x: Any, s: Any = None, dim: Any = default, norm: str | None = None) -> Call | None:
        if not tensors(x) or not is_dim(dim) or not (s is None or isinstance(s, (tuple, list))):
            return None

        def compute(dtype: torch.dtype) -> Any:
            source = dtype
            if x.is_complex() != dtype.is_complex:
                source = dtype.to_complex() if x.is_complex() else dtype.to_real()
            return computed(lambda t: transform(t, s=s, dim=dim, norm=norm), x.to(source), dtype)

        return decided_as(f"fft.{name}", x, compute)

    return call


def _shift(name: str) -> Translator:
    """``torch.fft.fftshift``/``ifftshift(x, dim=None)`` as the namespace's (which checks the input kind)."""

    def call(x: Any, dim: Any = None) -> Call | None:
        if not tensors(x) or not is_dim(dim):
            return None
        return Call(f"fft.{name}", (x,), {"axes": dim if not isinstance(dim, list) else tuple(dim)})

    return call


#: ``torch.fft``'s transforms -> their translators (``hfftn``/``ihfftn``, which the standard has not, as its
#: ``hfft``/``ihfft`` decide).
FFT: dict[Callable[..., Any], Translator] = {
    **{getattr(torch.fft, name): _fft(name) for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{getattr(torch.fft, f"{name}n"): _fftn(name) for name in ("fft", "ifft", "rfft", "irfft")},
    **{getattr(torch.fft, f"{name}2"): _fftn(name, (-2, -1)) for name in ("fft", "ifft", "rfft", "irfft")},
    **{getattr(torch.fft, f"{name}n"): _hermitian_n(name) for name in ("hfft", "ihfft")},
    **{getattr(torch.fft, f"{name}2"): _hermitian_n(name, (-2, -1)) for name in ("hfft", "ihfft")},
    **{getattr(torch.fft, name): _shift(name) for name in ("fftshift", "ifftshift")},
}
