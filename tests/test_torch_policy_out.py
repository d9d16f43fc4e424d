"""``promo_ns.torch_policy`` with torch's ``out=``: the policy's result, stored as an in-place op stores it.

Generated from every binary op of the registry (its ``torch.<fn>`` spelling)
x operand dtypes x ``out`` dtypes x every built-in policy: ``torch.<fn>(x,
y, out=o)`` in a block holds the namespace's result cast to ``o``'s dtype
where the policy casts it back in place (``x op= y``'s rule), and refuses
otherwise, ``o`` bitwise unchanged.  Under ``pytorch`` the outcome is plain
torch's, outside a block.  Then the translated functions (reductions over
``dim``, ``torch.max(x, dim)``'s pair, ``cat``, ``matmul``, ``linalg``), and
torch's own rules for ``out=`` that the policy leaves alone: autograd's
refusal, creation functions, resizing, another device.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import promo_ns  # noqa: E402
from promo_ns import PromotionError  # noqa: E402
from promo_ns._dtypes import canonical  # noqa: E402
from promo_ns._engine.operands import Operand  # noqa: E402
from promo_ns._engine.resolution import inplace_dtype  # noqa: E402
from promo_ns._ops import NATIVE  # noqa: E402
from promo_ns.policies import Role, get_policy  # noqa: E402
from tests.backends import POLICIES  # noqa: E402

DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"]


def _tensor(dtype: str, values: tuple[int, ...] = (1, 2, 0)) -> Any:
    return torch.tensor([v % 2 for v in values] if dtype == "bool" else values).to(getattr(torch, dtype))


def _state(t: Any) -> tuple[str, list[Any]]:
    """A tensor's dtype and values, NaN-safe and comparable bit for bit."""
    wide = t.to(torch.complex128) if t.is_complex() else t.to(torch.float64)
    return str(t.dtype), [str(v) for v in wide.flatten().tolist()]


def _outcome(call: Callable[[], Any], out: Any) -> tuple[str, Any]:
    """``call()``'s error class, or what ``out`` then holds (and that the call returned ``out``)."""
    try:
        returned = call()
    except PromotionError:
        return "PromotionError", out is not None and _state(out)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, RuntimeError) as e:
        return type(e).__name__, out is not None and _state(out)
    if out is None:
        return "stored", _state(returned)
    assert returned is out
    return "stored", _state(out)


def _has_signature(fn: Callable[..., Any], x: Any, y: Any) -> bool:
    """Whether torch has ``fn(x, y)`` (a TypeError: no spelling to follow)."""
    try:
        fn(x, y)
    except TypeError:
        return False
    except (RuntimeError, ValueError):
        pass
    return True


def _expected(policy: str, op: str, x: Any, y: Any, out: Any) -> tuple[str, Any]:
    """The namespace's ``op(x, y)`` stored in ``out`` where ``x op= y``'s rule casts it, else refused."""
    xp = promo_ns.namespace("torch", policy=policy)
    try:
        result = getattr(xp, op)(xp.asarray(x), xp.asarray(y))._x
        target = Operand(canonical(out.dtype), Role.ND)
        inplace_dtype(get_policy(policy), op, (target,), canonical(result.dtype))
    except PromotionError:
        return "PromotionError", _state(out)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, RuntimeError) as e:
        return type(e).__name__, _state(out)
    return "stored", _state(result.to(out.dtype))


def _cases(op: str, policy: str) -> list[tuple[str, str, str]]:
    """Some (x, y, out) dtype triples of ``op``, drawn with a seed of its own."""
    rng = np.random.default_rng(sum(map(ord, op + policy)))
    return [(str(a), str(b), str(c)) for a, b, c in (rng.choice(DTYPES, 3) for _ in range(6))]


def _binary_ops() -> list[str]:
    return sorted(op for op, (_, name) in NATIVE.items() if hasattr(torch, name))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("op", _binary_ops())
def test_a_binary_function_stores_the_policys_result_in_out(policy: str, op: str) -> None:
    fn = getattr(torch, NATIVE[op][1])
    differ = []
    for left, right, into in _cases(op, policy):
        x, y = _tensor(left), _tensor(right, (2, 1, 3))
        if not _has_signature(fn, x, y):
            continue
        out = _tensor(into, (5, 6, 7))
        want = _expected(policy, op, x, y, out)
        with promo_ns.torch_policy(policy):
            got = _outcome(lambda: fn(x, y, out=out), out)  # noqa: B023
        if got != want:
            differ.append((left, right, into, got, want))
    assert not differ, f"(x, y, out, torch_policy, expected): {differ[:4]}"


