"""``array-api``: the Python Array API standard's type promotion (2025.12, as 2024.12), and nothing more.

Only the promotions in the standard's tables are defined: within bool, within
integers (no uint64 with signed), within floats and complex.  No int with
float, no bool with numbers.  Python scalars are weak and must be of a
compatible kind (bool for bool arrays; int for numeric arrays; float for
floating arrays; complex for complex and floating arrays) and, for ints, in
range (``OverflowError`` otherwise).  Everything the standard leaves undefined
raises.  float16 and bfloat16 are outside the standard: they combine only with
themselves and with Python int and float scalars.

``clip`` (2023.12 on) returns ``x``'s dtype: bounds of x's category cast into
it, bounds of another kind (unspecified) are refused, as are Python bools and
complex numbers; a Python int bound beyond an integer x's dtype is dropped
where it clips nothing and refused otherwise.  array-api-strict converts a
Python int for ``clip`` and setitem through NumPy, so a floating array takes
ints of int64 or uint64 only there.

Functions that decide no dtype take the kinds array-api-strict checks
(``input_kinds``): ``logical_not`` bool only, ``bitwise_invert`` bool and
integers, ``imag`` complex only, ``signbit``
real floats only, ``sort``/``argsort`` real numbers, ``conj``/``real``/``isnan``/
``isinf``/``isfinite``/``diff`` numbers (no bool), ``fft.fftshift``/``ifftshift``
and ``linalg.matrix_power`` floats; ``astype`` casts no complex array to a real
dtype (``astype_kinds``); ``isin`` takes integers only; ``sum``/``prod``/
``cumulative_*``/``linalg.trace`` refuse bool input with a ``dtype=`` too.

One-array functions (``FUNCTIONS``; columns are ``promo_ns._ops.FUNCTION_FAMILY``'s
families), as array-api-strict 2.6 checks them under 2024.12 and 2025.12 alike:
the float functions (``log``, ``sin``, ``sqrt``, ... and ``reciprocal``), ``mean``,
``std``/``var``, ``linalg`` and ``fft`` refuse integer and bool arrays; ``abs``,
``negative``, ``sign``, ``square`` and the rounding functions refuse bool and
keep an integer dtype; ``max``/``min``/``argmax``, ``std``/``var`` and
``ceil``/``floor``/``trunc`` refuse complex (``round`` takes it); ``fft``,
``irfft`` and ``hfft`` take only complex, ``rfft`` and ``ihfft`` only real
floats.  Every refusal is the standard's (the policy's business); no cell
lacks a kernel.  float16/bfloat16 (outside the standard) take the functions of
the real floats and keep their dtype, except ``linalg`` and ``fft``, refused
(the standard has no complex of their precision).  Deviation: array-api-strict
computes ``linalg.matrix_rank`` of bool and integer matrices (int64); the
standard says floating-point input, and the policy refuses them.
"""

from __future__ import annotations

from promo_ns._dtypes import DTYPES, bool_, complex128, float64, int64, uint64
from promo_ns.policies._model import Family, Policy, function_grid, grid, scalar_grid

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

#: array-api-strict converts a Python bound or value through ``np.asarray``: an int64 or uint64.
_NUMPY_INTS = dict.fromkeys("iuf", (-(2**63), 2**64 - 1))

#: The kinds each function that decides no dtype takes, as array-api-strict checks them.
INPUT_KINDS = {
    "logical_not": "b",
    "bitwise_invert": "biu",
    "imag": "c",
    "signbit": "f",
    **dict.fromkeys(("conj", "real", "isfinite", "isinf", "isnan", "diff"), "iufc"),
    # With a dtype= too (without one, accumulate_kinds refuses bool already).
    **dict.fromkeys(("sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace"), "iufc"),
    **dict.fromkeys(("sort", "argsort"), "iuf"),
    **dict.fromkeys(("fft.fftshift", "fft.ifftshift", "linalg.matrix_power"), "fc"),
}

FUNCTIONS = {
    **function_grid("""
     float reciprocal  abs negative positive sign square rounding round
   b     -          -    -        -        -    -      -        -     -
  i8     -          -   i8       i8       i8   i8     i8       i8    i8
 i16     -          -  i16      i16      i16  i16    i16      i16   i16
 i32     -          -  i32      i32      i32  i32    i32      i32   i32
 i64     -          -  i64      i64      i64  i64    i64      i64   i64
  u8     -          -   u8       u8       u8   u8     u8       u8    u8
 u16     -          -  u16      u16      u16  u16    u16      u16   u16
 u32     -          -  u32      u32      u32  u32    u32      u32   u32
 u64     -          -  u64      u64      u64  u64    u64      u64   u64
 f16   f16        f16  f16      f16      f16  f16    f16      f16   f16
bf16  bf16       bf16 bf16     bf16     bf16 bf16   bf16     bf16  bf16
 f32   f32        f32  f32      f32      f32  f32    f32      f32   f32
 f64   f64        f64  f64      f64      f64  f64    f64      f64   f64
 c64   c64        c64  f32      c64      c64  c64    c64        -   c64
c128  c128       c128  f64     c128     c128 c128   c128        -  c128
"""),
    **function_grid("""
     mean  std  var extrema argextrema linalg linalg_values norm matrix_rank  fft rfft irfft
   b    -    -    -       -          -      -             -    -           -    -    -     -
  i8    -    -    -      i8        i64      -             -    -           -    -    -     -
 i16    -    -    -     i16        i64      -             -    -           -    -    -     -
 i32    -    -    -     i32        i64      -             -    -           -    -    -     -
 i64    -    -    -     i64        i64      -             -    -           -    -    -     -
  u8    -    -    -      u8        i64      -             -    -           -    -    -     -
 u16    -    -    -     u16        i64      -             -    -           -    -    -     -
 u32    -    -    -     u32        i64      -             -    -           -    -    -     -
 u64    -    -    -     u64        i64      -             -    -           -    -    -     -
 f16  f16  f16  f16     f16        i64      -             -    -           -    -    -     -
bf16 bf16 bf16 bf16    bf16        i64      -             -    -           -    -    -     -
 f32  f32  f32  f32     f32        i64    f32           f32  f32         i64    -  c64     -
 f64  f64  f64  f64     f64        i64    f64           f64  f64         i64    - c128     -
 c64  c64    -    -       -          -    c64           f32  f32         i64  c64    -   f32
c128 c128    -    -       -          -   c128           f64  f64         i64 c128    -   f64
"""),
}

