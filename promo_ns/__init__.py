"""promo_ns: an Array API namespace with a pluggable dtype-promotion policy.

``import promo_ns`` imports no array library; ``promo_ns.numpy``,
``promo_ns.torch`` and ``promo_ns.cupy`` are created on first access.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from promo_ns._context import policy
from promo_ns._dtypes import DType
from promo_ns._engine import PromotionError
from promo_ns.policies import Policy, get_policy, policies, register

if TYPE_CHECKING:
    from promo_ns._array import Array
    from promo_ns._namespace import Namespace

__all__ = [
    "Array",
    "DType",
    "Namespace",
    "Policy",
    "PromotionError",
    "get_policy",
    "namespace",
    "policies",
    "policy",
    "register",
    "unwrap",
]
__version__ = "0.1.0"

_LAZY = {
    "namespace": "promo_ns._namespace",
    "Namespace": "promo_ns._namespace",
    "Array": "promo_ns._array",
    "unwrap": "promo_ns._array",
}


def __getattr__(name: str) -> Any:
    if name in ("numpy", "torch", "cupy"):
        return import_module(f"promo_ns.{name}")
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'promo_ns' has no attribute {name!r}")


def namespace(backend: Any, *, policy: str | Policy = "array-api", device: Any = None) -> Namespace:
    """An Array API namespace over ``backend`` that promotes dtypes by ``policy``.

    See :func:`promo_ns._namespace.namespace`.
    """
    from promo_ns._namespace import namespace as make

    return make(backend, policy=policy, device=device)


def unwrap(x: Any) -> Any:
    """The native array inside a promo_ns Array (zero-copy); anything else is returned as is."""
    from promo_ns._array import unwrap as native

    return native(x)