@pytest.mark.filterwarnings(
    "ignore:Casting complex values to real"
)  # torch's own, storing complex in a real out
@pytest.mark.parametrize("op", _binary_ops())
def test_under_pytorch_out_is_torchs_own(op: str) -> None:
    fn = getattr(torch, NATIVE[op][1])
    differ = []
    for left, right, into in _cases(op, "pytorch"):
        x, y = _tensor(left), _tensor(right, (2, 1, 3))
        if _outcome(lambda: fn(x, y), None)[0] != "stored":  # noqa: B023
            continue  # no kernel in torch: the policy's dtype is computed otherwise
        torchs, ours = _tensor(into, (5, 6, 7)), _tensor(into, (5, 6, 7))
        want = _outcome(lambda: fn(x, y, out=torchs), torchs)  # noqa: B023
        with promo_ns.torch_policy("pytorch"):
            got = _outcome(lambda: fn(x, y, out=ours), ours)  # noqa: B023
        if want[0] != "stored" and got[0] != "stored":  # both refuse, out unchanged; the class is ours
            got = (want[0], got[1])
        if got != want:
            differ.append((left, right, into, got, want))
    assert not differ, f"(x, y, out, torch_policy('pytorch'), torch): {differ[:4]}"


def _translated() -> list[tuple[str, Callable[[Any, Any, Any], Any], Callable[[], Any]]]:
    """(name, torch's call on (x, y, out), out's maker) of functions the block translates."""
    return [
        ("sum(x, 0)", lambda x, y, out: torch.sum(x, 0, out=out), lambda: torch.empty(0, dtype=torch.int64)),
        (
            "cat([x, y])",
            lambda x, y, out: torch.cat([x, y], out=out),
            lambda: torch.empty(0, dtype=torch.int16),
        ),
        ("matmul(x, y)", lambda x, y, out: torch.matmul(x, y.mT, out=out), lambda: torch.empty(0)),
        ("clamp(x, 0, 1.5)", lambda x, y, out: torch.clamp(x, 0, 1.5, out=out), lambda: torch.empty(0)),
        ("where(x > 1, x, y)", lambda x, y, out: torch.where(x > 1, x, y, out=out), lambda: torch.empty(0)),
    ]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", [n for n, _, _ in _translated()])
def test_translated_functions_store_their_result_in_out(policy: str, name: str) -> None:
    call, make = next((c, m) for n, c, m in _translated() if n == name)
    x, y = _tensor("int8", (1, 2, 3)).reshape(1, 3), _tensor("uint8", (3, 1, 2)).reshape(1, 3)
    out = make()
    reduction = name.startswith("sum")  # computed in out's dtype, as with dtype= (see below)
    with promo_ns.torch_policy(policy):
        try:
            result = torch.sum(x, 0, dtype=out.dtype) if reduction else call(x, y, None)
        except PromotionError:
            result = None
        got = _outcome(lambda: call(x, y, out), out)
    if result is None:
        assert got[0] == "PromotionError" and out.numel() == 0
        return
    if reduction:
        assert got == ("stored", _state(result))
        return
    try:
        inplace_dtype(
            get_policy(policy), name, (Operand(canonical(out.dtype), Role.ND),), canonical(result.dtype)
        )
    except PromotionError:
        assert got[0] == "PromotionError" and out.numel() == 0
        return
    if name.startswith("where") and out.dtype != result.dtype:  # torch's where takes its result's dtype only
        assert got[0] == "RuntimeError" and out.numel() == 0
        return
    assert got == ("stored", _state(result.to(out.dtype)))


def test_a_pair_of_outs_is_returned_as_torch_returns_it() -> None:
    x = torch.tensor([[1, 5], [4, 2]], dtype=torch.int32)
    values, indices = torch.empty(0, dtype=torch.int32), torch.empty(0, dtype=torch.int64)
    with promo_ns.torch_policy("numpy"):
        returned = torch.max(x, 1, out=(values, indices))
        with pytest.raises(RuntimeError, match="Expected out tensor to have dtype int"):  # torch's own
            torch.max(x, 1, out=(torch.empty(0, dtype=torch.int64), indices))
    assert type(returned) is torch.return_types.max_out
    assert returned.values is values and returned.indices is indices
    assert values.tolist() == [5, 4] and indices.tolist() == [1, 0]


