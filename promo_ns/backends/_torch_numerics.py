"""Where torch's kernels compute, or refuse, otherwise than NumPy's: made to give NumPy's outcome.

The promise is that a policy gives the same result on every backend, the NumPy
backend's.  torch differs from NumPy, beyond promotion, in a few places; each
is computed here with torch kernels on the operands' device, with no element
leaving it:

- integer ``//`` and ``%`` by zero: torch's CPU raises ``ZeroDivisionError``
  after writing part of an ``out=``, CUDA gives garbage; NumPy gives 0 (and a
  RuntimeWarning).  :func:`nonzero_divisor` divides by 1 where the divisor is
  0 and puts 0 there;
- complex ordering: torch has no complex ``lt``/``maximum``...; NumPy orders
  complex numbers by real part, then imaginary part (:data:`COMPLEX_ORDER`);
- a complex number to the power 0: NumPy gives 1, torch NaN for ``0 ** 0``
  (:func:`unit_power`);
- an integer to a negative integer power: NumPy refuses it (ValueError), torch
  computes it for tensor exponents and raises a RuntimeError for Python ones
  (:func:`check_exponent`);
- a Python float beyond a float dtype's range: NumPy casts it to an infinity,
  torch refuses to make a tensor of it (:func:`scalar_tensor`, :func:`in_range`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch

__all__ = [
    "COMPLEX_ORDER",
    "cast",
    "check_exponent",
    "complex_order",
    "in_range",
    "nonzero_divisor",
    "scalar_tensor",
    "unit_power",
]

Tensor = torch.Tensor


def nonzero_divisor(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Integer ``fn(x, y)`` (``floor_divide`` or ``remainder``) giving 0 where ``y`` is 0, as NumPy does.

    ``x`` and ``y`` are tensors or Python scalars, as ``fn`` takes them; the
    result is a new tensor.  torch's CPU raises on a zero divisor (after
    writing part of the result, which is dropped): there ``fn`` runs as it is
    and only a zero divisor computes again.  Other devices give no error (CUDA
    a garbage quotient), so there a zero divisor is replaced by 1 before
    ``fn`` runs and the result set to 0 there after, with no value read back
    to the host; ``meta`` has no values to divide.
    """

    def divide(x: Any, y: Any) -> Any:
        if not isinstance(y, Tensor):
            return fn(x, 1).zero_() if y == 0 else fn(x, y)
        kind = y.device.type
        if kind == "meta":
            return fn(x, y)
        if kind == "cpu":
            try:
                return fn(x, y)
            except RuntimeError as e:
                if "ZeroDivisionError" not in str(e):
                    raise
        zero = y == 0
        return torch.where(zero, 0, fn(x, torch.where(zero, 1, y)))

    return divide


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
    """Raise NumPy's ValueError where a signed integer power has a negative exponent.

    ``y`` is the exponent as the kernel takes it: a Python int, or an integer
    tensor (checked on its device; a ``meta`` tensor has no values to check).
    """
    if isinstance(y, Tensor):
        negative = y.dtype.is_signed and y.device.type != "meta" and bool((y < 0).any())
    else:
        negative = y < 0
    if negative:
        raise ValueError(
            "pow(): integers to negative integer powers are not allowed (NumPy's rule, which every "
            "backend follows); cast the base to a floating dtype first, e.g. xp.astype(x, xp.float64) ** y."
        )


def cast(x: Tensor, dtype: torch.dtype) -> Tensor:
    """Tensor ``x`` as ``dtype``; a complex one into a real dtype gives its real part, without a warning.

    A cast takes the real part (torch warns "Casting complex values to real
    discards the imaginary part"); into bool, a complex number is its truth.
    """
    if x.dtype == dtype:
        return x
    if x.is_complex() and not (dtype.is_complex or dtype == torch.bool):
        x = x.real
    return x.to(dtype)


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
