"""``paddle``: PaddlePaddle 3.3.1's promotion (``paddle/phi/common/type_promotion.h``), eager mode.

Tensor with tensor promotes only among floats and between complex and real
(int with float raises).  A Python scalar of the tensor's category (or a lower
one) keeps the tensor's dtype; otherwise it stands for int64, float32 or
complex64 and meets the tensor through Paddle's full promotion lattice.  A 0-d
tensor gives way to an n-d tensor of its own category; across categories its
own dtype counts (lattice), and two 0-d tensors always use the lattice.
uint16/32/64 are outside the lattice: with any other dtype they raise ("Invalid
enum data type for type promote"), a 0-d tensor of the same category too
(``isolated``).  ``int / int`` gives float32.  Bitwise ops do not promote tensor
with tensor.  Several ops have rules of their own (families below,
``docs/policies.md``): ``floor_divide`` lets a 0-d tensor meet an n-d one
through the lattice; the other float functions treat 0-d tensors as n-d ones;
``pow``/``copysign`` convert some Python scalars to the tensor's dtype;
``matmul``/``tensordot`` and ``stack`` are asymmetric; ``prod`` keeps the
dtype, ``cumsum`` widens ints, ``vecdot`` of int32 gives int64.

Measured on Paddle 3.3.1 (``python -m conformance.frameworks.paddle``).  Where
Paddle 2.6's documentation tables differ (0-d tensors are not covered there;
uint16/32/64 are absent there and promote with nothing here), 3.3.1 is followed.

Spellings.  Each binary op was measured in every spelling (``paddle.add(x, y)``,
``x + y``, ``y + x``, ``x += y``, ``x.add(y)``, ``x.add_(y)``) over every dtype
pair and role; the policy has one rule per op for the function and the operator,
and one for ``x op= y``, and follows:

* arithmetic (``+ - * / // % **``) and comparisons: the operator, Paddle's C++
  operator patch (``eager_math_op_patch.cc``), which takes Python scalars on
  either side and runs ``type_promotion``.  ``paddle.add`` and ``Tensor.add``
  agree with it on tensors but take no Python scalar; ``paddle.floor_divide(x,
  s)`` makes ``s`` a tensor of its own (``floor_divide(int8, 1)`` is int64) and
  ``paddle.remainder``/``paddle.pow`` convert it to x's dtype (``pow(int8,
  1.5)`` is int8): those functions' own scalar paths, not the policy's.
* ``x op= y``: ``x += y``, which Paddle runs as ``x = x + y`` (``Tensor`` has no
  ``__iadd__``).  promo_ns's in-place op never changes x's dtype: it computes
  where ``x + y`` keeps it and refuses elsewhere, where Paddle rebinds x to the
  promoted tensor.  ``Tensor.add_`` (and ``subtract_`` ... ``remainder_``)
  differ: a 0-d ``y`` counts as n-d (``int8.add_(<0-d int16>)`` refuses where
  ``+=`` gives int8), no Python scalar is taken, and x's dtype changes in place
  to the promoted one (``float32.add_(float64)`` makes x float64,
  ``int8.divide_(int8)`` float32); ``pow_`` takes only a scalar exponent.
* ``& | ^``: ``x & s`` and ``paddle.bitwise_and``, which take no Python scalar;
  the reflected ``s & x`` (``Tensor.__rand__``, ``python/paddle/tensor/logic.py``)
  converts ``s`` with ``paddle.to_tensor(s, dtype=x.dtype)`` and computes.  A
  policy has one rule for both sides of an op, so ``s & x`` is refused too (a
  documented deviation).  Shifts follow ``x << s`` and ``s << x``, which both
  convert an int to x's dtype (``python/paddle/tensor/math.py``);
  ``paddle.bitwise_left_shift`` takes no Python scalar.
* ``matmul``: ``paddle.matmul`` (``MATMUL``: the C++ kernel's own casts); ``x @
  y`` is the legacy operator patch that casts y to x's dtype whatever it is
  (``int32 @ float32`` is int32, ``float32 @ int8`` float32) and cannot align
  an integer with a complex.  ``tensordot`` is ``matmul`` in Paddle.
* the others: the function.  ``paddle.concat`` of two dtypes raises;
  ``paddle.stack`` also takes some real tensors after a complex one, converted
  to it (``STACK``); ``outer`` and ``cross`` promote as ``add`` does tensors;
  ``searchsorted`` takes int/float pairs (``SEARCHSORTED``).  Paddle has no
  ``result_type`` and no ``can_cast``: ``result_type`` answers what ``+`` gives.

NumPy scalars (measured by ``python -m conformance.frameworks.numpy_scalars
paddle``, stored in ``tests/reference/numpy-scalars.json``): Paddle's
operators take ``np.float64``, ``np.complex128`` (subclasses of Python's float
and complex) and ``np.int16``/``int32``/``int64`` as the Python numbers they
hold (``int32_tensor + np.float64(1.5)`` is float32), and so does ``clip``;
the policy takes every NumPy scalar so (``numpy_scalars="python"``).

Setitem casts any real value into the tensor, a 0-d tensor of any dtype too
(``x_int32[0] = 5``, ``x_f16[0] = 1.5``, ``x_int64[0] = True``, ``x_f32[0] =
<0-d int64>``); ``paddle.clip`` keeps x's dtype (``clip(int32, 0, 2)`` is
int32), but floating bounds make an integer x float32 (``CLIP``).  Python
ints (``tests/reference/edges-paddle.json``): comparisons, ``//``, ``%``, ``s /
x``, ``s ** x``, ``where`` and ``clip`` read one as a C ``long``: beyond int64
Paddle raises (SystemError from OverflowError), and so does the policy
(OverflowError; ``int_range``, ``int_range_left``).  Shifts and ``copysign``
make one a 0-d int64 or uint64 tensor and refuse any beyond ("dtype must be any
of ..."); ``+``, ``-``, ``*``, ``x / s``, ``x ** s`` and setitem convert it
through a double, which promo_ns does not reproduce (see the deviations).
Paddle cannot make a uint32/uint64 tensor from Python data, so shifts,
``copysign`` and ``where`` with a Python int and a uint32/uint64 tensor fail
there; they have no CPU kernel for uint16/32/64 tensors either, so the policy
decides those cells as for uint8 (the framework cannot run them; no refusal).

One-array functions (``FUNCTIONS``; columns are ``promo_ns._ops.FUNCTION_FAMILY``'s
families), measured on Paddle 3.3.1's CPU build.  Paddle converts int8..int64 and
uint8 to float32 for the float functions and ``reciprocal`` (``exp``/``log`` of
int8/int16/uint8 reach no kernel on the CPU: decided float32 like ``sin``),
keeps integers in ``mean`` and ``var`` (``var`` of int32 is int32) and gives
float32 for ``std``; ``mean(bool)`` is bool.  Refusals (the policy's business):
bool in every function but ``mean`` (``-``/``+`` raise, the others reach no
kernel for bool on any device); uint16/uint32/uint64 except ``positive``
(Paddle has no kernel for them); integers in ``linalg``, ``norm``,
``matrix_rank`` and ``irfft`` (Paddle dispatches them unconverted); float16 and
bfloat16 in ``linalg`` and the FFTs; complex in ``ceil``/``floor``/``trunc``,
``std``/``var``, ``max``/``min``/``argmax``, ``rfft``.  Decided though the CPU
build lacks the kernel (the backend's business): the float16/bfloat16 cells of
the elementwise functions and reductions (Paddle dispatches the float16
kernel), ``abs``/``square``/``round``/``trunc``/``max``/``mean``/``var`` of
int8/int16/uint8 (like int32), ``svdvals``/``cholesky`` of complex.
Deviations: ``linalg.matrix_norm`` of a complex matrix gives the complex dtype
in Paddle (``vector_norm`` gives the real one); the policy gives the real dtype
to both.  ``linalg.slogdet`` returns sign and log|det| stacked in one tensor in
Paddle; promo_ns returns the standard's pair.
"""

