"""Each policy against its real framework: promo_ns, on NumPy and on torch, cell by cell.

The framework's observations (dtype or refusal, and the value, of every cell
of :mod:`conformance.frameworks._cells`) come from a checker: probed live
(torch, NumPy, array-api-strict) or stored in ``tests/reference/<policy>.json``
(Paddle, TensorFlow).  promo_ns runs every cell the same way -- it is one more
:class:`~conformance.frameworks._cells.Framework` -- on each backend, and each
cell lands in one bucket:

* ``agree``: same dtype and value (within a few ulps), or both refuse;
* ``deviation``: a disagreement written down in the policy module and the docs;
* ``framework cannot run``: no framework kernel (not a promotion decision), not compared;
* ``no backend kernel``: the backend promo_ns wraps has no kernel for the policy's dtypes;
* ``disagree``: anything else -- a bug.

The same holds for the one-array functions (:func:`compare_functions`: the
policy's ``functions`` grid against ``tests/reference/<policy>-functions.json``,
then promo_ns on each backend against the grid) and for creation from nested
data (:func:`compare_nested`: promo_ns's ``asarray`` against the framework's
creation call in ``tests/reference/nested-creation.json``).

:mod:`conformance.frameworks._report` writes ``docs/conformance/<policy>.md`` from
these comparisons.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from conformance.frameworks import _cells, nested

#: The framework checker module of each policy, and whether the test suite probes it live.
CHECKERS: dict[str, tuple[str, bool]] = {
    "array-api": ("array_api_strict", True),
    "pytorch": ("torch", True),
    "numpy": ("numpy", True),
    "paddle": ("paddle", False),
    "tf-safe": ("tensorflow", False),
    "jax": ("jax", False),
    "tf-all": ("tensorflow", False),
    "tf-legacy": ("tensorflow", False),
}
BACKENDS = ("numpy", "torch")
BUCKETS = ("agree", "deviation", "framework cannot run", "no backend kernel", "disagree")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "conformance"
#: Messages of a backend without a kernel for the dtypes (promo_ns's own guards name the kernel).
_NO_KERNEL = (
    "kernel that computes",
    "kernel that returns",
    "kernel for",
    "did not contain a loop",
    "No loop matching",
    "not implemented for",
    "boolean subtract",
    "Subtraction, the `-` operator, with",
)
_EPS = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "complex64": 2.0**-23}


@dataclass(frozen=True)
class Deviation:
    """A documented disagreement: which cells, and why promo_ns differs there."""

    reason: str
    applies: Callable[[str, str, str], bool]  # (op, key, observed) -> bool
    #: Only the value differs: the dtype is still compared.
    values_only: bool = False


def _paddle_complex_0d(op: str, key: str, seen: str) -> bool:
    zero_d_wide = key.startswith(("float64:0d|", "complex128:0d|")) or key.endswith(
        ("|float64:0d", "|complex128:0d")
    )
    return op in ("divide", "remainder", "pow") and "py:complex" in key and zero_d_wide


def _concrete_integer_exponent(op: str, key: str, seen: str) -> bool:
    """``x ** s`` with a Python int or bool, or a 0-d integer or bool array, as the exponent."""
    if op != "pow" or "|" not in key:
        return False
    exponent = key.split("|")[1]
    return exponent in ("py:int", "py:bool") or (
        exponent.endswith(":0d") and exponent.startswith(("bool", "int", "uint"))
    )


_TF_PYTHON_TRUE = Deviation(
    "TF's eager converter refuses a Python True for several dtypes (int8, uint8, bfloat16, complex64 "
    "...) that the mode's own table allows; the policy follows the table.",
    lambda op, key, seen: "py:bool" in key and seen == "refused",
)
_TF_INT_RANGE = Deviation(
    "A Python int outside the array dtype's range: the policy follows RFC 431 and refuses it; "
    "TF 2.21 wraps it around.",
    lambda op, key, seen: op == "add_out_of_range",
)


DEVIATIONS: dict[str, tuple[Deviation, ...]] = {
    "paddle": (
        Deviation(
            "Paddle rebuilds a 0-d float64/complex128 tensor divided, remaindered or raised to a Python "
            "complex as a shape-[1] complex64 tensor, dropping precision; the paddle policy keeps its "
            "promotion (complex128).",
            _paddle_complex_0d,
        ),
        Deviation(
            "Paddle's s & x, s | x, s ^ x (Tensor.__rand__ ...) convert a Python int or bool to x's "
            "dtype, while x & s and paddle.bitwise_and take no Python scalar; the paddle policy follows "
            "x & s and refuses a Python scalar on either side.",
            lambda op, key, seen: (
                op in ("bitwise_and", "bitwise_or", "bitwise_xor") and key.startswith("py:")
            ),
        ),
        Deviation(
            "Paddle's atan2 of two integer tensors returns float64 computed in float32; promo_ns "
            "computes in float64, so the values differ beyond float64's precision.",
            lambda op, key, seen: op == "atan2" and "float" not in key and "py:" not in key,
            values_only=True,
        ),
        Deviation(
            "Paddle's logaddexp of a float32 tensor and a 0-d float64 tensor returns float64 computed "
            "in float32; promo_ns computes in float64.",
            lambda op, key, seen: op == "logaddexp" and "float32:nd" in key and "float64:0d" in key,
            values_only=True,
        ),
    ),
    "tf-safe": (
        _TF_PYTHON_TRUE,
        _TF_INT_RANGE,
        Deviation(
            "TF has no logaddexp op; tf.experimental.numpy.logaddexp of a Python float and a bool or "
            "bfloat16 tensor returns float64 computed in float32; promo_ns computes in float64.",
            lambda op, key, seen: (
                op == "logaddexp" and "py:float" in key and ("bool" in key or "bfloat16" in key)
            ),
            values_only=True,
        ),
    ),
    "tf-all": (
        _TF_PYTHON_TRUE,
        _TF_INT_RANGE,
        Deviation(
            "TF has no logaddexp op; tf.experimental.numpy.logaddexp computes its parts in the dtypes "
            "NumPy's and the mode's promotion give them (int16 with float16: float32 from float16 "
            "parts); promo_ns computes in the result dtype.",
            lambda op, key, seen: op == "logaddexp",
            values_only=True,
        ),
    ),
    "tf-legacy": (
        _TF_PYTHON_TRUE,
        _TF_INT_RANGE,
        Deviation(
            "tf.experimental.numpy.hypot makes a Python int an int64 array, which ml_dtypes does not "
            "promote with bfloat16 (refused); tf-legacy gives float64, as for bfloat16 with int8.",
            lambda op, key, seen: op == "hypot" and "bfloat16" in key and "py:int" in key,
        ),
    ),
    "pytorch": (
        Deviation(
            "PyTorch gives complex32 for float16 with a complex operand of a lower category; promo_ns "
            "has no complex32 and gives complex64.",
            lambda op, key, seen: seen == "complex32",
        ),
        Deviation(
            "2**64 fits no 64-bit dtype: torch's own conversion overflows before any promotion; "
            "promo_ns refuses it as out of range.",
            lambda op, key, seen: (
                op == "add_out_of_range" and key.startswith("uint64") and seen == "overflow"
            ),
        ),
    ),
    "numpy": (
        Deviation(
            "ml_dtypes registers no bfloat16 promotions for np.result_type (so np.where refuses) while "
            "its ufunc loops accept them, and it casts complex to bfloat16 'same_kind': the numpy policy "
            "uses the ufuncs' answer everywhere and NumPy's own casting rule.",
            lambda op, key, seen: (
                "bfloat16" in key and (op == "where" or (op == "iadd" and "complex" in key))
            ),
        ),
    ),
    "jax": (
        Deviation(
            "jnp.power with a concrete integer exponent (a Python int or bool, or a 0-d integer or bool "
            "array outside jit) lowers to lax.integer_pow and keeps the base's dtype whatever the "
            "exponent's (a bool base as int32), while a traced exponent promotes; the jax policy "
            "promotes, so that the dtype does not depend on tracing.",
            _concrete_integer_exponent,
        ),
    ),
    "array-api": (
        Deviation(
            "array-api-strict lets a Python complex into real-only maximum/minimum/less with real "
            "floating arrays; the standard does not define it and the array-api policy refuses.",
            lambda op, key, seen: op in ("maximum", "minimum", "less") and "py:complex" in key,
        ),
        Deviation(
            "array-api-strict's matmul does not check promotion; the array-api policy refuses the "
            "mixed-kind pairs the standard leaves undefined.",
            lambda op, key, seen: op == "matmul" and seen != "refused",
        ),
    ),
}


#: The outputs of the tuple-valued one-array functions: ``same`` is the dtype the policy's
#: ``functions`` grid gives, ``real`` its real dtype of the same precision.
FUNCTION_OUTPUTS: dict[str, tuple[str, ...]] = {
    "linalg.eigh": ("real", "same"),
    "linalg.qr": ("same", "same"),
    "linalg.slogdet": ("same", "real"),
    "linalg.svd": ("same", "real", "same"),
}


def _complex_in(op: str, key: str) -> bool:
    return key.startswith("complex")


#: The one-array functions' deviations in every TF mode (their observations are alike).
_TF_FUNCTIONS: tuple[Deviation, ...] = (
    Deviation(
        "tf.experimental.numpy.log2/log10 divide by a NumPy float64 constant and give float64 "
        "(float32 input included); the policy gives log's dtype.",
        lambda op, key, seen: op in ("log2", "log10") and not key.startswith(("float64", "complex128")),
    ),
    Deviation(
        "tf.linalg.pinv refuses complex matrices that inv, det and qr take; the policy takes them.",
        lambda op, key, seen: op == "linalg.pinv" and _complex_in(op, key),
    ),
    Deviation(
        "TF returns eigvalsh (and eigh's eigenvalues, slogdet's log|det|) of a complex matrix in "
        "the complex dtype; the policy gives the real dtype, as TF's svdvals does.",
        lambda op, key, seen: (
            op in ("linalg.eigvalsh", "linalg.eigh", "linalg.slogdet") and _complex_in(op, key)
        ),
    ),
)

#: Documented disagreements of the one-array functions: ``applies(op, key, observed)``.
FUNCTION_DEVIATIONS: dict[str, tuple[Deviation, ...]] = {
    "jax": (
        Deviation(
            "jnp.linalg.vector_norm of a bool or integer array of up to 32 bits gives float64 (it sums "
            "in the accumulation dtype, int64, before the square root), matrix_norm float32; the jax "
            "policy gives both the inexact dtype, float32.",
            lambda op, key, seen: op == "linalg.vector_norm" and seen == "float64" and "64" not in key,
        ),
    ),
    "pytorch": (
        Deviation(
            "fft/rfft of a float16 tensor give complex32 in PyTorch (CUDA only); promo_ns has no "
            "complex32 and gives complex64.",
            lambda op, key, seen: seen == "complex32",
        ),
    ),
    "array-api": (
        Deviation(
            "array-api-strict computes linalg.matrix_rank of bool and integer matrices; the standard "
            "says floating-point input and the array-api policy refuses them.",
            lambda op, key, seen: op == "linalg.matrix_rank" and not key.startswith(("float", "complex")),
        ),
    ),
    "paddle": (
        Deviation(
            "Paddle's linalg.matrix_norm of a complex matrix gives the complex dtype (its vector_norm "
            "the real one); the paddle policy gives the real dtype to both.",
            lambda op, key, seen: op == "linalg.matrix_norm" and _complex_in(op, key),
        ),
        Deviation(
            "Paddle's linalg.slogdet returns sign and log|det| stacked in one tensor; promo_ns returns "
            "the standard's pair.",
            lambda op, key, seen: op == "linalg.slogdet" and "," not in seen and seen != "refused",
        ),
    ),
    "tf-safe": _TF_FUNCTIONS,
    "tf-all": _TF_FUNCTIONS,
    "tf-legacy": _TF_FUNCTIONS,
}


def function_deviation(policy: str, op: str, key: str, seen: str) -> Deviation | None:
    """The documented deviation covering a one-array function cell, if any."""
    return next((d for d in FUNCTION_DEVIATIONS.get(policy, ()) if d.applies(op, key, seen)), None)


def function_answer(policy: str, op: str, key: str) -> str:
    """The policy's answer for a one-array function cell, in the observations' vocabulary."""
    import promo_ns
    from promo_ns._dtypes import BY_NAME, real_float
    from promo_ns._engine.functions import function_dtype

    try:
        dtype = function_dtype(promo_ns.get_policy(policy), op, BY_NAME[key.split(":", maxsplit=1)[0]])
    except promo_ns.PromotionError:
        return "refused"
    parts = FUNCTION_OUTPUTS.get(op, ("same",))
    return ",".join((dtype if part == "same" else real_float(dtype)).name for part in parts)


def function_observations(policy: str, *, live: bool = True) -> dict[str, Any]:
    """The framework's one-array function observations: probed now where cheap and ``live``, else stored."""
    module, cheap = CHECKERS[policy]
    if live and cheap:
        checker = import_module(f"conformance.frameworks.{module}")
        return {"framework": checker.NAME, "version": checker.VERSION, "ops": checker.probe_functions()}
    return _cells.load(_cells.function_reference(policy))


