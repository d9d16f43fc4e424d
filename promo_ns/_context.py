"""The active-policy override: a context variable, so it is thread- and task-local."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from promo_ns.policies import Policy, get_policy

__all__ = ["active", "policy"]

_OVERRIDE: ContextVar[Policy | None] = ContextVar("promo_ns_policy", default=None)


@contextmanager
def policy(name: str | Policy) -> Iterator[Policy]:
    """Use ``name``'s policy for every promo_ns namespace inside the ``with`` block.

    Blocks nest; the previous policy is restored on exit, also on exceptions.
    The override is local to the current thread and asyncio task.

    Parameters
    ----------
    name
        A registered policy name or a :class:`Policy`.

    Yields
    ------
    Policy
        The policy in force inside the block.
    """
    chosen = get_policy(name)
    token = _OVERRIDE.set(chosen)
    try:
        yield chosen
    finally:
        _OVERRIDE.reset(token)


def active(default: Policy) -> Policy:
    """The policy in force: the innermost ``promo_ns.policy(...)`` block's, else ``default``."""
    return _OVERRIDE.get() or default
