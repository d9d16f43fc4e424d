"""Where torch's kernels compute, or refuse, otherwise than the policy says (or than NumPy's).

The promise is that a policy gives the same result on every backend: the
policy's answer where it has one (:class:`~._base.Values`), else the NumPy
backend's.  torch differs, beyond promotion, in a few places; each is computed
here with torch kernels on the operands' device, with no element leaving it:

- integer ``//`` and ``%`` by zero: torch's CPU raises ``ZeroDivisionError``
  after writing part of an ``out=``, CUDA gives garbage; NumPy gives 0 (and a
  RuntimeWarning).  :func:`divisor_rule` gives the policy's rule: 0 (dividing
  by 1 where the divisor is 0 and putting 0 there, a uint16/32/64 divisor
  or result through its signed bits: CUDA has no ``where`` for them), or
  promo_ns's ZeroDivisionError;
- complex ordering: torch has no complex ``lt``/``maximum``...; NumPy orders
  complex numbers by real part, then imaginary part (:data:`COMPLEX_ORDER`);
- the sign of a floating ``%`` that gives 0: NumPy (and the standard) give it
  the divisor's sign, torch the dividend's (:func:`divisor_signed`, where
  the policy takes the divisor's);
- a complex number to the power 0: NumPy gives 1, torch NaN for ``0 ** 0``
  (:func:`unit_power`);
- an integer to a negative integer power: NumPy refuses it (ValueError), torch
  computes it for tensor exponents and raises a RuntimeError for Python ones
  (:func:`check_exponent` where the policy refuses, :func:`negative_powers`
  where it computes);
- ``imag`` of a real tensor: NumPy gives zeros, torch raises (:func:`imag`);
- a Python float beyond a float dtype's range: NumPy casts it to an infinity,
  torch refuses to make a tensor of it (:func:`scalar_tensor`, :func:`in_range`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

from promo_ns.backends._torch_unsigned import SIGNED
from promo_ns.backends._values import negative_power_error, zero_divisor_error

__all__ = [
    "COMPLEX_ORDER",
    "cast",
    "check_exponent",
    "complex_order",
    "divisor_rule",
    "divisor_signed",
    "imag",
    "in_range",
    "negative_powers",
    "scalar_tensor",
    "unit_power",
]

Tensor = torch.Tensor


def divisor_rule(op: str, fn: Callable[[Any, Any], Any], rule: str) -> Callable[[Any, Any], Any]:
    """Integer ``fn(x, y)`` (``op``: ``floor_divide``, ``remainder``) with the policy's rule for 0 divisors.

    ``rule`` is :attr:`~._base.Values.zero_divisor`: ``"zero"`` gives 0 where
    ``y`` is 0 (NumPy's), ``"raise"`` raises promo_ns's ZeroDivisionError,
    ``"xla"`` gives XLA's quotient there (see :func:`_xla_quotient`) and 0 as remainder.
    ``x`` and ``y`` are tensors or Python scalars, as ``fn`` takes them; the
    result is a new tensor.  torch's CPU raises on a zero divisor (after
    writing part of the result, which is dropped): there ``fn`` runs as it is
    and only a zero divisor computes again or raises.  Other devices give no
    error (CUDA a garbage quotient): there ``"zero"`` replaces a zero divisor
    by 1 before ``fn`` runs and sets the result to 0 there after, with no
    value read back to the host, and ``"raise"`` looks at the divisor first
    (one value read back); ``meta`` has no values to divide.
    """
    raising = rule == "raise"
    xla = rule == "xla" and op == "floor_divide"

    def divide(x: Any, y: Any) -> Any:
        if not isinstance(y, Tensor):
            if y == 0:
                if raising:
                    raise zero_divisor_error(op)
                out = fn(x, 1)
                return (
                    _select(torch.ones_like(out, dtype=torch.bool), _xla_quotient(x, out.dtype), out)
                    if xla
                    else out.zero_()
                )
            return fn(x, y)
        kind = y.device.type
        if kind == "meta":
            return fn(x, y)
        if kind == "cpu":
            try:
                return fn(x, y)
            except RuntimeError as e:
                if "ZeroDivisionError" not in str(e):
                    raise
                if raising:
                    raise zero_divisor_error(op) from None
        if y.dtype in SIGNED:  # a lower 0-d uint16/32/64 divisor: in the compute dtype
            y = y.to(_common(x, y))
        zero = _bits(y) == 0
        if raising:
            if bool(zero.any()):
                raise zero_divisor_error(op)
            return fn(x, y)
        out = fn(x, _select(zero, 1, y))  # y's dtype: a bool divisor stays bool
        return _select(zero, _xla_quotient(x, out.dtype) if xla else 0, out)

    return divide


def _xla_quotient(x: Any, dtype: torch.dtype) -> int | Tensor:
    """XLA's integer ``x // 0`` as :func:`_select` writes it: -1 for a signed 0, -2 for other signed ``x``.

    Unsigned: the dtype's maximum, all bits set (-1 in the signed bits of uint16/32/64).
    """
    if dtype == torch.uint8:
        return 255
    if dtype in SIGNED:
        return -1
    if not isinstance(x, Tensor):
        return -1 if x == 0 else -2
    return torch.where(x == 0, -1, -2).to(dtype)


def _common(x: Any, y: Tensor) -> torch.dtype:
    """The dtype torch computes ``x`` and uint16/32/64 ``y`` in; ``y``'s where torch promotes no such pair."""
    try:
        return torch.result_type(x, y)
    except RuntimeError:  # "Promotion for uint16, uint32, uint64 types is not supported"
        return y.dtype