from __future__ import annotations

from dataclasses import replace

from promo_ns._dtypes import (
    CATEGORY,
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
)
from promo_ns.policies._model import Family, Policy, Role, function_grid, grid

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

# matmul: no promotion, but its kernel casts some operands: f32 @ int32/int64 (not the
# other way round) and complex with some reals.  Cells Paddle cannot run (no CPU kernel,
# or a cast it has not implemented) are refused, except same-dtype ones.
MATMUL = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b    -    -    -    -    -    -    -    -    -    -    -    -    -    -
   i8    -   i8    -    -    -    -    -    -    -    -    -    -    -    -    -
  i16    -    -  i16    -    -    -    -    -    -    -    -    -    -  c64 c128
  i32    -    -    -  i32    -    -    -    -    -    -    -    -    -    -    -
  i64    -    -    -    -  i64    -    -    -    -    -    -    -    -    -    -
   u8    -    -    -    -    -   u8    -    -    -    -    -    -    -  c64 c128
  u16    -    -    -    -    -    -  u16    -    -    -    -    -    -    -    -
  u32    -    -    -    -    -    -    -  u32    -    -    -    -    -    -    -
  u64    -    -    -    -    -    -    -    -  u64    -    -    -    -    -    -
  f16    -    -    -    -    -    -    -    -    -  f16    -    -    -  c64 c128
 bf16    -    -    -    -    -    -    -    -    -    - bf16    -    -  c64 c128
  f32    -    -    -  f32  f32    -    -    -    -    -    -  f32    -  c64 c128
  f64    -    -    -    -    -    -    -    -    -    -    -    -  f64    - c128
  c64    -    -  c64    -    -  c64    -    -    -  c64  c64  c64    -  c64    -
 c128    -    - c128    -    - c128    -    -    - c128 c128 c128 c128    - c128
