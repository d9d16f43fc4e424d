"""Values and refusals at the edges: promo_ns under a policy against the framework it is named after.

:mod:`conformance.frameworks.edges` stores what each framework computes, or
refuses, on the edge-case grid.  This module runs the same grid through a
promo_ns namespace (promo_ns is one more :class:`~conformance.frameworks.edges.Framework`)
and compares every cell with the stored observation:

* the framework computed: promo_ns must give the same dtype and the same
  values, floats bit for bit;
* the framework refused (``kind == "refused"``): promo_ns must refuse, with its
  own error;
* the framework has no CPU kernel but decides the call (torch's ``meta``
  run): promo_ns must give the decided dtype (there are no values to compare),
  or refuse where the framework refuses;
* any other gap (no ufunc loop, no scalar overload, no such op, a hang, a
  crash, a framework bug) is not the framework's answer: the cell is counted
  as *not compared*.

Each differing cell is either fixed or listed in :data:`DEVIATIONS` with its
reason.  Run::

    python -m conformance.frameworks.edge_agreement pytorch --backend torch

to print the agreement per section and every differing cell.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import promo_ns
from conformance.frameworks import edges
from conformance.frameworks._tf_edge_deviations import TF_MODE_DEVIATIONS

#: Sections of the grid, as the report names them.
SECTIONS: tuple[str, ...] = ("int_scalars", "bool", "float_scalars", "setitem", "clip")
#: The policies of TensorFlow's dtype conversion modes whose framework quirks are alike.
_TF = ("tf-safe", "tf-all", "tf-legacy")
#: Cells where promo_ns differs from its framework on purpose: (policy, section, path prefix) -> reason.
_FLOAT32_ATAN2 = (
    "float32 atan2 differs in its last bit between NumPy's and torch's kernels (their libm): the "
    "backend's numerics"
)

#: Reasons of the backends' numerics that depend on the machine (NumPy's float32 atan2 is SIMD code
#: on CPUs with AVX-512, libm on others), with the result dtype each is about: cells of that dtype
#: count as deviations whether or not this machine's kernels agree, so that no count depends on it.
_MACHINE_NUMERICS = {_FLOAT32_ATAN2: "float32"}

DEVIATIONS: dict[tuple[str, str, str], str] = {
    **{
        (policy, "float_scalars", f"/x / s/{dtype}/3e+38"): (
            "TensorFlow's CPU kernels flush subnormal float32 results to zero (also where bfloat16 "
            "computes in float32); promo_ns keeps the subnormals NumPy and torch compute"
        )
        for policy in _TF
        for dtype in ("float32", "bfloat16")
    },
    **{
        ("paddle", "float_scalars", f"/{form}/"): (
            "Paddle's tensor * Python scalar is its scale kernel, s * x + 0.0: a -0 product comes out "
            "+0; promo_ns keeps IEEE's -0 (and bfloat16 NaNs differ, as for + and -)"
        )
        for form in ("x * s", "s * x")
    },
    **{
        (policy, "float_scalars", f"/{form}/bfloat16/"): (
            "bfloat16 NaN bits are each library's own (torch's vectorized CPU loops 0xffff, its scalar "
            "loops, ml_dtypes and TensorFlow 0x7fc0, Paddle 0x7fff): a NaN result has the backend's "
            "bits; every value agrees"
        )
        for policy in ("pytorch", "paddle", *_TF, "jax")
        for form in edges.FLOAT_CASES
    },
    **{
        (policy, "int_scalars", f"/cases/{case}/{dtype}/{s}"): (
            "integer division by zero is the kernel's: torch, Paddle and TensorFlow raise, NumPy returns 0 "
            "with a warning (for a zero in an array too); here the Python int wraps to 0, or the bool "
            "array holds False"
        )
        for policy in edges.FRAMEWORKS
        for case in ("x // s", "x % s", "s // x", "s % x")
        for dtype in ("bool", *edges.INT_DTYPES)
        for s in edges.INT_SCALARS
        if (dtype == "bool" and case.startswith("s"))
        or (case.startswith("x") and s % 2 ** (64 if dtype == "bool" else np.iinfo(dtype).bits) == 0)
    },
    **{
        (policy, "bool", f"/bool_unary/b {op} b"): (
            "integer division by zero is the kernel's: torch, Paddle and TensorFlow raise, NumPy returns 0 "
            "with a warning"
        )
        for policy in edges.FRAMEWORKS
        for op in ("//", "%")
    },
    **{
        (policy, "int_scalars", f"/cases/{case}/{dtype}/{s}"): (
            "the sign of a zero float remainder is the kernel's: NumPy's takes the divisor's (+0), torch's "
            "and the other frameworks' the dividend's (-0)"
        )
        for policy in edges.FRAMEWORKS
        for case in ("x % s", "s % x")
        for dtype in ("float16", "bfloat16", "float32", "float64")
        for s in edges.INT_SCALARS
        if s < 0
    },
    **{
        (policy, "bool", f"/bool_arithmetic/{case}/{operand}"): (
            "complex powers differ in their last bits and the sign of a zero imaginary part between "
            "NumPy's and torch's kernels: the backend's numerics"
        )
        for policy in edges.FRAMEWORKS
        for case in ("b ** x", "x ** b")
        for operand in ("array:complex", "py:complex")
    },
    **{
        (policy, "int_scalars", f"/cases/atan2(x, s)/{dtype}/"): _FLOAT32_ATAN2
        for policy in edges.FRAMEWORKS
        for dtype in ("float32", "int8", "uint8", "int16", "uint16", "int32", "uint32")
    },
    **{
        (policy, "int_scalars", f"/clip_pairs/{dtype}/{pair}"): (
            "clip with min above max: NumPy and torch give max, TensorFlow gives min, Paddle and "
            "array-api-strict refuse; the standard leaves it unspecified, promo_ns runs the backend's clip"
        )
        for policy in ("array-api", "paddle", *_TF)
        for dtype in edges.INT_SCALAR_DTYPES
        for pair in ("50,2", "0,18446744073709551616")
    },
    ("paddle", "int_scalars", "/cases/s & x/"): (
        "Paddle's s & x (Tensor.__rand__) converts a Python int to x's dtype, while x & s and "
        "paddle.bitwise_and take no Python scalar; the paddle policy follows x & s and refuses both"
    ),
    **{
        ("pytorch", "bool", path): (
            "bool ** bool: torch has no kernel and its meta device decides int64, but a Python True or "
            "False exponent gives bool (torch's shortcut for exponents 1 and 0); the pytorch policy gives "
            "bool to every bool ** bool, computed exactly"
        )
        for path in (
            "/bool_arithmetic/b ** x/array:bool",
            "/bool_arithmetic/x ** b/array:bool",
            "/bool_arithmetic/x ** b/py:bool",
            "/bool_unary/b ** b",
        )
    },
    ("pytorch", "int_scalars", "/cases/x ** s/uint64/9223372036854775808"): (
        "torch reads an integer exponent as an int64 before it checks it against the tensor's dtype; "
        "the pytorch policy checks 2**63 against uint64 only, and computes uint64 ** 2**63"
    ),
    **{
        (policy, "int_scalars", f"/cases/{case}/bfloat16/{s}"): (
            "ml_dtypes' bfloat16 (NumPy's and TensorFlow's) converts no Python int beyond int64 "
            "(TypeError: expected number, got int; np.where none beyond uint64); the policy converts it "
            "as for float16"
        )
        for policy in ("numpy", *_TF)
        for case in edges.INT_CASES
        for s in (-(2**63) - 1, 2**63, 2**64, 2**70)
    },
    **{
        ("numpy", "int_scalars", f"/cases/{case}/bfloat16/"): (
            "np.clip of bfloat16 with one bound is maximum or minimum (bfloat16); with both bounds it is "
            "float32 (ml_dtypes has no clip loop), which the numpy policy gives to both"
        )
        for case in ("clip(x, s, None)", "clip(x, None, s)")
    },
    ("numpy", "bool", "/bool_unary/b ** 2"): (
        "NumPy computes array ** 2 as np.square, int8 for a bool array; the numpy policy gives the "
        "promotion's int64, as for any other Python int exponent"
    ),
    **{
        ("array-api", "int_scalars", f"/cases/{case}/{dtype}/"): (
            "array-api-strict clips with an int bound beyond an integer dtype that clips (int8 with "
            "min=256) after NumPy's cast wraps it; the standard leaves such bounds unspecified, and the "
            "policy refuses them, dropping those that clip nothing as array-api-strict and NumPy do"
        )
        for case in ("clip(x, s, None)", "clip(x, None, s)")
        for dtype in edges.INT_DTYPES
    },
    **{
        ("array-api", "int_scalars", f"/clip_pairs/{dtype}/{pair}"): (
            "array-api-strict clips with an int bound beyond an integer dtype that clips after NumPy's "
            "cast wraps it; the standard leaves it unspecified and the policy refuses it"
        )
        for dtype in edges.INT_DTYPES
        for pair in ("1000,2000",)
    },
    **{
        ("paddle", "int_scalars", f"/cases/{case}/{dtype}/{s}"): (
            "Paddle converts a Python int in arithmetic and setitem through a double: beyond 2**53 it "
            "rounds, and beyond the tensor's dtype it becomes the dtype's minimum (x86's conversion of an "
            "out-of-range double); the paddle policy wraps it as a cast does"
        )
        for case in ("x + s", "s + x", "x - s", "s - x", "x * s", "s * x", "x[0] = s")
        for dtype in ("bool", *edges.INT_DTYPES)
        for s in edges.INT_SCALARS
        if abs(s) > 2**53
    },
    **{
        ("paddle", "int_scalars", f"/cases/s ** x/{dtype}/"): (
            "Paddle's integer pow computes through a double: a power beyond the dtype becomes its minimum; "
            "the backends' integer pow wraps"
        )
        for dtype in ("bool", "int32", "int64")
    },
    **{
        ("paddle", "int_scalars", f"/cases/copysign(x, s)/{dtype}/"): (
            "copysign of an integer or bool tensor keeps its dtype in Paddle; NumPy and torch have no "
            "integer copysign, and promo_ns refuses it there (the backend's missing kernel)"
        )
        for dtype in ("bool", *edges.INT_DTYPES)
    },
    ("paddle", "int_scalars", "/cases/clip(x, s, None)/int64/9223372036854775807"): (
        "Paddle refuses an int64 clip with min 2**63-1 (its default max, as a float, is below it); the "
        "paddle policy clips"
    ),
    **{
        ("paddle", "clip", f"/{dtype}/0d:uint16"): (
            "Paddle's uint16 tensors are its bfloat16 storage: a 0-d 'uint16' bound is a float one there"
        )
        for dtype in ("int32", "int64")
    },
    ("paddle", "bool", "/bool_unary/-b"): (
        "Paddle's -b (Tensor.__neg__) of a bool tensor gives bool while paddle.negative refuses it; the "
        "paddle policy follows paddle.negative for both"
    ),
    **{
        (policy, "int_scalars", f"/cases/{case}/{dtype}/{s}"): (
            "a Python int outside the dtype's range is refused, as RFC 431 says; TF 2.21 wraps it (the "
            "policy's documented deviation)"
        )
        for policy in _TF
        for case in edges.INT_CASES
        for dtype in edges.INT_DTYPES
        for s in edges.INT_SCALARS
        if not np.iinfo(dtype).min <= s <= np.iinfo(dtype).max
    },
    **{
        (policy, "int_scalars", f"/clip_pairs/{dtype}/{low},{high}"): (
            "a Python int outside the dtype's range is refused, as RFC 431 says; TF 2.21 wraps it (the "
            "policy's documented deviation)"
        )
        for policy in _TF
        for dtype in edges.INT_DTYPES
        for low, high in edges.CLIP_PAIRS
        if not np.iinfo(dtype).min <= low <= high <= np.iinfo(dtype).max
    },
    **{
        (policy, "setitem", "/uint8/py:int:-1"): (
            "a Python int outside the dtype's range is refused, as RFC 431 says; TF 2.21 wraps it"
        )
        for policy in _TF
    },
    **{
        (policy, section, path): (
            "TF's bool tensor * x (Tensor.__mul__) casts x to bool and gives bool; tf.multiply and "
            "tf.experimental.numpy.multiply promote, which the policy follows"
        )
        for policy in _TF
        for section, path in (
            ("bool", "/bool_arithmetic/b * x/"),
            ("int_scalars", "/cases/x * s/bool/"),
            ("int_scalars", "/cases/s * x/bool/"),
        )
    },
    **{
        (policy, "int_scalars", f"/cases/{case}/bool/"): (
            "tf.experimental.numpy.clip with one bound promotes a bool tensor with a Python int to int64 "
            "(NumPy's rule, through maximum or minimum), with both bounds to int32; the policy gives int32"
        )
        for policy in _TF
        for case in ("clip(x, s, None)", "clip(x, None, s)")
    },
    **{
        (policy, "int_scalars", f"/cases/hypot(x, s)/{dtype}/"): (
            "tf.experimental.numpy.hypot squares its operands in their own dtype (int8: 100 * 100 wraps "
            "to 16) or precision; promo_ns computes hypot in the result's float dtype"
        )
        for policy in _TF
        for dtype in ("bfloat16", "float16", "int8", "int16", "uint8", "uint16")
    },
    **{
        (policy, "int_scalars", f"/cases/{case}/{dtype}/{s}"): (
            "a shift by a negative count or by the width or more is each kernel's (C leaves it undefined)"
        )
        for policy in _TF
        for case in ("x << s", "x >> s")
        for dtype in edges.INT_DTYPES
        for s in edges.INT_SCALARS
        if s < 0 or s >= np.iinfo(dtype).bits
    },
    **{
        (policy, "int_scalars", f"/cases/x ** s/{dtype}/-129"): (
            "float32 pow to the power -129 differs in its last bit between TensorFlow's and the "
            "backends' kernels"
        )
        for policy in _TF
        for dtype in ("bfloat16", "float32")
    },
    **TF_MODE_DEVIATIONS,
    **{
        (policy, "setitem", f"/{dtype}/py:bool"): (
            "TF's Variable.assign cannot convert a Python bool to some dtypes (int8, uint8, bfloat16, "
            "complex64) and takes it for others; the policy takes it wherever its category allows"
        )
        for policy in _TF
        for dtype in ("int8", "uint8", "bfloat16", "complex64")
    },
    **{
        ("jax", "setitem", f"/{dtype}/py:complex"): (
            "JAX's x.at[0].set(v) casts a Python complex into a real array, dropping its imaginary part "
            "(NumPy's ComplexWarning cast); the jax policy refuses it, as float(v) does"
        )
        for dtype in edges.SETITEM_DTYPES
    },
    **{
        ("jax", section, path): (
            "jnp.power with a concrete integer exponent lowers to lax.integer_pow and keeps the base's "
            "dtype (a bool base as int32); the jax policy promotes, as JAX does for a traced exponent"
        )
        for section, path in (
            ("int_scalars", "/cases/x ** s/bool/"),
            ("bool", "/bool_arithmetic/b ** x/py:int"),
            ("bool", "/bool_unary/b ** 2"),
        )
    },
    ("jax", "int_scalars", f"/cases/x[0] = s/uint64/{2**63}"): (
        "x.at[0].set(v) converts a Python int to a uint64 array's dtype itself and takes 2**63; the jax "
        "policy parses every Python int as an int64, as JAX's other ops do"
    ),
    ("jax", "int_scalars", "/cases/x ** s/"): (
        "jnp.power lowers x ** s, s a Python int, to lax.integer_pow: s is taken as it is (no "
        "conversion to the base's dtype, no int64 limit) and the power computed by repeated "
        "squaring (last bits of floats differ); the jax policy converts s as every other op does"
    ),
    **{
        ("jax", section, f"{prefix}x / s/{dtype}/"): (
            "XLA computes x / s, s a Python number, as x * (1 / s): the last bit differs from the "
            "division NumPy and torch compute"
        )
        for section, prefix in (("int_scalars", "/cases/"), ("float_scalars", "/"))
        for dtype in edges.INT_SCALAR_DTYPES
    },
    **{
        ("jax", "int_scalars", f"/cases/s ** x/{dtype}/"): (
            "JAX's integer power loops over 6 bits of the exponent (_pow_int_int: 'Anything more would "
            "overflow for any x1 > 1'): where s ** 100 overflows, its wrapped value is not the exact "
            "power's modulo 2**bits that the backends compute"
        )
        for dtype in edges.INT_DTYPES
    },
    **{
        ("jax", "int_scalars", f"/cases/{case}/"): (
            "JAX's hypot and logaddexp are its own formulas: their last bit differs from NumPy's and "
            "torch's kernels (the backend's numerics)"
        )
        for case in ("hypot(x, s)", "logaddexp(x, s)")
    },
}


class PromoNs(edges.Framework):
    """A promo_ns namespace under one policy on one backend, as the probe drives a framework."""

    def __init__(self, policy: str, backend: str) -> None:
        self.policy = policy
        self.framework = f"promo_ns[{backend}]"
        self.version = promo_ns.__version__
        self.backend = backend
        self.xp = promo_ns.namespace(backend, policy=policy)
        self.native: edges.Framework = edges.Torch() if backend == "torch" else edges.Numpy()
        self.dtypes = {name: getattr(self.xp, name) for name in edges.ALL_DTYPES if hasattr(self.xp, name)}
        if name := self._bfloat16():
            self.dtypes["bfloat16"] = name
        names = ("logical_and", "maximum", "minimum", "atan2", "hypot", "copysign", "nextafter", "logaddexp")
        self.functions = {name: getattr(self.xp, name) for name in (*names, "where", "clip")}
        self.forms = {name: f"xp.{name}" for name in self.functions} | {"setitem": "x[0] = v"}

    def _bfloat16(self) -> Any:
        try:
            return self.xp.asarray(self.native.from_numpy(edges.float_inputs("bfloat16")[:1])).dtype
        except (TypeError, ValueError):
            return None

    def asarray(self, values: Any, dtype: str) -> Any:
        return self.xp.asarray(values, dtype=self.dtypes[dtype])

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        return self.xp.asarray(self.native.from_numpy(array))

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        return self.native.to_numpy(promo_ns.unwrap(result))

    def dtype_name(self, result: Any) -> str:
        return str(result.dtype)

    def condition(self, like: Any) -> Any:
        return self.xp.asarray([True, False, True])

    def kind(self, exc: BaseException) -> str:
        """``"refused"`` where promo_ns raised the error itself, ``"raw"`` where a backend's got through."""
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        raised_in = tb.tb_frame.f_globals.get("__name__", "") if tb is not None else ""
        return "refused" if raised_in.split(".")[0] == "promo_ns" else "raw"


