"""Backend adapters: one small object per array library, behind the :class:`Backend` Protocol.

An adapter knows how to run one native kernel in a given compute dtype and how
to move between native and canonical dtypes; everything about *which* dtype is
decided by :mod:`promo_ns._engine`.  Adapters are created on first use, so a
backend is imported only when a namespace for it is asked for.
"""

from __future__ import annotations

import sys
from functools import cache
from types import ModuleType

from promo_ns._words import closest
from promo_ns.backends._base import Backend, DTypeMaps, Plan, Values

__all__ = ["BACKENDS", "Backend", "DTypeMaps", "Plan", "Values", "backend_of", "get_backend"]


#: backend name -> the module that must be importable for it.
BACKENDS: dict[str, str] = {
    "numpy": "numpy",
    "torch": "torch",
    "cupy": "cupy",
    "jax": "jax",
    "dask": "dask.array",
}


#: module name -> backend name, for the modules that are not named like their backend.
_MODULE_NAMES = {
    "array_api_compat.numpy": "numpy",
    "array_api_compat.torch": "torch",
    "jax.numpy": "jax",
    "dask.array": "dask",
    "array_api_compat.dask.array": "dask",
}


@cache
def _load(name: str) -> Backend:
    if name == "torch":
        from promo_ns.backends.torch import TorchBackend

        return TorchBackend()
    if name == "jax":
        from promo_ns.backends.jax import JaxBackend

        return JaxBackend()
    if name == "dask":
        from promo_ns.backends.dask import DaskBackend

        return DaskBackend()
    from promo_ns.backends.numpylike import NumpyLike

    return NumpyLike(name)


def get_backend(backend: str | ModuleType) -> Backend:
    """The adapter for ``backend``: a name (``"numpy"``, ``"torch"``, ``"dask"``, ...) or the module.

    Raises
    ------
    ValueError
        An unknown backend name.
    ImportError
        The backend's library is not installed; the message says how to install it.
    """
    name = backend.__name__ if isinstance(backend, ModuleType) else backend
    name = _MODULE_NAMES.get(name, name)
    if name not in BACKENDS:
        close = closest(str(name), BACKENDS)
        mean = f" did you mean {close!r}?" if close else ""
        raise ValueError(f"unknown backend {backend!r};{mean} promo_ns supports {', '.join(BACKENDS)}")
    try:
        return _load(name)
    except ImportError as e:
        raise ImportError(_install_hint(name, e)) from e


def _install_hint(name: str, error: ImportError) -> str:
    """What to install for backend ``name``, given the ImportError that loading it raised."""
    if name == "numpy":
        return (
            "the 'numpy' backend needs numpy, ml_dtypes and array-api-compat: pip install numpy ml_dtypes "
            f"array-api-compat (from a clone of promo_ns: pip install -e .) ({error})"
        )
    package = {"dask": "'dask[array]'", "cupy": "cupy-cuda12x"}.get(name, name)
    hint = (
        f"the {name!r} backend needs {name} installed: pip install {package} (from a clone of promo_ns: "
        f"pip install -e '.[{name}]')"
    )
    if name == "torch":
        hint += (
            "; that installs PyPI's torch, whose Linux wheels bring CUDA. For the CPU-only build, "
            "first: pip install torch --index-url https://download.pytorch.org/whl/cpu"
        )
    if name == "jax":
        hint += " (the CPU build; for a GPU see JAX's installation guide, e.g. pip install 'jax[cuda12]')"
    return f"{hint} ({error})"


def backend_of(x: object) -> Backend | None:
    """The adapter whose native array type ``x`` is, or None; imports nothing."""
    for name, module in BACKENDS.items():
        if module in sys.modules and isinstance(x, _load(name).array_type):
            return _load(name)
    return None
