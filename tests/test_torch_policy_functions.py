"""``promo_ns.torch_policy`` beyond the binary ops: statistics, cumulative sums, linalg, fft, creation.

Each torch spelling, on tensors of every dtype and under every policy, gives
the promo_ns torch namespace's outcome for the function of the same meaning:
the dtype, the values, or the refusal's class.  Creation functions without
``dtype=`` give the namespace's (the policy's default dtypes).
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import promo_ns  # noqa: E402
from promo_ns import PromotionError  # noqa: E402
from tests.backends import POLICIES, agrees_under_torch_policy  # noqa: E402

DTYPES = [
    *("bool", "int8", "uint8", "uint16", "int32", "int64"),
    *("float16", "bfloat16", "float32", "float64", "complex64", "complex128"),
]

#: (spelling, torch's call on a tensor, the namespace's call on (xp, its array)).
_Case = tuple[str, Callable[[Any], Any], Callable[[Any, Any], Any]]


def _outcome(call: Callable[[], Any]) -> str:
    """``call()``'s dtypes and values (of each part of a tuple), or the class of its error."""
    try:
        out = call()
    except PromotionError:
        return "PromotionError"
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, RuntimeError, NotImplementedError) as e:
        return type(e).__name__
    return " | ".join(_described(o) for o in (out if isinstance(out, tuple) else (out,)))


def _described(out: Any) -> str:
    out = promo_ns.unwrap(out)
    values = out.detach().resolve_conj().to(torch.complex128 if out.is_complex() else torch.float64)
    return f"{str(out.dtype).removeprefix('torch.')} {np.round(values.numpy(), 5).tolist()}"


