"""Import cost, the public surface and the policy context manager."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

import promo_ns


def test_import_imports_no_backend_and_is_fast() -> None:
    code = (
        "import sys, time; t = time.perf_counter(); import promo_ns; "
        "dt = time.perf_counter() - t; "
        "print(dt, [m for m in ('numpy', 'torch', 'cupy', 'ml_dtypes') if m in sys.modules])"
    )
    best = min(
        float(out.split()[0])
        for out in (subprocess.check_output([sys.executable, "-c", code], text=True) for _ in range(3))
    )
    out = subprocess.check_output([sys.executable, "-c", code], text=True)
    assert out.split(maxsplit=1)[1].strip() == "[]"
    assert best < 0.05, f"import promo_ns took {best * 1000:.1f} ms"


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
