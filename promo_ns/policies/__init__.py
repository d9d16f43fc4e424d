"""The policies: the model, the registry and the built-in policies (imported on first use)."""

from __future__ import annotations

from promo_ns.policies._model import (
    Family,
    Policy,
    Role,
    get_policy,
    grid,
    is_registered,
    keep_while_registered,
    policies,
    register,
    scalar_grid,
)

__all__ = [
    "Family",
    "Policy",
    "Role",
    "get_policy",
    "grid",
    "is_registered",
    "keep_while_registered",
    "policies",
    "register",
    "scalar_grid",
]