#: The buckets of a one-array function cell, in the report's order; the first three agree.
FUNCTION_BUCKETS = (
    "same dtype",
    "both refuse",
    "decided without a kernel",
    "deviation",
    "framework cannot run",
    "disagree",
)
_FUNCTION_AGREE = FUNCTION_BUCKETS[:3]


def function_bucket(policy: str, op: str, key: str, seen: str) -> tuple[str, Deviation | None, str | None]:
    """A function cell's bucket, the deviation covering it and the policy's answer (where compared).

    Cells the framework could not run (``"unsupported: ..."``) and documented
    deviations are not compared; ``"decided without a kernel"`` is left to the
    caller, which knows the framework's ``no_kernel`` cells.
    """
    if seen.startswith("unsupported"):
        return "framework cannot run", None, None
    found = function_deviation(policy, op, key, seen)
    if found is not None:
        return "deviation", found, None
    got = function_answer(policy, op, key)
    if got != seen:
        return "disagree", None, got
    return ("both refuse" if seen == "refused" else "same dtype"), None, got


def function_diff(policy: str, observed: dict[str, dict[str, str]]) -> tuple[list[str], Counter[str]]:
    """Every function cell where the policy disagrees with an observation the framework decided.

    Cells the framework could not run (``"unsupported: ..."``) are not compared;
    documented deviations are counted by reason.
    """
    rows: list[str] = []
    deviations: Counter[str] = Counter()
    for op, cells in observed.items():
        for key, seen in cells.items():
            bucket, found, got = function_bucket(policy, op, key, seen)
            if found is not None:
                deviations[found.reason] += 1
            elif bucket == "disagree":
                rows.append(f"{op:<20} {key:<28} framework={seen:<20} promo_ns={got}")
    return rows, deviations