def test_a_refused_out_is_unchanged_and_the_error_says_why() -> None:
    i32, f32 = torch.ones(3, dtype=torch.int32), torch.full((3,), 1.5)
    out = torch.tensor([7, 8, 9], dtype=torch.int32)
    with (
        promo_ns.torch_policy("numpy"),
        pytest.raises(PromotionError, match=r"torch.add\(\.\.\., out=") as caught,
    ):
        torch.add(i32, f32, out=out)
    assert out.tolist() == [7, 8, 9]
    assert "float64" in str(caught.value) and "out of dtype float64" in str(caught.value)


def test_torchs_own_rules_for_out_still_hold() -> None:
    x = torch.ones(3, requires_grad=True)
    with promo_ns.torch_policy("numpy"):
        with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
            torch.add(x, 1, out=torch.empty(3))  # autograd's refusal, as torch gives it
        assert torch.arange(3, out=torch.empty(0, dtype=torch.float32)).dtype == torch.float32  # as dtype=
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            resized = torch.mul(torch.ones(3, dtype=torch.int8), 2, out=torch.empty(2, dtype=torch.int8))
        assert resized.tolist() == [2, 2, 2] and "was resized since it had shape [2]" in str(
            caught[0].message
        )
        with pytest.raises(RuntimeError):
            torch.add(torch.ones(3), 1, out=torch.empty(3, device="meta"))  # another device: torch's error


def test_a_pair_of_outs_is_not_written_where_one_cannot_take_its_result() -> None:
    # was (review): the first out was written before the second refused (its storage not resizable)
    x = torch.tensor([3.0, 1.0, 2.0])
    values = torch.tensor([7.0, 8.0, 9.0])
    fixed = torch.from_numpy(np.zeros(1, dtype=np.int64))  # NumPy's memory: torch cannot resize it
    with promo_ns.torch_policy("numpy"), pytest.raises(RuntimeError):
        torch.sort(x, out=(values, fixed))
    assert values.tolist() == [7.0, 8.0, 9.0]
    with promo_ns.torch_policy("numpy"), pytest.raises(TypeError):
        torch.add(x, x, out=[values])  # a list for one result: torch's own error


#: The one-array functions the block gives an in-place form (``x.sqrt_()``), by torch's name.
_IN_PLACE_NAMES = sorted(
    name
    for name in ("sqrt", "exp", "log", "sin", "abs", "neg", "floor", "sign", "square", "reciprocal")
    if hasattr(torch.Tensor, f"{name}_")
)


def _held(policy: str, call: Callable[[Any], Any], make: Callable[[], Any]) -> str | None:
    """What ``call(target)`` leaves in a fresh ``make()`` tensor under ``policy`` (or its refusal).

    None where torch itself refuses the call (no kernel, another signature): nothing to compare.
    """
    target = make()
    with promo_ns.torch_policy(policy), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            call(target)
        except (PromotionError, OverflowError) as e:
            return f"refused ({type(e).__name__})"
        except (TypeError, ValueError, RuntimeError):
            return None
    return str(canonical(target.dtype))


def _reported(policies: list[str], call: Callable[[Any], Any], make: Callable[[], Any]) -> dict[str, str]:
    """What ``compare`` reports of ``call(make())`` run under the first policy (empty: no difference)."""
    target = make()  # made outside: a creation in the block is an op of its own
    with (
        promo_ns.torch_policy(policies[0]),
        promo_ns.compare(*policies) as report,
        warnings.catch_warnings(),
        contextlib.suppress(PromotionError, OverflowError, TypeError, ValueError, RuntimeError),
    ):
        warnings.simplefilter("ignore")
        call(target)
    found = [d.results for d in report.differences]
    assert len(found) <= 1, found
    return found[0] if found else {}


def _in_place(name: str, x: Any) -> Any:
    return getattr(x, f"{name}_")()


