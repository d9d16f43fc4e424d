"""``torch_policy``: plain ``torch.Tensor`` code under a promo_ns policy, through torch's function mode.

Inside the block, the torch functions whose result dtype depends on their
operands run as the promo_ns function of the same meaning in the torch
namespace under the policy: its result dtype, values and refusals, the
tensors wrapped and unwrapped without copies, the results plain tensors on
the operands' device, or stored in torch's ``out=`` tensors.  Every other
torch function (and these with arguments the namespace has no spelling for:
``alpha=``, an explicit ``dtype=`` where the standard takes none) runs as
torch's own, after one
dictionary lookup and the function mode's own dispatch.  Inside
:func:`promo_ns.compare`, those ops are recorded at the user's line.

The package: ``_call`` (what a translated call is), ``_binary`` (the binary
ops' spellings), ``_functions``, ``_linalg`` (with ``torch.fft``) and
``_creation`` (translators of torch's arguments to the namespace's), ``_mode``
(the function mode, and the operators while a block is open).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from promo_ns._context import policy as promo_ns_policy
from promo_ns.audit.torch_policy._mode import OPERATORS_OPEN, deciding
from promo_ns.policies import Policy, get_policy

__all__ = ["torch_policy"]


@contextlib.contextmanager
def torch_policy(policy: str | Policy) -> Iterator[Policy]:
    """Run plain ``torch.Tensor`` code in the block under ``policy``.

    These give the policy's dtypes, values and refusals, as the promo_ns torch
    namespace's function of the same meaning does:

    - torch's binary elementwise ops in every spelling (``torch.add(x, y)``,
      ``x.add(y)``, ``x.add_(y)``, ``x + y``, ``1 + x``, ``x += y``,
      comparisons, ``torch.maximum``, ...) and ``torch.where``;
    - ``x[key] = value`` (a tensor or a Python or NumPy scalar as the value):
      the policy's refusal, or the value written in ``x``'s dtype by torch's
      own indexing (the namespace's where torch has no kernel);
    - ``torch.cat``/``stack``, ``matmul``/``@`` (and ``mm``, ``bmm``, ``mv``,
      ``dot``), ``clamp``/``clip``, ``tensordot``, ``outer``;
    - the one-array functions of one tensor alone (``torch.log(x)``,
      ``x.exp()``, ``x.max()``, ``torch.isnan(x)``, ``torch.real(x)``);
      ``all``/``any``, ``argmax``/``argmin``, ``amax``/``amin`` (``dim``,
      ``keepdim``); ``sort``, ``argsort``, ``diff``; ``sum``/``prod``/``mean`` (``dim``, ``keepdim``,
      ``dtype``), ``std``/``var`` (``dim``, ``keepdim``, ``correction``,
      ``unbiased``: torch's default correction of 1), ``std_mean``/``var_mean``,
      ``cumsum``/``cumprod`` (``dtype``); ``torch.max(x, y)`` is ``maximum``,
      ``torch.max(x, dim)`` ``max`` and ``argmax``;
    - ``torch.linalg`` (``det``, ``inv``, ``solve``, ``eigh``, ``eigvalsh``,
      ``svd``, ``svdvals``, ``pinv``, ``matrix_rank``, ``qr``, ``cholesky``,
      ``matrix_norm``, ``vector_norm``, ``norm``, ``cross``, ``vecdot``,
      ``matrix_power``, ...) and ``torch.trace``, ``det``, ``inverse``;
    - ``torch.fft``'s ``fft``, ``ifft``, ``rfft``, ``irfft``, ``hfft``,
      ``ihfft``, their ``n``-d and 2-d forms, ``fftshift``/``ifftshift``;
    - creation without ``dtype=``: ``torch.tensor``, ``as_tensor``,
      ``asarray`` of Python data, ``arange``, ``linspace``, ``full``,
      ``zeros``, ``ones``, ``empty``, ``eye``, ``fft.fftfreq``/``rfftfreq``
      take the policy's default dtypes; ``rand``, ``randn`` and
      ``scalar_tensor`` its default float, ``logspace`` ``linspace``'s dtype;
    - functions the namespace lacks, decided as its function of the same
      dtype rule: ``nansum``/``nanmean`` as ``sum``/``mean``, ``torch.norm``
      as ``linalg.vector_norm``/``matrix_norm``, ``logsumexp`` as ``exp``,
      ``fft.hfftn``/``ihfftn`` (and 2-d) as ``fft.hfft``/``ihfft``, ``vdot``
      as ``dot``, ``inner`` as ``tensordot``, ``aminmax`` as ``min``/``max``;
    - in-place forms of the one-array functions, ``clamp_``/``clip_`` and
      ``cumsum_``/``cumprod_`` (``x.sqrt_()``): stored in ``x`` where the
      policy casts the result back to ``x``'s dtype (as for ``x.add_(y)``),
      else refused with ``x`` unchanged;
    - with ``out=``, these functions' results are stored in ``out`` where the
      policy casts them to its dtype (as for ``x.add_(y)``), ``out`` resized
      as torch resizes it, and else refused with ``out`` unchanged.

    The results are tensors on the operands' device, plain or of the
    operands' tensor subclass as torch gives it (a subclass's own
    ``__torch_function__`` runs around the op the policy decides).  Every other
    torch function, and those with arguments the standard has no spelling
    for (``alpha=``, an explicit ``dtype=`` where the standard's function
    takes none), runs as it is, as does a creation function with ``out=``
    (its dtype is ``out``'s) and a call that autograd records (torch
    refuses ``out=`` there); an argument that matters but that nothing
    honours (``torch.linalg.pinv(atol=...)``) is refused.

    The block is a :func:`promo_ns.policy` block too (the innermost block
    decides, as for promo_ns arrays), and local to its thread and asyncio
    task: torch elsewhere is torch.

    Parameters
    ----------
    policy
        A registered policy name (``"numpy"``, ``"paddle"``, ...) or a :class:`Policy`.

    Yields
    ------
    Policy
        The policy in force.

    Raises
    ------
    PromotionError
        Inside the block, for an op the policy refuses (``int32 + float32`` under ``paddle``,
        ``x_int32[0] = 2.5`` under ``array-api``),
        or whose result it does not cast back in place (``x.sqrt_()`` of an int tensor under ``numpy``)
        or to its ``out=`` tensor's dtype.
    TypeError
        Inside the block, for a torch argument the namespace's function cannot honour
        (``torch.linalg.pinv(x, hermitian=True)``), naming it.

    Examples
    --------
    >>> import torch, promo_ns
    >>> with promo_ns.torch_policy("numpy"):
    ...     (torch.ones(2, dtype=torch.int32) + 1.5).dtype, torch.arange(3).dtype, torch.tensor(1.5).dtype
    (torch.float64, torch.int64, torch.float64)
    """
    resolved = get_policy(policy) if isinstance(policy, str) else policy
    with promo_ns_policy(resolved), OPERATORS_OPEN, deciding():
        yield resolved
