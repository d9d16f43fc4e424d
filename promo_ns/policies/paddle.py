"""``paddle``: PaddlePaddle 3.3.1's promotion (``paddle/phi/common/type_promotion.h``), eager mode.

Tensor with tensor promotes only among floats and between complex and real
(int with float raises).  A Python scalar of the tensor's category (or a lower
one) keeps the tensor's dtype; otherwise it stands for int64, float32 or
complex64 and meets the tensor through Paddle's full promotion lattice.  A 0-d
tensor gives way to an n-d tensor of its own category; across categories its
own dtype counts (lattice), and two 0-d tensors always use the lattice.
``int / int`` gives float32.  Bitwise ops do not promote tensor with tensor.

Measured on Paddle 3.3.1 (``python -m conformance.frameworks.paddle``).  Where
Paddle 2.6's documentation tables differ (0-d tensors are not covered there;
uint16/32/64 are absent there and promote with nothing here), 3.3.1 is followed.
"""

from __future__ import annotations

from promo_ns._dtypes import DTYPES, bool_, complex64, float32, float64, int64
from promo_ns.policies._model import Family, Policy, Role, grid

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b    -    -    -    -    -    -    -    -    -    -    -    -  c64 c128
   i8    -   i8    -    -    -    -    -    -    -    -    -    -    -  c64 c128
  i16    -    -  i16    -    -    -    -    -    -    -    -    -    -  c64 c128
  i32    -    -    -  i32    -    -    -    -    -    -    -    -    -  c64 c128
  i64    -    -    -    -  i64    -    -    -    -    -    -    -    -  c64 c128
   u8    -    -    -    -    -   u8    -    -    -    -    -    -    -  c64 c128
  u16    -    -    -    -    -    -  u16    -    -    -    -    -    -    -    -
  u32    -    -    -    -    -    -    -  u32    -    -    -    -    -    -    -
  u64    -    -    -    -    -    -    -    -  u64    -    -    -    -    -    -
  f16    -    -    -    -    -    -    -    -    -  f16  f32  f32  f64  c64 c128
 bf16    -    -    -    -    -    -    -    -    -  f32 bf16  f32  f64  c64 c128
  f32    -    -    -    -    -    -    -    -    -  f32  f32  f32  f64  c64 c128
  f64    -    -    -    -    -    -    -    -    -  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64  c64  c64  c64    -    -    -  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128    -    -    - c128 c128 c128 c128 c128 c128
""")

# promoteTypes(): the lattice used for 0-d tensors and Python scalars.
LATTICE = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8    -    -    -  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  i16  i32  i64  i16    -    -    -  f16 bf16  f32  f64  c64 c128
  i16  i16  i16  i16  i32  i64  i16    -    -    -  f16 bf16  f32  f64  c64 c128
  i32  i32  i32  i32  i32  i64  i32    -    -    -  f16 bf16  f32  f64  c64 c128
  i64  i64  i64  i64  i64  i64  i64    -    -    -  f16 bf16  f32  f64  c64 c128
   u8   u8  i16  i16  i32  i64   u8    -    -    -  f16 bf16  f32  f64  c64 c128
  u16    -    -    -    -    -    -  u16    -    -    -    -    -    -    -    -
  u32    -    -    -    -    -    -    -  u32    -    -    -    -    -    -    -
  u64    -    -    -    -    -    -    -    -  u64    -    -    -    -    -    -
  f16  f16  f16  f16  f16  f16  f16    -    -    -  f16  f32  f32  f64  c64 c128
 bf16 bf16 bf16 bf16 bf16 bf16 bf16    -    -    -  f32 bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f32  f32  f32    -    -    -  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64    -    -    -  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64  c64  c64  c64    -    -    -  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128    -    -    - c128 c128 c128 c128 c128 c128
""")

_INTS_TO_F32 = {d: float32 for d in DTYPES if d.kind in "iu"}

POLICY = Policy(
    name="paddle",
    summary="Paddle 3.3: tensors promote only among floats and with complex; scalars keep the tensor's kind.",
    reference="PaddlePaddle 3.3.1",
    arrays=ARRAYS,
    roles="priority",
    zero_d=LATTICE,
    cross=LATTICE,
    cross_when="different",
    scalar_dtypes={Role.BOOL: bool_, Role.INT: int64, Role.FLOAT: float32, Role.COMPLEX: complex64},
    families={
        "arithmetic": Family(),
        "power": Family(),
        "real_arithmetic": Family(),
        "extrema": Family(kinds="biuf", strong=True),
        "true_divide": Family(result_map=_INTS_TO_F32),
        "comparison": Family(result="bool"),
        "ordering": Family(result="bool"),
        "logical": Family(result="bool", strong=True),
        "bitwise": Family(kinds="biu", same_dtype=True),
        "shift": Family(kinds="biu", same_dtype=True),
        "float_only": Family(result_map=_INTS_TO_F32),
        "atan2": Family(result_map={d: float64 for d in DTYPES if d.kind in "iu"}, strong=True),
        "copysign": Family(),
        "common": Family(strong=True),
        "linalg": Family(same_dtype=True),
    },
    op_families={"atan2": "atan2", "copysign": "copysign"},
    accumulate={bool_: int64, DTYPES[3]: int64},
    int_values="wrap",
    inplace="same",
    defaults={"bool": bool_, "int": int64, "float": float32, "complex": complex64, "index": int64},
)
