"""Import cost, the public surface and the policy context manager."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

import promo_ns


def test_import_imports_no_backend() -> None:
    # How long the import takes is a benchmark row (python -m benchmarks), not a test.
    code = (
        "import sys, promo_ns; "
        "print([m for m in ('numpy', 'torch', 'cupy', 'ml_dtypes', 'array_api_compat') if m in sys.modules])"
    )
    assert subprocess.check_output([sys.executable, "-c", code], text=True).strip() == "[]"


def test_dir_lists_the_lazy_names() -> None:
    names = dir(promo_ns)
    for name in ("namespace", "array_namespace", "unwrap", "Array", "Namespace", "numpy", "torch", "cupy"):
        assert name in names
    assert "import_module" not in names


def test_missing_backend_names_the_extra_and_the_cpu_build() -> None:
    from promo_ns.backends import _install_hint

    torch_hint = _install_hint("torch", ImportError("No module named 'torch'"))
    # promo_ns is not on PyPI: the library itself, or the extra from a clone
    assert "pip install torch (from a clone of promo_ns: pip install -e '.[torch]')" in torch_hint
    assert "CPU-only build" in torch_hint
    assert "No module named 'torch'" in torch_hint
    assert "pip install -e '.[cupy]'" in _install_hint("cupy", ImportError("x"))
    assert "pip install -e .)" in _install_hint("numpy", ImportError("x"))


def test_plain_install_needs_no_extra_for_numpy() -> None:
    from pathlib import Path

    import tomllib

    meta = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
    base = {d.split(">")[0].split("=")[0] for d in meta["dependencies"]}
    assert base >= {"numpy", "ml_dtypes", "array-api-compat"}
    assert all("torch" not in d or "<" in d for d in meta["optional-dependencies"]["torch"])


def test_public_api() -> None:
    assert issubclass(promo_ns.PromotionError, TypeError)
    assert set(promo_ns.policies()) >= {"array-api", "pytorch", "paddle", "tf-safe", "numpy"}
    assert promo_ns.get_policy("numpy").name == "numpy"


def test_register_a_custom_policy() -> None:
    import dataclasses

    strict = dataclasses.replace(promo_ns.get_policy("numpy"), name="numpy-no-inplace", inplace="same")
    assert promo_ns.register(strict) is strict
    assert promo_ns.get_policy("numpy-no-inplace") is strict
    assert "numpy-no-inplace" in promo_ns.policies()
    with pytest.raises(ValueError, match="already registered"):
        promo_ns.register(strict)


def test_policy_context_nests_and_restores() -> None:
    from promo_ns._context import active

    base = promo_ns.get_policy("array-api")
    with promo_ns.policy("numpy") as p:
        assert active(base) is p
        with promo_ns.policy("pytorch"):
            assert active(base).name == "pytorch"
        assert active(base) is p
        with pytest.raises(RuntimeError), promo_ns.policy("paddle"):
            raise RuntimeError
        assert active(base) is p
    assert active(base) is base


def test_policy_context_is_thread_local() -> None:
    from promo_ns._context import active

    base = promo_ns.get_policy("array-api")
    seen: list[bool] = []
    barrier = threading.Barrier(8)

    def work(name: str) -> None:
        with promo_ns.policy(name):
            barrier.wait()
            seen.append(all(active(base).name == name for _ in range(1000)))

    names = ["numpy", "pytorch", "paddle", "tf-safe"] * 2
    threads = [threading.Thread(target=work, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [True] * 8
