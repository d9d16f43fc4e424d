"""Every example of the seed documents (shared/seeds/), under its policy.

An example is ``(policy, op, left, right, expected)``; operands are written
as ``python -m promo_ns explain`` reads them (``"int32:nd"``, ``"int64:0d"``,
``"float32:npscalar"`` for a NumPy scalar) or are Python scalars; ``expected``
is a dtype name, ``"refused"`` or ``"overflow"``.
"""

from __future__ import annotations

import pytest

from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import BY_NAME
from promo_ns._engine.operands import Operand, operand
from promo_ns._engine.resolution import resolve
from promo_ns.explore.cli import parse_operand
from promo_ns.policies._model import Role

SEEDS = [
    # 000 "Demystifying Dtype Promotion in PyTorch": the article's opening questions.
    ("pytorch", "add", "int32:nd", 5, "int32"),
    ("pytorch", "add", "int32:nd", 5.5, "float32"),
    ("pytorch", "divide", "int32:nd", 5, "float32"),
    ("pytorch", "add", "int32:nd", "int64:0d", "int32"),
    ("pytorch", "add", "int64:nd", "int32:nd", "int64"),
    ("pytorch", "add", "bool:nd", "int64:nd", "int64"),
    ("pytorch", "add", "bool:nd", "uint8:nd", "uint8"),
    ("pytorch", "add", "float32:nd", "float64:nd", "float64"),
    ("pytorch", "add", "complex64:nd", "complex128:nd", "complex128"),
    ("pytorch", "add", "bool:nd", "int32:nd", "int32"),
    ("pytorch", "add", "int64:nd", "float32:nd", "float32"),
    # 001 (PyTorch, OneFlow notes): torch.mul examples, array-with-scalar and 0-d examples.
    ("pytorch", "multiply", "int8:nd", "float64:0d", "float64"),
    ("pytorch", "multiply", "int8:nd", "int64:0d", "int8"),
    ("pytorch", "multiply", "int8:nd", 1.0, "float32"),
    ("pytorch", "multiply", "int8:nd", 2**63 - 1, "int8"),
    ("pytorch", "add", "int16:nd", 2, "int16"),
    ("pytorch", "add", "int16:nd", 2.0, "float32"),
    ("pytorch", "add", "int16:nd", "int64:0d", "int16"),
    ("pytorch", "add", "int16:nd", "float32:0d", "float32"),
    ("array-api", "add", "int8:nd", "uint8:nd", "int16"),
    ("numpy", "add", "int32:nd", 2**31 - 1, "int32"),
    # The seed shows NumPy 1's value-based int64; NumPy 2 (NEP 50) raises OverflowError.
    ("numpy", "add", "int32:nd", 2**31, "overflow"),
    # 002 Paddle's type promotion guide.
    ("paddle", "add", "float16:nd", "float32:nd", "float32"),
    ("paddle", "add", "bfloat16:nd", "float64:nd", "float64"),
    ("paddle", "add", "complex64:nd", "float64:nd", "complex128"),
    ("paddle", "add", "complex128:nd", "complex64:nd", "complex128"),
    ("paddle", "add", "float16:nd", 1.0, "float16"),
    ("paddle", "add", 1.0, "int64:nd", "float32"),
    ("paddle", "add", "float32:nd", "float16:nd", "float32"),
    ("paddle", "add", "int64:nd", "float32:nd", "refused"),
    ("paddle", "divide", "int32:nd", 1, "float32"),
    ("paddle", "equal", "float32:nd", "float16:nd", "bool"),
    # 003 MegEngine MEP 3: its NumPy-vs-PyTorch table.  Its NumPy column is NumPy 1's
    # value-based casting; under NumPy 2 (NEP 50) a 0-d array is strong and a Python
    # scalar weak, so tensor(int8) + 1 is int8 and scalar(50000) + uint8 overflows.
    ("pytorch", "add", "int8:nd", 1, "int8"),
    ("numpy", "add", "int8:nd", 1, "int8"),
    ("pytorch", "add", "int8:0d", 1, "int8"),
    ("numpy", "add", "int8:0d", 1, "int8"),
    ("pytorch", "add", "int8:nd", "int64:0d", "int8"),
    ("numpy", "add", "int8:nd", "int64:0d", "int64"),
    ("pytorch", "add", "int8:0d", "int64:0d", "int64"),
    ("numpy", "add", "int8:0d", "int64:0d", "int64"),
    ("pytorch", "add", "int8:0d", 1.0, "float32"),
    ("numpy", "add", "int8:0d", 1.0, "float64"),
    ("pytorch", "add", "uint8:nd", 50000, "uint8"),
    ("numpy", "add", "uint8:nd", 50000, "overflow"),
    ("pytorch", "add", "float32:nd", "int32:nd", "float32"),
    ("numpy", "add", "float32:nd", "int32:nd", "float64"),
    ("numpy", "add", "int32:nd", "float32:npscalar", "float64"),
    # The seed's float32 for this one is NumPy 1's value-based casting; NEP 50
    # makes NumPy scalars strong.
    ("numpy", "add", "float32:nd", "int32:npscalar", "float64"),
    # 004 TensorFlow RFC 431, SAFE mode (tf-safe).
    ("tf-safe", "add", "float32:0d", 3, "float32"),
    ("tf-safe", "add", 3, "float32:0d", "float32"),
    ("tf-safe", "add", "uint8:nd", "int8:nd", "refused"),
    ("tf-safe", "add", "uint64:nd", "float32:nd", "refused"),
    ("tf-safe", "add", "int32:nd", 1.5, "refused"),
    ("tf-safe", "add", "uint8:nd", 255, "uint8"),
    ("tf-safe", "add", "uint8:nd", 256, "refused"),
    ("tf-safe", "add", "int8:nd", 1, "int8"),
    ("tf-safe", "add", "int8:nd", 1000, "refused"),
    ("tf-safe", "divide", "int8:nd", "int16:nd", "float32"),
    ("tf-safe", "divide", "uint8:nd", "uint32:nd", "float64"),
    ("tf-safe", "divide", "int8:nd", 1, "float32"),
    ("tf-safe", "divide", "int8:nd", "uint16:nd", "refused"),
    ("tf-safe", "add", "int8:nd", "float16:nd", "float16"),  # lossless: allowed in TF 2.21
    # RFC 431, ALL mode (tf-all), as TF 2.21 implements it.
    ("tf-all", "add", "uint8:nd", "int8:nd", "int16"),
    ("tf-all", "add", "bfloat16:nd", "uint8:nd", "bfloat16"),
    ("tf-all", "add", "int64:nd", "float64:nd", "float64"),  # capped at 64 bits
    ("tf-all", "add", "int8:nd", 1, "int8"),
    ("tf-all", "add", "int8:nd", 1000, "refused"),
    ("tf-all", "divide", "int8:nd", "uint16:nd", "float64"),  # int32, then truediv's float64
    # The RFC's text makes uint64 + float32 float64 (no precision loss); TF 2.21's table: float32.
    ("tf-all", "add", "uint64:nd", "float32:nd", "float32"),
]


