"""The benchmark cases, as data: statements per peer, the inputs they share, and the targets.

Every case is run on one backend with the same inputs for every peer:

``native``
    the backend's own operator or function on its own arrays;
``minimal``
    the same call through :mod:`benchmarks.minimal`, the floor of any Python
    wrapper (one call, the native op, one new object; no decisions);
``promo_ns``
    the same code on promo_ns arrays;
``outside``
    for a row timing promo_ns inside a ``trace`` or ``compare`` block: the
    same promo_ns code outside it;
``compat``
    ``array_api_compat.<backend>``'s function on the backend's arrays;
``strict``
    ``array_api_strict`` (NumPy only; it refuses mixed kinds, so its mixed
    case casts first);
``cast, then op``
    an explicit cast to the result dtype, then the same-dtype op (mixed cases);
``signed twin``
    for torch's emulated uint32/uint64: torch's own kernel of the signed dtype of the same size.

On Dask the workload builds its graph and computes it (on Dask's default,
threaded scheduler): promo_ns's decisions are made while the graph is built,
and its graph is the one plain Dask builds.

On JAX the workload runs compiled: ``jax.jit`` of the same function over
``jax.numpy`` arrays (native) and over promo_ns arrays under the ``jax`` policy
(decided while tracing, with no cast that JAX would not make); only the call
and the array's wrapping differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["BACKENDS", "BACKENDS_ORDER", "CASES", "PEERS", "Case", "Target", "setup_code"]

PEERS = (
    *("native", "minimal", "promo_ns", "outside"),
    *("compat", "strict", "cast, then op", "signed twin"),
)
BACKENDS_ORDER = ("numpy", "torch", "torch-cuda", "cupy", "jax", "dask")
#: where a case runs unless it says otherwise (JAX runs its compiled workload only).
_ARRAY_BACKENDS = ("numpy", "torch", "torch-cuda", "cupy")
_GPU = ("torch-cuda", "cupy")
_DASK_ROWS = 400_000  #: rows of the Dask workload's array (160 MB of float32)
#: where the uint32/uint64 cases run (torch's CPU has no kernels for them: promo_ns's emulation).
_UNSIGNED_BACKENDS = ("numpy", "torch")
_CPU = ("numpy", "torch")

#: backend -> (import line, expression turning NumPy array ``v`` into a native array, sync statement).
BACKENDS: dict[str, tuple[str, str, str]] = {
    "numpy": ("import numpy as nat", "v", ""),
    "torch": ("import torch as nat", "nat.from_numpy(v)", ""),
    "torch-cuda": ("import torch as nat", "nat.from_numpy(v).to('cuda')", "nat.cuda.synchronize()"),
    "cupy": ("import cupy as nat", "nat.asarray(v)", "nat.cuda.runtime.deviceSynchronize()"),
    "jax": ("import jax.numpy as nat", "nat.asarray(v)", ""),  # its statements wait for their results
    "dask": ("import dask.array as nat", "nat.from_array(v)", ""),  # its statements compute
}


@dataclass(frozen=True)
class Target:
    """promo_ns's median at most ``ratio`` times the fastest of ``peers``' (those that ran).

    With no ``peers``, ``ratio`` is a time in seconds promo_ns's median must stay within.
    """

    peers: tuple[str, ...]
    ratio: float
    text: str


@dataclass(frozen=True)
class Case:
    """One benchmark: a statement per peer, on inputs of ``n`` elements."""

    group: str
    name: str
    n: int
    stmts: dict[str, str]
    targets: dict[str, tuple[Target, ...]] = field(default_factory=dict)  #: backend -> targets
    memory: bool = False  #: also measure the peak memory of native, promo_ns and cast-then-op
    backends: tuple[str, ...] = _ARRAY_BACKENDS  #: where the case runs
    native: dict[str, str] = field(default_factory=dict)  #: backend -> its own native statement

    def statements(self, backend: str) -> dict[str, str]:
        """The statement of every peer that runs on ``backend``."""
        stmts = {**self.stmts, **({"native": self.native[backend]} if backend in self.native else {})}
        return {p: s for p, s in stmts.items() if p != "strict" or backend == "numpy"}


def setup_code(backend: str, n: int | tuple[int, int]) -> str:
    """The code creating every peer's inputs: float32 ``a``, ``b``, int8 ``i8``, float16 ``h``.

    promo_ns's arrays are ``A``, ``B``, ``X2`` (``array-api`` policy) and ``QI8``, ``QB``,
    ``QH`` (``pytorch``).

    uint32/uint64 inputs (where their cases run) are NumPy arrays ``nu32a``..., promo_ns
    arrays ``U32A``... of the backend, and the same bits as the backend's signed twin
    (``S32A``: int32), whose kernel the emulation runs on torch.
    """
    imp, to_native, _ = BACKENDS[backend]
    name = backend.split("-", maxsplit=1)[0]
    unsigned = (
        f"nu32a, nu32b = (rng.integers(0, 2**32, {n!r}, dtype=numpy.uint32) for _ in range(2))\n"
        f"nu64a, nu64b = (rng.integers(0, 2**64, {n!r}, dtype=numpy.uint64) for _ in range(2))\n"
        "U32A, U32B, U64A, U64B = (xp.asarray(native(v)) for v in (nu32a, nu32b, nu64a, nu64b))\n"
        "S32A, S32B = (native(v.view(numpy.int32)) for v in (nu32a, nu32b))\n"
        "S64A, S64B = (native(v.view(numpy.int64)) for v in (nu64a, nu64b))\n"
        "UT32, UT64 = (promo_ns.unwrap(v).dtype for v in (U32A, U64A))\n"
        if backend in _UNSIGNED_BACKENDS
        else ""
    )
    strict = (
        "import array_api_strict as strict\n"
        "SA, SB, SI8, S2, SC, SW, SM = (strict.asarray(v) for v in (a, b, i8, x2, c, w, m))\n"
        if backend == "numpy"
        else ""
    )
    compat = {"jax": "jax.numpy", "dask": "array_api_compat.dask.array"}.get(name, f"array_api_compat.{name}")
    dask = (
        f"XW_ROWS = {_DASK_ROWS}\n"
        "v = rng.standard_normal((XW_ROWS, 100)).astype(numpy.float32)\n"
        "xw = nat.from_array(v, chunks=(XW_ROWS // 4, 100))\n"
        "XW = xp.asarray(xw)\n"
        if name == "dask"
        else ""
    )
    jitted = (
        "import jax\n"
        "xj = promo_ns.namespace('jax', policy='jax')\n"
        "XJ2 = xj.asarray(x2)\n"
        "JNATIVE, JPROMO = jax.jit(lambda x: work(nat, x)), jax.jit(lambda x: work(xj, x))\n"
        "JNATIVE(x2).block_until_ready(), promo_ns.unwrap(JPROMO(XJ2)).block_until_ready()  # compiled\n"
        "JADD, PADD = jax.jit(lambda x: x + 1.0), jax.jit(lambda x: x + 1.0)\n"
        "JADD(a).block_until_ready(), promo_ns.unwrap(PADD(A)).block_until_ready()\n"
        if name == "jax"
        else ""
    )
    return f"""\
