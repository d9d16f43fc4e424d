"""JAX's kernels of the ops whose values a policy decides: integer powers, division by zero, remainders.

XLA gives its own values where NumPy's or the policy's differ: an integer
divisor of 0 gives -1, -2 or 255; a negative integer exponent gives 0 or 1;
an integer exponent of 64 or more wraps (XLA reads its low 6 bits).  Each
function here takes the policy's rule (:class:`~promo_ns.backends._base.Values`)
and gives its values; a concrete operand's values are read, a traced one's
cannot be (the rule's traced form is said per function).
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from promo_ns.backends._jax_checks import is_tracer
from promo_ns.backends._values import negative_power_error, zero_divisor_error

__all__ = ["astype", "floor_divide", "power", "remainder", "rounded_once"]


def power(rule: str, x: Any, y: Any) -> Any:
    """``jnp.power`` with the policy's ``rule`` (:attr:`Values.negative_powers`) for integer powers.

    ``"raise"``: a concrete negative exponent is a ValueError (XLA gives 0 or
    1); ``"compute"``: ``1 ** -n`` is 1, ``(-1) ** -n`` is -1 or 1, any other
    base 0 (PyTorch's), with no value read.  A traced exponent's values are
    unknown while JAX traces: ``"raise"`` gives JAX's values then.  Every bit
    of a non-negative exponent counts (see :func:`_integer_power`).

    Raises
    ------
    ValueError
        An integer power with a concrete negative exponent, under ``"raise"``.
    """
    dtype = jnp.result_type(x, y)
    if dtype.kind not in "iu":
        return jnp.power(x, y)
    # JAX refuses a concrete negative scalar exponent (TypeError): the exponent is looked at first.
    exponent = y if isinstance(y, jax.Array) else jnp.asarray(y, dtype=dtype)
    traced = is_tracer(exponent)
    top = None if traced else int(jnp.max(exponent, initial=0))
    if dtype.kind == "u":
        return _integer_power(x, exponent, top)
    negative = exponent < 0
    if rule == "compute":
        out = _integer_power(x, jnp.where(negative, 0, exponent), top)
        odd = (exponent & 1) == 1
        one = jnp.asarray((x == 1) | ((x == -1) & ~odd)).astype(out.dtype)
        minus_one = jnp.asarray((x == -1) & odd).astype(out.dtype)
        return jnp.where(negative, one - minus_one, out)
    if traced:
        return jnp.where(negative, jnp.power(x, exponent), _integer_power(x, jnp.maximum(exponent, 0), None))
    if bool(jnp.any(negative)):
        raise negative_power_error()
    return _integer_power(x, exponent, top)


#: XLA's integer power reads the low 6 bits of the exponent (``2 ** 64`` is 1, not 0 in int8).
_EXPONENT_BITS = 6


def _integer_power(x: Any, exponent: Any, top: int | None) -> Any:
    """``x ** exponent`` of integers, wrapping as repeated multiplication does, for exponents >= 0.

    XLA's kernel takes only the low :data:`_EXPONENT_BITS` bits, so a larger
    exponent goes 6 bits at a time: ``x ** (64 * h + l)`` is ``x ** l * (x **
    64) ** h``.  ``top`` is the largest exponent where it is known (not traced).
    """
    if top is not None and top < 2**_EXPONENT_BITS:
        return jnp.power(x, exponent)
    dtype = jnp.result_type(x, exponent)
    bits = jnp.dtype(dtype).itemsize * 8 if top is None else top.bit_length()
    base, rest = jnp.asarray(x, dtype=dtype), jnp.asarray(exponent, dtype=dtype)
    low = 2**_EXPONENT_BITS - 1
    out = jnp.power(base, rest & low)
    for _ in range(-(-bits // _EXPONENT_BITS) - 1):
        base = jnp.power(jnp.power(base, 8), 8)
        rest = rest >> _EXPONENT_BITS
        out = out * jnp.power(base, rest & low)
    return out


def floor_divide(rule: str, x: Any, y: Any) -> Any:
    """``jnp.floor_divide`` with the policy's ``rule`` (:attr:`Values.zero_divisor`) for integer divisors 0.

    XLA gives -1, -2 or 255 there (``"xla"`` keeps them): ``"zero"`` gives
    NumPy's 0, ``"raise"`` raises (see :func:`_check_divisor`).
    """
    out = jnp.floor_divide(x, y)
    if out.dtype.kind not in "iu" or rule == "xla" or _is_bool(y):  # bools: no kernel, the caller says
        return out
    zero = _check_divisor("floor_divide", rule, y)
    return out if zero is None else jnp.where(zero, jnp.zeros((), out.dtype), out)


def remainder(rule: str, zero_sign: str, x: Any, y: Any) -> Any:
    """``jnp.remainder`` with the policy's values.

    An integer divisor of 0 gives 0 (as NumPy), or raises as ``rule``
    (:attr:`Values.zero_divisor`) says; a floating remainder of 0 has the
    dividend's sign (XLA's ``fmod``), or the divisor's where ``zero_sign``
    (:attr:`Values.zero_remainder`) says so.
    """
    out = jnp.remainder(x, y)
    if out.dtype.kind in "iu" and not _is_bool(y):
        _check_divisor("remainder", rule, y)
    elif out.dtype.kind == "f" and zero_sign == "divisor":
        return jnp.copysign(out, y)
    return out


def _is_bool(y: Any) -> bool:
    """Whether divisor ``y`` is a bool or a bool array: JAX's kernel gives int32, which promo_ns refuses."""
    return y.__class__ is bool or getattr(y, "dtype", None) == jnp.bool_


