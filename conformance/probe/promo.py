"""promo_ns under one policy on one backend, as one more :class:`~conformance.probe._driver.Adapter`.

The standard's spellings, through a promo_ns namespace.  promo_ns has no
Tensor methods: it answers a framework's ``method`` spelling with its function
and ``method_`` with its in-place operator (``absent`` where it has none).  A
:class:`promo_ns.PromotionError` (or any other ``TypeError`` naming the
dtypes) is a refusal, a ``TypeError`` naming a kernel the backend lacks is
``unsupported``, and value errors keep their class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import promo_ns
from conformance.probe import _driver
from conformance.probe._driver import Absent
from conformance.probe._space import Case
from conformance.probe._standard import Standard, numpy_values

__all__ = ["BACKENDS", "PromoNs", "run"]

#: The backends the probe runs promo_ns on (JAX with 64-bit types).
BACKENDS = ("numpy", "torch", "dask", "jax")
#: promo_ns's messages for a kernel its backend lacks.
_NO_KERNEL = ("kernel that computes", "kernel that returns", " has no '", "kernel for", "not implemented for")


def _jax_x64() -> None:
    import jax

    jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]


class PromoNs(Standard):
    """promo_ns's namespace for ``backend`` (``"torch:meta"`` for a device) under ``policy``."""

    def __init__(self, backend: str, policy: str) -> None:
        name, _, device = backend.partition(":")
        if name == "jax":
            _jax_x64()
        super().__init__(promo_ns.namespace(name, policy=policy, device=device or None))
        self.name = f"promo_ns[{backend}]"
        self.version = promo_ns.__version__
        self.policy = policy
        self.backend = backend

    def scalar(self, value: Any, dtype: str) -> Any:
        if dtype == "bfloat16":
            import ml_dtypes

            return ml_dtypes.bfloat16(value)
        return np.asarray(value, dtype=np.dtype(dtype))[()]

    def method(self, case: Case) -> Callable[..., Any]:
        if case.spelling == "method":
            return self.function(case)
        if case.op not in _driver.INPLACE_OPERATORS:
            raise Absent
        return _driver.INPLACE_OPERATORS[case.op]

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if not isinstance(x, promo_ns.Array):
            return None
        name = str(x.dtype)
        native = promo_ns.unwrap(x)
        module = type(native).__module__
        if module.startswith("torch"):
            import torch

            if native.device.type == "meta":
                return name, None
            native = native.detach().cpu().resolve_conj().resolve_neg()
            return name, (native.float() if native.dtype == torch.bfloat16 else native).numpy()
        if module.startswith("cupy"):
            native = native.get()
        return name, numpy_values(native)[1]

    def dtype_name(self, x: Any) -> str | None:
        return str(x) if type(x).__name__ == "DType" else None

    def classify(self, exc: BaseException, case: Case) -> str:
        msg = str(exc).split("\n", maxsplit=1)[0]
        if isinstance(exc, promo_ns.PromotionError):
            return "refused"
        if isinstance(exc, NotImplementedError) or (
            isinstance(exc, TypeError) and any(s in msg for s in _NO_KERNEL)
        ):
            return f"unsupported: {msg[:80]}"
        return super().classify(exc, case)


def run(backend: str, policy: str, items: Any = None) -> dict[str, str]:
    """promo_ns's observation of every case (or of ``items``) under ``policy`` on ``backend``."""
    return _driver.probe(PromoNs(backend, policy), items)
