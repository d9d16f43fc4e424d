"""What torch lets be written in place, checked before anything is written.

Torch writes an inference tensor outside inference mode, then refuses it;
autograd refuses a leaf tensor that requires its gradient (or a view of one).
"""

from __future__ import annotations

from typing import Any

import torch

__all__ = ["GradientLeafError", "InferenceTensorError", "check_not_a_leaf", "check_writable"]


class InferenceTensorError(ValueError, RuntimeError):
    """An update in place of an inference tensor outside inference mode, refused before anything is written.

    A ValueError, as NumPy's backend refuses a read-only array, and a
    RuntimeError, as torch refuses it (after its kernel has written it).
    """


class GradientLeafError(ValueError, RuntimeError):
    """An update in place of a leaf tensor requiring its gradient (or of its view): autograd refuses it.

    A ValueError, as NumPy's backend refuses a read-only array, and a
    RuntimeError, as torch refuses it.
    """


def check_not_a_leaf(what: str, x: Any) -> None:
    """Raise :class:`GradientLeafError` where ``x`` (or the tensor it views) is a leaf autograd keeps."""
    if x.requires_grad and torch.is_grad_enabled() and (x if x._base is None else x._base).is_leaf:
        raise GradientLeafError(
            f"{what}: the array is a leaf tensor that requires its gradient (or a view of one), which "
            "autograd does not let change in place; the array is unchanged. Update it under "
            "torch.no_grad(), or update a copy (xp.asarray(x, copy=True))"
        )


def check_writable(what: str, x: Any) -> None:
    """Raise unless torch lets ``x`` be written in place: an inference tensor only inside inference mode.

    Raises
    ------
    InferenceTensorError
        ``x`` was made under ``torch.inference_mode()`` and this is outside it.
    """
    if x.is_inference() and not torch.is_inference_mode_enabled():
        raise InferenceTensorError(
            f"{what}: the array is an inference tensor (made under torch.inference_mode()), which torch "
            "does not update in place outside inference mode; the array is unchanged. Copy it first "
            "(x = xp.asarray(x, copy=True); x = x.clone() for a torch tensor) or update it under "
            "torch.inference_mode()"
        )
