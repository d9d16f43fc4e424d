"""Documented deviations the old cell names of :mod:`conformance.frameworks._fidelity` cannot express.

A deviation names a spelling, an operand's value or a creation function's
``dtype=``, which the old cells (op, dtype:role) lose.  Each says why the policy
does not follow its framework there, with the framework's own reason; the
policy module (``promo_ns/policies/<policy>.py``, its ``deviations``) says it too.
:func:`find` is what :func:`conformance.probe._compare.deviation` asks first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from conformance.probe._known import subnormal_operand
from conformance.probe._observed import dtypes_of, flushed_only, is_result
from conformance.probe._space import Case, operand

__all__ = ["DEVIATIONS", "ProbeDeviation", "find"]

_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _outside_result_range(case: Case, seen: str, got: str) -> bool:
    """Whether TF computed with a Python int of ``case`` outside its integer dtype's range.

    The dtype is the result's, or for a bool result (a comparison) the integer array operand's.
    """
    if not (is_result(seen) or seen.startswith("dtype ")):
        return False
    dtype = dtypes_of(seen).split(",")[0]
    if dtype == "bool":
        dtype = next((str(o.dtype) for o in map(operand, case.args) if o.what in ("array", "dtype")), dtype)
    if dtype not in _INTS:
        return False
    info = np.iinfo(dtype)
    ints = [int(t.split(":", 2)[2]) for t in case.args if t.startswith("py:int:")]
    return any(not info.min <= v <= info.max for v in ints)


def _outside_operand_range(case: Case, seen: str, got: str) -> bool:
    """Whether TF computed (or failed on a value) with a Python int outside an integer array's dtype."""
    if not (is_result(seen) or seen.startswith("error")):
        return False
    dtypes = [str(o.dtype) for o in map(operand, case.args) if o.what == "array" and str(o.dtype) in _INTS]
    ints = [int(t.split(":", 2)[2]) for t in case.args if t.startswith("py:int:")]
    return any(not np.iinfo(d).min <= v <= np.iinfo(d).max for d in dtypes[:1] for v in ints)


def _int32_fill(case: Case, seen: str, got: str) -> bool:
    """Whether TF refused a creation function's Python int beyond int32's range."""
    return (
        case.op in ("full", "full_like", "asarray")
        and seen == "refused"
        and any(not -(2**31) <= v < 2**31 for v in _ints_of(case))
    )


def _big_int(case: Case, seen: str, got: str) -> bool:
    """Whether a Python int of ``case`` is beyond 2**53 (Paddle converts it through a double)."""
    return case.op in ("add", "subtract", "multiply", "divide", "pow", "setitem") and any(
        abs(int(t.split(":", 2)[2])) > 2**53 for t in case.args if t.startswith("py:int:")
    )


def _integer_copysign(case: Case, seen: str, got: str) -> bool:
    o = operand(case.args[0])
    return case.op == "copysign" and o.what == "array" and str(o.dtype)[0] in "biu"


def _zero_d_with_complex(case: Case, seen: str, got: str) -> bool:
    """A 0-d tensor with a Python complex, which Paddle rebuilds as a shape-[1] tensor."""
    ops = [operand(t) for t in case.args]
    return any(o.what == "array" and o.shape == "0d" for o in ops) and any(
        o.what == "py" and str(o.dtype) == "complex" for o in ops
    )


def _zero_d_isin(case: Case, seen: str, got: str) -> bool:
    ops = [operand(t) for t in case.args]
    return case.op == "isin" and any(o.what == "array" and o.shape == "0d" for o in ops)


_CREATION = (
    *("asarray", "full", "full_like", "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like"),
)


def _unsigned_dtype_argument(case: Case, seen: str, got: str) -> bool:
    """A creation function given ``dtype=uint16/32/64``, which Paddle reads through NumPy."""
    return case.op in _CREATION and dict(case.kwargs).get("dtype") in ("dt:uint16", "dt:uint32", "dt:uint64")


