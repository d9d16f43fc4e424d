"""Observations compared: promo_ns against its policy's framework, and each backend against NumPy's.

Two observations agree when both refuse (the same class: ``refused``,
``error: <Class>``), or both give the same dtypes, shapes and values.  Values
agree bit for bit (any NaN equals any NaN; ``0.0`` and ``-0.0`` differ), except
for the ops of :data:`INEXACT` (transcendental functions, float reductions,
products, ``linalg``, ``fft``, ``linspace``), whose float values agree within
:data:`ULPS` units in the last place of the result dtype -- of each element
for elementwise functions, of the largest magnitude of the result for the rest.
The bound is the same on every backend.  A value not computed (``?``: a dtype
decided without a kernel, eigenvectors) is not compared.

Buckets of a framework comparison (as :mod:`conformance.frameworks._fidelity`):
``agree``, ``deviation`` (documented in :mod:`conformance.probe._deviations` and ``_token_deviations``, or in
``conformance.frameworks._fidelity``'s tables, read through the old cell names),
``framework cannot run`` (no kernel, no such spelling, or a dtype decided without
a kernel where promo_ns raises a value error), ``no backend kernel`` (the backend
promo_ns wraps), ``no promo_ns spelling`` (a framework's in-place method promo_ns
has no operator for), ``backend difference`` (on a backend other than NumPy's, a
disagreement where promo_ns differs from promo_ns on NumPy's as the table of known
cross-backend differences, :mod:`conformance.probe._known`, says) and ``disagree``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.probe._observed import decode, dtypes_of, is_result
from conformance.probe._space import Case, family, operand

__all__ = ["BUCKETS", "INEXACT", "ULPS", "Comparison", "agree", "bucket", "compare"]

ULPS = 4
_TRANSCENDENTAL = (
    *("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan", "tanh"),
    *("exp", "expm1", "log", "log1p", "log2", "log10", "pow", "atan2", "hypot", "logaddexp"),
)
_WHOLE = (
    *("sum", "prod", "cumulative_sum", "cumulative_prod", "mean", "std", "var", "linalg.trace", "linspace"),
    *("matmul", "tensordot", "vecdot", "linalg.matmul", "linalg.tensordot", "linalg.vecdot", "linalg.solve"),
)
#: op -> whether its bound is per element (True) or relative to the result's largest magnitude.
INEXACT: dict[str, bool] = {
    **dict.fromkeys(_TRANSCENDENTAL, True),
    **dict.fromkeys(_WHOLE, False),
}
BUCKETS = (
    "agree",
    "deviation",
    "framework cannot run",
    "no backend kernel",
    "no promo_ns spelling",
    "backend difference",
    "disagree",
)
FRAMEWORKS: dict[str, str] = {
    "pytorch": "torch",
    "numpy": "numpy",
    "array-api": "array_api_strict",
    "paddle": "paddle",
    "tf-safe": "tensorflow",
    "jax": "jax",
    "tf-all": "tensorflow",
    "tf-legacy": "tensorflow",
}
_EPS = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 2.0**-23, "float64": 2.0**-52}
_REAL = {"complex64": "float32", "complex128": "float64"}


def _inexact(op: str) -> bool | None:
    if op.startswith(("linalg.", "fft.")):
        return False
    return INEXACT.get(op)


def _same_floats(
    a: np.ndarray[Any, Any],
    b: np.ndarray[Any, Any],
    dtype: str,
    per_element: bool | None,
    magnitude: np.ndarray[Any, Any] | None = None,
) -> bool:
    """Bits equal (NaNs alike), or within an inexact op's bound (``magnitude``: of the complex values)."""
    a, b = a.astype(np.float64), b.astype(np.float64)
    nan = np.isnan(a) & np.isnan(b)
    exact = (a == b) & (np.signbit(a) == np.signbit(b))
    if per_element is None or bool(np.all(nan | exact)):
        return bool(np.all(nan | exact))
    finite = np.isfinite(a) & np.isfinite(b)
    eps = _EPS.get(dtype, 2.0**-52)
    size = np.abs(b) if magnitude is None else magnitude
    scale = size if per_element else np.full_like(b, np.max(size[np.isfinite(size)], initial=0.0))
    tiny = {"float16": 2.0**-14, "bfloat16": 2.0**-126, "float32": 2.0**-126}.get(dtype, 2.0**-1022)
    close = finite & (np.abs(a - b) <= ULPS * eps * np.maximum(scale, tiny))
    return bool(np.all(nan | exact | close))


def same_part(x: str, y: str, op: str) -> bool:
    """Whether two parts ``"<dtype> <shape> <hex>"`` agree (see the module docstring)."""
    if x == y:
        return True
    dx, sx, hx = x.split(" ")
    dy, sy, hy = y.split(" ")
    if dx != dy:
        return False
    if "?" in (hx, hy):  # decided without computing: the dtype is what can be compared
        return True
    if sx != sy:
        return False
    a, b = decode(dx, hx), decode(dy, hy)
    if a.shape != b.shape:
        return False
    if dx.startswith("complex"):
        real = _REAL[dx]
        size = np.abs(b.astype(np.complex128))
        inexact = _inexact(op)
        return _same_floats(a.real, b.real, real, inexact, size) and _same_floats(
            a.imag, b.imag, real, inexact, size
        )
    if dx.startswith(("float", "bfloat")):
        return _same_floats(a, b, dx, _inexact(op))
    return False