""")

#: ``paddle.stack``: no promotion, but a complex first tensor takes the real ones of some dtypes
#: (converted to its own dtype, complex64 from float64 too); ``paddle.concat`` takes none.
_STACKED_AFTER_COMPLEX = (int16, uint8, float16, bfloat16, float32, float64)
STACK = {
    **{(d, d): d for d in DTYPES},
    **{(c, d): c for c in (complex64, complex128) for d in _STACKED_AFTER_COMPLEX},
}

#: ``paddle.searchsorted(sorted_sequence, values)``: a sequence of int32/int64/float32/float64
#: takes values of those dtypes and of float16/bfloat16 (not int8/int16/uint8/bool, not complex;
#: a float16/bfloat16 sequence has no CPU kernel, and is taken the other way round).  The cell
#: is the dtype promo_ns compares them in: int64 for two integers, float64 for an integer and a
#: float, else the floats' promotion.
_SORTED = (int32, int64, float32, float64)
SEARCHSORTED = {
    **{(d, d): d for d in DTYPES},
    **{
        pair: int64 if a.kind == b.kind == "i" else float64 if "i" in (a.kind, b.kind) else ARRAYS[a, b]
        for a in _SORTED
        for b in (*_SORTED, float16, bfloat16)
        for pair in ((a, b), (b, a))
    },
}

_SCALAR_TAKES_DTYPE = {
    (d, r): d
    for d in DTYPES
    for r in (Role.BOOL, Role.INT, Role.FLOAT, Role.COMPLEX)
    if CATEGORY[r.kind] <= d.category
}

#: ``paddle.clip(x, min, max)``: row x's dtype, column a bound's (a Python scalar as its
#: ``scalar_dtypes``): x's dtype, but float32 for an integer x with a floating bound.
CLIP = {(x, b): float32 if x.kind in "iu" and b.kind == "f" else x for x in DTYPES for b in DTYPES}

_INTS_TO_F32 = {d: float32 for d in DTYPES if d.kind in "iu"}
#: Shifts and ``copysign`` make a Python int a 0-d int64 or uint64 tensor ("dtype must be any
#: of ..." beyond); ``+``, ``-``, ``*``, ``x / s``, ``x ** s`` and setitem convert it through a
#: double, whatever its size.
_INT64_OR_UINT64 = dict.fromkeys("biufc", (-(2**63), 2**64 - 1))
#: Comparisons, ``//``, ``%``, ``s / x``, ``s ** x``, ``where`` and ``clip`` read a Python int
#: as a C ``long`` (PyLong_AsLong): beyond int64 the call raises (SystemError from OverflowError).
_INT64 = dict.fromkeys("biufc", (-(2**63), 2**63 - 1))
# True division maps the lattice's integers to float32; uint16/32/64 (outside the
# lattice) keep their dtype, as Paddle's kernel key shows.
_DIVIDE = {d: float32 for d in DTYPES if d.kind in "iu" and (d, bool_) in LATTICE}
_UINT16_UP = [d for d in DTYPES if d.kind == "u" and (d, bool_) not in LATTICE]

FUNCTIONS = {
    **function_grid("""
     float reciprocal  abs negative positive sign square rounding round
   b     -          -    -        -        -    -      -        -     -
  i8   f32        f32   i8       i8       i8   i8     i8       i8    i8
 i16   f32        f32  i16      i16      i16  i16    i16      i16   i16
 i32   f32        f32  i32      i32      i32  i32    i32      i32   i32
 i64   f32        f32  i64      i64      i64  i64    i64      i64   i64
  u8   f32        f32   u8       u8       u8   u8     u8       u8    u8
 u16     -          -    -        -      u16    -      -        -     -
 u32     -          -    -        -      u32    -      -        -     -
 u64     -          -    -        -      u64    -      -        -     -
 f16   f16        f16  f16      f16      f16  f16    f16      f16   f16
