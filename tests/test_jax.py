"""The jax backend: the same dtypes as NumPy's under every policy, through jit, grad and vmap.

JAX runs here with 64-bit types on and strict promotion (see :mod:`tests.backends`);
the shared suites run the jax backend too.  This file holds what is JAX's own:
the Array as a pytree under ``jax.jit``/``jax.grad``/``jax.vmap``, in-place
operators and setitem rebinding the wrapper to a new immutable array, the proof
that promo_ns makes every cast explicit (strict promotion, over every cell of
every binary op, by tracing: JAX compiles nothing), and 64-bit dtypes with
``jax_enable_x64`` off.
"""

from __future__ import annotations

import itertools
import logging
import operator
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)  # as tests.backends sets them for the shared suites
jax.config.update("jax_numpy_dtype_promotion", "strict")

import jax.numpy as jnp  # noqa: E402

import promo_ns  # noqa: E402
from promo_ns import PromotionError, get_policy  # noqa: E402
from promo_ns._binary_plans import plan_of  # noqa: E402
from promo_ns._dtypes import DTYPES  # noqa: E402
from promo_ns._engine.decisions import compute_table  # noqa: E402
from promo_ns._engine.operands import Refusal  # noqa: E402
from promo_ns._operands import _NK  # noqa: E402
from promo_ns._ops import NATIVE, OPERATORS, family_of  # noqa: E402
from promo_ns.backends.jax import JaxX64Error  # noqa: E402
from tests.backends import POLICIES, close, one_op_per_family, to_numpy  # noqa: E402
from tests.test_namespace_grid import _operands, _role_key  # noqa: E402

DATA = np.random.default_rng(0).standard_normal((6, 3)).astype(np.float32)


def standardize_and_score(x: Any, weights: Any) -> tuple[Any, Any]:
    """The README's backend-agnostic workload."""
    xp = x.__array_namespace__()
    z = (x - xp.mean(x, axis=0)) / (xp.std(x, axis=0) + 1e-6)
    scaled = z * weights
    m = xp.max(scaled, axis=1, keepdims=True)
    return z, m[:, 0] + xp.log(xp.sum(xp.exp(scaled - m), axis=1))


def _workload(backend: str, policy: str) -> tuple[Any, Any] | str:
    xp = promo_ns.namespace(backend, policy=policy)
    try:
        return standardize_and_score(xp.asarray(DATA), xp.asarray([1, 2, 3]))
    except PromotionError as e:
        return str(e)


def test_session_runs_jax_strict_with_x64() -> None:
    # The shared suites' jax runs (tests.backends) are the broad proof that every cast is explicit.
    assert jax.config.jax_numpy_dtype_promotion == "strict"
    assert jax.config.jax_enable_x64
    with pytest.raises(jax.dtypes.TypePromotionError):
        jnp.multiply(jnp.ones(2, jnp.float32), jnp.ones(2, jnp.int64))  # what JAX alone does


