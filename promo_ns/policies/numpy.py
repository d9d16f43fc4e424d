"""``numpy``: NumPy 2 (NEP 50), with ``bfloat16`` as ``ml_dtypes`` registers it.

Arrays, 0-d arrays and NumPy scalars are all strong; Python scalars are weak:
a Python scalar of the array's kind (or a lower one) keeps the array's dtype,
and a Python int out of that dtype's range raises ``OverflowError``.
``int / int`` gives float64; the float-only functions (``arctan2``, ``hypot``,
...) first turn each integer input into the smallest float that holds it; bool
``**``, ``//``, ``%`` and shifts compute in int8.

One-array functions (``FUNCTIONS``; columns are ``promo_ns._ops.FUNCTION_FAMILY``'s
families): the float functions turn bool/int8/uint8 into float16, int16/uint16
into float32, wider integers into float64 (the smallest float loop); ``reciprocal``
and ``square`` keep integers (bool -> int8); ``round(bool)`` is float16 while
``ceil``/``floor``/``trunc`` keep bool and refuse complex; ``mean``/``std``/``var``,
``linalg`` and the FFTs compute integers in float64 (complex128); ``linalg``
(not the norms) refuses float16 and treats ml_dtypes' bfloat16 as a non-float
(float64).  Refusals (NumPy raises TypeError: no loop, the bool ``negative``,
"array type float16 is unsupported in linalg") are the policy's business; no
cell lacks a kernel.
"""

from __future__ import annotations

from promo_ns._dtypes import (
    DTYPES,
    bfloat16,
    bool_,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int64,
    uint8,
    uint16,
    uint64,
)
from promo_ns.policies._model import Family, Policy, function_grid, grid, scalar_grid

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  i16  i32  i64  i16  i32  i64  f64  f16 bf16  f32  f64  c64 c128
  i16  i16  i16  i16  i32  i64  i16  i32  i64  f64  f32  f32  f32  f64  c64 c128
  i32  i32  i32  i32  i32  i64  i32  i32  i64  f64  f64  f64  f64  f64 c128 c128
  i64  i64  i64  i64  i64  i64  i64  i64  i64  f64  f64  f64  f64  f64 c128 c128
   u8   u8  i16  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
  u16  u16  i32  i32  i32  i64  u16  u16  u32  u64  f32  f32  f32  f64  c64 c128
  u32  u32  i64  i64  i64  i64  u32  u32  u32  u64  f64  f64  f64  f64 c128 c128
  u64  u64  f64  f64  f64  f64  u64  u64  u64  u64  f64  f64  f64  f64 c128 c128
  f16  f16  f16  f32  f64  f64  f16  f32  f64  f64  f16  f32  f32  f64  c64 c128
 bf16 bf16 bf16  f32  f64  f64 bf16  f32  f64  f64  f32 bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f64  f64  f32  f32  f64  f64  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64 c128 c128  c64  c64 c128 c128  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
""")

# ml_dtypes' bfloat16 does not take part in NEP 50's weak floats: bf16 + 1.5 -> f32.
SCALARS = scalar_grid("""
         bool     int   float complex
    b       b     i64     f64    c128
   i8      i8      i8     f64    c128
  i16     i16     i16     f64    c128
  i32     i32     i32     f64    c128
  i64     i64     i64     f64    c128
   u8      u8      u8     f64    c128
  u16     u16     u16     f64    c128
  u32     u32     u32     f64    c128
  u64     u64     u64     f64    c128
  f16     f16     f16     f16     c64
 bf16    bf16    bf16     f32     c64
  f32     f32     f32     f32     c64
  f64     f64     f64     f64    c128
  c64     c64     c64     c64     c64
 c128    c128    c128    c128    c128
""")

#: The smallest float holding each integer dtype: the float-only ufuncs' loops.
_SMALLEST_FLOAT = {
    bool_: float16,
    int8: float16,
    uint8: float16,
    int16: float32,
    uint16: float32,
    **{d: float64 for d in DTYPES if d.kind in "iu" and d.bits >= 32},
}

FUNCTIONS = {
    **function_grid("""
     float reciprocal  abs negative positive sign square rounding round
   b   f16         i8    b        -        -    -     i8        b   f16
  i8   f16         i8   i8       i8       i8   i8     i8       i8    i8
 i16   f32        i16  i16      i16      i16  i16    i16      i16   i16
 i32   f64        i32  i32      i32      i32  i32    i32      i32   i32
 i64   f64        i64  i64      i64      i64  i64    i64      i64   i64
  u8   f16         u8   u8       u8       u8   u8     u8       u8    u8
 u16   f32        u16  u16      u16      u16  u16    u16      u16   u16
 u32   f64        u32  u32      u32      u32  u32    u32      u32   u32
 u64   f64        u64  u64      u64      u64  u64    u64      u64   u64
 f16   f16        f16  f16      f16      f16  f16    f16      f16   f16
