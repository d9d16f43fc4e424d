"""``tf-legacy``: TensorFlow 2.21's "legacy" dtype-conversion mode, under NumPy behaviour.

``tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")``
keeps TF-NumPy's old semantics: the Tensor operators (``override_binary_operator.
maybe_promote_tensors``) and ``tf.experimental.numpy``'s functions promote by NumPy's
rules (``np_dtypes._result_type``, NumPy 2's ``result_type`` with ml_dtypes' bfloat16:
NEP 50's weak Python scalars, 0-d tensors strong, ``int8 + uint8`` int16, ``int32 +
float32`` float64, ``int16 + bfloat16`` refused), while TF's own ops (``tf.add``,
``tf.maximum`` ...) promote nothing at all, as with NumPy behaviour off.  ``flexible_dtypes``
(RFC 431's table) is not used: no weak tensors, and ``tf.experimental.numpy``'s defaults
are NumPy's (int64, float64).

Spellings.  The policy follows the operators and, where an op has none, ``tf.experimental.
numpy`` (``maximum``, ``minimum``, ``logical_and``, ``arctan2``, ``nextafter``, ``hypot``,
``logaddexp``, ``where``, ``clip``, ``concatenate``/``stack``, ``sum``/``prod``/``cumsum``,
the one-array functions): that is what the mode changes.  ``tf.add`` and the other TF ops
refuse two dtypes in this mode (RFC 431's NONE: no promotion between tensors, as with
NumPy behaviour off); the checkers record them as the other spelling.  In-place
ops follow ``x += y``, which rebinds a tensor to ``x + y`` (``Variable.assign_add``
promotes nothing); the policy refuses where ``x + y`` has another dtype than ``x``.
Shifts are ``tf.bitwise.left_shift``/``right_shift`` (no operator, no tnp function): one
dtype.  ``cross`` and ``solve`` are ``tf.linalg``'s and setitem is ``Variable.assign``:
no promotion, as in ``tf-safe``.  ``concat``/``stack``/``result_type`` are NumPy's n-ary
``result_type`` (``int8, uint8, float16`` is float16).

The ops of ``tf.experimental.numpy`` that compose others have tables of their own
(measured, below): ``tnp.hypot`` squares and adds (complex operands give complex, a
Python scalar is a strong int64/float64 array), ``tnp.logaddexp`` mixes the maximum's
promotion with ``exp``'s float64.  ``tnp.nextafter`` and ``tnp.arctan2`` promote by the
table, then need a float result (TF's ``NextAfter`` has no float16/bfloat16 either):
where TF's op lacks the promoted dtype the policy refuses, as TF's op definitions are
the framework's decision (the policy's business), not a missing kernel; a dtype TF
decides without a CPU kernel (traced) is the backend's business, and the policy gives
it (``isnan``/``isfinite`` of complex and ``conj``/``real`` of bool are refused by TF's
op definitions).  True division: the promoted integer dtype's 8/16-bit to float32,
32/64-bit to float64; ``bool / bool`` is refused, as the operator does
(``tnp.true_divide`` gives float64).  Reductions accumulate as NumPy (``tnp.sum`` of
int8 is int64, of uint8 uint64; ``tnp.cumsum`` of uint8 is int64, of uint64 float64;
``tnp.trace`` keeps the dtype, a documented deviation).  One-array functions give
float64 for bool, integer and bfloat16 input where ``tf-safe``'s give float32 (tnp's
default float is NumPy's).

Python ints as data, as in ``tf-safe``: an int outside the result dtype's range raises
``PromotionError`` (RFC 431 has Python scalars follow SAFE mode in NONE mode); TF 2.21
converts it to the promoted dtype, wrapping (``int8 + 128`` is -127), and refuses one
beyond int64 ("out-of-range integer").
"""

from __future__ import annotations

from dataclasses import replace

from promo_ns._dtypes import (
    DTYPES,
    bfloat16,
    bool_,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int64,
    uint64,
)
from promo_ns.policies import numpy as numpy_policy
from promo_ns.policies import tf_safe
from promo_ns.policies._model import Family, Role, grid, scalar_grid

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  i16  i32  i64  i16  i32  i64  f64  f16 bf16  f32  f64  c64 c128
  i16  i16  i16  i16  i32  i64  i16  i32  i64  f64  f32    -  f32  f64  c64 c128
  i32  i32  i32  i32  i32  i64  i32  i32  i64  f64  f64    -  f64  f64 c128 c128
  i64  i64  i64  i64  i64  i64  i64  i64  i64  f64  f64    -  f64  f64 c128 c128
   u8   u8  i16  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
  u16  u16  i32  i32  i32  i64  u16  u16  u32  u64  f32    -  f32  f64  c64 c128
  u32  u32  i64  i64  i64  i64  u32  u32  u32  u64  f64    -  f64  f64 c128 c128
  u64  u64  f64  f64  f64  f64  u64  u64  u64  u64  f64    -  f64  f64 c128 c128
  f16  f16  f16  f32  f64  f64  f16  f32  f64  f64  f16    -  f32  f64  c64 c128
 bf16 bf16 bf16    -    -    - bf16    -    -    -    - bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f64  f64  f32  f32  f64  f64  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64 c128 c128  c64  c64 c128 c128  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
