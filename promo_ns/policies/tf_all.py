"""``tf-all``: TensorFlow's ALL dtype-conversion mode (RFC 431), as TF 2.21 implements it.

``tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode="all")``
(``tensorflow/python/framework/flexible_dtypes.py``: its table allows every cell,
where safe mode refuses those marked ``PromoMode.ALL``).  Two tensors promote to
the narrowest dtype that holds both, capped at 64-bit integers and floats and
128-bit complex: u8 + i8 is int16, i32 + f32 float32, u64 + i64 float64, i64 +
f16 float16.  0-d tensors are tensors.  A Python int is a weak int32, a float a
weak float32 that gives float64 with a bool or integer tensor, a complex a weak
complex128 that gives complex64 with float16/bfloat16/float32; a Python bool is
bool.  Everything else is ``tf-safe``'s, measured again in this mode (the ops that
do not promote, true division, the one-array functions, ``concat``/``stack``
folding by this table, ``result_type``): see :mod:`promo_ns.policies.tf_safe`,
whose spellings this policy follows (TF's ops and operators agree in ALL mode).

When TF raises: a refusal of the mode's table, of an op that promotes nothing
(``!=``, ``<``, the bitwise ops, ``where``) or of an op whose definition lacks the
dtype is the policy's business, and the policy refuses it too; where only the CPU
kernel is missing (TF still decides the dtype in a traced graph: ``bool + bool``
has no AddV2 kernel) it is the backend's, and the policy gives TF's dtype.

Python ints as data, as in ``tf-safe``: TF converts a Python int to a weak int32
and refuses one beyond int32's range (the comparisons, ``where``, bitwise ops and
shifts take the tensor's 64-bit type's).  Deviation, following RFC 431 (whose ALL
mode refuses ``tf.constant([1], tf.int8) + 1000``) rather than TF 2.21, as ``tf-safe``
does: an int outside the result dtype's range raises ``PromotionError``; TF 2.21
wraps it silently (``int8 + 128`` is -127), or, for a negative int and a uint64
tensor, raises SystemError (a Python error left set by its converter).

Where RFC 431's text and TF 2.21's table differ, the table (what TF does) is the
policy's: the RFC says ``uint64 + float32`` would be float64 and ``(uint8 + int8) +
float16`` float32; TF 2.21 gives float32 and float16 (int16 with float16 is float16).

Deviations from TF: the results TF marks weak (``i8 + u64`` is a weak float64, as
an integer tensor with a Python float is) promote again as weak types in TF
(``(i8 + u64) + f32`` is float32); promo_ns has no weak arrays, and ``tf-all``'s
are plain float64 arrays (``concat``/``result_type`` of ``i8, u64, f32`` is float64).
"""

from __future__ import annotations

from dataclasses import replace

from promo_ns._dtypes import DTYPES, bfloat16, bool_, float32, float64
from promo_ns.policies import tf_safe
from promo_ns.policies._model import Family, Role, grid, scalar_grid

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

SCALARS = scalar_grid("""
          bool     int   float complex
    b        b     i32     f32    c128
   i8       i8      i8     f64    c128
  i16      i16     i16     f64    c128
  i32      i32     i32     f64    c128
  i64      i64     i64     f64    c128
   u8       u8      u8     f64    c128
  u16      u16     u16     f64    c128
  u32      u32     u32     f64    c128
  u64      u64     u64     f64    c128
  f16      f16     f16     f16     c64
 bf16     bf16    bf16    bf16     c64
  f32      f32     f32     f32     c64
  f64      f64     f64     f64    c128
  c64      c64     c64     c64     c64
 c128     c128    c128    c128    c128
""")

#: ``tnp.logaddexp`` (TF has no op) is ``maximum(x1, x2) + log1p(exp(-abs(x1 - x2)))``: the maximum
#: promotes by NumPy's rules (``tnp.maximum``), the difference by this mode's table, and ``exp`` of an
#: integer is float32, so its result is neither table's (int32 with float16 is float64, int8 with
#: int16 float32; int16 with bfloat16 is refused, as NumPy does not promote them).  Cells the CPU
#: cannot run (maximum has no bool or unsigned kernel) hold the table's dtype.
_LOGADDEXP = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b  f32  f32  f32  f32   u8  u16  u32  u64  f16  f32  f32  f64  c64 c128
   i8  f32   i8  f32  f32  f32  f32  f32  f32  f64  f16  f32  f32  f64  c64 c128
  i16  f32  f32  i16  f32  f32  f32  f32  f32  f64  f32    -  f32  f64  c64 c128
  i32  f32  f32  f32  i32  f32  f32  f32  f32  f64  f64    -  f64  f64  c64 c128
  i64  f32  f32  f32  f32  i64  f32  f32  f32  f64  f64    -  f64  f64  c64 c128
   u8   u8  f32  f32  f32  f32   u8  u16  u32  u64  f16  f32  f32  f64  c64 c128
  u16  u16  f32  f32  f32  f32  u16  u16  u32  u64  f32    -  f32  f64  c64 c128
  u32  u32  f32  f32  f32  f32  u32  u32  u32  u64  f64    -  f64  f64  c64 c128
  u64  u64  f64  f64  f64  f64  u64  u64  u64  u64  f64    -  f64  f64  c64 c128
  f16  f16  f16  f32  f64  f64  f16  f32  f64  f64  f16    -  f32  f64  c64 c128
 bf16  f32  f32    -    -    -  f32    -    -    -    - bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f64  f64  f32  f32  f64  f64  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
""")

POLICY = replace(
    tf_safe.POLICY,
    name="tf-all",
    summary="TensorFlow ALL mode (RFC 431): tensors promote to the narrowest dtype that holds both.",
    reference="TensorFlow 2.21, dtype_conversion_mode='all'",
    arrays=ARRAYS,
    scalars=SCALARS,
    families={
        **tf_safe.POLICY.families,
        # A bool tensor with a Python int or float, and bfloat16 with a Python float, give float64.
        "logaddexp": Family(
            kinds="biuf",
            arrays=_LOGADDEXP,
            result_map={**dict.fromkeys((d for d in DTYPES if d.kind in "iu"), float32), bfloat16: float32},
            result_kinds="f",
            scalars={
                (bool_, Role.INT): float64,
                (bool_, Role.FLOAT): float64,
                (bfloat16, Role.FLOAT): float64,
            },
        ),
    },
    deviations=(
        "A Python int outside the result dtype's range raises PromotionError, as RFC 431 says for ALL "
        "mode too; TF 2.21 wraps it silently (int8 + 128 -> int8), and raises SystemError for a negative "
        "int with a uint64 tensor; beyond int32's range both refuse it.",
        "Results TF marks weak (int8 + uint64 and an integer tensor with a Python float are weak "
        "float64) promote again as weak types in TF ((int8 + uint64) + float32 is float32); promo_ns has "
        "no weak arrays: tf-all's are float64 arrays, and concat/result_type fold through them as such.",
        *tf_safe.TF_DEVIATIONS,
    ),
)
