"""``numpy``: NumPy 2 (NEP 50), with ``bfloat16`` as ``ml_dtypes`` registers it.

Arrays, 0-d arrays and NumPy scalars are all strong; Python scalars are weak:
a Python scalar of the array's kind (or a lower one) keeps the array's dtype,
and a Python int out of that dtype's range raises ``OverflowError``.
Three or more dtypes promote as NumPy's ``PyArray_PromoteDTypeSequence`` does
(``nary="main-dtype"``): the dtype with the highest type number is the main one
and every other promotes with it, so ``result_type(int8, uint8, float16)`` is
float16 (and ``concat``, ``stack`` and ``clip`` of them), not the pairwise
float32.  ``result_type`` converts no value (``result_type(int8, 2**70)`` is
int8), and Python scalars alone take the default dtype of their kind
(``result_type(1, 1.5)`` and ``where(c, 1, 1.5)`` are float64).
``int / int`` gives float64; the float-only functions (``arctan2``, ``hypot``,
...) first turn each integer input into the smallest float that holds it; bool
``**``, ``//``, ``%`` and shifts compute in int8.

Python ints as data (``int_values``, measured by
``conformance/frameworks/edges.py``, stored in
``tests/reference/edges-numpy.json``): in arithmetic, bitwise ops, shifts,
``maximum``/``minimum`` and setitem an int must fit the array's dtype (a bool
array's is an int64), else ``OverflowError``; an integer power refuses a
negative exponent (``ValueError``: "Integers to negative integer powers are not
allowed"). Comparisons of an integer array are exact (``uint8_array < 1000`` is
all true, ``== -1`` all false) and the logical ufuncs take the int's truth (any
int64), and a Python float's or complex's as it is (``logical_or(float16_array,
1e-10)`` is all true: ``scalar_truth``); true division and the
float-only functions convert the int to the float they compute in
(``uint8_array / 1000``, ``arctan2(x, -3)``); ``where`` converts it through a C
long (``-2**63 .. 2**64-1``) and wraps it into the result; ``clip`` drops an
int bound beyond the dtype that clips nothing (``np.clip``'s own rule) and
refuses the others. These are the policy's refusals (NumPy raises them before
any loop runs). Setitem casts any value into the array (a 0-d array of any
dtype, a Python float into an integer array), but a Python complex into a real
array raises (``float()`` of it does). Integer division by zero (0 and a
warning in NumPy, an error in torch) is the backend's numerics, not the
policy's; promo_ns's torch backend gives NumPy's 0.

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
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from promo_ns.policies._model import Family, IntRule, Policy, function_grid, grid, scalar_grid

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

#: NumPy's type numbers (``np.dtype(t).num``): the main dtype of an n-ary promotion is the
#: latest here (``PyArray_PromoteDTypeSequence``); float16 comes after complex128, and
#: ml_dtypes' bfloat16, a user dtype, after every built-in one.
_TYPE_NUMBERS = (
    *(bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64),
    *(float32, float64, complex64, complex128, float16, bfloat16),
)

#: A Python int must fit the dtype (NEP 50), and be no negative exponent of an integer power.
_EXPONENT: dict[str, IntRule] = {"b": "non-negative", "i": "non-negative", "u": "non-negative"}
#: Integer arrays compare exactly with any Python int; a bool array's int is an int64.
_EXACT: dict[str, IntRule] = {"b": "fit", "i": "exact", "u": "exact"}
#: ``np.clip`` drops an int bound that clips nothing; a bool array clips as int64.
_CLIP: dict[str, IntRule] = {"b": "fit", "i": "bounds", "u": "bounds"}
#: The logical ufuncs read a Python int as an int64 (its truth, not wrapped), whatever the array.
_INT64 = dict.fromkeys("biufc", (-(2**63), 2**63 - 1))
#: ``np.where`` converts a Python int for a bool or integer array through a C (unsigned) long.
_C_LONG = dict.fromkeys("biu", (-(2**63), 2**64 - 1))

#: The smallest float holding each integer dtype: the float-only ufuncs' loops.
_SMALLEST_FLOAT = {
    bool_: float16,
    int8: float16,
    uint8: float16,
    int16: float32,
    uint16: float32,
    **{d: float64 for d in DTYPES if d.kind in "iu" and d.bits >= 32},
}

#: The precision np.linalg.solve computes each operand in (its ``linalg`` column): the loops are
#: float32, float64, complex64 and complex128.
_SOLVE_LOOPS = {
    **{d: float64 for d in DTYPES if d.kind in "biu" or d is bfloat16},
    **{d: d for d in (float32, float64, complex64, complex128)},
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
    # Python scalars alone (result_type(1, 1.5), where(c, 1, 1.5)): the default dtype of their kind.
    scalars_alone="defaults",
    nary="main-dtype",
    nary_order=_TYPE_NUMBERS,
    # np.tensordot, np.outer and np.cross multiply through np.dot and ufuncs that ml_dtypes gives
    # bfloat16 loops (tensordot(bf16, bf16) is bfloat16); only matmul and solve lack them.
    op_families={
        **{"subtract": "subtraction", "solve": "solve"},
        **dict.fromkeys(("tensordot", "outer", "cross"), "arithmetic"),
    },
    families={
        "arithmetic": Family(),
        # NumPy has no bool subtraction loop: bool - bool (an array or a Python bool) is refused.
        "subtraction": Family(result_kinds="iufc"),
        "power": Family(result_map={bool_: int8}, int_right=_EXPONENT),
        "real_arithmetic": Family(kinds="biuf", result_map={bool_: int8}),
        "extrema": Family(),
        "true_divide": Family(result_map={d: float64 for d in DTYPES if d.kind in "biu"}, int_values={}),
        "comparison": Family(result="bool", int_values=_EXACT),
        "ordering": Family(result="bool", int_values=_EXACT),
        "logical": Family(
            result="bool",
            int_values={"i": "exact", "u": "exact"},
            int_range=_INT64,
            scalar_truth="as_written",
        ),
        "bitwise": Family(kinds="biu"),
        "shift": Family(kinds="biu", result_map={bool_: int8}),
        "float_only": Family(kinds="biuf", operand_map=_SMALLEST_FLOAT, int_values={}),
        # result_type converts no value: np.result_type(int8, 2**70) is int8.
        "common": Family(int_values={}),
        "where": Family(int_values={}, int_range=_C_LONG),
        # ml_dtypes has no bfloat16 clip loop: NumPy clips bfloat16 in float32.
        "clip": Family(result_map={bfloat16: float32}, int_values=_CLIP),
        "setitem": Family(cast="any", int_values={"i": "fit", "u": "fit"}),
        # ml_dtypes has no bfloat16 matmul loop: NumPy computes bfloat16 products in float32.
        "linalg": Family(result_map={bfloat16: float32}),
        # np.linalg.solve's _commonType: a non-float operand (bfloat16 too) counts as float64, float16
        # is refused ("array type float16 is unsupported in linalg").
        "solve": Family(
            arrays={pair: d for pair, d in ARRAYS.items() if float16 not in pair},
            operand_map=_SOLVE_LOOPS,
        ),
    },
    accumulate={
        **{d: int64 for d in DTYPES if d.kind in "bi"},
        **{d: uint64 for d in DTYPES if d.kind == "u"},
    },
    # np.invert has loops for bool and integers only ("ufunc 'invert' not supported for the input
    # types"): every framework refuses ~float, so it is the policy's refusal, not a missing kernel.
    input_kinds={"bitwise_invert": "biu"},
    # np.conjugate has no bool loop: conj of bool is int8 (the standard's, and torch's, is bool).
    delegated={("conj", bool_): int8},
    int_values="overflow",
    inplace="same_kind",
    functions=FUNCTIONS,
    nested="strong-scalars",
    defaults={"bool": bool_, "int": int64, "float": float64, "complex": complex128, "index": int64},
    deviations=(
        "full and full_like with a fill value the dtype cannot hold (NaN, an infinity or a float beyond "
        "an integer dtype; a complex with an imaginary part for a real dtype): "
        "NumPy casts it unsafely (an undefined value; the "
        "imaginary part dropped); promo_ns refuses it (OverflowError, ValueError for NaN), as nothing "
        "may be lost silently.",
        "asarray of Python ints beyond int64 without a dtype: NumPy 2.4 discovers uint64 (2**63 alone, "
        "or with bools), float64 ([1, 2**63]) or an object array (2**64); promo_ns refuses with one "
        "OverflowError naming the int and the dtype to ask for (dtype=xp.uint64, or a float dtype), "
        "on every backend: a value-based dtype is what NEP 50 removed from the rest of NumPy.",
        "ml_dtypes registers no bfloat16 promotion with int16+/uint16+ or float16 for np.result_type "
        "(so np.where, np.concatenate and np.stack refuse them, np.cross too, np.tensordot gives an "
        "object array, and result_type refuses a Python int beside bfloat16 and another dtype), and "
        "result_type takes a Python float or complex with "
        "bfloat16 as float64 or complex128, while its ufunc loops accept them all (float32, complex64): "
        "the numpy policy uses the ufuncs' answer everywhere. ml_dtypes also casts complex to bfloat16 "
        "under 'same_kind'; the numpy policy keeps NumPy's rule and refuses bf16 += complex.",
        "result_type of Python ints alone: NumPy discovers one lone int's dtype from its value, as "
        "np.asarray does (2**63 is uint64, 2**64 object); the numpy policy gives int64, the default "
        "int, as NumPy does for two or more (np.result_type(-1, 2**63) is int64).",
        "ml_dtypes' bfloat16 converts no Python int beyond int64 (TypeError: expected number, got int; "
        "np.where none beyond uint64); the numpy policy converts it as NumPy does for float16: rounded, "
        "infinite beyond the range.",
        "np.clip of a bfloat16 array gives float32 with both bounds (ml_dtypes has no clip loop) and "
        "bfloat16 with one (np.clip is then maximum or minimum); the numpy policy gives float32 to both.",
        "bool_array ** 2 is int8 in NumPy (its fast path computes np.square); the numpy policy gives the "
        "promotion's int64, as for any other Python int exponent.",
    ),
)
