"""``jax.numpy``'s spellings of every probe case, for the ``jax`` policy: ``python -m conformance.probe.jax``.

64-bit types are on (``jax_enable_x64``), as the ``jax`` policy measures.  The
functions are the standard's names in ``jax.numpy`` (``jnp.concat``, ``jnp.pow``,
``jnp.linalg.matrix_norm``).  JAX arrays are immutable: ``x += y`` rebinds
``x`` to ``x + y`` (whose dtype may differ from ``x``'s, which promo_ns's
in-place contract reads as a refusal), and ``x[0] = v`` is spelled
``x.at[0].set(v)``, which casts ``v`` into ``x``'s dtype.

Refusals: JAX raises ``TypeError`` where it refuses a dtype ("bitwise_and
does not accept dtype float32"), and ``OverflowError`` for a Python int that
the dtype it converts to cannot hold ("Python int 1000 too large to convert to
int8"); the first is ``refused``, the second ``error: OverflowError``, as the
other runners read them.
"""

from __future__ import annotations

import sys
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]
# Standard promotion, jitted as jax.numpy's functions are (the probe's edge values need JAX's own
# parsing of Python ints); run as a script, this process runs nothing else of JAX's.
jax.config.update("jax_numpy_dtype_promotion", "standard")  # type: ignore[no-untyped-call]

import jax.numpy as jnp  # noqa: E402  (after the 64-bit switch)
import numpy as np  # noqa: E402

from conformance.frameworks.jax import _DTYPE_CHECKS as _REFUSALS  # noqa: E402
from conformance.probe import _driver, _space  # noqa: E402
from conformance.probe._space import Case  # noqa: E402
from conformance.probe._standard import Standard, numpy_values  # noqa: E402

#: ``ValueError`` messages of ``jax.numpy``'s dtype checks (see :mod:`conformance.frameworks.jax`).
_DTYPE_CHECKS = (*_REFUSALS, "Clip received a complex value")


class _Target:
    """The target of ``inplace`` and ``setitem``: ``x op= y`` rebinds, ``x[i] = v`` is ``x.at[i].set(v)``."""

    def __init__(self, x: Any) -> None:
        self.x = x

    def __setitem__(self, index: Any, value: Any) -> None:
        self.x = self.x.at[index].set(value)


def _rebinding(op: Any) -> Any:
    return lambda self, value: op(self.x, value)


for _op, _fn in _driver.INPLACE_OPERATORS.items():
    setattr(_Target, f"__{_fn.__name__}__", _rebinding(_driver.BINARY_OPERATORS[_op]))


class Jax(Standard):
    """The :class:`~conformance.probe._driver.Adapter` of ``jax.numpy`` (CPU, 64-bit types)."""

    name = "jax"
    version = jax.__version__
    policy = "jax"

    def __init__(self) -> None:
        super().__init__(jnp)

    def classify(self, exc: BaseException, case: Case) -> str:
        """A ``ValueError`` of a dtype check (``hypot`` and ``clip`` of complex) is a refusal too."""
        if isinstance(exc, ValueError) and any(check in str(exc) for check in _DTYPE_CHECKS):
            return "refused"
        return super().classify(exc, case)

    def copy(self, x: Any) -> Any:
        return _Target(jnp.array(x, copy=True))

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if isinstance(x, _Target):
            x = x.x
        if isinstance(x, jax.Array):
            return numpy_values(np.asarray(x))
        return None

    def dtype_name(self, x: Any) -> str | None:
        if isinstance(x, np.dtype):
            return x.name
        if isinstance(x, type) and hasattr(x, "dtype"):  # jnp.int8 and the other scalar types
            return str(np.dtype(x.dtype).name)
        return None


#: One case in how many the stored observations hold: JAX compiles every new signature, which takes
#: about 0.1 s (a second on a busy machine) a case, hours for all of them.  The sample is the one the
#: NumPy backend's agreement is measured on (``tests/test_probe.py``), so every compared case is stored.
EVERY = 25


def main(argv: list[str] | None = None) -> None:
    """Write ``tests/reference/probe-jax.json.gz``; ``--every N``: one case in ``N`` (:data:`EVERY`)."""
    args = sys.argv[1:] if argv is None else argv
    every = int(args[args.index("--every") + 1]) if "--every" in args else EVERY
    cases = _space.cases(Jax.policy)
    items = list(cases) if every <= 1 else _space.subsample(cases, every, salt="numpy")
    command = f"python -m conformance.probe.jax --every {every}"
    print(f"wrote {_driver.write(Jax(), command, items=items, every=every)}")


if __name__ == "__main__":
    main()
