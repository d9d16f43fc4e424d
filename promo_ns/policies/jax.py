"""``jax``: JAX's standard dtype promotion with 64-bit types (``jax_enable_x64=True``).

The reference is ``jax.numpy`` itself (JAX 0.10.2), measured by
``conformance/frameworks/jax.py`` (the grids, stored in ``tests/reference/jax.json``
and ``jax-functions.json``), ``conformance/frameworks/edges.py`` (values at the
edges, ``edges-jax.json``) and ``conformance/probe/jax.py`` (every public
function and operator form, ``probe-jax.json.gz``).

JAX promotes over a lattice (``jax/_src/dtypes.py``, ``_type_promotion_lattice``)
whose Python-scalar nodes are the weak types ``i*``, ``f*`` and ``c*``:
``b < i* < u8 / i8 < ... < u64 / i64 < f* < bf16 / f16 < f32 < f64 < c128``,
``f* < c* < c64``.  Arrays, 0-d arrays included, are strong; a Python scalar is
weak and keeps an array of its kind (or a higher one) as it is: ``int8 + 1``
is int8, ``bfloat16 + 1.5`` is bfloat16, ``float16 + 1j`` is complex64.  An
integer or bool array meeting a Python float takes the weak float's dtype, the
default float (float64: ``int8 + 1.5`` is float64, and a Python complex
complex128).  Unlike NumPy, integers meet floats by the float alone (``int64 +
float16`` is float16), and uint64 with a signed integer is the weak float, so
float64.  bfloat16 with float16 is float32.

True division and the float-only functions (``arctan2``, ``hypot``, ...) of
integers and bools compute in ``dtypes.to_inexact_dtype`` of the promoted
dtype: float32 up to 32 bits, float64 for int64/uint64 (``int8 / int8`` is
float32; ``int8 / 1.5`` is float64, the weak float's).  ``sum``/``prod``/
``cumulative_sum`` accumulate bool and signed integers in int64 and unsigned
in uint64; ``cumulative_prod`` keeps an integer's dtype (bool: int64).  Three
or more dtypes (``result_type``, ``concat``, ``stack``, ...) join in the
lattice (``nary="lattice"``): uint64 with a signed integer joins at the weak
float, which gives way to the next floating dtype (``uint64, int8, bfloat16``
is bfloat16) and is float64 if none comes.  A floating ``%`` that gives 0 takes
the dividend's sign (``lax.rem``; ``-2.0 % 1.0`` is ``-0.0``).

Python ints as data (``int_values``, ``int_range``; ``edges-jax.json``): JAX
parses a Python int as an int64 (``OverflowError``: "An overflow was encountered
while parsing an argument to a jitted computation", from ``2**63`` on and below
``-2**63``, whatever the array, a uint64 one too) and then converts it into the
result's dtype as a cast does: ``int8 + 1000`` wraps to int8 silently, a
float16 array takes ``2**31`` as infinity.

Integer division by zero (``zero_divisor="xla"``) gives XLA's values on every
backend: ``x // 0`` is -1 for ``x = 0``, -2 for any other signed ``x`` and the
dtype's maximum for unsigned (XLA's all-ones quotient through ``floor_divide``'s
correction), ``x % 0`` is 0; JAX raises nothing and warns of nothing.

``clip`` promotes ``x`` with its bounds (``jnp.clip`` is ``minimum(maximum(x,
min), max)``) and refuses complex ("Clip received a complex value");
setitem is ``x.at[i].set(v)``, which casts any value into ``x``'s dtype.
Deviation: a Python complex into a real array drops its imaginary part in
JAX; the policy refuses it (``complex_to_real="refused"``).

Powers: ``x ** s`` with a concrete integer exponent (a Python int or bool, or
a 0-d integer or bool array outside ``jit``) lowers to ``lax.integer_pow`` and
keeps ``x``'s dtype whatever ``s``'s (a bool base as int32: ``int8 ** <0-d
int64>`` is int8, ``bool ** 2`` int32); a traced exponent promotes.  The
policy promotes (the dtype must not depend on whether the exponent is traced):
a documented deviation.  bool operands of ``**``, ``//``, ``%`` and shifts
compute in int32 (``promote_args_numeric``), and ``bool - bool`` is refused
(``lax.sub`` has no bool).

One-array functions (``FUNCTIONS``, ``jax-functions.json``): the float
functions, ``reciprocal``, ``mean``/``std``/``var``, ``linalg`` and the FFTs of
bool and integers compute in ``to_inexact_dtype`` (float32, float64 for
int64/uint64; complex64/complex128); ``square(bool)`` is int32;
``negative``/``sign``/``round`` refuse bool, ``ceil``/``floor``/``trunc`` complex,
``argmax`` complex, ``rfft``/``rfftn``/``ihfft`` complex and float16/bfloat16
("RFFT input must be float32 or float64"): those refusals are JAX's (the
policy's business).  ``linalg`` of float16/bfloat16 keeps the dtype (``det``
computes it); JAX's CPU has no LAPACK kernel for the others ("Unsupported
dtype float16"): not a decision.  Deviation: ``jnp.linalg.vector_norm`` of bool
and integers up to 32 bits is float64 (it sums in int64 first), ``matrix_norm``
float32; the policy gives both float32.  JAX refuses with ``TypeError`` (a
missing dtype, "bitwise_and does not accept dtype float32") or a ``ValueError``
dtype check (``hypot`` of complex); ``arctan2`` and ``logaddexp`` take complex.

Results that are weakly typed: where the weak lattice node decides (an integer
array with a Python float, uint64 with a signed integer), JAX marks the result
``weak_type=True``, so that it gives way to the next strong operand
(``(int8_array + 1.5) + float32_array`` is float32 in JAX, float64 here).
promo_ns's arrays carry no weak flag: every result is strong, and each single
operation agrees with JAX's; chains through a weakly typed intermediate can
differ.  (The grids and the probe measure single operations.)

JAX's 32-bit default mode (``jax_enable_x64=False``) is the same lattice with
every 64-bit dtype canonicalized to its 32-bit one: int64/uint64/float64/
complex128 arrays cannot be made, the weak float is float32 (``int8 + 1.5`` is
float32), true division of any integer is float32, and ``sum`` of int8 is int32.
It is no separate policy: derive one from this (``get_policy("jax").derive(...)``)
where code runs JAX in that mode.

NumPy scalars are strongly typed in JAX (``dtypes.is_weakly_typed`` holds for Python
scalars only): they take part as the 0-d arrays they are (``int32 + np.float64(1.5)`` is
float64).
"""