def _creation_value(case: Case, seen: str, got: str) -> bool:
    """A creation function's Python scalar that Paddle checks its own way."""
    return case.op in _CREATION and seen.startswith("error") and any(t.startswith("py:") for t in case.args)


def _creation_cast(case: Case, seen: str, got: str) -> bool:
    """A creation function's Python scalar (or list of them) that Paddle casts to ``dtype=``."""
    return case.op in _CREATION and is_result(seen) and "dtype" in dict(case.kwargs)


def _zero_d_as_one(case: Case, seen: str, got: str) -> bool:
    """A 0-d tensor with Python scalars only, which Paddle returned as a shape-[1] tensor."""
    ops = [operand(t) for t in case.args]
    arrays = [o for o in ops if o.what == "array"]
    return (
        is_result(seen)
        and seen.split(" ")[1] == "1"
        and len(arrays) == 1
        and arrays[0].shape == "0d"
        and any(o.what == "py" for o in ops)
    )


def _float_equality(case: Case, seen: str, got: str) -> bool:
    ops = [operand(t) for t in case.args]
    return case.op in ("equal", "not_equal") and any(
        str(o.dtype).startswith(("float", "bfloat", "complex")) for o in ops if o.what in ("array", "py")
    )


def _function_scalar_path(case: Case, seen: str, got: str) -> bool:
    return (
        case.op in ("floor_divide", "remainder", "pow", "equal", "not_equal")
        and case.spelling in ("function", "method", "method_")
        and any(t.startswith("py:") for t in case.args)
    )


def _complex_result(case: Case, seen: str, got: str) -> bool:
    return is_result(seen) and dtypes_of(seen).startswith("complex")


def _bool_times(case: Case, seen: str, got: str) -> bool:
    """``bool * x`` or ``x * bool`` spelled with TF's operator."""
    return (
        case.op == "multiply"
        and case.spelling in ("operator", "reflected")
        and any(o.what == "array" and str(o.dtype) == "bool" for o in map(operand, case.args))
    )


_ACCUMULATING = ("sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace")
_INDEXING = ("unique_counts", "unique_inverse", "unique_all", "searchsorted", "argsort")
_ORDER = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "maximum", "minimum")


def _ints_of(case: Case) -> list[int]:
    """The Python ints of ``case``: scalars and the items of literal lists."""
    out = []
    for t in case.args:
        if t.startswith("py:int:"):
            out.append(int(t.split(":", 2)[2]))
        elif t.startswith("lit:["):
            out += [int(v) for v in t[5:-1].split(", ") if v.lstrip("-").isdigit()]
    return out


def _float_edges(case: Case, seen: str, got: str) -> bool:
    """A comparison or extremum of float tensors at the edges of their dtype (subnormals included)."""
    ops = [operand(t) for t in case.args]
    return case.op in _ORDER and any(
        o.what == "array" and str(o.dtype).startswith(("float", "bfloat", "complex")) and t.endswith(":edge")
        for o, t in zip(ops, case.args, strict=True)
    )


def _logical_of_float(case: Case, seen: str, got: str) -> bool:
    """A logical function of an array and a Python float."""
    return case.op in ("logical_and", "logical_or", "logical_xor") and any(
        t.startswith("py:float") for t in case.args
    )


def _int64_of_unsigned(case: Case, seen: str, got: str) -> bool:
    """A negative (or beyond int64) Python int with a uint64 tensor, or one beyond int64 with bfloat16."""
    dtypes = {str(o.dtype) for o in map(operand, case.args) if o.what == "array"}
    ints = _ints_of(case)
    return bool(ints) and (
        ("uint64" in dtypes and seen == "error: OverflowError")
        or ("bfloat16" in dtypes and seen == "refused" and any(abs(v) >= 2**63 for v in ints))
    )


class ProbeDeviation(NamedTuple):
    """A documented deviation the old cell names cannot express (a spelling, a value)."""

    reason: str
    applies: Callable[[Case, str, str], bool]  # (case, framework's observation, promo_ns's)
    #: Only the value differs: the dtype is still compared.
    values_only: bool = False


