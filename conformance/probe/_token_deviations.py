"""The probe's documented deviations read from a case's tokens, beyond those of the framework cells.

(:data:`conformance.frameworks._fidelity.DEVIATIONS`, which the probe reads first; those
that need a spelling or the whole case are in :mod:`conformance.probe._deviations`.)

The framework cells name operands by dtype and role only (``int8:nd|py:int``);
the probe's cases also carry the Python scalars' values and the edge arrays
(``int8:nd:one|py:int:128``, ``float64:col:edge``), and these deviations are
read from those tokens.  Each is written down, with the framework's reason, in
the policy module's ``deviations`` (or its docstring).
"""

from __future__ import annotations

import math

from conformance.frameworks._fidelity import Deviation

__all__ = ["DEVIATIONS", "deviation"]


def _py_values(key: str, kind: str) -> list[complex]:
    """The values of the key's Python scalars of ``kind`` (``float``, ``complex``)."""
    prefix = f"py:{kind}:"
    return [complex(t.removeprefix(prefix)) for t in key.split("|") if t.startswith(prefix)]


def _py_ints(key: str) -> list[int]:
    return [int(t.removeprefix("py:int:")) for t in key.split("|") if t.startswith("py:int:")]


def _dtypes(key: str) -> list[str]:
    return [
        t.removeprefix("dt:").split(":", maxsplit=1)[0] for t in key.split("|") if not t.startswith("py:")
    ]


def _ml_dtypes_promotion(op: str, key: str, seen: str) -> bool:
    """NumPy's answer with a bfloat16 is ml_dtypes' result_type, not its ufuncs' loops."""
    if "bfloat16" not in _dtypes(key):
        return False
    if op in ("result_type", "concat", "stack"):
        return seen == "refused" or ("py:" in key and seen in ("float64", "complex128"))
    return op in ("tensordot", "linalg.tensordot", "linalg.cross", "linalg.outer") and seen in (
        "refused",
        "object",
    )


#: array-api-strict checks only that each operand of these is numeric and lets NumPy promote them.
_UNCHECKED = frozenset(
    (
        *("linalg.matmul", "tensordot", "linalg.tensordot", "vecdot", "linalg.vecdot"),
        *("linalg.cross", "linalg.outer", "searchsorted"),
    )
)


def _ml_dtypes_int(op: str, key: str, seen: str) -> bool:
    """ml_dtypes' bfloat16 converts no Python int beyond int64, where NumPy's float16 rounds it."""
    beyond = any(not -(2**63) <= v < 2**63 for v in _py_ints(key))
    return beyond and seen == "refused" and "bfloat16" in _dtypes(key)


def _undefined_promotion(op: str, key: str, seen: str) -> bool:
    """array-api-strict computes where the standard's tables leave the two dtypes' promotion undefined."""
    from promo_ns._dtypes import BY_NAME
    from promo_ns.policies.array_api import ARRAYS

    dtypes = _dtypes(key)[:2]
    if op not in _UNCHECKED or seen == "refused" or not all(d in BY_NAME for d in dtypes):
        return False
    return (BY_NAME[dtypes[0]], BY_NAME[dtypes[1]]) not in ARRAYS


def _complex_specials(op: str, key: str, seen: str) -> bool:
    """Complex add/subtract/pow with an infinite or NaN part (an edge array, a Python scalar)."""
    if op not in ("add", "subtract", "pow") or not seen.startswith("complex"):
        return False
    big = 3.4028234663852886e38  # beyond float32: infinite in complex64
    scalars = _py_values(key, "float") + _py_values(key, "complex")
    return ":edge" in key or any(
        not math.isfinite(abs(v)) or max(abs(v.real), abs(v.imag)) > big for v in scalars
    )


def _torch_int_conversion(op: str, key: str, seen: str) -> bool:
    """Whether torch refused a Python int while converting it, before (or instead of) the dtypes' check."""
    ints = _py_ints(key)
    if seen == "error: OverflowError":
        return any(not -(2**63) <= v <= 2**64 - 1 for v in ints)
    return seen == "refused" and "bool" in _dtypes(key) and any(v >= 2**63 for v in ints)


