"""``torch.nn.functional`` under ``promo_ns.torch_policy``: generated from the translators' registry.

Every function of ``_nn.NN``, with every assignment of float16/float32/float64
to its tensors, under every policy: the result has the dtype the policy gives
the function's op (``subtract`` or ``matmul``) folded over those dtypes, and
torch's values on the tensors cast to it; a refusal is a PromotionError.
Under ``pytorch`` the outcome is plain torch's.  Outside a block torch is torch.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import promo_ns  # noqa: E402
from promo_ns import PromotionError  # noqa: E402
from promo_ns.audit.torch_policy._nn import _ELEMENTWISE, NN  # noqa: E402
from tests.backends import POLICIES  # noqa: E402

DTYPES = (torch.float16, torch.float32, torch.float64)


def _r(*shape: int) -> Callable[[Any], Any]:
    """A maker of a tensor of ``shape`` in a dtype: values in (0.1, 1.1), for every loss's domain."""

    def make(dtype: Any) -> Any:
        values = torch.arange(1, 1 + int(torch.tensor(shape).prod())).reshape(shape) % 7 / 7 + 0.1
        return values.to(dtype)

    return make


#: Each function's tensors, in its parameters' order (their shapes), and options.
EXAMPLES: dict[Callable[..., Any], tuple[tuple[Callable[[Any], Any], ...], dict[str, Any]]] = {
    F.mse_loss: ((_r(3, 4), _r(3, 4)), {}),
    F.l1_loss: ((_r(3, 4), _r(3, 4)), {}),
    F.smooth_l1_loss: ((_r(3, 4), _r(3, 4)), {}),
    F.kl_div: ((_r(3, 4), _r(3, 4)), {"reduction": "batchmean"}),
    F.poisson_nll_loss: ((_r(3, 4), _r(3, 4)), {}),
    F.multilabel_soft_margin_loss: ((_r(3, 4), _r(3, 4)), {}),
    F.gaussian_nll_loss: ((_r(3), _r(3), _r(3)), {}),
    F.margin_ranking_loss: ((_r(3), _r(3), _r(3)), {}),
    F.triplet_margin_loss: ((_r(3, 4), _r(3, 4), _r(3, 4)), {}),
    F.cosine_similarity: ((_r(3, 4), _r(3, 4)), {}),
    F.pairwise_distance: ((_r(3, 4), _r(3, 4)), {}),
    F.linear: ((_r(2, 3), _r(4, 3), _r(4)), {}),
    F.conv1d: ((_r(1, 2, 5), _r(3, 2, 2), _r(3)), {}),
    F.conv2d: ((_r(1, 2, 4, 4), _r(3, 2, 2, 2), _r(3)), {"padding": 1}),
    F.conv3d: ((_r(1, 2, 3, 3, 3), _r(3, 2, 2, 2, 2), _r(3)), {}),
    F.conv_transpose1d: ((_r(1, 2, 5), _r(2, 3, 2), _r(3)), {}),
    F.conv_transpose2d: ((_r(1, 2, 4, 4), _r(2, 3, 2, 2), _r(3)), {}),
    F.conv_transpose3d: ((_r(1, 2, 3, 3, 3), _r(2, 3, 2, 2, 2), _r(3)), {}),
    F.bilinear: ((_r(2, 3), _r(2, 3), _r(4, 3, 3), _r(4)), {}),
    F.prelu: ((_r(2, 3), _r(1)), {}),
    F.scaled_dot_product_attention: ((_r(1, 2, 3), _r(1, 2, 3), _r(1, 2, 3)), {}),
    F.binary_cross_entropy: ((_r(3, 4), _r(3, 4)), {}),
}


def test_every_translated_function_has_an_example() -> None:
    assert set(EXAMPLES) == set(NN)


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call()
    except PromotionError:
        return "PromotionError", None
    except (RuntimeError, NotImplementedError, TypeError) as e:  # torch's (a missing CPU kernel)
        return type(e).__name__, None
    return str(out.dtype).removeprefix("torch."), out