from __future__ import annotations

from promo_ns._dtypes import DTYPES, bool_, complex128, float32, float64, int32, int64, uint64
from promo_ns.policies._model import Family, Policy, Role, function_grid, grid, scalar_grid

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  i16  i32  i64  i16  i32  i64  f64  f16 bf16  f32  f64  c64 c128
  i16  i16  i16  i16  i32  i64  i16  i32  i64  f64  f16 bf16  f32  f64  c64 c128
  i32  i32  i32  i32  i32  i64  i32  i32  i64  f64  f16 bf16  f32  f64  c64 c128
  i64  i64  i64  i64  i64  i64  i64  i64  i64  f64  f16 bf16  f32  f64  c64 c128
   u8   u8  i16  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
  u16  u16  i32  i32  i32  i64  u16  u16  u32  u64  f16 bf16  f32  f64  c64 c128
  u32  u32  i64  i64  i64  i64  u32  u32  u32  u64  f16 bf16  f32  f64  c64 c128
  u64  u64  f64  f64  f64  f64  u64  u64  u64  u64  f16 bf16  f32  f64  c64 c128
  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f32  f32  f64  c64 c128
 bf16 bf16 bf16 bf16 bf16 bf16 bf16 bf16 bf16 bf16  f32 bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
""")

# The weak types i*, f*, c*: a Python scalar of the array's kind or a lower one keeps its dtype;
# a higher one takes the weak node's default dtype (int64, float64, complex128).
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
 bf16    bf16    bf16    bf16     c64
  f32     f32     f32     f32     c64
  f64     f64     f64     f64    c128
  c64     c64     c64     c64     c64
 c128    c128    c128    c128    c128
""")

#: ``dtypes.to_inexact_dtype``: bool and integers up to 32 bits to float32, 64-bit ones to float64.
_INEXACT = {d: float64 if d.bits == 64 else float32 for d in DTYPES if d.kind in "biu"}

