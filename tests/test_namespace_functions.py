"""Every namespace function that combines operands or picks an accumulation dtype, on every backend.

``where``, ``clip``, ``concat``/``stack``, ``matmul``/``tensordot``/``vecdot`` and
``linalg.matmul/tensordot/vecdot/cross/outer/solve``, ``result_type``,
``can_cast`` and the accumulation dtype of ``sum``/``prod``/``cumulative_*``,
under every policy: the result dtype must be the engine's answer (a refusal
must raise :class:`promo_ns.PromotionError`, or OverflowError where the engine
raises it), and values must equal a NumPy reference computed in a wide dtype
(int64 / float64 / complex128) from the operands cast to the result dtype, then
cast to the result dtype.  A cell that raises where the backend itself cannot
compute it (its own function fails, or gives another dtype, on operands already
cast to the result dtype) is counted apart, not as a failure; a result in a
dtype other than the engine's is always a failure.  A failure lists every wrong cell.

Also: the creation functions' default dtypes follow the active policy.
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pytest

import promo_ns
from promo_ns import PromotionError, get_policy
from promo_ns._context import current
from promo_ns._dtypes import DTYPES, DType, canonical, native
from promo_ns._engine.functions import accumulation_dtype, check_input_kind
from promo_ns._engine.operands import Operand, operand
from promo_ns._engine.resolution import can_cast, resolve, resolve_many
from promo_ns._engine.scalars import int_value
from promo_ns.policies import Policy, Role
from tests.backends import GRID_BACKENDS as BACKENDS
from tests.backends import POLICIES, close, has_values, namespace, on_device, sampled, to_numpy

VALUES: dict[str, list[Any]] = {
    "b": [True, False, True],
    "i": [1, 2, 3],
    "u": [1, 2, 3],
    "f": [0.5, 1.5, 2.5],
    "c": [0.5 + 1j, 1.5 - 0.5j, 2.5 + 0j],
}
#: values of a second operand, different from the first's.
OTHER: dict[str, list[Any]] = {
    "b": [False, True, True],
    "i": [3, 1, 2],
    "u": [3, 1, 2],
    "f": [2.5, 0.5, 1.5],
    "c": [1.5 + 0.5j, 0.5 - 1j, 2.0 + 1j],
}
#: ``clip`` bounds: below and above the values of VALUES.
LOWER: dict[str, list[Any]] = {
    "b": [False, True, False],
    "i": [2, 1, 1],
    "u": [2, 1, 1],
    "f": [1.0, 0.5, 0.5],
    "c": [1.0 + 0j, 0.5 + 0j, 0.5 + 0j],
}
UPPER: dict[str, list[Any]] = {
    "b": [True, True, False],
    "i": [2, 3, 2],
    "u": [2, 3, 2],
    "f": [2.0, 2.5, 2.0],
    "c": [2.0 + 0j, 2.5 + 0j, 2.0 + 0j],
}
#: Python scalars, two out of range for some integer dtypes (they wrap, overflow or are refused, per policy).
SCALARS: tuple[Any, ...] = (True, 2, -1, 300, 1.5, 1.5 + 0.5j)
WIDE = {"b": np.int64, "i": np.int64, "u": np.uint64, "f": np.float64, "c": np.complex128}

Item = tuple[str, DType | None, Any]  # (label, dtype or None for a Python scalar, operand)


# --- helpers --------------------------------------------------------------------------------


def _items(xp: Any, values: dict[str, list[Any]], *, zero_d: bool = True, scalars: bool = True) -> list[Item]:
    """n-d (and 0-d) arrays of every dtype the backend has, then Python scalars."""
    out: list[Item] = []
    for d in DTYPES:
        try:
            nd = xp.asarray(values[d.kind], dtype=d)
        except TypeError:  # the backend has no such dtype (bfloat16 on CuPy)
            continue
        out.append((f"{d}:nd", d, nd))
        if zero_d:
            out.append((f"{d}:0d", d, xp.asarray(values[d.kind][0], dtype=d)))
    if scalars:
        out += [(f"py:{v!r}", None, v) for v in SCALARS]
    return out


def _matrix(xp: Any, rows: list[list[int]], d: DType) -> Any:
    """A 2-d array of ``d`` whose entries are ``VALUES[d.kind][i]`` for the indices in ``rows``."""
    v = VALUES[d.kind]
    return xp.asarray([[v[i] for i in row] for row in rows], dtype=d)


def _op(x: Any) -> Operand:
    """The engine operand of a promo_ns array, a DType or a Python scalar."""
    if isinstance(x, DType):
        return Operand(x, Role.ND)
    if isinstance(x, (bool, int, float, complex)):
        return operand(x)
    return Operand(x.dtype, Role.ZERO_D if x.ndim == 0 else Role.ND)


def _wide(x: Any, result: DType) -> np.ndarray[Any, Any]:
    """``x`` (array or Python scalar) cast to ``result`` as NumPy would, then widened."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex -> real drops the imaginary part, as intended
        v = np.asarray(to_numpy(x) if hasattr(x, "dtype") else x)
        return v.astype(native(result, np)).astype(WIDE[result.kind])


