"""Timing and memory measurement: interleaved rounds, medians, and peak memory in a fresh process."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

__all__ = ["Progress", "peak_memory", "time_interleaved"]


class Progress:
    """Progress lines ``[k/N] what (about M s left)``, the time left estimated from the steps so far.

    Parameters
    ----------
    total
        How many steps the run has.
    write
        Where each line goes (e.g. a function printing to stderr).
    clock
        Seconds from any origin; :func:`time.perf_counter` unless told.
    """

    def __init__(
        self, total: int, write: Callable[[str], None], clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.total = total
        self.done = 0
        self._write = write
        self._clock = clock
        self._start = clock()

    def step(self, what: str) -> None:
        """Announce the next step, ``what``, with the time the steps left are likely to take.

        The estimate is the mean time of the steps done so far times the steps
        left, this one included; the first step has none.
        """
        self.done += 1
        line = f"[{self.done}/{self.total}] {what}"
        if self.done > 1:
            left = (self._clock() - self._start) / (self.done - 1) * (self.total - self.done + 1)
            line += f" (about {left:.0f} s left)"
        self._write(line)


def _loops(timer: timeit.Timer, sample_s: float) -> int:
    """The number of loops for one sample to take about ``sample_s`` seconds (after a warm-up run)."""
    timer.timeit(1)
    n = 1
    while True:
        t = timer.timeit(n)
        if t >= sample_s / 5 or n >= 10**7:
            return max(1, int(n * sample_s / max(t, 1e-9)))
        n *= 10


def time_interleaved(
    stmts: dict[str, str], namespace: dict[str, Any], *, rounds: int, sample_s: float
) -> dict[str, float]:
    """Median seconds per run of each statement, the statements timed in turn each round.

    Interleaving puts every peer under the same machine state (frequency,
    cache, neighbours), so the ratios between them hold even when the absolute
    times drift during the run.
    """
    timers = {name: timeit.Timer(stmt, globals=namespace) for name, stmt in stmts.items()}
    loops = {name: _loops(t, sample_s) for name, t in timers.items()}
    samples: dict[str, list[float]] = {name: [] for name in stmts}
    for _ in range(rounds):
        for name, t in timers.items():
            samples[name].append(t.timeit(loops[name]) / loops[name])
    return {name: statistics.median(s) for name, s in samples.items()}


_PEAK = """
import gc, json, sys
def hwm():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM"))
setup, stmt = json.loads(sys.argv[1])
ns = {}
exec(setup, ns)
exec(stmt, ns)  # warm up: first-call caches, lazily compiled plans, the allocator
del ns["_"]
gc.collect()
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak to the current resident size
before = hwm()
exec(stmt, ns)
print(json.dumps(hwm() - before))
"""


def peak_memory(setup: str, stmt: str) -> int | None:
    """Bytes the peak resident memory grows by while ``_ = stmt`` runs once, in a fresh process.

    ``setup`` creates the inputs; the statement runs once first so that
    one-time allocations are not counted, the result is dropped, the peak is
    reset, and the growth of the peak during the second run is what the op
    needs beyond its inputs: its output plus any temporary copy.  None where
    the system cannot reset the peak (Linux's ``/proc/self/clear_refs``).
    """
    code = json.dumps((setup, f"_ = {stmt}"))
    run = subprocess.run([sys.executable, "-c", _PEAK, code], check=False, capture_output=True, text=True)
    if run.returncode != 0:
        if "clear_refs" in run.stderr or "/proc/self/status" in run.stderr:
            return None
        raise RuntimeError(f"peak-memory run of {stmt!r} failed:\n{run.stderr}")
    return int(json.loads(run.stdout))