#: The lattice joins uint64 and a signed integer at the weak float ``f*`` (``_type_promotion_lattice``).
_WEAK_JOINS = {pair: Role.FLOAT for d in DTYPES if d.kind == "i" for pair in ((uint64, d), (d, uint64))}
#: ``cumulative_prod`` (``jnp.cumprod`` too) keeps an integer's dtype; a bool accumulates in int64.
_KEEPING_PRODUCT = {bool_: int64}
#: JAX parses a Python int argument as an int64.
_INT64 = dict.fromkeys("biufc", (-(2**63), 2**63 - 1))
#: ``promote_args_numeric``: a bool operand of ``**``, ``//``, ``%`` and shifts computes as int32.
_NUMERIC = {bool_: int32}

FUNCTIONS = {
    **function_grid("""
     float reciprocal  abs negative positive sign square rounding round
   b   f32        f32    b        -        b    -    i32        b     -
  i8   f32        f32   i8       i8       i8   i8     i8       i8    i8
 i16   f32        f32  i16      i16      i16  i16    i16      i16   i16
 i32   f32        f32  i32      i32      i32  i32    i32      i32   i32
 i64   f64        f64  i64      i64      i64  i64    i64      i64   i64
  u8   f32        f32   u8       u8       u8   u8     u8       u8    u8
 u16   f32        f32  u16      u16      u16  u16    u16      u16   u16
 u32   f32        f32  u32      u32      u32  u32    u32      u32   u32
 u64   f64        f64  u64      u64      u64  u64    u64      u64   u64
 f16   f16        f16  f16      f16      f16  f16    f16      f16   f16
bf16  bf16       bf16 bf16     bf16     bf16 bf16   bf16     bf16  bf16
 f32   f32        f32  f32      f32      f32  f32    f32      f32   f32
 f64   f64        f64  f64      f64      f64  f64    f64      f64   f64
 c64   c64        c64  f32      c64      c64  c64    c64        -   c64
c128  c128       c128  f64     c128     c128 c128   c128        -  c128
"""),
    **function_grid("""
     mean  std  var extrema argextrema linalg linalg_values norm matrix_rank  fft rfft irfft
   b  f32  f32  f32       b        i64    f32           f32  f32         i64  c64  c64   f32
  i8  f32  f32  f32      i8        i64    f32           f32  f32         i64  c64  c64   f32
 i16  f32  f32  f32     i16        i64    f32           f32  f32         i64  c64  c64   f32
 i32  f32  f32  f32     i32        i64    f32           f32  f32         i64  c64  c64   f32
 i64  f64  f64  f64     i64        i64    f64           f64  f64         i64 c128 c128   f64
  u8  f32  f32  f32      u8        i64    f32           f32  f32         i64  c64  c64   f32
 u16  f32  f32  f32     u16        i64    f32           f32  f32         i64  c64  c64   f32
 u32  f32  f32  f32     u32        i64    f32           f32  f32         i64  c64  c64   f32
 u64  f64  f64  f64     u64        i64    f64           f64  f64         i64 c128 c128   f64
 f16  f16  f16  f16     f16        i64    f16           f16  f16         i64  c64    -   f32
bf16 bf16 bf16 bf16    bf16        i64   bf16          bf16 bf16         i64  c64    -   f32
 f32  f32  f32  f32     f32        i64    f32           f32  f32         i64  c64  c64   f32
 f64  f64  f64  f64     f64        i64    f64           f64  f64         i64 c128 c128   f64
 c64  c64  f32  f32     c64          -    c64           f32  f32         i64  c64    -   f32
c128 c128  f64  f64    c128          -   c128           f64  f64         i64 c128    -   f64
"""),
}

