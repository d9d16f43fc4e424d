"""One policy's whole probe: promo_ns on every backend against the framework and against the NumPy backend.

The NumPy backend runs every case (it is the cross-backend reference); the
other backends run every case or a deterministic sample (:data:`EVERY`: Dask
builds and computes a graph per case, JAX compiles each new signature), the
same sample in the conformance command and, smaller, in the test suite.
"""

from __future__ import annotations

import functools
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from conformance.probe import _compare, _driver, _known, _observed, _space, promo
from conformance.probe._space import Case

__all__ = ["EVERY", "PolicyRun", "disagreement_class", "run_policy", "sample"]

#: backend -> one case in how many the conformance command runs (1: all).
EVERY: dict[str, int] = {"numpy": 1, "torch": 1, "dask": 10, "jax": 100}


def sample(policy: str, backend: str, every: int) -> list[Case]:
    """The cases ``backend`` runs under ``policy``: all, or a deterministic one in ``every``."""
    items = _space.cases(policy)
    return list(items) if every <= 1 else _space.subsample(items, every, salt="backend")


@dataclass
class PolicyRun:
    """The outcome of one policy's probe."""

    policy: str
    framework: str | None
    version: str | None
    cases: int
    #: backend -> (cases run, seconds).
    runs: dict[str, tuple[int, float]] = field(default_factory=dict)
    #: backend -> framework comparison (where the framework's observations are stored).
    fidelity: dict[str, _compare.Comparison] = field(default_factory=dict)
    #: backend -> (case, numpy backend's, backend's, known reason or None) of every difference.
    cross: dict[str, list[tuple[Case, str, str, str | None]]] = field(default_factory=dict)
    #: backend -> cases compared with the NumPy backend.
    cross_compared: dict[str, int] = field(default_factory=dict)


def _known_reason(cross: dict[str, str | None], case: Case) -> str | None:
    return cross.get(case.key)


def run_policy(
    policy: str, backends: tuple[str, ...] = promo.BACKENDS, every: dict[str, int] | None = None
) -> PolicyRun:
    """Run ``policy``'s probe on ``backends`` (see the module docstring)."""
    every = {**EVERY, **(every or {})}
    stored: dict[str, Any] | None = None
    if _driver.reference(policy).exists():
        stored = _driver.load(policy)
    out = PolicyRun(
        policy,
        None if stored is None else str(stored["framework"]),
        None if stored is None else str(stored["version"]),
        len(_space.cases(policy)),
    )
    observed: dict[str, dict[str, str]] = {}
    for backend in ("numpy", *(b for b in backends if b != "numpy")):
        items = sample(policy, backend, 1 if backend == "numpy" else every.get(backend, 1))
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            observed[backend] = promo.run(backend, policy, items)
        out.runs[backend] = (len(items), time.perf_counter() - start)
        cross: dict[str, str | None] = {}
        if backend != "numpy":
            diffs = _compare.cross_backend(items, observed["numpy"], observed[backend])
            out.cross[backend] = [(c, r, g, _known.known(policy, backend, c, r, g)) for c, r, g in diffs]
            out.cross_compared[backend] = len(items)
            cross = {c.key: why for c, _, _, why in out.cross[backend]}
        if stored is not None:
            out.fidelity[backend] = _compare.compare(
                policy,
                backend,
                items,
                stored["observations"],
                observed[backend],
                known=functools.partial(_known_reason, cross),
            )
    return out


def _kind(obs: str) -> str:
    """``result``, ``refused``, ``error: <Class>``, ``unsupported``, ``absent``, ``dtype`` or ``value``."""
    if _observed.is_result(obs):
        return "result"
    if obs.startswith("unsupported"):
        return "unsupported"
    return obs if obs.startswith(("error", "refused", "absent")) else obs.split(" ", maxsplit=1)[0]


def _role(token: str) -> str:
    o = _space.operand(token)
    if o.what == "array":
        return {"0d": "0d", "col": "edge", "mat": "nd", "vec4": "nd", "sorted": "nd"}.get(
            o.shape, o.shape
        ) + (":edge" if token.endswith(":edge") and o.shape != "col" else "")
    if o.what == "py":
        return f"py:{o.dtype}"
    return {"np": "np", "dtype": "dtype", "literal": "arg", "none": "none"}[o.what]


def disagreement_class(key: str, seen: str, got: str) -> str:
    """A disagreement's class: op, spelling, operand roles, and how the outcomes differ."""
    op, spelling, *rest = key.split("|")
    roles = "|".join(
        _role(t.partition("=")[2] if "=" in t and not t.startswith(("py:", "lit:")) else t) for t in rest
    )
    fw, ours = _kind(seen), _kind(got)
    if fw == ours == "result":
        what = "values differ" if _observed.dtypes_of(seen) == _observed.dtypes_of(got) else "dtypes differ"
    elif fw == ours:
        what = f"{_observed.dtypes_of(seen)} vs {_observed.dtypes_of(got)}"
    else:
        fw, ours = (k if k != "result" else "computes" for k in (fw, ours))
        what = f"framework {fw} / promo_ns {ours}"
    return f"{op} [{spelling}] ({roles}): {what}"


def classes(pairs: list[tuple[str, str, str]], top: int = 15) -> list[tuple[str, int, tuple[str, str, str]]]:
    """The ``top`` most frequent disagreement classes, with their counts and one example each."""
    counts: Counter[str] = Counter()
    example: dict[str, tuple[str, str, str]] = {}
    for key, seen, got in pairs:
        cls = disagreement_class(key, seen, got)
        counts[cls] += 1
        example.setdefault(cls, (key, seen, got))
    return [(cls, n, example[cls]) for cls, n in counts.most_common(top)]