def agree(x: str, y: str, op: str) -> bool:
    """Whether two observations of one case agree (see the module docstring)."""
    if x == y or (x.startswith("unsupported") and y.startswith("unsupported")):
        return True
    if not (is_result(x) and is_result(y)):
        return False
    px, py = x.split("; "), y.split("; ")
    return len(px) == len(py) and all(same_part(a, b, op) for a, b in zip(px, py, strict=True))


# --- the old cell names, for the documented deviations of conformance.frameworks._fidelity -------


def _legacy_token(token: str) -> str:
    o = operand(token)
    if o.what == "array":
        return f"{o.dtype}:{'0d' if o.shape == '0d' else 'nd'}"
    if o.what == "py":
        return f"py:{o.dtype}"
    return token


def legacy_cell(case: Case) -> tuple[str, str]:
    """The ``(op, key)`` of :mod:`conformance.frameworks._cells` closest to ``case``."""
    op = "iadd" if case.spelling in ("inplace", "method_") and case.op == "add" else case.op
    if case.kind == "nary" and case.op == "where":
        return "where", "|".join(_legacy_token(t) for t in case.args[1:])
    if case.kind in ("elementwise", "reduction", "linalg", "fft"):
        return op, _legacy_token(case.args[0])
    return op, "|".join(_legacy_token(t) for t in case.args)


def deviation(policy: str, case: Case, seen: str, got: str = "", *, values: bool = False) -> str | None:
    """The reason of a documented deviation covering ``case`` (``values``: its values only), if any."""
    from conformance.frameworks import _fidelity
    from conformance.probe import _deviations, _token_deviations

    reason = _deviations.find(policy, case, seen, got, values=values)
    if reason is not None:
        return reason
    op, key = legacy_cell(case)
    legacy_seen = dtypes_of(seen)
    if case.kind in ("elementwise", "reduction", "linalg", "fft"):
        found = _fidelity.function_deviation(policy, op, key, legacy_seen)
        return found.reason if found is not None and not values else None
    # the framework cells' deviations, then the probe's own (read with the Python scalars' values)
    found = _fidelity.deviation(policy, op, key, legacy_seen, values=values) or _token_deviations.deviation(
        policy, op, "|".join(case.args), legacy_seen, values=values
    )
    return found.reason if found is not None else None


def bucket(policy: str, case: Case, seen: str, got: str) -> tuple[str, str | None]:
    """The bucket of one case (framework ``seen``, promo_ns ``got``) and the deviation's reason, if any."""
    if seen == "absent" or seen.startswith("unsupported"):
        return "framework cannot run", None
    if got == "absent":
        return "no promo_ns spelling", None
    if got.startswith("unsupported"):
        return "no backend kernel", None
    # a dtype decided without a kernel (the framework computed no values) cannot meet a value error
    if got.startswith("error") and is_result(seen) and all(p.endswith(" ?") for p in seen.split("; ")):
        return "framework cannot run", None
    # promo_ns never changes an in-place target's dtype: a framework that does is refusing in our terms
    if (
        case.spelling in ("inplace", "method_")
        and is_result(seen)
        and dtypes_of(seen) != operand(case.args[0]).dtype
    ):
        seen = "refused"
    if agree(seen, got, case.op):
        return "agree", None
    if dtypes_of(seen) == dtypes_of(got) and is_result(seen):
        reason = deviation(policy, case, seen, got, values=True)
    else:
        reason = deviation(policy, case, seen, got)
    return ("deviation", reason) if reason is not None else ("disagree", None)


@dataclass
class Comparison:
    """Buckets of every case of one policy on one backend: by family, by spelling, and the disagreements."""

    policy: str
    backend: str
    counts: Counter[str] = field(default_factory=Counter)
    by_family: dict[str, Counter[str]] = field(default_factory=dict)
    by_spelling: dict[str, Counter[str]] = field(default_factory=dict)
    #: (case key, framework, promo_ns) of every disagreement.
    disagreements: list[tuple[str, str, str]] = field(default_factory=list)
    deviations: Counter[str] = field(default_factory=Counter)

    def agreement(self, counts: Counter[str] | None = None) -> tuple[int, int]:
        """Agreeing cases and compared cases (agreeing or disagreeing)."""
        c = self.counts if counts is None else counts
        return c["agree"], c["agree"] + c["disagree"]

    def rate(self, counts: Counter[str] | None = None) -> float:
        agree_, total = self.agreement(counts)
        return agree_ / total if total else 1.0


def compare(
    policy: str,
    backend: str,
    items: list[Case],
    seen: dict[str, str],
    got: dict[str, str],
    known: Callable[[Case], str | None] | None = None,
) -> Comparison:
    """Bucket every case present in both observation sets.

    ``known(case)`` names the known cross-backend difference of a case on ``backend``, if any: a
    disagreement there is a ``backend difference``.
    """
    out = Comparison(policy, backend)
    for case in items:
        if case.key not in seen or case.key not in got:
            continue
        b, reason = bucket(policy, case, seen[case.key], got[case.key])
        if b == "disagree" and known is not None and known(case) is not None:
            b = "backend difference"
        out.counts[b] += 1
        out.by_family.setdefault(family(case), Counter())[b] += 1
        out.by_spelling.setdefault(case.spelling, Counter())[b] += 1
        if b == "disagree":
            out.disagreements.append((case.key, seen[case.key], got[case.key]))
        elif reason is not None:
            out.deviations[reason] += 1
    return out


def cross_backend(items: list[Case], ref: dict[str, str], got: dict[str, str]) -> list[tuple[Case, str, str]]:
    """Every case whose outcome on a backend (``got``) is not the NumPy backend's (``ref``)."""
    return [
        (c, ref[c.key], got[c.key]) for c in items if c.key in got and not agree(ref[c.key], got[c.key], c.op)
    ]