POLICY = Policy(
    name="array-api",
    summary="Array API 2024.12: only the standard's promotions; weak, same-kind Python scalars.",
    reference="Array API standard 2025.12 (array-api-strict)",
    arrays=ARRAYS,
    roles="weak-scalars",
    scalars=SCALARS,
    # meshgrid: "Each array should have the same numeric data type" (array-api-strict: ValueError).
    op_families={"isin": "membership", "meshgrid": "meshgrid"},
    families={
        "arithmetic": Family(kinds="iufc"),
        "power": Family(kinds="iufc"),
        "real_arithmetic": Family(kinds="iuf"),
        "extrema": Family(kinds="iuf"),
        "true_divide": Family(kinds="fc"),
        "comparison": Family(result="bool"),
        # isin (2025.12) takes integer arrays only.
        "membership": Family(kinds="iu", result="bool"),
        "ordering": Family(kinds="iuf", result="bool"),
        "logical": Family(kinds="b", result="bool"),
        "bitwise": Family(kinds="biu"),
        "shift": Family(kinds="iu"),
        "float_only": Family(kinds="f"),
        "common": Family(),
        "where": Family(),
        # The result has x's dtype; bounds of another kind are unspecified, and refused.
        "clip": Family(
            kinds="iuf",
            scalar_kinds="if",
            cast="category",
            int_values={"i": "bounds", "u": "bounds"},
            int_range=_NUMPY_INTS,
        ),
        "setitem": Family(int_range={"f": _NUMPY_INTS["f"]}),
        "linalg": Family(kinds="iufc"),
        "meshgrid": Family(same_dtype=True),
    },
    accumulate={
        **{d: int64 for d in DTYPES if d.kind == "i"},
        **{d: uint64 for d in DTYPES if d.kind == "u"},
    },
    accumulate_kinds="iufc",
    input_kinds=INPUT_KINDS,
    # The standard casts no complex array to a real dtype (take xp.real or xp.abs first).
    astype_kinds={"c": "c"},
    int_values="overflow",
    inplace="same",
    functions=FUNCTIONS,
    nested="refused",
    defaults={"bool": bool_, "int": int64, "float": float64, "complex": complex128, "index": int64},
    deviations=(
        "full and full_like with a fill value the dtype cannot hold (NaN, an infinity or a float beyond "
        "an integer dtype; a complex with an imaginary part for a real dtype): "
        "array-api-strict (NumPy's np.full) casts it unsafely (an undefined value; the "
        "imaginary part dropped); promo_ns refuses it (OverflowError, ValueError for NaN), as nothing "
        "may be lost silently.",
        "array-api-strict computes linalg.matrix_rank of bool and integer matrices (int64); the "
        "standard says floating-point input and the policy refuses them.",
        "clip with a Python int bound beyond an integer x's dtype that clips (int8 with min=256): "
        "array-api-strict wraps it into the dtype; the standard leaves it unspecified and the policy "
        "refuses it (a bound that clips nothing is dropped, as there). array-api-strict also refuses "
        "min > max, which the standard leaves unspecified and the policy computes. A bound beyond "
        "uint64 is a TypeError there (NumPy converts no such int) and an OverflowError here, as every "
        "Python int the policy refuses.",
        "matmul, tensordot, vecdot, linalg.cross, linalg.outer and searchsorted of two kinds (int8 with "
        "float32, int64 with uint64, float64 with complex64): array-api-strict checks only that each "
        "operand is numeric and lets NumPy promote them; the standard leaves promotion across kinds "
        "undefined, and the policy refuses it there as in every other op.",
        "<, <=, >, >=, maximum and minimum of a real floating array with a Python complex: "
        "array-api-strict checks the array's dtype only and computes (complex64 for maximum); the "
        "standard defines them for real operands, and the policy refuses the complex.",
        "meshgrid of arrays of different dtypes (the standard: each array should have the same "
        "numeric data type): array-api-strict raises ValueError, the policy the PromotionError (a "
        "TypeError) of every dtype it refuses.",
        "A shift by a negative Python int or array element: array-api-strict's functions "
        "bitwise_left_shift and bitwise_right_shift raise ValueError (the standard defines shifts by "
        "x2 >= 0), while its operators x << s and x >> s compute (NumPy's 0 or -1); the policy has one "
        "rule for both spellings and follows the operators. (Of a bool or floating array the function "
        "raises that ValueError before its kind's TypeError; both refuse.)",
    ),
)