def decided_without_kernel(data: dict[str, Any]) -> set[tuple[str, str]]:
    """The ``(op, key)`` cells the framework decided without running (its ``no_kernel`` list).

    The entries read ``"<op> <key>"``, optionally followed by ``": <why>"``.
    """
    out = set()
    for entry in data.get("no_kernel", ()):
        op, _, rest = str(entry).partition(" ")
        out.add((op, rest.split(": ", maxsplit=1)[0]))
    return out


@dataclass
class FunctionFidelity:
    """The comparison of one policy's ``functions`` grid with its framework, and promo_ns on each backend."""

    policy: str
    framework: str
    version: str
    #: family -> bucket -> cells.
    families: dict[str, Counter[str]] = field(default_factory=dict)
    #: (op, key, framework, policy) of every disagreement.
    disagreements: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: reason -> the (op, key) cells it covers.
    deviations: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: (op, key, the framework's decided dtype, the policy's answer, bucket) of the cells the
    #: framework decided without a kernel.
    decided: list[tuple[str, str, str, str, str]] = field(default_factory=list)
    #: (op, reason) -> the input dtypes the framework cannot run.
    cannot_run: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    #: backend -> ``"policy's answer"`` / ``"no backend kernel"`` / ``"differs"`` -> cells.
    backends: dict[str, Counter[str]] = field(default_factory=dict)
    #: (backend, op, key, policy, promo_ns) of every cell where a backend's result is not the policy's.
    backend_differs: list[tuple[str, str, str, str, str]] = field(default_factory=list)

    def agreement(self, family: str | None = None) -> tuple[int, int]:
        """Agreeing cells and decided cells (agreeing or not), of one family or all."""
        counts = [self.families[family]] if family is not None else list(self.families.values())
        agree = sum(c[b] for c in counts for b in _FUNCTION_AGREE)
        return agree, agree + sum(c["disagree"] for c in counts)


