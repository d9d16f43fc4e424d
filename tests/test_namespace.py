"""The namespace and the Array wrapper: seeds, devices, threads, in-place refusals, errors, the contract."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import math
import re
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import promo_ns
from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import BY_NAME, DTYPES
from promo_ns._engine.operands import Operand
from promo_ns._engine.resolution import resolve
from promo_ns.policies import Role
from tests.backends import BACKENDS, POLICIES, has_values, namespace, on_device, to_numpy
from tests.test_seeds import SEEDS

NATIVE_BACKENDS = ["numpy", "torch"]


def _operand(xp: Any, token: object) -> Any:
    if not isinstance(token, str):
        return token
    name, role = token.split(":")
    if role == "npscalar":
        return np.dtype(name).type(1)
    return xp.asarray([1, 1] if role == "nd" else 1, dtype=BY_NAME[name])


def _backend_has(xp: Any, dtype: Any) -> bool:
    """Whether the namespace's backend has ``dtype`` (CuPy has no bfloat16: a TypeError names it)."""
    try:
        xp._backend.native_dtype(dtype)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("case", SEEDS, ids=lambda c: "-".join(map(str, c)))
@pytest.mark.parametrize("backend", BACKENDS)
def test_seed_examples_through_the_namespace(
    backend: str, case: tuple[str, str, object, object, str]
) -> None:
    policy, op, left, right, expected = case
    xp = namespace(backend, policy)
    for token in (left, right):
        if isinstance(token, str) and not _backend_has(xp, BY_NAME[token.split(":")[0]]):
            pytest.skip(f"{backend} has no {token.split(':')[0]} dtype (CuPy has no bfloat16)")
    try:
        got = getattr(xp, op)(_operand(xp, left), _operand(xp, right)).dtype.name
    except PromotionError:
        got = "refused"
    except OverflowError:
        got = "overflow"
    assert got == expected, (
        f"{policy} on {backend}: {op}({left!r}, {right!r}) gave {got}, the seed says {expected}"
    )


# --- devices ----------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
def test_meta_tensors_stay_on_meta_through_every_op(policy: str) -> None:
    xp = promo_ns.namespace("torch", policy=policy, device="meta")
    f = xp.ones((3, 3), dtype=xp.float32)
    g = xp.ones((3, 3), dtype=xp.float64)
    assert f.device == torch.device("meta")
    ops: list[Callable[[], Any]] = [
        lambda: f + g,
        lambda: f * 2.0,
        lambda: 2.0 - f,
        lambda: f / f,
        lambda: f < g,
        lambda: f**2,
        lambda: -f,
        lambda: abs(f),
        lambda: f[0],
        lambda: f.mT,
        lambda: xp.where(f > 1.0, f, g),
        lambda: xp.concat([f, g]),
        lambda: xp.stack([f, f]),
        lambda: xp.matmul(f, f),
        lambda: f @ f,
        lambda: xp.sum(f),
        lambda: xp.cumulative_sum(f, axis=0),
        lambda: xp.clip(f, 0.0, 1.0),
        lambda: xp.astype(f, xp.float16),
        lambda: xp.asarray([1.0, 2.0]),
        lambda: xp.arange(4),
        lambda: xp.exp(f),
        lambda: xp.linalg.vecdot(f, f),
        lambda: xp.maximum(f, 1.0),
        lambda: xp.atan2(f, 1.0),
    ]
    ran = 0
    for op in ops:
        try:
            r = op()
        except PromotionError:
            continue
        ran += 1
        assert r.device == torch.device("meta"), r
    assert ran >= 20
    f += 1.0
    assert f.device == torch.device("meta")


@pytest.mark.parametrize("backend", BACKENDS)
def test_devices_asarray_to_device_and_info(backend: str) -> None:
    xp = namespace(backend)
    info = xp.__array_namespace_info__()
    here = info.default_device()
    assert any(str(d) == str(here) or getattr(d, "type", None) == here for d in info.devices())
    a = xp.asarray([1.0, 2.0], device=here)
    assert on_device(a, xp)
    assert on_device(a.to_device(a.device), xp)
    assert on_device(xp.asarray(a), xp) and on_device(xp.asarray(a, copy=True), xp)
    assert on_device(xp.zeros(2, device=a.device) + a, xp)


