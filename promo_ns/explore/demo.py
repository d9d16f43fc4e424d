"""The tour ``python -m promo_ns demo`` prints: the same expressions on NumPy arrays under every policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._engine.operands import PromotionError
from promo_ns.policies import policies

_CASES: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("int32 array + 1.5", lambda xp: xp.asarray([1, 2], dtype=xp.int32) + 1.5),
    ("int8 array + 0-d int32 array", lambda xp: xp.ones(2, dtype=xp.int8) + xp.asarray(1, dtype=xp.int32)),
    ("uint8 array + int8 array", lambda xp: xp.ones(2, dtype=xp.uint8) + xp.ones(2, dtype=xp.int8)),
    ("int32 array / int32 array", lambda xp: xp.ones(2, dtype=xp.int32) / xp.ones(2, dtype=xp.int32)),
    ("float16 array + float32 array", lambda xp: xp.ones(2, dtype=xp.float16) + xp.ones(2, dtype=xp.float32)),
    ("int8 array + 1000", lambda xp: xp.ones(2, dtype=xp.int8) + 1000),
)


def _outcome(expression: Callable[[Any], Any], xp: Any) -> str:
    try:
        return str(expression(xp).dtype)
    except PromotionError:
        return "refused"
    except OverflowError:
        return "overflow"


def demo() -> None:
    """Compute each case on NumPy arrays under every built-in policy and print the result dtypes."""
    import numpy as np

    from promo_ns._namespace import namespace

    names = policies()
    spaces = [namespace("numpy", policy=name) for name in names]
    print(f"Result dtypes on NumPy {np.__version__} arrays, xp = promo_ns.namespace('numpy', policy=...):\n")
    print(f"{'':32}" + "".join(f"{n:>11}" for n in names))
    for title, expression in _CASES:
        print(f"{title:32}" + "".join(f"{_outcome(expression, xp):>11}" for xp in spaces))
    xp = namespace("numpy", policy="pytorch")
    a = xp.asarray([1, 2], dtype=xp.int32)
    print(f"\nunder 'pytorch': {a!r} + 1.5 = {a + 1.5!r}")
    print("refused: promo_ns.PromotionError (a TypeError) naming the operands and the cast to write.")