def _general_reason(reason: str, dtype: str) -> str:
    """A framework's reason with the input dtype written ``<dtype>``, so that cells group by reason."""
    return re.sub(rf"(?<![\w.]){dtype}(?![\w])", "<dtype>", reason.removeprefix("unsupported: "))


def compare_functions(
    policy: str, data: dict[str, Any], backends: Sequence[str] = BACKENDS
) -> FunctionFidelity:
    """Bucket every observed function cell, and run every cell through promo_ns on each backend."""
    from promo_ns._ops import FUNCTION_FAMILY
    from promo_ns.policies._model import FUNCTION_FAMILIES

    out = FunctionFidelity(policy, str(data["framework"]), str(data["version"]))
    out.families = {family: Counter() for family in FUNCTION_FAMILIES}
    no_kernel = decided_without_kernel(data)
    for op, cells in data["ops"].items():
        for key, seen in cells.items():
            bucket, dev, got = function_bucket(policy, op, key, seen)
            if (op, key) in no_kernel and bucket != "framework cannot run":
                bucket = "decided without a kernel" if bucket == "same dtype" else bucket
                out.decided.append((op, key, seen, function_answer(policy, op, key), bucket))
            out.families[FUNCTION_FAMILY[op]][bucket] += 1
            if dev is not None:
                out.deviations.setdefault(dev.reason, []).append((op, key))
            elif bucket == "disagree":
                out.disagreements.append((op, key, seen, str(got)))
            elif bucket == "framework cannot run":
                dtype = key.split(":", maxsplit=1)[0]
                out.cannot_run.setdefault((op, _general_reason(seen, dtype)), []).append(dtype)
    for backend in backends:
        counts = out.backends[backend] = Counter()
        promo = PromoNs(backend, policy)
        for op in _cells.FUNCTION_OPS:
            for key in _cells.function_cells(op):
                want = function_answer(policy, op, key)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # atanh(1), an int8 log ...
                    got = _cells.observe_function(promo, op, key)
                if got == want:
                    counts["policy's answer"] += 1
                elif got.startswith("unsupported"):
                    counts["no backend kernel"] += 1
                else:
                    counts["differs"] += 1
                    out.backend_differs.append((backend, op, key, want, got))
    return out


