"""``promo_ns.torch_policy``: plain torch tensors under a policy, in every spelling torch offers.

Each spelling of each binary op of the registry (``torch.<fn>``, ``x.<fn>(y)``,
``x.<fn>_(y)``, ``x op y``, ``s op x``, ``x op= y``) and ``x[key] = value`` on
plain tensors inside the block gives the promo_ns torch namespace's outcome for the same spelling:
the dtype, the values, or the refusal's class.  Outside the block torch is
torch, also in another thread while a block is open.
"""

from __future__ import annotations

import contextlib
import operator
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import promo_ns  # noqa: E402
from promo_ns import PromotionError  # noqa: E402
from promo_ns._ops import COMPARISONS, NATIVE, OPERATORS  # noqa: E402
from tests.backends import POLICIES, agrees_under_torch_policy  # noqa: E402

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"]
SCALARS: list[Any] = [True, 3, 1.5, 2j]


def _outcome(call: Any) -> str:
    """``call()``'s dtype and values, or the class of its error."""
    try:
        out = call()
    except PromotionError:
        return "PromotionError"
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, RuntimeError) as e:
        return type(e).__name__
    out = out._x if isinstance(out, promo_ns.Array) else out
    values = out.to(torch.complex128) if out.is_complex() else out.to(torch.float64)
    return f"{str(out.dtype).removeprefix('torch.')} {np.round(values.numpy(), 6).tolist()}"


def _tensor(dtype: str) -> Any:
    return (
        torch.tensor([1, 2, 0], dtype=getattr(torch, dtype))
        if dtype != "bool"
        else torch.tensor([1, 0, 1]).bool()
    )


def _spellings(op: str) -> list[tuple[str, Any, Any]]:
    """(spelling, torch's call on (x, y), promo_ns's call on (a, b)) of ``op``."""
    name = NATIVE[op][1]
    out: list[tuple[str, Any, Any]] = [
        ("torch.fn", getattr(torch, name), lambda a, b: getattr(a._ns, op)(a, b)),
        ("x.fn(y)", lambda x, y: getattr(x, name)(y), lambda a, b: getattr(a._ns, op)(a, b)),
    ]
    if op in OPERATORS:
        dunder = OPERATORS[op]
        out.append(("x op y", getattr(operator, f"__{dunder}__"), getattr(operator, f"__{dunder}__")))
        if op not in COMPARISONS:
            inplace = getattr(operator, f"__i{dunder}__")
            out.append(
                (
                    "x op= y",
                    lambda x, y: inplace(x.clone(), y),
                    lambda a, b: inplace(a.__array_namespace__().asarray(a, copy=True), b),
                )
            )
    return out


def _both(policy: str, xp: Any, torch_call: Any, promo_call: Any, x: Any, y: Any) -> tuple[str, str]:
    """The outcome of ``torch_call(x, y)`` in a block and of ``promo_call`` on the namespace's arrays."""
    if _outcome(lambda: torch_call(x, y)) == "TypeError":
        return "", ""  # a signature torch has not (torch.atan2(x, 1.5)): no spelling to follow
    with promo_ns.torch_policy(policy):
        got = _outcome(lambda: torch_call(x, y))
    b = xp.asarray(y) if isinstance(y, torch.Tensor) else y
    return got, _outcome(lambda: promo_call(xp.asarray(x), b))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("op", sorted(NATIVE))
def test_every_spelling_gives_the_namespaces_outcome(policy: str, op: str) -> None:
    xp = promo_ns.namespace("torch", policy=policy)
    rng = np.random.default_rng(len(op) + len(policy))
    pairs = [tuple(rng.choice(DTYPES, 2)) for _ in range(6)]
    differ = []
    for spelling, torch_call, promo_call in _spellings(op):
        for left, right in pairs:
            for y in (_tensor(right), SCALARS[int(rng.integers(len(SCALARS)))]):
                got, want = _both(policy, xp, torch_call, promo_call, _tensor(left), y)
                if not agrees_under_torch_policy(got, want):
                    differ.append(
                        (spelling, left, y if not isinstance(y, torch.Tensor) else right, got, want)
                    )
    assert not differ, f"(spelling, x, y, torch_policy, namespace): {differ[:5]}"