POLICY = Policy(
    name="jax",
    summary="JAX (jax_enable_x64): a lattice with weak Python int, float and complex; int/int -> float32.",
    reference="JAX 0.10.2 (jax.numpy, jax_enable_x64=True)",
    arrays=ARRAYS,
    roles="weak-scalars",
    scalars=SCALARS,
    scalars_alone="defaults",
    nary="lattice",
    weak_joins=_WEAK_JOINS,
    op_families={"subtract": "subtraction", "atan2": "complex_float_only", "logaddexp": "complex_float_only"},
    families={
        "arithmetic": Family(),
        # lax.sub has no bool: bool - bool (an array or a Python bool) is refused.
        "subtraction": Family(result_kinds="iufc"),
        # lax.integer_pow: "Integers cannot be raised to negative powers" (a TypeError).
        "power": Family(result_map=_NUMERIC, int_right={"i": "non-negative", "u": "non-negative"}),
        # XLA's integer division by 0: x // 0 is -1 (x = 0), -2 or the unsigned maximum; x % 0 is 0.
        # A floating x % y that is 0 keeps lax.rem's sign, the dividend's (-2.0 % 1.0 is -0.0).
        "real_arithmetic": Family(
            kinds="biuf", result_map=_NUMERIC, zero_divisor="xla", zero_remainder="dividend"
        ),
        "extrema": Family(),
        "true_divide": Family(result_map=_INEXACT),
        "comparison": Family(result="bool"),
        "ordering": Family(result="bool"),
        "logical": Family(result="bool"),
        "bitwise": Family(kinds="biu"),
        "shift": Family(kinds="biu", result_map=_NUMERIC),
        # hypot ("not well defined for complex-valued inputs"), copysign and nextafter refuse complex.
        "float_only": Family(kinds="biuf", result_map=_INEXACT),
        # arctan2 and logaddexp take complex too.
        "complex_float_only": Family(result_map=_INEXACT),
        # jnp.result_type(bool, 2**64 - 1) is int64: it converts no value.
        "common": Family(int_values={}, int_range={}),
        "where": Family(),
        # "Clip received a complex value either through the input or the min/max value"
        "clip": Family(kinds="biuf"),
        "setitem": Family(cast="any"),
        "linalg": Family(),
    },
    accumulate={
        **{d: int64 for d in DTYPES if d.kind in "bi"},
        **{d: uint64 for d in DTYPES if d.kind == "u"},
    },
    accumulate_ops={"cumulative_prod": _KEEPING_PRODUCT},
    int_values="wrap",
    int_range=_INT64,
    inplace="same",
    functions=FUNCTIONS,
    # jnp.asarray([int32_0d, 1.5]) is float64, [int8_0d, 1] int8: Python scalars stay weak.
    nested="weak-scalars",
    defaults={"bool": bool_, "int": int64, "float": float64, "complex": complex128, "index": int64},
    deviations=(
        "x ** s with a concrete integer exponent (a Python int or bool, a 0-d integer or bool array "
        "outside jit): jnp.power lowers it to lax.integer_pow, keeping the base's dtype (bool as int32) "
        "and taking s as it is; the jax policy promotes and converts s, as JAX does for a traced exponent.",
        "Weakly typed results (an integer array with a Python float, uint64 with a signed integer) give "
        "way to the next strong operand in JAX; promo_ns's results are strong.",
        "jnp.searchsorted's dtype depends on the sorted array's length (int32 below 2**31 elements); "
        "the policy gives the index dtype, int64.",
        "jnp.linalg.vector_norm of bool and integers up to 32 bits is float64; the policy gives float32, "
        "as for matrix_norm.",
        "x.at[i].set(v), full, full_like and linspace convert any Python number into the dtype with "
        "XLA's convert (NaN is 0, an infinity or a float beyond the dtype saturates, an int wraps, a "
        "complex drops its imaginary part); the policy refuses a value the dtype cannot hold "
        "(OverflowError, ValueError for NaN), as nothing may be lost silently, but for an int in "
        "x.at[i].set(v), which wraps as in JAX (as ints do in its arithmetic).",
        "JAX parses a Python int beyond int64 before it looks at the op, so it raises OverflowError for "
        "ops it refuses anyway (bitwise ops of floating arrays, clip of complex); the policy refuses the "
        "op (PromotionError).",
        "Values: XLA computes x / s as x * (1 / s), flushes subnormal operands and results to zero, "
        "orders complex numbers lexicographically without propagating NaN (minimum, maximum, min, "
        "max), gives NaN for abs(inf + nan j) (C99's hypot: inf), has its own complex "
        "log1p/log10/power/reciprocal rounding and signed zeros, its own hypot/logaddexp, a saturating "
        "astype of NaN and out-of-range floats, and an integer power that reads 6 bits of the exponent "
        "(2 ** 64 is 1 in int8); promo_ns gives the backends' values on every backend (the jax backend "
        "computes a power from every bit of the exponent).",
    ),
)