@pytest.mark.parametrize("policy", POLICIES)
def test_workload_matches_numpy(policy: str) -> None:
    want, got = _workload("numpy", policy), _workload("jax", policy)
    if isinstance(want, str):
        assert got == want  # the same refusal, word for word
        return
    assert not isinstance(got, str), got
    for g, w in zip(got, want, strict=True):
        assert g.dtype is w.dtype
        assert isinstance(promo_ns.unwrap(g), jax.Array)
        np.testing.assert_allclose(to_numpy(g), to_numpy(w), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("policy", POLICIES)
def test_workload_under_jit(policy: str) -> None:
    xp = promo_ns.namespace("jax", policy=policy)
    x, w = xp.asarray(DATA), xp.asarray([1, 2, 3])
    eager = _workload("jax", policy)
    if isinstance(eager, str):
        with pytest.raises(PromotionError):  # refused while tracing, as eagerly
            jax.jit(standardize_and_score)(x, w)
        return
    compiled = jax.jit(standardize_and_score)(x, w)
    for c, e in zip(compiled, eager, strict=True):
        assert c.__class__ is e.__class__ and c.__array_namespace__() is xp
        assert c.dtype is e.dtype
        np.testing.assert_allclose(to_numpy(c), to_numpy(e), rtol=1e-5, atol=1e-5)


def _lowered(fn: Callable[..., Any], *args: Any) -> str:
    """``jax.jit(fn)``'s StableHLO for ``args``, without the names of its results (a pytree's differ)."""
    return re.sub(r"\{jax\.result_info = [^}]*\}", "", jax.jit(fn).lower(*args).as_text())


def _logsumexp_of_standardized(xp: Any, x: Any) -> Any:
    z = (x - xp.mean(x, axis=0)) / xp.std(x, axis=0)
    m = xp.max(z, axis=1, keepdims=True)
    return m[:, 0] + xp.log(xp.sum(xp.exp(z - m), axis=1))


def _with_scalars(xp: Any, x: Any, i: Any) -> tuple[Any, ...]:
    return x * 2 + 1.5, i // 3 + i % 2, xp.var(x, axis=1, correction=1.0), xp.where(x > 0, x, 0.5)


def test_jax_policy_compiles_jax_numpys_own_program() -> None:
    # The benchmark's workload (benchmarks/cases.py) under jax.jit: promo_ns adds no op at all.
    xj = promo_ns.namespace("jax", policy="jax")
    native = _lowered(partial(_logsumexp_of_standardized, jnp), jnp.asarray(DATA))
    assert _lowered(partial(_logsumexp_of_standardized, xj), xj.asarray(DATA)) == native


def test_jax_policy_adds_no_convert_to_jax_numpys_program() -> None:
    # Python scalars: JAX converts its weak int64/float64 constants in the program; promo_ns makes
    # them in the result dtype up front, so its program converts less, never more.
    xj = promo_ns.namespace("jax", policy="jax")
    ints = np.arange(6, dtype=np.int16)
    native = _lowered(partial(_with_scalars, jnp), jnp.asarray(DATA), jnp.asarray(ints))
    ours = _lowered(partial(_with_scalars, xj), xj.asarray(DATA), xj.asarray(ints))
    assert 0 < ours.count("stablehlo.convert") <= native.count("stablehlo.convert")


def test_jit_traces_once_per_policy_in_force() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    traces = []

    def divide_once(a: Any, b: Any) -> Any:
        traces.append(1)
        return a / b

    divide = jax.jit(divide_once)

    a, b = xp.asarray([1, 2], dtype=xp.int32), xp.asarray([2, 4], dtype=xp.int32)
    assert divide(a, b).dtype is xp.float32
    assert divide(a, b).dtype is xp.float32
    assert len(traces) == 1  # compiled once; the policy was decided while tracing
    with promo_ns.policy("numpy"):  # the policy in force is part of the arrays' tree structure
        assert divide(a, b).dtype is xp.float64
    assert divide(a, b).dtype is xp.float32
    assert len(traces) == 2


def test_grad() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    x = xp.asarray(DATA)
    w = xp.asarray([1, 2, 3])  # int64: the policy decides float32 * int64

    def loss(x: Any) -> Any:
        return promo_ns.unwrap(xp.sum((x * w) ** 2))  # jax.grad wants a native scalar out

    g = jax.grad(loss)(x)
    assert g.__class__ is x.__class__ and g.dtype is xp.float32
    np.testing.assert_allclose(to_numpy(g), 2 * DATA * np.array([1, 4, 9], np.float32), rtol=1e-6)
    value, g2 = jax.jit(jax.value_and_grad(loss))(x)
    assert value.dtype == jnp.float32
    np.testing.assert_allclose(to_numpy(g2), to_numpy(g), rtol=1e-6)
    # Under numpy's rules the loss is float64; the gradient keeps x's dtype.
    with promo_ns.policy("numpy"):
        g64 = jax.grad(loss)(x)
    assert g64.dtype is xp.float32


def test_grad_of_the_workload() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    w = xp.asarray([1, 2, 3])
    g = jax.grad(lambda x: promo_ns.unwrap(xp.sum(standardize_and_score(x, w)[1])))(xp.asarray(DATA))
    assert g.dtype is xp.float32 and g.shape == DATA.shape
    assert np.isfinite(to_numpy(g)).all()


def test_vmap_decides_per_example() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    a = xp.asarray([1, 2, 3], dtype=xp.int64)
    b = xp.asarray(np.arange(12).reshape(3, 4), dtype=xp.int8)
    # Per example, a is a 0-d int64 and b a 1-d int8: torch's 0-d tensors do not widen n-d ones.
    out = jax.vmap(lambda s, v: s + v)(a, b)
    assert out.__class__ is a.__class__
    assert out.dtype is (a[0] + b[0]).dtype is xp.int8
    assert (a[:, None] + b).dtype is xp.int64
    np.testing.assert_array_equal(to_numpy(out), to_numpy(a)[:, None] + to_numpy(b))
    rows = jax.vmap(lambda r: xp.sum(r * 2.5))(xp.asarray(DATA))
    assert rows.dtype is xp.float32 and rows.shape == (6,)


def test_pytree() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    a = xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert jax.tree_util.tree_leaves({"a": a}) == [promo_ns.unwrap(a)]
    doubled = jax.tree_util.tree_map(lambda v: v * 2, {"a": a})["a"]
    assert doubled.__class__ is a.__class__ and doubled.dtype is xp.float32
    shape = jax.eval_shape(lambda v: v * 1.5 + xp.asarray([1, 2], dtype=xp.int8), a)
    assert shape.dtype is xp.float32 and shape.shape == (2,)


def test_backend_lookup_and_zero_copy() -> None:
    assert promo_ns.namespace(jnp) is promo_ns.namespace("jax")
    native = jnp.arange(3, dtype=jnp.int16)
    xp = promo_ns.array_namespace(native, policy="numpy")
    assert xp is promo_ns.namespace("jax", policy="numpy")
    assert promo_ns.unwrap(xp.asarray(native)) is native
    x = xp.asarray(native)
    assert x.device == xp.__array_namespace_info__().default_device()


def test_numpy_data_is_copied_to_the_device_and_compiles_nothing() -> None:
    """``xp.asarray`` of NumPy data shares no memory with it (JAX's ``device_put`` alone may, on a CPU).

    Buffers of every alignment: ``device_put`` shares the aligned ones.  No program is compiled
    per shape (``jnp.asarray`` compiles one in JAX 0.10).
    """
    xp = promo_ns.namespace("jax", policy="numpy")
    buffer = np.zeros(80, np.float32)
    compiled: list[str] = []
    with jax.log_compiles(True), _CompileLog(compiled):
        for start in range(16):
            for n in (1, 5, 8, 17):
                data = buffer[start : start + n]
                x = xp.asarray(data)
                data[...] = 7
                assert np.all(np.asarray(promo_ns.unwrap(x)) == 0), (start, n)
                data[...] = 0
                scalar = np.float32(3)
                assert float(promo_ns.unwrap(xp.asarray(scalar))) == 3.0
    assert compiled == []


class _CompileLog(logging.Handler):
    """Collects JAX's "Compiling ..." log messages while it is entered."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("Compiling"):
            self.into.append(record.getMessage())

    def __enter__(self) -> _CompileLog:
        logging.getLogger("jax").addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("jax").removeHandler(self)


# --- in-place operators and setitem: the wrapper rebinds ------------------------------------


def test_inplace_rebinds_the_wrapper() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    a = xp.asarray([1, 2, 3], dtype=xp.int8)
    alias, before = a, promo_ns.unwrap(a)
    a += 2
    assert a is alias and a.dtype is xp.int8
    assert promo_ns.unwrap(a) is not before
    np.testing.assert_array_equal(to_numpy(a), [3, 4, 5])
    np.testing.assert_array_equal(np.asarray(before), [1, 2, 3])  # the old JAX array is unchanged
    a *= xp.asarray([2, 2, 2], dtype=xp.int64)  # computed in int64, stored as int8
    assert a.dtype is xp.int8
    np.testing.assert_array_equal(to_numpy(a), [6, 8, 10])
    f = xp.asarray([1.0, 2.0], dtype=xp.float16)
    f /= 3  # true division of float16 by an int: float16 stays
    assert f.dtype is xp.float16
    np.testing.assert_allclose(to_numpy(f), np.array([1, 2], np.float16) / np.float16(3), rtol=1e-3)


def test_refused_inplace_changes_nothing() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    a = xp.asarray([1, 2, 3], dtype=xp.int8)
    before = promo_ns.unwrap(a)
    with pytest.raises(PromotionError):
        a += 1.5  # float32 cannot go back into int8 under torch's rule
    with pytest.raises(PromotionError):
        a -= xp.asarray([True, False, True])  # torch refuses subtraction with bools
    assert promo_ns.unwrap(a) is before


def test_setitem_rebinds() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    a = xp.asarray([1, 2, 3, 4], dtype=xp.int16)
    before = promo_ns.unwrap(a)
    a[0] = 100
    a[1:3] = xp.asarray([7, 8], dtype=xp.int8)
    a[xp.asarray([False, False, False, True])] = -1
    assert a.dtype is xp.int16
    np.testing.assert_array_equal(to_numpy(a), [100, 7, 8, -1])
    np.testing.assert_array_equal(np.asarray(before), [1, 2, 3, 4])
    b = xp.asarray([1, 2], dtype=xp.uint64)
    with pytest.raises(OverflowError):
        b[0] = 2**64 - 1  # torch's setitem unpacks a Python int as an int64
    with promo_ns.policy("numpy"):
        b[0] = 2**64 - 1  # a Python int past int64 stores exactly
    assert int(b[0]) == 2**64 - 1
    with pytest.raises(PromotionError), promo_ns.policy("array-api"):
        a[0] = 1.5  # the standard defines no float into an int array
    assert int(a[0]) == 100


def test_inplace_matmul_rebinds() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    m = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32)
    alias = m
    m @= xp.asarray([[0.0, 1.0], [1.0, 0.0]], dtype=xp.float32)
    assert m is alias and m.dtype is xp.float32
    np.testing.assert_array_equal(to_numpy(m), [[2.0, 1.0], [4.0, 3.0]])


def test_inplace_under_jit() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)

    def update(v: Any) -> Any:
        v += 1
        v[0] = 0
        v *= xp.asarray(2, dtype=xp.int32)
        return v

    out = jax.jit(update)(x)
    assert out.dtype is xp.float32
    np.testing.assert_array_equal(to_numpy(out), [0.0, 6.0, 8.0])
    np.testing.assert_array_equal(to_numpy(x), [1.0, 2.0, 3.0])  # the caller's array: a JAX value


# --- every cast explicit: strict promotion over every cell of every binary op ----------------


@pytest.mark.parametrize("policy", POLICIES)
def test_every_cell_under_strict_promotion(policy: str) -> None:
    """Every binary op (one of each family but under ``jax``), every pair of (dtype, role) operands.

    Each gives the engine's dtype or its refusal.  Traced under strict promotion
    (``jax.eval_shape``: nothing is compiled), so an implicit cast anywhere in
    promo_ns's path would raise JAX's TypePromotionError.  A cell of two arrays
    whose plan an earlier policy of the list has too is traced in that policy's test.
    """
    xp = promo_ns.namespace("jax", policy=policy)
    pol = get_policy(policy)
    operands = _operands(xp)
    arrays = [v for _, d, v in operands if d is not None]
    wrong: list[str] = []
    earlier = POLICIES[: POLICIES.index(policy)]

    def every_cell(op: str, *traced: Any) -> None:
        swap = dict(zip(map(id, arrays), traced, strict=True))
        table = compute_table(pol, pol.op_families.get(op) or family_of(op))
        fn = getattr(xp, op)
        tracers = [get_policy(p) for p in earlier if op in _strict_ops(p)]
        for la, da, a in operands:
            for lb, db, b in operands:
                if da is None and db is None:
                    continue
                if da is not None and db is not None and _traced_before(tracers, xp, op, a, b):
                    continue
                ka, kb = _role_key(la, da, a), _role_key(lb, db, b)
                expected = table[(ka[0], ka[1], kb[0], kb[1])]
                cell = f"{op}({la}, {lb})"
                try:
                    out = fn(swap.get(id(a), a), swap.get(id(b), b))
                except (PromotionError, OverflowError) as e:
                    if not isinstance(expected, Refusal):
                        wrong.append(f"{cell}: expected {expected[0]}, raised {e}"[:200])
                    continue
                except (TypeError, ValueError) as e:  # JAX's or promo_ns's: no kernel for the dtype
                    if isinstance(expected, Refusal) or _jax_has_kernel(op, *expected):
                        wrong.append(f"{cell}: expected {expected}, raised {e}"[:200])
                    continue
                if isinstance(expected, Refusal):
                    wrong.append(f"{cell}: expected a refusal, got {out.dtype}")
                elif out.dtype is not expected[0]:
                    wrong.append(f"{cell}: expected {expected[0]}, got {out.dtype}")

    with jax.numpy_dtype_promotion("strict"):
        # under policies other than jax, one op of each of the policy's families, whose cells take the
        # same casts (tracing each cell of each op costs about 20 s per policy)
        for op in _strict_ops(policy):  # one trace per op
            jax.eval_shape(partial(every_cell, op), *arrays)  # slows down as a trace grows
    assert not wrong, f"{len(wrong)} wrong cells under {policy}:\n" + "\n".join(wrong[:40])


def _strict_ops(policy: str) -> tuple[str, ...]:
    """The ops :func:`test_every_cell_under_strict_promotion` traces under ``policy``."""
    return tuple(NATIVE) if policy == "jax" else one_op_per_family(policy)


def _traced_before(earlier: list[Any], xp: Any, op: str, a: Any, b: Any) -> bool:
    """Whether the cell ``op(a, b)`` of two arrays has the same compiled plan under a policy of ``earlier``.

    The plan (dtypes, kernel, casts) is all the cell's path reads, so that
    policy's test traces the very calls this one would (a Python scalar's
    value checks read the policy too: those cells are always traced).
    """
    backend, code = xp._backend, a._k * _NK + b._k
    plan = plan_of(xp.policy, backend, op, code)
    return plan is not None and any(plan_of(p, backend, op, code) == plan for p in earlier)


#: Functions of two arrays that ask the policy, as (name, call on namespace xp and 2x2 arrays a, b).
_TWO: dict[str, Callable[[Any, Any, Any], Any]] = {
    "where": lambda xp, a, b: xp.where(a == a, a, b),
    "clip": lambda xp, a, b: xp.clip(a, b),
    "concat": lambda xp, a, b: xp.concat([a, b]),
    "stack": lambda xp, a, b: xp.stack([a, b]),
    "matmul": lambda xp, a, b: a @ b,
    "tensordot": lambda xp, a, b: xp.tensordot(a, b, axes=1),
    "vecdot": lambda xp, a, b: xp.vecdot(a, b),
    "setitem": lambda xp, a, b: _set(a, b),
}
#: Functions of one array whose dtype the policy decides.
_ONE = (
    *("sum", "prod", "cumulative_sum", "cumulative_prod", "mean", "std", "var", "max", "argmax"),
    *("log", "sqrt", "exp", "sin", "abs", "sign", "round", "floor", "negative", "square", "reciprocal"),
    *("linalg.inv", "linalg.det", "linalg.matrix_norm", "linalg.trace", "fft.fft"),
)


def _set(a: Any, b: Any) -> Any:
    a = a[...]
    a[0] = b[0]
    return a


def _dtype_or_error(fn: Callable[[], Any]) -> str:
    try:
        out = fn()
    except (PromotionError, OverflowError) as e:
        return type(e).__name__
    except (TypeError, ValueError, NotImplementedError):
        return "no kernel"
    return str(out.dtype)


@pytest.mark.parametrize("policy", POLICIES)
def test_functions_give_numpys_dtypes_under_strict_promotion(policy: str) -> None:
    """The namespace's functions that ask the policy: NumPy's dtype (or refusal), traced under strict."""
    xp, ref = promo_ns.namespace("jax", policy=policy), promo_ns.namespace("numpy", policy=policy)
    values = {"b": [[True, False], [False, True]], "i": [[2, 1], [1, 3]], "u": [[2, 1], [1, 3]]}
    values |= {"f": [[2.0, 1.0], [1.0, 3.0]], "c": [[2 + 1j, 1.0], [1.0, 3 - 1j]]}
    dtypes = [d for d in DTYPES if d.name != "bfloat16"]  # NumPy's bfloat16 (ml_dtypes) lacks kernels
    pairs = [(ref.asarray(values[d.kind], dtype=d), xp.asarray(values[d.kind], dtype=d)) for d in dtypes]
    wrong: list[str] = []
    agree: list[str] = []

    def check(name: str, want: str, got: str) -> None:
        if got == want and want not in ("no kernel", *_REFUSED):
            agree.append(name)
        if got != want and not (want == "no kernel" or (got == "no kernel" and want not in _REFUSED)):
            wrong.append(f"{name}: numpy backend {want}, jax {got}")

    def traced(*arrays: Any) -> None:
        for name, call in _TWO.items():
            for (ra, a), (rb, b) in itertools.product(zip(pairs, arrays, strict=True), repeat=2):
                want = _dtype_or_error(lambda: call(ref, ra[0], rb[0]))  # noqa: B023
                got = _dtype_or_error(lambda: call(xp, a, b))  # noqa: B023
                check(f"{name}({ra[0].dtype}, {rb[0].dtype})", want, got)
        for name in _ONE:
            owner, _, short = name.rpartition(".")
            for (r, _), a in zip(pairs, arrays, strict=True):
                fns = [getattr(getattr(ns, owner) if owner else ns, short) for ns in (ref, xp)]
                want = _dtype_or_error(lambda: fns[0](r))  # noqa: B023
                got = _dtype_or_error(lambda: fns[1](a))  # noqa: B023
                check(f"{name}({r.dtype})", want, got)

    with jax.numpy_dtype_promotion("strict"):
        jax.eval_shape(traced, *(p[1] for p in pairs))
    assert not wrong, f"{len(wrong)} functions differ under {policy}:\n" + "\n".join(wrong[:40])
    assert len(agree) > 500, len(agree)  # most cells compute: the comparison is not empty


_REFUSED = ("PromotionError", "OverflowError")


def _jax_has_kernel(op: str, result: Any, compute: Any) -> bool:
    """Whether ``jax.numpy`` computes ``op`` on two ``compute`` arrays and returns ``result``."""
    x = jax.ShapeDtypeStruct((2,), jnp.dtype(compute.name))
    try:
        out = jax.eval_shape(getattr(jnp, op), x, x)
    except (TypeError, ValueError):
        return False
    return bool(out.dtype == jnp.dtype(result.name))


@pytest.mark.parametrize("policy", ["pytorch", "numpy"])
@pytest.mark.parametrize("op", ["add", "divide", "floor_divide", "less", "bitwise_left_shift"])
def test_cell_values(policy: str, op: str) -> None:
    """Values of a slice of the grid against the numpy backend's (eagerly: every new signature compiles).

    No zero divisors: integer division by zero is each library's own (NumPy 0, XLA -1).
    """
    xp = promo_ns.namespace("jax", policy=policy)
    ref = promo_ns.namespace("numpy", policy=policy)
    pol = get_policy(policy)
    table = compute_table(pol, pol.op_families.get(op) or family_of(op))
    values = {"b": [True, True], "i": [5, 2], "u": [5, 2], "f": [2.5, -1.5]}
    kinds = [xp.bool, xp.int8, xp.uint8, xp.int64, xp.float16, xp.float32, xp.float64]
    operands: list[tuple[Any, Any, Any]] = [
        (d, xp.asarray(values[d.kind], dtype=d), ref.asarray(values[d.kind], dtype=d)) for d in kinds
    ]
    operands += [(None, v, v) for v in (True, 3, 0.75, 300)]
    for da, a, ra in operands:
        for db, b, rb in operands:
            if da is None and db is None:
                continue
            try:
                want = getattr(ref, op)(ra, rb)
            except (PromotionError, OverflowError, TypeError) as e:
                with pytest.raises(type(e)):
                    getattr(xp, op)(a, b)
                continue
            got = getattr(xp, op)(a, b)
            assert got.dtype is want.dtype, (da, db)
            assert close(to_numpy(got), to_numpy(want), want.dtype), (op, da, db, got, want)
    assert table  # the grid exists for the op


# --- what array-api-tests found ----------------------------------------------------------------


def test_searchsorted_gives_the_default_index_dtype() -> None:
    # JAX's own searchsorted gives int32 also with x64 on; argsort and nonzero give int64.
    xp = promo_ns.namespace("jax")
    x = xp.asarray([1, 3, 5], dtype=xp.uint8)
    out = xp.searchsorted(x, xp.asarray([0, 3, 9], dtype=xp.uint8), side="right")
    assert out.dtype is xp.int64 is xp.argsort(x).dtype
    assert to_numpy(out).tolist() == [0, 2, 3]
    assert xp.searchsorted(xp.asarray([3.0, 1.0]), 2.0, sorter=xp.asarray([1, 0])).dtype is xp.int64
    assert jax.jit(lambda a: xp.searchsorted(a, a))(x).dtype is xp.int64
    with jax.enable_x64(False):
        small = xp.asarray([1, 3], dtype=xp.int32)
        assert xp.searchsorted(small, small).dtype is xp.int32  # JAX's index dtype with x64 off


def test_expand_dims_out_of_range_is_an_index_error() -> None:
    xp = promo_ns.namespace("jax")
    x = xp.zeros((2, 3))
    assert xp.expand_dims(x, axis=2).shape == (2, 3, 1) and xp.expand_dims(x, axis=-3).shape == (1, 2, 3)
    assert xp.expand_dims(x, (0, -1)).shape == (1, 2, 3, 1)  # axis positional or keyword, as the standard's
    for axis in (3, -4, (0, 4)):
        with pytest.raises(IndexError, match="out of bounds"):
            xp.expand_dims(x, axis=axis)


# --- 64-bit dtypes with jax_enable_x64 off ----------------------------------------------------


def test_x64_off_refuses_64_bit_results() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    with jax.enable_x64(False):
        with pytest.raises(JaxX64Error, match=r"int64.*jax_enable_x64 is off.*int32"):
            xp.asarray([1, 2, 3])  # the policy's default int is int64
        i = xp.asarray([1, 2, 3], dtype=xp.int32)
        f = xp.asarray([1.0, 2.0, 4.0], dtype=xp.float32)
        assert (i + i).dtype is xp.int32 and (f * 2).dtype is xp.float32
        with pytest.raises(JaxX64Error, match="float64"):
            i / i  # NumPy divides int32 into float64
        with pytest.raises(JaxX64Error, match="int64"):
            xp.sum(i)  # and sums int32 in int64
        with pytest.raises(JaxX64Error, match="float64"):
            jax.jit(lambda a: a / a)(i)  # decided while tracing, as eagerly
        with pytest.raises(TypeError):  # a JaxX64Error is a TypeError, as a missing dtype is elsewhere
            xp.zeros(2, dtype=xp.float64)
        with promo_ns.policy("pytorch"):
            assert (i / i).dtype is xp.float32
            assert xp.sum(i, dtype=xp.int32).dtype is xp.int32


def test_a_call_compiled_with_x64_on_takes_the_full_path_with_it_off() -> None:
    """``sum``, ``exp`` and ``astype`` kept from a run with 64-bit dtypes refuse as the full path does."""
    xp = promo_ns.namespace("jax", policy="numpy")
    i = xp.asarray([1, 2, 3], dtype=xp.int32)
    calls: dict[str, Callable[[], Any]] = {
        "sum": lambda: xp.sum(i),
        "exp": lambda: xp.exp(i),
        "astype": lambda: xp.astype(i, xp.int64),
    }
    for call in calls.values():
        call(), call()  # compiled: the repeat is kept
    with jax.enable_x64(False):
        for call in calls.values():
            with pytest.raises(JaxX64Error, match="jax_enable_x64 is off"):
                call()


@pytest.mark.parametrize("policy", POLICIES)
def test_64_bit_arrays_made_with_x64_on_refuse_every_op_with_it_off(policy: str) -> None:
    # was (hostile review): a * 1.0, i // i, a + 2.0 gave float32/int32 data under a 64-bit dtype
    xp = promo_ns.namespace("jax", policy=policy)
    ops = sorted(OPERATORS)
    f = xp.asarray([1e300, 0.5], dtype=xp.float64)
    i = xp.asarray([7, 2], dtype=xp.int64)
    kept: list[str] = []
    for x in (f, i):
        for op in ops:
            for y in (x, 2, 2.0):
                for _ in range(2):  # the first call, then the compiled cell
                    with jax.enable_x64(False):
                        try:
                            out = getattr(operator, f"__{OPERATORS[op]}__")(x, y)
                        except (JaxX64Error, PromotionError, TypeError, OverflowError, ValueError):
                            continue
                    native = promo_ns.unwrap(out)
                    if str(native.dtype) != str(out.dtype):
                        kept.append(f"{x.dtype} {op} {y!r}: {out.dtype} holding {native.dtype}")
    assert not kept, kept[:6]


#: Functions of several operands on two 64-bit arrays (each has a compiled plan besides its general path).
_SEVERAL: dict[str, Callable[[Any, Any], Any]] = {
    "matmul": lambda xp, x: xp.matmul(x, x),
    "x @ x": lambda xp, x: x @ x,
    "tensordot": lambda xp, x: xp.tensordot(x, x, axes=1),
    "vecdot": lambda xp, x: xp.vecdot(x, x),
    "linalg.matmul": lambda xp, x: xp.linalg.matmul(x, x),
    "where": lambda xp, x: xp.where(x > 0, x, x),
    "clip": lambda xp, x: xp.clip(x, 0.0, 1.0),
    "concat": lambda xp, x: xp.concat([x, x]),
    "stack": lambda xp, x: xp.stack([x, x]),
}


@pytest.mark.parametrize("call", list(_SEVERAL))
def test_64_bit_arrays_refuse_functions_of_several_operands_with_x64_off(call: str) -> None:
    # was (review): matmul's compiled plan, made with x64 on, computed float32 under a float64 label
    xp = promo_ns.namespace("jax", policy="numpy")
    for x in (xp.asarray([[1e30, 0.0], [0.0, 1.5]]), xp.asarray([[7, 2], [1, 3]], dtype=xp.int64)):
        _SEVERAL[call](xp, x)  # compiles the plan, x64 on
        with jax.enable_x64(False):
            with pytest.raises(JaxX64Error):
                _SEVERAL[call](xp, x)
            with promo_ns.policy("numpy"), pytest.raises(JaxX64Error):  # the general path
                _SEVERAL[call](xp, x)


def test_x64_off_with_a_32_bit_policy() -> None:
    base = get_policy("pytorch")
    from promo_ns._dtypes import int32

    p32 = base.derive("pytorch-int32", defaults={**base.defaults, "int": int32, "index": int32})
    xp = promo_ns.namespace("jax", policy=p32)
    with jax.enable_x64(False):
        w = xp.asarray([1, 2, 3])
        assert w.dtype is xp.int32
        z, score = standardize_and_score(xp.asarray(DATA), w)
        assert z.dtype is score.dtype is xp.float32


def test_a_whole_mask_with_a_scalar_is_written_under_jit_too() -> None:
    # was (hostile review): y[mask] = 0.0 inside jax.jit raised JAX's NonConcreteBooleanIndexError
    xp = promo_ns.namespace("jax", policy="numpy")

    def clipped(y: Any) -> Any:
        y = xp.asarray(y, copy=True)
        y[y > 1.5] = 0.0
        y[y < 0.5] = xp.asarray(9.0)
        return y

    x = xp.asarray([0.25, 1.0, 2.0, 3.0])
    eager, jitted = clipped(x), jax.jit(clipped)(x)
    assert to_numpy(eager).tolist() == to_numpy(jitted).tolist() == [9.0, 1.0, 9.0, 9.0]
    assert to_numpy(x).tolist() == [0.25, 1.0, 2.0, 3.0]


def test_asarray_makes_strongly_typed_arrays_also_of_weak_tracers() -> None:
    # JAX's weak types leaked into JAX's own functions (diff(int8, prepend=300) wrapped to -44); a weak
    # tracer under jax.jit (a Python scalar argument) cannot go through NumPy
    xp = promo_ns.namespace("jax", policy="jax")
    assert not promo_ns.unwrap(xp.asarray(3)).weak_type
    assert not promo_ns.unwrap(xp.asarray(jnp.asarray(3.0))).weak_type
    traced = jax.jit(lambda s: promo_ns.unwrap(xp.asarray(s) * 2))(3.0)
    assert float(traced) == 6.0 and not traced.weak_type
