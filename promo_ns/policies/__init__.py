"""The policy registry: built-in policies are imported on first use."""

from __future__ import annotations

from importlib import import_module

from promo_ns.policies._model import Family, Policy, Role, grid, scalar_grid

__all__ = ["Family", "Policy", "Role", "get_policy", "grid", "policies", "register", "scalar_grid"]

_BUILTIN: dict[str, str] = {
    "array-api": "array_api",
    "pytorch": "pytorch",
    "paddle": "paddle",
    "tf-safe": "tf_safe",
    "numpy": "numpy",
}
_REGISTERED: dict[str, Policy] = {}


def policies() -> tuple[str, ...]:
    """Names of every registered policy, built-in ones first."""
    return tuple(_BUILTIN) + tuple(n for n in _REGISTERED if n not in _BUILTIN)


def get_policy(name: str | Policy) -> Policy:
    """The policy registered under ``name`` (a :class:`Policy` is returned as is).

    Raises
    ------
    KeyError
        No policy has that name; the message lists the registered ones.
    """
    if isinstance(name, Policy):
        return name
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    module = _BUILTIN.get(name)
    if module is None:
        raise KeyError(f"no promotion policy named {name!r}; registered: {', '.join(policies())}")
    policy: Policy = import_module(f"promo_ns.policies.{module}").POLICY
    _REGISTERED[name] = policy
    return policy


def register(policy: Policy, *, replace: bool = False) -> Policy:
    """Register ``policy`` under ``policy.name``; ``replace=True`` to override an existing name."""
    if not replace and policy.name in policies():
        raise ValueError(f"a policy named {policy.name!r} is already registered; pass replace=True")
    _REGISTERED[policy.name] = policy
    return policy
