"""The case model and its generator: every public function and operator form, from promo_ns's registries.

Imports :mod:`promo_ns._ops` alone (no framework, no backend, no array-api-compat), so
that a framework's runner can generate the same cases in any interpreter with NumPy.

A :class:`Case` is data: an op (the public name, ``"linalg.inv"`` for the
extensions), a *spelling* and operand *tokens*.

Spellings
    ``function`` ``xp.f(a, b)``; ``operator`` ``a op b`` (``op a`` for the
    unary operators ``-``, ``+``, ``~``, ``abs``); ``reflected`` ``s op a``
    with a Python (or NumPy) scalar on the left; ``inplace`` ``a op= b`` (on a
    copy of ``a``); ``setitem`` ``a[0] = v``; ``method`` and ``method_``
    the framework's second spelling and its in-place form (torch/Paddle
    ``a.add(b)`` / ``a.add_(b)``; TF ``tf.experimental.numpy.add``), made
    only for the policies in :data:`EXTRA_SPELLINGS`.  promo_ns has no
    methods: it answers ``method`` with its function and ``method_`` with
    its in-place operator.

Tokens
    ``<dtype>:<shape>:<class>`` an array: shape ``nd`` (1-d, 3 elements),
    ``0d``, ``col``/``row`` (``(k, 1)``/``(k,)``: a column against a row
    gives every pair of values), ``mat`` (3x3), ``vec4``, ``sorted``, ``m23``
    (2x3); class ``one`` (benign values) or ``edge`` (:func:`edge_values`).
    ``py:<type>:<repr>`` a Python scalar; ``np:<dtype>:<repr>`` a NumPy
    scalar (``numpy`` policy only); ``dt:<dtype>`` a dtype; ``lit:<python
    literal>`` any other argument (a shape, an axis, a list); ``none``.

Every public name of a namespace has a *kind* (:func:`kind_of`), which says
how its cases are made; ``tests/test_probe.py`` fails when a public name has none.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Iterator

from conformance.probe._functions import KEEPING, LINALG_BINARY, SEARCH, more_cases, nary_cases
from conformance.probe._model import (
    DTYPES,
    EDGE_SCALARS,
    SCALARS,
    Case,
    Operand,
    edge_values,
    np_scalars,
    operand,
    rotated,
)
from conformance.probe._model import arrays as _arrays
from promo_ns._ops import COMPARISONS, FAMILY, FUNCTION_FAMILY, NATIVE, OPERATORS

__all__ = [
    "DTYPES",
    "EXTRA_SPELLINGS",
    "Case",
    "Operand",
    "cases",
    "edge_values",
    "family",
    "kind_of",
    "operand",
    "public_names",
    "subsample",
]

POLICIES = ("array-api", "pytorch", "paddle", "tf-safe", "numpy", "jax", "tf-all", "tf-legacy")
#: The framework's second spellings of a binary op, made for these policies only (see the docstring).
EXTRA_SPELLINGS: dict[str, tuple[str, ...]] = {
    "pytorch": ("method", "method_"),
    "paddle": ("method", "method_"),
    "tf-safe": ("method",),
    "tf-all": ("method",),
    "tf-legacy": ("method",),
}

#: The Python operator of each binary op that has one, and ``@``.
DUNDER: dict[str, str] = {**OPERATORS, "matmul": "matmul"}
#: Unary operators: ``-x``, ``+x``, ``~x``, ``abs(x)``.
UNARY_DUNDER: dict[str, str] = {
    "negative": "neg",
    "positive": "pos",
    "bitwise_invert": "invert",
    "abs": "abs",
}

# --- kinds: the public names, by the registry facts that say how they are probed --------------

_ELEMENTWISE_FAMILIES = frozenset(
    ("float", "reciprocal", "abs", "negative", "positive", "sign", "square", "rounding", "round")
)
#: One-array elementwise functions promo_ns takes from array-api-compat as they are.
_DELEGATED_ELEMENTWISE = (
    *("bitwise_invert", "conj", "imag", "isfinite", "isinf", "isnan", "logical_not", "real", "signbit"),
)
#: Reductions that take ``dtype=`` (every input dtype x every dtype argument).
ACCUMULATING = ("sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace")
_REDUCTIONS = ("all", "any", "count_nonzero", "diff", *ACCUMULATING)
CREATION = (
    "asarray",
    "arange",
    "linspace",
    "full",
    "zeros",
    "ones",
    "empty",
    "eye",
    "fft.fftfreq",
    "fft.rfftfreq",
)
NARY = ("result_type", "concat", "stack", "where", "clip", "meshgrid", "broadcast_arrays")
DTYPE_FUNCTIONS = ("astype", "can_cast", "isdtype", "finfo", "iinfo")
INFO = ("broadcast_shapes",)
_OTHER_LINALG = ("linalg.matrix_power", "linalg.eig", "linalg.eigvals")
#: Public attributes that are no function (dtypes, constants, the extensions, the Array class).
NOT_FUNCTIONS = frozenset(("Array", "e", "inf", "nan", "pi", "newaxis", "linalg", "fft", "policy", *DTYPES))


def kind_of(name: str) -> str | None:
    """The probe kind of a public name (``"linalg.inv"`` for an extension's), None where there is none."""
    fam = FUNCTION_FAMILY.get(name)
    if name in NATIVE:
        return "binary"
    if name in LINALG_BINARY:
        return "linalg_binary"
    if name in NARY:
        return "nary"
    if name in SEARCH:
        return "search"
    if name == "setitem":
        return "setitem"
    if name in DTYPE_FUNCTIONS:
        return name
    if name in CREATION:
        return "creation"
    if name in KEEPING:
        return "keeping"
    if name in INFO:
        return "info"
    if fam in _ELEMENTWISE_FAMILIES or name in _DELEGATED_ELEMENTWISE:
        return "elementwise"
    if name in _REDUCTIONS or fam in ("mean", "std", "var", "extrema", "argextrema"):
        return "reduction"
    if name.startswith("linalg.") and (fam is not None or name in _OTHER_LINALG):
        return "linalg"
    if name.startswith("fft.") and fam is not None:
        return "fft"
    return None


def public_names() -> tuple[str, ...]:
    """Every name the probe knows a kind for (the test compares them with a namespace's ``dir``)."""
    names = {
        *NATIVE, *FUNCTION_FAMILY, *_DELEGATED_ELEMENTWISE, *_REDUCTIONS, *KEEPING, *CREATION, *NARY,
        *LINALG_BINARY, *SEARCH, *DTYPE_FUNCTIONS, *INFO, *_OTHER_LINALG,
        *(op for op, fam in FAMILY.items() if fam != "setitem"),
    }  # fmt: skip
    return (*sorted(names), "setitem")


def family(case: Case) -> str:
    """The op family of a case, for the report: the registry's family, else its kind."""
    if case.spelling == "setitem":
        return "setitem"
    return FAMILY.get(case.op) or FUNCTION_FAMILY.get(case.op) or case.kind


def _binary_case(op: str, *args: str, s: str = "function") -> Case:
    return Case("binary", op, s, args)


def _binary(policy: str) -> Iterator[Case]:
    arrays, nds = _arrays(), _arrays(("nd",))
    extra = EXTRA_SPELLINGS.get(policy, ())
    nps = np_scalars() if policy == "numpy" else []
    for n, op in enumerate(sorted(NATIVE)):
        fn = functools.partial(_binary_case, op)
        yield from (fn(a, b) for a in nds for b in nds)
        yield from (fn(a, b) for a, b in rotated(n, arrays, arrays) if "0d" in a + b)
        yield from (fn(a, b) for a, b in rotated(n + 1, arrays, arrays) if "0d" in a + b)
        yield from (fn(a, s) for a in arrays for s in SCALARS)
        yield from (fn(s, a) for a in arrays for s in SCALARS)
        for a, s in rotated(n, nds + arrays[15:], nps):
            yield fn(a, s)
            yield fn(s, a)
        spellings = [*(("operator", "reflected") if op in DUNDER else ()), *extra]
        if op in DUNDER and op not in COMPARISONS:
            spellings.append("inplace")
        for s in spellings:
            if s == "reflected":
                yield from (fn(sc, a, s=s) for a in arrays for sc in (*SCALARS, *nps))
                continue
            lefts = nds if s in ("inplace", "method_") else arrays  # a 0-d target cannot take an n-d value
            pairs = rotated(n, lefts, arrays, salt=len(s))
            if s.startswith("method"):  # the framework's second spelling: half the pairs, n-d with scalars
                yield from (fn(a, b, s=s) for k, (a, b) in enumerate(pairs) if (k + n) % 2 == 0)
                yield from (fn(a, sc, s=s) for a in nds for sc in SCALARS)
                continue
            yield from (fn(a, b, s=s) for a, b in pairs)
            yield from (fn(a, sc, s=s) for a in arrays for sc in SCALARS)
        # values at the edges: a column against a row of every dtype, and Python scalars
        for i, d in enumerate(DTYPES):
            yield fn(f"{d}:col:edge", f"{d}:nd:edge")
            yield fn(f"{d}:col:edge", f"{DTYPES[(i + 1 + n) % len(DTYPES)]}:nd:edge")
            for j, sc in enumerate(EDGE_SCALARS):
                yield fn(f"{d}:nd:one", sc, s="operator" if op in DUNDER else "function")
                if (i + j) % 2 == 0:
                    yield fn(sc, f"{d}:nd:one", s="reflected" if op in DUNDER else "function")


def _one_array(policy: str) -> Iterator[Case]:
    for name in sorted(
        set(FUNCTION_FAMILY) | set(_DELEGATED_ELEMENTWISE) | set(_REDUCTIONS) | set(_OTHER_LINALG)
    ):
        kind = kind_of(name)
        if kind == "linalg":
            kwargs = (("n", "lit:2"),) if name == "linalg.matrix_power" else ()
            yield from (Case(kind, name, "function", (f"{d}:mat:one",), kwargs) for d in DTYPES)
            continue
        if kind == "fft":
            yield from (Case(kind, name, "function", (f"{d}:vec4:one",)) for d in DTYPES)
            continue
        inputs = _arrays(("nd", "0d")) + _arrays(("nd",), "edge")
        if kind == "reduction" and name in ("cumulative_sum", "cumulative_prod", "diff"):
            inputs = _arrays(("nd",)) + _arrays(("nd",), "edge")
        if name == "linalg.trace":
            inputs = [f"{d}:mat:one" for d in DTYPES]
        spellings = ["function", *(("operator",) if name in UNARY_DUNDER else ())]
        for s in spellings:
            yield from (Case(kind or "", name, s, (x,)) for x in inputs)
        if name in ACCUMULATING:
            src = [f"{d}:mat:one" for d in DTYPES] if name == "linalg.trace" else _arrays(("nd",))
            yield from (
                Case("reduction", name, "function", (x,), (("dtype", f"dt:{d}"),))
                for x in src
                for d in DTYPES
            )


@functools.lru_cache(maxsize=8)
def cases(policy: str) -> tuple[Case, ...]:
    """Every case of ``policy``, in a fixed order, each key once."""
    seen: dict[str, Case] = {}
    for gen in (
        _binary(policy),
        _one_array(policy),
        nary_cases(),
        more_cases(),
    ):
        for c in gen:
            seen.setdefault(c.key, c)
    return tuple(seen.values())


def subsample(items: tuple[Case, ...], every: int, salt: str = "") -> list[Case]:
    """About one case in ``every``, chosen by a hash of its key (deterministic, spread over all kinds)."""
    return [c for c in items if zlib.crc32(f"{salt}{c.key}".encode()) % every == 0]