#: Documented disagreements of ``asarray`` of nested data: ``applies("asarray", case, observed)``.
#: A deviation explains a cell only where promo_ns differs from the framework.
NESTED_DEVIATIONS: dict[str, tuple[Deviation, ...]] = {
    "pytorch": (
        Deviation(
            "promo_ns stacks nested 1-d (or larger) tensors, where torch.tensor raises (only "
            "one-element tensors convert to Python scalars); their dtype follows the rule of 0-d ones.",
            lambda op, case, seen: ":1d" in case,
        ),
    ),
    "paddle": (
        Deviation(
            "Paddle's to_tensor gives a list holding a NumPy float scalar float32 (np.float64 with 1.5 "
            "included); promo_ns promotes NumPy scalars as NumPy's 0-d arrays, by NumPy's rules.",
            lambda op, case, seen: "np." in case,
        ),
    ),
}
NESTED_BUCKETS = ("same dtype", "both refuse", "deviation", "framework cannot run", "disagree")


@dataclass
class NestedFidelity:
    """``asarray`` of nested data under one policy, on each backend, against the framework's creation call."""

    policy: str
    call: str
    #: case -> the framework's observation, and promo_ns's on each backend.
    rows: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    #: case -> its bucket on each backend.
    buckets: dict[str, dict[str, str]] = field(default_factory=dict)
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    #: reason -> the cases it covers.
    deviations: dict[str, list[str]] = field(default_factory=dict)
    #: NumPy's call -> (NumPy's dtype, promo_ns's on each backend); the ``numpy`` policy only.
    numpy_scalars: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)

    def agreement(self, backend: str) -> tuple[int, int]:
        """Agreeing cases and decided cases on ``backend``."""
        c = self.counts[backend]
        agree = c["same dtype"] + c["both refuse"]
        return agree, agree + c["disagree"]


def _nested_element(xp: Any, token: str) -> Any:
    """A case's element for promo_ns (see :mod:`conformance.frameworks.nested`)."""
    import numpy as np

    head, _, role = token.partition(":")
    if head == "py":
        return {"int": 1, "float": 1.5}[role]
    if head.startswith("np."):
        return getattr(np, head[3:])(1)
    return xp.ones(() if role == "0d" else (2,), dtype=getattr(xp, head))


def nested_outcome(xp: Any, case: str) -> str:
    """What promo_ns's ``asarray`` makes of a case: ``"<dtype> <shape>"``, ``"refused"``, ``"error: ..."``."""
    import promo_ns

    try:
        out = xp.asarray([_nested_element(xp, t.strip()) for t in case.split(",")])
    except promo_ns.PromotionError:
        return "refused"
    except Exception as exc:
        return f"error: {type(exc).__name__}: {str(exc)[:100]}"
    return f"{out.dtype} {list(out.shape)}"


