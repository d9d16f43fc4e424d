"""``tf-safe``: TensorFlow's SAFE dtype-conversion mode (RFC 431), as TF 2.21 implements it.

``tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")``
(``tensorflow/python/framework/flexible_dtypes.py``).  Two tensors promote only
when the result is one of them and the other converts to it without loss
(u8 + i8 and i32 + f32 are refused; i8 + f16 is allowed).  0-d tensors are
tensors.  Python int, float and complex are weak int32, float32 and complex128;
a Python bool is bool.  True division: 8/16-bit integers to float32, 32/64-bit
to float64 (bool operands promote first; ``bool / bool`` is refused).
``logaddexp`` is ``tf.experimental.numpy``'s composite, with a rule of its own.
Comparisons other than ``==`` (``!=`` too), logical, bitwise, ``where``,
``atan2``, ``cross`` and ``solve`` do not promote: their operands must share a dtype, and a
Python scalar converts to the tensor's dtype.  ``concat``/``stack`` are
``tnp.concatenate``/``tnp.stack``, which promote by safe mode's table
(``np_utils.result_type`` is ``flexible_dtypes.result_type`` when auto dtype
conversion is on), folding from the left as ``result_type`` does: ``(uint8,
int16, int32)`` is int32, ``(uint8, int8, int16)`` is refused; ``tf.concat`` and
``tf.stack`` themselves refuse two dtypes ("expected to be a int8 tensor").

Spellings.  Each binary op was measured in every spelling (the TF op
``tf.add``/``tf.math.*``/``tf.bitwise.*``, its ``tf.experimental.numpy``
function, the operator, ``x op= y`` and ``Variable.assign_add``) over every
dtype pair and role.  The policy follows the TF ops and operators, which run safe
mode; they agree but for ``bool * x`` (below) and ``&``/``|``/``^`` of two bool
tensors, which the operators run as ``tf.logical_*`` (the policy follows them;
``tf.bitwise.*`` has no bool).  ``x != y`` is ``tf.not_equal``, which does not
promote two dtypes, where ``x == y`` (``tf.equal``) does.  The
``tf.experimental.numpy`` binary functions promote by NumPy's rules instead
(``np_math_ops._bin_op`` casts both operands to ``np_utils._result_type_binary``,
NumPy's ``result_type``, whatever the conversion mode: ``tnp.add(int8, uint8)`` is
int16, ``tnp.add(int8, 1.5)`` float64, ``tnp.logical_and`` takes any dtype,
``tnp.where``/``tnp.outer`` promote), so the policy
follows them only for ``hypot`` and ``logaddexp`` (TF has no op) and the
one-array functions.  ``x += y`` rebinds a tensor to ``x + y`` and
``Variable.assign_add`` keeps the variable's dtype; both agree with the in-place
rule.  ``result_type`` is ``tf.experimental.numpy.result_type``, which gives what
``+`` gives (flexible_dtypes' table; it refuses what ``+`` refuses).  Reductions
follow ``tf.reduce_sum``/``tf.reduce_prod``/``tf.math.cumsum`` (no widening);
``tnp.sum`` of int8/int16/bool accumulates in int32, of uint8/uint16 in uint32.
TF has no ``can_cast``.

Python ints as data (``int_range``, measured by ``conformance/frameworks/edges.py``,
stored in ``tests/reference/edges-tf-safe.json``): TF converts a Python int to
a weak int32, so beyond int32's range it refuses it ("too large to convert to
np.int32"), but ``<``/``<=``/``>``/``>=``, ``!=``, ``where``, bitwise ops and
shifts take any int of the tensor's 64-bit integer type ("out-of-range integer"
beyond) or convert it to a floating tensor's float.  ``!=`` is a family of its
own for that reason, and because it does not promote.  Setitem assigns into the variable's dtype without
promotion (``same_dtype``), as ``tf.Variable.assign`` does.

Deviation, following RFC 431 rather than TF 2.21: a Python int outside the
result dtype's range raises ``PromotionError``; TF 2.21 wraps it silently
(``int8 + 1000``).

One-array functions (``FUNCTIONS``; columns are ``promo_ns._ops.FUNCTION_FAMILY``'s
families): ``tf.experimental.numpy``'s functions where it has them, else
``tf.linalg``/``tf.signal`` (TF's NumPy API has no linalg and no fft).  The float
functions, ``ceil``/``floor``/``trunc`` (``tnp.fix``), ``mean`` and ``std``/``var``
give float32 for bool, integers and bfloat16; ``reciprocal``, ``round``,
``square`` keep integers; ``abs``/``negative``/``sign`` refuse bool and
unsigned integers (TF's ops lack them), ``square`` refuses bool; ``linalg``
refuses integers and bfloat16 and takes float16; ``matrix_rank`` is int32 and
refuses complex; the norms of complex keep the complex dtype; ``fft`` takes
only complex, ``rfft`` only float32/float64, ``irfft`` only complex (TF has no
``hfft``/``ihfft``).  All refusals are TF's op definitions (the policy's
business).  Decided though the CPU lacks the kernel (traced, the backend's
business): ``reciprocal`` of integers, ``round`` of complex, ``linalg`` of
float16.  Deviations: ``tnp.log2``/``tnp.log10`` divide by a NumPy float64
constant, which promotes to float64 (float32 input included) in safe mode;
tf-safe gives ``log``'s dtype.  ``tf.linalg.pinv`` refuses complex while
``inv``/``det``/``qr`` take it: tf-safe takes it.  TF returns ``eigvalsh``
(and ``eigh``'s eigenvalues, ``slogdet``'s log|det|) of a complex matrix in
the complex dtype; tf-safe gives the real dtype, as ``svdvals`` does in TF.

NumPy scalars take part as the 0-d tensors they are (strong: ``int8 + np.int16(2)`` is
int16), as ``s + t``, ``tf.add`` and ``tnp.clip`` take them in every numpy-behaviour mode
(measured by ``python -m conformance.frameworks.numpy_scalars``, stored in
``tests/reference/numpy-scalars.json``).
"""

