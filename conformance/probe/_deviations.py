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

from conformance.probe._compare import dtypes_of, is_result
from conformance.probe._space import Case, operand

__all__ = ["DEVIATIONS", "ProbeDeviation", "find"]

_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _outside_result_range(case: Case, seen: str) -> bool:
    """Whether TF computed with a Python int of ``case`` outside its integer dtype's range.

    The dtype is the result's, or for a bool result (a comparison) the integer array operand's.
    """
    if not is_result(seen):
        return False
    dtype = dtypes_of(seen).split(",")[0]
    if dtype == "bool":
        dtype = next((str(o.dtype) for o in map(operand, case.args) if o.what == "array"), dtype)
    if dtype not in _INTS:
        return False
    info = np.iinfo(dtype)
    ints = [int(t.split(":", 2)[2]) for t in case.args if t.startswith("py:int:")]
    return any(not info.min <= v <= info.max for v in ints)


def _int32_fill(case: Case, seen: str) -> bool:
    """Whether TF refused a creation function's Python int beyond int32's range."""
    ints = [int(t.split(":", 2)[2]) for t in case.args if t.startswith("py:int:")]
    return (
        case.op in ("full", "full_like", "asarray")
        and seen == "refused"
        and any(not -(2**31) <= v < 2**31 for v in ints)
    )


def _big_int(case: Case, seen: str) -> bool:
    """Whether a Python int of ``case`` is beyond 2**53 (Paddle converts it through a double)."""
    return case.op in ("add", "subtract", "multiply", "divide", "pow", "setitem") and any(
        abs(int(t.split(":", 2)[2])) > 2**53 for t in case.args if t.startswith("py:int:")
    )


def _integer_copysign(case: Case, seen: str) -> bool:
    o = operand(case.args[0])
    return case.op == "copysign" and o.what == "array" and str(o.dtype)[0] in "biu"


def _zero_d_with_complex(case: Case, seen: str) -> bool:
    """A 0-d tensor with a Python complex, which Paddle rebuilds as a shape-[1] tensor."""
    ops = [operand(t) for t in case.args]
    return any(o.what == "array" and o.shape == "0d" for o in ops) and any(
        o.what == "py" and str(o.dtype) == "complex" for o in ops
    )


def _zero_d_isin(case: Case, seen: str) -> bool:
    ops = [operand(t) for t in case.args]
    return case.op == "isin" and any(o.what == "array" and o.shape == "0d" for o in ops)


_CREATION = (
    *("asarray", "full", "full_like", "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like"),
)


def _unsigned_dtype_argument(case: Case, seen: str) -> bool:
    """A creation function given ``dtype=uint16/32/64``, which Paddle reads through NumPy."""
    return case.op in _CREATION and dict(case.kwargs).get("dtype") in ("dt:uint16", "dt:uint32", "dt:uint64")


def _creation_value(case: Case, seen: str) -> bool:
    """A creation function's Python scalar that Paddle checks its own way."""
    return case.op in _CREATION and seen.startswith("error") and any(t.startswith("py:") for t in case.args)


def _creation_cast(case: Case, seen: str) -> bool:
    """A creation function's Python scalar (or list of them) that Paddle casts to ``dtype=``."""
    return case.op in _CREATION and is_result(seen) and "dtype" in dict(case.kwargs)


def _zero_d_as_one(case: Case, seen: str) -> bool:
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


def _float_equality(case: Case, seen: str) -> bool:
    ops = [operand(t) for t in case.args]
    return case.op in ("equal", "not_equal") and any(
        str(o.dtype).startswith(("float", "bfloat", "complex")) for o in ops if o.what in ("array", "py")
    )


def _function_scalar_path(case: Case, seen: str) -> bool:
    return (
        case.op in ("floor_divide", "remainder", "pow", "equal", "not_equal")
        and case.spelling in ("function", "method", "method_")
        and any(t.startswith("py:") for t in case.args)
    )


class ProbeDeviation(NamedTuple):
    """A documented deviation the old cell names cannot express (a spelling, a value)."""

    reason: str
    applies: Callable[[Case, str], bool]  # (case, framework's observation)
    #: Only the value differs: the dtype is still compared.
    values_only: bool = False