def _bits(x: Tensor) -> Tensor:
    """``x``, or for uint16/32/64 the signed tensor of its bits (CUDA has no ``where`` for them)."""
    signed = SIGNED.get(x.dtype)
    return x if signed is None else x.view(signed)


def _select(cond: Tensor, value: int | Tensor, x: Tensor) -> Tensor:
    """``value`` where ``cond``, else ``x`` (of ``x``'s dtype; uint16/32/64 through their signed bits)."""
    bits = _bits(x)
    fill = value if isinstance(value, Tensor) else torch.full_like(bits, value)
    return torch.where(cond, fill, bits).view(x.dtype)


def divisor_signed(fn: Callable[[Any, Any], Any], x: Any, y: Any) -> Any:
    """Floating ``fn(x, y)`` (``remainder``) with ``y``'s sign on a 0 (``zero_remainder="divisor"``).

    torch's kernel (C's ``fmod``, then the divisor added where the signs
    differ) gives a 0 ``x``'s sign; a nonzero remainder has ``y``'s sign
    already, so the sign of ``y`` on every element changes only the zeros.
    """
    return torch.copysign(fn(x, y), y)


def negative_powers(fn: Callable[[Any, Any], Any], x: Any, y: Any) -> Any:
    """Integer ``fn(x, y)`` (``pow``) computing negative exponents (``negative_powers="compute"``).

    torch's kernel computes them for a tensor exponent (``1 ** -n`` is 1,
    ``(-1) ** -n`` is -1 or 1, any other base 0) and refuses a negative
    Python int: that one goes in as a 0-d tensor of ``x``'s dtype.
    """
    if not isinstance(y, Tensor) and y < 0:
        y = torch.scalar_tensor(y, dtype=x.dtype, device=x.device)
    return fn(x, y)