def _check_divisor(op: str, rule: str, y: Any) -> Any:
    """Where integer divisor ``y`` is 0; under ``"raise"``, None after checking it has no 0.

    A traced divisor's values are unknown while JAX traces: ``"raise"`` gives
    NumPy's 0 there.

    Raises
    ------
    ZeroDivisionError
        Under ``"raise"``, a concrete divisor holds a 0.
    """
    divisor = jnp.asarray(y)
    zero = divisor == jnp.zeros((), divisor.dtype)
    if rule != "raise" or is_tracer(y):
        return zero
    if bool(jnp.any(zero)):
        raise zero_divisor_error(op)
    return None


def astype(x: Any, dtype: Any) -> Any:
    """``x.astype(dtype)``; float64 into float16 rounded once, as NumPy does (XLA rounds through float32).

    Through float32 rounded to odd, as ``_torch_numerics.to`` does; its
    derivative is the cast's.
    """
    if x.dtype != jnp.float64 or dtype != jnp.float16:
        return x.astype(dtype)
    return _half_once(x)


@jax.custom_jvp
def _half_once(x: Any) -> Any:
    """float64 ``x`` as float16 rounded once (float32 rounded to odd on the way)."""
    bits = jax.lax.bitcast_convert_type(x, jnp.int64)
    sticky = ((bits & _DROPPED) != 0).astype(jnp.int64) << 29
    return jax.lax.bitcast_convert_type((bits & ~_DROPPED) | sticky, jnp.float64).astype(jnp.float16)


@_half_once.defjvp
def _half_once_jvp(primals: Any, tangents: Any) -> Any:
    (x,), (t,) = primals, tangents
    return _half_once(x), t.astype(jnp.float16)


#: The float64 mantissa bits float32 has not.
_DROPPED = (1 << 29) - 1


def rounded_once(base: Any) -> Any:
    """``jax.numpy.astype`` (``base``), float64 into float16 rounded once (:func:`astype`)."""

    def astype_(x: Any, dtype: Any, /, *, copy: bool = False, device: Any = None) -> Any:
        if dtype == jnp.float16 and getattr(x, "dtype", None) == jnp.float64:
            x = x if device is None else jax.device_put(x, device)
            return astype(x, dtype)
        return base(x, dtype, copy=copy, device=device)

    return astype_
