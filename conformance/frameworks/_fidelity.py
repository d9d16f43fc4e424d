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

``python -m conformance.frameworks [POLICY ...]`` writes ``docs/conformance/<policy>.md``
from the stored observations; each checker's ``main`` writes it after probing.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from conformance.frameworks import _cells

#: The framework checker module of each policy, and whether the test suite probes it live.
CHECKERS: dict[str, tuple[str, bool]] = {
    "array-api": ("array_api_strict", True),
    "pytorch": ("torch", True),
    "numpy": ("numpy", True),
    "paddle": ("paddle", False),
    "tf-safe": ("tensorflow", False),
}
BACKENDS = ("numpy", "torch")
BUCKETS = ("agree", "deviation", "framework cannot run", "no backend kernel", "disagree")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "conformance"
#: Messages of a backend without a kernel for the dtypes (promo_ns's own guard says "no kernel").
_NO_KERNEL = (
    "kernel that computes",
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


DEVIATIONS: dict[str, tuple[Deviation, ...]] = {
    "paddle": (
        Deviation(
            "Paddle rebuilds a 0-d float64/complex128 tensor divided, remaindered or raised to a Python "
            "complex as a shape-[1] complex64 tensor, dropping precision; the paddle policy keeps its "
            "promotion (complex128).",
            _paddle_complex_0d,
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
        Deviation(
            "TF's eager converter refuses a Python True for several dtypes that its own safe-mode table "
            "allows; tf-safe follows the table.",
            lambda op, key, seen: "py:bool" in key and seen == "refused",
        ),
        Deviation(
            "A Python int outside the array dtype's range: tf-safe follows RFC 431 and refuses it; "
            "TF 2.21 wraps it around.",
            lambda op, key, seen: op == "add_out_of_range",
        ),
        Deviation(
            "TF has no logaddexp op; tf.experimental.numpy.logaddexp of a Python float and a bool or "
            "bfloat16 tensor returns float64 computed in float32; promo_ns computes in float64.",
            lambda op, key, seen: (
                op == "logaddexp" and "py:float" in key and ("bool" in key or "bfloat16" in key)
            ),
            values_only=True,
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


#: Documented disagreements of the one-array functions: ``applies(op, key, observed)``.
FUNCTION_DEVIATIONS: dict[str, tuple[Deviation, ...]] = {
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
    "tf-safe": (
        Deviation(
            "tf.experimental.numpy.log2/log10 divide by a NumPy float64 constant and give float64 "
            "(float32 input included); tf-safe gives log's dtype.",
            lambda op, key, seen: op in ("log2", "log10") and not key.startswith(("float64", "complex128")),
        ),
        Deviation(
            "tf.linalg.pinv refuses complex matrices that inv, det and qr take; tf-safe takes them.",
            lambda op, key, seen: op == "linalg.pinv" and _complex_in(op, key),
        ),
        Deviation(
            "TF returns eigvalsh (and eigh's eigenvalues, slogdet's log|det|) of a complex matrix in "
            "the complex dtype; tf-safe gives the real dtype, as TF's svdvals does.",
            lambda op, key, seen: (
                op in ("linalg.eigvalsh", "linalg.eigh", "linalg.slogdet") and _complex_in(op, key)
            ),
        ),
    ),
}


def function_deviation(policy: str, op: str, key: str, seen: str) -> Deviation | None:
    """The documented deviation covering a one-array function cell, if any."""
    return next((d for d in FUNCTION_DEVIATIONS.get(policy, ()) if d.applies(op, key, seen)), None)


def function_answer(policy: str, op: str, key: str) -> str:
    """The policy's answer for a one-array function cell, in the observations' vocabulary."""
    import promo_ns
    from promo_ns._dtypes import BY_NAME, real_float
    from promo_ns._engine import function_dtype

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


def function_diff(policy: str, observed: dict[str, dict[str, str]]) -> tuple[list[str], Counter[str]]:
    """Every function cell where the policy disagrees with an observation the framework decided.

    Cells the framework could not run (``"unsupported: ..."``) are not compared;
    documented deviations are counted by reason.
    """
    rows: list[str] = []
    deviations: Counter[str] = Counter()
    for op, cells in observed.items():
        for key, seen in cells.items():
            if seen.startswith("unsupported"):
                continue
            found = function_deviation(policy, op, key, seen)
            if found is not None:
                deviations[found.reason] += 1
                continue
            got = function_answer(policy, op, key)
            if got != seen:
                rows.append(f"{op:<20} {key:<28} framework={seen:<20} promo_ns={got}")
    return rows, deviations


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

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """Ones of ``dtype``."""
        xp = self.xp
        try:
            return xp.ones(() if role == "0d" else (2,) * ndim, dtype=getattr(xp, dtype))
        except TypeError as exc:  # the backend lacks the dtype (bfloat16 on CuPy)
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


def _section(title: str, head: str, rows: list[str]) -> list[str]:
    """A Markdown section: a table under ``head``, or "None."."""
    return ["", f"## {title}", "", *((head.split("\n") + rows) if rows else ["None."])]


def markdown(f: Fidelity) -> str:
    """The report page for one policy."""
    lines = [
        f"# Policy `{f.policy}` against {f.framework} {f.version}",
        "",
        f"Generated by `python -m conformance.frameworks {f.policy}` from the observations in",
        f"`tests/reference/{f.policy}.json`, written by",
        f"`python -m conformance.frameworks.{CHECKERS[f.policy][0]}`; do not edit by hand.",
        "Every cell is an op on two operands of a (dtype, role) each -- roles n-d array, 0-d array,",
        "Python bool/int/float/complex -- as enumerated by `conformance/frameworks/_cells.py`;",
        "promo_ns runs each one with the same policy on each backend and compares the dtype (or the",
        "refusal) and the value with the framework's.",
        "",
        "| backend | " + " | ".join(BUCKETS) + " | agreement |",
        "|---|" + "---:|" * (len(BUCKETS) + 1),
    ]
    for backend, c in f.counts.items():
        counts = " | ".join(str(c[b]) for b in BUCKETS)
        lines.append(f"| promo_ns on {backend} | {counts} | {100 * f.agreement(backend):.2f}% |")
    lines += ["", "Agreement is `agree / (agree + disagree)`: every cell where the framework decides a"]
    lines += ["dtype or refuses, except the documented deviations below."]
    disagreements = [f"| {b} | {op} | `{k}` | {s} | {g} |" for b, op, k, s, g in f.disagreements]
    lines += _section(
        "Disagreements",
        "| backend | op | cell | framework | promo_ns |\n|---|---|---|---|---|",
        disagreements,
    )
    deviations = [f"| {n} | {r} |" for r, n in sorted(f.deviations.items())]
    lines += _section("Documented deviations", "| cells | reason |\n|---:|---|", deviations)
    cannot = [f"| {n} | {r.replace('|', '/')} |" for r, n in sorted(f.cannot_run.items())]
    lines += _section(
        "Cells the framework cannot run (not compared)", "| cells | reason |\n|---:|---|", cannot
    )
    no_kernel = [f"| {b} | {op} | {n} |" for (b, op), n in sorted(f.no_kernel.items())]
    head = "The policy decides these; the wrapped backend has no kernel for the result dtype.\n\n"
    lines += _section(
        "Cells without a backend kernel", head + "| backend | op | cells |\n|---|---|---:|", no_kernel
    )
    return "\n".join(lines) + "\n"


def write_report(policy: str) -> Fidelity:
    """Compare promo_ns with the stored observations and write ``docs/conformance/<policy>.md``."""
    f = compare(policy, _cells.load(_cells.reference(policy)))
    DOCS.mkdir(parents=True, exist_ok=True)
    path = DOCS / f"{policy}.md"
    path.write_text(markdown(f))
    rates = ", ".join(f"{b} {100 * f.agreement(b):.2f}%" for b in f.counts)
    print(f"{policy}: agreement {rates}; {len(f.disagreements)} disagreements; wrote {path}", file=sys.stderr)
    return f


def main(argv: Sequence[str] | None = None) -> int:
    """Write the reports of the given policies (default: all) from the stored observations."""
    policies = list(argv if argv is not None else sys.argv[1:]) or list(CHECKERS)
    unknown = [p for p in policies if p not in CHECKERS]
    if unknown:
        print(f"unknown policy {unknown[0]!r}; expected one of {', '.join(CHECKERS)}", file=sys.stderr)
        return 2
    failed = [p for p in policies if write_report(p).disagreements]
    return 1 if failed else 0
