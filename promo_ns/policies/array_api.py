"""``array-api``: the Python Array API standard 2024.12's type promotion, and nothing more.

Only the promotions in the standard's tables are defined: within bool, within
integers (no uint64 with signed), within floats and complex.  No int with
float, no bool with numbers.  Python scalars are weak and must be of a
compatible kind (bool for bool arrays; int for numeric arrays; float for
floating arrays; complex for complex and floating arrays) and, for ints, in
range (``OverflowError`` otherwise).  Everything the standard leaves undefined
raises.  float16 and bfloat16 are outside the standard: they combine only with
themselves and with Python int and float scalars.
"""

from __future__ import annotations

from promo_ns._dtypes import DTYPES, bool_, complex128, float64, int64, uint64
from promo_ns.policies._model import Family, Policy, grid, scalar_grid

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b    -    -    -    -    -    -    -    -    -    -    -    -    -    -
   i8    -   i8  i16  i32  i64  i16  i32  i64    -    -    -    -    -    -    -
  i16    -  i16  i16  i32  i64  i16  i32  i64    -    -    -    -    -    -    -
  i32    -  i32  i32  i32  i64  i32  i32  i64    -    -    -    -    -    -    -
  i64    -  i64  i64  i64  i64  i64  i64  i64    -    -    -    -    -    -    -
   u8    -  i16  i16  i32  i64   u8  u16  u32  u64    -    -    -    -    -    -
  u16    -  i32  i32  i32  i64  u16  u16  u32  u64    -    -    -    -    -    -
  u32    -  i64  i64  i64  i64  u32  u32  u32  u64    -    -    -    -    -    -
  u64    -    -    -    -    -  u64  u64  u64  u64    -    -    -    -    -    -
  f16    -    -    -    -    -    -    -    -    -  f16    -    -    -    -    -
 bf16    -    -    -    -    -    -    -    -    -    - bf16    -    -    -    -
  f32    -    -    -    -    -    -    -    -    -    -    -  f32  f64  c64 c128
  f64    -    -    -    -    -    -    -    -    -    -    -  f64  f64 c128 c128
  c64    -    -    -    -    -    -    -    -    -    -    -  c64 c128  c64 c128
 c128    -    -    -    -    -    -    -    -    -    -    -  c128 c128 c128 c128
""")

SCALARS = scalar_grid("""
         bool     int   float complex
    b       b       -       -       -
   i8       -      i8       -       -
  i16       -     i16       -       -
  i32       -     i32       -       -
  i64       -     i64       -       -
   u8       -      u8       -       -
  u16       -     u16       -       -
  u32       -     u32       -       -
  u64       -     u64       -       -
  f16       -     f16     f16       -
 bf16       -    bf16    bf16       -
  f32       -     f32     f32     c64
  f64       -     f64     f64    c128
  c64       -     c64     c64     c64
 c128       -    c128    c128    c128
""")

POLICY = Policy(
    name="array-api",
    summary="Array API 2024.12: only the standard's promotions; weak, same-kind Python scalars.",
    reference="Array API standard 2024.12 (array-api-strict)",
    arrays=ARRAYS,
    roles="weak-scalars",
    scalars=SCALARS,
    families={
        "arithmetic": Family(kinds="iufc"),
        "power": Family(kinds="iufc"),
        "real_arithmetic": Family(kinds="iuf"),
        "extrema": Family(kinds="iuf"),
        "true_divide": Family(kinds="fc"),
        "comparison": Family(result="bool"),
        "ordering": Family(kinds="iuf", result="bool"),
        "logical": Family(kinds="b", result="bool"),
        "bitwise": Family(kinds="biu"),
        "shift": Family(kinds="iu"),
        "float_only": Family(kinds="f"),
        "common": Family(),
        "linalg": Family(kinds="iufc"),
    },
    accumulate={
        **{d: int64 for d in DTYPES if d.kind == "i"},
        **{d: uint64 for d in DTYPES if d.kind == "u"},
    },
    accumulate_kinds="iufc",
    int_values="overflow",
    inplace="same",
    defaults={"bool": bool_, "int": int64, "float": float64, "complex": complex128, "index": int64},
)