def _nested_seen(seen: str) -> str:
    """A framework's observation in promo_ns's vocabulary: its errors are refusals, save a missing dtype."""
    if seen.startswith("error: LookupError"):
        return "unsupported"
    return "refused" if seen.startswith("error") else seen


def compare_nested(policy: str, data: dict[str, Any], backends: Sequence[str] = BACKENDS) -> NestedFidelity:
    """Every stored nested-creation case through promo_ns's ``asarray`` on each backend."""
    import promo_ns

    call, observed = nested.creation_observations(policy, data)
    out = NestedFidelity(policy, call)
    spaces = {b: promo_ns.namespace(b, policy=policy) for b in backends}
    out.counts = {b: Counter() for b in backends}
    for case, raw in observed.items():
        seen = _nested_seen(raw)
        got = {b: nested_outcome(xp, case) for b, xp in spaces.items()}
        out.rows[case] = (raw, got)
        buckets = out.buckets[case] = {}
        for backend, outcome in got.items():
            dev = next(
                (d for d in NESTED_DEVIATIONS.get(policy, ()) if d.applies("asarray", case, raw)), None
            )
            if seen == "unsupported":
                bucket = "framework cannot run"
            elif outcome == seen:
                bucket = "both refuse" if seen == "refused" else "same dtype"
            elif dev is not None:
                bucket = "deviation"
                if case not in out.deviations.setdefault(dev.reason, []):
                    out.deviations[dev.reason].append(case)
            else:
                bucket = "disagree"
            buckets[backend] = bucket
            out.counts[backend][bucket] += 1
    if policy == "numpy":
        ours = {b: nested.numpy_scalar_calls(xp) for b, xp in spaces.items()}
        for name, want in data.get("numpy_scalars", {}).items():
            out.numpy_scalars[name] = (want, {b: ours[b][name] for b in backends})
    return out


def deviation(policy: str, op: str, key: str, seen: str, *, values: bool = False) -> Deviation | None:
    """The documented deviation covering a cell (``values``: covering its value only), if any."""
    return next(
        (d for d in DEVIATIONS.get(policy, ()) if d.values_only == values and d.applies(op, key, seen)), None
    )


def in_place_contract(op: str, key: str, seen: str) -> str:
    """An observation as promo_ns's in-place contract reads it.

    promo_ns never changes the left operand's dtype in place: where the
    framework's in-place op (Paddle's ``Tensor.add_``) returns another dtype,
    the policy must refuse, so that observation counts as ``"refused"``.
    """
    if op == "iadd" and seen in _cells.DTYPES and seen != key.split(":", maxsplit=1)[0]:
        return "refused"
    return seen


def observations(policy: str, *, live: bool = True) -> dict[str, Any]:
    """The framework's observations for ``policy``: probed now where cheap and ``live``, else stored."""
    module, cheap = CHECKERS[policy]
    if live and cheap:
        checker = import_module(f"conformance.frameworks.{module}")
        ops, values = checker.probe()
        return {"framework": checker.NAME, "version": checker.VERSION, "ops": ops, "values": values}
    return _cells.load(_cells.reference(policy))


