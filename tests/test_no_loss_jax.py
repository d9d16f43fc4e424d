"""The JAX backend loses nothing silently (issue 23): bounds, 64-bit data, jit, pytrees, sizes, axes.

JAX runs here with 64-bit types on and strict promotion (see :mod:`tests.backends`);
cases with 64-bit types off run in ``jax.enable_x64(False)`` blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)  # as tests.backends sets them for the shared suites
jax.config.update("jax_numpy_dtype_promotion", "strict")

import jax.numpy as jnp  # noqa: E402

import promo_ns  # noqa: E402
from promo_ns._dtypes import int32  # noqa: E402
from promo_ns.backends.jax import JaxX64Error  # noqa: E402
from tests.backends import BACKENDS, namespace, to_numpy  # noqa: E402

#: JAX, and NumPy as the reference it must agree with.
JAX_AND_NUMPY = ["numpy", "jax"]

# --- 1. setitem out of bounds: promo_ns's IndexError, nothing written ----------------------------

_OUT_OF_BOUNDS: dict[str, Callable[[Any], Any]] = {
    "numpy int": lambda xp: np.int64(7),
    "numpy int array": lambda xp: np.array([0, 5]),
    "list": lambda xp: [0, 5],
    "int": lambda xp: 7,
    "negative int": lambda xp: -4,
    "promo_ns array": lambda xp: xp.asarray([0, 5]),
    "0-d numpy array": lambda xp: np.array(7),
    "0-d promo_ns array": lambda xp: xp.asarray(7),
    "uint array": lambda xp: np.array([1, 9], dtype=np.uint8),
}


@pytest.mark.parametrize("backend", JAX_AND_NUMPY)
@pytest.mark.parametrize("kind", list(_OUT_OF_BOUNDS))
def test_setitem_out_of_bounds_raises_and_writes_nothing(backend: str, kind: str) -> None:
    xp = namespace(backend, "numpy")
    x = xp.asarray([1, 2, 3])
    index = _OUT_OF_BOUNDS[kind](xp)
    with pytest.raises(IndexError, match=r"index -?\d+ is out of bounds for axis 0 with size 3"):
        x[index] = 9
    np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])


@pytest.mark.parametrize(
    "key", [(0, np.array([5])), (Ellipsis, [3]), (slice(None), np.int64(-4)), (None, 1, [0, 3])], ids=repr
)
def test_setitem_out_of_bounds_names_the_axis(key: Any) -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    before = promo_ns.unwrap(x)
    with pytest.raises(IndexError, match=r"out of bounds for axis 1 with size 3; nothing was written"):
        x[key] = 9
    assert promo_ns.unwrap(x) is before


def test_setitem_in_bounds_takes_every_index_kind_numpy_takes() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([1, 2, 3])
    x[np.int64(0)] = 7
    x[[1]] = 8
    x[jnp.asarray([2])] = 9
    x[np.True_] = x + 0  # a NumPy bool: every element (JAX alone fails on it)
    x[[]] = 0  # an empty list of indices: nothing
    np.testing.assert_array_equal(to_numpy(x), [7, 8, 9])
    np.testing.assert_array_equal(to_numpy(x[[0, 2]]), [7, 9])  # a list reads as an index array


def test_setitem_under_jit_follows_jax_for_traced_indices() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([1, 2, 3])
    inside, outside = jnp.asarray([0, 1]), jnp.asarray([0, 5])

    def closed_over(a: Any) -> Any:
        a[inside] = 9
        return a

    def outside_closed_over(a: Any) -> Any:
        a[outside] = 9
        return a

    def traced(a: Any, i: Any) -> Any:
        a[i] = 9
        return a

    np.testing.assert_array_equal(to_numpy(jax.jit(closed_over)(x)), [9, 9, 3])
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        jax.jit(outside_closed_over)(x)  # concrete: checked while tracing
    np.testing.assert_array_equal(to_numpy(jax.jit(traced)(x, inside)), [9, 9, 3])
    np.testing.assert_array_equal(to_numpy(jax.jit(traced)(x, xp.asarray([0, 1]))), [9, 9, 3])
    # A traced index's values are unknown while tracing: JAX drops the write out of bounds.
    np.testing.assert_array_equal(to_numpy(jax.jit(traced)(x, outside)), [9, 2, 3])
    np.testing.assert_array_equal(to_numpy(x), [1, 2, 3])


# --- 2. 64-bit data with jax_enable_x64 off: JaxX64Error, not 32 bits of it ----------------------

_WIDE_DATA: dict[str, Callable[[], Any]] = {
    "int64 array past int32": lambda: np.array([2**40]),
    "float64 array past float32": lambda: np.array([1e300]),
    "int64 array": lambda: np.array([1, 2]),
    "float64 scalar": lambda: np.float64(1e300),
    "uint64 array": lambda: np.array([1], dtype=np.uint64),
    "complex128 array": lambda: np.array([1 + 2j]),
    "Python int past int32": lambda: [2**40],
}


@pytest.mark.parametrize("policy", ["numpy", "pytorch"])
@pytest.mark.parametrize("data", list(_WIDE_DATA))
def test_x64_off_refuses_64_bit_data(policy: str, data: str) -> None:
    xp = promo_ns.namespace("jax", policy=policy)
    with jax.enable_x64(False), pytest.raises(JaxX64Error, match=r"(int|float|complex)\d+.*jax_enable_x64"):
        xp.asarray(_WIDE_DATA[data]())


def test_x64_off_data_paths() -> None:
    xp = promo_ns.namespace("jax", policy=_p32())
    with jax.enable_x64(False):
        i, f = xp.asarray([1, 2, 3]), xp.asarray([1.0, 2.0], dtype=xp.float32)
        ops: list[Callable[[], object]] = [
            lambda: xp.asarray([1, 2], dtype=xp.int64),  # a 64-bit dtype asked for
            lambda: i + np.int64(2**40),  # a NumPy scalar operand
            lambda: f * np.float64(1e300),
            lambda: i.__setitem__(0, np.int64(2**40)),
            lambda: xp.from_dlpack(np.array([2**40])),
        ]
        for op in ops:
            with pytest.raises(JaxX64Error, match="jax_enable_x64"):
                op()
        np.testing.assert_array_equal(to_numpy(i), [1, 2, 3])
        # An explicit dtype is a cast, as in NumPy; data that fits 32 bits is taken when asked for.
        wrapped = xp.asarray(np.array([2**40, 5]), dtype=xp.int32)
        np.testing.assert_array_equal(to_numpy(wrapped), np.array([2**40, 5]).astype(np.int32))
        assert xp.asarray(np.array([1.5]), dtype=xp.float32).dtype is xp.float32
    with jax.enable_x64(True):  # with 64-bit types, the data keeps its dtype and values
        big = promo_ns.namespace("jax", policy="numpy").asarray(np.array([2**40]))
        assert big.dtype is xp.int64 and int(big[0]) == 2**40


def _p32() -> Any:
    # NumPy scalars as the 0-d arrays they are (pytorch takes them as Python numbers), so they bring
    # their 64-bit dtypes
    base = promo_ns.get_policy("pytorch")
    return base.derive(
        "pytorch-int32", defaults={**base.defaults, "int": int32, "index": int32}, numpy_scalars="arrays"
    )


@pytest.mark.parametrize("backend", JAX_AND_NUMPY)
@pytest.mark.parametrize("x64", [True, False])
def test_full_with_an_int_out_of_range_is_an_overflow_error(backend: str, x64: bool) -> None:
    xp = namespace(backend)
    with jax.enable_x64(x64):
        with pytest.raises(OverflowError, match=r"1099511627776.*int32"):
            xp.full(2, 2**40, dtype=xp.int32)  # JAX alone wraps it to 0
        with pytest.raises(OverflowError, match=r"-1.*uint8"):
            xp.full(2, -1, dtype=xp.uint8)
        assert int(xp.full(2, -128, dtype=xp.int8)[0]) == -128


# --- 5. sizes no array can have: promo_ns's error, before JAX aborts the process -----------------

_HUGE: dict[str, Callable[[Any], Any]] = {
    "zeros": lambda xp: xp.zeros((10**10, 10**10)),
    "ones": lambda xp: xp.ones((10**10, 10**10), dtype=xp.int8),
    "empty": lambda xp: xp.empty(2**62),
    "full": lambda xp: xp.full((10**10, 10**10), 1.0),
    "arange": lambda xp: xp.arange(2**62),  # values in int64, 2**65 bytes
    "arange of floats": lambda xp: xp.arange(0.0, 2e18, 0.5),  # 4e18 values, 3.2e19 bytes
    "linspace": lambda xp: xp.linspace(0, 1, 10**19),
    "eye": lambda xp: xp.eye(10**10),
    "fft.fftfreq": lambda xp: xp.fft.fftfreq(10**19),
    "broadcast_to": lambda xp: xp.broadcast_to(xp.ones(1), (10**10, 10**10)),
    "meshgrid": lambda xp: xp.meshgrid(*[xp.arange(10**5)] * 4),
    "zeros under jit": lambda xp: jax.jit(lambda: xp.zeros((10**10, 10**10)))(),
}


@pytest.mark.parametrize("make", list(_HUGE))
def test_a_size_past_2_63_bytes_is_a_value_error_naming_it(make: str) -> None:
    xp = promo_ns.namespace("jax")
    with pytest.raises(ValueError, match=r"of shape \(.*\) \(\d+ elements of \w+\) is too big: \d+ bytes"):
        _HUGE[make](xp)


@pytest.mark.parametrize("make", ["zeros", "linspace", "arange", "eye"])
def test_a_size_past_the_devices_memory_is_a_memory_error(make: str) -> None:
    xp = promo_ns.namespace("jax")
    n = 2**61 // 8  # 2**61 bytes of float64: within 2**63, past any device's memory
    sized = {
        "zeros": lambda: xp.zeros(n),
        "linspace": lambda: xp.linspace(0, 1, n),
        "arange": lambda: xp.arange(0.0, float(n)),
        "eye": lambda: xp.eye(2**29),
    }
    with pytest.raises(MemoryError, match=r"needs \d+\.\d [EPT]iB, more than the .* device .* has"):
        sized[make]()


# --- 3. the policy in force is part of what jax.jit caches on; throw-away policies are freed ------


def test_jit_of_raw_arrays_follows_the_policy_block_it_is_called_in() -> None:
    # In a thread of its own: a block another test ended in another thread leaves JAX's thread-local
    # key of the thread it began in as it was (a known limit, see _KeyedOnPolicy).
    failures: list[BaseException] = []

    def run() -> None:
        try:
            _jit_follows_the_blocks()
        except BaseException as e:  # re-raised in the test's thread
            failures.append(e)

    import threading

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failures:
        raise failures[0]


def _jit_follows_the_blocks() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    traces = []

    def divide_once(a: Any, b: Any) -> Any:
        traces.append(1)
        return promo_ns.unwrap(xp.asarray(a) / xp.asarray(b))

    divide = jax.jit(divide_once)

    a = jnp.asarray([1, 2], dtype=jnp.int32)
    assert divide(a, a).dtype == jnp.float32  # pytorch: int32 / int32 is float32
    with promo_ns.policy("numpy"):
        assert divide(a, a).dtype == jnp.float64  # numpy: float64 (was: the first trace's float32)
        with promo_ns.policy("pytorch"):
            assert divide(a, a).dtype == jnp.float32
        assert divide(a, a).dtype == jnp.float64
    assert divide(a, a).dtype == jnp.float32
    assert len(traces) == 3  # no block, numpy, pytorch: each traced once


def test_a_policy_block_in_another_thread_does_not_change_this_ones_jit() -> None:
    import threading

    xp = promo_ns.namespace("jax", policy="pytorch")
    divide = jax.jit(lambda a: promo_ns.unwrap(xp.asarray(a) / xp.asarray(a)))
    a = jnp.asarray([1, 2], dtype=jnp.int32)
    inside, leave = threading.Event(), threading.Event()
    seen: list[Any] = []

    def other() -> None:
        with promo_ns.policy("numpy"):
            seen.append(divide(a).dtype)
            inside.set()
            leave.wait(timeout=60)

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(timeout=60)
    try:
        assert divide(a).dtype == jnp.float32
    finally:
        leave.set()
        thread.join()
    assert seen == [jnp.float64]


def _freed_after(passes: Callable[[Any], None]) -> int:
    """How many of 10 throw-away policies are still alive after ``passes`` used each once.

    Each new policy compiles the jitted function again (0.2 s); a policy is freed or it is not,
    so a few prove what 200 would.
    """
    import gc
    import weakref

    base = promo_ns.get_policy("numpy")
    refs = []
    for i in range(10):
        policy = base.derive(f"throw-away-{i}")
        passes(policy)
        refs.append(weakref.ref(policy))
        del policy
    gc.collect()
    return sum(r() is not None for r in refs)


@pytest.mark.usefixtures("young_heap")
def test_policies_passed_through_jit_as_pytrees_are_freed() -> None:
    double = jax.jit(lambda x: x * 2)

    def passes(policy: Any) -> None:
        x = promo_ns.namespace("jax", policy=policy).asarray([1.0, 2.0])
        assert double(x).dtype is x.dtype

    assert _freed_after(passes) == 0  # was: every one kept alive by jax.jit's cache


@pytest.mark.usefixtures("young_heap")
def test_policy_blocks_around_jit_are_freed() -> None:
    xp = promo_ns.namespace("jax", policy="pytorch")
    half = jax.jit(lambda a: promo_ns.unwrap(xp.asarray(a) / 2))
    a = jnp.asarray([1, 2], dtype=jnp.int32)

    def passes(policy: Any) -> None:
        with promo_ns.policy(policy):
            assert half(a).dtype == jnp.float64

    assert _freed_after(passes) == 0


# --- 4. pytree leaves that are no arrays: no dtype claimed, JAX's node contract kept ----------------


def test_tree_map_to_non_arrays_claims_no_dtype() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")
    x = xp.asarray([1.0, 2.0])
    shapes = jax.tree_util.tree_map(lambda leaf: leaf.shape, {"w": x})
    assert jax.tree_util.tree_leaves(shapes) == [2]  # the tuple (2,) is a pytree of its own: leaf 2
    node = shapes["w"]
    assert "pytree leaf (2,)" in repr(node) and "bool" not in repr(node)
    uses: list[Callable[[], object]] = [
        lambda: node.dtype,
        lambda: node.shape,
        lambda: node + 1,
        lambda: node + node,  # the operators' fast path reads the node's plans
        lambda: node < node,
        lambda: xp.sum(node),
        lambda: xp.astype(node, xp.float32),
        lambda: xp.where(node, node, node),
        lambda: float(node),
    ]
    for use in uses:
        with pytest.raises(TypeError, match="pytree node holding"):
            use()
    # The structure stays JAX's: a tree made by tree_map maps along the one it came from.
    rates = jax.tree_util.tree_map(lambda leaf: 0.5, {"w": x})
    scaled = jax.tree_util.tree_map(lambda p, r: p * r, {"w": x}, rates)
    np.testing.assert_array_equal(to_numpy(scaled["w"]), [0.5, 1.0])


def test_custom_vjp_takes_promo_ns_arrays() -> None:
    xp = promo_ns.namespace("jax", policy="numpy")  # custom_vjp unflattens object() sentinels into nodes

    def plain(a: Any) -> Any:
        return promo_ns.unwrap(xp.sum(a * a))

    square_sum = jax.custom_vjp(plain)

    def forward(a: Any) -> Any:
        return square_sum(a), a

    def backward(a: Any, g: Any) -> Any:
        return (a * 2 * xp.asarray(g),)

    square_sum.defvjp(forward, backward)
    grad = jax.grad(square_sum)(xp.asarray([1.0, 2.0]))
    np.testing.assert_array_equal(to_numpy(grad), [2.0, 4.0])


# --- 6. an axis that is no int: promo_ns's TypeError naming the argument, on every backend ---------

_AXIS_CALLS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "sum": lambda xp, x, a: xp.sum(x, axis=a),
    "prod": lambda xp, x, a: xp.prod(x, axis=a),
    "mean": lambda xp, x, a: xp.mean(x, axis=a),
    "max": lambda xp, x, a: xp.max(x, axis=a),
    "argmax": lambda xp, x, a: xp.argmax(x, axis=a),
    "all": lambda xp, x, a: xp.all(x, axis=a),
    "count_nonzero": lambda xp, x, a: xp.count_nonzero(x, axis=a),
    "cumulative_sum": lambda xp, x, a: xp.cumulative_sum(x, axis=a),
    "sort": lambda xp, x, a: xp.sort(x, axis=a),
    "flip": lambda xp, x, a: xp.flip(x, axis=a),
    "squeeze": lambda xp, x, a: xp.squeeze(x[:1], a),
    "expand_dims": lambda xp, x, a: xp.expand_dims(x, axis=a),
    "moveaxis": lambda xp, x, a: xp.moveaxis(x, a, 0),
    "concat": lambda xp, x, a: xp.concat([x, x], axis=a),
    "take": lambda xp, x, a: xp.take(x, xp.asarray([0]), axis=a),
    "diff": lambda xp, x, a: xp.diff(x, axis=a),
    "vector_norm": lambda xp, x, a: xp.linalg.vector_norm(x, axis=a),
    "fft.fft": lambda xp, x, a: xp.fft.fft(x, axis=a),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", list(_AXIS_CALLS))
def test_an_axis_that_is_no_int_is_a_type_error_naming_it(backend: str, name: str) -> None:
    xp = namespace(backend, "numpy")
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    argument = "source" if name == "moveaxis" else "axis"
    for bad in ("a", 1.5, True, (0, "a"), [0]):
        with pytest.raises(TypeError, match=rf"{name.rpartition('.')[2]}\(\) takes {argument} as .*, not "):
            _AXIS_CALLS[name](xp, x, bad)  # JAX: NameError for a str (was), NumPy: a float axis taken
    for good in (0, np.int64(0)):  # ints, and NumPy ints (on every backend), still do
        assert _AXIS_CALLS[name](xp, x, good) is not None


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_tuple_axis_where_the_standard_takes_one_int_is_a_type_error(backend: str) -> None:
    xp = namespace(backend, "numpy")
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match=r"argmax\(\) takes axis as an int or None, not tuple \(0, 1\)"):
        xp.argmax(x, axis=(0, 1))
    assert xp.sum(x, axis=(0, 1)).shape == ()
