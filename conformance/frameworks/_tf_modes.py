"""Which of TensorFlow's dtype conversion modes a TF checker measures: one process per mode.

``tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=...)``
sets a process-global mode, so each checker (:mod:`conformance.frameworks.tensorflow`,
:mod:`~conformance.frameworks.nested`, :mod:`conformance.probe.tensorflow`) reads the
mode from the environment before it enables NumPy behaviour, and writes the reference
files of that mode's policy::

    PROMO_TF_MODE=all PYTHONPATH=. /tmp/tfvenv/bin/python -m conformance.frameworks.tensorflow

:mod:`~conformance.frameworks.edges` takes the policy (``tf-all``) as its argument,
one TF policy per process.

This module imports no framework.
"""

from __future__ import annotations

import os

#: The environment variable naming the mode; unset means ``"safe"``.
ENV = "PROMO_TF_MODE"
#: Each mode's policy.
POLICIES: dict[str, str] = {"safe": "tf-safe", "all": "tf-all", "legacy": "tf-legacy"}


def mode() -> str:
    """The mode this process measures (``$PROMO_TF_MODE``, default ``"safe"``).

    Raises
    ------
    SystemExit
        The variable names no mode.
    """
    found = os.environ.get(ENV, "safe")
    if found not in POLICIES:
        raise SystemExit(
            f"{ENV}={found!r} names no dtype conversion mode; expected one of {', '.join(POLICIES)}"
        )
    return found


def policy() -> str:
    """The policy whose reference files this process writes (``tf-safe`` ...)."""
    return POLICIES[mode()]


def enable_call() -> str:
    """The call that enabled the mode, as the reference files record it."""
    return f'experimental_enable_numpy_behavior(dtype_conversion_mode="{mode()}")'


def command(run: str) -> str:
    """``run`` as the reference files record it: with the mode's variable, unless it is the default."""
    found = mode()
    return run if found == "safe" else f"{ENV}={found} {run}"