def _policys_dtype(xp: Any, op: str, dtypes: tuple[Any, ...]) -> str:
    """The policy's ``op`` folded over 2 x 2 arrays of ``dtypes``: a dtype name, or the refusal."""
    try:
        folded = xp.ones((2, 2), dtype=getattr(xp, str(dtypes[0]).removeprefix("torch.")))
        for d in dtypes[1:]:
            folded = getattr(xp, op)(
                folded, xp.ones((2, 2), dtype=getattr(xp, str(d).removeprefix("torch.")))
            )
    except PromotionError:
        return "PromotionError"
    return str(folded.dtype)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("fn", list(NN), ids=lambda fn: fn.__name__)
def test_nn_functions_take_the_policys_dtype(fn: Callable[..., Any], policy: str) -> None:
    makers, options = EXAMPLES[fn]
    op = "subtract" if fn in _ELEMENTWISE else "matmul"
    deciding = len(makers) - (fn in (F.conv_transpose1d, F.conv_transpose2d))  # whose bias follows
    xp = promo_ns.namespace("torch", policy=policy)
    differ = []
    for dtypes in itertools.product(DTYPES, repeat=len(makers)):
        tensors = [make(d) for make, d in zip(makers, dtypes, strict=True)]
        with promo_ns.torch_policy(policy):
            got, value = _outcome(lambda: fn(*tensors, **options))  # noqa: B023
        want = _policys_dtype(xp, op, dtypes[:deciding])
        if want != "PromotionError":
            native, expected = _outcome(lambda: fn(*(t.to(getattr(torch, want)) for t in tensors), **options))  # noqa: B023
            if got != native or (value is not None and not torch.allclose(value, expected, equal_nan=True)):
                differ.append((dtypes, got, want))
        elif got != "PromotionError":
            differ.append((dtypes, got, want))
        if policy == "pytorch":
            plain = _outcome(lambda: fn(*tensors, **options))[0]  # noqa: B023
            if {got, plain} - {"PromotionError", "RuntimeError"} and got != plain:
                differ.append((dtypes, got, f"torch: {plain}"))
    assert not differ, differ[:8]


def test_further_tensor_arguments_leave_the_call_to_torch() -> None:
    x, t = torch.rand(3, 4), torch.rand(3, 4, dtype=torch.float64)
    with promo_ns.torch_policy("numpy"):
        assert F.mse_loss(x, t).dtype == torch.float64
        weighted = F.binary_cross_entropy(x, x, weight=torch.ones(3, 4))  # torch's own: weight= is a tensor
        masked = F.scaled_dot_product_attention(
            x[None], x[None], x[None], attn_mask=torch.ones(1, 3, 3).bool()
        )
    assert weighted.dtype == torch.float32 and masked.dtype == torch.float32
    assert F.mse_loss(x, t).dtype == torch.float64  # outside: torch's promotion
    with pytest.raises(RuntimeError):
        F.conv1d(torch.rand(1, 2, 5), torch.rand(3, 2, 2, dtype=torch.float64))  # outside: torch's refusal


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_losses_broadcast_a_0d_tensor_and_leave_bool_or_integer_targets_to_torch() -> None:
    # found in review: 0-d stand-ins made a 0-d target a lower class (torch broadcasts first), and a
    # bool target was refused as subtract's where torch computes the loss
    cases = [
        (F.mse_loss, torch.rand(3, dtype=torch.float16), torch.tensor(0.5)),
        (F.l1_loss, torch.rand(3), torch.tensor(1.0, dtype=torch.float64)),
        (F.mse_loss, torch.rand(3), torch.tensor([True, False, True])),
        (F.smooth_l1_loss, torch.rand(3), torch.tensor([1, 0, 1])),
        (F.kl_div, torch.rand(3), torch.tensor([1, 0, 1])),
    ]
    for fn, x, t in cases:
        want = _outcome(lambda: fn(x, t))  # noqa: B023
        with promo_ns.torch_policy("pytorch"):
            got = _outcome(lambda: fn(x, t))  # noqa: B023
        assert got[0] == want[0], (fn.__name__, x.dtype, t.dtype, got[0], want[0])
