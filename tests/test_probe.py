"""The generated probe (conformance/probe): coverage of the registry, stored observations, backends, ratchet.

* every public function of a namespace, and every operator form, has probe cases;
* the stored framework observations are what the framework gives now (a sample, where installed);
* under every policy every backend gives the NumPy backend's outcome (a sample), except the cells
  of the one table of known differences, :data:`conformance.probe._known.KNOWN`;
* promo_ns's agreement with each framework (a sample, NumPy backend) does not fall below today's.

``python -m conformance.probe`` runs the whole probe and writes docs/conformance/probe.md.
"""

from __future__ import annotations

import importlib.util
import warnings
from typing import Any

import pytest

import promo_ns
from conformance.probe import _compare, _driver, _known, _space, promo
from tests.backends import _jax

POLICIES = promo_ns.policies()
#: One case in how many each backend runs here (the conformance command runs more).
EVERY = {"numpy": 25, "torch": 50, "dask": 1500, "jax": 6000}
#: Agreement with the framework today, agreeing / compared cases (NumPy backend, the sample of
#: :func:`_sample`, one case in 25): a floor to raise as policies get closer to their frameworks.
RATCHET = {
    "pytorch": 2580 / 2592,
    "numpy": 3758 / 3759,
    "array-api": 2309 / 2311,
    "paddle": 1588 / 1593,
    "tf-safe": 2319 / 2324,
    # The stored JAX observations are this sample only (conformance/probe/jax.py: JAX compiles each case).
    "jax": 2866 / 2868,
    "tf-all": 2292 / 2299,
    "tf-legacy": 2112 / 2118,
}
_LIVE = {
    "pytorch": ("torch", "Torch"),
    "numpy": ("numpy", "NumPy"),
    "array-api": ("array_api_strict", "ArrayApiStrict"),
    "paddle": ("paddle", "Paddle"),
    "tf-safe": ("tensorflow", "TensorFlow"),
    # The adapter measures the mode $PROMO_TF_MODE names (the others are skipped: another version).
    "tf-all": ("tensorflow", "TensorFlow"),
    "tf-legacy": ("tensorflow", "TensorFlow"),
}


def _sample(policy: str, every: int, salt: str = "tests") -> list[_space.Case]:
    return _space.subsample(_space.cases(policy), every, salt=salt)


def _public(ns: Any, prefix: str = "") -> set[str]:
    names = set()
    for name in dir(ns):
        if name.startswith("_") or name in _space.NOT_FUNCTIONS:
            continue
        if callable(getattr(ns, name)):
            names.add(prefix + name)
    return names


@pytest.mark.parametrize("api_version", ["2024.12", "2025.12"])
def test_every_public_function_has_a_kind_and_cases(api_version: str) -> None:
    xp = promo_ns.namespace("numpy", policy="array-api", api_version=api_version)
    public = _public(xp) | _public(xp.linalg, "linalg.") | _public(xp.fft, "fft.")
    assert not [n for n in public if _space.kind_of(n) is None], "public functions without a probe kind"
    probed = {c.op for c in _space.cases("array-api")}
    assert public <= probed, f"public functions without probe cases: {sorted(public - probed)}"
    assert set(_space.public_names()) >= public


def test_every_operator_form_has_cases() -> None:
    spellings = {(c.op, c.spelling) for c in _space.cases("pytorch")}
    for op in _space.DUNDER:
        assert (op, "operator") in spellings, op
        if op in _driver.INPLACE_OPERATORS:
            assert (op, "inplace") in spellings, op
        if op in promo_ns._ops.NATIVE:
            assert (op, "reflected") in spellings and (op, "method") in spellings, op
    assert all((op, "operator") in spellings for op in _space.UNARY_DUNDER)
    assert ("setitem", "setitem") in spellings


def test_cases_are_deterministic_and_cover_every_dtype_in_every_role() -> None:
    for policy in POLICIES:
        items = _space.cases(policy)
        assert 30_000 <= len(items) <= 100_000, (policy, len(items))
        assert len({c.key for c in items}) == len(items)
    items = _space.cases("numpy")
    binary = [c for c in items if c.kind == "binary"]
    seen = {(c.op, c.spelling, _dtype(t), _role(t)) for c in binary for t in c.args}
    for op in promo_ns._ops.NATIVE:
        for dtype in _space.DTYPES:
            for role in ("nd", "0d", "np", "edge"):
                assert (op, "function", dtype, role) in seen, (op, dtype, role)
            assert (op, "function", "py", "py") in seen


def _dtype(token: str) -> str:
    o = _space.operand(token)
    return str(o.dtype) if o.what in ("array", "np") else o.what


def _role(token: str) -> str:
    o = _space.operand(token)
    if o.what == "array":
        return "edge" if token.endswith(":edge") else o.shape
    return o.what


@pytest.mark.parametrize("policy", list(_LIVE))
def test_stored_observations_are_the_frameworks_live(policy: str) -> None:
    module, cls = _LIVE[policy]
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed")
    adapter = getattr(__import__(f"conformance.probe.{module}", fromlist=[cls]), cls)()
    stored = _driver.load(policy)
    if stored["version"] != adapter.version:
        pytest.skip(f"stored for {adapter.name} {stored['version']}, {adapter.version} installed")
    items = _sample(policy, 200, salt="live")
    live = _driver.probe(adapter, items)
    differ = [
        (c.key, stored["observations"][c.key], live[c.key])
        for c in items
        if not _compare.agree(stored["observations"][c.key], live[c.key], c.op)
    ]
    assert not differ, f"{len(differ)} stored observations differ, e.g. {differ[:3]}"


def _backends() -> list[Any]:
    out: list[Any] = ["torch"]
    out.append(
        pytest.param(
            "dask", marks=pytest.mark.skipif(importlib.util.find_spec("dask") is None, reason="no dask")
        )
    )
    out.append(pytest.param("jax", marks=pytest.mark.skipif(not _jax(), reason="JAX is not installed")))
    return out


@pytest.mark.parametrize("backend", _backends())
@pytest.mark.parametrize("policy", POLICIES)
def test_backends_give_the_numpy_backends_outcome(policy: str, backend: str) -> None:
    items = _sample(policy, EVERY[backend], salt=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = promo.run("numpy", policy, items)
        got = promo.run(backend, policy, items)
    diffs = _compare.cross_backend(items, ref, got)
    unknown = [(c.key, r, g) for c, r, g in diffs if _known.known(policy, backend, c, r, g) is None]
    assert not unknown, (
        f"{len(unknown)} of {len(items)} cases differ from the NumPy backend, "
        "outside conformance/probe/_known.py:\n"
        + "\n".join(f"  {k}\n    numpy: {r[:100]}\n    {backend}: {g[:100]}" for k, r, g in unknown[:10])
    )


@pytest.mark.parametrize("policy", list(RATCHET))
def test_framework_agreement_does_not_fall(policy: str) -> None:
    items = _sample(policy, EVERY["numpy"], salt="numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = promo.run("numpy", policy, items)
    cmp = _compare.compare(policy, "numpy", items, _driver.load(policy)["observations"], got)
    agree, total = cmp.agreement()
    print(f"{policy}: {agree}/{total} = {cmp.rate():.4f} agree with the framework (numpy backend, sample)")
    assert cmp.rate() >= RATCHET[policy], (
        f"{policy} agrees with its framework on {cmp.rate():.2%} of the sample, below {RATCHET[policy]:.2%}; "
        f"e.g. {cmp.disagreements[:3]}"
    )