def _stores() -> list[tuple[str, Callable[[Any], Any], Callable[[], Any]]]:
    """(case, the call on the tensor it stores into, that tensor's maker): out= and in-place forms."""
    cases: list[tuple[str, Callable[[Any], Any], Callable[[], Any]]] = []
    rng = np.random.default_rng(7)
    for op in _binary_ops():
        fn = getattr(torch, NATIVE[op][1])
        for _ in range(2):
            left, right, into = (str(d) for d in rng.choice(DTYPES, 3))
            x, y = _tensor(left), _tensor(right, (2, 1, 3))
            cases.append(
                (
                    f"{op}({left}, {right}, out={into})",
                    partial(lambda fn, x, y, out: fn(x, y, out=out), fn, x, y),
                    partial(_tensor, into, (5, 6, 7)),
                )
            )
    for name in _IN_PLACE_NAMES:
        for dtype in ("int8", "int32", "float16", "bool"):
            cases.append((f"{name}_({dtype})", partial(_in_place, name), partial(_tensor, dtype)))
    for name in ("sum", "prod", "cumsum", "cumprod"):  # a reduction whose dtype may be its input's
        for source, into in (
            ("float64", "float32"),
            ("int64", "int32"),
            ("float16", "float64"),
            ("int8", "int8"),
        ):
            reduce = partial(lambda fn, x, out: fn(x, 0, out=out), getattr(torch, name), _tensor(source))
            cases.append((f"{name}({source}, out={into})", reduce, partial(_tensor, into)))
    for into in ("int32", "float16", "float64"):
        cases.append(
            (
                f"sqrt(int32, out={into})",
                partial(lambda x, out: torch.sqrt(x, out=out), _tensor("int32")),
                partial(_tensor, into),
            )
        )
    return cases


_STORES = _stores()


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", _STORES, ids=[c[0] for c in _STORES])
def test_compare_reports_what_out_or_the_tensor_holds(policy: str, case: tuple[str, Any, Any]) -> None:
    """Each policy's outcome in the report is what its own block leaves in the tensor, or its refusal."""
    _, call, make = case
    others = [p for p in ("array-api", "numpy", "pytorch", "tf-safe") if p != policy][:2]
    policies = [policy, *others]
    held = {p: _held(p, call, make) for p in policies}
    if None in held.values():
        return  # torch refuses the call itself under some policy: its own error
    reported = _reported(policies, call, make)
    if not reported:
        assert len(set(held.values())) == 1, held
    else:
        assert reported == held


@pytest.mark.parametrize("policy", POLICIES)
def test_indices_go_into_int64_outs_only_as_in_torch(policy: str) -> None:
    """torch's kernels write indices into int64 ``out=`` tensors only: elsewhere, its own refusal."""
    x = torch.tensor([[1.0, 3.0], [2.0, 0.0]])
    values = torch.empty(0)
    calls: list[Callable[[Any], Any]] = [
        lambda i: torch.max(x, 0, out=(values, i)),
        lambda i: torch.argmax(x, out=i),
        lambda i: torch.argmin(x, 1, out=i),
        lambda i: torch.sort(x, out=(values, i)),
    ]
    for call in calls:
        for dtype in (torch.int32, torch.float32):
            indices = torch.full((2,), 7, dtype=dtype)
            with promo_ns.torch_policy(policy), pytest.raises(RuntimeError, match="long"):
                call(indices)
            assert indices.tolist() == [7, 7]
        with promo_ns.torch_policy(policy):
            assert call(torch.empty(0, dtype=torch.int64)) is not None


_SCALAR, _VECTOR, _MATRIX = torch.tensor(2.0), torch.ones(3), torch.eye(2)  # made outside any block
_ZERO_D_OUTS: dict[str, Callable[[Any], Any]] = {
    "add": lambda out: torch.add(_SCALAR, _SCALAR, out=out),
    "mean": lambda out: torch.mean(_VECTOR, out=out),
    "amax": lambda out: torch.amax(_VECTOR, dim=0, out=out),
    "dot": lambda out: torch.dot(_VECTOR, _VECTOR, out=out),
    "log": lambda out: torch.log(_SCALAR, out=out),
    "det": lambda out: torch.linalg.det(_MATRIX, out=out),
    "vector_norm": lambda out: torch.linalg.vector_norm(_VECTOR, out=out),
}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", list(_ZERO_D_OUTS))
def test_a_0d_out_takes_the_result_as_outside_the_block(policy: str, case: str) -> None:
    # found in review: a 0-d out raised "iteration over a 0-d tensor" (its .indices is the sparse method)
    call = _ZERO_D_OUTS[case]
    want = call(torch.zeros(()))
    out = torch.zeros(())
    with promo_ns.torch_policy(policy):
        got = call(out)
    assert got is out and out.dtype == want.dtype and torch.equal(out, want)