def _narrow(value: Any, result: DType) -> np.ndarray[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(value).astype(native(result, np))


def _native(xp: Any, x: Any, result: DType) -> Any:
    """``x`` as a native array of ``result`` (a Python scalar as a 0-d array)."""
    if hasattr(x, "dtype"):
        return promo_ns.unwrap(xp.astype(x, result))
    return promo_ns.unwrap(xp.asarray(_narrow(x, result).tolist(), dtype=result))


@dataclass
class Tally:
    """Cells checked, refused as expected, without a backend kernel, and wrong ones."""

    what: str
    xp: Any  #: the namespace: results must be on its device; values are checked where it has data
    backend: str  #: its label in BACKENDS
    policy: str  #: the policy whose decisions are checked
    wrong: list[str] = field(default_factory=list)
    cells: int = 0
    refused: int = 0
    no_kernel: list[str] = field(default_factory=list)

    def _runs(self, label: str) -> bool:
        """Whether check() runs cell ``label``: all, but a share in a block or on meta (:func:`sampled`).

        The block path differs from the namespace's only in where the policy
        comes from, and torch's meta device (no values) takes the plans torch
        takes on the CPU, which runs every cell.
        """
        if current() is None and has_values(self.xp):
            return True
        return sampled(label, self.backend, self.policy)

    def check(
        self,
        label: str,
        args: tuple[Any, ...],
        expected: Callable[..., DType],
        call: Callable[..., Any],
        native_call: Callable[..., Any],
        reference: Callable[..., Any] | None,
    ) -> None:
        """One cell: the engine's dtype (or refusal), the namespace's result, the reference values.

        ``expected(*args)`` asks the engine, ``call(*args)`` the namespace;
        ``native_call(result, *args)`` runs the backend's own function on the
        operands cast to ``result``; ``reference(result, *args)`` computes the
        values in NumPy.
        """
        if not self._runs(label):
            return
        try:
            want = expected(*args)
        except (PromotionError, OverflowError) as e:
            try:
                call(*args)
            except type(e):
                self.refused += 1
            except Exception as raised:
                self.wrong.append(
                    f"{label}: expected {type(e).__name__}, raised {type(raised).__name__}: {raised}"[:300]
                )
            else:
                self.wrong.append(f"{label}: expected {type(e).__name__}, got a result")
            return
        try:
            out = call(*args)
        except Exception as e:
            if self._no_kernel(native_call, want, args):
                self.no_kernel.append(f"{label} -> {want}: {type(e).__name__}: {e}"[:200])
            else:
                self.wrong.append(f"{label}: expected {want}, raised {type(e).__name__}: {e}"[:300])
            return
        if out.dtype is not want:  # even where the backend has no kernel: raise, never another dtype
            self.wrong.append(f"{label}: expected {want}, got {out.dtype}")
            return
        if hasattr(out, "device") and not on_device(out, self.xp):  # result_type gives a dtype
            self.wrong.append(f"{label}: result on {out.device}, not on the operands' device")
            return
        self.cells += 1
        if reference is None or not has_values(self.xp):
            return
        got = to_numpy(out)
        ref = _narrow(reference(want, *args), want)
        if not close(got, ref, want):
            self.wrong.append(f"{label} -> {want}: values {got.tolist()} != reference {ref.tolist()}")

    @staticmethod
    def _no_kernel(native_call: Callable[..., Any], result: DType, args: tuple[Any, ...]) -> bool:
        """Whether the backend itself cannot compute the cell in ``result``: not a promotion matter."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = native_call(result, *args)
        except Exception:
            return True
        return canonical(out.dtype) is not result

    def assert_ok(self) -> None:
        """Fail listing every wrong cell; print the counts."""
        print(
            f"{self.what}: {self.cells} cells, {self.refused} refused, "
            f"{len(self.no_kernel)} without a backend kernel, {len(self.wrong)} wrong"
        )
        for cell in self.no_kernel[: int(os.environ.get("PROMO_NS_SHOW_NO_KERNEL", "0"))]:
            print(f"  no kernel: {cell}")
        assert not self.wrong, f"{len(self.wrong)} wrong cells of {self.what}:\n" + "\n".join(self.wrong[:80])
        assert self.cells or self.refused, (
            f"no cell of {self.what} ran ({len(self.no_kernel)} without a kernel)"
        )


class Env(NamedTuple):
    """A namespace whose active policy is ``pol``, the policy itself, and array-api-compat's namespace."""

    xp: Any
    pol: Policy
    compat: Any


@pytest.fixture(params=["namespace", "block"])
def env(request: pytest.FixtureRequest, backend: str, policy: str) -> Iterator[Env]:
    """The namespace of ``policy``, or one of another policy used inside ``promo_ns.policy(policy)``."""
    if request.param == "namespace":
        xp = namespace(backend, policy)
        yield Env(xp, get_policy(policy), xp._backend.compat)
        return
    other = POLICIES[(POLICIES.index(policy) + 1) % len(POLICIES)]
    xp = namespace(backend, other)
    with promo_ns.policy(policy) as pol:
        yield Env(xp, pol, xp._backend.compat)


# --- where ----------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_where(env: Env, backend: str, policy: str) -> None:
    xp, pol, compat = env
    cond = xp.asarray([True, False, True])
    tally = Tally(f"where under {policy} on {backend}", xp, backend, policy)

    def expected(c: Any, a: Any, b: Any) -> DType:
        return resolve_many(pol, "where", [_op(a), _op(b)])

    for (la, _, a), (lb, _, b) in itertools.product(_items(xp, VALUES), _items(xp, OTHER)):
        tally.check(
            f"where(c, {la}, {lb})",
            (cond, a, b),
            expected,
            xp.where,
            lambda r, c, a, b: compat.where(promo_ns.unwrap(c), _native(xp, a, r), _native(xp, b, r)),
            lambda r, c, a, b: np.where(to_numpy(c), _wide(a, r), _wide(b, r)),
        )
    # A 0-d condition broadcasts too.
    cond0 = xp.asarray(False)
    for (la, _, a), (lb, _, b) in itertools.product(
        _items(xp, VALUES, zero_d=False, scalars=False), SCALARS_ITEMS
    ):
        tally.check(
            f"where(c0, {la}, {lb})",
            (cond0, a, b),
            expected,
            xp.where,
            lambda r, c, a, b: compat.where(promo_ns.unwrap(c), _native(xp, a, r), _native(xp, b, r)),
            lambda r, c, a, b: np.where(to_numpy(c), _wide(a, r), _wide(b, r)),
        )
    tally.assert_ok()


SCALARS_ITEMS: list[Item] = [(f"py:{v!r}", None, v) for v in SCALARS]


# --- clip -----------------------------------------------------------------------------------


def _bound(pol: Policy, operands: list[Operand | None], index: int, bound: Any) -> Any:
    """A ``clip`` bound as the policy takes it: None where it drops a Python int (NumPy's, past the dtype)."""
    o = operands[index]
    if o is None or o.role is not Role.INT:
        return bound
    try:
        return None if int_value(pol, "clip", operands, index) is None else bound
    except (PromotionError, OverflowError):  # refused: the cell expects the refusal
        return bound


def _clip_reference(x: Any, lo: Any, hi: Any, r: DType) -> Any:
    out = _wide(x, r)
    if lo is not None:
        out = np.maximum(out, _wide(lo, r))
    if hi is not None:
        out = np.minimum(out, _wide(hi, r))
    return out


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_clip(env: Env, backend: str, policy: str) -> None:
    xp, pol, compat = env
    tally = Tally(f"clip under {policy} on {backend}", xp, backend, policy)
    xs = _items(xp, VALUES, scalars=False)
    lows, highs = _items(xp, LOWER), _items(xp, UPPER)

    def cell(lx: str, x: Any, lo: tuple[str, Any], hi: tuple[str, Any]) -> None:
        operands = [None if v is None else _op(v) for v in (x, lo[1], hi[1])]
        bounds = [_bound(pol, operands, i, b) for i, b in ((1, lo[1]), (2, hi[1]))]

        def native_call(r: DType) -> Any:
            n = [None if b is None else _native(xp, b, r) for b in bounds]
            return compat.clip(_native(xp, x, r), n[0], n[1])

        tally.check(
            f"clip({lx}, min={lo[0]}, max={hi[0]})",
            (),
            lambda: resolve_many(pol, "clip", operands) if any(operands[1:]) else x.dtype,
            lambda: xp.clip(x, min=lo[1], max=hi[1]),
            native_call,
            lambda r: _clip_reference(x, bounds[0], bounds[1], r),
        )

    none = ("None", None)
    for lx, _, x in xs:
        cell(lx, x, none, none)
        for lb, _, b in lows:
            cell(lx, x, (lb, b), none)
        for lb, _, b in highs:
            cell(lx, x, none, (lb, b))
    nd = [i for i in xs if i[0].endswith(":nd")]
    both = list(
        itertools.product(
            nd,
            [i for i in lows if not i[0].endswith(":0d")],
            [i for i in highs if not i[0].endswith(":0d")],
        )
    )
    # torch's meta device checks dtypes and devices, not values: every eighth pair of bounds there, of
    # which the tally runs a share (torch on the CPU runs the same dtype decisions over all of them)
    stride = 1 if has_values(xp) else 8
    for (lx, _, x), (ll, _, lo), (lh, _, hi) in both[::stride]:
        cell(lx, x, (ll, lo), (lh, hi))
    tally.assert_ok()


# --- concat / stack ---------------------------------------------------------------------------


def _joined(
    tally: Tally, xp: Any, pol: Policy, name: str, groups: Iterable[tuple[Item, ...]], axis: int = 0
) -> None:
    compat = xp._backend.compat
    for group in groups:
        arrays = [a for _, _, a in group]
        tally.check(
            f"{name}([{', '.join(label for label, _, _ in group)}], axis={axis})",
            (arrays,),
            lambda arrays: resolve_many(pol, name, [_op(a) for a in arrays]),
            lambda arrays: getattr(xp, name)(arrays, axis=axis),
            lambda r, arrays: getattr(compat, name)([_native(xp, a, r) for a in arrays], axis=axis),
            lambda r, arrays: getattr(np, name)([_wide(a, r) for a in arrays], axis=axis),
        )


#: dtypes for the third array of three: one per kind and width class.
THIRD = ("bool", "int8", "uint8", "int32", "uint64", "float16", "bfloat16", "float64", "complex64")


@pytest.mark.parametrize("name", ["concat", "stack"])
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_concat_stack(env: Env, backend: str, policy: str, name: str) -> None:
    xp, pol, _ = env
    tally = Tally(f"{name} under {policy} on {backend}", xp, backend, policy)
    nd = _items(xp, VALUES, zero_d=False, scalars=False)
    other = _items(xp, OTHER, zero_d=False, scalars=False)
    third = [
        i for i in _items(xp, LOWER, zero_d=False, scalars=False) if i[1] is not None and i[1].name in THIRD
    ]
    _joined(tally, xp, pol, name, itertools.product(nd, other))
    _joined(tally, xp, pol, name, itertools.product(nd, other, third))
    if name == "stack":  # 0-d arrays stack into a 1-d array
        zero_d = [i for i in _items(xp, VALUES, scalars=False) if i[0].endswith(":0d")]
        _joined(tally, xp, pol, name, itertools.product(zero_d, zero_d))
        _joined(tally, xp, pol, name, itertools.product(nd, other), axis=1)
    tally.assert_ok()


# --- linear algebra -------------------------------------------------------------------------

Maker = Callable[[Any, DType], Any]


def _vec(values: dict[str, list[Any]]) -> Maker:
    return lambda xp, d: xp.asarray(values[d.kind], dtype=d)


def _mat(rows: list[list[int]]) -> Maker:
    return lambda xp, d: _matrix(xp, rows, d)


def _solve_a(xp: Any, d: DType) -> Any:
    a = {"b": [[True, False], [True, True]], "c": [[2 + 1j, 1], [1, 3]]}.get(d.kind, [[2, 1], [1, 3]])
    return xp.asarray(a, dtype=d)


def _solve_reference(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> Any:
    return np.linalg.solve(a.astype(np.result_type(a, np.float64)), b.astype(np.result_type(b, np.float64)))


def _vecdot_reference(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> Any:
    return np.sum(np.conj(a) * b, axis=-1)


#: name -> (namespace path, operand makers, keyword arguments, NumPy reference on wide operands).
LINALG: dict[str, tuple[str, Maker, Maker, dict[str, Any], Callable[..., Any]]] = {
    "matmul": ("matmul", _mat([[0, 1, 2], [2, 0, 1]]), _mat([[0, 1], [1, 2], [2, 0]]), {}, np.matmul),
    "tensordot": (
        "tensordot",
        _mat([[0, 1, 2], [2, 0, 1]]),
        _mat([[0, 1], [1, 2], [2, 0]]),
        {"axes": 1},
        lambda a, b: np.tensordot(a, b, axes=1),
    ),
    "vecdot": ("vecdot", _mat([[0, 1, 2], [2, 0, 1]]), _mat([[1, 2, 0], [0, 0, 2]]), {}, _vecdot_reference),
    "linalg.matmul": ("linalg.matmul", _mat([[0, 1], [2, 0]]), _mat([[1, 2], [2, 0]]), {}, np.matmul),
    "linalg.tensordot": (
        "linalg.tensordot",
        _mat([[0, 1, 2], [2, 0, 1]]),
        _mat([[0, 1], [1, 2], [2, 0]]),
        {"axes": 1},
        lambda a, b: np.tensordot(a, b, axes=1),
    ),
    "linalg.vecdot": (
        "linalg.vecdot",
        _mat([[0, 1, 2], [2, 0, 1]]),
        _mat([[1, 2, 0], [0, 0, 2]]),
        {},
        _vecdot_reference,
    ),
    "linalg.cross": ("linalg.cross", _vec(VALUES), _vec(OTHER), {}, np.cross),
    "linalg.outer": ("linalg.outer", _vec(VALUES), _vec(OTHER), {}, np.outer),
    "linalg.solve": ("linalg.solve", _solve_a, _mat([[0, 1], [2, 0]]), {}, _solve_reference),
}


def _resolve(owner: Any, path: str) -> Any:
    for part in path.split("."):
        owner = getattr(owner, part)
    return owner


@pytest.mark.parametrize("name", list(LINALG))
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_linalg(env: Env, backend: str, policy: str, name: str) -> None:
    xp, pol, compat = env
    path, make1, make2, kwargs, reference = LINALG[name]
    op = path.rsplit(".", 1)[-1]
    fn, native_fn = _resolve(xp, path), _resolve(compat, path)
    tally = Tally(f"{name} under {policy} on {backend}", xp, backend, policy)
    for d1, d2 in itertools.product(DTYPES, DTYPES):
        try:
            a, b = make1(xp, d1), make2(xp, d2)
        except TypeError:  # the backend has no such dtype
            continue
        tally.check(
            f"{name}({d1}, {d2})",
            (a, b),
            lambda a, b: resolve_many(pol, op, [_op(a), _op(b)]),
            lambda a, b: fn(a, b, **kwargs),
            lambda r, a, b: native_fn(_native(xp, a, r), _native(xp, b, r), **kwargs),
            lambda r, a, b: reference(_wide(a, r), _wide(b, r)),
        )
    tally.assert_ok()


# --- result_type and can_cast ---------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_result_type(env: Env, backend: str, policy: str) -> None:
    xp, pol, _ = env
    tally = Tally(f"result_type under {policy} on {backend}", xp, backend, policy)
    arrays = _items(xp, VALUES, scalars=False)
    dtypes: list[Item] = [(f"{d}", d, d) for d in DTYPES]
    items = dtypes + arrays + SCALARS_ITEMS
    groups: list[tuple[Item, ...]] = [(i,) for i in items]
    groups += list(itertools.product(items, items))
    zero_d = [i for i in arrays if i[0].endswith(":0d")]
    groups += list(itertools.product(dtypes + zero_d, dtypes, dtypes + SCALARS_ITEMS))
    groups += list(itertools.product(SCALARS_ITEMS, zero_d, SCALARS_ITEMS))
    for group in groups:
        tally.check(
            f"result_type({', '.join(label for label, _, _ in group)})",
            tuple(v for _, _, v in group),
            lambda *args: resolve_many(pol, "result_type", [_op(v) for v in args]),
            lambda *args: _Typed(xp.result_type(*args)),
            lambda r, *args: _Typed(r),
            None,
        )
    tally.assert_ok()


class _Typed:
    """A dtype as something with a ``.dtype``, for :meth:`Tally.check`."""

    def __init__(self, dtype: DType) -> None:
        self.dtype = dtype


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_can_cast(env: Env, backend: str, policy: str) -> None:
    xp, pol, _ = env
    wrong: list[str] = []
    froms: list[Item] = [(f"{d}", d, d) for d in DTYPES] + _items(xp, VALUES, scalars=False)
    for (label, d, f), to in itertools.product(froms, DTYPES):
        assert d is not None
        try:
            promotes = resolve(pol, "result_type", Operand(d, Role.ND), Operand(to, Role.ND)) is to
        except PromotionError:
            promotes = False
        want = promotes if pol.can_cast == "promotion" else can_cast(pol, d, to)
        got = xp.can_cast(f, to)
        if got is not want:
            wrong.append(f"can_cast({label}, {to}): expected {want}, got {got!r}")
        if d is to and not got:
            wrong.append(f"can_cast({label}, {to}) is False for the same dtype")
        if got and pol.can_cast == "promotion" and not promotes:  # the standard's rule: they promote to `to`
            wrong.append(f"can_cast({label}, {to}) but result_type({d}, {to}) is not {to}")
    for v in SCALARS:
        with pytest.raises(TypeError):
            xp.can_cast(v, DTYPES[0])
    assert not wrong, f"{len(wrong)} wrong can_cast cells under {policy} on {backend}:\n" + "\n".join(wrong)


# --- accumulation dtype of reductions -------------------------------------------------------

REDUCTIONS: dict[str, Callable[..., Any]] = {
    "sum": np.sum,
    "prod": np.prod,
    "cumulative_sum": np.cumsum,
    "cumulative_prod": np.cumprod,
}


def _asked(pol: Any, name: str, x: Any, dtype: DType) -> DType:
    """The ``dtype=`` asked, where the policy takes ``x``'s kind (array-api's sum takes no bool)."""
    check_input_kind(pol, name, x.dtype)
    return dtype


# An explicit dtype=float32 on complex data discards the imaginary part, as asked.
@pytest.mark.filterwarnings("ignore:Casting complex values to real")
@pytest.mark.parametrize("name", list(REDUCTIONS))
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_accumulation_dtype(env: Env, backend: str, policy: str, name: str) -> None:
    xp, pol, compat = env
    tally = Tally(f"{name} under {policy} on {backend}", xp, backend, policy)
    fn, native_fn, reference = getattr(xp, name), getattr(compat, name), REDUCTIONS[name]
    arrays = _items(xp, VALUES, zero_d=name in ("sum", "prod"), scalars=False)
    targets: list[DType | None] = [None, *DTYPES]
    for (label, _, x), target in itertools.product(arrays, targets):
        tally.check(
            f"{name}({label}, dtype={target})",
            (x, target),
            lambda x, t: accumulation_dtype(pol, name, x.dtype) if t is None else _asked(pol, name, x, t),
            lambda x, t: fn(x, dtype=t),
            lambda r, x, t: native_fn(_native(xp, x, r), dtype=xp._backend.native_dtype(r)),
            lambda r, x, t: reference(_wide(x, r)),
        )
    tally.assert_ok()


# --- creation defaults ------------------------------------------------------------------------


def _defaults_cells(xp: Any, defaults: dict[str, DType]) -> list[str]:
    """Every creation function with ``dtype=None``: wrong dtypes or values, in words."""
    b, i, f, c = (defaults[k] for k in ("bool", "int", "float", "complex"))
    cases: list[tuple[str, Callable[[], Any], DType, Any]] = [
        ("asarray(True)", lambda: xp.asarray(True), b, True),
        ("asarray(3)", lambda: xp.asarray(3), i, 3),
        ("asarray(1.5)", lambda: xp.asarray(1.5), f, 1.5),
        ("asarray(1.5+2j)", lambda: xp.asarray(1.5 + 2j), c, 1.5 + 2j),
        ("asarray([True, False])", lambda: xp.asarray([True, False]), b, [True, False]),
        ("asarray([[1, 2], [3, 4]])", lambda: xp.asarray([[1, 2], [3, 4]]), i, [[1, 2], [3, 4]]),
        ("asarray([[1, 2.5]])", lambda: xp.asarray([[1, 2.5]]), f, [[1, 2.5]]),
        ("asarray([[0.1], [0.2]])", lambda: xp.asarray([[0.1], [0.2]]), f, [[0.1], [0.2]]),
        ("asarray([[1, 2j]])", lambda: xp.asarray([[1, 2j]]), c, [[1, 2j]]),
        ("asarray(((1.5, 2), (3, 4)))", lambda: xp.asarray(((1.5, 2), (3, 4))), f, [[1.5, 2], [3, 4]]),
        ("arange(5)", lambda: xp.arange(5), i, list(range(5))),
        ("arange(1, 7, 2)", lambda: xp.arange(1, 7, 2), i, [1, 3, 5]),
        ("arange(0.0, 1.0, 0.25)", lambda: xp.arange(0.0, 1.0, 0.25), f, [0, 0.25, 0.5, 0.75]),
        ("arange(0, 2, 0.5)", lambda: xp.arange(0, 2, 0.5), f, [0, 0.5, 1, 1.5]),
        ("linspace(0, 1, 5)", lambda: xp.linspace(0, 1, 5), f, [0, 0.25, 0.5, 0.75, 1]),
        (
            "linspace(0.0, 1.0, 4, endpoint=False)",
            lambda: xp.linspace(0.0, 1.0, 4, endpoint=False),
            f,
            [0, 0.25, 0.5, 0.75],
        ),
        ("linspace(0j, 2, 3)", lambda: xp.linspace(0j, 2, 3), c, [0, 1, 2]),
        ("full((2,), True)", lambda: xp.full((2,), True), b, [True, True]),
        ("full((2,), 7)", lambda: xp.full((2,), 7), i, [7, 7]),
        ("full((2,), 0.1)", lambda: xp.full((2,), 0.1), f, [0.1, 0.1]),
        ("full((2,), 1j)", lambda: xp.full((2,), 1j), c, [1j, 1j]),
        ("ones((2, 2))", lambda: xp.ones((2, 2)), f, [[1, 1], [1, 1]]),
        ("zeros(3)", lambda: xp.zeros(3), f, [0, 0, 0]),
        ("empty((2,))", lambda: xp.empty((2,)), f, None),
        ("eye(2)", lambda: xp.eye(2), f, [[1, 0], [0, 1]]),
        ("eye(2, 3, k=1)", lambda: xp.eye(2, 3, k=1), f, [[0, 1, 0], [0, 0, 1]]),
        ("fft.fftfreq(4)", lambda: xp.fft.fftfreq(4), f, [0, 0.25, -0.5, -0.25]),
        ("fft.rfftfreq(4, d=0.5)", lambda: xp.fft.rfftfreq(4, d=0.5), f, [0, 0.5, 1]),
    ]
    wrong: list[str] = []
    for label, make, want, values in cases:
        try:
            out = make()
        except Exception as e:
            wrong.append(f"{label}: raised {type(e).__name__}: {e}"[:300])
            continue
        if out.dtype is not want:
            wrong.append(f"{label}: expected {want}, got {out.dtype}")
        elif not on_device(out, xp):
            wrong.append(f"{label}: created on {out.device}, not on the namespace's device")
        elif values is not None and has_values(xp) and not close(to_numpy(out), _narrow(values, want), want):
            wrong.append(f"{label}: values {to_numpy(out).tolist()} != {values}")
    info = xp.__array_namespace_info__().default_dtypes()
    expected_info = {"real floating": f, "complex floating": c, "integral": i, "indexing": defaults["index"]}
    if info != expected_info:
        wrong.append(f"default_dtypes(): {info} != {expected_info}")
    return wrong


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_creation_defaults(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    wrong = [f"{policy}: {w}" for w in _defaults_cells(xp, dict(get_policy(policy).defaults))]
    for other in POLICIES:
        with promo_ns.policy(other):
            wrong += [
                f"in policy({other!r}): {w}" for w in _defaults_cells(xp, dict(get_policy(other).defaults))
            ]
    wrong += [f"after the blocks: {w}" for w in _defaults_cells(xp, dict(get_policy(policy).defaults))]
    assert not wrong, f"{len(wrong)} wrong creation defaults on {backend}:\n" + "\n".join(wrong)
