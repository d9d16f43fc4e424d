"""promo_ns: an Array API namespace with a pluggable dtype-promotion policy.

``import promo_ns`` imports no array library.
"""

from __future__ import annotations

from promo_ns._context import policy
from promo_ns._dtypes import DType
from promo_ns._engine import PromotionError
from promo_ns.policies import Policy, get_policy, policies, register

__all__ = ["DType", "Policy", "PromotionError", "get_policy", "policies", "policy", "register"]
__version__ = "0.1.0"