def imag(fn: Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    """``imag`` (``fn``: torch's) also of a real tensor: zeros of its dtype, as NumPy's (torch raises)."""

    def imaginary(x: Tensor, /) -> Tensor:
        return fn(x) if x.is_complex() else torch.zeros_like(x)

    return imaginary


def unit_power(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Complex ``fn(x, y)`` (``pow``) giving 1 where ``y`` is 0, as NumPy does (torch: NaN for ``0 ** 0``)."""

    def power(x: Any, y: Any) -> Any:
        if not isinstance(y, Tensor):
            return fn(x, y).fill_(1) if y == 0 else fn(x, y)
        return torch.where(y == 0, 1, fn(x, y))

    return power


def _ordered(real: Callable[[Tensor, Tensor], Tensor], tie: Callable[[Tensor, Tensor], Tensor]) -> Any:
    """NumPy's complex comparison: ``real`` on the real parts (no NaN imaginary part), else ``tie``.

    NumPy's ``CLT(a, b)`` is ``(ar < br and not isnan(ai) and not isnan(bi))
    or (ar == br and ai < bi)``, and so on for the others.
    """

    def compare(a: Tensor, b: Tensor) -> Tensor:
        strict = real(a.real, b.real) & ~(a.imag.isnan() | b.imag.isnan())
        return strict | ((a.real == b.real) & tie(a.imag, b.imag))

    return compare


_LESS_EQUAL = _ordered(torch.lt, torch.le)
_GREATER_EQUAL = _ordered(torch.gt, torch.ge)


def _extremum(keep: Callable[[Tensor, Tensor], Tensor]) -> Callable[[Tensor, Tensor], Tensor]:
    """NumPy's complex ``maximum``/``minimum``: ``a`` where it has a NaN part or ``keep(a, b)``, else ``b``.

    A NaN in ``b`` fails ``keep``, so NaNs propagate from either side.
    """

    def extremum(a: Tensor, b: Tensor) -> Tensor:
        return torch.where(a.real.isnan() | a.imag.isnan() | keep(a, b), a, b)

    return extremum


#: op -> its NumPy rule on complex tensors of one dtype (a bool result for comparisons).
COMPLEX_ORDER: dict[str, Callable[[Tensor, Tensor], Tensor]] = {
    "less": _ordered(torch.lt, torch.lt),
    "less_equal": _LESS_EQUAL,
    "greater": _ordered(torch.gt, torch.gt),
    "greater_equal": _GREATER_EQUAL,
    "maximum": _extremum(_GREATER_EQUAL),
    "minimum": _extremum(_LESS_EQUAL),
}


def complex_order(op: str, dtype: torch.dtype) -> Callable[[Any, Any], Tensor]:
    """``op`` of :data:`COMPLEX_ORDER` on tensors or Python scalars, computed in complex ``dtype``."""
    rule = COMPLEX_ORDER[op]

    def compare(x: Any, y: Any) -> Tensor:
        device = (x if isinstance(x, Tensor) else y).device
        a, b = (v.to(dtype) if isinstance(v, Tensor) else scalar_tensor(v, dtype, device) for v in (x, y))
        return rule(a, b)

    return compare


def check_exponent(y: Any) -> None:
    """Raise ValueError where a signed integer power has a negative exponent (``negative_powers="raise"``).

    ``y`` is the exponent as the kernel takes it: a Python int, or an integer
    tensor (checked on its device; a ``meta`` tensor has no values to check).
    """
    if isinstance(y, Tensor):
        negative = y.dtype.is_signed and y.device.type != "meta" and bool((y < 0).any())
    else:
        negative = y < 0
    if negative:
        raise negative_power_error()


def cast(x: Tensor, dtype: torch.dtype) -> Tensor:
    """Tensor ``x`` as ``dtype``; a complex one into a real dtype gives its real part, without a warning.

    A cast takes the real part (torch warns "Casting complex values to real
    discards the imaginary part"); into bool, a complex number is its truth.
    """
    if x.dtype == dtype:
        return x
    if x.is_complex() and not (dtype.is_complex or dtype == torch.bool):
        x = x.real
    return to(x, dtype)


def to(x: Tensor, dtype: torch.dtype) -> Tensor:
    """``x.to(dtype)``; float64 into float16 rounded once, as NumPy rounds it (torch rounds through float32).

    Through float32 rounded to odd: the 29 mantissa bits float32 has not are
    cleared and their "any set" kept in the last bit it has, so the value is
    exact in float32 and its rounding to float16 sees on which side of a
    halfway point ``x`` lies (NaN keeps its sign; values beyond float32's
    normal range are 0 or infinite in float16 either way).  Its gradient is
    the cast's.
    """
    if x.dtype != torch.float64 or dtype != torch.float16:
        return x.to(dtype)
    if x.requires_grad and torch.is_grad_enabled():
        return _HalfOnce.apply(x)  # type: ignore[no-any-return,no-untyped-call]
    return _half_once(x)


class _HalfOnce(torch.autograd.Function):
    """:func:`_half_once` with the cast's gradient."""

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        return _half_once(x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        return grad.to(torch.float64)


def _half_once(x: Tensor) -> Tensor:
    """float64 ``x`` as float16, through float32 rounded to odd (see :func:`to`)."""
    bits = x.view(torch.int64)
    sticky = (bits & _DROPPED).ne_(0).to(torch.int64).bitwise_left_shift_(29)
    return (bits & ~_DROPPED).bitwise_or_(sticky).view(torch.float64).to(torch.float16)


#: The float64 mantissa bits float32 has not.
_DROPPED = (1 << 29) - 1


def scalar_tensor(value: Any, dtype: torch.dtype, device: Any) -> Tensor:
    """A 0-d tensor of Python scalar ``value`` as ``dtype``; a float beyond its range becomes an infinity.

    torch refuses to convert such a float ("value cannot be converted to type
    float without overflow"); NumPy's cast gives the infinity of its sign.
    """
    try:
        return torch.scalar_tensor(value, dtype=dtype, device=device)
    except RuntimeError:
        if not isinstance(value, (float, complex)) or not (dtype.is_floating_point or dtype.is_complex):
            raise
        wide = torch.complex128 if dtype.is_complex else torch.float64
        return torch.scalar_tensor(value, dtype=wide, device=device).to(dtype)


def in_range(value: float, dtype: torch.dtype) -> float:
    """Python float ``value``, rounded to float ``dtype`` as a cast rounds it where it is beyond its range.

    torch refuses a value past the largest finite one where it checks a scalar
    (``pow``'s exponent); NumPy's cast rounds it to that value or an infinity.
    """
    limit = torch.finfo(dtype).max
    if -limit <= value <= limit or math.isnan(value):
        return value
    return float(torch.tensor(value, dtype=torch.float64).to(dtype))