#: NumPy's full/full_like (array-api-strict's, Paddle's) cast the fill value unsafely.
_UNSAFE_FILL = ProbeDeviation(
    "np.full and np.full_like cast the fill value unsafely (array-api-strict's and paddle.full too): a "
    "NaN, an infinity or a float beyond an integer dtype gives an undefined value, and a complex "
    "drops its imaginary part (ComplexWarning); promo_ns refuses such a fill value (OverflowError, "
    "ValueError for NaN): nothing is lost silently.",
    lambda case, seen, got: case.op in ("full", "full_like") and is_result(seen) and got.startswith("error"),
)

#: policy -> its documented deviations that :mod:`conformance.frameworks._fidelity`'s cells
#: cannot express; the policy module says each too.
#: TF's ways in safe and all mode (the policies follow TF's ops and operators in both).
#: TF's ways in every mode (its functions, kernels and conversions).
_TF_ANY_MODE: tuple[ProbeDeviation, ...] = (
    ProbeDeviation(
        "tnp.maximum(x, 0) with a Python real 0 (0.0 and -0.0 too) is tf.nn.relu(x), x's dtype "
        "whatever the 0's type (tnp.clip with a lower bound of 0 calls it): a dtype from a value, "
        "which the policy does not take; maximum(int8, 0.5) promotes.",
        lambda case, seen, got: (
            case.op in ("maximum", "clip") and case.args[1:2] in (("py:float:0.0",), ("py:float:-0.0",))
        ),
    ),
    ProbeDeviation(
        "TF's index-returning functions give int32 (tf.unique's out_idx, tf.searchsorted's "
        "out_type, tnp.argsort); promo_ns gives the backend's int64 index dtype.",
        lambda case, seen, got: case.op in _INDEXING,
    ),
    ProbeDeviation(
        "tnp.isinf, tnp.isnan and tnp.isfinite of a bool or integer tensor return a Python bool "
        "(one answer, not an array); promo_ns returns a bool array of x's shape.",
        lambda case, seen, got: case.op in ("isinf", "isnan", "isfinite") and seen.startswith("value"),
    ),
    ProbeDeviation(
        "tnp.meshgrid converts every array to one dtype (refusing the pairs the mode refuses); "
        "meshgrid promotes nothing in the standard, and promo_ns returns each array in its own dtype.",
        lambda case, seen, got: case.op == "meshgrid",
    ),
    ProbeDeviation(
        "TF converts a Python int for a uint64 tensor through NumPy (OverflowError for a negative "
        "one) and for a bfloat16 tensor through ml_dtypes (refused beyond int64); the policy refuses "
        "the first as out of range and converts the second to the float.",
        _int64_of_unsigned,
    ),
    ProbeDeviation(
        "tnp.result_type of Python scalars alone gives their weak dtype (the standard needs an "
        "array or a dtype: promo_ns refuses), and it folds from the left with each Python scalar "
        "where it stands (int32 then 1.5 is refused before float64 comes); the policy promotes the "
        "arrays and dtypes first and the Python scalars last.",
        lambda case, seen, got: (
            case.op == "result_type" and (all(t.startswith("py:") for t in case.args) or len(case.args) > 2)
        ),
    ),
    ProbeDeviation(
        "Values: tf.clip_by_value (tnp.clip's kernel) with min > max gives min; NumPy's clip, "
        "and promo_ns on every backend, give max.",
        lambda case, seen, got: case.op == "clip",
        values_only=True,
    ),
    ProbeDeviation(
        "Values: TF's CPU kernels flush subnormal operands to zero, so comparisons and extrema "
        "at the edges of a float dtype differ; promo_ns compares them as the backend does.",
        _float_edges,
        values_only=True,
    ),
    ProbeDeviation(
        "Values: astype of NaN, inf or a float beyond the integer dtype is undefined in C (and "
        "differs between TF's and NumPy's casts); promo_ns gives the backend's.",
        lambda case, seen, got: case.op == "astype",
        values_only=True,
    ),
    ProbeDeviation(
        "tnp.asarray and tnp.full convert Python data to dtype= as NumPy's astype does (a complex "
        "drops its imaginary part, 65504.0 into int8 wraps, NaN into int8 is 0); tnp.arange takes "
        "dtype=bool, tnp.linspace ignores it (float32) and gives complex128 for a complex endpoint "
        "whatever dtype= says; promo_ns refuses a complex into a real dtype, a bool range, and "
        "raises OverflowError for a value beyond the dtype.",
        lambda case, seen, got: (
            case.op in ("asarray", "full", "full_like", "arange", "linspace") and is_result(seen)
        ),
    ),
    ProbeDeviation(
        "Values: tnp.hypot squares integer and float16/bfloat16 operands in their own dtype "
        "(int8: 100 * 100 wraps, float16 65504 ** 2 is inf); promo_ns computes in the result's "
        "float dtype.",
        lambda case, seen, got: case.op == "hypot",
        values_only=True,
    ),
    ProbeDeviation(
        "Values: TF divides complex numbers with Eigen's formula ((ac + bd) / (c^2 + d^2): 1 ulp "
        "off, and x / 0 is nan); promo_ns divides as the backend does (NumPy: Smith's algorithm, "
        "x / 0 is inf).",
        lambda case, seen, got: (
            case.op in ("divide", "floor_divide", "pow") and _complex_result(case, seen, got)
        ),
        values_only=True,
    ),
    ProbeDeviation(
        "Values: TF's CPU kernels flush subnormal results (and operands) to zero; promo_ns keeps "
        "them, as the backend does.",
        lambda case, seen, got: flushed_only(seen, got),
        values_only=True,
    ),
    ProbeDeviation(
        "A Python int outside the dtype's range: the policy follows RFC 431 and refuses it; TF 2.21 "
        "wraps it around.",
        _outside_result_range,
    ),
)
#: TF's ways in safe and all mode, where the policies follow TF's ops and operators.
_TF: tuple[ProbeDeviation, ...] = (
    ProbeDeviation(
        "x * y with a bool tensor on either side gives bool in TF: Tensor.__mul__ "
        "(tensor_math_operator_overrides._mul_dispatch_factory) casts both to int32, multiplies "
        "and casts back to bool; the policy promotes as tf.multiply does.",
        _bool_times,
    ),
    ProbeDeviation(
        "tnp.sum, tnp.prod, tnp.cumsum, tnp.cumprod and tnp.trace accumulate int8/int16/bool in "
        "int32 (uint8/uint16 in uint32); the policy follows tf.reduce_sum/tf.reduce_prod/tf.math.cumsum, "
        "which keep the dtype. With dtype=bool TF's Sum/Cumsum/Cumprod ops have no bool kernel "
        "(refused); promo_ns computes it.",
        lambda case, seen, got: case.op in _ACCUMULATING,
    ),
    ProbeDeviation(
        "tf.experimental.numpy.hypot (TF has no hypot op) promotes by NumPy's rules (int8 with "
        "128 is float32) and squares integer and float16/bfloat16 operands in their own dtype "
        "(int8: 100 * 100 wraps); promo_ns computes hypot in the result's float dtype.",
        lambda case, seen, got: case.op == "hypot",
    ),
    ProbeDeviation(
        "tf.experimental.numpy's binary functions promote by NumPy's rules, not the mode's table "
        "(np_math_ops._bin_op casts both operands to np_utils._result_type_binary, NumPy's "
        "result_type, whatever the conversion mode): the policy follows the TF ops and operators.",
        lambda case, seen, got: case.spelling == "method",
    ),
    ProbeDeviation(
        "tf.experimental.numpy.clip is tnp.maximum/tnp.minimum with one bound and promotes with "
        "np_array_ops._promote_dtype with two: NumPy's rules (int8 with 1.5 is float64); the policy "
        "promotes clip by the mode's table.",
        lambda case, seen, got: case.op == "clip",
    ),
    ProbeDeviation(
        "tnp.full, tnp.full_like and tnp.asarray convert a Python int to a weak int32 first and "
        "refuse one beyond int32's range whatever dtype= says; the policy converts it to the dtype.",
        _int32_fill,
    ),
    *_TF_ANY_MODE,
)

