"""Exact uint16/uint32/uint64 on torch devices that have no kernels for them (torch's CPU, CUDA).

torch stores and casts uint16/32/64 everywhere, but its CPU has few kernels for
them (``mul``, ``eq``/``ne``, ``bitwise_and``/``or``/``xor``, ``sort``,
``unique``...), and CUDA none for ``where``, ``all``, ``any``...  Here the
missing ones compute in the *signed* integer of the same size, reached by
reinterpreting the bits (``Tensor.view(dtype)``, no copy):

- ring operations (``+``, ``-``, ``*``, ``pow``, ``negative``, ``square``,
  ``matmul``, ``diff``) are the same modulo ``2**bits`` in both readings, so the
  signed result's bits are the unsigned result, wrap-around included;
- order (comparisons, ``maximum``/``minimum``, ``max``/``argmax``, ``sort``,
  ``searchsorted``, ``unique``, ``clip``) is kept by flipping the sign bit:
  ``u < v`` exactly when ``(u ^ MIN) < (v ^ MIN)`` read as signed;
- functions that move elements (``flip``, ``take``, ``nonzero``, ...) work on
  the bits as they are;
- ``floor_divide``/``remainder`` and right shifts, which depend on the unsigned
  reading, are written with signed operations that give it (see
  :func:`_divmod` and :func:`_right_shift`).

Results are bit-identical to NumPy's for the same dtypes.  No element leaves
the device and nothing is read back to the host.  Ops with no exact method
(true division, ``atan2``, ... computed in an unsigned dtype) raise
:func:`no_exact_method`'s TypeError.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import torch

__all__ = [
    "EMULATED",
    "SIGNED",
    "ExactCompat",
    "binary",
    "bits_of",
    "exact_compat",
    "flip",
    "no_exact_method",
    "setitem_value",
]

#: unsigned dtype -> the signed dtype of the same size, whose kernels compute for it.
SIGNED: Mapping[torch.dtype, torch.dtype] = {
    torch.uint16: torch.int16,
    torch.uint32: torch.int32,
    torch.uint64: torch.int64,
}
_UNSIGNED = {s: u for u, s in SIGNED.items()}
_BITS = {torch.int16: 16, torch.int32: 32, torch.int64: 64}
#: signed dtype -> the wider signed dtype holding every value of its unsigned twin (division).
_WIDER = {torch.int16: torch.int32, torch.int32: torch.int64}

Tensor = torch.Tensor


def _signed_int(value: int, bits: int) -> int:
    """The signed reading of the low ``bits`` bits of Python int ``value``."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _min(x: Tensor) -> int:
    """The most negative value of signed tensor ``x``'s dtype: the sign bit alone."""
    return -(1 << (_BITS[x.dtype] - 1))


def _key(x: Tensor) -> Tensor:
    """Signed ``x`` with its sign bit flipped: ordered as the unsigned values are."""
    return torch.bitwise_xor(x, _min(x))


def bits_of(x: Any, dtype: torch.dtype, like: Tensor) -> Tensor:
    """Operand ``x`` (a tensor or Python scalar) as the signed tensor holding its bits as ``dtype``.

    Tensors of another dtype are cast to ``dtype`` first (ints wrap); Python
    scalars become 0-d tensors on ``like``'s device.
    """
    signed = SIGNED[dtype]
    if isinstance(x, Tensor):
        return (x if x.dtype == dtype else x.to(dtype)).view(signed)
    return torch.scalar_tensor(_signed_int(int(x), _BITS[signed]), dtype=signed, device=like.device)


# --- binary ops ------------------------------------------------------------------------------


