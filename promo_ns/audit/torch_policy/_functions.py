"""Torch's functions of several tensors, one-array functions and reductions as the namespace's calls.

Also the in-place forms of the one-array functions, ``clamp`` and the cumulative
sums (``x.sqrt_()``, ``x.clamp_(0)``, ``x.cumsum_(0)``), stored where the policy
casts their result back; and torch's functions the namespace lacks, decided as
the namespace's of the same dtype rule: ``nansum``/``nanmean`` as ``sum``/``mean``,
``logsumexp`` as ``exp``, ``aminmax`` as ``min`` and ``max``, ``vdot`` as
``matmul`` (``torch.dot``), ``inner`` as ``tensordot``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from promo_ns.audit.torch_policy._call import (
    SCALARS,
    Call,
    Calls,
    Decided,
    Translator,
    axis,
    both,
    computed,
    decided_as,
    decided_by,
    decided_over,
    in_place,
    is_dim,
    is_operand,
    one_array,
    tensors,
)

__all__ = ["FUNCTIONS", "ONE_ARRAY"]


def _sequence(name: str) -> Translator:
    """``torch.cat``/``stack(tensors, dim=0)`` as the namespace's ``name(arrays, axis=dim)``."""

    def call(tensors: Any, dim: int = 0) -> Call | None:
        if not isinstance(tensors, (list, tuple)) or not all(isinstance(t, torch.Tensor) for t in tensors):
            return None
        return Call(name, (list(tensors),), {"axis": dim})

    return call


def _matmul(x: Any, y: Any, name: str = "matmul") -> Call | None:
    return Call(name, (x, y), {}) if tensors(x, y) else None


def _product(ndims: tuple[int, int]) -> Translator:
    """``torch.mm``/``bmm``/``mv``/``dot`` as ``matmul`` where the operands have the axes torch takes."""

    def call(x: Any, y: Any) -> Call | None:
        return _matmul(x, y) if tensors(x, y) and (x.ndim, y.ndim) == ndims else None  # else torch's error

    return call


def _operator_matmul(x: Any, y: Any) -> Call | None:
    """``x @ y``: the namespace's ``@`` (``__matmul__``), whose cells may differ from ``matmul``'s."""
    return _matmul(x, y, "__matmul__")


def _reflected_matmul(y: Any, x: Any) -> Call | None:
    return _operator_matmul(x, y)


def _clip(x: Any, min: Any = None, max: Any = None) -> Call | None:
    bounds = [b for b in (min, max) if b is not None]
    if not isinstance(x, torch.Tensor) or not bounds:  # no bound: torch's own error
        return None
    if not all(map(is_operand, bounds)):
        return None
    return Call("clip", (x,), {"min": min, "max": max})


