"""``torch.nn.functional`` of two or more tensors, as the policy decides their dtype.

Each function runs as torch's own on its tensors cast to one dtype, the one
the policy gives an op of the namespace over them (:func:`decided_over`):

* ``subtract`` for the losses and distances that torch computes elementwise
  from floating tensors and promotes (``mse_loss(float32, float64)`` is
  float64 in torch), broadcast first (a 0-d tensor counts as n-d): under
  ``pytorch`` the same answers as torch; a bool or integer tensor among them
  leaves the call to torch (which computes it as a float, or refuses it);
* ``matmul`` for the layers (``linear``, ``conv*``, ``conv_transpose*``,
  ``bilinear``, ``prelu``, ``scaled_dot_product_attention``) and
  ``binary_cross_entropy``, whose kernels take one dtype (torch refuses two:
  "expected scalar type Float but found Double"), so ``pytorch`` refuses them
  as torch does and a promoting policy promotes.  ``conv_transpose1d`` and
  ``conv_transpose2d`` cast their bias to that dtype, as torch does.

torch's own, under every policy: the losses whose dtype follows their
input alone in torch (``huber_loss``, ``soft_margin_loss``,
``hinge_embedding_loss``), ``binary_cross_entropy_with_logits`` (whose dtype
follows its target), those of class indices (``cross_entropy``,
``nll_loss``), the norms (torch computes a float16 input with float32
parameters in float16, mixed precision no policy's rule gives), and any call
with a further tensor argument (a loss's ``weight=``, an ``attn_mask``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch.nn.functional as F  # noqa: N812 - torch's own name for it

from promo_ns.audit.torch_policy._call import Translator, decided_by

__all__ = ["NN"]


#: The losses and distances torch promotes elementwise: their tensors' names.
_ELEMENTWISE: dict[Callable[..., Any], tuple[str, ...]] = {
    F.mse_loss: ("input", "target"),
    F.l1_loss: ("input", "target"),
    F.smooth_l1_loss: ("input", "target"),
    F.kl_div: ("input", "target"),
    F.poisson_nll_loss: ("input", "target"),
    F.multilabel_soft_margin_loss: ("input", "target"),
    F.gaussian_nll_loss: ("input", "target", "var"),
    F.margin_ranking_loss: ("input1", "input2", "target"),
    F.triplet_margin_loss: ("anchor", "positive", "negative"),
    F.cosine_similarity: ("x1", "x2"),
    F.pairwise_distance: ("x1", "x2"),
}
#: The layers (and ``binary_cross_entropy``) whose kernels take one dtype: their tensors' names.
_ONE_DTYPE: dict[Callable[..., Any], tuple[str, ...]] = {
    F.linear: ("input", "weight", "bias"),
    **{getattr(F, f"conv{n}d"): ("input", "weight", "bias") for n in (1, 2, 3)},
    F.conv_transpose3d: ("input", "weight", "bias"),
    F.bilinear: ("input1", "input2", "weight", "bias"),
    F.prelu: ("input", "weight"),
    F.scaled_dot_product_attention: ("query", "key", "value"),
    F.binary_cross_entropy: ("input", "target"),
}
#: ``torch.nn.functional``'s functions whose dtype the policy decides -> their translators.
NN: dict[Callable[..., Any], Translator] = {
    **{fn: decided_by("subtract", fn, names, floats=True) for fn, names in _ELEMENTWISE.items()},
    **{fn: decided_by("matmul", fn, names) for fn, names in _ONE_DTYPE.items()},
    **{
        fn: decided_by("matmul", fn, ("input", "weight", "bias"), following=1)
        for fn in (F.conv_transpose1d, F.conv_transpose2d)
    },
}
