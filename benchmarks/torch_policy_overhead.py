"""The per-call cost of ``promo_ns.torch_policy`` on small CPU tensors: each op outside and inside a block.

Usage::

    python -m benchmarks.torch_policy_overhead [--policy pytorch] [--rounds 15]

Each round times every statement outside a block, inside a function mode
that only calls the function (torch's own cost of any Python function mode,
the floor), then inside a block (opened once for the round, as code in a
block runs), so all three see the same machine state; the table gives the
median over rounds of the time per call.  ``x.shape``, ``x.view(2, 4)`` and ``torch.relu(x)`` are ops the
policy does not concern (torch's own after the function mode's dispatch);
``x + y`` (two float32 tensors) is one it decides, through promo_ns.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import statistics
import timeit
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

import promo_ns

#: The statements timed, on ``x`` and ``y``: two float32 tensors of 8 elements.
STATEMENTS = {
    "x.shape": "x.shape",
    "x.view(2, 4)": "x.view(2, 4)",
    "torch.relu(x)": "torch.relu(x)",
    "x + y": "x + y",
    "torch.add(x, y)": "torch.add(x, y)",
}


class _Floor(TorchFunctionMode):
    """A function mode that calls the function: what any Python function mode costs a call."""

    def __torch_function__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        return func(*args, **(kwargs or {}))


def measure(policy: str, rounds: int, loops: int) -> dict[str, tuple[float, float, float]]:
    """Statement -> median seconds per call (outside a block, in the floor's mode, inside a block)."""
    names = {"x": torch.ones(8), "y": torch.ones(8), "torch": torch}
    timers = {k: timeit.Timer(stmt, globals=names) for k, stmt in STATEMENTS.items()}
    blocks: list[Any] = [contextlib.nullcontext, _Floor, lambda: promo_ns.torch_policy(policy)]
    samples: list[dict[str, list[float]]] = [{k: [] for k in STATEMENTS} for _ in blocks]
    for _ in range(rounds):
        for block, times in zip(blocks, samples, strict=True):
            with block():
                for k, t in timers.items():
                    times[k].append(t.timeit(loops) / loops)
    outside, floor, inside = ({k: statistics.median(v) for k, v in times.items()} for times in samples)
    return {k: (outside[k], floor[k], inside[k]) for k in STATEMENTS}


def main() -> None:
    """Print the table (microseconds per call) and the machine it ran on."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="pytorch")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--loops", type=int, default=5000)
    options = parser.parse_args()
    rows = measure(options.policy, options.rounds, options.loops)
    print(f"torch {torch.__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"| op | outside (µs) | an empty function mode (µs) | torch_policy({options.policy!r}) (µs) |")
    print("|---|---:|---:|---:|")
    for name, (out, floor, into) in rows.items():
        print(f"| `{name}` | {out * 1e6:.2f} | {floor * 1e6:.2f} | {into * 1e6:.2f} |")


if __name__ == "__main__":
    main()
