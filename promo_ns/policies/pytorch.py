"""``pytorch``: PyTorch 2.13's promotion (``c10/core/ScalarType.cpp``, ``ATen/native/TypeProperties.cpp``).

Operands fall into three priority classes: n-d tensors, 0-d tensors, Python
numbers.  A lower class counts only when its category (bool < int < float <
complex) is higher than the classes above it; Python numbers stand for
``int64``, the default float ``float32`` and the default complex ``complex64``.
``int / int`` gives the default float.  uint16/32/64 promote only with floats.

Low-precision floats with Python floats (``FLOAT_SCALARS``, measured bit for
bit by ``conformance/frameworks/edges.py``, stored in
``tests/reference/edges-pytorch.json`` under ``float_scalars``: float16,
bfloat16 and float32 arrays of specials and 10,000 normals with 0.1, 1/3,
70000.0, 1e-8 and 3e38): ``x * s``, ``s * x`` and ``x / s`` compute a
float16/bfloat16 ``x`` in float32 with ``s`` unrounded to the tensor's dtype
and round once (the CPU kernels of ``mul``/``div`` read a scalar operand at
its original precision; ``Tensor.__rmul__`` is ``mul(self, other)``), so
``70000.0 * float16 -> -52384.0`` where rounding ``s`` first gives ``-inf``.
``x // s`` too (``div_floor``'s CPU kernel).  The same kernels read a second
operand that is a 0-d tensor of another dtype (a lower class) the same way
(``iter.is_scalar(2)``, ``original_scalar_value<opmath_t>``): ``float16 *
0-d int32 100000`` is finite where casting the 0-d tensor first gives inf.
``x + s``, ``s + x``, ``x - s``, ``s - x`` and ``s // x`` round ``s`` to the
tensor's dtype first, as NumPy does.  ``s / x`` is ``Tensor.__rtruediv__``:
``x.reciprocal() * s``, for every real dtype and Python scalar (an integer
``x``'s reciprocal is float32; measured on 10,000 ints of each integer dtype,
``s / x`` is bit for bit ``reciprocal(x) * s`` and differs from ``s / x`` in
float32 in 21-37% of the elements).  The functions with the scalar first (``torch.multiply(s, x)``,
``torch.divide(s, x)``, measured against the operators on 2,000 float16/bfloat16 values
with 0.1, 1/3, 7.1, 70000.0 and ints) round ``s`` first and compute in ``x``'s dtype;
``xp.multiply(s, x)`` and ``xp.divide(s, x)`` do too.  bfloat16 NaNs come out of torch's
vectorized CPU loops as ``0xffff`` (its scalar loops, and ml_dtypes, write
``0x7fc0``): their bits are the CPU's, not the policy's.

Python ints as data (``int_values``, measured by ``conformance/frameworks/edges.py``,
stored in ``tests/reference/edges-pytorch.json``): a Python int becomes a
``c10::Scalar``, an int64 or, from ``2**63``, a uint64, so torch takes ints in
``-2**63 .. 2**64-1`` (``OverflowError``: "can't convert negative int to
unsigned", "int too big to convert").  Arithmetic, division, comparisons,
bitwise ops, shifts, ``copysign`` and the base of ``s ** x`` then wrap the
int into the tensor's dtype (``int8 + 1000`` is ``int8 + -24``), except where
the int decides the dtype: with a bool tensor it is the int64 result, and a
uint64 refuses to promote with bool ("Promotion for uint16, uint32, uint64
types is not supported").  ``clamp``, ``where`` and the exponent of ``x ** s``
check the int against the dtype (``c10::checked_convert``: "value cannot be
converted to type int8_t without overflow"), an unsigned dtype taking
``-max .. max`` as two's complement; ``clamp`` and the exponent check float16
too, ``where`` does not.  An integer tensor to a negative int power is refused
("Integers to negative integer powers are not allowed").  Setitem unpacks
the int as a C ``long long`` (``-2**63 .. 2**63-1``, "Overflow when unpacking
long long") and checks it as ``where`` does.  All of these are the policy's
refusals.  Python floats are checked where they convert (``float_fits``):
``where`` and setitem into float32 and complex64, ``clamp`` into every real
float, the exponent of ``x ** s`` into float16 and bfloat16 ("value cannot be
converted to type float without overflow"; infinities pass).  Integer ``//``
and ``%`` by zero raise ``RuntimeError: ZeroDivisionError`` (a tensor divisor
too): the policy's rule (``zero_divisor="raise"``), which every backend
follows (torch's CUDA kernels give no error; the CPU is the reference).

NumPy scalars (``np.int64(2)``, ``np.float64(1.5)``; not 0-d NumPy arrays,
which are 0-d tensors) are Python numbers to torch's argument parser, so they are
weak: ``int32_tensor + np.float64(1.5)`` is float32, ``int8_tensor + np.int16(300)``
is int8, in operators, ``where``, ``clamp`` and ``result_type`` alike
(``numpy_scalars="python"``).

Setitem casts any value into the tensor (a Python scalar, a 0-d tensor of
any dtype), a Python complex into a real dtype only with a zero imaginary
part ("value cannot be converted to type double without overflow"); ``clamp``
of a floating tensor keeps its dtype whatever the Python bounds, a complex
bound with a zero imaginary part too, and promotes otherwise ("clamp is not
supported for complex types").

Functions of two arrays: ``outer`` promotes as ``*`` does (it is
``self.reshape(-1, 1) * vec2``), ``vecdot`` takes one float or complex dtype
("linalg.vecdot: Expected a floating point or complex tensor as input"),
``isin`` refuses bool and complex operands, Python scalars too ("Unsupported
input type encountered for isin()"), ``matmul``/``tensordot``/``cross`` take
one dtype, and so does ``meshgrid``, which promotes nothing ("torch.meshgrid:
expects all tensors to have the same dtype").  ``can_cast`` is
``torch.can_cast``: by category, bool < integer < float < complex
(``c10::canCast``).  ``result_type`` and ``where`` of Python scalars alone
give their default dtypes (``torch.result_type(1, 2.5)`` is
float32).  ``all``/``any`` of uint8 give uint8, ``conj`` of bool is bool,
``imag`` refuses real dtypes ("imag is not implemented for tensors with
non-complex dtypes"): ``DELEGATED``.  ``sign`` follows ``torch.sgn``, which
takes complex (``torch.sign`` refuses it: "Unlike NumPy, torch.sign is not
intended to support complex numbers. Please use torch.sgn instead").

Where torch raises: a dtype or value check of torch's (the messages quoted
here) is the policy's refusal, and every backend raises it.  A missing CPU
kernel (``NotImplementedError: "..." not implemented for 'Bool'`` or
``'UInt16'``, "Sort does not support complex dtypes on CPU") is not: torch
decides the dtype (its ``meta`` device gives it), and the backend computes it
another way or raises promo_ns's TypeError naming the missing kernel.

Deviation: a float16 meeting a lower-class complex gives ``complex32`` in
PyTorch (experimental ComplexHalf); promo_ns has no complex32 and gives
``complex64``.

One-array functions (``FUNCTIONS``; columns are ``promo_ns._ops.FUNCTION_FAMILY``'s
families): the float functions and ``reciprocal`` give float32 (the default
float) for bool and integers; ``mean``, ``std``/``var``, ``linalg`` refuse them
(``mean(): could not infer output dtype``); ``fft``/``rfft``/``irfft`` give
complex64/float32.  ``negative``/``positive`` refuse bool, ``square(bool)`` is
int64, ``abs``/``std``/``var``/``linalg_values``/``norm`` of complex are real,
``ceil``/``floor``/``trunc``, ``argmax`` refuse complex, ``argmax``
refuses bool, ``linalg`` (but not the norms) refuses float16/bfloat16, ``fft``
refuses bfloat16.  Those refusals are torch's (the policy's business).
Decided though the CPU lacks the kernel (the backend computes them another
way): every cell of uint16/uint32/uint64 except the refusals above (torch's
``meta`` device gives the dtype), ``abs``/``ceil``/``floor``/``round``/``trunc``
of bool (bool), ``round``/``max``/``min`` of complex (complex), ``irfft`` of
float16 (float16, a CUDA-only kernel).  Deviation: ``fft``/``rfft`` of float16
give complex32 in PyTorch (CUDA only); promo_ns has no complex32 and gives
complex64.
"""

