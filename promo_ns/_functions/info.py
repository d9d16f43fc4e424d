"""Inspection: ``xp.__array_namespace_info__()``, devices and the policy's default dtypes."""

from __future__ import annotations

import warnings
from typing import Any

from promo_ns._dtypes import DType, canonical
from promo_ns._functions._common import sequence_of
from promo_ns._operands import Space

__all__ = ["Info"]


class Info:
    """``xp.__array_namespace_info__()``: devices and dtypes of the namespace."""

    def __init__(self, ns: Space) -> None:
        self._ns = ns
        self._compat = ns._backend.compat.__array_namespace_info__()

    def capabilities(self) -> dict[str, Any]:
        """What the backend supports (boolean indexing, data-dependent shapes, ...)."""
        return dict(self._compat.capabilities())

    def default_device(self) -> Any:
        """The device arrays are created on when none is given."""
        return self._ns._device if self._ns._device is not None else self._compat.default_device()

    def devices(self) -> tuple[Any, ...] | list[Any]:
        """Every device the backend can create arrays on: a tuple (a list in 2024.12)."""
        with warnings.catch_warnings():  # array-api-compat probes torch's deprecated 'mkldnn' device
            warnings.simplefilter("ignore", UserWarning)
            return sequence_of(self._ns, list(self._compat.devices()))

    def default_dtypes(self, *, device: Any = None) -> dict[str, DType]:
        """The active policy's default dtypes."""
        d = self._ns.policy_now().defaults
        return {
            "real floating": d["float"],
            "complex floating": d["complex"],
            "integral": d["int"],
            "indexing": d["index"],
        }

    def dtypes(self, *, device: Any = None, kind: str | tuple[str, ...] | None = None) -> dict[str, DType]:
        """The dtypes the backend supports (of ``kind``), by name."""
        native = self._compat.dtypes(device=device, kind=kind)
        return {name: canonical(name) for name in native}
