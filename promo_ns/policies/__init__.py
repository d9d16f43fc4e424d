"""The policy registry: built-in policies are imported on first use."""

from __future__ import annotations

import difflib
import threading
from importlib import import_module

from promo_ns.policies._model import Family, Policy, Role, grid, scalar_grid

__all__ = [
    "Family",
    "Policy",
    "Role",
    "get_policy",
    "grid",
    "is_registered",
    "policies",
    "register",
    "scalar_grid",
]

_BUILTIN: dict[str, str] = {
    "array-api": "array_api",
    "pytorch": "pytorch",
    "paddle": "paddle",
    "tf-safe": "tf_safe",
    "numpy": "numpy",
}
_REGISTERED: dict[str, Policy] = {}
_LOCK = threading.Lock()


def policies() -> tuple[str, ...]:
    """Names of every registered policy, built-in ones first."""
    with _LOCK:
        custom = [n for n in _REGISTERED if n not in _BUILTIN]
    return (*_BUILTIN, *custom)


def get_policy(name: str | Policy) -> Policy:
    """The policy registered under ``name`` (a :class:`Policy` is returned as is).

    Raises
    ------
    KeyError
        No policy has that name; the message lists the registered ones (and the closest).
    TypeError
        ``name`` is neither a string nor a :class:`Policy`.
    """
    if isinstance(name, Policy):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a policy is a registered name or a promo_ns.Policy, not {type(name).__name__}")
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    module = _BUILTIN.get(name)
    if module is None:
        close = difflib.get_close_matches(name, policies(), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise KeyError(f"no promotion policy named {name!r}; {hint}registered: {', '.join(policies())}")
    policy: Policy = import_module(f"promo_ns.policies.{module}").POLICY
    with _LOCK:
        return _REGISTERED.setdefault(name, policy)


def is_registered(policy: Policy) -> bool:
    """Whether ``policy`` is the one registered under its name (so that its name stands for it)."""
    return policy is _REGISTERED.get(policy.name) or (
        policy.name in _BUILTIN and policy is get_policy(policy.name)
    )


def register(policy: Policy, *, replace: bool = False) -> Policy:
    """Register ``policy`` under ``policy.name``; ``replace=True`` to override an existing name.

    Raises
    ------
    TypeError
        ``policy`` is not a :class:`Policy` (build one with ``Policy.from_table`` or
        ``get_policy(name).derive(...)``).
    ValueError
        The name is taken and ``replace`` is false.
    """
    if not isinstance(policy, Policy):
        raise TypeError(
            f"register() takes a promo_ns.Policy, not {type(policy).__name__}; build one with "
            "promo_ns.get_policy(name).derive(new_name, ...) or promo_ns.Policy.from_table(...)"
        )
    with _LOCK:
        if not replace and (policy.name in _REGISTERED or policy.name in _BUILTIN):
            raise ValueError(f"a policy named {policy.name!r} is already registered; pass replace=True")
        _REGISTERED[policy.name] = policy
    return policy
