"""The tour ``python -m promo_ns demo`` prints: one expression under every policy."""

from __future__ import annotations

from promo_ns import PromotionError, get_policy, policies
from promo_ns._dtypes import float16, float32, int8, int32, uint8
from promo_ns._engine import Operand, operand, resolve
from promo_ns.policies._model import Role

_CASES = (
    ("int32 array + 1.5", "add", Operand(int32, Role.ND), operand(1.5)),
    ("int8 array + 0-d int32 array", "add", Operand(int8, Role.ND), Operand(int32, Role.ZERO_D)),
    ("uint8 array + int8 array", "add", Operand(uint8, Role.ND), Operand(int8, Role.ND)),
    ("int32 array / int32 array", "divide", Operand(int32, Role.ND), Operand(int32, Role.ND)),
    ("float16 array + float32 array", "add", Operand(float16, Role.ND), Operand(float32, Role.ND)),
    ("int8 array + 1000", "add", Operand(int8, Role.ND), operand(1000)),
)


def demo() -> None:
    """Print each case's result dtype under every built-in policy."""
    names = policies()
    print(f"{'':32}" + "".join(f"{n:>11}" for n in names))
    for title, op, a, b in _CASES:
        cells = []
        for name in names:
            try:
                cells.append(resolve(get_policy(name), op, a, b).name)
            except PromotionError:
                cells.append("refused")
            except OverflowError:
                cells.append("overflow")
        print(f"{title:32}" + "".join(f"{c:>11}" for c in cells))
    print("\nrefused: promo_ns.PromotionError (a TypeError) naming the operands and the cast to write.")