#: policy -> its documented deviations that :mod:`conformance.frameworks._fidelity`'s cells
#: cannot express; the policy module says each too.
DEVIATIONS: dict[str, tuple[ProbeDeviation, ...]] = {
    "paddle": (
        ProbeDeviation(
            "paddle.finfo and paddle.iinfo raise ValueError for a dtype of the other kind; promo_ns "
            "raises TypeError, as for any dtype a function does not take.",
            lambda case, seen: case.op in ("finfo", "iinfo") and seen == "error: ValueError",
        ),
        ProbeDeviation(
            "x << s and s << x make a Python int a 0-d int64 tensor before looking at x's dtype, so one "
            "beyond int64 raises ('dtype must be any of ...') where the policy refuses x's dtype (bool, "
            "float): both refuse.",
            lambda case, seen: (
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
            lambda case, seen: case.op == "clip" and seen == "error: ValueError",
        ),
        ProbeDeviation(
            "Values: paddle.clip with one bound fills the other with float32's limit, converted to the "
            "tensor's dtype (clip(int32 2**31 - 1, 0) is 2147483519), and keeps -0.0 at a 0 bound; "
            "promo_ns clips by the bound given only.",
            lambda case, seen: case.op == "clip" and "none" in case.args,
            values_only=True,
        ),
        ProbeDeviation(
            "paddle.full without dtype= makes its default float dtype (float32) from a Python int and "
            "complex128 from a complex, where paddle.to_tensor gives int64 and complex64; the policy's "
            "defaults follow to_tensor.",
            lambda case, seen: case.op == "full" and "dtype" not in dict(case.kwargs),
        ),
        ProbeDeviation(
            "x @ y (Paddle's legacy operator patch) casts y to x's dtype (int32 @ bool is int32, bool @ "
            "int32 int64, float32 @ float64 float32); the policy follows paddle.matmul, which refuses "
            "two dtypes (MATMUL).",
            lambda case, seen: case.op == "matmul" and case.spelling in ("operator", "inplace", "reflected"),
        ),
        ProbeDeviation(
            "Tensor.add_ and the other in-place methods count a 0-d y as n-d and take no Python scalar "
            "(int8.add_(<0-d int32>) refuses: 'Type promotion only support calculations between "
            "floating-point numbers'); the policy follows x += y (x = x + y: int8).",
            lambda case, seen: case.spelling == "method_" and seen == "refused",
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
            lambda case, seen: _zero_d_with_complex(case, seen) or _zero_d_as_one(case, seen),
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
            lambda case, seen: case.op == "multiply" and "py:float:-0.0" in case.args,
            values_only=True,
        ),
        ProbeDeviation(
            "x[i] = v with a Python float beyond an integer tensor's dtype: Paddle converts it with C's "
            "float-to-int cast, undefined there; promo_ns refuses it (OverflowError; ValueError for NaN).",
            lambda case, seen: case.op == "setitem" and any(t.startswith("py:float") for t in case.args),
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
            lambda case, seen: case.op in ("meshgrid", "broadcast_arrays") and seen == "refused",
        ),
    ),
    "tf-safe": (
        ProbeDeviation(
            "tf.experimental.numpy's binary functions promote by NumPy's rules, not safe mode's "
            "(np_math_ops._bin_op casts both operands to np_utils._result_type_binary, NumPy's "
            "result_type, whatever the conversion mode): tf-safe follows the TF ops and operators.",
            lambda case, seen: case.spelling == "method",
        ),
        ProbeDeviation(
            "A Python int outside the dtype's range: tf-safe follows RFC 431 and refuses it; TF 2.21 "
            "wraps it around.",
            _outside_result_range,
        ),
        ProbeDeviation(
            "tf.experimental.numpy.clip is tnp.maximum/tnp.minimum with one bound and promotes with "
            "np_array_ops._promote_dtype with two: NumPy's rules (int8 with 1.5 is float64); tf-safe "
            "promotes clip by safe mode's table.",
            lambda case, seen: case.op == "clip",
        ),
        ProbeDeviation(
            "tnp.full, tnp.full_like and tnp.asarray convert a Python int to a weak int32 first and "
            "refuse one beyond int32's range whatever dtype= says; tf-safe converts it to the dtype.",
            _int32_fill,
        ),
    ),
}


def find(policy: str, case: Case, seen: str, *, values: bool = False) -> str | None:
    """The reason of ``policy``'s deviation covering ``case`` (``values``: its values only), if any."""
    found = next(
        (d for d in DEVIATIONS.get(policy, ()) if d.values_only == values and d.applies(case, seen)), None
    )
    return None if found is None else found.reason
