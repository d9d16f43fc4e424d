"""The active scope: a context variable holding the policy override and the tracer, if any.

It is thread- and task-local.  ``None`` (no ``policy`` or ``trace`` block) is
what the op path tests for: every op outside such blocks pays nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, NamedTuple

from promo_ns.policies import Policy, get_policy

if TYPE_CHECKING:
    from promo_ns._trace import Trace

__all__ = ["Scope", "active", "policy", "trace", "tracer"]


class Scope(NamedTuple):
    """What the innermost ``policy``/``trace`` blocks set: an override policy, a tracer."""

    policy: Policy | None
    tracer: Trace | None


_SCOPE: ContextVar[Scope | None] = ContextVar("promo_ns_scope", default=None)


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
    outer = _SCOPE.get()
    token = _SCOPE.set(Scope(chosen, outer.tracer if outer else None))
    try:
        yield chosen
    finally:
        _SCOPE.reset(token)


@contextmanager
def trace() -> Iterator[Trace]:
    """Record every implicit cast promo_ns makes inside the ``with`` block.

    Yields
    ------
    Trace
        The records: op, operand dtypes and roles, result dtype, bytes
        converted, and whether the result is wider than every input;
        ``t.summary()`` groups them.  Nested blocks record into the innermost.
    """
    from promo_ns._trace import Trace

    tracer = Trace()
    outer = _SCOPE.get()
    token = _SCOPE.set(Scope(outer.policy if outer else None, tracer))
    try:
        yield tracer
    finally:
        _SCOPE.reset(token)


def active(default: Policy) -> Policy:
    """The policy in force: the innermost ``promo_ns.policy(...)`` block's, else ``default``."""
    scope = _SCOPE.get()
    return (scope.policy if scope else None) or default


def tracer() -> Trace | None:
    """The tracer of the innermost ``trace`` block, if any."""
    scope = _SCOPE.get()
    return scope.tracer if scope else None