def test_arrays_move_between_cpu_and_meta() -> None:
    xp = promo_ns.torch
    cpu = xp.asarray([1.0, 2.0])
    meta = cpu.to_device("meta")
    assert meta.device == torch.device("meta") and meta.dtype is cpu.dtype
    assert xp.asarray([1, 2], device="meta").device == torch.device("meta")
    assert (meta + 1.0).device == torch.device("meta")
    assert torch.device("meta") in xp.__array_namespace_info__().devices()


def test_python_scalars_become_tensors_only_where_torch_takes_none(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []
    real = torch.scalar_tensor

    def counting(value: Any, **kwargs: Any) -> Any:
        made.append(kwargs.get("device"))
        return real(value, **kwargs)

    monkeypatch.setattr(torch, "scalar_tensor", counting)
    xp = promo_ns.namespace("torch", policy="pytorch", device="meta")
    f = xp.ones(3, dtype=xp.float32)
    for r in (f + 1.0, 2 * f, f < 1.0, f**2, 1.0 - f):
        assert r.device == torch.device("meta")
    assert made == []
    assert xp.atan2(f, 1.0).device == torch.device("meta")  # torch.atan2 takes no scalar
    assert made == [torch.device("meta")]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA GPU here")
def test_no_host_synchronization_in_the_op_path_on_cuda() -> None:
    xp = promo_ns.namespace("torch", policy="pytorch", device="cuda")
    f, i = xp.ones(8, dtype=xp.float32), xp.ones(8, dtype=xp.int8)
    torch.cuda.set_sync_debug_mode("error")
    try:
        for r in (f + f, i + f, f + 1.0, 1 - i, f < i, xp.where(f > 0, f, 0.0), xp.sum(i), xp.clip(f, 0, 1)):
            assert r.device.type == "cuda"
        f += i
    finally:
        torch.cuda.set_sync_debug_mode("default")


def test_mixing_devices_raises_a_clear_error() -> None:
    xp = promo_ns.torch
    meta = xp.asarray(torch.ones(3, device="meta"))
    cpu_0d = xp.asarray(1.0)
    with pytest.raises(ValueError, match="different devices"):
        meta + cpu_0d
    attempts: list[Callable[[], Any]] = [
        lambda: meta + xp.ones(3),
        lambda: xp.ones(3) * meta,
        lambda: xp.concat([meta, xp.ones(3)]),
    ]
    for attempt in attempts:
        with pytest.raises(
            ValueError, match=r"different devices \(meta and cpu\)|different devices \(cpu and meta\)"
        ):
            attempt()
    before = promo_ns.unwrap(meta)
    with pytest.raises(ValueError, match=r"x\.to_device"):
        meta += xp.ones(3, dtype=xp.float32)
    assert promo_ns.unwrap(meta) is before


def test_mixing_backends_raises_a_clear_error() -> None:
    a, b = promo_ns.numpy.ones(3), promo_ns.torch.ones(3)
    with pytest.raises(TypeError, match="numpy array with a torch array"):
        a + b
    with pytest.raises(TypeError, match="torch array"):
        promo_ns.numpy.concat([a, b])


@pytest.mark.parametrize("backend", NATIVE_BACKENDS)
def test_bare_native_arrays_and_unknown_types_are_refused(backend: str) -> None:
    xp = namespace(backend)
    a = xp.ones(3)
    with pytest.raises(TypeError, match=r"wrap it first with xp\.asarray"):
        a + promo_ns.unwrap(xp.ones(3))
    with pytest.raises(TypeError, match="str"):
        a + "1"


def test_dtypes_no_policy_knows_are_refused() -> None:
    import ml_dtypes

    with pytest.raises(TypeError, match="no canonical promo_ns dtype"):
        promo_ns.numpy.asarray(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="no canonical promo_ns dtype"):
        promo_ns.numpy.asarray(np.zeros(2, dtype=ml_dtypes.float8_e4m3fn))
    with warnings.catch_warnings():  # torch warns (once) that complex32 is experimental
        warnings.simplefilter("ignore", UserWarning)
        complex32 = torch.zeros(2, dtype=torch.complex32)
    with pytest.raises(TypeError, match="no canonical promo_ns dtype"):
        promo_ns.torch.asarray(complex32)


# --- the policy context manager -------------------------------------------------------------


def _int8_plus_float(xp: Any) -> str:
    try:
        return str((xp.asarray([1], dtype=xp.int8) + 1.5).dtype)
    except PromotionError:
        return "refused"


EXPECTED_INT8_PLUS_FLOAT = {
    "array-api": "refused",
    "pytorch": "float32",
    "numpy": "float64",
    "paddle": "float32",
    "tf-safe": "refused",
}


@pytest.mark.parametrize("backend", BACKENDS)
def test_policy_block_overrides_nests_and_restores(backend: str) -> None:
    xp = namespace(backend)
    assert _int8_plus_float(xp) == "refused"
    with promo_ns.policy("pytorch"):
        assert _int8_plus_float(xp) == "float32"
        with promo_ns.policy("numpy"):
            assert _int8_plus_float(xp) == "float64"
        assert _int8_plus_float(xp) == "float32"
        with pytest.raises(ZeroDivisionError), promo_ns.policy("paddle"):
            raise ZeroDivisionError
        assert _int8_plus_float(xp) == "float32"
    assert _int8_plus_float(xp) == "refused"


def test_sixteen_threads_never_see_each_others_policy() -> None:
    xp = promo_ns.numpy
    a = xp.asarray([1, 2], dtype=xp.int8)
    b = xp.asarray([1.0, 2.0], dtype=xp.float16)
    names = list(EXPECTED_INT8_PLUS_FLOAT)
    expected = {}
    for name in names:
        with promo_ns.policy(name):
            expected[name] = [_outcome(lambda: a + 1.5), _outcome(lambda: a + b), _outcome(lambda: a < b)]
    errors: list[str] = []
    barrier = threading.Barrier(16)

    def work(i: int) -> None:
        name = names[i % len(names)]
        with promo_ns.policy(name):
            barrier.wait()
            for _ in range(10_000 // 3 + 1):
                got = [_outcome(lambda: a + 1.5), _outcome(lambda: a + b), _outcome(lambda: a < b)]
                if got != expected[name]:
                    errors.append(f"thread {i} under {name}: {got} != {expected[name]}")
                    return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:5]


def _outcome(f: Any) -> str:
    try:
        return str(f().dtype)
    except PromotionError:
        return "refused"


def test_policy_blocks_are_task_local() -> None:
    xp = promo_ns.numpy

    async def task(name: str) -> str:
        with promo_ns.policy(name):
            await asyncio.sleep(0)
            return _int8_plus_float(xp)

    async def main() -> list[str]:
        return await asyncio.gather(*(task(n) for n in EXPECTED_INT8_PLUS_FLOAT))

    assert asyncio.run(main()) == list(EXPECTED_INT8_PLUS_FLOAT.values())


# --- in-place ops ------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_refused_inplace_ops_leave_the_left_operand_unchanged(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    pol = get_policy(policy)
    refused = 0
    for left in DTYPES:
        for right in DTYPES:
            try:
                a = xp.asarray([1, 0, 1], dtype=left)
                b = xp.asarray([1, 1, 1], dtype=right)
            except TypeError:  # no such dtype on this backend
                continue
            native, before = promo_ns.unwrap(a), to_numpy(a).copy() if has_values(xp) else None
            for op, attempt, role in (("add", _iadd, Role.ND), ("setitem", _setitem, Role.ZERO_D)):
                try:
                    resolve(pol, op, Operand(left, Role.ND), Operand(right, role), inplace=True)
                    continue
                except PromotionError:
                    refused += 1
                with pytest.raises(PromotionError):
                    attempt(a, b)
            assert promo_ns.unwrap(a) is native
            assert a.dtype is left
            if before is not None:
                np.testing.assert_array_equal(to_numpy(a), before)
    assert refused


def _iadd(a: Any, b: Any) -> None:
    a += b


def _setitem(a: Any, b: Any) -> None:
    a[0] = b[0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_allowed_inplace_ops_keep_the_left_dtype_and_object(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    a = xp.asarray([1, 2, 3], dtype=xp.int16)
    native = promo_ns.unwrap(a)
    a += xp.asarray([1, 1, 1], dtype=xp.int32)
    a *= 2
    a -= 1  # a Python True is refused: torch subtracts no bool
    a[0] = 100
    # JAX arrays are immutable and Dask builds a new graph (the old one is kept): the wrapper rebinds
    assert promo_ns.unwrap(a) is native or backend in ("jax", "dask")
    assert a.dtype is xp.int16
    assert not has_values(xp) or to_numpy(a).tolist() == [100, 5, 7]


# --- the public contract ---------------------------------------------------------------------

# The functions 2025.12 added (array-api-strict at its default, 2025.12, lists them).
_NEWER = {"broadcast_shapes", "isin", "eig", "eigvals"}


@pytest.mark.parametrize("backend", NATIVE_BACKENDS)
def test_the_namespace_has_the_whole_standard(backend: str) -> None:
    import array_api_strict as strict

    xp = namespace(backend)
    old = promo_ns.namespace(backend, api_version="2024.12")
    for module, mine, theirs in (
        (strict, xp, old),
        (strict.linalg, xp.linalg, old.linalg),
        (strict.fft, xp.fft, old.fft),
    ):
        public = {
            n
            for n in getattr(module, "__all__", ())
            if n.islower() and "flags" not in n and not n.startswith("_")
        }
        missing = sorted(n for n in public if not hasattr(mine, n))
        assert not missing, f"{mine.__name__} lacks {missing}"
        assert not sorted(n for n in public - _NEWER if not hasattr(theirs, n))
        assert not [n for n in _NEWER if hasattr(theirs, n)], "2024.12 has none of 2025.12's additions"
    assert xp.__array_api_version__ == "2025.12"
    assert old.__array_api_version__ == "2024.12"
    assert str(xp.float32) == "float32" and xp.bool is BY_NAME["bool"]


@pytest.mark.parametrize("backend", NATIVE_BACKENDS)
def test_api_version_selection(backend: str) -> None:
    xp = namespace(backend)
    a = xp.ones(3)
    assert a.__array_namespace__() is xp
    assert a.__array_namespace__(api_version="2025.12") is xp
    old = a.__array_namespace__(api_version="2024.12")
    assert old is promo_ns.namespace(backend, api_version="2024.12")
    with pytest.raises(ValueError, match=r"implements Array API 2024\.12 and 2025\.12, not '2023\.12'"):
        a.__array_namespace__(api_version="2023.12")  # not served silently by another version
    assert old.policy is xp.policy
    with pytest.raises(ValueError, match=r"2026\.12"):
        a.__array_namespace__(api_version="2026.12")
    assert type(old.meshgrid(old.arange(2), old.arange(3))) is list
    assert type(old.__array_namespace_info__().devices()) is list
    assert type(xp.__array_namespace_info__().devices()) is tuple


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
def test_the_2025_12_additions_ask_the_policy(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    assert xp.isin(x, xp.asarray([2, 5], dtype=xp.int8)).dtype is xp.bool
    assert xp.broadcast_shapes((2, 1), (1, 3)) == (2, 3)
    assert xp.searchsorted(x, xp.asarray([2], dtype=xp.int8)).shape == (1,)
    assert xp.searchsorted(x, 2).shape == ()
    assert xp.expand_dims(x, axis=(0, 2)).shape == (1, 3, 1)
    assert xp.permute_dims(xp.reshape(x, (1, 3)), (-1, -2)).shape == (3, 1)
    m = xp.asarray([[2.0, 0.0], [0.0, 1.0]], dtype=xp.float32)
    if not has_values(xp) and backend.startswith("torch"):
        return  # torch's meta device has no eig kernel
    eigenvalues = xp.linalg.eigvals(m)
    assert eigenvalues.dtype is xp.complex64
    assert xp.linalg.eig(m).eigenvalues.dtype is xp.complex64
    mixed = xp.asarray([1.5, 2.0], dtype=xp.float32)
    try:
        found = xp.isin(x, mixed)
    except promo_ns.PromotionError:
        assert policy in ("array-api", "paddle", "tf-safe")
    else:
        assert found.dtype is xp.bool


def test_ready_namespaces_are_importable_modules() -> None:
    for name in ("numpy", "torch"):
        xp = importlib.import_module(f"promo_ns.{name}")
        assert xp is getattr(promo_ns, name)
        assert xp.__name__ == f"promo_ns.{name}"
        assert xp.policy is get_policy("array-api")


@pytest.mark.parametrize("backend", NATIVE_BACKENDS)
def test_wrapping_is_zero_copy_and_native_interop_works(backend: str) -> None:
    xp = namespace(backend)
    native = promo_ns.unwrap(xp.arange(6, dtype=xp.float32))
    a = xp.asarray(native)
    assert promo_ns.unwrap(a) is native
    assert a.__array_namespace__() is xp
    assert np.asarray(a).tolist() == [0, 1, 2, 3, 4, 5]
    assert np.from_dlpack(a).tolist() == [0, 1, 2, 3, 4, 5]
    assert torch.utils.dlpack.from_dlpack(a).tolist() == [0, 1, 2, 3, 4, 5]
    assert (a.shape, a.ndim, a.size, str(a.dtype)) == ((6,), 1, 6, "float32")
    m = xp.reshape(a, (2, 3))
    assert m.T.shape == (3, 2) and m.mT.shape == (3, 2)
    assert (int(a[1]), float(a[2]), complex(a[3]), bool(a[4])) == (1, 2.0, 3, True)
    assert [10, 11, 12][xp.asarray(2, dtype=xp.int64)] == 12


# --- a backend-agnostic example (the README's) --------------------------------------------------


def _readme_example() -> Any:
    text = (Path(__file__).parent.parent / "README.md").read_text()
    section = text.split("## Backend-agnostic code", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code, "README has no python block under '## Backend-agnostic code'"
    scope: dict[str, Any] = {}
    exec(code.group(1), scope)
    return scope["standardize_and_score"]


@pytest.mark.parametrize("policy", POLICIES)
def test_backend_agnostic_example_gives_identical_dtypes_on_every_backend(policy: str) -> None:
    example = _readme_example()
    data = [[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]]
    dtypes: dict[str, tuple[str, str]] = {}
    scores: dict[str, np.ndarray[Any, Any]] = {}
    for backend in NATIVE_BACKENDS:
        xp = namespace(backend, policy)
        try:
            z, score = example(xp.asarray(data, dtype=xp.float32), xp.asarray([1, 2, 3]))
        except PromotionError as e:
            dtypes[backend] = ("refused", str(e).split(":")[0])
            continue
        dtypes[backend] = (str(z.dtype), str(score.dtype))
        scores[backend] = to_numpy(score)
    assert dtypes["numpy"] == dtypes["torch"]
    if scores:
        np.testing.assert_allclose(scores["numpy"], scores["torch"], rtol=1e-4)
    expected = {
        **{"pytorch": "float32", "numpy": "float64", "jax": "float32"},
        **{"tf-all": "float32", "tf-legacy": "float64"},
    }.get(policy, "refused")
    assert dtypes["numpy"][1 if expected != "refused" else 0] == expected


@pytest.mark.parametrize("backend", NATIVE_BACKENDS)
def test_promoting_functions_have_the_standards_signatures(backend: str) -> None:
    import inspect

    import array_api_strict as strict

    xp = namespace(backend)
    for mine, theirs in ((xp, strict), (xp.linalg, strict.linalg)):
        for name in (
            "sum",
            "prod",
            "cumulative_sum",
            "cumulative_prod",
            "ones",
            "eye",
            "tensordot",
            "vecdot",
            "cross",
        ):
            if not hasattr(theirs, name):
                continue
            got = [(p.name, p.kind) for p in inspect.signature(getattr(mine, name)).parameters.values()]
            want = [(p.name, p.kind) for p in inspect.signature(getattr(theirs, name)).parameters.values()]
            assert got == want, f"{name}: {got} != {want}"


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy is installed here")
def test_a_missing_backend_says_how_to_install_it() -> None:
    # promo_ns is not on PyPI: the library itself, or the extra from a clone
    hint = r"pip install cupy-cuda12x \(from a clone of promo_ns: pip install -e '\.\[cupy\]'\)"
    with pytest.raises(ImportError, match=hint):
        promo_ns.namespace("cupy")
    with pytest.raises(ValueError, match="unknown backend 'mxnet'"):
        promo_ns.namespace("mxnet")


# --- results the standard (2024.12) fixes ---------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_trace_accumulates_like_sum(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    for d in (xp.int8, xp.uint8, xp.float32):
        x = xp.asarray([[1, 2], [3, 4]], dtype=d)
        assert xp.linalg.trace(x).dtype is xp.sum(x).dtype
        assert not has_values(xp) or float(to_numpy(xp.linalg.trace(x))) == 5
        assert xp.linalg.trace(x, dtype=xp.float64).dtype is xp.float64


@pytest.mark.parametrize("backend", BACKENDS)
def test_unsigned_accumulation_is_exact_where_the_backend_has_no_kernel(backend: str) -> None:
    # torch has no CPU sum/prod for uint64: promo_ns accumulates in int64 (mod 2**64) and casts.
    xp = namespace(backend, "array-api")
    big = xp.asarray([2**63 + 5, 2**63 + 7], dtype=xp.uint64)
    small = xp.asarray([200, 100, 7], dtype=xp.uint8)
    results = {
        "sum(big)": (xp.sum(big), (2**64 + 12) % 2**64),
        "prod": (xp.prod(xp.asarray([2**32, 2**32 + 1], dtype=xp.uint64)), 2**32 * (2**32 + 1) % 2**64),
        "sum(small)": (xp.sum(small), 307),
        "cumulative_sum": (xp.cumulative_sum(small), [200, 300, 307]),
        "sum(small, dtype=uint16)": (xp.sum(small, dtype=xp.uint16), 307),
    }
    assert [r.dtype.name for r, _ in results.values()] == ["uint64"] * 4 + ["uint16"]
    if has_values(xp):
        assert {k: to_numpy(r).tolist() for k, (r, _) in results.items()} == {
            k: v for k, (_, v) in results.items()
        }


@pytest.mark.parametrize("backend", BACKENDS)
def test_structured_results_keep_their_names(backend: str) -> None:
    xp = namespace(backend)
    a = xp.asarray([[2.0, 0.0], [0.0, 3.0]])
    assert xp.linalg.eigh(a).eigenvalues.dtype is xp.float64
    assert not has_values(xp) or float(to_numpy(xp.linalg.slogdet(a).logabsdet)) == pytest.approx(math.log(6))
    assert xp.linalg.qr(a).R.shape == (2, 2)
    assert xp.linalg.svd(a).S.dtype is xp.float64
    assert type(xp.meshgrid(xp.arange(2), xp.arange(3))) is tuple
    assert type(xp.broadcast_arrays(a, a)) is tuple
    assert xp.finfo(xp.complex64).dtype is xp.float32
    assert xp.finfo(xp.complex128).dtype is xp.float64
    params = inspect.signature(a.__dlpack__).parameters
    assert list(params) == ["stream", "max_version", "dl_device", "copy"]


def test_a_block_closed_in_another_context_is_dropped_from_this_one() -> None:
    import contextvars

    from promo_ns._context import _SCOPE

    xp = promo_ns.namespace("numpy", policy="array-api")
    a, b = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.5], dtype=xp.float32)
    block = promo_ns.policy("pytorch")
    block.__enter__()
    assert (a + b).dtype is xp.float32
    contextvars.copy_context().run(block.__exit__, None, None, None)  # as a task ending it elsewhere
    with pytest.raises(PromotionError):
        a + b  # the namespace's policy again
    assert _SCOPE.get() is None  # and the code outside blocks takes its own paths again
    assert xp.where(a > 1, a, a).dtype is xp.int8


def test_binary_functions_have_the_standards_signature() -> None:
    # found in review: the one-frame binary functions showed their operator's (self, other, /)
    from promo_ns._functions import elementwise

    xp = promo_ns.namespace("numpy")
    for op in elementwise.BINARY:
        assert str(inspect.signature(getattr(xp, op))) == "(x1, x2, /)", op