from __future__ import annotations

from dataclasses import replace

from promo_ns._dtypes import DTYPES, bfloat16, bool_, complex64, float16, float32, int64
from promo_ns.policies._model import (
    SCALAR_ROLES,
    Family,
    FloatScalarRule,
    IntRule,
    Policy,
    Role,
    delegated_grid,
    function_grid,
    grid,
)

ARRAYS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    b   i8  i16  i32  i64   u8    -    -    -  f16 bf16  f32  f64  c64 c128
   i8   i8   i8  i16  i32  i64  i16    -    -    -  f16 bf16  f32  f64  c64 c128
  i16  i16  i16  i16  i32  i64  i16    -    -    -  f16 bf16  f32  f64  c64 c128
  i32  i32  i32  i32  i32  i64  i32    -    -    -  f16 bf16  f32  f64  c64 c128
  i64  i64  i64  i64  i64  i64  i64    -    -    -  f16 bf16  f32  f64  c64 c128
   u8   u8  i16  i16  i32  i64   u8    -    -    -  f16 bf16  f32  f64  c64 c128
  u16    -    -    -    -    -    -  u16    -    -  f16 bf16  f32  f64    -    -
  u32    -    -    -    -    -    -    -  u32    -  f16 bf16  f32  f64    -    -
  u64    -    -    -    -    -    -    -    -  u64  f16 bf16  f32  f64    -    -
  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f32  f32  f64  c64 c128
 bf16 bf16 bf16 bf16 bf16 bf16 bf16 bf16 bf16 bf16  f32 bf16  f32  f64  c64 c128
  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64  c64 c128
  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64 c128 c128
  c64  c64  c64  c64  c64  c64  c64    -    -    -  c64  c64  c64 c128  c64 c128
 c128 c128 c128 c128 c128 c128 c128    -    -    - c128 c128 c128 c128 c128 c128