import numpy
import promo_ns
import {compat} as compat
{imp}
from benchmarks.cases import first_op, in_torch_policy
from benchmarks.cases import standardize_logsumexp as work, standardize_logsumexp_torch as work_torch
rng = numpy.random.default_rng(0)
def native(v):
    return {to_native}
a, b = (native(rng.standard_normal({n!r}).astype(numpy.float32)) for _ in range(2))
i8 = native(rng.integers(-100, 100, {n!r}, dtype=numpy.int8))
x2 = native(rng.standard_normal((1000, 100)).astype(numpy.float32))
h = native(rng.standard_normal({n!r}).astype(numpy.float16))
xp = promo_ns.namespace({name!r}, policy="array-api")
xq = promo_ns.namespace({name!r}, policy="pytorch")
A, B, X2 = (xp.asarray(v) for v in (a, b, x2))
{unsigned}QI8, QB, QH = xq.asarray(i8), xq.asarray(b), xq.asarray(h)
import benchmarks.minimal
mw = benchmarks.minimal.MinimalNamespace(nat)
c = a < b
w = native(rng.standard_normal({n!r}).astype(numpy.float32))
m = native(rng.standard_normal((10, 10)).astype(numpy.float32))  # drawn last: the others as before
MA, MB, MI8, MC, MW, MX2, MM = (mw.asarray(v) for v in (a, b, i8, c, w, x2, m))
C, AI8, W, M = xp.asarray(c), xp.asarray(i8), xp.asarray(w), xp.asarray(m)
PT = promo_ns.get_policy("pytorch")
NAME = {name!r}
import contextvars, itertools, operator
FRESH = itertools.count()
TRACING = contextvars.copy_context()  # runs code inside a trace block, entered there and left open
TRACING.run(promo_ns.trace().__enter__)
COMPARING = contextvars.copy_context()  # runs code inside an open compare block of three policies
COMPARING.run(promo_ns.compare("array-api", "pytorch", "numpy").__enter__)
{strict}{jitted}{dask}"""


def standardize_logsumexp(xp: Any, x: Any) -> Any:
    """Standardize the columns of ``x``, then a log-sum-exp per row: the workload, for any namespace."""
    mean, std, max_, log, sum_, exp = (getattr(xp, f) for f in ("mean", "std", "max", "log", "sum", "exp"))
    z = (x - mean(x, axis=0)) / std(x, axis=0)
    m = max_(z, axis=1, keepdims=True)
    return m[:, 0] + log(sum_(exp(z - m), axis=1))


def in_torch_policy(policy: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on plain torch tensors in ``promo_ns.torch_policy(policy)``, opened each call."""
    import promo_ns

    with promo_ns.torch_policy(policy):
        return fn(*args)


