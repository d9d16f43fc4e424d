"""Every dtype-deciding function through the namespace: the policy's answer, identical on every backend.

The grids themselves are checked against the frameworks in ``test_function_fidelity.py``;
here every function runs on every backend and its result dtype (or refusal) must be the
grid's, cell by cell, with a diff of every cell that is not.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import promo_ns
from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine.functions import function_dtype
from promo_ns._ops import FUNCTION_FAMILY
from tests.backends import POLICIES, namespace

BACKENDS = ["numpy", "torch", "torch:meta"]
NO_KERNEL = "no kernel"  #: promo_ns's TypeError: the backend cannot compute the policy's dtype


def _input(xp: Any, fn: str, dtype: DType) -> Any:
    if fn.startswith("linalg."):
        data = np.eye(3) if dtype.kind == "b" else np.eye(3) * 2 + 1
    else:
        data = np.array([1.0, 2.0, 3.0, 4.0])
    return xp.astype(xp.asarray(data), getattr(xp, dtype.name))


def _outcome(xp: Any, fn: str, dtype: DType, want: str) -> str:
    """``"refused"``, :data:`NO_KERNEL`, or the result's dtype (for tuples: ``want`` if a member has it)."""
    owner, _, short = fn.rpartition(".")
    f = getattr(getattr(xp, owner) if owner else xp, short)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = f(_input(xp, fn, dtype))
    except promo_ns.PromotionError:
        return "refused"
    except TypeError as e:
        assert "kernel" in str(e), f"{fn}({dtype}): a TypeError that is not promo_ns's: {e}"
        return NO_KERNEL
    if isinstance(out, tuple):
        names = {o.dtype.name for o in out}
        return want if want in names else "/".join(sorted(names))
    return str(out.dtype.name)


def _expected(policy: str, fn: str, dtype: DType) -> str:
    try:
        return function_dtype(promo_ns.get_policy(policy), fn, dtype).name
    except promo_ns.PromotionError:
        return "refused"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("policy", POLICIES)
def test_every_function_gives_the_policys_dtype(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    wrong = []
    for fn in FUNCTION_FAMILY:
        for dtype in DTYPES:
            want = _expected(policy, fn, dtype)
            got = _outcome(xp, fn, dtype, want)
            if got not in (want, NO_KERNEL):
                wrong.append(f"  {fn}({dtype}): policy {want}, {backend} {got}")
    assert not wrong, f"{len(wrong)} cells differ under {policy!r} on {backend}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("policy", POLICIES)
def test_every_function_decides_alike_on_every_backend(policy: str) -> None:
    spaces = [namespace(b, policy) for b in BACKENDS]
    wrong, missing = [], 0
    for fn in FUNCTION_FAMILY:
        for dtype in DTYPES:
            want = _expected(policy, fn, dtype)
            got = [_outcome(xp, fn, dtype, want) for xp in spaces]
            missing += got.count(NO_KERNEL)
            if len(set(got) - {NO_KERNEL}) > 1:
                wrong.append(
                    f"  {fn}({dtype}): " + ", ".join(f"{b} {g}" for b, g in zip(BACKENDS, got, strict=True))
                )
    assert not wrong, "backends disagree:\n" + "\n".join(wrong)
    # Cells the policy decides that a backend cannot compute are the exception, not the rule.
    assert missing < 0.02 * len(FUNCTION_FAMILY) * len(DTYPES) * len(BACKENDS)


def _score(xp: Any, x: Any, weights: Any) -> tuple[str, ...]:
    """The README's backend-agnostic code, on integer inputs: mean, std, log, sqrt decide dtypes."""
    z = (x - xp.mean(x, axis=0)) / (xp.std(x, axis=0) + 1)
    score = xp.log(xp.sum(xp.exp(z * weights), axis=1)) + xp.sqrt(xp.abs(z[:, 0]))
    return (str(z.dtype), str(score.dtype))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float32"])
def test_backend_agnostic_code_on_integers_gives_one_dtype_everywhere(policy: str, dtype: str) -> None:
    outcomes = set()
    for backend in BACKENDS:
        xp = namespace(backend, policy)
        x = xp.astype(xp.asarray(np.arange(12.0).reshape(4, 3)), getattr(xp, dtype))
        w = xp.astype(xp.asarray([1.0, 2.0, 3.0]), getattr(xp, dtype))
        try:
            outcomes.add(_score(xp, x, w))
        except promo_ns.PromotionError:
            outcomes.add(("refused",))
    assert len(outcomes) == 1, outcomes


# --- NumPy scalars (nested creation is checked against the frameworks in test_function_fidelity.py) ---

_NESTED = json.loads((Path(__file__).parent / "reference" / "nested-creation.json").read_text())


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_scalars_are_strong_in_every_function(backend: str) -> None:
    xp = namespace(backend, "numpy")
    a = xp.asarray([1, 2, 3], dtype=xp.int8)
    c = a > 1
    for scalar, want in ((np.float64(0.1), xp.float64), (np.float32(0.1), xp.float32)):
        assert (a + scalar).dtype == want
        assert xp.where(c, a, scalar).dtype == want
        assert xp.clip(a, scalar, None).dtype == want
        assert xp.result_type(a, scalar) == want
    observed = _NESTED["numpy_scalars"]
    assert observed["np.where(c, int8_arr, np.float64(.1))"] == "float64"
    assert observed["np.result_type(int8_arr, np.float32(.1))"] == "float32"


def test_the_cli_lists_every_function_by_family() -> None:
    from promo_ns.explore.cli import ops_text

    text = ops_text().split("one-array functions", 1)[1]
    for name, family in FUNCTION_FAMILY.items():
        line = next(line for line in text.splitlines() if line.split()[:1] == [family])
        assert name in line