def _divmod(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    """Unsigned quotient and remainder of the values whose bits signed ``a`` and ``b`` hold.

    uint16/uint32 divide in the wider signed dtype holding their values.  For
    uint64 (Hacker's Delight, "unsigned division from signed"): a divisor of
    2**63 or more gives the quotient 0 or 1; a smaller one divides ``n >> 1``
    (logical, so non-negative), doubles the quotient and corrects it once.  A
    zero divisor behaves as in torch's signed division on that device (on the
    CPU: ``RuntimeError: ZeroDivisionError``).
    """
    wider = _WIDER.get(a.dtype)
    if wider is not None:
        unsigned = _UNSIGNED[a.dtype]
        n, d = (v.view(unsigned).to(wider) for v in (a, b))
        return torch.floor_divide(n, d).to(a.dtype), torch.remainder(n, d).to(a.dtype)
    big = b < 0  # a divisor of 2**63 or more
    d = torch.where(big, 1, b)
    q = torch.bitwise_left_shift(torch.floor_divide(torch.bitwise_right_shift(a, 1) & (2**63 - 1), d), 1)
    r = a - q * d
    fix = (_key(r) >= _key(d)).to(a.dtype)
    q, r = q + fix, r - fix * d
    q_big = (_key(a) >= _key(b)).to(a.dtype)
    return torch.where(big, q_big, q), torch.where(big, a - q_big * b, r)


def _pow(a: Tensor, b: Tensor) -> Tensor:
    """``a ** b`` modulo 2**bits, ``b`` read as unsigned.

    An exponent with the sign bit set is replaced by one below it that gives the
    same power: odd bases have multiplicative order dividing ``2**(bits-2)``,
    and even bases reach 0 at any exponent from ``bits`` on.
    """
    quarter = 1 << (_BITS[a.dtype] - 2)
    e = torch.where(b < 0, torch.bitwise_or(b & (quarter - 1), quarter), b)
    return torch.pow(a, e)


def _right_shift(a: Tensor, b: Tensor) -> Tensor:
    """Logical ``a >> b``, shifts of ``bits`` or more (``b`` read as unsigned) giving 0.

    The low bits shift arithmetically as a non-negative number (torch gives 0
    past the width), the sign bit alone lands at ``bits - 1 - b`` (torch's left
    shift gives 0 for a negative or too large count).
    """
    bits = _BITS[a.dtype]
    low = torch.bitwise_right_shift(a & ((1 << (bits - 1)) - 1), b)
    top = torch.bitwise_right_shift(a, bits - 1) & 1
    return torch.bitwise_or(low, torch.bitwise_left_shift(top, (bits - 1) - b))


def _ordered(fn: Callable[[Tensor, Tensor], Tensor]) -> Callable[[Tensor, Tensor], Tensor]:
    """``fn`` on the sign-flipped operands, its signed result (if any) flipped back."""

    def rule(a: Tensor, b: Tensor) -> Tensor:
        out = fn(_key(a), _key(b))
        return out if out.dtype == torch.bool else _key(out)

    return rule


#: op -> its exact rule on the signed tensors holding the unsigned operands' bits.  A rule
#: returns the result's bits in the signed dtype, or a bool tensor.
_BINARY: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "add": torch.add,
    "subtract": torch.sub,
    "multiply": torch.mul,
    "floor_divide": lambda a, b: _divmod(a, b)[0],
    "remainder": lambda a, b: _divmod(a, b)[1],
    "pow": _pow,
    "maximum": _ordered(torch.maximum),
    "minimum": _ordered(torch.minimum),
    "equal": torch.eq,
    "not_equal": torch.ne,
    "less": _ordered(torch.lt),
    "less_equal": _ordered(torch.le),
    "greater": _ordered(torch.gt),
    "greater_equal": _ordered(torch.ge),
    "logical_and": torch.logical_and,
    "logical_or": torch.logical_or,
    "logical_xor": torch.logical_xor,
    "bitwise_and": torch.bitwise_and,
    "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor,
    "bitwise_left_shift": torch.bitwise_left_shift,  # 0 for counts past the width, as NumPy
    "bitwise_right_shift": _right_shift,
}
#: binary ops computed exactly in uint16/32/64 here.
EMULATED = frozenset(_BINARY)


def binary(op: str, x: Any, y: Any, dtype: torch.dtype) -> Tensor:
    """``op(x, y)`` computed exactly in unsigned ``dtype`` with signed kernels.

    Parameters
    ----------
    op
        A binary op of :data:`EMULATED`.
    x, y
        Tensors (cast to ``dtype`` first where they are not) or Python scalars.
    dtype
        ``torch.uint16``, ``torch.uint32`` or ``torch.uint64``.

    Returns
    -------
    Tensor
        The result as ``dtype``, or bool for comparisons and logical ops.
    """
    like = x if isinstance(x, Tensor) else y
    out = _BINARY[op](bits_of(x, dtype, like), bits_of(y, dtype, like))
    return out if out.dtype == torch.bool else out.view(dtype)


def no_exact_method(name: str, dtype: Any, device: Any, why: str = "") -> TypeError:
    """promo_ns's error for ``name`` in ``dtype`` where torch has no kernel and no exact method exists."""
    return TypeError(
        f"torch has no {name!r} kernel that computes in {dtype} on {device}, and promo_ns has no exact "
        f"method for it{f' ({why})' if why else ''}; cast the operands explicitly first, e.g. to "
        "int64 or float64."
    )


# --- element moves, for the adapter's getitem/setitem ----------------------------------------


def _moved(x: Tensor, move: Callable[[Tensor], Tensor]) -> Tensor:
    """``move(x)``; uint16/32/64 through their signed bits where torch has no kernel for the move."""
    try:
        return move(x)
    except NotImplementedError:
        if x.dtype not in SIGNED:
            raise
        return move(x.view(SIGNED[x.dtype])).view(x.dtype)