@pytest.mark.parametrize("policy", POLICIES)
def test_an_out_over_part_of_an_input_is_torchs_refusal_and_writes_nothing(policy: str) -> None:
    # found in review: the block resized out=x[0] to the result's shape and wrote it over all of x
    outs: list[Callable[[Any], Any]] = [lambda x: x[0], lambda x: x.T]
    for make_out in outs:
        x = torch.arange(6.0).reshape(2, 3)
        with pytest.raises(RuntimeError, match="refer to a single memory location") as outside:
            torch.add(x, x[0], out=make_out(x))
        x = torch.arange(6.0).reshape(2, 3)
        with promo_ns.torch_policy(policy), pytest.raises(RuntimeError) as inside:
            torch.add(x, x[0], out=make_out(x))
        assert str(inside.value) == str(outside.value)
        assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x, y = torch.arange(6.0).reshape(2, 3), torch.ones(2, 3)
    with promo_ns.torch_policy(policy):
        assert torch.add(x, y, out=x) is x  # out=x, that very input: written after the result is made
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


#: float32 operands, made outside the blocks (a block of the numpy policy makes float64 ones)
_EYE, _ONES = torch.eye(3), torch.ones(3)
#: Calls whose torch kernels take an ``out`` of their result's dtype only, with a float64 out.
_EXACT_OUTS: dict[str, Callable[[Any], Any]] = {
    "linalg.inv": lambda out: torch.linalg.inv(_EYE, out=out(3, 3)),
    "linalg.det": lambda out: torch.linalg.det(_EYE, out=out()),
    "matmul": lambda out: torch.matmul(_EYE, _EYE, out=out(3, 3)),
    "abs": lambda out: torch.abs(_ONES, out=out(3)),
    "where": lambda out: torch.where(_ONES > 0, _ONES, _ONES, out=out(3)),
    "sort": lambda out: torch.sort(_ONES, out=(out(3), torch.empty(3, dtype=torch.int64))),
    "linalg.vector_norm": lambda out: torch.linalg.vector_norm(_ONES, out=out()),
}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", _EXACT_OUTS)
def test_an_out_torch_takes_of_its_results_dtype_only_is_torchs_refusal(policy: str, name: str) -> None:
    # found in review: the block cast the result into the out where torch refuses it
    call = _EXACT_OUTS[name]
    outs: list[Any] = []

    def out(*shape: int) -> Any:
        outs.append(torch.full(shape, 7.0, dtype=torch.float64))
        return outs[-1]

    with pytest.raises(RuntimeError) as outside:
        call(out)
    outs.clear()
    with promo_ns.torch_policy(policy), pytest.raises((RuntimeError, PromotionError)) as inside:
        call(out)
    # the policy's refusal where its in-place rule does not cast float32 to float64, else torch's own
    assert isinstance(inside.value, PromotionError) or str(inside.value) == str(outside.value)
    assert policy not in ("pytorch", "numpy") or isinstance(inside.value, RuntimeError)  # they cast it
    assert all(bool((o == 7.0).all()) for o in outs)  # nothing written
    with promo_ns.torch_policy(policy):  # an out of the result's dtype is taken
        done = call(lambda *shape: torch.empty(shape, dtype=torch.float32))
    assert (done[0] if isinstance(done, tuple) else done).dtype == torch.float32


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", ["sum", "prod", "cumsum", "cumprod", "mean", "nansum"])
@pytest.mark.parametrize("into", [torch.int64, torch.float64])
def test_a_reduction_computes_in_its_outs_dtype_as_with_dtype(policy: str, name: str, into: Any) -> None:
    # found in review: the pytorch policy refused torch.sum(x, 0, out=int64), which torch computes in
    # int64; mean and nansum computed in the input's dtype, then cast
    fn = getattr(torch, name)
    x = torch.tensor([1e8, 1.0, -1e8, 0.6])  # float32: 1e8 + 1 is 1e8 there

    def outcome(call: Callable[[], Any]) -> Any:
        try:
            return call().tolist()
        except (PromotionError, RuntimeError, NotImplementedError) as e:  # torch's: no integer mean
            return type(e).__name__

    with promo_ns.torch_policy(policy):
        as_dtype = outcome(lambda: fn(x, 0, dtype=into))
        out = torch.empty(0, dtype=into)
        assert outcome(lambda: fn(x, 0, out=out)) == as_dtype
    own = outcome(lambda: fn(x, 0, out=torch.empty(0, dtype=into)))
    if policy == "pytorch" and own != "NotImplementedError":  # torch's own, where it has a kernel
        assert as_dtype == own
