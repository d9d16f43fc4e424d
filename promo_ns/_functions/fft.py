"""Fourier transforms: integer input computes in the policy's float; frequencies in its default float."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from promo_ns._functions._common import SIGNATURES, decided
from promo_ns._functions.creation import FFT_FUNCTIONS
from promo_ns._ops import FUNCTION_FAMILY

__all__ = ["EXTENSION_DELEGATED", "EXTENSION_FUNCTIONS"]

EXTENSION_DELEGATED = ("fftshift", "ifftshift")

_SIGNATURES: dict[str, Callable[..., None]] = {
    **{
        name: lambda x, /, *, n=None, axis=-1, norm="backward": None
        for name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
    },
    **{
        name: lambda x, /, *, s=None, axes=None, norm="backward": None
        for name in ("fftn", "ifftn", "rfftn", "irfftn")
    },
}
SIGNATURES.update(_SIGNATURES)

EXTENSION_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **FFT_FUNCTIONS,
    **{name.partition(".")[2]: decided(name) for name in FUNCTION_FAMILY if name.startswith("fft.")},
}