from __future__ import annotations

from dataclasses import replace

from promo_ns._dtypes import DTYPES, bfloat16, bool_, complex128, float32, float64, int32, int64
from promo_ns.policies._model import Family, Policy, Role, function_grid, grid, scalar_grid

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  i16  i32  i64    -    -    -    -  f16 bf16  f32  f64  c64 c128
  i16  i16  i16  i16  i32  i64  i16    -    -    -    -    -  f32  f64  c64 c128
  i32  i32  i32  i32  i32  i64  i32  i32    -    -    -    -    -  f64    - c128
  i64  i64  i64  i64  i64  i64  i64  i64  i64    -    -    -    -    -    -    -
   u8   u8    -  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
  u16  u16    -    -  i32  i64  u16  u16  u32  u64    -    -  f32  f64  c64 c128
  u32  u32    -    -    -  i64  u32  u32  u32  u64    -    -    -  f64    - c128
  u64  u64    -    -    -    -  u64  u64  u64  u64    -    -    -    -    -    -
  f16  f16  f16    -    -    -  f16    -    -    -  f16    -  f32  f64  c64 c128
 bf16 bf16 bf16    -    -    - bf16    -    -    -    - bf16  f32  f64  c64 c128
  f32  f32  f32  f32    -    -  f32  f32    -    -  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64    -  f64  f64  f64    -  f64  f64  f64  f64    - c128
  c64  c64  c64  c64    -    -  c64  c64    -    -  c64  c64  c64    -  c64 c128
 c128 c128 c128 c128 c128    - c128 c128 c128    - c128 c128 c128 c128 c128 c128
""")

SCALARS = scalar_grid("""
         bool     int   float complex
    b       b     i32     f32    c128
   i8      i8      i8       -    c128
  i16     i16     i16       -    c128
  i32     i32     i32       -    c128
  i64     i64     i64       -       -
   u8      u8      u8       -    c128
  u16     u16     u16       -    c128
  u32     u32     u32       -    c128
  u64     u64     u64       -       -
  f16     f16     f16     f16       -
 bf16    bf16    bf16    bf16       -
  f32     f32     f32     f32       -
  f64     f64     f64     f64    c128
  c64     c64     c64     c64     c64
 c128    c128    c128    c128    c128
