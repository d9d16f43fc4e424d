"""The errors every adapter raises where the policy's values refuse (:class:`~._base.Values`)."""

from __future__ import annotations

__all__ = ["negative_power_error", "zero_divisor_error"]


def zero_divisor_error(op: str) -> ZeroDivisionError:
    """The error of an integer ``op`` (``floor_divide``, ``remainder``) with a divisor of 0."""
    return ZeroDivisionError(
        f"{op}(): integer division by zero (the policy's framework raises here, as the policy does on "
        "every backend); mask the zero divisors first, e.g. xp.where(y == 0, 1, y), or divide in a "
        "floating dtype."
    )


def negative_power_error() -> ValueError:
    """The error of an integer power with a negative integer exponent, where the policy refuses it."""
    return ValueError(
        "pow(): integers to negative integer powers are not allowed (the policy's framework refuses "
        "them, as the policy does on every backend); cast the base to a floating dtype first, e.g. "
        "xp.astype(x, xp.float64) ** y."
    )