""")

SCALARS = scalar_grid("""
          bool     int   float complex
    b        b     i64     f64    c128
   i8       i8      i8     f64    c128
  i16      i16     i16     f64    c128
  i32      i32     i32     f64    c128
  i64      i64     i64     f64    c128
   u8       u8      u8     f64    c128
  u16      u16     u16     f64    c128
  u32      u32     u32     f64    c128
  u64      u64     u64     f64    c128
  f16      f16     f16     f16     c64
 bf16     bf16    bf16     f64     c64
  f32      f32     f32     f32     c64
  f64      f64     f64     f64    c128
  c64      c64     c64     c64     c64
 c128     c128    c128    c128    c128
""")

#: ``tnp.hypot``: ``sqrt(square(x1) + square(x2))`` (measured; the CPU cannot square bool).
_HYPOT = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  f64  f64  f64  f64  f64  f64  f64  f16  f64  f32  f64  c64 c128
  i16  i16  f64  i16  f64  f64  f64  f64  f64  f64  f32    -  f32  f64  c64 c128
  i32  i32  f64  f64  i32  f64  f64  f64  f64  f64  f64    -  f64  f64 c128 c128
  i64  i64  f64  f64  f64  i64  f64  f64  f64  f64  f64    -  f64  f64 c128 c128
   u8   u8  f64  f64  f64  f64   u8  f64  f64  f64  f16  f64  f32  f64  c64 c128
  u16  u16  f64  f64  f64  f64  f64  u16  f64  f64  f32    -  f32  f64  c64 c128
  u32  u32  f64  f64  f64  f64  f64  f64  u32  f64  f64    -  f64  f64 c128 c128
  u64  u64  f64  f64  f64  f64  f64  f64  f64  u64  f64    -  f64  f64 c128 c128
  f16  f16  f16  f32  f64  f64  f16  f32  f64  f64  f16    -  f32  f64  c64 c128
 bf16 bf16  f64    -    -    -  f64    -    -    -    - bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f64  f64  f32  f32  f64  f64  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64 c128 c128  c64  c64 c128 c128  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
""")

#: ``tnp.logaddexp``: ``maximum(x1, x2) + log1p(exp(-abs(x1 - x2)))`` (measured).
_LOGADDEXP = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b  f64  f64  f64  f64   u8  u16  u32  u64  f16  f64  f32  f64  c64 c128
   i8  f64   i8  f64  f64  f64  f64  f64  f64  f64  f16  f64  f32  f64  c64 c128
  i16  f64  f64  i16  f64  f64  f64  f64  f64  f64  f32    -  f32  f64  c64 c128
  i32  f64  f64  f64  i32  f64  f64  f64  f64  f64  f64    -  f64  f64 c128 c128
  i64  f64  f64  f64  f64  i64  f64  f64  f64  f64  f64    -  f64  f64 c128 c128
   u8   u8  f64  f64  f64  f64   u8  u16  u32  u64  f16  f64  f32  f64  c64 c128
  u16  u16  f64  f64  f64  f64  u16  u16  u32  u64  f32    -  f32  f64  c64 c128
  u32  u32  f64  f64  f64  f64  u32  u32  u32  u64  f64    -  f64  f64 c128 c128
  u64  u64  f64  f64  f64  f64  u64  u64  u64  u64  f64    -  f64  f64 c128 c128
  f16  f16  f16  f32  f64  f64  f16  f32  f64  f64  f16    -  f32  f64  c64 c128
 bf16  f64  f64    -    -    -  f64    -    -    -    - bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f64  f64  f32  f32  f64  f64  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64 c128 c128  c64  c64 c128 c128  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