class _Tagged(torch.Tensor):  # type: ignore[misc,name-defined]
    """A tensor subclass with torch's default ``__torch_function__``: torch gives its results this class."""


class _Logged(torch.Tensor):  # type: ignore[misc,name-defined]
    """A tensor subclass with a ``__torch_function__`` of its own, which notes each function it runs."""

    seen: ClassVar[list[str]] = []

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        cls.seen.append(getattr(func, "__name__", ""))
        return super().__torch_function__(func, types, args, kwargs or {})


def _subclassed(policy: str, subclass: type, torch_call: Any, x: Any, y: Any) -> tuple[str, str]:
    """The outcome of ``torch_call(x, y)`` in a block, ``x`` of ``subclass``, and of plain ``x``."""
    with promo_ns.torch_policy(policy):
        want = _outcome(lambda: torch_call(x, y))
        tagged = x.as_subclass(subclass)
        _Logged.seen.clear()
        got = _outcome(lambda: torch_call(tagged, y))
        if not got[0].isupper():  # a result, of the class torch gives; the subclass's hook saw the op
            result = torch_call(tagged, y)
            assert isinstance(result, subclass), type(result)
            assert subclass is _Tagged or _Logged.seen
    return got, want


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("subclass", [_Tagged, _Logged])
@pytest.mark.parametrize("op", sorted(NATIVE))
def test_tensor_subclasses_keep_their_class_and_get_the_policys_outcome(
    policy: str, subclass: type, op: str
) -> None:
    """As plain tensors' outcome in the block, of the class torch gives outside it; its hook sees the op."""
    rng = np.random.default_rng(len(op) + len(policy))
    differ = []
    for spelling, torch_call, _ in _spellings(op):
        left, right = rng.choice(DTYPES, 2)
        x, y = _tensor(left), _tensor(right) if rng.integers(2) else SCALARS[int(rng.integers(len(SCALARS)))]
        if _outcome(partial(torch_call, x, y)) == "TypeError":
            continue  # a signature torch has not
        got, want = _subclassed(policy, subclass, torch_call, x, y)
        if got != want:
            differ.append((spelling, left, y, got, want))
    assert not differ, f"(spelling, x, y, subclass, plain): {differ[:5]}"


#: Every dtype of the namespace, torch's unsigned ones of 16 to 64 bits too.
_ALL_DTYPES = [*DTYPES, "uint16", "uint32", "uint64", "bfloat16", "complex128"]
#: Keys of ``x[key] = value`` on a 3-element tensor, as torch takes them (tensors: the namespace's arrays).
_KEYS: list[Callable[[], Any]] = [
    lambda: 1,
    lambda: slice(1, None),
    lambda: torch.tensor([True, False, True]),
    lambda: torch.tensor([2, 0]),
    lambda: ...,
]


def _stored(setitem: Callable[[], Any], x: Any) -> str:
    """What ``setitem()`` leaves in ``x`` (a tensor or the namespace's array), or the class of its error."""
    before = torch.clone(x._x if isinstance(x, promo_ns.Array) else x)
    outcome = _outcome(lambda: (setitem(), x)[1])
    if outcome[0].isupper():  # an error's class: nothing written
        after = x._x if isinstance(x, promo_ns.Array) else x
        assert torch.equal(after, before), f"a refused x[key] = value wrote into x: {after} from {before}"
    return outcome