bf16  bf16       bf16 bf16     bf16     bf16 bf16   bf16     bf16  bf16
 f32   f32        f32  f32      f32      f32  f32    f32      f32   f32
 f64   f64        f64  f64      f64      f64  f64    f64      f64   f64
 c64   c64        c64  f32      c64      c64  c64    c64        -   c64
c128  c128       c128  f64     c128     c128 c128   c128        -  c128
"""),
    **function_grid("""
     mean  std  var extrema argextrema linalg linalg_values norm matrix_rank  fft rfft irfft
   b    b    -    -       -          -      -             -    -           -    -    -     -
  i8   i8  f32   i8      i8        i64      -             -    -           -  c64  c64     -
 i16  i16  f32  i16     i16        i64      -             -    -           -  c64  c64     -
 i32  i32  f32  i32     i32        i64      -             -    -           -  c64  c64     -
 i64  i64  f32  i64     i64        i64      -             -    -           -  c64  c64     -
  u8   u8  f32   u8      u8        i64      -             -    -           -  c64  c64     -
 u16    -    -    -       -          -      -             -    -           -    -    -     -
 u32    -    -    -       -          -      -             -    -           -    -    -     -
 u64    -    -    -       -          -      -             -    -           -    -    -     -
 f16  f16  f16  f16     f16        i64      -             -    -           -    -    -     -
bf16 bf16 bf16 bf16    bf16        i64      -             -    -           -    -    -     -
 f32  f32  f32  f32     f32        i64    f32           f32  f32         i64  c64  c64   f32
 f64  f64  f64  f64     f64        i64    f64           f64  f64         i64 c128 c128   f64
 c64  c64    -    -       -          -    c64           f32  f32         i64  c64    -   f32