@dataclass
class Agreement:
    """Cells compared in one section: how many agree, differ, or were not compared, and which differ."""

    agree: int = 0
    differ: list[tuple[str, Any, Any]] = field(default_factory=list)
    deviations: Counter[str] = field(default_factory=Counter)
    not_compared: Counter[str] = field(default_factory=Counter)

    @property
    def compared(self) -> int:
        return self.agree + len(self.differ) + sum(self.deviations.values())


#: Reference kinds that are the framework's answer; every other kind is a gap.  A framework bug
#: (Paddle's comparisons with a Python int beyond int64: SystemError from an OverflowError) raises
#: all the same, so promo_ns must refuse there too.
_ANSWERS = ("refused", "no_kernel", "framework_bug")


def verdict(reference: dict[str, Any], found: dict[str, Any]) -> str | None:
    """``"agree"``, ``"differ"``, or None where the reference is a gap and nothing is compared."""
    if "error" not in reference:
        same = "error" not in found and found.get("dtype") == reference.get("dtype")
        for key in ("values", "sha256"):
            if key in reference:
                same = same and found.get(key) == reference[key]
        return "agree" if same else "differ"
    kind = reference.get("kind")
    if kind not in _ANSWERS:
        return None
    if kind == "no_kernel":
        decided = reference.get("decided")
        if decided is None:
            return None
        if "error" not in decided:
            if found.get("kind") == "refused":
                return None  # neither computes: the dtype grids say whether the policy decides the cell
            return "agree" if found.get("dtype") == decided["dtype"] else "differ"
        kind = decided.get("kind")
        if kind != "refused":
            return None
    return "agree" if found.get("kind") == "refused" else "differ"