def first_op(policy: Any, backend: str, a: Any, b: Any) -> Any:
    """``a + b`` in a new namespace of ``policy``: the first op compiles what the policy needs."""
    import promo_ns

    xp = promo_ns.namespace(backend, policy=policy)
    return xp.asarray(a) + xp.asarray(b)


def standardize_logsumexp_torch(x: Any) -> Any:
    """The workload written with torch's own API."""
    import torch

    z = (x - x.mean(0)) / x.std(0, correction=0)
    m = z.amax(1, keepdim=True)
    return m[:, 0] + torch.log(torch.exp(z - m).sum(1))


_SMALL, _LARGE = 100, 10_000_000
_SAME = {
    "native": "a + b",
    "minimal": "MA + MB",
    "promo_ns": "A + B",
    "compat": "compat.add(a, b)",
    "strict": "SA + SB",
}
#: promo_ns over the minimal wrapper (issue 28's targets): operators, then functions.
_OPERATOR_FLOOR: tuple[Target, ...] = (Target(("minimal",), 1.2, "<= 1.2x minimal wrapper"),)
_FUNCTION_FLOOR: tuple[Target, ...] = (Target(("minimal",), 1.3, "<= 1.3x minimal wrapper"),)
_FLOORS = {"numpy": _OPERATOR_FLOOR, "torch": _OPERATOR_FLOOR}
_FUNCTION_FLOORS = {"numpy": _FUNCTION_FLOOR, "torch": _FUNCTION_FLOOR}
_MIXED = {
    "native": "i8 + b",
    "promo_ns": "QI8 + QB",
    "compat": "compat.add(i8, b)",
    "strict": "strict.astype(SI8, strict.float32) + SB",
    "cast, then op": "compat.astype(i8, compat.float32) + b",
}
_SCALAR = {"native": "a + 1.0", "promo_ns": "A + 1.0", "compat": "compat.add(a, 1.0)", "strict": "SA + 1.0"}
_SMALL_FUNCTIONS = {
    "xp.where(c, a, b)": {
        "native": "nat.where(c, a, b)",
        "minimal": "mw.where(MC, MA, MB)",
        "promo_ns": "xp.where(C, A, B)",
        "compat": "compat.where(c, a, b)",
        "strict": "strict.where(SC, SA, SB)",
    },
    "xp.clip(a, -0.5, 0.5)": {
        "native": "nat.clip(a, -0.5, 0.5)",
        "minimal": "mw.clip(MA, -0.5, 0.5)",
        "promo_ns": "xp.clip(A, -0.5, 0.5)",
        "compat": "compat.clip(a, -0.5, 0.5)",
        "strict": "strict.clip(SA, -0.5, 0.5)",
    },
    "xp.concat([a, b])": {
        "native": "nat.concat([a, b])",
        "minimal": "mw.concat([MA, MB])",
        "promo_ns": "xp.concat([A, B])",
        "compat": "compat.concat([a, b])",
        "strict": "strict.concat([SA, SB])",
    },
    "xp.sum(int8)": {
        "native": "nat.sum(i8)",
        "minimal": "mw.sum(MI8)",
        "promo_ns": "xp.sum(AI8)",
        "compat": "compat.sum(i8)",
        "strict": "strict.sum(SI8)",
    },
    "xp.matmul(m, m), 10x10": {
        "native": "nat.matmul(m, m)",
        "minimal": "mw.matmul(MM, MM)",
        "promo_ns": "xp.matmul(M, M)",
        "compat": "compat.matmul(m, m)",
        "strict": "strict.matmul(SM, SM)",
    },
    "xp.astype(a, float64)": {
        "native": "a.astype(numpy.float64) if hasattr(a, 'astype') else a.to(nat.float64)",
        "minimal": "mw.astype(MA, nat.float64)",
        "promo_ns": "xp.astype(A, xp.float64)",
        "compat": "compat.astype(a, compat.float64)",
        "strict": "strict.astype(SA, strict.float64)",
    },
}
#: float16 times a Python float under the pytorch policy: computed in float32, rounded once (torch's
#: bits). NumPy's own ``h * 0.1`` rounds 0.1 to float16 first; cast-then-op is the float32 computation.
_HALF_SCALAR = {
    "native": "h * 0.1",
    "promo_ns": "QH * 0.1",
    "compat": "compat.multiply(h, 0.1)",
    "cast, then op": "compat.astype(compat.astype(h, compat.float32) * 0.1, compat.float16)",
}