""")

# combine_categories(): when a lower class counts, bool and integers meet it through
# promoteTypes, except that a complex is taken as it is; a float meeting a complex
# gives the complex of the float's precision.  Row: higher class; column: lower class.
CROSS = grid("""
         b   i8  i16  i32  i64   u8  u16  u32  u64  f16 bf16  f32  f64  c64 c128
    b    .   i8  i16  i32  i64   u8    -    -    -  f16 bf16  f32  f64  c64 c128
   i8    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  i16    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  i32    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  i64    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
   u8    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  u16    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  u32    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  u64    .    .    .    .    .    .    .    .    .  f16 bf16  f32  f64  c64 c128
  f16    .    .    .    .    .    .    .    .    .    .    .    .    .  c64  c64
 bf16    .    .    .    .    .    .    .    .    .    .    .    .    .  c64  c64
  f32    .    .    .    .    .    .    .    .    .    .    .    .    .  c64  c64
  f64    .    .    .    .    .    .    .    .    .    .    .    .    . c128 c128
  c64    .    .    .    .    .    .    .    .    .    .    .    .    .    .    .
 c128    .    .    .    .    .    .    .    .    .    .    .    .    .    .    .
""")

_TO_DEFAULT_FLOAT = {d: float32 for d in DTYPES if d.kind in "biu"}

#: The Python ints torch converts: an int64, or a uint64 from ``2**63`` (``c10::Scalar``).
_SCALAR_INTS = dict.fromkeys("biufc", (-(2**63), 2**64 - 1))
#: Setitem unpacks a Python int as a C ``long long``.
_LONG_LONG = dict.fromkeys("biufc", (-(2**63), 2**63 - 1))
#: Wrapped into the tensor's dtype, but with a bool tensor the int is the int64 result.
_WRAPPED: dict[str, IntRule] = {"b": "fit"}
#: ``c10::checked_convert``: the int must fit the dtype, unsigned ones taking -max..max.
_CHECKED: dict[str, IntRule] = {"b": "fit", "i": "magnitude", "u": "magnitude"}

#: Where torch checks a Python float against the dtype it converts to (``c10::checked_convert``):
#: ``where`` and setitem into float32 and complex64 (not float16/bfloat16), ``clamp`` into every real
#: float, the exponent of ``x ** s`` into float16/bfloat16 only.
_SINGLE = frozenset((float32, complex64))
_REAL_FLOATS = frozenset(d for d in DTYPES if d.kind == "f")
_REDUCED = frozenset((float16, bfloat16))

#: Python floats with float arrays: see the module's docstring for what was measured.
FLOAT_SCALARS: dict[str, FloatScalarRule] = {
    "x * s": "float32_opmath",
    "s * x": "float32_opmath",
    "x / s": "float32_opmath",
    "s / x": "reciprocal_then_multiply",
    "x // s": "float32_opmath",
}

FUNCTIONS = {
    **function_grid("""
     float reciprocal  abs negative positive sign square rounding round
   b   f32        f32    b        -        -    b    i64        b     b
  i8   f32        f32   i8       i8       i8   i8     i8       i8    i8
 i16   f32        f32  i16      i16      i16  i16    i16      i16   i16
 i32   f32        f32  i32      i32      i32  i32    i32      i32   i32
 i64   f32        f32  i64      i64      i64  i64    i64      i64   i64
  u8   f32        f32   u8       u8       u8   u8     u8       u8    u8
 u16   f32        f32  u16      u16      u16  u16    u16      u16   u16
 u32   f32        f32  u32      u32      u32  u32    u32      u32   u32
 u64   f32        f32  u64      u64      u64  u64    u64      u64   u64
 f16   f16        f16  f16      f16      f16  f16    f16      f16   f16