@pytest.mark.parametrize("policy", POLICIES)
def test_setitem_gives_the_namespaces_outcome(policy: str) -> None:
    """``x[key] = value`` in the block stores what the namespace's ``a[key] = value`` stores, or raises alike.

    Every dtype of ``x``; values of every dtype (0-d and 1-element tensors), every Python scalar's
    role, ints beyond int32 and int64 and a negative one; every kind of key.  A refusal leaves ``x``
    as it was.
    """
    xp = promo_ns.namespace("torch", policy=policy)
    rng = np.random.default_rng(len(policy))
    differ = []
    for left in _ALL_DTYPES:
        values: list[Any] = [*SCALARS, 2**40, 2**63 + 5, -1]
        values += [_tensor(d)[0] for d in rng.choice(_ALL_DTYPES, 4)]
        values += [_tensor(d)[:1] for d in rng.choice(_ALL_DTYPES, 2)]
        for i, value in enumerate(values):  # two keys each, every key in turn
            for key in (_KEYS[i % len(_KEYS)], _KEYS[(i + len(left)) % len(_KEYS)]):
                x = _tensor(left)
                with promo_ns.torch_policy(policy):
                    got = _stored(lambda: x.__setitem__(key(), value), x)  # noqa: B023 - run at once
                a = xp.asarray(_tensor(left))
                k = key()
                ours = xp.asarray(k) if isinstance(k, torch.Tensor) else k
                v = xp.asarray(value) if isinstance(value, torch.Tensor) else value
                want = _stored(lambda: a.__setitem__(ours, v), a)  # noqa: B023 - run at once
                if got != want:
                    differ.append((left, value, k, got, want))
    assert not differ, f"(x, value, key, torch_policy, namespace): {differ[:5]}"


#: ``x[key] = value`` calls whose keys torch reads its own way: (name, make x, key, value).
_TORCH_KEYS: list[tuple[str, Callable[[], Any], Callable[[], Any], Any]] = [
    ("a list of lists is a tuple", lambda: torch.zeros(2, 3), lambda: [[0, 1], [1, 0]], 1.0),
    ("a list of 0-d tensors", lambda: torch.zeros(2, 3), lambda: [torch.tensor(0), torch.tensor(1)], 1.0),
    (
        "a uint8 tensor is a mask",
        lambda: torch.zeros(3, 2),
        lambda: torch.tensor([1, 0, 1], dtype=torch.uint8),
        5.0,
    ),
    ("a list with a slice", lambda: torch.zeros(2, 3), lambda: [0, slice(None)], 1.0),
    ("a range", lambda: torch.zeros(3), lambda: range(2), 1.0),
    ("a torch.Size", lambda: torch.zeros(3), lambda: torch.Size([1]), 1.0),
    (
        "an index tensor, a float tensor value",
        lambda: torch.zeros(3),
        lambda: torch.tensor([2, 0]),
        torch.tensor(2.5),
    ),
    ("an expanded view", lambda: torch.zeros(3).expand(2, 3), lambda: (0, 1), 5.0),
    ("a float8 tensor", lambda: torch.zeros(3, dtype=torch.float8_e4m3fn), lambda: 0, 1.5),
    ("a leaf that requires grad", lambda: torch.zeros(3, requires_grad=True), lambda: 0, 2.0),
]


def _written(x: Any, key: Any, value: Any) -> str:
    """What ``x[key] = value`` leaves in ``x`` (its base, for a view), or the class of torch's error."""
    try:
        x[key] = value
    except Exception as e:
        return type(e).__name__
    base = x if x._base is None else x._base
    return f"{base.dtype} {base.detach().to(torch.float64).tolist()}"


@pytest.mark.parametrize("case", _TORCH_KEYS, ids=[c[0] for c in _TORCH_KEYS])
def test_setitem_under_pytorch_is_torchs_own_for_torchs_keys(case: tuple[str, Any, Any, Any]) -> None:
    """torch's keys keep torch's meaning in the block: the policy decides the value, torch indexes."""
    _, make, key, value = case
    want = _written(make(), key(), value)
    with promo_ns.torch_policy("pytorch"):
        assert _written(make(), key(), value) == want