def flip(x: Tensor, dims: tuple[int, ...]) -> Tensor:
    """``x.flip(dims)``, also where torch has no kernel for ``x``'s dtype (see :func:`_moved`)."""
    return _moved(x, lambda t: t.flip(dims))


def index(x: Tensor, key: Any) -> Tensor:
    """``x[key]``, also where torch has no kernel for ``x``'s dtype (CUDA's ``index`` of uint16/32/64)."""
    return _moved(x, lambda t: t[key])


def setitem_value(x: Tensor, value: Any) -> Any:
    """``value`` as the signed twin of unsigned tensor ``x`` takes it, writing the same bits."""
    signed = SIGNED[x.dtype]
    if isinstance(value, Tensor):
        return (value if value.dtype == x.dtype else value.to(x.dtype)).view(signed)
    if isinstance(value, (bool, int)):
        return _signed_int(int(value), _BITS[signed])
    return torch.scalar_tensor(value, dtype=x.dtype, device=x.device).view(signed)


# --- the standard's functions -----------------------------------------------------------------

_BITS_HOW, _RING, _ORDER = "bits", "ring", "order"


def _to_signed(v: Any, dtype: torch.dtype, how: str) -> Any:
    """A value argument of ``dtype`` (tensor, Python int, or a list of tensors) in its signed form."""
    if isinstance(v, Tensor):
        s = v.view(SIGNED[dtype])
        return _key(s) if how == _ORDER else s
    if isinstance(v, (list, tuple)):
        return type(v)(_to_signed(e, dtype, how) for e in v)
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << _BITS[SIGNED[dtype]]:
        bits = _BITS[SIGNED[dtype]]
        return _signed_int(v ^ (1 << (bits - 1)) if how == _ORDER else v, bits)
    return v


def _back(out: Any, dtype: torch.dtype, how: str) -> Any:
    """A signed result tensor as the unsigned one whose bits (or flipped bits) it holds."""
    return (_key(out) if how == _ORDER else out).view(dtype)


def _value_dtype(values: list[Any]) -> torch.dtype | None:
    """The one unsigned dtype of the value tensors, or None where there is none or several dtypes."""
    dtypes = {v.dtype for v in values if isinstance(v, Tensor)}
    for v in values:
        if isinstance(v, (list, tuple)):
            dtypes |= {e.dtype for e in v if isinstance(e, Tensor)}
    if len(dtypes) != 1:
        return None
    (dtype,) = dtypes
    return dtype if dtype in SIGNED else None


def _exact(
    fn: Callable[..., Any],
    name: str,
    how: str,
    *,
    args: tuple[int | str, ...] = (0,),
    returns: str = "values",
) -> Callable[..., Any]:
    """``fn``, made exact for uint16/32/64 where torch has no kernel: through their signed bits.

    ``fn`` runs as it is first; only where it raises NotImplementedError on
    uint16/32/64 value arguments (positions or keyword names ``args``) does it
    run again on their signed forms (``how``: the bits as they are for
    ``"bits"`` and ``"ring"``, sign-flipped for ``"order"``).  ``returns``
    says which results are values, mapped back to the unsigned dtype:
    ``"values"`` (the result), ``"first"`` (a named tuple's first field) or
    ``"none"`` (indices, counts, bools).
    """

    @functools.wraps(fn)
    def exact(*a: Any, **kw: Any) -> Any:
        try:
            return fn(*a, **kw)
        except NotImplementedError:
            values = [a[i] for i in args if isinstance(i, int) and i < len(a)]
            values += [kw[k] for k in args if isinstance(k, str) and k in kw]
            dtype = _value_dtype(values)
            device = next((v.device for v in values if isinstance(v, Tensor)), None)
            if dtype is None or device is None or device.type == "meta":
                raise
        signed_a = [_to_signed(v, dtype, how) if i in args else v for i, v in enumerate(a)]
        signed_kw = {k: _to_signed(v, dtype, how) if k in args else v for k, v in kw.items()}
        try:
            out = fn(*signed_a, **signed_kw)
        except (NotImplementedError, RuntimeError) as e:
            raise no_exact_method(name, str(dtype).removeprefix("torch."), device) from e
        if returns == "values":
            return _back(out, dtype, how)
        if returns == "first":
            return out._replace(**{out._fields[0]: _back(out[0], dtype, how)})
        return out

    return exact