bf16  bf16       bf16 bf16     bf16     bf16 bf16   bf16     bf16  bf16
 f32   f32        f32  f32      f32      f32  f32    f32      f32   f32
 f64   f64        f64  f64      f64      f64  f64    f64      f64   f64
 c64   c64        c64  f32      c64      c64  c64    c64        -   c64
c128  c128       c128  f64     c128     c128 c128   c128        -  c128
"""),
    **function_grid("""
     mean  std  var extrema argextrema linalg linalg_values norm matrix_rank  fft rfft irfft
   b    -    -    -       b          -      -             -    -           -  c64  c64   f32
  i8    -    -    -      i8        i64      -             -    -           -  c64  c64   f32
 i16    -    -    -     i16        i64      -             -    -           -  c64  c64   f32
 i32    -    -    -     i32        i64      -             -    -           -  c64  c64   f32
 i64    -    -    -     i64        i64      -             -    -           -  c64  c64   f32
  u8    -    -    -      u8        i64      -             -    -           -  c64  c64   f32
 u16    -    -    -     u16        i64      -             -    -           -  c64  c64   f32
 u32    -    -    -     u32        i64      -             -    -           -  c64  c64   f32
 u64    -    -    -     u64        i64      -             -    -           -  c64  c64   f32
 f16  f16  f16  f16     f16        i64      -             -  f16           -  c64  c64   f16
bf16 bf16 bf16 bf16    bf16        i64      -             - bf16           -    -    -     -
 f32  f32  f32  f32     f32        i64    f32           f32  f32         i64  c64  c64   f32
 f64  f64  f64  f64     f64        i64    f64           f64  f64         i64 c128 c128   f64
 c64  c64  f32  f32     c64          -    c64           f32  f32         i64  c64    -   f32
c128 c128  f64  f64    c128          -   c128           f64  f64         i64 c128    -   f64
"""),
}

#: Functions whose dtype the backend would decide (``Policy.delegated``): ``all``/``any`` of uint8
#: give uint8, ``conj`` of bool is bool (NumPy's is int8), ``imag`` refuses real dtypes ("imag is not
#: implemented for tensors with non-complex dtypes").
DELEGATED = delegated_grid("""
      all  any conj imag
   b    b    b    b    -
  i8    b    b   i8    -
 i16    b    b  i16    -
 i32    b    b  i32    -
 i64    b    b  i64    -
  u8   u8   u8   u8    -
 u16    b    b  u16    -
 u32    b    b  u32    -
 u64    b    b  u64    -
 f16    b    b  f16    -
bf16    b    b bf16    -
 f32    b    b  f32    -
 f64    b    b  f64    -
 c64    b    b  c64  f32
