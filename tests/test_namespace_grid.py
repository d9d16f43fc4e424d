"""Every binary op of the namespace, on every (dtype, role) pair, on every backend, under every policy.

For each cell the wrapped op's result dtype must be the engine's answer (a
refused cell must raise PromotionError), and its values must equal a reference
computed by NumPy in a wide dtype (int64 / float64 / complex128) and then cast
to the result dtype.  A failure lists every wrong cell.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import DTYPES, DType, canonical, native
from promo_ns._engine.decisions import compute_table
from promo_ns._engine.operands import Refusal
from promo_ns._ops import NATIVE, family_of
from tests.backends import GRID_BACKENDS as BACKENDS
from tests.backends import (
    POLICIES,
    backend_marks,
    backend_name,
    close,
    has_values,
    namespace,
    on_device,
    one_op_per_family,
    sampled,
    to_numpy,
)

VALUES: dict[str, list[Any]] = {
    "b": [True, True, True],
    "i": [1, 2, 3],
    "u": [1, 2, 3],
    "f": [0.5, 1.5, 2.5],
    "c": [0.5 + 1j, 1.5 - 0.5j, 2.5 + 0j],
}
SCALARS: tuple[Any, ...] = (True, 2, 1.5, 1.5 + 0.5j)
WIDE = {"b": np.int64, "i": np.int64, "u": np.int64, "f": np.float64, "c": np.complex128}
#: ops whose exact value depends on the result dtype's spacing: checked for dtype only.
DTYPE_ONLY = {"nextafter"}

Operand = tuple[str, DType | None, Any]  # (label, dtype or None for a Python scalar, value)


def _operands(xp: Any) -> list[Operand]:
    out: list[Operand] = []
    for d in DTYPES:
        try:
            nd = xp.asarray(VALUES[d.kind], dtype=d)
        except TypeError:  # the backend has no such dtype (bfloat16 on CuPy)
            continue
        out += [(f"{d}:nd", d, nd), (f"{d}:0d", d, xp.asarray(VALUES[d.kind][0], dtype=d))]
    return out + [(f"py:{type(v).__name__}", None, v) for v in SCALARS]


def _role_key(label: str, dtype: DType | None, value: Any) -> tuple[DType | None, Any]:
    from promo_ns._engine.operands import operand
    from promo_ns.policies import Role

    if dtype is None:
        return None, operand(value).role
    return dtype, Role.ZERO_D if label.endswith(":0d") else Role.ND


def _reference(op: str, x: Any, y: Any, compute: DType, result: DType) -> np.ndarray[Any, Any]:
    # Each operand is first cast to the compute dtype (a Python scalar too), then widened.
    c, wide = native(compute, np), WIDE[compute.kind]
    args: list[np.ndarray[Any, Any]] = [
        np.asarray(to_numpy(v) if hasattr(v, "dtype") else v).astype(c).astype(wide) for v in (x, y)
    ]
    with np.errstate(all="ignore"):
        value = getattr(np, NATIVE[op][0])(*args)
    return np.asarray(value).astype(native(result, np))


def _no_kernel(xp: Any, op: str, x: Any, y: Any, compute: DType, result: DType) -> bool:
    """Whether the backend itself has no kernel for ``op`` from ``compute`` to ``result``
    (NumPy has no complex ``hypot``, torch no CPU kernels for uint16/32/64): not a promotion matter."""
    args = [
        xp.astype(v, compute)
        if hasattr(v, "dtype")
        else xp.asarray(np.asarray(v).astype(native(compute, np)).tolist(), dtype=compute)
        for v in (x, y)
    ]
    module = promo_ns.unwrap(args[0]).__class__.__module__.split(".")[0]
    name = NATIVE[op][1] if module == "torch" else NATIVE[op][0]
    try:
        out = getattr(__import__(module), name)(*map(promo_ns.unwrap, args))
    except Exception:
        return True
    return canonical(out.dtype) is not result


def _grid() -> list[Any]:
    """(backend, policy, op) of every cell of the grid, with the backend's marks (a GPU's skip).

    torch's meta device computes no values, and its calls run torch's Python
    decompositions (about 10 ms each): there one op of each of the policy's
    families, and a share of its cells (:func:`~tests.backends.sampled`);
    torch on the CPU runs every op and cell.
    """
    out = []
    for b in BACKENDS:
        backend, marks = backend_name(b), backend_marks(b)
        for policy in POLICIES:
            ops = one_op_per_family(policy) if backend == "torch:meta" else tuple(NATIVE)
            out += [pytest.param(backend, policy, op, marks=marks) for op in ops]
    return out


@pytest.mark.parametrize(("backend", "policy", "op"), _grid())
def test_binary_op_grid(backend: str, policy: str, op: str) -> None:
    xp = namespace(backend, policy)
    pol = get_policy(policy)
    table = compute_table(pol, pol.op_families.get(op) or family_of(op))
    fn = getattr(xp, op)
    wrong: list[str] = []
    cells = no_kernel = computing = 0
    operands = _operands(xp)
    values = has_values(xp)
    running = [p for p in POLICIES if op in one_op_per_family(p)]  # the policies whose meta grid runs op
    for la, da, a in operands:
        for lb, db, b in operands:
            if da is None and db is None:
                continue
            cell = f"{op}({la}, {lb})"
            if not (values or sampled(cell, backend, policy, among=running)):  # torch's CPU runs every cell
                continue
            ka, kb = _role_key(la, da, a), _role_key(lb, db, b)
            expected = table[(ka[0], ka[1], kb[0], kb[1])]
            if isinstance(expected, Refusal):
                try:
                    fn(a, b)
                except PromotionError:
                    continue
                except OverflowError:
                    continue
                wrong.append(f"{cell}: expected PromotionError, got a result")
                continue
            result, compute = expected
            computing += 1
            try:
                out = fn(a, b)
            except Exception as e:
                if _no_kernel(xp, op, a, b, compute, result):
                    no_kernel += 1
                else:
                    wrong.append(f"{cell}: expected {result}, raised {type(e).__name__}: {e}"[:300])
                continue
            cells += 1
            if out.dtype is not result:
                wrong.append(f"{cell}: expected {result}, got {out.dtype}")
                continue
            if not on_device(out, xp):
                wrong.append(f"{cell}: result on {out.device}, not on the operands' device")
                continue
            if op in DTYPE_ONLY or not values:
                continue
            try:
                want = _reference(op, a, b, compute, result)
            except TypeError:  # NumPy has no wide kernel either (complex logaddexp)
                continue
            got = to_numpy(out)
            if not close(got, want, result):
                wrong.append(f"{cell} -> {result}: values {got.tolist()} != reference {want.tolist()}")
    assert not wrong, f"{len(wrong)} wrong cells of {op} under {policy} on {backend}:\n" + "\n".join(
        wrong[:60]
    )
    # torch's meta device samples its cells: a share of an op may hold none the policy computes
    assert cells or (not values and not computing), f"no cell ran ({no_kernel} without a backend kernel)"