""")

_INTEGERS = [d for d in DTYPES if d.kind in "biu"]
#: tnp's float for integer input: NumPy's float64.
_TO_FLOAT64 = {**dict.fromkeys(_INTEGERS, float64), bfloat16: float64}

FUNCTIONS = {
    cell: (float64 if dtype is float32 and (cell[1].kind in "biu" or cell[1] is bfloat16) else dtype)
    for cell, dtype in tf_safe.FUNCTIONS.items()
}

POLICY = replace(
    tf_safe.POLICY,
    name="tf-legacy",
    summary="TensorFlow legacy mode: the operators and tf.experimental.numpy promote by NumPy's rules.",
    reference="TensorFlow 2.21, dtype_conversion_mode='legacy'",
    arrays=ARRAYS,
    scalars=SCALARS,
    nary="main-dtype",
    nary_order=numpy_policy.POLICY.nary_order,
    families={
        **tf_safe.POLICY.families,
        "ordering": Family(kinds="biuf", result="bool", int_range=tf_safe.INT64_RANGE),
        "not_equal": Family(result="bool", int_range=tf_safe.INT64_RANGE),
        # tnp.logical_and casts each operand to bool: any two dtypes.
        "logical": Family(result="bool", arrays={(a, b): bool_ for a in DTYPES for b in DTYPES}),
        "bitwise": Family(kinds="biu", int_range=tf_safe.INT64_RANGE),
        "float_only": Family(kinds="biuf", result_kinds="f"),
        "nextafter": Family(
            kinds="biuf", arrays={pair: d for pair, d in ARRAYS.items() if d in (float32, float64)}
        ),
        # tnp.hypot makes a Python scalar a strong int64/float64/complex128 array: float64 with
        # float16 and float32, complex128 with complex64 or a Python complex.
        "hypot": Family(
            kinds="iufc",
            arrays=_HYPOT,
            result_map=_TO_FLOAT64,
            scalars={
                **{(d, role): float64 for d in (float16, float32) for role in (Role.INT, Role.FLOAT)},
                **{(d, Role.COMPLEX): complex128 for d in (float16, bfloat16, float32)},
                **{(complex64, role): complex128 for role in (Role.INT, Role.FLOAT, Role.COMPLEX)},
            },
        ),
        "logaddexp": Family(kinds="biuf", arrays=_LOGADDEXP, result_map=_TO_FLOAT64, result_kinds="f"),
        "where": Family(int_range=tf_safe.INT64_RANGE),
        # tnp.result_type converts no value.
        "common": Family(int_range={}),
    },
    op_families={**tf_safe.POLICY.op_families, "nextafter": "nextafter", "result_type": "common"},
    accumulate_kinds="biufc",
    accumulate={
        **dict.fromkeys((d for d in _INTEGERS if d.kind in "bi"), int64),
        **dict.fromkeys((d for d in _INTEGERS if d.kind == "u"), uint64),
    },
    accumulate_ops={
        op: {**dict.fromkeys((d for d in _INTEGERS if d is not uint64), int64), uint64: float64}
        for op in ("cumulative_sum", "cumulative_prod")
    },
    functions=FUNCTIONS,
    # TF's IsNan and IsFinite ops have no complex, Conj and Real no bool: their definitions refuse.
    delegated={
        **{(name, d): None for name in ("isnan", "isfinite") for d in (complex64, complex128)},
        **{(name, bool_): None for name in ("conj", "real")},
    },
    # A Python int converts through int64 (uint64 from 2**63): "out-of-range integer" beyond; for a
    # complex tensor through int64 only (a float tensor takes any int).
    int_range={**tf_safe.INT64_RANGE, "c": (-(2**63), 2**63 - 1)},
    defaults={**tf_safe.POLICY.defaults, "int": int64, "float": float64},
    deviations=(
        "A Python int outside the result dtype's range raises PromotionError, as RFC 431 has Python "
        "scalars do in NONE mode (SAFE's rule); TF 2.21 converts it to the promoted dtype, wrapping "
        "(int8 + 128 -> int8, bool + 2**63 -> int64), and its tf.experimental.numpy functions leave a "
        "Python error set (SystemError) for an int of 2**64 or more with a floating tensor, where "
        "tf-legacy converts it to the float as the operators do; tnp.logical_and and tnp.hypot refuse "
        "one below -2**63 (an int64 array), which tf-legacy converts.",
        "TF's eager converter refuses a Python True for several dtypes (int8, uint8, bfloat16, "
        "complex64 ...) that NumPy's rules allow; tf-legacy follows the rules.",
        "tf.experimental.numpy.hypot makes a Python int an int64 array, which ml_dtypes does not "
        "promote with bfloat16 (refused); tf-legacy gives float64, as for bfloat16 with int8. Values, "
        "not dtypes: tnp.hypot squares integer (a Python int's int64 too) and float16/bfloat16 operands "
        "in their own dtype; promo_ns computes hypot in the result's float dtype.",
        "tnp.trace keeps an integer dtype (no widening) and refuses bool, and TF's Sum, Cumsum and "
        "Cumprod ops have no bool kernel for dtype=bool; tf-legacy's trace accumulates as tnp.sum "
        "does (int8 in int64), and promo_ns computes dtype=bool. tnp.true_divide of two bool tensors "
        "is float64 where the operator refuses them; tf-legacy follows the operator.",
        "tnp.logical_and/or/xor convert a Python float to the other operand's dtype first (1e300 "
        "into int32 is refused, 5e-324 is false); tf-legacy takes the float's truth.",
        *tf_safe.TF_OP_DEVIATIONS,
    ),
)