""")

#: TF converts a Python int to a weak int32 (``np.int32``: "too large to convert"); ``<``,
#: ``!=``, ``where``, bitwise ops and shifts convert it to the tensor's integer dtype's 64-bit
#: type ("out-of-range integer"), or to a float for a floating tensor, as the float-only ops do.
_INT32 = dict.fromkeys("biufc", (-(2**31), 2**31 - 1))
INT64_RANGE = {"b": (-(2**63), 2**63 - 1), "i": (-(2**63), 2**63 - 1), "u": (-(2**63), 2**64 - 1)}

TRUE_DIVIDE = {d: (float32 if d.bits <= 16 else float64) for d in DTYPES if d.kind in "iu"}

FUNCTIONS = {
    **function_grid("""
     float reciprocal  abs negative positive sign square rounding round
   b   f32          -    -        -        b    -      -      f32     b
  i8   f32         i8   i8       i8       i8   i8     i8      f32    i8
 i16   f32        i16  i16      i16      i16  i16    i16      f32   i16
 i32   f32        i32  i32      i32      i32  i32    i32      f32   i32
 i64   f32        i64  i64      i64      i64  i64    i64      f32   i64
  u8   f32          -    -        -       u8    -     u8      f32    u8
 u16   f32          -    -        -      u16    -    u16      f32   u16
 u32   f32          -    -        -      u32    -    u32      f32   u32
 u64   f32          -    -        -      u64    -    u64      f32   u64
 f16   f16        f16  f16      f16      f16  f16    f16      f16   f16
bf16   f32       bf16 bf16     bf16     bf16 bf16   bf16      f32  bf16
 f32   f32        f32  f32      f32      f32  f32    f32      f32   f32
 f64   f64        f64  f64      f64      f64  f64    f64      f64   f64
 c64   c64        c64  f32      c64      c64  c64    c64        -   c64
c128  c128       c128  f64     c128     c128 c128   c128        -  c128
"""),
    **function_grid("""
     mean  std  var extrema argextrema linalg linalg_values norm matrix_rank  fft rfft irfft
   b  f32  f32  f32       b        i64      -             -    -           -    -    -     -
  i8  f32  f32  f32      i8        i64      -             -    -           -    -    -     -
 i16  f32  f32  f32     i16        i64      -             -    -           -    -    -     -
 i32  f32  f32  f32     i32        i64      -             -    -           -    -    -     -
 i64  f32  f32  f32     i64        i64      -             -    -           -    -    -     -
  u8  f32  f32  f32      u8        i64      -             -    -           -    -    -     -
 u16  f32  f32  f32     u16        i64      -             -    -           -    -    -     -
 u32  f32  f32  f32     u32        i64      -             -    -           -    -    -     -
 u64  f32  f32  f32     u64        i64      -             -    -           -    -    -     -
 f16  f16  f16  f16     f16        i64    f16           f16  f16         i32    -    -     -
bf16 bf16 bf16 bf16    bf16        i64      -             - bf16           -    -    -     -
 f32  f32  f32  f32     f32        i64    f32           f32  f32         i32    -  c64     -
 f64  f64  f64  f64     f64        i64    f64           f64  f64         i32    - c128     -
 c64  c64  f32  f32       -          -    c64           f32  c64           -  c64    -   f32