c128 c128    -    -       -          -   c128           f64  f64         i64 c128    -   f64
"""),
}

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
        # ``x ** 1.5`` with a uint16/32/64 tensor (no promotion for them) runs the
        # scalar-exponent kernel, which keeps the tensor's dtype.
        "power": Family(scalars={(d, Role.FLOAT): d for d in _UINT16_UP}, int_range_left=_INT64),
        "real_arithmetic": Family(int_range=_INT64),
        # A 0-d tensor meets an n-d one through the lattice, even of the same category.
        "floor_divide": Family(zero_d_cross_when="always", int_range=_INT64),
        "extrema": Family(strong=True),
        "true_divide": Family(result_map=_DIVIDE, int_range_left=_INT64),
        "comparison": Family(result="bool", int_range=_INT64),
        "ordering": Family(result="bool", int_range=_INT64),
        "logical": Family(result="bool", strong=True),
        # ``x & 1`` and ``paddle.bitwise_and(x, 1)`` take no Python scalar (``1 & x`` does:
        # the module docstring).
        "bitwise": Family(kinds="biu", same_dtype=True, scalar_kinds=""),
        "shift": Family(kinds="biu", same_dtype=True, int_range=_INT64_OR_UINT64),
        "float_only": Family(result_map=_INTS_TO_F32),
        "atan2": Family(result_map={d: float64 for d in DTYPES if d.kind in "iu"}, strong=True),
        # ``copysign(x, scalar)`` converts the scalar to x's dtype.
        "copysign": Family(
            scalars={(d, r): d for d in DTYPES for r in (Role.BOOL, Role.INT, Role.FLOAT)},
            int_range=_INT64_OR_UINT64,
        ),
        "nextafter": Family(strong=True),
        "logaddexp": Family(result_map=_INTS_TO_F32, strong=True),
        # ``paddle.concat`` of two dtypes raises ("The data_type of input tensor in list is not
        # the same"); ``result_type`` is not a Paddle function: it answers what ``+`` would give.
        "common": Family(same_dtype=True),
        "stack": Family(arrays=STACK, strong=True),
        # ``paddle.outer`` and ``paddle.cross`` promote as ``paddle.add`` does arrays.
        "products": Family(strong=True),
        # ``paddle.linalg.vecdot`` promotes as ``paddle.multiply``, then sums: int32 gives int64.
        "vecdot": Family(strong=True, result_map={bool_: int64, int32: int64}),
        # paddle.searchsorted takes no Python scalar: one of the sequence's category or a lower
        # one converts to its dtype (as in ``<``), a higher one promotes as an array.
        "searchsorted": Family(arrays=SEARCHSORTED, strong=True, scalars=_SCALAR_TAKES_DTYPE),
        "where": Family(strong=True, int_range=_INT64),
        # ``paddle.clip`` keeps x's dtype, but float bounds make an integer x float32.
        "clip": Family(arrays=CLIP, strong=True, int_range=_INT64),
        # ``x[key] = v`` casts any real value, a 0-d tensor of any dtype too, into x.
        "setitem": Family(cast="any"),
        "linalg": Family(same_dtype=True),
        "matmul": Family(arrays=MATMUL),
    },
    op_families={
        "floor_divide": "floor_divide",
        "atan2": "atan2",
        "copysign": "copysign",
        "nextafter": "nextafter",
        "logaddexp": "logaddexp",
        "matmul": "matmul",
        "tensordot": "matmul",
        "result_type": "arithmetic",
        "stack": "stack",
        "outer": "products",
        "cross": "products",
        "vecdot": "vecdot",
        "searchsorted": "searchsorted",
    },
    accumulate={bool_: int64, int32: int64},
    accumulate_ops={
        "prod": {},
        "cumulative_prod": {},
        # int8/int16/int32/uint8 -> int64 (``paddle.cumsum``); bool has no cumsum kernel
        # in Paddle and accumulates in int64 here, as in ``sum``.
        "cumulative_sum": {d: int64 for d in (bool_, int8, int16, int32, uint8)},
    },
    isolated=frozenset(_UINT16_UP),
    int_values="wrap",
    inplace="same",
    functions=FUNCTIONS,
    numpy_scalars="python",
    nested="strong-scalars",
    nested_rules="numpy",
    defaults={"bool": bool_, "int": int64, "float": float32, "complex": complex64, "index": int64},
    deviations=(
        "full and full_like with a fill value the dtype cannot hold (NaN, an infinity or a float beyond "
        "an integer dtype; a complex with an imaginary part for a real dtype): "
        "paddle.full casts it unsafely (an undefined value; the "
        "imaginary part dropped); promo_ns refuses it (OverflowError, ValueError for NaN), as nothing "
        "may be lost silently.",
        "x[i] = v with a Python float beyond an integer tensor's dtype: Paddle 3.3.1 converts it with "
        "C's float-to-int cast, undefined there (on x86 256.0 into uint8 writes 0, -1.0 writes 255, "
        "3e9, inf and NaN into int32 write -2**31): promo_ns refuses it (OverflowError; ValueError for "
        "NaN), as nothing may be written silently wrong; a float within the dtype truncates, as in Paddle.",
        "asarray of nested data: Paddle 3.3.1's to_tensor converts through NumPy, so nested 0-d "
        "tensors and Python scalars promote by NumPy's rules (nested_rules='numpy'); NumPy scalars "
        "inside a list are an exception in Paddle (np.float64 with 1.5 gives float32, np.float32 with "
        "1.5 float32), which promo_ns does not reproduce: they promote as NumPy's 0-d arrays.",
        "x / c, x % c and x ** c with a 0-d tensor x and a Python complex c give a shape-[1] "
        "complex64 tensor in Paddle 3.3.1 (it rebuilds x, dropping complex128 precision); "
        "the policy keeps its promotion: complex128 for a float64 or complex128 x.",
        "Values, not dtypes: Paddle computes atan2 of two integer tensors, and logaddexp of a "
        "float32 tensor with a 0-d float64 one, in float32 and returns float64; promo_ns computes "
        "the float64 result in float64.",
        "linalg.matrix_norm of a complex matrix gives the complex dtype in Paddle 3.3.1 (its "
        "vector_norm the real one); the policy gives the real dtype to both.",
        "linalg.slogdet returns sign and log|det| stacked in one tensor in Paddle; promo_ns "
        "returns the standard's pair (the sign of the input's dtype, log|det| real).",
        "Values: Paddle converts a Python int in arithmetic and setitem through a double (beyond 2**53 "
        "it rounds, beyond the dtype it becomes the dtype's minimum) and computes integer pow through "
        "one; the paddle policy wraps the int as a cast does, and pow is the backend's.",
        "x op= y follows x += y, which Paddle runs as x = x + y, rebinding x to a tensor of the "
        "promoted dtype; promo_ns's in-place op never changes x's dtype, so it refuses where x + y "
        "has another dtype. Tensor.add_ and the other in-place methods count a 0-d y as n-d, take no "
        "Python scalar and change x's dtype in place: the policy does not follow them.",
        "s & x, s | x and s ^ x with a Python int or bool s: Paddle's Tensor.__rand__ converts s to x's "
        "dtype and computes, while x & s and paddle.bitwise_and take no Python scalar; a policy has "
        "one rule for both sides of an op, and the paddle policy follows x & s: it refuses both.",
        "x @ y casts y to x's dtype (int32 @ float32 is int32); the policy follows paddle.matmul, "
        "which refuses it (MATMUL).",
        "copysign of an integer or bool tensor keeps its dtype in Paddle; NumPy and torch have no "
        "integer copysign, so promo_ns refuses it there. Paddle refuses clip with min > max; the policy "
        "computes it. -b of a bool tensor gives bool in Paddle, paddle.negative refuses it; the policy "
        "refuses both.",
    ),
)


# --- Values: Paddle's answers where the frameworks' kernels differ (every backend gives them) ---
# Measured on Paddle 3.3.1's CPU: int32/int64 tensors ``// 0`` and ``% 0`` raise
# InvalidArgumentError("Integer division by zero"), int8/uint8 ``// 0`` too (their ``%`` has no CPU
# kernel); int32/int64 ``tensor([0, 1, -1, 2, -2, 3]) ** full([6], -1)`` is ``[0, 1, -1, 0, 0, 0]``
# and ``** full([6], -2)`` is ``[0, 1, 1, 0, 0, 0]``.  A negative Python int exponent never returns
# there (PowKernel loops); promo_ns computes it as the tensor exponent, a deviation.
# float32 ``paddle.remainder`` and ``%`` give a 0 the dividend's sign, as torch's (``1.0 % -1.0`` is
# ``0.0``, ``-0.0 % 1.0`` is ``-0.0``).
POLICY = replace(
    POLICY,
    families={
        **POLICY.families,
        "real_arithmetic": replace(
            POLICY.families["real_arithmetic"], zero_divisor="raise", zero_remainder="dividend"
        ),
        "floor_divide": replace(POLICY.families["floor_divide"], zero_divisor="raise"),
        "power": replace(POLICY.families["power"], negative_powers="compute"),
    },
    deviations=(
        *POLICY.deviations,
        "NumPy scalars: paddle.where takes one as the 0-d tensor it is (to_tensor keeps its dtype: "
        "where(c, float32, np.float64(1.5)) is float64), where the operators take the Python number "
        "it holds; the policy takes it one way, as the operators do.",
        "NumPy scalars: Paddle's operators and clip cast np.float16, np.float32 and np.complex64 into the "
        "tensor's dtype (int32 + np.float32(1.5) is int32 [2, 3, 4]; a complex's imaginary part is dropped) "
        "and keep a bool tensor bool with NumPy ints (bool + np.int64(2) is True); their argument parsing "
        "refuses np.bool_, np.int8 and np.uint8 (TypeError: operand 'Tensor' does not support ufuncs). "
        "promo_ns loses nothing and refuses none: it takes them as the Python numbers they hold.",
        "an integer tensor to a negative Python int power never returns in Paddle 3.3.1 (its CPU "
        "PowKernel loops); promo_ns computes it as Paddle computes a negative exponent tensor "
        "(1 ** -n is 1, (-1) ** -n is -1 or 1, any other base 0).",
        # Measured by the generated probe (conformance/probe/_deviations.py holds each as a rule).
        "paddle.isin with a 0-d x or test_elements returns a 0-d tensor (one answer); promo_ns gives "
        "x's shape, as the standard says.",
        "A 0-d tensor met by a Python scalar in //, % and ** (and by a Python complex in any op) comes "
        "back as a shape-[1] tensor in Paddle; promo_ns keeps the 0-d shape.",
        "Values: paddle.equal/not_equal (and ==, !=) compare floats within an absolute 1e-8 "
        "(phi/kernels/funcs/compare_functors.h: 1e-30 == 0.0 is True); promo_ns compares exactly.",
        "paddle.floor_divide(x, s) makes s a tensor of its own (int8 // 1 is int64); paddle.remainder, "
        "paddle.pow and paddle.equal convert s to x's dtype (equal(bool, 2) compares with True): the "
        "policy follows the operators.",
        "Values: x * s with a Python float is Paddle's scale kernel, which adds a +0.0 bias (x * -0.0 "
        "is +0.0); promo_ns multiplies.",
        "paddle.meshgrid and paddle.broadcast_tensors refuse tensors of two dtypes ('The data_type of "
        "input tensor in list isn't consistent'); they promote nothing, and promo_ns returns each array "
        "in its own dtype, as the standard says.",
        "Creation: Paddle converts dtype= through NumPy (paddle.uint16 becomes bfloat16, uint32/uint64 "
        "raise 'Not supported numpy dtype'); paddle.full without dtype= gives float32 for a Python int "
        "and complex128 for a complex (to_tensor: int64, complex64; the policy's defaults follow "
        "to_tensor); to_tensor and full cast a Python scalar to dtype= as NumPy's astype does (complex "
        "drops its imaginary part, -1 into uint8 is 255) and full/full_like refuse one outside the "
        "dtype ('is_out_range'); promo_ns refuses a complex into a real dtype and raises OverflowError "
        "for a value beyond the dtype.",
        "Values: paddle.clip with one bound fills the other with float32's limit converted to x's "
        "dtype (clip(int32 2**31 - 1, 0) is 2147483519); promo_ns clips by the bound given only.",
        "paddle.finfo/iinfo raise ValueError for a dtype of the other kind (promo_ns: TypeError); an int "
        "beyond int64 in x << s raises OverflowError before x's dtype is looked at (the policy refuses "
        "a bool or float x first).",
    ),
)