CASES: tuple[Case, ...] = (
    Case(
        "small (n=100)",
        "a + b, float32",
        _SMALL,
        _SAME,
        {
            "numpy": (
                Target(("native",), 3.5, "<= 3.5x native"),
                Target(("strict",), 1 / 5, ">= 5x faster than strict"),
                *_OPERATOR_FLOOR,
            ),
            "torch": (Target(("native",), 1.6, "<= 1.6x native"), *_OPERATOR_FLOOR),
        },
    ),
    Case(
        "small (n=100)",
        "xp.add(a, b)",
        _SMALL,
        {
            "native": "nat.add(a, b)",
            "minimal": "mw.add(MA, MB)",
            "promo_ns": "xp.add(A, B)",
            "compat": "compat.add(a, b)",
            "strict": "strict.add(SA, SB)",
        },
        _FUNCTION_FLOORS,
    ),
    Case("small (n=100)", "a + 1.0", _SMALL, _SCALAR, {"numpy": (Target(("native",), 3.0, "<= 3x native"),)}),
    Case(
        "small (n=100)",
        "float16 a * 0.1 (pytorch policy)",
        _SMALL,
        _HALF_SCALAR,
        {
            "numpy": (Target(("native",), 3.0, "<= 3x native"),),
            "torch": (Target(("native",), 1.6, "<= 1.6x native"),),
        },
        backends=_CPU,
    ),
    Case("small (n=100)", "int8 + float32 (pytorch policy)", _SMALL, _MIXED),
    Case(
        "small (n=100)",
        "a < b",
        _SMALL,
        {
            "native": "a < b",
            "minimal": "MA < MB",
            "promo_ns": "A < B",
            "compat": "compat.less(a, b)",
            "strict": "SA < SB",
        },
        _FLOORS,
    ),
    Case(
        "small (n=100)",
        "xp.log(a)",
        _SMALL,
        {
            "native": "nat.log(a)",
            "minimal": "mw.log(MA)",
            "promo_ns": "xp.log(A)",
            "compat": "compat.log(a)",
            "strict": "strict.log(SA)",
        },
        _FUNCTION_FLOORS,
    ),
    Case(
        "small (n=100)",
        "xp.mean(a)",
        _SMALL,
        {
            "native": "nat.mean(a)",
            "minimal": "mw.mean(MA)",
            "promo_ns": "xp.mean(A)",
            "compat": "compat.mean(a)",
            "strict": "strict.mean(SA)",
        },
        _FUNCTION_FLOORS,
    ),
    *(Case("small (n=100)", n, _SMALL, stmts, _FUNCTION_FLOORS) for n, stmts in _SMALL_FUNCTIONS.items()),
    Case(  # a dtype, nothing to wrap: the minimal wrapper is the native call
        "small (n=100)",
        "xp.result_type(a, b)",
        _SMALL,
        {
            "native": "nat.result_type(a, b)",
            "minimal": "mw.result_type(MA, MB)",
            "promo_ns": "xp.result_type(A, B)",
            "compat": "compat.result_type(a, b)",
            "strict": "strict.result_type(SA, SB)",
        },
    ),
    Case(
        "small (n=100)",
        "x[mask] = 0.5",
        _SMALL,
        {
            "native": "w[c] = 0.5",
            "minimal": "MW[MC] = 0.5",
            "promo_ns": "W[C] = 0.5",
            "strict": "SW[SC] = 0.5",
        },
        _FLOORS,
    ),
    Case(
        "new policy",
        "p.derive(...) alone (native: a + b, for scale)",
        _SMALL,
        {"native": "a + b", "promo_ns": "PT.derive(f'bench{next(FRESH)}', summary=str(next(FRESH)))"},
        backends=_CPU,
    ),
    Case(
        "new policy",
        "p.derive(...), then its first a + b (native: a + b, for scale)",
        _SMALL,
        {
            "native": "a + b",
            "promo_ns": "first_op(PT.derive(f'bench{next(FRESH)}', summary=str(next(FRESH))), NAME, a, b)",
        },
        {b: (Target((), 0.005, "<= 5 ms"),) for b in _CPU},
        backends=_CPU,
    ),
    Case(
        "small (n=100)",
        "a + b, tracing on (off: the a + b row)",
        _SMALL,
        {
            "native": "TRACING.run(operator.add, a, b)",
            "promo_ns": "TRACING.run(operator.add, A, B)",
            "outside": "operator.add(A, B)",
        },
        {b: (Target(("outside",), 2.0, "<= 2x untraced"),) for b in _CPU},
        backends=_CPU,
    ),
    Case(
        "small (n=100)",
        "a += b",
        _SMALL,
        {
            "native": "global a; a += b",
            "minimal": "global MA; MA += MB",
            "promo_ns": "global A; A += B",
            "strict": "global SA; SA += SB",
        },
        _FLOORS,
    ),
    Case(
        "large (n=10M)",
        "a + b, float32",
        _LARGE,
        _SAME,
        {b: (Target(("native",), 1.03, "within 3% of native"),) for b in BACKENDS},
        memory=True,
    ),
    Case(
        "large (n=10M)",
        "int8 + float32 (pytorch policy)",
        _LARGE,
        _MIXED,
        {
            b: (
                Target(
                    ("native", "cast, then op"), 1.05, "within 5% of the faster of native and cast-then-op"
                ),
            )
            for b in BACKENDS
        },
        memory=True,
    ),
    Case(
        "large (n=10M)",
        "a + 1.0",
        _LARGE,
        _SCALAR,
        {b: (Target(("native",), 1.03, "within 3% of native"),) for b in BACKENDS},
        memory=True,
    ),
    Case(
        "large (n=10M)",
        "float16 a * 0.1 (pytorch policy)",
        _LARGE,
        _HALF_SCALAR,
        {
            b: (
                Target(
                    ("native", "cast, then op"), 1.05, "within 5% of the faster of native and cast-then-op"
                ),
            )
            for b in _CPU
        },
        memory=True,
        backends=_CPU,
    ),
    *(
        Case(
            "large (n=10M)",
            f"{u} a + b (torch: emulated; native: NumPy's kernel)",
            _LARGE,
            {
                "native": f"nu{u[4:]}a + nu{u[4:]}b",
                "promo_ns": f"U{u[4:]}A + U{u[4:]}B",
                "signed twin": f"(S{u[4:]}A + S{u[4:]}B).view(UT{u[4:]})",  # the bits, read unsigned
            },
            {"torch": (Target(("signed twin",), 1.1, "within 10% of torch's kernel of the signed twin"),)},
            memory=True,
            backends=_UNSIGNED_BACKENDS,
        )
        for u in ("uint32", "uint64")
    ),
    Case(
        "workload",
        "standardize + logsumexp, 1000x100 float32",
        _SMALL,
        {
            "native": "work(nat, x2)",
            "promo_ns": "work(xp, X2)",
            "compat": "work(compat, x2)",
            "strict": "work(strict, S2)",
        },
        {
            "numpy": (
                Target(("native",), 1.3, "<= 1.3x native"),
                Target(("strict",), 1.0, "faster than strict"),
            )
        },
        native={"torch": "work_torch(x2)", "torch-cuda": "work_torch(x2)"},
    ),
    Case(
        "workload",
        "standardize + logsumexp inside compare() of 3 policies (off: the workload row)",
        _SMALL,
        {
            "native": "COMPARING.run(work, nat, x2)",
            "promo_ns": "COMPARING.run(work, xp, X2)",
            "outside": "work(xp, X2)",
        },
        {b: (Target(("outside",), 1.3, "<= 1.3x one policy"),) for b in ("numpy", "torch")},
        backends=("numpy", "torch"),
        native={"torch": "COMPARING.run(work_torch, x2)"},
    ),
    Case(
        "workload",
        "torch's standardize + logsumexp on plain tensors inside torch_policy('pytorch'), opened each call",
        _SMALL,
        {"native": "work_torch(x2)", "promo_ns": "in_torch_policy('pytorch', work_torch, x2)"},
        backends=("torch",),
    ),
    Case(
        "small (n=100)",
        "a + 1.0 under jax.jit (the compiled call's own cost)",
        _SMALL,
        {"native": "JADD(a).block_until_ready()", "promo_ns": "promo_ns.unwrap(PADD(A)).block_until_ready()"},
        backends=("jax",),
    ),
    Case(
        "workload",
        "standardize + logsumexp, 1000x100 float32, jax.jit (compiled), jax policy",
        _SMALL,
        {
            "native": "JNATIVE(x2).block_until_ready()",
            "promo_ns": "promo_ns.unwrap(JPROMO(XJ2)).block_until_ready()",
        },
        {"jax": (Target(("native",), 1.05, "within 5% of native (compiled)"),)},
        backends=("jax",),
    ),
    Case(
        "workload",
        f"standardize + logsumexp, {_DASK_ROWS}x100 float32 in 4 blocks, graph built and computed",
        _SMALL,
        {
            "native": "work(nat, xw).compute()",
            "promo_ns": "promo_ns.unwrap(work(xp, XW)).compute()",
            "compat": "work(compat, xw).compute()",
        },
        {"dask": (Target(("native",), 1.05, "within 5% of plain Dask"),)},
        backends=("dask",),
    ),
    Case(
        "GPU (n=100M)",
        "int8 + float32 (pytorch policy)",
        100_000_000,
        _MIXED,
        {b: (Target(("native",), 1.1, "<= 1.1x native"),) for b in _GPU},
        backends=_GPU,
    ),
)