DEVIATIONS: dict[str, tuple[ProbeDeviation, ...]] = {
    "numpy": (_UNSAFE_FILL,),
    "array-api": (_UNSAFE_FILL,),
    "paddle": (
        _UNSAFE_FILL,
        ProbeDeviation(
            "paddle.finfo and paddle.iinfo raise ValueError for a dtype of the other kind; promo_ns "
            "raises TypeError, as for any dtype a function does not take.",
            lambda case, seen, got: case.op in ("finfo", "iinfo") and seen == "error: ValueError",
        ),
        ProbeDeviation(
            "x << s and s << x make a Python int a 0-d int64 tensor before looking at x's dtype, so one "
            "beyond int64 raises ('dtype must be any of ...') where the policy refuses x's dtype (bool, "
            "float): both refuse.",
            lambda case, seen, got: (
                case.op.startswith("bitwise_") and "shift" in case.op and seen.startswith("error")
            ),
        ),
        ProbeDeviation(
            "Paddle's creation functions convert dtype= through NumPy: paddle.uint16 becomes bfloat16 "
            "(NumPy uint16 is Paddle's bfloat16 storage) and uint32/uint64 raise 'Not supported numpy "
            "dtype'; promo_ns creates the dtype asked for.",
            _unsigned_dtype_argument,
        ),
        ProbeDeviation(
            "A Python scalar a creation function cannot hold: paddle.full/full_like check it fits the "
            "dtype ('is_out_range': 1.5 into bool, 128 into int8) and paddle.to_tensor wraps an int "
            "(-1 into uint8 is 255); promo_ns converts what fits, as a cast does, and raises "
            "OverflowError for an int beyond the dtype.",
            _creation_value,
        ),
        ProbeDeviation(
            "paddle.to_tensor and paddle.full convert a Python scalar to dtype= as NumPy's astype does "
            "(a complex drops its imaginary part, -1 into uint8 is 255, 65504.0 into int8 wraps); "
            "promo_ns refuses a complex into a real dtype and raises OverflowError for a value beyond "
            "the dtype.",
            _creation_cast,
        ),
        ProbeDeviation(
            "paddle.clip raises ValueError when min > max ('max should be greater than or equal to "
            "min'), bounds converted to float included (int64 2**63 - 1); the policy computes it.",
            lambda case, seen, got: case.op == "clip" and seen == "error: ValueError",
        ),
        ProbeDeviation(
            "Values: paddle.clip with one bound fills the other with float32's limit, converted to the "
            "tensor's dtype (clip(int32 2**31 - 1, 0) is 2147483519), and keeps -0.0 at a 0 bound; "
            "promo_ns clips by the bound given only.",
            lambda case, seen, got: case.op == "clip" and "none" in case.args,
            values_only=True,
        ),
        ProbeDeviation(
            "paddle.full without dtype= makes its default float dtype (float32) from a Python int and "
            "complex128 from a complex, where paddle.to_tensor gives int64 and complex64; the policy's "
            "defaults follow to_tensor.",
            lambda case, seen, got: case.op == "full" and "dtype" not in dict(case.kwargs),
        ),
        ProbeDeviation(
            "x @ y (Paddle's legacy operator patch) casts y to x's dtype (int32 @ bool is int32, bool @ "
            "int32 int64, float32 @ float64 float32); the policy follows paddle.matmul, which refuses "
            "two dtypes (MATMUL).",
            lambda case, seen, got: (
                case.op == "matmul" and case.spelling in ("operator", "inplace", "reflected")
            ),
        ),
        ProbeDeviation(
            "Tensor.add_ and the other in-place methods count a 0-d y as n-d and take no Python scalar "
            "(int8.add_(<0-d int32>) refuses: 'Type promotion only support calculations between "
            "floating-point numbers'); the policy follows x += y (x = x + y: int8).",
            lambda case, seen, got: case.spelling == "method_" and seen == "refused",
        ),
        ProbeDeviation(
            "copysign of an integer or bool tensor keeps its dtype in Paddle; NumPy and torch have no "
            "integer copysign, so promo_ns refuses it there.",
            _integer_copysign,
        ),
        ProbeDeviation(
            "Values: Paddle converts a Python int in arithmetic and setitem through a double (beyond "
            "2**53 it rounds, beyond the dtype it becomes the dtype's minimum); the policy wraps it.",
            _big_int,
            values_only=True,
        ),
        ProbeDeviation(
            "Paddle rebuilds a 0-d tensor met by a Python complex (and by any Python scalar in //, % "
            "and **) as a shape-[1] tensor; promo_ns keeps the 0-d shape.",
            lambda case, seen, got: _zero_d_with_complex(case, seen, got) or _zero_d_as_one(case, seen, got),
            values_only=True,
        ),
        ProbeDeviation(
            "Values: Paddle's equal and not_equal compare floats within an absolute 1e-8 "
            "(paddle/phi/kernels/funcs/compare_functors.h: 1e-30 == 0.0 is True); promo_ns compares "
            "exactly.",
            _float_equality,
            values_only=True,
        ),
        ProbeDeviation(
            "paddle.floor_divide(x, s) makes s a tensor of its own (int8 // 1 is int64), and "
            "paddle.remainder, paddle.pow and paddle.equal convert s to x's dtype (pow(int8, 1.5) is "
            "int8, equal(bool, 2) compares with True): those functions' own scalar paths; the policy "
            "follows the operators.",
            _function_scalar_path,
        ),
        ProbeDeviation(
            "Values: x * s with a Python float is Paddle's scale kernel, which adds a +0.0 bias (x * "
            "-0.0 is +0.0); promo_ns multiplies.",
            lambda case, seen, got: case.op == "multiply" and "py:float:-0.0" in case.args,
            values_only=True,
        ),
        ProbeDeviation(
            "x[i] = v with a Python float beyond an integer tensor's dtype: Paddle converts it with C's "
            "float-to-int cast, undefined there; promo_ns refuses it (OverflowError; ValueError for NaN).",
            lambda case, seen, got: case.op == "setitem" and any(t.startswith("py:float") for t in case.args),
        ),
        ProbeDeviation(
            "paddle.isin with a 0-d x or test_elements returns a 0-d tensor (one answer); promo_ns gives "
            "x's shape, as the standard says.",
            _zero_d_isin,
            values_only=True,
        ),
        ProbeDeviation(
            "paddle.meshgrid and paddle.broadcast_tensors refuse tensors of two dtypes ('The data_type "
            "of input tensor in list isn't consistent'); they promote nothing, and promo_ns returns each "
            "array in its own dtype, as the standard says.",
            lambda case, seen, got: case.op in ("meshgrid", "broadcast_arrays") and seen == "refused",
        ),
    ),
    "tf-safe": _TF,
    "tf-all": _TF,
    "tf-legacy": (
        *_TF_ANY_MODE,
        ProbeDeviation(
            "TF's own ops (tf.math.add, tf.math.less, tf.math.maximum, ...) promote nothing in legacy "
            "mode: two dtypes are refused; tf-legacy follows the operators and tf.experimental.numpy, "
            "which promote by NumPy's rules.",
            lambda case, seen, got: case.spelling == "method",
        ),
        ProbeDeviation(
            "tnp.trace keeps an integer dtype (no widening) and refuses bool, and TF's Sum, Cumsum and "
            "Cumprod ops have no bool kernel for dtype=bool (refused); tf-legacy's trace accumulates as "
            "tnp.sum does (int8 in int64), and promo_ns computes dtype=bool.",
            lambda case, seen, got: (
                case.op == "linalg.trace" or (case.op in _ACCUMULATING and "dtype=dt:bool" in case.key)
            ),
        ),
        ProbeDeviation(
            "tnp.logical_and, logical_or and logical_xor convert a Python float to the other operand's "
            "dtype first (1e300 into int32 is refused); promo_ns takes the float's truth.",
            _logical_of_float,
        ),
        ProbeDeviation(
            "Values: tnp.logical_and, logical_or and logical_xor convert a Python float to the other "
            "operand's dtype first (5e-324 flushes to 0, false); promo_ns takes the float's truth.",
            _logical_of_float,
            values_only=True,
        ),
        ProbeDeviation(
            "tnp.hypot, logical_and, logical_or and logical_xor make a Python int an int64 array "
            "(uint64 from 2**63; ValueError below -2**63), which ml_dtypes does not promote with "
            "bfloat16, and hypot squares it in int64; tf-legacy converts the int as its other functions "
            "do and computes hypot in the result's float dtype.",
            lambda case, seen, got: (
                case.op in ("hypot", "logical_and", "logical_or", "logical_xor")
                and any(t.startswith("py:int") for t in case.args)
            ),
        ),
        ProbeDeviation(
            "A Python int outside the integer array's dtype: TF 2.21 converts it to that dtype, wrapping "
            "(int8 / 128 is int8 / -128, int8 // 256 divides by zero); tf-legacy refuses it, as RFC 431 "
            "has Python scalars do.",
            _outside_operand_range,
        ),
        ProbeDeviation(
            "tnp.full, tnp.full_like and tnp.asarray convert a Python int through int64 and refuse one "
            "beyond it whatever dtype= says; the policy converts it to the dtype (OverflowError beyond).",
            lambda case, seen, got: (
                case.op in ("full", "full_like", "asarray")
                and any(t.startswith("py:int:") and abs(int(t.split(":", 2)[2])) > 2**63 for t in case.args)
            ),
        ),
        ProbeDeviation(
            "tnp.true_divide of two bool tensors is float64 (NumPy's rule), where the operator refuses "
            "them (Tensor.__truediv__: 'Invalid dtype tf.bool'); tf-legacy follows the operator.",
            lambda case, seen, got: case.op == "divide" and all(t.startswith("bool:") for t in case.args),
        ),
        ProbeDeviation(
            "tnp.asarray, tnp.full and tnp.full_like refuse a Python value that does not fit dtype= "
            "(a TypeError from TF's conversion); promo_ns refuses it with NumPy's OverflowError "
            "(ValueError for NaN).",
            lambda case, seen, got: (
                case.op in ("asarray", "full", "full_like") and seen == "refused" and got.startswith("error")
            ),
        ),
        ProbeDeviation(
            "tnp.asarray of a list mixing bools and numbers with dtype= goes through TF's own "
            "converter, which refuses it ('Can't convert Python sequence with mixed types'); without "
            "dtype= the same list converts by NumPy's rules. promo_ns converts both.",
            lambda case, seen, got: (
                case.op == "asarray"
                and seen == "refused"
                and is_result(got)
                and any(word in case.args[0] for word in ("True", "False"))
            ),
        ),
        ProbeDeviation(
            "Values: TF's CPU kernels flush subnormal operands to zero (logical functions of subnormals "
            "are false, 5e-324 // x is 0), and TF's floor division of an infinity (a float16 one too) "
            "is inf where NumPy's and torch's is nan; promo_ns gives the backend's values.",
            lambda case, seen, got: (
                (case.op.startswith("logical_") and "edge" in case.key)
                or (
                    case.op == "floor_divide"
                    and ("py:float:5e-324" in case.args or "inf" in case.key or "float16" in case.key)
                )
            ),
            values_only=True,
        ),
    ),
    "jax": (
        ProbeDeviation(
            "Values: XLA's CPU kernels flush subnormal operands and results to zero (comparisons, "
            "logical ops, ceil and log of a subnormal, x ** 127 in bfloat16); promo_ns computes with "
            "them, as NumPy, torch and Dask do.",
            lambda case, seen, got: flushed_only(seen, got) or subnormal_operand(case),
            values_only=True,
        ),
        ProbeDeviation(
            "Values: XLA orders complex numbers lexicographically, real parts then imaginary parts, "
            "with comparisons that are false for NaN (minimum/maximum/min/max skip a NaN) and equal "
            "for -0.0 and 0.0; promo_ns propagates NaN, as NumPy does.",
            lambda case, seen, got: (
                case.op in ("minimum", "maximum", "min", "max") and dtypes_of(seen).startswith("complex")
            ),
            values_only=True,
        ),
        ProbeDeviation(
            "Values: XLA's complex abs gives NaN for an infinite part with a NaN other part (C99's "
            "hypot, NumPy's, gives inf), its complex log1p/log10/power and reciprocal round "
            "differently and sign zeros otherwise, and it computes x / s as x * (1 / s) (1 ulp); "
            "promo_ns gives the backend's values.",
            lambda case, seen, got: (
                (
                    case.op in ("abs", "log1p", "log10", "log2", "reciprocal", "pow")
                    and dtypes_of(seen).startswith("complex")
                )
                or (case.op == "divide" and any(t.startswith("py:float") for t in case.args))
            ),
            values_only=True,
        ),
        ProbeDeviation(
            "Values: astype of NaN, inf or a float beyond the integer dtype is undefined in C; XLA's "
            "convert saturates (NaN is 0), NumPy's differs; promo_ns gives the backend's.",
            lambda case, seen, got: case.op == "astype",
            values_only=True,
        ),
        ProbeDeviation(
            "full, full_like, linspace and x.at[i].set(v) convert any Python number into the dtype "
            "with XLA's convert (NaN is 0, an infinity or a float beyond it saturates, an int wraps, a "
            "complex drops its imaginary part); promo_ns refuses a value the dtype cannot hold "
            "(OverflowError, ValueError for NaN, a complex into a real dtype): nothing is lost silently "
            "(an int in x.at[i].set(v) wraps, as in JAX).",
            lambda case, seen, got: (
                case.op in ("full", "full_like", "linspace", "setitem")
                and is_result(seen)
                and (got == "refused" or got.startswith("error"))
            ),
        ),
        ProbeDeviation(
            "JAX parses a Python int beyond int64 before it looks at the op, so it raises OverflowError "
            "for ops it refuses anyway (bitwise ops of floating arrays, clip of complex); promo_ns "
            "refuses the op (PromotionError).",
            lambda case, seen, got: (
                seen == "error: OverflowError"
                and got == "refused"
                and any(abs(v) >= 2**63 for v in _ints_of(case))
            ),
        ),
    ),
}


#: Deviations of every policy whose framework has the function.
_ANY_POLICY = (
    ProbeDeviation(
        "np.linalg.eigvals and eig (tnp's, paddle's) return a real array when every eigenvalue is "
        "real, a dtype that depends on the values; promo_ns gives the complex dtype on every backend, "
        "as torch and JAX do.",
        lambda case, seen, got: (
            case.op in ("linalg.eigvals", "linalg.eig")
            and dtypes_of(seen).startswith("float")
            and dtypes_of(got).startswith("complex")
        ),
    ),
)


def find(policy: str, case: Case, seen: str, got: str, *, values: bool = False) -> str | None:
    """The reason of ``policy``'s deviation covering ``case`` (``values``: its values only), if any."""
    found = next(
        (
            d
            for d in (*DEVIATIONS.get(policy, ()), *_ANY_POLICY)
            if d.values_only == values and d.applies(case, seen, got)
        ),
        None,
    )
    return None if found is None else found.reason