c128 c128  f64  f64       -          -   c128           f64 c128           - c128    -   f64
"""),
}

#: Deviations from TF 2.21 in every mode: its functions, setitem and kernels (``tf-legacy`` shares them).
TF_OP_DEVIATIONS: tuple[str, ...] = (
    "tf.Variable.assign takes a Python bool for some dtypes and refuses it for others (int8, "
    "uint8, bfloat16, complex64); the policy takes it wherever its category allows.",
    "tf.experimental.numpy.log2/log10 divide by a NumPy float64 constant and give float64 "
    "(float32 input included); the policy gives log's dtype.",
    "tf.linalg.pinv refuses complex matrices that inv, det and qr take; the policy takes them.",
    "TF returns eigvalsh (and eigh's eigenvalues, slogdet's log|det|) of a complex matrix in "
    "the complex dtype; the policy gives the real dtype, as TF's svdvals does.",
    "tnp.asarray/full convert Python data to dtype= as NumPy's astype does (a complex drops its "
    "imaginary part, 65504.0 into int8 wraps), tnp.arange takes dtype=bool and tnp.linspace "
    "ignores it; a Python int with a uint64 tensor goes through NumPy (OverflowError for a "
    "negative one); the policy refuses these.",
    "Values, not dtypes: TF's CPU kernels flush subnormals to zero; TF divides complex numbers "
    "with Eigen's formula (1 ulp off, x / 0 is nan); tf.clip_by_value with min > max gives min "
    "(NumPy: max); astype of NaN/inf/out-of-range floats to integers differs (undefined in C). "
    "promo_ns gives the backend's values.",
)

#: Deviations from TF 2.21 in safe and all mode (``tf-all`` shares them).
TF_DEVIATIONS: tuple[str, ...] = (
    "x * y with a bool tensor on either side gives bool in TF (Tensor.__mul__, "
    "tensor_math_operator_overrides._mul_dispatch_factory, casts both to int32, multiplies and "
    "casts back to bool); the policy promotes as tf.multiply does.",
    "tf.experimental.numpy's binary functions (tnp.add, tnp.less, tnp.logical_and, tnp.outer, "
    "tnp.where, ...) promote by NumPy's rules, not the mode's table (np_math_ops._bin_op casts both "
    "operands to np_utils._result_type_binary, NumPy's result_type: tnp.add(int8, uint8) is "
    "int16, tnp.add(int8, 1.5) float64; tnp.logical_and takes any dtype), and tnp.sum "
    "of int8/int16/bool accumulates in int32 (uint8/uint16 in uint32); the policy follows the TF "
    "ops and operators, which run the mode's table (hypot and logaddexp, which TF has no op for, are "
    "tnp's).",
    "tf.experimental.numpy.clip is tnp.maximum/tnp.minimum with one bound and promotes with "
    "np_array_ops._promote_dtype with two: NumPy's rules (int8 with 1.5 is float64, a bool "
    "tensor with a Python int int64); the policy promotes clip by the mode's table.",
    "tnp.full, tnp.full_like and tnp.asarray convert a Python int to a weak int32 first and "
    "refuse one beyond int32's range whatever dtype= says; the policy converts it to the dtype.",
    "Values, not dtypes: tf.experimental.numpy.hypot squares integer and float16/bfloat16 operands "
    "in their own dtype (int8: 100 * 100 wraps to 16); promo_ns computes hypot in the result's "
    "float dtype. A bfloat16 tensor refuses a Python int beyond int64 in TF (ml_dtypes); the policy "
    "converts it.",
    "Values, not dtypes: tf.experimental.numpy.logaddexp (TF has no logaddexp op) of a Python "
    "float and a bool or bfloat16 tensor returns float64 computed in float32; promo_ns computes "
    "the float64 result in float64.",
    # Measured by the generated probe (conformance/probe/_deviations.py holds each as a rule).
    "tnp.sum/prod/cumsum/cumprod/trace accumulate int8/int16/bool in int32 (uint8/uint16 in "
    "uint32) and have no bool kernel for dtype=bool; the policy keeps the dtype as tf.reduce_sum "
    "does and computes dtype=bool. TF's index-returning functions give int32 (tf.unique's out_idx, "
    "tf.searchsorted's out_type, tnp.argsort); promo_ns gives the backend's int64.",
    "tnp.isinf/isnan/isfinite of a bool or integer tensor return a Python bool; tnp.meshgrid "
    "converts every array to one dtype; tnp.result_type of Python scalars alone gives their weak "
    "dtype and folds from the left with each scalar where it stands (int32, 1.5, float64 is "
    "refused); the policy returns arrays, meshgrid's in their own dtypes, refuses result_type without "
    "an array or dtype and promotes the Python scalars last.",
    *TF_OP_DEVIATIONS,
)

POLICY = Policy(
    name="tf-safe",
    summary="TensorFlow SAFE mode (RFC 431): no widening past both inputs, no precision loss.",
    reference="TensorFlow 2.21, dtype_conversion_mode='safe'",
    arrays=ARRAYS,
    roles="weak-scalars",
    scalars=SCALARS,
    families={
        "arithmetic": Family(),
        "power": Family(),
        "real_arithmetic": Family(),
        "extrema": Family(kinds="biuf"),
        "true_divide": Family(result_map=TRUE_DIVIDE, result_kinds="fc"),
        "comparison": Family(result="bool"),
        "ordering": Family(kinds="iuf", result="bool", same_dtype=True, int_range=INT64_RANGE),
        "logical": Family(kinds="b", result="bool", same_dtype=True),
        # ``x != y`` (``tf.not_equal``) does not promote, where ``x == y`` does.
        "not_equal": Family(result="bool", same_dtype=True, int_range=INT64_RANGE),
        # ``x & y`` of two bool tensors is ``tf.logical_and`` (``tf.bitwise.bitwise_and`` has no bool).
        "bitwise": Family(kinds="biu", same_dtype=True, int_range=INT64_RANGE),
        "shift": Family(kinds="iu", same_dtype=True, int_range=INT64_RANGE),
        "float_only": Family(kinds="f", same_dtype=True, int_range={}),
        "hypot": Family(kinds="iufc", result_map={**dict.fromkeys(TRUE_DIVIDE, float32), bfloat16: float32}),
        # tnp.logaddexp composes maximum (NumPy promotion), subtract and add (safe
        # mode) and log1p/exp (ints and bfloat16 to float32): safe promotion, then
        # small ints and bfloat16 to float32; bool and bfloat16 with a Python float
        # give float64; no other integer result.
        "logaddexp": Family(
            kinds="biuf",
            result_map={**{d: float32 for d in TRUE_DIVIDE if d.bits <= 16}, bfloat16: float32},
            result_kinds="f",
            scalars={(bool_, Role.FLOAT): float64, (bfloat16, Role.FLOAT): float64},
        ),
        # ``tnp.concatenate``/``tnp.stack`` promote by safe mode's table, as ``result_type``
        # (``tf.experimental.numpy.result_type``, what ``+`` gives) does.
        "common": Family(),
        # ``tf.linalg.cross`` and ``tf.linalg.solve`` do not promote ("expected to be a int8 tensor").
        "no_promotion": Family(same_dtype=True),
        "where": Family(same_dtype=True, int_range=INT64_RANGE),
        "clip": Family(kinds="biuf"),
        "setitem": Family(same_dtype=True),
        "linalg": Family(),
    },
    op_families={
        "hypot": "hypot",
        "logaddexp": "logaddexp",
        "not_equal": "not_equal",
        "result_type": "arithmetic",
        "cross": "no_promotion",
        "solve": "no_promotion",
    },
    accumulate_kinds="iufc",
    # ~x and tnp.bitwise_not take bool and integers ("Value for attr 'T' of float is not in the list
    # of allowed values"); tf.bitwise.invert refuses bool too, and tf-safe follows the operator.
    input_kinds={"bitwise_invert": "biu"},
    int_values="refuse",
    int_range=_INT32,
    inplace="same",
    functions=FUNCTIONS,
    nested="weak-scalars",
    defaults={"bool": bool_, "int": int32, "float": float32, "complex": complex128, "index": int64},
    deviations=(
        "A Python int outside the result dtype's range raises PromotionError, as RFC 431 says; "
        "TF 2.21 wraps it silently (int8 + 1000 -> int8); beyond int32's range both refuse it.",
        *TF_DEVIATIONS,
    ),
)


# --- Values: TensorFlow's answers where the frameworks' kernels differ (every backend gives them) ---
# Measured on TF 2.21's CPU (tf.math.floordiv/floormod, the operators, tnp.floor_divide/remainder):
# int8/int32/int64/uint8 ``// 0`` and ``% 0`` raise InvalidArgumentError("Integer division by zero").
# An integer to a negative integer power (tensor or Python int) raises InvalidArgumentError
# ("Integers to negative integer powers are not allowed"): ``negative_powers`` keeps "raise".
# float32 ``tf.math.floormod`` and ``%`` give a 0 the dividend's sign, as torch's (``1.0 % -1.0`` is
# ``0.0``, ``-0.0 % 1.0`` is ``-0.0``).
POLICY = replace(
    POLICY,
    families={
        **POLICY.families,
        "real_arithmetic": replace(
            POLICY.families["real_arithmetic"], zero_divisor="raise", zero_remainder="dividend"
        ),
    },
)