def test_a_cpu_0d_tensor_meets_tensors_of_another_device_as_in_torch() -> None:
    # was (hostile review): m + torch.tensor(2.) with m on meta (or CUDA) raised promo_ns's device error
    m = torch.zeros(3, 3, device="meta")
    c = torch.tensor(2.0)
    with promo_ns.torch_policy("numpy"):
        calls: list[Callable[[], Any]] = [
            lambda: m * c,
            lambda: c - m,
            lambda: torch.where(m > 0, m, c),
            lambda: torch.clamp(m, c, torch.tensor(3.0)),
            lambda: torch.maximum(m, c),
            lambda: torch.cat([m, m]) + c,
        ]
        for call in calls:
            assert call().device.type == "meta"
        x = m.clone()
        x += c
        x[torch.tensor([1])] = c
        assert x.device.type == "meta"


def test_a_refused_setitem_is_reported_at_its_line_inside_compare() -> None:
    i32 = torch.ones(2, dtype=torch.int32)
    with promo_ns.torch_policy("numpy"), promo_ns.compare("numpy", "array-api") as report:
        i32[0] = 2.5  # numpy casts the float into x; array-api refuses it
    assert i32.tolist() == [2, 1]
    (difference,) = report.differences
    assert difference.location.endswith(f"test_torch_policy.py:{_line_of('i32[0] = 2.5')}")


def test_the_reflected_operator_and_where() -> None:
    i32 = torch.tensor([1, 2], dtype=torch.int32)
    with promo_ns.torch_policy("numpy"):
        assert (1.5 - i32).dtype == torch.float64 and (1.5 - i32).tolist() == [0.5, -0.5]
        c = torch.tensor([True, False])
        assert torch.where(c, i32, 2.5).dtype == torch.float64
        assert i32.where(c, torch.tensor([7.0, 8.0])).tolist() == [1.0, 8.0]  # where(c, x, y)


def test_the_issues_cases() -> None:
    i32, f32 = torch.ones(3, dtype=torch.int32), torch.ones(3)
    with promo_ns.torch_policy("paddle"):
        calls: list[Callable[[], Any]] = [
            lambda: i32 + f32,
            lambda: torch.add(i32, f32),
            lambda: i32.add(f32),
            lambda: i32.add_(f32),
        ]
        for call in calls:
            with pytest.raises(PromotionError, match="policy 'paddle' refuses add"):
                call()
        x = i32.clone()
        with pytest.raises(PromotionError):
            x += f32
        assert x.tolist() == [1, 1, 1]  # a refused in-place op leaves x as it was
    with promo_ns.torch_policy("numpy"):
        assert (i32 + 1.5).dtype == torch.float64
        assert (
            torch.add(torch.ones(2, dtype=torch.int8), torch.ones(2, dtype=torch.uint8)).dtype == torch.int16
        )
        assert torch.exp(f32).dtype == torch.float32 and torch.sum(i32).dtype == torch.int64  # not concerned
        with pytest.raises(TypeError, match="unsupported operand"):
            i32 + "a"
    assert (i32 + 1.5).dtype == torch.float32  # torch's own again


def test_outside_the_block_torch_is_unchanged() -> None:
    before = {name: getattr(torch.Tensor, name) for name in ("__add__", "__radd__", "__iadd__", "__rsub__")}
    own = {name: name in vars(torch.Tensor) for name in before}
    with promo_ns.torch_policy("numpy"), promo_ns.torch_policy("paddle"):
        pass
    assert {name: getattr(torch.Tensor, name) for name in before} == before
    assert {name: name in vars(torch.Tensor) for name in before} == own
    with promo_ns.torch_policy("numpy"):
        with promo_ns.torch_policy("pytorch"):  # the innermost block's policy
            assert (torch.ones(2, dtype=torch.int32) + 1.5).dtype == torch.float32
        assert (torch.ones(2, dtype=torch.int32) + 1.5).dtype == torch.float64