class PromoNs:
    """promo_ns under one policy on one backend, as a :class:`~conformance.frameworks._cells.Framework`."""

    def __init__(self, backend: str, policy: str) -> None:
        import promo_ns

        name, _, device = backend.partition(":")  # "torch:cuda"
        self.xp = promo_ns.namespace(name, policy=policy, device=device or None)
        self.name = f"promo_ns[{backend}]"
        self.version = promo_ns.__version__
        self._refusal = promo_ns.PromotionError
        self._arrays: dict[tuple[str, str, int], Any] = {}

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """Ones of ``dtype``: one array per operand token, which no cell's op writes (``iadd`` copies)."""
        key = (dtype, role, ndim)
        made = self._arrays.get(key)
        if made is None:
            xp = self.xp
            try:
                made = xp.ones(() if role == "0d" else (2,) * ndim, dtype=getattr(xp, dtype))
            except TypeError as exc:  # the backend lacks the dtype (bfloat16 on CuPy)
                raise LookupError(str(exc)) from exc
            self._arrays[key] = made
        return made

    def data(self, values: list[Any], dtype: str) -> Any:
        """An array of ``dtype`` holding ``values``."""
        xp = self.xp
        try:
            return xp.asarray(values, dtype=getattr(xp, dtype))
        except TypeError as exc:  # the backend lacks the dtype
            raise LookupError(str(exc)) from exc

    def run(self, op: str, args: list[Any]) -> Any:
        """Run the namespace's function for ``op``."""
        return _cells.standard_call(self.xp, op, args)

    def dtype_name(self, result: Any) -> str:
        """The result's dtype name."""
        return str(result.dtype)

    def classify(self, exc: BaseException) -> str:
        """A PromotionError is a refusal; a backend without the kernel is unsupported; else an error."""
        if isinstance(exc, self._refusal):
            return "refused"
        msg = str(exc).split("\n", maxsplit=1)[0]
        if isinstance(exc, NotImplementedError) or any(s in msg for s in _NO_KERNEL):
            return f"unsupported: {type(exc).__name__}: {msg[:100]}"
        return f"error: {type(exc).__name__}: {msg[:160]}"

    def value(self, result: Any) -> Any:
        """The first element as a Python scalar."""
        first = self.xp.reshape(result, (-1,))[0]
        return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[result.dtype.kind](first)


def same_value(got: Any, want: Any, dtype: str) -> bool:
    """Whether two JSON values agree: exactly, or within a few ulps of ``dtype``."""
    if got is None or want is None:
        return True
    if dtype not in _cells.DTYPES or dtype == "bool" or "int" in dtype:
        return bool(got == want)
    a = complex(*got) if isinstance(got, list) else complex(got)
    b = complex(*want) if isinstance(want, list) else complex(want)
    if a != a or b != b:  # NaN
        return (a.real != a.real or a.imag != a.imag) == (b.real != b.real or b.imag != b.imag)
    if a == b:
        return True
    eps = 4 * _EPS.get(dtype, 2.0**-52)
    return abs(a - b) <= eps * max(1.0, abs(b))


@dataclass
class Fidelity:
    """The comparison of one policy with its framework on every backend."""

    policy: str
    framework: str
    version: str
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    disagreements: list[tuple[str, str, str, str, str]] = field(default_factory=list)
    deviations: Counter[str] = field(default_factory=Counter)
    cannot_run: Counter[str] = field(default_factory=Counter)
    no_kernel: Counter[tuple[str, str]] = field(default_factory=Counter)

    def agreement(self, backend: str) -> float:
        """Agreeing cells over the cells the framework decided, not counting documented deviations."""
        c = self.counts[backend]
        decided = c["agree"] + c["disagree"]
        return c["agree"] / decided if decided else 1.0


def compare(policy: str, data: dict[str, Any], backends: Sequence[str] = BACKENDS) -> Fidelity:
    """Run every observed cell through promo_ns on each backend and bucket it."""
    out = Fidelity(policy, str(data["framework"]), str(data["version"]))
    values: dict[str, dict[str, Any]] = data.get("values", {})
    for backend in backends:
        counts = out.counts[backend] = Counter()
        promo = PromoNs(backend, policy)
        for op, cells in data["ops"].items():
            for key, raw in cells.items():
                seen = in_place_contract(op, key, raw)
                if seen.startswith("unsupported"):
                    counts["framework cannot run"] += 1
                    out.cannot_run[seen.removeprefix("unsupported: ")[:90]] += backend == backends[0]
                    continue
                dev = deviation(policy, op, key, seen)
                if dev is not None:
                    counts["deviation"] += 1
                    out.deviations[dev.reason] += backend == backends[0]
                    continue
                got, value = _cells.observe_value(promo, op, key)
                want = values.get(op, {}).get(key)
                if got.startswith("unsupported"):
                    counts["no backend kernel"] += 1
                    out.no_kernel[(backend, op)] += 1
                elif got != seen:
                    counts["disagree"] += 1
                    out.disagreements.append((backend, op, key, seen, got))
                elif same_value(value, want, got):
                    counts["agree"] += 1
                elif (dev := deviation(policy, op, key, seen, values=True)) is not None:
                    counts["deviation"] += 1
                    out.deviations[dev.reason] += backend == backends[0]
                else:
                    counts["disagree"] += 1
                    out.disagreements.append((backend, op, key, f"{seen} = {want}", f"{got} = {value}"))
    return out