def _compared(policy: str, cases: list[_Case], inputs: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(spelling, input, torch_policy's outcome, the namespace's) of each case and input that differ."""
    xp = promo_ns.namespace("torch", policy=policy)
    differ = []
    for spelling, ours, theirs in cases:
        for name, x in inputs.items():
            with promo_ns.torch_policy(policy):
                got = _outcome(lambda: ours(x))  # noqa: B023
            want = _outcome(lambda: theirs(xp, xp.asarray(x)))  # noqa: B023
            if not agrees_under_torch_policy(got, want):
                differ.append((spelling, name, got, want))
    return differ


def _of(dtype: str, values: Any) -> Any:
    return torch.tensor(values).to(getattr(torch, dtype))


#: A symmetric positive definite matrix of small integers (the identity for bool): exact in every dtype.
MATRICES = {d: _of(d, [[1, 0], [0, 1]] if d == "bool" else [[2, 1], [1, 3]]) for d in DTYPES}
#: A 2 x 3 array, for statistics and cumulative sums over each axis.
TABLES = {d: _of(d, [[1, 0, 1], [1, 1, 0]] if d == "bool" else [[1, 2, 0], [3, 1, 2]]) for d in DTYPES}
#: A vector of four values, for the transforms.
VECTORS = {d: _of(d, [1, 0, 1, 1] if d == "bool" else [1, 2, 0, 3]) for d in DTYPES}

STATISTICS: list[_Case] = [
    ("torch.std(x)", torch.std, lambda xp, a: xp.std(a, correction=1)),
    ("x.var()", lambda x: x.var(), lambda xp, a: xp.var(a, correction=1)),
    ("torch.var(x, False)", lambda x: torch.var(x, False), lambda xp, a: xp.var(a)),
    (
        "x.std(0, True, True)",
        lambda x: x.std(0, True, True),
        lambda xp, a: xp.std(a, axis=0, correction=1, keepdims=True),
    ),
    (
        "torch.var(x, dim=1, unbiased=False)",
        lambda x: torch.var(x, dim=1, unbiased=False),
        lambda xp, a: xp.var(a, axis=1),
    ),
    (
        "torch.std(x, dim=[0, 1], correction=0.5, keepdim=True)",
        lambda x: torch.std(x, dim=[0, 1], correction=0.5, keepdim=True),
        lambda xp, a: xp.std(a, axis=(0, 1), correction=0.5, keepdims=True),
    ),
    (
        "x.var(dim=-1, correction=2)",
        lambda x: x.var(dim=-1, correction=2),
        lambda xp, a: xp.var(a, axis=-1, correction=2),
    ),
    ("torch.cumsum(x, 0)", lambda x: torch.cumsum(x, 0), lambda xp, a: xp.cumulative_sum(a, axis=0)),
    ("x.cumsum(dim=-1)", lambda x: x.cumsum(dim=-1), lambda xp, a: xp.cumulative_sum(a, axis=-1)),
    ("torch.cumprod(x, 1)", lambda x: torch.cumprod(x, 1), lambda xp, a: xp.cumulative_prod(a, axis=1)),
    (
        "x.cumprod(0, dtype=torch.float64)",
        lambda x: x.cumprod(0, dtype=torch.float64),
        lambda xp, a: xp.cumulative_prod(a, axis=0, dtype=xp.float64),
    ),
    (
        "torch.cumsum(x, 1, dtype=torch.int8)",
        lambda x: torch.cumsum(x, 1, dtype=torch.int8),
        lambda xp, a: xp.cumulative_sum(a, axis=1, dtype=xp.int8),
    ),
]

#: Reductions along axes and the functions whose input kinds a policy restricts.
ALONG: list[_Case] = [
    ("torch.all(x)", torch.all, lambda xp, a: xp.all(a)),
    ("torch.max(x)", torch.max, lambda xp, a: xp.max(a)),
    ("x.min()", lambda x: x.min(), lambda xp, a: xp.min(a)),
    ("x.max(1)", lambda x: x.max(1), lambda xp, a: (xp.max(a, axis=1), xp.argmax(a, axis=1))),
    (
        "torch.min(x, dim=0, keepdim=True)",
        lambda x: torch.min(x, dim=0, keepdim=True),
        lambda xp, a: (xp.min(a, axis=0, keepdims=True), xp.argmin(a, axis=0, keepdims=True)),
    ),
    (
        "torch.std_mean(x, 0)",
        lambda x: torch.std_mean(x, 0),
        lambda xp, a: (xp.std(a, axis=0, correction=1), xp.mean(a, axis=0)),
    ),
    (
        "torch.var_mean(x, [0, 1], unbiased=False, keepdim=True)",
        lambda x: torch.var_mean(x, [0, 1], unbiased=False, keepdim=True),
        lambda xp, a: (xp.var(a, keepdims=True), xp.mean(a, keepdims=True)),
    ),
    (
        "x.any(dim=1, keepdim=True)",
        lambda x: x.any(dim=1, keepdim=True),
        lambda xp, a: xp.any(a, axis=1, keepdims=True),
    ),
    ("torch.argmax(x)", torch.argmax, lambda xp, a: xp.argmax(a)),
    ("x.argmin(0, True)", lambda x: x.argmin(0, True), lambda xp, a: xp.argmin(a, axis=0, keepdims=True)),
    ("torch.amax(x, (0, 1))", lambda x: torch.amax(x, (0, 1)), lambda xp, a: xp.max(a, axis=(0, 1))),
    ("x.amin(dim=-1)", lambda x: x.amin(dim=-1), lambda xp, a: xp.min(a, axis=-1)),
    ("x.sort()", lambda x: x.sort(), lambda xp, a: (xp.sort(a, stable=False), xp.argsort(a, stable=False))),
    (
        "torch.sort(x, stable=True, dim=0, descending=True)",
        lambda x: torch.sort(x, stable=True, dim=0, descending=True),
        lambda xp, a: (xp.sort(a, axis=0, descending=True), xp.argsort(a, axis=0, descending=True)),
    ),
    ("torch.argsort(x, stable=True)", lambda x: torch.argsort(x, stable=True), lambda xp, a: xp.argsort(a)),
    ("torch.diff(x)", torch.diff, lambda xp, a: xp.diff(a)),
    (
        "x.diff(dim=0, prepend=x[:1])",
        lambda x: x.diff(dim=0, prepend=x[:1]),
        lambda xp, a: xp.diff(a, axis=0, prepend=a[:1, ...]),
    ),
    ("torch.real(x)", torch.real, lambda xp, a: xp.real(a)),
    ("torch.imag(x)", torch.imag, lambda xp, a: xp.imag(a)),
    ("x.real", lambda x: x.real, lambda xp, a: xp.real(a)),
    ("x.imag", lambda x: x.imag, lambda xp, a: xp.imag(a)),
]

LINALG: list[_Case] = [
    *(
        (
            f"torch.linalg.{name}(x)",
            getattr(torch.linalg, name),
            lambda xp, a, n=name: getattr(xp.linalg, n)(a),
        )
        for name in ("det", "inv", "slogdet", "eig", "eigvals", "qr", "svd", "svdvals", "eigh", "eigvalsh")
    ),
    *(
        (
            f"torch.linalg.{name}(x)",
            getattr(torch.linalg, name),
            lambda xp, a, n=name: getattr(xp.linalg, n)(a),
        )
        for name in ("cholesky", "pinv", "matrix_rank", "matrix_norm", "vector_norm")
    ),
    ("torch.det(x)", torch.det, lambda xp, a: xp.linalg.det(a)),
    ("x.inverse()", lambda x: x.inverse(), lambda xp, a: xp.linalg.inv(a)),
    ("torch.trace(x)", torch.trace, lambda xp, a: xp.linalg.trace(a)),
    ("x.matrix_power(3)", lambda x: x.matrix_power(3), lambda xp, a: xp.linalg.matrix_power(a, 3)),
    (
        "torch.linalg.eigvalsh(x, 'U')",
        lambda x: torch.linalg.eigvalsh(x, "U"),
        lambda xp, a: xp.linalg.eigvalsh(a),
    ),
    (
        "torch.linalg.cholesky(x, upper=True)",
        lambda x: torch.linalg.cholesky(x, upper=True),
        lambda xp, a: xp.linalg.cholesky(a, upper=True),
    ),
    (
        "torch.linalg.qr(x, 'complete')",
        lambda x: torch.linalg.qr(x, "complete"),
        lambda xp, a: xp.linalg.qr(a, mode="complete"),
    ),
    (
        "torch.linalg.svd(x, False)",
        lambda x: torch.linalg.svd(x, False),
        lambda xp, a: xp.linalg.svd(a, full_matrices=False),
    ),
    (
        "torch.linalg.pinv(x, rtol=0.1)",
        lambda x: torch.linalg.pinv(x, rtol=0.1),
        lambda xp, a: xp.linalg.pinv(a, rtol=0.1),
    ),
    (
        "torch.linalg.matrix_norm(x, 1, dim=(1, 0), keepdim=True)",
        lambda x: torch.linalg.matrix_norm(x, 1, dim=(1, 0), keepdim=True),
        lambda xp, a: xp.linalg.matrix_norm(xp.matrix_transpose(a), ord=1, keepdims=True),
    ),
    (
        "torch.linalg.vector_norm(x, math.inf, 0)",
        lambda x: torch.linalg.vector_norm(x, math.inf, 0),
        lambda xp, a: xp.linalg.vector_norm(a, ord=math.inf, axis=0),
    ),
    ("torch.linalg.norm(x)", torch.linalg.norm, lambda xp, a: xp.linalg.vector_norm(a)),
    (
        "torch.linalg.norm(x, 'nuc')",
        lambda x: torch.linalg.norm(x, "nuc"),
        lambda xp, a: xp.linalg.matrix_norm(a, ord="nuc"),
    ),
    (
        "torch.linalg.norm(x, 1, dim=1, keepdim=True)",
        lambda x: torch.linalg.norm(x, 1, dim=1, keepdim=True),
        lambda xp, a: xp.linalg.vector_norm(a, ord=1, axis=1, keepdims=True),
    ),
]

FFT: list[_Case] = [
    *(
        (f"torch.fft.{name}(x)", getattr(torch.fft, name), lambda xp, a, n=name: getattr(xp.fft, n)(a))
        for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn")
    ),
    *(
        (f"torch.fft.{name}(x)", getattr(torch.fft, name), lambda xp, a, n=name: getattr(xp.fft, n)(a))
        for name in ("fftshift", "ifftshift")
    ),
    (
        "torch.fft.fft(x, 6, norm='ortho')",
        lambda x: torch.fft.fft(x, 6, norm="ortho"),
        lambda xp, a: xp.fft.fft(a, n=6, norm="ortho"),
    ),
    (
        "torch.fft.irfft(x, n=5, dim=0)",
        lambda x: torch.fft.irfft(x, n=5, dim=0),
        lambda xp, a: xp.fft.irfft(a, n=5, axis=0),
    ),
    (
        "torch.fft.rfft2(x[None])",
        lambda x: torch.fft.rfft2(x[None]),
        lambda xp, a: xp.fft.rfftn(a[None, ...], axes=(-2, -1)),
    ),
    (
        "torch.fft.ifftn(x, s=(6,), norm='forward')",
        lambda x: torch.fft.ifftn(x, s=(6,), norm="forward"),
        lambda xp, a: xp.fft.ifftn(a, s=(6,), norm="forward"),
    ),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(
    ("cases", "inputs"),
    [(STATISTICS, TABLES), (ALONG, TABLES), (LINALG, MATRICES), (FFT, VECTORS)],
    ids=["statistics", "along", "linalg", "fft"],
)
def test_functions_of_one_array_give_the_namespaces_outcome(
    policy: str, cases: list[_Case], inputs: dict[str, Any]
) -> None:
    differ = _compared(policy, cases, inputs)
    assert not differ, f"(spelling, dtype, torch_policy, namespace): {differ[:5]}"


#: (spelling, torch's call on two tensors, the namespace's call on (xp, a, b)).
_PAIRS: list[tuple[str, Callable[[Any, Any], Any], Callable[[Any, Any, Any], Any]]] = [
    ("torch.linalg.solve(x, y)", torch.linalg.solve, lambda xp, a, b: xp.linalg.solve(a, b)),
    (
        "torch.linalg.solve(x, y, left=False)",
        lambda x, y: torch.linalg.solve(x, y, left=False),
        lambda xp, a, b: xp.matrix_transpose(xp.linalg.solve(xp.matrix_transpose(a), xp.matrix_transpose(b))),
    ),
    (
        "torch.linalg.solve(x3, y3[..., 0])",  # a batch of vectors, as torch reads a B of one axis fewer
        lambda x, y: torch.linalg.solve(x.expand(3, *x.shape), y[..., 0].expand(3, y.shape[0])),
        lambda xp, a, b: xp.linalg.solve(
            xp.broadcast_to(a, (3, *a.shape)), xp.broadcast_to(b[..., 0:1], (3, *b[..., 0:1].shape))
        )[..., 0],
    ),
    ("torch.linalg.matmul(x, y)", torch.linalg.matmul, lambda xp, a, b: xp.matmul(a, b)),
    ("torch.mm(x, y)", torch.mm, lambda xp, a, b: xp.matmul(a, b)),
    ("torch.max(x, y)", torch.max, lambda xp, a, b: xp.maximum(a, b)),
    ("x.min(y)", lambda x, y: x.min(y), lambda xp, a, b: xp.minimum(a, b)),
    ("x.mv(y[0])", lambda x, y: x.mv(y[0]), lambda xp, a, b: xp.matmul(a, b[0])),
    ("torch.dot(x[0], y[1])", lambda x, y: torch.dot(x[0], y[1]), lambda xp, a, b: xp.matmul(a[0], b[1])),
    ("x[None].bmm(y[None])", lambda x, y: x[None].bmm(y[None]), lambda xp, a, b: xp.matmul(a[None], b[None])),
    (
        "torch.linalg.vecdot(x, y, dim=0)",
        lambda x, y: torch.linalg.vecdot(x, y, dim=0),
        lambda xp, a, b: xp.linalg.vecdot(a, b, axis=0),
    ),
    (
        "torch.linalg.cross(x3, y3)",
        lambda x, y: torch.linalg.cross(_three(x), _three(y)),
        lambda xp, a, b: xp.linalg.cross(xp.asarray(_three(a._x)), xp.asarray(_three(b._x))),
    ),
    (
        "x3.cross(y3)",
        lambda x, y: _three(x).cross(_three(y)),
        lambda xp, a, b: xp.linalg.cross(xp.asarray(_three(a._x)), xp.asarray(_three(b._x)), axis=0),
    ),
]


def _three(x: Any) -> Any:
    """A 3 x 2 tensor of ``x``'s dtype from the 2 x 2 ``x``: vectors of three along the first axis."""
    return torch.cat([x, x[:1]])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("spelling", [s for s, _, _ in _PAIRS])
def test_linalg_of_two_dtypes_gives_the_namespaces_outcome(policy: str, spelling: str) -> None:
    _, ours, theirs = next(c for c in _PAIRS if c[0] == spelling)
    xp = promo_ns.namespace("torch", policy=policy)
    differ = []
    for left in DTYPES:
        for right in DTYPES:
            x, y = MATRICES[left], MATRICES[right]
            with promo_ns.torch_policy(policy):
                got = _outcome(lambda: ours(x, y))  # noqa: B023
            want = _outcome(lambda: theirs(xp, xp.asarray(x), xp.asarray(y)))  # noqa: B023
            if not agrees_under_torch_policy(got, want):
                differ.append((left, right, got, want))
    assert not differ, f"(x, y, torch_policy, namespace): {differ[:5]}"


#: (spelling, torch's call, the namespace's call on xp): creation without dtype=.
CREATION: list[tuple[str, Callable[[], Any], Callable[[Any], Any]]] = [
    ("torch.arange(3)", lambda: torch.arange(3), lambda xp: xp.arange(3)),
    ("torch.arange(1, 7, 2)", lambda: torch.arange(1, 7, 2), lambda xp: xp.arange(1, 7, 2)),
    ("torch.arange(0, 1, 0.25)", lambda: torch.arange(0, 1, 0.25), lambda xp: xp.arange(0, 1, 0.25)),
    ("torch.arange(end=2.5)", lambda: torch.arange(end=2.5), lambda xp: xp.arange(2.5)),
    ("torch.tensor(1.5)", lambda: torch.tensor(1.5), lambda xp: xp.asarray(1.5)),
    ("torch.tensor([1, 2])", lambda: torch.tensor([1, 2]), lambda xp: xp.asarray([1, 2])),
    ("torch.tensor([[1, 2.5]])", lambda: torch.tensor([[1, 2.5]]), lambda xp: xp.asarray([[1, 2.5]])),
    ("torch.tensor(True)", lambda: torch.tensor(True), lambda xp: xp.asarray(True)),
    ("torch.tensor([1 + 2j])", lambda: torch.tensor([1 + 2j]), lambda xp: xp.asarray([1 + 2j])),
    ("torch.tensor([])", lambda: torch.tensor([]), lambda xp: xp.asarray([])),
    ("torch.as_tensor([1, 2])", lambda: torch.as_tensor([1, 2]), lambda xp: xp.asarray([1, 2])),
    ("torch.asarray(2.5)", lambda: torch.asarray(2.5), lambda xp: xp.asarray(2.5)),
    ("torch.zeros(2, 3)", lambda: torch.zeros(2, 3), lambda xp: xp.zeros((2, 3))),
    ("torch.ones((2,))", lambda: torch.ones((2,)), lambda xp: xp.ones((2,))),
    ("torch.zeros(size=[1, 2])", lambda: torch.zeros(size=[1, 2]), lambda xp: xp.zeros((1, 2))),
    ("torch.empty(2).zero_()", lambda: torch.empty(2).zero_(), lambda xp: xp.zeros(2)),
    ("torch.full((2,), 7)", lambda: torch.full((2,), 7), lambda xp: xp.full((2,), 7)),
    ("torch.full([2], 1.5)", lambda: torch.full([2], 1.5), lambda xp: xp.full((2,), 1.5)),
    ("torch.full((2,), True)", lambda: torch.full((2,), True), lambda xp: xp.full((2,), True)),
    ("torch.full((1,), 1j)", lambda: torch.full((1,), 1j), lambda xp: xp.full((1,), 1j)),
    ("torch.linspace(0, 1, 5)", lambda: torch.linspace(0, 1, 5), lambda xp: xp.linspace(0, 1, 5)),
    ("torch.linspace(0, 1j, 3)", lambda: torch.linspace(0, 1j, 3), lambda xp: xp.linspace(0, 1j, 3)),
    ("torch.eye(2)", lambda: torch.eye(2), lambda xp: xp.eye(2)),
    ("torch.eye(2, 3)", lambda: torch.eye(2, 3), lambda xp: xp.eye(2, 3)),
    ("torch.fft.fftfreq(4)", lambda: torch.fft.fftfreq(4), lambda xp: xp.fft.fftfreq(4)),
    (
        "torch.fft.rfftfreq(5, d=0.5)",
        lambda: torch.fft.rfftfreq(5, d=0.5),
        lambda xp: xp.fft.rfftfreq(5, d=0.5),
    ),
]


@pytest.mark.parametrize("policy", POLICIES)
def test_creation_without_dtype_gives_the_policys_defaults(policy: str) -> None:
    xp = promo_ns.namespace("torch", policy=policy)
    differ = []
    for spelling, ours, theirs in CREATION:
        with promo_ns.torch_policy(policy):
            got = _outcome(ours)
        want = _outcome(lambda: theirs(xp))  # noqa: B023
        if got != want:
            differ.append((spelling, got, want))
    assert not differ, f"(spelling, torch_policy, namespace): {differ[:5]}"


def test_the_briefs_defaults() -> None:
    with promo_ns.torch_policy("numpy"):
        assert torch.arange(3).dtype == torch.int64 and torch.tensor(1.5).dtype == torch.float64
    with promo_ns.torch_policy("tf-safe"):
        assert torch.arange(3).dtype == torch.int32 and torch.tensor([1j]).dtype == torch.complex128
    with promo_ns.torch_policy("jax"):
        assert torch.zeros(2).dtype == torch.float64 and torch.tensor(1).dtype == torch.int64
    with promo_ns.torch_policy("pytorch"):
        assert torch.tensor(1.5).dtype == torch.float32


def test_torchs_keywords_are_honoured_or_refused() -> None:
    i32 = torch.tensor([[2, 1], [1, 3]], dtype=torch.int32)
    with promo_ns.torch_policy("numpy"):
        # with a dtype, from a tensor or an ndarray: torch's own
        assert torch.arange(3, dtype=torch.int8).dtype == torch.int8
        assert torch.tensor(np.ones(2, dtype=np.float32)).dtype == torch.float32
        assert torch.tensor([np.ones(2, dtype=np.float32)] * 2).dtype == torch.float32
        assert torch.tensor(torch.ones(2, dtype=torch.float16)).dtype == torch.float16
        made = torch.tensor([1.5], requires_grad=True, device="cpu")
        assert made.requires_grad and made.dtype == torch.float64 and made.is_leaf
        assert torch.zeros(2, requires_grad=True).requires_grad
        out = torch.empty(3, dtype=torch.float32)
        assert torch.arange(3, out=out) is out and out.dtype == torch.float32
        f16 = torch.ones(2, dtype=torch.float16)
        assert torch.linalg.vector_norm(f16, dtype=torch.float64).dtype == torch.float64  # torch's own
        refused: list[tuple[Callable[[], object], str]] = [
            (lambda: torch.linalg.pinv(i32, atol=0.1), "atol"),
            (lambda: torch.linalg.pinv(i32, hermitian=True), "hermitian"),
            (lambda: torch.linalg.matrix_rank(i32, atol=0.1), "atol"),
            (lambda: torch.linalg.svdvals(i32, driver="gesvd"), "driver"),
        ]
        for call, argument in refused:
            with pytest.raises(TypeError, match=f"torch_policy: .*'s {argument}="):
                call()
        # a memory format or a layout: the policy's dtype, in torch's format or layout
        made = torch.empty((1, 2, 3, 4), memory_format=torch.channels_last)
        assert made.dtype == torch.float64 and made.is_contiguous(memory_format=torch.channels_last)
        made = torch.empty(1, 2, 3, 4, memory_format=torch.channels_last, requires_grad=True)
        assert made.dtype == torch.float64 and made.is_contiguous(memory_format=torch.channels_last)
        assert made.requires_grad and made.is_leaf
        made = torch.zeros(2, 3, layout=torch.sparse_coo)
        assert made.dtype == torch.float64 and made.layout == torch.sparse_coo
        assert made.to_dense().tolist() == [[0.0] * 3] * 2
        with pytest.raises(RuntimeError):  # torch's own refusals, as outside the block
            torch.ones(2, layout=torch.sparse_coo)
        with pytest.raises(RuntimeError):
            torch.empty(2, memory_format=torch.preserve_format)
        assert (
            torch.empty(2, layout=torch.strided, memory_format=torch.contiguous_format).dtype == torch.float64
        )
        assert torch.linalg.matrix_rank(i32, hermitian=False).dtype == torch.int64  # the default: fine
        assert torch.std(input=i32).dtype == torch.float64  # input= as torch names it
        assert torch.fft.fft(input=i32[0], n=4).dtype == torch.complex128


def test_matrix_norms_over_other_axes() -> None:
    x = torch.arange(24, dtype=torch.int32).reshape(2, 3, 4)
    with promo_ns.torch_policy("numpy"):
        got = torch.linalg.matrix_norm(x, dim=(0, 2), keepdim=True)
        norm = torch.linalg.norm(x, ord=1, dim=(2, 0))
    want = torch.linalg.matrix_norm(x.double(), dim=(0, 2), keepdim=True)
    assert got.dtype == torch.float64 and got.shape == (1, 3, 1) and torch.allclose(got, want)
    assert torch.allclose(norm, torch.linalg.norm(x.double(), ord=1, dim=(2, 0)))
    with promo_ns.torch_policy("numpy"), pytest.raises(RuntimeError):
        torch.linalg.norm(x, ord=2)  # torch's own error: ord without dim of a 3-d tensor
    with promo_ns.torch_policy("numpy"), pytest.raises(RuntimeError):
        torch.linalg.matrix_norm(x[0, 0])  # torch's own error: a vector


@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_under_torch_compile(backend: str) -> None:
    if backend == "inductor":
        pytest.importorskip("torch._inductor")

    def f(x: Any) -> Any:
        return (
            torch.std(x),
            x.cumsum(0),
            torch.linalg.det(x[:2, :2]),
            torch.fft.fft(x[0]),
            torch.arange(3) + torch.tensor(1.5),
        )

    compiled = torch.compile(f, backend=backend)
    i32 = torch.tensor([[2, 1, 0], [1, 3, 1]], dtype=torch.int32)
    with promo_ns.torch_policy("numpy"):
        got, eager = compiled(i32), f(i32)
    want = [torch.float64, torch.int64, torch.float64, torch.complex128, torch.float64]
    assert [t.dtype for t in got] == want
    assert all(torch.allclose(a, b) for a, b in zip(got, eager, strict=True))
    with promo_ns.torch_policy("pytorch"), pytest.raises(PromotionError, match="refuses std"):
        compiled(i32)


@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_an_operator_refused_under_torch_compile_is_a_promotion_error(backend: str) -> None:
    if backend == "inductor":
        pytest.importorskip("torch._inductor")

    def add(a: Any, b: Any) -> Any:
        return a + b

    def reflected(a: Any) -> Any:
        return 1.5 - a

    def inplace(a: Any, b: Any) -> Any:
        a += b
        return a

    i32, f32 = torch.ones(3, dtype=torch.int32), torch.ones(3)
    with promo_ns.torch_policy("paddle"):
        with pytest.raises(PromotionError, match="refuses add"):
            torch.compile(add, backend=backend)(i32, f32)
        with pytest.raises(PromotionError, match="refuses add"):
            torch.compile(inplace, backend=backend)(i32.clone(), f32)
    with promo_ns.torch_policy("array-api"), pytest.raises(PromotionError, match="refuses subtract"):
        torch.compile(reflected, backend=backend)(i32)
    assert torch.compile(add, backend=backend)(i32, f32).dtype == torch.float32  # torch's own again


def test_inside_compare_the_functions_are_reported_at_the_users_line() -> None:
    i32 = torch.tensor([[2, 1], [1, 3]], dtype=torch.int32)
    with promo_ns.torch_policy("numpy"), promo_ns.compare("numpy", "pytorch") as report:
        d = torch.linalg.det(i32)  # float64 under numpy, refused under pytorch
        s = i32.std()  # float64 under numpy, refused under pytorch
    assert d.dtype == torch.float64 and s.dtype == torch.float64
    lines = {diff.op: diff.location.rpartition(":")[2] for diff in report.differences}
    assert lines == {
        "linalg.det": str(_line_of("d = torch.linalg.det(i32)")),
        "std": str(_line_of("s = i32.std()")),
    }
    assert all("test_torch_policy_functions.py:" in diff.location for diff in report.differences)


def _line_of(text: str) -> int:
    source = open(__file__).read().splitlines()  # noqa: SIM115
    return next(i for i, line in enumerate(source, 1) if text in line and "_line_of" not in line)


def test_the_overhead_benchmark_runs() -> None:
    from benchmarks.torch_policy_overhead import STATEMENTS, measure

    rows = measure("numpy", rounds=1, loops=1)
    assert set(rows) == set(STATEMENTS) and all(len(times) == 3 for times in rows.values())


#: Calls torch refuses for an argument (not a dtype): the same refusal, in torch's words, in a block.
_TORCHS_REFUSALS: list[tuple[str, Callable[[], object]]] = [
    ("norm-order-str", lambda: torch.linalg.norm(torch.ones(3), ord="bad")),
    ("vector_norm-order-str", lambda: torch.linalg.vector_norm(torch.ones(3), ord="fro")),
    ("matrix_norm-order-3", lambda: torch.linalg.matrix_norm(torch.ones(2, 2), ord=3)),
    ("norm-matrix-order-str", lambda: torch.linalg.norm(torch.ones(2, 2), ord="bad")),
    ("trace-vector", lambda: torch.trace(torch.ones(3))),
    ("trace-stack", lambda: torch.ones(2, 2, 2).trace()),
    ("sparse-setitem", lambda: torch.eye(3).to_sparse().__setitem__(0, 1.0)),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", _TORCHS_REFUSALS, ids=[c[0] for c in _TORCHS_REFUSALS])
def test_torchs_argument_refusals_are_torchs_in_a_block(policy: str, case: tuple[str, Any]) -> None:
    _, call = case
    with pytest.raises(Exception) as outside:
        call()
    with promo_ns.torch_policy(policy), pytest.raises(Exception) as inside:
        call()
    assert (type(inside.value), str(inside.value)) == (type(outside.value), str(outside.value))


_WRITTEN: Any = torch.ones(2)  # a raising op in place leaves it as it is
_WRITTEN_INT: Any = torch.tensor([1])
_TWO, _THREE, _TWO_BY_THREE = torch.ones(2), torch.ones(3), torch.ones(2, 3)  # made outside any block
_FLAGS, _ONE, _ZERO = torch.ones(2, dtype=torch.bool), torch.tensor([1]), torch.tensor([0])
_EVERY = tuple(POLICIES)
#: Bad arguments torch refuses, and the policies under which nothing of the policy's refuses first.
_BAD_ARGUMENTS: dict[str, tuple[Callable[[], Any], tuple[str, ...]]] = {
    "arange of nan": (lambda: torch.arange(float("nan")), _EVERY),
    "arange to inf": (lambda: torch.arange(0, float("inf")), _EVERY),
    "diff of a negative order": (lambda: torch.diff(_THREE, n=-1), _EVERY),
    "sum over a dim twice": (lambda: torch.sum(_TWO_BY_THREE, dim=(0, 0)), _EVERY),
    "sum over a dim twice, once negative": (lambda: torch.sum(_TWO_BY_THREE, dim=(0, -2)), _EVERY),
    "mean over a dim twice": (lambda: torch.mean(_TWO_BY_THREE, dim=[1, 1]), _EVERY),
    "std over a dim twice": (lambda: torch.std(_TWO_BY_THREE, dim=(1, 1)), _EVERY),
    # found in review: shapes that do not fit and integer division by zero were the namespace's
    # ValueError and ZeroDivisionError, where torch raises RuntimeError
    "add of shapes that do not fit": (lambda: torch.add(_TWO, _THREE), _EVERY),
    "+ of shapes that do not fit": (lambda: _TWO + _THREE, _EVERY),
    "@ of shapes that do not fit": (lambda: _TWO_BY_THREE @ _TWO_BY_THREE, _EVERY),
    "where of shapes that do not fit": (lambda: torch.where(_FLAGS, _THREE, _TWO), _EVERY),
    "det of a non-square matrix": (lambda: torch.linalg.det(_TWO_BY_THREE), _EVERY),
    "add_ of shapes that do not fit": (lambda: _WRITTEN.add_(_THREE), _EVERY),
    "+= of shapes that do not fit": (lambda: _WRITTEN.__iadd__(_THREE), _EVERY),
    # the policies whose zero divisor raises, and whose fft takes a real array
    "integer // 0": (lambda: _ONE // _ZERO, ("pytorch", "paddle")),
    "//= 0": (lambda: _WRITTEN_INT.__ifloordiv__(_ZERO), ("pytorch", "paddle")),
    "fft of no points": (lambda: torch.fft.fft(_THREE, n=0), ("pytorch", "numpy", "jax", "paddle")),
}


@pytest.mark.parametrize(
    ("case", "policy"), [(case, policy) for case, (_, among) in _BAD_ARGUMENTS.items() for policy in among]
)
def test_bad_arguments_raise_torchs_own_error_inside_the_block(case: str, policy: str) -> None:
    # found in review: these were the namespace's ValueError inside the block, torch's RuntimeError outside
    call = _BAD_ARGUMENTS[case][0]
    with pytest.raises(RuntimeError) as outside:
        call()
    with promo_ns.torch_policy(policy), pytest.raises(RuntimeError) as inside:
        call()
    assert str(inside.value) == str(outside.value)
    assert _WRITTEN.tolist() == [1.0, 1.0] and _WRITTEN_INT.tolist() == [1]


@pytest.mark.parametrize("policy", POLICIES)
def test_reductions_over_no_dims_are_torchs(policy: str) -> None:
    # found in review: torch.all(x, dim=()) reduced every dim inside the block; torch's all and any
    # over no dims reduce none, its sum and mean every one
    x = torch.tensor([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]])
    for name in ("all", "any", "sum", "mean"):
        want = getattr(torch, name)(x, dim=())
        with promo_ns.torch_policy(policy):
            got = getattr(torch, name)(x, dim=())
        assert got.shape == want.shape and got.tolist() == want.tolist(), name


def test_torchs_own_deprecation_warnings_are_given_inside_the_block() -> None:
    # found in review: torch.cross without dim warned outside the block only (torch warns once a
    # process: a fresh interpreter shows it)
    code = (
        "import warnings, torch, promo_ns\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    with promo_ns.torch_policy('numpy'):\n"
        "        torch.cross(torch.ones(3, 3), torch.ones(3, 3))\n"
        "        torch.meshgrid(torch.ones(2), torch.ones(2))\n"
        "print([str(w.message) for w in caught])\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "Using torch.cross without specifying the dim arg is deprecated" in shown
    assert "torch.meshgrid: in an upcoming release" in shown