bf16  bf16       bf16 bf16     bf16     bf16 bf16   bf16     bf16  bf16
 f32   f32        f32  f32      f32      f32  f32    f32      f32   f32
 f64   f64        f64  f64      f64      f64  f64    f64      f64   f64
 c64   c64        c64  f32      c64      c64  c64    c64        -   c64
c128  c128       c128  f64     c128     c128 c128   c128        -  c128
"""),
    **function_grid("""
     mean  std  var extrema argextrema linalg linalg_values norm matrix_rank  fft rfft irfft
   b  f64  f64  f64       b        i64    f64           f64  f64         i64 c128 c128   f64
  i8  f64  f64  f64      i8        i64    f64           f64  f64         i64 c128 c128   f64
 i16  f64  f64  f64     i16        i64    f64           f64  f64         i64 c128 c128   f64
 i32  f64  f64  f64     i32        i64    f64           f64  f64         i64 c128 c128   f64
 i64  f64  f64  f64     i64        i64    f64           f64  f64         i64 c128 c128   f64
  u8  f64  f64  f64      u8        i64    f64           f64  f64         i64 c128 c128   f64
 u16  f64  f64  f64     u16        i64    f64           f64  f64         i64 c128 c128   f64
 u32  f64  f64  f64     u32        i64    f64           f64  f64         i64 c128 c128   f64
 u64  f64  f64  f64     u64        i64    f64           f64  f64         i64 c128 c128   f64
 f16  f16  f16  f16     f16        i64      -             -  f16           -  c64  c64   f16
bf16 bf16 bf16 bf16    bf16        i64    f64           f64  f64         i64  c64  c64   f64
 f32  f32  f32  f32     f32        i64    f32           f32  f32         i64  c64  c64   f32
 f64  f64  f64  f64     f64        i64    f64           f64  f64         i64 c128 c128   f64
 c64  c64  f32  f32     c64        i64    c64           f32  f32         i64  c64    -   f32
c128 c128  f64  f64    c128        i64   c128           f64  f64         i64 c128    -   f64
"""),
}

POLICY = Policy(
    name="numpy",
    summary="NumPy 2 / NEP 50: Python scalars are weak, NumPy scalars and 0-d arrays are strong.",
    reference="NumPy 2.4 with ml_dtypes 0.6",
    arrays=ARRAYS,
    roles="weak-scalars",
    scalars=SCALARS,
    op_families={"subtract": "subtraction"},
    families={
        "arithmetic": Family(),
        # NumPy has no bool subtraction loop: bool - bool (an array or a Python bool) is refused.
        "subtraction": Family(result_kinds="iufc"),
        "power": Family(result_map={bool_: int8}),
        "real_arithmetic": Family(kinds="biuf", result_map={bool_: int8}),
        "extrema": Family(),
        "true_divide": Family(result_map={d: float64 for d in DTYPES if d.kind in "biu"}),
        "comparison": Family(result="bool"),
        "ordering": Family(result="bool"),
        "logical": Family(result="bool"),
        "bitwise": Family(kinds="biu"),
        "shift": Family(kinds="biu", result_map={bool_: int8}),
        "float_only": Family(kinds="biuf", operand_map=_SMALLEST_FLOAT),
        "common": Family(),
        # ml_dtypes has no bfloat16 matmul loop: NumPy computes bfloat16 products in float32.
        "linalg": Family(result_map={bfloat16: float32}),
    },
    accumulate={
        **{d: int64 for d in DTYPES if d.kind in "bi"},
        **{d: uint64 for d in DTYPES if d.kind == "u"},
    },
    int_values="overflow",
    inplace="same_kind",
    functions=FUNCTIONS,
    nested="strong-scalars",
    defaults={"bool": bool_, "int": int64, "float": float64, "complex": complex128, "index": int64},
    deviations=(
        "ml_dtypes registers no bfloat16 promotion with int16+/uint16+ or float16 for np.result_type "
        "(so np.where refuses them) while its ufunc loops accept them: the numpy policy uses the "
        "ufuncs' answer everywhere. ml_dtypes also casts complex to bfloat16 under 'same_kind'; the "
        "numpy policy keeps NumPy's rule and refuses bf16 += complex.",
    ),
)
