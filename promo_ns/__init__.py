"""promo_ns: an Array API namespace with a pluggable dtype-promotion policy.

``import promo_ns`` imports no array library; ``promo_ns.numpy``,
``promo_ns.torch``, ``promo_ns.cupy``, ``promo_ns.dask`` and ``promo_ns.jax`` are created on first access.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from promo_ns._context import policy, trace
from promo_ns._dtypes import DType
from promo_ns._engine.operands import PromotionError
from promo_ns.policies import Policy, get_policy, policies, register

if TYPE_CHECKING:
    from promo_ns._array import Array, unwrap
    from promo_ns._namespace import Namespace, array_namespace, namespace
    from promo_ns.audit import compare
    from promo_ns.audit.torch_policy import torch_policy

__all__ = [
    "Array",
    "DType",
    "Namespace",
    "Policy",
    "PromotionError",
    "array_namespace",
    "compare",
    "get_policy",
    "namespace",
    "policies",
    "policy",
    "register",
    "torch_policy",
    "trace",
    "unwrap",
]
__version__ = "0.1.0"

_LAZY = {
    "namespace": "promo_ns._namespace",
    "array_namespace": "promo_ns._namespace",
    "Namespace": "promo_ns._namespace",
    "Array": "promo_ns._array",
    "unwrap": "promo_ns._array",
    "compare": "promo_ns.audit",
    "torch_policy": "promo_ns.audit.torch_policy",
}


_BACKENDS = ("numpy", "torch", "cupy", "dask", "jax")


def __getattr__(name: str) -> Any:
    if name in _BACKENDS:
        value = import_module(f"promo_ns.{name}")
    elif name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'promo_ns' has no attribute {name!r}")
    globals()[name] = value  # imported once: later lookups find it without this call
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_BACKENDS, "__version__"})