def _cells(data: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every observation below ``data`` with its path."""
    if isinstance(data, dict):
        if "dtype" in data or "error" in data:
            yield path, data
            return
        for key in sorted(data):
            yield from _cells(data[key], f"{path}/{key}")


def _section_data(probe: dict[str, Any], section: str) -> Any:
    if section == "int_scalars":
        return {"cases": probe["int_scalars"]["cases"], "clip_pairs": probe["int_scalars"]["clip_pairs"]}
    if section == "bool":
        return {"bool_arithmetic": probe["bool_arithmetic"], "bool_unary": probe["bool_unary"]}
    if section == "float_scalars":
        return probe["float_scalars"]["cases"]
    return probe[section]


#: The probe of :mod:`~conformance.frameworks.edges` that runs each section (setitem and clip share one).
_PROBES: dict[str, Callable[[edges.Framework], dict[str, Any]]] = {
    "int_scalars": lambda f: {"int_scalars": edges.probe_int_scalars(f)},
    "bool": edges.probe_bools,
    "float_scalars": lambda f: {"float_scalars": edges.probe_floats(f)},
    "setitem": edges.probe_setitem_clip,
    "clip": edges.probe_setitem_clip,
}


@functools.cache
def _deviations_of(policy: str, section: str) -> dict[str, tuple[int, str]]:
    """The path prefixes of :data:`DEVIATIONS` of ``policy`` and ``section``: each its place and reason."""
    return {
        prefix: (place, reason)
        for place, ((p, s, prefix), reason) in enumerate(DEVIATIONS.items())
        if p == policy and s == section
    }


def _deviation(policy: str, section: str, path: str, dtype: str | None) -> str | None:
    """The reason of the first entry of :data:`DEVIATIONS` whose prefix ``path`` has, or None.

    A reason of the machine's numerics applies to a framework's result of its dtype only.
    """
    prefixes = _deviations_of(policy, section)
    found = [prefixes[path[:n]] for n in range(len(path) + 1) if path[:n] in prefixes]
    found = [(place, r) for place, r in found if _MACHINE_NUMERICS.get(r, dtype) == dtype]
    return min(found)[1] if found else None


def compare(policy: str, backend: str, sections: tuple[str, ...] = SECTIONS) -> dict[str, Agreement]:
    """Run the edge grid through ``promo_ns.namespace(backend, policy=policy)`` and compare it.

    Parameters
    ----------
    policy
        A policy with stored observations (``tests/reference/edges-<policy>.json``).
    backend
        ``"numpy"`` or ``"torch"``.
    sections
        The sections to run (default: all of :data:`SECTIONS`).

    Returns
    -------
    dict
        Section name -> its :class:`Agreement`.
    """
    reference = json.loads(edges.path(policy).read_text())
    fw = PromoNs(policy, backend)
    out: dict[str, Agreement] = {}
    probed: dict[Callable[[edges.Framework], dict[str, Any]], dict[str, Any]] = {}
    for section in sections:
        probe = _PROBES[section]
        if probe not in probed:
            probed[probe] = probe(fw)
        found = dict(_cells(_section_data(probed[probe], section)))
        agreement = Agreement()
        for where, expected in _cells(_section_data(reference, section)):
            got = found.get(where)
            if got is None:
                agreement.not_compared["dtype not in backend"] += 1
                continue
            outcome = verdict(expected, got)
            reason = _deviation(policy, section, where, expected.get("dtype"))
            if outcome is None:
                agreement.not_compared[expected.get("kind", "?")] += 1
            elif reason in _MACHINE_NUMERICS or (outcome == "differ" and reason):
                agreement.deviations[reason] += 1
            elif outcome == "agree":
                agreement.agree += 1
            else:
                agreement.differ.append((where, expected, got))
        out[section] = agreement
    return out


def _short(observation: dict[str, Any]) -> str:
    if "error" in observation:
        return f"{observation['error']}: {observation.get('message', '')[:90]}"
    values = observation.get("values", observation.get("sha256", "")[:12])
    return f"{observation['dtype']} {values}"


def main(argv: list[str] | None = None) -> int:
    """Print the agreement of a policy on a backend with its framework, and the differing cells."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", choices=list(edges.FRAMEWORKS))
    parser.add_argument("--backend", default="numpy", choices=("numpy", "torch"))
    parser.add_argument("--section", action="append", choices=SECTIONS)
    parser.add_argument("--limit", type=int, default=40, help="differing cells shown per section")
    args = parser.parse_args(argv)
    result = compare(args.policy, args.backend, tuple(args.section or SECTIONS))
    status = 0
    for section, agreement in result.items():
        print(
            f"{section}: {agreement.agree}/{agreement.compared} agree, {len(agreement.differ)} differ, "
            f"{sum(agreement.deviations.values())} documented deviations, "
            f"not compared {dict(agreement.not_compared)}"
        )
        for where, expected, got in agreement.differ[: args.limit]:
            print(f"  {where}\n    framework: {_short(expected)}\n    promo_ns:  {_short(got)}")
        status |= bool(agreement.differ)
    return status


if __name__ == "__main__":
    sys.exit(main())