def _unsigned_fallback(compute: Callable[[Any], Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``fn``, with ``compute(x)`` where torch has no kernel for the unsigned ``x`` (its signed view)."""

    def fallback(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def exact(x: Any, /, **kw: Any) -> Any:
            try:
                return fn(x, **kw)
            except NotImplementedError:
                if not isinstance(x, Tensor) or x.dtype not in SIGNED or x.device.type == "meta":
                    raise
                return compute(x)

        return exact

    return fallback


#: ``abs``: unsigned values are their own absolute values (a copy).
_abs = _unsigned_fallback(lambda x: x.clone())
#: ``sign``: 1 for every non-zero unsigned value, else 0.
_sign = _unsigned_fallback(lambda x: torch.ne(x, 0).to(x.dtype))
#: ``signbit``: no unsigned value has its sign bit set (CUDA has no uint16/32/64 kernel).
_signbit = _unsigned_fallback(lambda x: torch.zeros_like(x, dtype=torch.bool))


#: how a function is made exact: (how, value arguments, which results are values), see :func:`_exact`.
_How = tuple[str, tuple[int | str, ...], str]
#: function -> how it is made exact.
_FUNCTIONS: dict[str, _How] = {
    **{f: (_ORDER, (0,), "values") for f in ("max", "min", "sort", "unique_values")},
    **{f: (_ORDER, (0,), "none") for f in ("argmax", "argmin", "argsort")},
    **{f: (_ORDER, (0,), "first") for f in ("unique_counts", "unique_inverse")},
    "searchsorted": (_ORDER, (0, 1), "none"),
    "where": (_BITS_HOW, (1, 2), "values"),
    "clip": (_ORDER, (0, 1, 2, "min", "max"), "values"),
    "isin": (_BITS_HOW, (0, 1), "none"),
    **{f: (_BITS_HOW, (0,), "none") for f in ("nonzero", "count_nonzero", "logical_not", "all", "any")},
    **{f: (_BITS_HOW, (0,), "values") for f in ("bitwise_invert", "flip", "roll", "repeat", "tile")},
    **{f: (_BITS_HOW, (0,), "values") for f in ("take", "take_along_axis", "tril", "triu")},
    **{f: (_RING, (0,), "values") for f in ("negative", "square")},
    "diff": (_RING, (0, "prepend", "append"), "values"),
    **{f: (_RING, (0, 1), "values") for f in ("matmul", "tensordot", "vecdot")},
}
_LINALG: dict[str, _How] = {
    **{f: (_RING, (0, 1), "values") for f in ("matmul", "tensordot", "vecdot", "cross", "outer")},
    "matrix_power": (_RING, (0,), "values"),
}


def _clip(clip: Callable[..., Any]) -> Callable[..., Any]:
    """``clip``, also on bool and complex tensors, which torch's ``clamp`` refuses.

    A bool tensor clips in uint8, exactly.  Complex numbers order as NumPy
    orders them (by real part, then imaginary part; a NaN stays), so a
    complex tensor clips as ``np.clip`` does, by selecting elements.
    """

    def exact(x: Any, /, min: Any = None, max: Any = None) -> Any:
        if x.device.type == "meta" or not (x.dtype == torch.bool or x.is_complex()):
            return clip(x, min, max)
        if x.dtype == torch.bool:
            lo, hi = (b.to(torch.uint8) if isinstance(b, torch.Tensor) else b for b in (min, max))
            return clip(x.to(torch.uint8), lo, hi).to(torch.bool)
        if min is not None:
            x = torch.where(_complex_ge(x, min) | x.isnan(), x, min)
        if max is not None:
            x = torch.where(_complex_ge(max, x) | x.isnan(), x, max)
        return x

    return exact


def _complex_ge(a: Any, b: Any) -> Any:
    """``a >= b`` for complex tensors in NumPy's order: by real part, then by imaginary part."""
    return (a.real > b.real) | ((a.real == b.real) & (a.imag >= b.imag))


class ExactCompat(ModuleType):
    """``array_api_compat.torch`` (or its ``linalg``), whose functions are exact on uint16/32/64 too.

    Each function torch lacks a kernel for on those dtypes runs as it is and,
    where that raises, again on the signed bits (see :func:`_exact`); ``clip``
    also takes bool and complex tensors (see :func:`_clip`); every other name
    is the compat module's own.
    """

    def __init__(self, base: ModuleType, functions: Mapping[str, _How]) -> None:
        super().__init__(base.__name__, base.__doc__)
        self._base = base
        for name, (how, args, returns) in functions.items():
            if hasattr(base, name):
                fn = _exact(getattr(base, name), name, how, args=args, returns=returns)
                setattr(self, name, _clip(fn) if name == "clip" else fn)
        if hasattr(base, "abs"):
            self.abs = _abs(base.abs)
            self.sign = _sign(base.sign)
            self.signbit = _signbit(base.signbit)
        if hasattr(base, "linalg"):
            self.linalg = ExactCompat(base.linalg, _LINALG)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


def exact_compat(base: ModuleType) -> ExactCompat:
    """``array_api_compat.torch`` with the standard's functions exact on uint16/32/64."""
    return ExactCompat(base, _FUNCTIONS)