_COMPLEX_ALPHA = Deviation(
    "torch's add/sub kernels compute x + alpha * y with a complex multiplication by alpha (1 or -1), "
    "and its pow of complex special values goes through exp(log): an infinite or NaN part gives NaN "
    "parts (torch.tensor([1+0j]) + complex('inf') is inf+nanj, NumPy's inf+0j). The values are the "
    "backend kernel's: promo_ns on torch gives torch's, on NumPy NumPy's, under every policy.",
    _complex_specials,
    values_only=True,
)

_TF_OUTER = Deviation(
    "tf.experimental.numpy.outer (TF has no outer op) promotes by NumPy's rules "
    "(np_math_ops._bin_op: int8 with uint8 is int16); the policy promotes outer as matmul, by "
    "the mode's table.",
    lambda op, key, seen: op == "linalg.outer",
)

DEVIATIONS: dict[str, tuple[Deviation, ...]] = {
    "tf-safe": (_TF_OUTER,),
    "tf-all": (_TF_OUTER,),
    "jax": (
        Deviation(
            "jnp.searchsorted's index dtype depends on the length of the sorted array (int32 below "
            "2**31 elements: lax_utils.int_dtype_for_dim); the jax policy gives the index dtype, int64, "
            "whatever the length.",
            lambda op, key, seen: op == "searchsorted" and seen == "int32",
        ),
    ),
    "pytorch": (
        _COMPLEX_ALPHA,
        Deviation(
            "torch converts a Python int to a c10::Scalar (an int64, a uint64 from 2**63) while parsing "
            "the arguments: beyond that it raises OverflowError before any dtype check, and a uint64 "
            "refuses to promote with a bool tensor (RuntimeError: Promotion for uint16, uint32, uint64 "
            "types is not supported). Both refuse; the pytorch policy checks the dtypes first (a "
            "PromotionError) and the int against the int64 a bool tensor's int becomes (OverflowError).",
            _torch_int_conversion,
        ),
    ),
    "numpy": (
        _COMPLEX_ALPHA,
        Deviation(
            "ml_dtypes registers no bfloat16 promotion with int16+/uint16+ or float16 for np.result_type: "
            "np.concatenate, np.stack and np.cross refuse them, np.tensordot gives an object array, "
            "result_type refuses a Python scalar beside bfloat16 and another dtype or takes a Python "
            "float as float64, while its ufunc loops accept them: the numpy policy uses the ufuncs' "
            "answer everywhere.",
            _ml_dtypes_promotion,
        ),
        Deviation(
            "ml_dtypes' bfloat16 converts no Python int beyond int64 (TypeError: expected number, got "
            "int); the numpy policy converts it as NumPy does for float16: rounded, infinite beyond "
            "the range.",
            _ml_dtypes_int,
        ),
    ),
    "array-api": (
        _COMPLEX_ALPHA,
        Deviation(
            "array-api-strict's tensordot, vecdot, linalg.cross, linalg.outer and searchsorted (as its "
            "matmul) check only that each operand is numeric and let NumPy promote them; the array-api "
            "policy refuses the pairs the standard leaves undefined (int8 with float32, int64 with uint64).",
            _undefined_promotion,
        ),
        Deviation(
            "array-api-strict lets a Python complex into the real-only ordering comparisons (<=, >, >=, "
            "as < and maximum/minimum) with real floating arrays; the array-api policy refuses it.",
            lambda op, key, seen: (
                op in ("less_equal", "greater", "greater_equal") and "py:complex" in key and seen != "refused"
            ),
        ),
        Deviation(
            "array-api-strict's functions bitwise_left_shift/bitwise_right_shift raise ValueError for a "
            "negative shift (before the kind check of a bool or floating array) while its operators "
            "compute; the array-api policy has one rule for both spellings and follows the operators.",
            lambda op, key, seen: (
                op in ("bitwise_left_shift", "bitwise_right_shift") and seen == "error: ValueError"
            ),
        ),
        Deviation(
            "meshgrid of arrays of different dtypes: array-api-strict raises ValueError; the array-api "
            "policy refuses them too, with the PromotionError (a TypeError) of every dtype refusal.",
            lambda op, key, seen: op == "meshgrid" and seen == "error: ValueError",
        ),
    ),
}


def deviation(policy: str, op: str, key: str, seen: str, *, values: bool = False) -> Deviation | None:
    """The probe's documented deviation covering a case (``key``: its tokens), if any."""
    return next(
        (d for d in DEVIATIONS.get(policy, ()) if d.values_only == values and d.applies(op, key, seen)), None
    )
