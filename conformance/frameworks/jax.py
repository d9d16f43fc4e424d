"""JAX checker: observes ``jax.numpy``'s own promotion decisions, with 64-bit types enabled.

``jax_enable_x64`` is switched on before anything runs (the ``jax`` policy is
JAX's standard promotion with 64-bit types).  Each cell runs the ``jax.numpy``
function of the same name as NumPy's checker does (:func:`conformance.frameworks.numpy.ufuncs`),
on the CPU.  ``iadd`` is ``x += y``: JAX arrays are immutable, so Python rebinds
``x`` to ``x + y``, whose dtype may differ from ``x``'s; promo_ns's in-place
contract (the left operand's dtype never changes) reads that as a refusal.

JAX refuses a dtype with a ``TypeError`` ("bitwise_and does not accept dtype
float32", "nextafter does not accept dtype ..."): its decision.  A Python int
that no 64-bit dtype holds raises ``OverflowError`` before any promotion.

One-array functions (``_cells.FUNCTION_OPS``) run the ``jax.numpy`` function of
the same name (``jnp.acos``, ``jnp.linalg.inv``, ``jnp.fft.rfft``; reductions
over the whole array).

``python -m conformance.frameworks.jax`` writes ``tests/reference/jax.json`` and
``tests/reference/jax-functions.json``; the test suite reads them (compiling
every cell takes a minute).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]

import jax.numpy as jnp  # noqa: E402  (after the 64-bit switch)
import numpy as np  # noqa: E402

from conformance.frameworks import _cells, _report  # noqa: E402
from conformance.frameworks.numpy import function_of, ufuncs  # noqa: E402

_FUNCS = ufuncs(jnp)


@contextlib.contextmanager
def standard(op_by_op: bool) -> Iterator[None]:
    """JAX's standard promotion (whatever the session set); ``op_by_op``: without jit.

    Without jit, ``jax.numpy``'s dtype decisions (its Python code) are the
    same, and each primitive compiles once per signature instead of every
    cell's whole function (hours for the grid).  A Python int beyond int64 is
    the exception: jitted, JAX parses it as an argument and raises
    OverflowError; op by op, NumPy converts ``2**63`` to a uint64 that JAX
    then casts.  The ``*_out_of_range`` cells run jitted.
    """
    jit = contextlib.nullcontext() if not op_by_op else jax.disable_jit()
    with jax.numpy_dtype_promotion("standard"), jit, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


#: ``ValueError`` messages of ``jax.numpy``'s dtype checks.
_DTYPE_CHECKS = (
    "not well defined for complex-valued inputs",
    "only real valued inputs",
    "not inexact",
    "must be float32 or float64",  # rfft of float16/bfloat16
)


def _refuses_dtype(message: str) -> bool:
    return any(check in message for check in _DTYPE_CHECKS)


def _iadd(a: Any, b: Any) -> Any:
    left = jnp.array(a, copy=True)
    left += b
    return left


class Jax:
    """The :class:`~conformance.frameworks._cells.Framework` for ``jax.numpy`` (64-bit types on)."""

    name = "jax"
    version = jax.__version__

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """An array of ones; see :meth:`_cells.Framework.array`."""
        return jnp.ones(() if role == "0d" else (2,) * ndim, dtype=getattr(jnp, dtype))

    def data(self, values: list[Any], dtype: str) -> Any:
        """An array holding ``values``; see :meth:`_cells.FunctionFramework.data`."""
        return jnp.asarray(values, dtype=getattr(jnp, dtype))

    def run(self, op: str, args: list[Any]) -> Any:
        """Run the ``jax.numpy`` function (``x += y`` for ``iadd``)."""
        with standard(op_by_op=op not in _cells.OUT_OF_RANGE_OPS):
            if op in _cells.FUNCTION_OPS:
                return function_of(jnp, op)(*args)
            return _iadd(*args) if op == "iadd" else _FUNCS[op](*args)

    def dtype_name(self, result: Any) -> str:
        """Canonical name of an array's dtype."""
        return str(result.dtype)

    def classify(self, exc: BaseException) -> str:
        """A ``TypeError``, or a ``ValueError`` of a dtype check, is JAX refusing the dtypes.

        Anything else (``cumulative_sum`` of a 0-d array) is not a promotion decision.
        """
        msg = str(exc).split("\n")[0]
        if isinstance(exc, TypeError) or (isinstance(exc, ValueError) and _refuses_dtype(msg)):
            return "refused"
        return f"unsupported: {type(exc).__name__}: {msg[:120]}"

    def value(self, result: Any) -> Any:
        """The result as a NumPy array."""
        return np.asarray(result)


NAME, VERSION = Jax.name, Jax.version


def probe() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """Observe every cell: the observations and the values."""
    return _cells.probe_all(Jax())


def probe_functions() -> dict[str, dict[str, str]]:
    """Observe every one-array function cell."""
    return _cells.probe_functions(Jax())


def main() -> None:
    """Write ``tests/reference/jax.json``, ``jax-functions.json`` and ``docs/conformance/jax.md``."""
    fw = Jax()
    command = "python -m conformance.frameworks.jax"
    _cells.write(fw, _cells.reference("jax"), command)
    _cells.write_functions(fw, _cells.function_reference("jax"), command, probe_functions())
    _report.write_report("jax")


if __name__ == "__main__":
    main()