def test_another_thread_is_torch_while_a_block_is_open() -> None:
    seen: list[Any] = []
    opened, done = threading.Event(), threading.Event()

    def other() -> None:
        opened.wait()
        seen.append((torch.ones(2, dtype=torch.int32) + 1.5).dtype)
        seen.append(torch.ones(2, dtype=torch.int32) + torch.ones(2))
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    with promo_ns.torch_policy("paddle"):
        opened.set()
        done.wait(30)
    thread.join()
    assert seen[0] == torch.float32 and seen[1].dtype == torch.float32


def test_inside_compare_each_torch_line_is_reported() -> None:
    i32 = torch.ones(2, dtype=torch.int32)
    with promo_ns.torch_policy("pytorch"), promo_ns.compare("pytorch", "numpy") as report:
        y = i32 + 1.5  # float32 under pytorch, float64 under numpy
        z = y * 2.0  # the same under both
    assert y.dtype == torch.float32 and z.dtype == torch.float32
    (difference,) = report.differences
    assert difference.location.endswith(f"test_torch_policy.py:{_line_of('y = i32 + 1.5')}")
    assert difference.results == {"pytorch": "float32", "numpy": "float64"}


def _line_of(text: str) -> int:
    source = open(__file__).read().splitlines()  # noqa: SIM115
    return next(i for i, line in enumerate(source, 1) if text in line and "_line_of" not in line)


@pytest.mark.parametrize("backend", ["eager", "inductor"])
def test_under_torch_compile(backend: str) -> None:
    if backend == "inductor":
        pytest.importorskip("torch._inductor")

    def f(a: Any, b: Any) -> Any:
        return a + 1.5, torch.add(a, b), (a * 2).sum()

    compiled = torch.compile(f, backend=backend)
    i32, u8 = torch.ones(3, dtype=torch.int32), torch.ones(3, dtype=torch.uint8)
    with promo_ns.torch_policy("numpy"):
        got = compiled(i32, u8)
    assert [t.dtype for t in got] == [torch.float64, torch.int32, torch.int64]
    assert [t.dtype for t in compiled(i32, u8)] == [torch.float32, torch.int32, torch.int64]  # torch again

    def add(a: Any, b: Any) -> Any:
        return torch.add(a, b)

    refused = torch.compile(add, backend=backend)
    with promo_ns.torch_policy("paddle"), pytest.raises(PromotionError, match="refuses add"):
        refused(i32, torch.ones(3))