def _operand(x: object) -> Operand:
    return parse_operand(x) if isinstance(x, str) else operand(x)


def _id(case: tuple[object, ...]) -> str:
    return "-".join(map(str, case))


@pytest.mark.parametrize("case", SEEDS, ids=_id)
def test_seed_example(case: tuple[str, str, object, object, str]) -> None:
    policy, op, left, right, expected = case
    try:
        got = resolve(get_policy(policy), op, _operand(left), _operand(right)).name
    except PromotionError:
        got = "refused"
    except OverflowError:
        got = "overflow"
    assert got == expected, f"{policy}: {op}({left!r}, {right!r}) gave {got}, the seed says {expected}"


def test_rfc431_safe_mode_avoids_the_non_associative_triple() -> None:
    """RFC 431: ``(u8 + i8) + f16`` vs ``u8 + (i8 + f16)``; SAFE refuses the widening step."""
    tf = get_policy("tf-safe")
    u8, i8 = Operand(BY_NAME["uint8"], Role.ND), Operand(BY_NAME["int8"], Role.ND)
    with pytest.raises(PromotionError):
        resolve(tf, "add", u8, i8)


def test_rfc431_all_mode_triple_is_associative_in_tf_2_21() -> None:
    """RFC 431 says ALL gives ``(u8 + i8) + f16`` float32; TF 2.21's table gives int16 + f16 = float16."""
    tf = get_policy("tf-all")
    u8, i8, f16 = (Operand(BY_NAME[d], Role.ND) for d in ("uint8", "int8", "float16"))
    left = resolve(tf, "add", Operand(resolve(tf, "add", u8, i8), Role.ND), f16)
    right = resolve(tf, "add", u8, Operand(resolve(tf, "add", i8, f16), Role.ND))
    assert left.name == right.name == "float16"