def _reduction(name: str) -> Callable[..., Call | None]:
    """``torch.<name>(x, dim=None, keepdim=False, *, dtype=None)`` as the namespace's ``name``."""

    def call(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Call | None:
        if not isinstance(x, torch.Tensor) or not is_dim(dim):
            return None
        if dtype is not None and name == "mean":  # the standard's mean takes no dtype: torch's own
            return None
        kwargs: dict[str, Any] = {"axis": axis(dim), "keepdims": keepdim}
        if dtype is not None:
            kwargs["dtype"] = dtype
        return Call(name, (x,), kwargs)

    return call


def _statistic(name: str) -> Callable[..., Call | None]:
    """``torch.<name>`` (``std``, ``var``) in each of torch's overloads as the namespace's ``name``.

    torch's ``std(x, dim=None, *, correction=1, keepdim=False)``, and its
    older ``std(x, unbiased)`` and ``std(x, dim, unbiased, keepdim=False)``:
    torch's default correction is 1 (the standard's 0), ``unbiased=False`` is 0.
    """

    def call(
        x: Any,
        dim: Any = None,
        unbiased: bool | None = None,
        keepdim: bool = False,
        *,
        correction: float | None = None,
    ) -> Call | None:
        if isinstance(dim, bool) and unbiased is None:  # std(x, unbiased)
            dim, unbiased = None, dim
        if not isinstance(x, torch.Tensor) or not is_dim(dim) or None not in (unbiased, correction):
            return None  # both unbiased and correction: torch's own error
        if correction is None:
            correction = 0 if unbiased is False else 1
        return Call(name, (x,), {"axis": axis(dim), "correction": correction, "keepdims": keepdim})

    return call


def _cumulative(name: str) -> Translator:
    """``torch.cumsum``/``cumprod(x, dim, *, dtype=None)`` as the namespace's ``cumulative_sum``/``_prod``."""

    def call(x: Any, dim: Any, *, dtype: Any = None) -> Call | None:
        if not isinstance(x, torch.Tensor) or not isinstance(dim, int) or isinstance(dim, bool):
            return None  # a named dimension: torch's own
        return Call(name, (x,), {"axis": dim, **({"dtype": dtype} if dtype is not None else {})})

    return call


def _extremum(name: str, binary: str) -> Translator:
    """``torch.max`` (``min``) in each of torch's overloads: of one tensor, of two, along ``dim``.

    ``max(x)`` is the namespace's ``max(x)``, ``max(x, other)`` its
    ``maximum(x, other)``, ``max(x, dim, keepdim=False)`` its ``max`` and
    ``argmax`` along that axis, as torch's (values, indices).
    """

    def call(
        x: Any, other: Any = None, keepdim: bool = False, *, dim: int | None = None
    ) -> Call | Calls | None:
        if isinstance(other, int) and not isinstance(other, bool) and dim is None:
            other, dim = None, other
        if not isinstance(x, torch.Tensor) or not (other is None or isinstance(other, torch.Tensor)):
            return None
        if other is not None:
            return Call(binary, (x, other), {}) if dim is None and not keepdim else None
        if dim is None:
            return Call(name, (x,), {}) if not keepdim else None
        along = {"axis": dim, "keepdims": keepdim}
        found = getattr(torch.return_types, name)  # (values, indices)
        return Calls((Call(name, (x,), along), Call(f"arg{name}", (x,), along)), lambda *parts: found(parts))

    return call


def _with_mean(name: str) -> Translator:
    """``torch.std_mean``/``var_mean`` as the namespace's ``std`` (``var``) and ``mean`` on the same axes."""
    statistic = _statistic(name)

    def call(*args: Any, **kwargs: Any) -> Calls | None:
        first = statistic(*args, **kwargs)
        if first is None:
            return None
        mean = Call("mean", first.args, {k: first.kwargs[k] for k in ("axis", "keepdims")})
        return Calls((first, mean), lambda *parts: parts)

    return call


def _nansum(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Call | None:
    """``torch.nansum``: the namespace's ``sum`` (its dtype, accumulation and refusals) of ``x``, NaN as 0."""
    return _SUM(_zeroed(x), dim, keepdim, dtype=dtype) if isinstance(x, torch.Tensor) else None


def _nanmean(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Call | None:
    """``torch.nanmean``: the namespace's ``mean`` of ``x`` with NaN as 0, scaled by how many were not NaN.

    An integer or bool ``x`` (no NaN) is the namespace's ``mean``; without a
    NaN, the scale is exactly 1.
    """
    if not isinstance(x, torch.Tensor) or not (x.is_floating_point() or x.is_complex()):
        return _MEAN(x, dim, keepdim, dtype=dtype)
    found = _MEAN(_zeroed(x), dim, keepdim, dtype=dtype)
    if found is None:
        return None
    counted = x.isnan().logical_not().sum(dim=axis(dim), keepdim=keepdim)
    scale = (x.numel() // max(counted.numel(), 1)) / counted.double()
    return found._replace(after=lambda mean: (mean * scale).to(mean.dtype))


def _zeroed(x: Any) -> Any:
    """A floating or complex ``x`` with its NaN as 0 (a new tensor); any other ``x`` itself."""
    if isinstance(x, torch.Tensor) and (x.is_floating_point() or x.is_complex()):
        return x.masked_fill(x.isnan(), 0)
    return x


def _logsumexp(x: Any, dim: Any, keepdim: bool = False) -> Call | None:
    """``torch.logsumexp``: a float function of one array, of the dtype the policy gives ``exp`` of ``x``."""
    if not isinstance(x, torch.Tensor):
        return None
    return decided_as("exp", x, lambda d: computed(lambda t: torch.logsumexp(t, dim, keepdim), x.to(d), d))


def _like_exp(name: str) -> Translator:
    """``torch.<name>(x)`` (``sigmoid``, ``logit(x, eps)``): a float function, of ``exp``'s dtype.

    Its other arguments are Python scalars (or None), as torch takes them.
    """
    fn = getattr(torch, name)

    def translate(x: Any, *args: Any, **kwargs: Any) -> Call | None:
        if not isinstance(x, torch.Tensor) or not all(
            v is None or isinstance(v, SCALARS) for v in (*args, *kwargs.values())
        ):
            return None  # out=, a tensor argument: torch's own
        return decided_as("exp", x, lambda d: computed(lambda t: fn(t, *args, **kwargs), x.to(d), d))

    return translate


def _xlogy(x: Any, y: Any) -> Decided | None:
    """``torch.xlogy``: ``x * log(y)`` of two operands, of the dtype the policy gives ``divide`` of them."""
    if not any(isinstance(v, torch.Tensor) for v in (x, y)) or not all(map(is_operand, (x, y))):
        return None

    def compute(d: torch.dtype) -> Any:
        a, b = (v.to(d) if isinstance(v, torch.Tensor) else v for v in (x, y))
        return torch.xlogy(a, b).to(d)

    return decided_over("divide", (x, y), compute)


def _einsum(equation: Any, *operands: Any) -> Decided | None:
    """``torch.einsum`` of two or more tensors: torch's on all cast to the dtype of the policy's ``matmul``.

    Decided pairwise, left to right, as for ``matmul(matmul(x, y), z)``;
    torch itself refuses two dtypes.  Of one tensor it keeps the dtype: torch's own.
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str) or len(operands) < 2 or not tensors(*operands):
        return None
    if any(v.ndim == 0 for v in operands):  # a 0-d factor: no matmul to decide by, torch's own
        return None
    return decided_over("matmul", operands, lambda d: torch.einsum(equation, *(v.to(d) for v in operands)))


def _aminmax(x: Any, *, dim: int | None = None, keepdim: bool = False) -> Calls | None:
    """``torch.aminmax`` as the namespace's ``min`` and ``max`` (which keep the dtype): torch's (min, max)."""
    if not isinstance(x, torch.Tensor) or isinstance(dim, bool) or not isinstance(dim, (int, type(None))):
        return None
    along = {"axis": dim, "keepdims": keepdim}
    return Calls(
        (Call("min", (x,), along), Call("max", (x,), along)), lambda *parts: torch.return_types.aminmax(parts)
    )


def _vdot(x: Any, y: Any) -> Call | None:
    """``torch.vdot`` of two vectors: ``torch.dot`` of ``x`` conjugated, the namespace's ``matmul``."""
    if not tensors(x, y) or not x.ndim == y.ndim == 1:  # torch's own error
        return None
    return Call("matmul", (x.conj() if x.is_complex() else x, y), {})


def _inner(x: Any, y: Any) -> Call | None:
    """``torch.inner``: ``tensordot`` over the last axes of both, ``multiply`` where one is 0-d."""
    if not tensors(x, y):
        return None
    if x.ndim == 0 or y.ndim == 0:
        return Call("multiply", (x, y), {})
    return Call("tensordot", (x, y), {"axes": ((x.ndim - 1,), (y.ndim - 1,))})


def _along(name: str) -> Translator:
    """``torch.<fn>(x, dim=None, keepdim=False)`` (``all``, ``argmax``, ``amax``) as the namespace's."""

    def call(x: Any, dim: Any = None, keepdim: bool = False) -> Call | None:
        if not isinstance(x, torch.Tensor) or not is_dim(dim):
            return None
        # torch's all/any over no dims reduce none (its sum over no dims, every one)
        over = () if name in ("all", "any") and isinstance(dim, (tuple, list)) and not dim else axis(dim)
        return Call(name, (x,), {"axis": over, "keepdims": keepdim})

    return call


def _sort(x: Any, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Calls | None:
    """``torch.sort`` as the namespace's ``sort`` and ``argsort``, as torch's (values, indices)."""
    if not isinstance(x, torch.Tensor) or not isinstance(dim, int):
        return None
    along = {"axis": dim, "descending": descending, "stable": stable}
    return Calls(
        (Call("sort", (x,), along), Call("argsort", (x,), along)),
        lambda *parts: torch.return_types.sort(parts),
    )


def _argsort(x: Any, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Call | None:
    if not isinstance(x, torch.Tensor) or not isinstance(dim, int):
        return None
    return Call("argsort", (x,), {"axis": dim, "descending": descending, "stable": stable})


def _diff(x: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Call | None:
    if not isinstance(x, torch.Tensor) or not isinstance(dim, int):
        return None
    return Call("diff", (x,), {"axis": dim, "n": n, "prepend": prepend, "append": append})


def _tensordot(a: Any, b: Any, dims: Any = 2, out: Any = None) -> Call | None:
    """``torch.tensordot(a, b, dims)`` as the namespace's ``tensordot(a, b, axes=dims)``."""
    if not tensors(a, b) or isinstance(dims, torch.Tensor) or out is not None:
        return None
    return Call("tensordot", (a, b), {"axes": dims if isinstance(dims, int) else tuple(map(tuple, dims))})


def _outer(a: Any, b: Any) -> Call | None:
    return Call("linalg.outer", (a, b), {}) if tensors(a, b) else None


#: One-array functions whose dtype the policy decides (or whose input kinds it restricts) that
#: torch spells with the standard's meaning when given one tensor alone (``torch.log(x)``,
#: ``x.exp()``): torch's name -> the namespace's.
ONE_ARRAY = {
    **{
        name: name
        for name in (
            *("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp"),
            *("expm1", "floor", "log", "log10", "log1p", "log2", "negative", "positive", "reciprocal"),
            *("round", "sign", "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc"),
            *("conj", "isfinite", "isinf", "isnan", "signbit", "logical_not"),
        )
    },
    "bitwise_not": "bitwise_invert",
    # torch's other names of the same functions (torch.sgn is the standard's sign, complex too)
    **{"neg": "negative", "absolute": "abs", "fix": "trunc", "sgn": "sign"},
    **{f"arc{name}": f"a{name}" for name in ("cos", "cosh", "sin", "sinh", "tan", "tanh")},
}
#: torch's float functions of one array the namespace has not: the dtype the policy gives ``exp``.
FLOAT_LIKE_EXP = (
    *("rsqrt", "sigmoid", "erf", "erfc", "erfinv", "exp2", "lgamma", "digamma", "i0", "sinc", "logit"),
)
#: Those torch has as functions and attributes (``torch.real(x)``, ``x.real``).
_ATTRIBUTES = ("real", "imag")
#: torch's function -> the namespace's: reductions with ``dim``, ``keepdim`` (and ``dtype``), the
#: statistics with torch's correction, the cumulative ones, ``all``/``any``, ``argmax``, ``amax``.
_REDUCTIONS = {
    **{name: (name, _reduction) for name in ("sum", "prod", "mean")},
    **{name: (name, _statistic) for name in ("std", "var")},
    "cumsum": ("cumulative_sum", _cumulative),
    "cumprod": ("cumulative_prod", _cumulative),
    **{name: (name, _along) for name in ("all", "any", "argmax", "argmin")},
    "amax": ("max", _along),
    "amin": ("min", _along),
}
_SUM = _reduction("sum")
_MEAN = _reduction("mean")
#: torch's in-place forms (``x.sqrt_()``, ``torch.sqrt_(x)``, ``x.clamp_(0)``, ``x.cumsum_(0)``) -> the
#: out-of-place translators whose results they store.
_IN_PLACE: dict[str, Translator] = {
    **{name: one_array(ours) for name, ours in ONE_ARRAY.items()},
    **dict.fromkeys(("clamp", "clip"), _clip),
    "cumsum": _cumulative("cumulative_sum"),
    "cumprod": _cumulative("cumulative_prod"),
    **{name: _like_exp(name) for name in FLOAT_LIKE_EXP},
    "xlogy": _xlogy,
}
#: torch's products that are ``matmul`` of operands of these numbers of axes.
_PRODUCTS = {"mm": (2, 2), "bmm": (3, 3), "mv": (2, 1), "dot": (1, 1)}
#: Torch functions whose dtype depends on their operands -> their translators.
FUNCTIONS: dict[Callable[..., Any], Translator] = {
    **dict.fromkeys((torch.cat, torch.concat, torch.concatenate), _sequence("concat")),
    torch.stack: _sequence("stack"),
    **dict.fromkeys((torch.matmul, torch.Tensor.matmul, torch.linalg.matmul), _matmul),
    **{fn: _product(ndims) for name, ndims in _PRODUCTS.items() for fn in both(name)},
    torch.Tensor.__matmul__: _operator_matmul,
    torch.Tensor.__rmatmul__: _reflected_matmul,
    **dict.fromkeys(both("clamp", "clip"), _clip),
    **{fn: one_array(ours) for name, ours in ONE_ARRAY.items() for fn in both(name)},
    **{fn: _like_exp(name) for name in FLOAT_LIKE_EXP for fn in both(name)},
    **{
        fn: one_array(name)
        for name in _ATTRIBUTES
        for fn in (getattr(torch, name), getattr(torch.Tensor, name).__get__)  # x.real: its __get__
    },
    **dict.fromkeys(both("max"), _extremum("max", "maximum")),
    **dict.fromkeys(both("min"), _extremum("min", "minimum")),
    **{getattr(torch, f"{name}_mean"): _with_mean(name) for name in ("std", "var")},
    **{fn: factory(ours) for name, (ours, factory) in _REDUCTIONS.items() for fn in both(name)},
    **dict.fromkeys((torch.tensordot, torch.Tensor.__dict__.get("tensordot", torch.tensordot)), _tensordot),
    **dict.fromkeys(both("outer", "ger"), _outer),
    **dict.fromkeys(both("sort"), _sort),
    **dict.fromkeys(both("argsort"), _argsort),
    **dict.fromkeys(both("diff"), _diff),
    **dict.fromkeys(both("nansum"), _nansum),
    **dict.fromkeys(both("nanmean"), _nanmean),
    **dict.fromkeys(both("logsumexp"), _logsumexp),
    **dict.fromkeys(both("aminmax"), _aminmax),
    **dict.fromkeys(both("vdot"), _vdot),
    **dict.fromkeys(both("inner"), _inner),
    **dict.fromkeys((*both("xlogy"), torch.special.xlogy), _xlogy),
    torch.cdist: decided_by("matmul", torch.cdist, ("x1", "x2")),  # torch refuses two dtypes
    torch.einsum: _einsum,
    **{
        fn: in_place(translator)
        for name, translator in _IN_PLACE.items()
        for owner in (torch, torch.Tensor)
        if (fn := getattr(owner, f"{name}_", None)) is not None
    },
}