def test_the_migration_guides_torch_example(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "migrating.md").read_text()
    section = page[page.index("## Plain torch code") :]
    code = section[section.index("```python") + len("```python") : section.index("```\n\n")]
    exec(compile(code, "example.py", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith("torch.float64\n3 ops decided differently")
    assert "ones(default float dtype)  ->  pytorch: float32  paddle: float32  jax: float64" in out
    assert "example.py:10: \n" in out and "jax: float64" in out  # y = x + 1.5 (exec has no source lines)
    assert "example.py:11: \n" in out and "paddle: refused (PromotionError)" in out


#: (spelling, torch's call on (x, y), the namespace's call on (a, b)) of the functions of several operands.
_SEVERAL: list[tuple[str, Any, Any]] = [
    ("torch.cat", lambda x, y: torch.cat([x, y]), lambda a, b: a._ns.concat([a, b])),
    (
        "torch.concat(dim=1)",
        lambda x, y: torch.concat((x, y), dim=1),
        lambda a, b: a._ns.concat([a, b], axis=1),
    ),
    ("torch.stack", lambda x, y: torch.stack([x, y]), lambda a, b: a._ns.stack([a, b])),
    ("torch.matmul", torch.matmul, lambda a, b: a._ns.matmul(a, b)),
    ("x @ y", operator.matmul, operator.matmul),
    ("torch.clamp(x, y)", torch.clamp, lambda a, b: a._ns.clip(a, b)),
    ("x.clip(max=y)", lambda x, y: x.clip(max=y), lambda a, b: a._ns.clip(a, max=b)),
    (
        "torch.tensordot(dims=1)",
        lambda x, y: torch.tensordot(x, y, dims=1),
        lambda a, b: a._ns.tensordot(a, b, axes=1),
    ),
    ("torch.outer", lambda x, y: torch.outer(x[0], y[0]), lambda a, b: a._ns.linalg.outer(a[0], b[0])),
]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("spelling", [s for s, _, _ in _SEVERAL])
def test_functions_of_several_operands_give_the_namespaces_outcome(policy: str, spelling: str) -> None:
    _, torch_call, promo_call = next(c for c in _SEVERAL if c[0] == spelling)
    xp = promo_ns.namespace("torch", policy=policy)
    differ = []
    for left in DTYPES:
        for right in DTYPES:
            x, y = (torch.ones((2, 2), dtype=getattr(torch, d)) for d in (left, right))
            got, want = _both(policy, xp, torch_call, promo_call, x, y)
            if got != want:
                differ.append((left, right, got, want))
    assert not differ, f"(x, y, torch_policy, namespace): {differ[:5]}"


def _unary(fn: Any) -> Any:
    """``fn`` of one argument as a call of two (``_both``'s), the second unused."""
    return lambda x, _: fn(x)


@pytest.mark.parametrize("policy", POLICIES)
def test_one_array_functions_give_the_namespaces_outcome(policy: str) -> None:
    from promo_ns.audit.torch_policy._functions import ONE_ARRAY

    xp = promo_ns.namespace("torch", policy=policy)
    differ = []
    for name, standard in ONE_ARRAY.items():
        ours = _unary(getattr(xp, standard))
        for spelling, call in (("torch.fn", getattr(torch, name)), ("x.fn()", getattr(torch.Tensor, name))):
            for dtype in DTYPES:
                got, want = _both(policy, xp, _unary(call), ours, _tensor(dtype), None)
                if got != want:
                    differ.append((spelling, name, dtype, got, want))
    assert not differ, f"(spelling, function, dtype, torch_policy, namespace): {differ[:5]}"


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
def test_reductions_with_dim_keepdim_and_dtype_give_the_namespaces_outcome(policy: str, name: str) -> None:
    xp = promo_ns.namespace("torch", policy=policy)
    calls: list[tuple[str, Any, Any]] = [
        ("x.fn()", lambda x, _: getattr(x, name)(), lambda a, _: getattr(xp, name)(a)),
        ("fn(x, 0)", lambda x, _: getattr(torch, name)(x, 0), lambda a, _: getattr(xp, name)(a, axis=0)),
        (
            "x.fn(dim=1, keepdim=True)",
            lambda x, _: getattr(x, name)(dim=1, keepdim=True),
            lambda a, _: getattr(xp, name)(a, axis=1, keepdims=True),
        ),
    ]
    if name != "mean":  # the standard's mean takes no dtype: torch's own mean(dtype=) runs
        calls.append(
            (
                "fn(x, dtype=float64)",
                lambda x, _: getattr(torch, name)(x, dtype=torch.float64),
                lambda a, _: getattr(xp, name)(a, dtype=xp.float64),
            )
        )
    differ = []
    for spelling, ours, theirs in calls:
        for dtype in DTYPES:
            got, want = _both(policy, xp, ours, theirs, torch.ones((2, 3), dtype=getattr(torch, dtype)), None)
            if got != want:
                differ.append((spelling, dtype, got, want))
    assert not differ, f"(spelling, dtype, torch_policy, namespace): {differ[:5]}"


def test_what_the_block_does_not_decide_is_torchs_own() -> None:
    # found in review: NumPy scalars gave ndarrays (x == np.int64(1) was False), dim=[] reduced nothing,
    # mean(dtype=) raised, out=/input=/rounding_mode= raised, an in-place comparison was refused
    x = torch.tensor([1, 2, 3], dtype=torch.int32)
    with promo_ns.torch_policy("numpy"):
        assert isinstance(x + np.int64(2), torch.Tensor) and (x + np.int64(2)).tolist() == [3, 4, 5]
        assert (x == np.int64(1)).tolist() == [True, False, False]
        assert torch.sum(torch.ones(3, dtype=torch.int8), dim=[]).tolist() == 3
        assert torch.mean(x, dtype=torch.float32).dtype == torch.float32
        out = torch.empty(3, dtype=torch.int32)
        assert torch.add(x, x, out=out) is out and out.tolist() == [2, 4, 6]
        assert torch.add(input=x, other=1.5).dtype == torch.float64  # the policy's: input= is the signature
        assert torch.div(x, 2, rounding_mode="floor").tolist() == [0, 1, 1]
        u = torch.tensor([1, 2, 3], dtype=torch.uint16)
        assert u.eq_(2).tolist() == [0, 1, 0]
        with pytest.raises(RuntimeError):
            torch.clamp(x)  # no bound: torch's own error


def test_torchs_other_names_of_the_ops_follow_the_policy_too() -> None:
    i32 = torch.ones(2, dtype=torch.int32)
    with promo_ns.torch_policy("paddle"):
        for name in ("subtract", "multiply", "divide", "true_divide", "greater", "less_equal", "not_equal"):
            with pytest.raises(PromotionError):
                getattr(torch, name)(i32, torch.ones(2))
    with promo_ns.torch_policy("numpy"):
        assert torch.arctan2(i32, i32).dtype == torch.float64  # NumPy's arctan2 of int32 is float64


@pytest.mark.parametrize("op", sorted(op for op in OPERATORS if op not in COMPARISONS))
def test_in_place_operators_under_autograd_are_torchs(op: str) -> None:
    """``y op= t`` where ``y`` is in autograd's graph: torch's value and gradient (which refuses out=)."""
    inplace = getattr(operator, f"__i{OPERATORS[op]}__")

    def run(policy: str | None) -> tuple[str, Any]:
        x = torch.tensor([1.5, 2.0, 3.0], requires_grad=True)
        with promo_ns.torch_policy(policy) if policy else contextlib.nullcontext():
            try:
                y = inplace(x * 1, torch.tensor([2.0, 0.75, 1.25]))  # no remainder 0: its gradient's edge
                y.sum().backward()
            except (RuntimeError, TypeError):  # PromotionError where torch has no float kernel: both refuse
                return "refused", None
        return _outcome(y.detach), x.grad.tolist() if x.grad is not None else None

    torchs = run(None)
    for policy in ("pytorch", "numpy"):
        assert run(policy) == torchs, policy


@pytest.mark.parametrize(
    "write",
    [
        pytest.param(lambda x: x.add_(1), id="method"),
        pytest.param(lambda x: x.__iadd__(torch.ones(3)), id="operator"),
        pytest.param(lambda x: torch.add(torch.ones(3), 1, out=x), id="out"),
        pytest.param(lambda x: torch.sum(torch.ones(2, 3), 0, out=x), id="reduction-out"),
        pytest.param(lambda x: x.sqrt_(), id="one-array-method"),
        pytest.param(lambda x: x.clamp_(0.0, 1.5), id="clamp-method"),
        pytest.param(lambda x: torch.zeros(3, out=x), id="creation-out"),
        pytest.param(lambda x: x.__setitem__(slice(None), 5.0), id="setitem"),
    ],
)
def test_an_inference_tensor_is_refused_as_torch_refuses_it_unchanged(write: Callable[[Any], Any]) -> None:
    """torch raises its RuntimeError after its kernel has written the tensor; the block before."""
    with torch.inference_mode():
        x = torch.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="inference"):
        write(x)  # torch's own: the class the block keeps
    with torch.inference_mode():
        x = torch.tensor([1.0, 2.0, 3.0])
    with promo_ns.torch_policy("pytorch"), pytest.raises(RuntimeError, match="inference tensor"):
        write(x)
    assert x.tolist() == [1.0, 2.0, 3.0]
    with torch.inference_mode(), promo_ns.torch_policy("pytorch"):  # inside inference mode: written
        write(x)
    assert x.tolist() != [1.0, 2.0, 3.0]


def test_the_innermost_block_decides() -> None:
    # was (hostile review): an outer promo_ns.policy("paddle") decided inside torch_policy("numpy")
    i32 = torch.ones(2, dtype=torch.int32)
    with promo_ns.policy("paddle"), promo_ns.torch_policy("numpy"):
        assert (i32 + 1.5).dtype == torch.float64
    with promo_ns.torch_policy("numpy"), promo_ns.policy("pytorch"):
        assert (i32 + 1.5).dtype == torch.float32


def test_another_asyncio_task_is_torch_while_a_block_is_open() -> None:
    # was (hostile review): a task awaiting inside torch_policy("paddle") made another task's add refuse
    import asyncio

    i32, f32 = torch.ones(2, dtype=torch.int32), torch.ones(2)
    seen: list[str] = []

    async def inside() -> None:
        with promo_ns.torch_policy("paddle"):
            await asyncio.sleep(0.02)
            with pytest.raises(PromotionError):
                i32 + f32
            seen.append("refused inside")

    async def outside() -> None:
        await asyncio.sleep(0.005)
        seen.append(f"outside {(i32 + f32).dtype}")

    async def both() -> None:
        await asyncio.gather(inside(), outside())

    asyncio.run(both())
    assert seen == ["outside torch.float32", "refused inside"]
    assert torch._C._len_torch_function_stack() == 0


def test_promo_ns_s_type_errors_in_an_operator_reach_the_caller() -> None:
    # was (hostile review): torch's operators made promo_ns's TypeError NotImplemented, so Python said
    # "unsupported operand type(s) for //: 'Tensor' and 'Tensor'"
    b = torch.tensor([True, False])
    with promo_ns.torch_policy("paddle"):
        with pytest.raises(TypeError, match="no 'floor_divide' kernel for bool"):
            b // b
        with pytest.raises(TypeError, match="no 'floor_divide' kernel for bool"):
            b //= b
        with pytest.raises(TypeError, match="unsupported operand type"):  # torch's own answer stays
            b + "a"


def test_a_block_a_generator_ends_in_another_context_leaves_that_contexts_block_on() -> None:
    # was (review): closing the generator set "not deciding" in the context that closed it
    import contextvars

    i32, f16 = torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.float16)

    def audited() -> Any:
        with promo_ns.torch_policy("pytorch"):
            yield

    started = audited()
    contextvars.copy_context().run(next, started)
    with promo_ns.torch_policy("numpy"):
        started.close()
        assert (i32 + f16).dtype == torch.float64  # numpy's, still
    assert (i32 + f16).dtype == torch.float16  # torch's own outside


def test_a_users_function_mode_around_the_block_sees_the_ops_it_decides() -> None:
    # was (hostile review): promo_ns ran its torch calls with torch function dispatch off, so an
    # enclosing TorchFunctionMode (a profiler, a logger) never saw the decided ops
    from torch.overrides import TorchFunctionMode

    seen: list[str] = []

    class Logging(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            seen.append(getattr(func, "__name__", str(func)))
            return func(*args, **(kwargs or {}))

    i8, u8 = torch.ones(3, dtype=torch.int8), torch.ones(3, dtype=torch.uint8)
    with Logging(), promo_ns.torch_policy("numpy"):
        out = torch.add(i8, u8)
    assert out.dtype == torch.int16
    assert "add" in seen  # the kernel promo_ns ran for the call (the block's mode, innermost, took the call)


def test_fftfreq_takes_a_0d_tensor_as_its_spacing() -> None:
    # was (hostile review): "fft_fftfreq(): argument 'd' must be float, not Array"
    with promo_ns.torch_policy("numpy"):
        got = torch.fft.fftfreq(4, d=torch.tensor(0.5))
    assert got.dtype == torch.float64 and got.tolist() == [0.0, 0.5, -1.0, -0.5]