c128    b    b c128  f64
""")

POLICY = Policy(
    name="pytorch",
    summary="PyTorch: n-d tensors > 0-d tensors > Python numbers, by category; int/int -> float32.",
    reference="PyTorch 2.13",
    arrays=ARRAYS,
    roles="priority",
    scalar_dtypes={Role.BOOL: bool_, Role.INT: int64, Role.FLOAT: float32, Role.COMPLEX: complex64},
    cross=CROSS,
    op_families={
        **{"subtract": "subtraction", "outer": "arithmetic", "vecdot": "vecdot", "isin": "isin"},
        # "torch.meshgrid: expects all tensors to have the same dtype"
        "meshgrid": "linalg",
    },
    families={
        "arithmetic": Family(int_values=_WRAPPED),
        "subtraction": Family(kinds="iufc", scalar_kinds="ifc", int_values=_WRAPPED),
        "power": Family(
            int_values=_WRAPPED,
            int_right={"b": "non-negative", "i": "non-negative", "u": "non-negative", "f": "fit"},
            float_fits_right=_REDUCED,
        ),
        "real_arithmetic": Family(kinds="biuf", int_values=_WRAPPED),
        "extrema": Family(kinds="biuf", int_values=_WRAPPED),
        # ``s / x`` is ``reciprocal(x) * s``: the int never meets a bool tensor there.
        "true_divide": Family(result_map=_TO_DEFAULT_FLOAT, int_values={}, int_right=_WRAPPED),
        "comparison": Family(result="bool", int_values=_WRAPPED),
        "ordering": Family(kinds="biuf", result="bool", int_values=_WRAPPED),
        "logical": Family(result="bool", int_values=_WRAPPED),
        "bitwise": Family(kinds="biu", int_values=_WRAPPED),
        "shift": Family(kinds="biu", int_values=_WRAPPED),
        "float_only": Family(result_map=_TO_DEFAULT_FLOAT, int_values=_WRAPPED),
        "common": Family(int_values=_WRAPPED),
        "where": Family(int_values=_CHECKED, float_fits=_SINGLE),
        # A floating tensor keeps its dtype whatever the Python bounds (torch's clamp meta function).
        "clip": Family(
            kinds="biuf",
            scalars={(d, r): d for d in DTYPES if d.kind == "f" for r in SCALAR_ROLES},
            int_values={**_CHECKED, "f": "magnitude"},
            float_fits=_REAL_FLOATS,
            complex_to_real="zero_imag",
        ),
        "setitem": Family(
            cast="any",
            int_values={"i": "magnitude", "u": "magnitude"},
            int_range=_LONG_LONG,
            float_values="within",
            float_fits=_SINGLE,
            complex_to_real="zero_imag",
        ),
        "linalg": Family(same_dtype=True),
        # "linalg.vecdot: Expected a floating point or complex tensor as input"
        "vecdot": Family(kinds="fc", same_dtype=True),
        # "Unsupported input type encountered for isin()": bool and complex, a Python scalar too
        "isin": Family(kinds="iuf", scalar_kinds="if", result="bool", int_values=_WRAPPED),
    },
    accumulate={d: int64 for d in DTYPES if d.kind in "biu"},
    int_values="wrap",
    int_range=_SCALAR_INTS,
    inplace="category",
    can_cast="category",
    scalars_alone="defaults",
    delegated=DELEGATED,
    functions=FUNCTIONS,
    nested="strong-scalars",
    float_scalars=FLOAT_SCALARS,
    numpy_scalars="python",
    defaults={"bool": bool_, "int": int64, "float": float32, "complex": complex64, "index": int64},
    deviations=(
        "NumPy bool and complex scalars: torch reads np.bool_ as the float 1.0 or 0.0 (bool_tensor + "
        "np.True_ is float32 and bool_tensor & np.True_ has no kernel) and add/sub read np.complex64 "
        "and np.complex128 as their real part (int32_tensor + np.complex64(1+2j) is float32 [2., 2.], "
        "where mul keeps the complex); the policy takes them as the Python bool and complex they hold, "
        "as torch takes np.integer and np.floating, so nothing is dropped. An np.uint64 beyond int64 is "
        "the Python int it holds; torch's operators hand that op to NumPy (an ndarray comes back) and "
        "its functions refuse it (an integer is required).",
        "Where torch's API differs from the standard's and not in dtypes, the namespace follows the "
        "standard on every backend: sign(NaN) is NaN (torch's sign gives 0); where() takes a bool condition "
        "only (torch still takes a uint8 one, with a warning that this is deprecated and will be removed); "
        "arange(stop) with stop against step's sign is empty (torch raises: upper bound and lower bound "
        "inconsistent with step sign); x[1:] += x[:-1] computes as if the right side were read first, as "
        "NumPy does (torch refuses operands that overlap in memory: Please clone() the tensor).",
        "asarray of nested data holding 1-d or larger tensors stacks them (torch.tensor raises: only "
        "one-element tensors convert to Python scalars); their dtype follows the same rule as 0-d ones.",
        "float16 with a lower-priority complex (a Python complex or a 0-d complex tensor) gives "
        "complex32 in PyTorch; promo_ns has no complex32 and gives complex64.",
        "fft/rfft of a float16 tensor give complex32 in PyTorch (CUDA only); promo_ns has no "
        "complex32 and gives complex64.",
        "torch converts a Python float to float16 through float32 (x + (1 + 2**-11 + 2**-40) adds "
        "1.0); on NumPy, promo_ns converts it once, as NumPy does (1.0009765625). The two differ "
        "only where float32 rounds the float onto a midpoint between two float16 values.",
        "bfloat16 NaNs have the backend's bits: torch's vectorized CPU loops write 0xffff, ml_dtypes 0x7fc0.",
        "bool ** bool: torch has no kernel (its meta device decides int64) but for a Python True or "
        "False exponent, which gives bool; the policy gives bool to every bool ** bool, computed exactly.",
        "torch reads an integer exponent as an int64 before checking it against the tensor's dtype, so "
        "uint64_tensor ** 2**63 is refused; the policy checks it against uint64 only, and computes it.",
        "torch's CPU mul/div/floor_divide read any second operand that broadcasts from one element (a "
        "shape-(1,) tensor too) in float32 for float16/bfloat16: the kernel picks that path by the "
        "operand's strides at run time; promo_ns decides per dtype and role, so only 0-d operands do.",
        "torch converts a Python int to a c10::Scalar (an int64, a uint64 from 2**63) while parsing "
        "arguments, before any dtype check: an int beyond -2**63..2**64-1 raises OverflowError where the "
        "dtypes are refused too (float16_tensor & -2**63 - 1), and a uint64 int refuses to promote with "
        "a bool tensor (Promotion for uint16, uint32, uint64 types is not supported); the policy checks "
        "the dtypes first (PromotionError) and holds a bool tensor's int to int64 (OverflowError).",
        "torch's add/sub kernels compute x + alpha * y with a complex multiplication by alpha, so an "
        "infinite part of a complex operand gives a NaN other part (tensor([1+0j]) + complex('inf') is "
        "inf+nanj); the values are the backend kernel's (NumPy's inf+0j on the NumPy backend).",
        "float16/bfloat16 x // y of two tensors (and s // x) round each step of div_floor to the "
        "tensor's dtype in torch's vectorized CPU loop; NumPy's and ml_dtypes' loops compute in float32 "
        "and round once: the backends' numerics differ in the last bit of some quotients.",
    ),
)


# --- Values: PyTorch's answers where the frameworks' kernels differ (every backend gives them) ---
# Measured on torch 2.13's CPU: int8/int32/int64/uint8 tensors ``// 0`` and ``% 0`` (a zero tensor
# divisor or a Python 0) raise RuntimeError("ZeroDivisionError"); int64
# ``tensor([0, 1, -1, 2, -2, 3]) ** tensor(-1)`` is ``[0, 1, -1, 0, 0, 0]`` and ``** -2`` is
# ``[0, 1, 1, 0, 0, 0]`` (a negative Python int exponent is refused: ``int_right`` above).
# float32 ``remainder`` gives a 0 the dividend's sign (``fmod``): ``1.0 % -1.0`` is ``0.0``,
# ``-0.0 % 1.0`` and ``-1.0 % 0.5`` are ``-0.0`` (NumPy: ``-0.0``, ``0.0``, ``0.0``).
POLICY = replace(
    POLICY,
    families={
        **POLICY.families,
        "real_arithmetic": replace(
            POLICY.families["real_arithmetic"], zero_divisor="raise", zero_remainder="dividend"
        ),
        "power": replace(POLICY.families["power"], negative_powers="compute"),
    },
)
