"""Run every benchmark and print medians and ratios measured in this one run.

Usage::

    python -m benchmarks                      # numpy and torch; torch-cuda and cupy when a GPU is there
    python -m benchmarks --backend numpy --quick
    python -m benchmarks --write docs/performance.md --check

Install the peers first: ``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from importlib.util import find_spec
from typing import Any

from benchmarks._timing import peak_memory, time_interleaved
from benchmarks.cases import BACKENDS, BACKENDS_ORDER, CASES, PEERS, Case, Target, setup_code

MEMORY_PEERS = ("native", "promo_ns", "compat", "cast, then op")
MEMORY_SLACK = 1.05  #: promo_ns's peak at most the native op's + 5%
IMPORT_TARGET_S = 0.050


@dataclass
class Row:
    """One case's medians (seconds), peak memory (bytes) and target verdicts on one backend."""

    case: Case
    times: dict[str, float]
    memory: dict[str, int | None]
    verdicts: list[tuple[str, float, bool]]  #: (target text, ratio shown, met)


def _fmt_time(s: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def _fmt_bytes(n: int | None) -> str:
    return "n/a" if n is None else f"{n / 2**20:.1f} MiB"


def _verdict(target: Target, times: dict[str, float]) -> tuple[str, float, bool] | None:
    peers = [times[p] for p in target.peers if p in times]
    if not peers:
        return None
    ratio = times["promo_ns"] / min(peers)
    return target.text, ratio, ratio <= target.ratio


def available(backend: str) -> bool:
    """Whether ``backend`` can run here (a GPU for torch-cuda and cupy)."""
    if backend == "numpy":
        return find_spec("numpy") is not None
    if backend == "torch":
        return find_spec("torch") is not None
    if backend == "torch-cuda":
        if find_spec("torch") is None:
            return False
        import torch

        return bool(torch.cuda.is_available())
    if find_spec("cupy") is None:
        return False
    import cupy

    try:
        return bool(cupy.cuda.runtime.getDeviceCount() > 0)
    except cupy.cuda.runtime.CUDARuntimeError:
        return False


def run_backend(backend: str, *, rounds: int, memory: bool, log: Callable[[str], None]) -> list[Row]:
    """Time every case of ``backend`` (peers interleaved), and measure peak memory where asked."""
    sync = BACKENDS[backend][2]
    inputs: dict[int, dict[str, Any]] = {}
    rows = []
    for case in CASES:
        if backend not in case.backends:
            continue
        log(f"{backend}: {case.group}: {case.name}")
        setup = setup_code(backend, case.n)
        if case.n not in inputs:
            inputs[case.n] = {}
            exec(setup, inputs[case.n])
        stmts = {p: f"{s}; {sync}" if sync else s for p, s in case.statements(backend).items()}
        large = case.n >= 10**6
        times = time_interleaved(stmts, inputs[case.n], rounds=rounds, sample_s=0.05 if large else 0.02)
        peaks: dict[str, int | None] = {}
        if memory and case.memory and not sync:
            peaks = {p: peak_memory(setup, stmts[p]) for p in MEMORY_PEERS if p in stmts}
        verdicts = [v for t in case.targets.get(backend, ()) if (v := _verdict(t, times))]
        if peaks.get("native") and peaks.get("promo_ns") is not None:
            ratio = peaks["promo_ns"] / peaks["native"]  # type: ignore[operator]
            verdicts.append(("peak memory <= native + 5%", ratio, ratio <= MEMORY_SLACK))
        rows.append(Row(case, times, peaks, verdicts))
    return rows


_IMPORT = (
    "import sys, time; t = time.perf_counter(); import {m}; t = time.perf_counter() - t; "
    "print(t, *[b for b in ('numpy', 'torch', 'cupy') if b in sys.modules])"
)


def import_times(runs: int) -> list[tuple[str, float, list[str]]]:
    """Median import time of promo_ns and of its peers, each in fresh interpreters."""
    out = []
    for module in ("promo_ns", "numpy", "array_api_compat", "array_api_strict", "torch"):
        if find_spec(module) is None:
            continue
        samples, loaded = [], []
        for _ in range(runs):
            words = subprocess.run(
                [sys.executable, "-c", _IMPORT.format(m=module)], check=True, capture_output=True, text=True
            ).stdout.split()
            samples.append(float(words[0]))
            loaded = words[1:]
        out.append((module, statistics.median(samples), loaded))
    return out


def gpu_checks() -> list[tuple[str, str, bool]]:
    """Torch on CUDA: kernels launched per mixed op against native torch, and no host synchronization."""
    import torch

    import promo_ns

    xq = promo_ns.namespace("torch", policy="pytorch")
    n = 100_000_000
    i8 = torch.ones(n, dtype=torch.int8, device="cuda")
    f32 = torch.ones(n, dtype=torch.float32, device="cuda")
    qi8, qf32 = xq.asarray(i8), xq.asarray(f32)

    def kernels(fn: Callable[[], object]) -> int:
        fn()
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            fn()
            torch.cuda.synchronize()
        return len([e for e in prof.events() if e.device_type.name == "CUDA"])

    native, ours = kernels(lambda: i8 + f32), kernels(lambda: qi8 + qf32)
    checks = [(f"int8 + float32, n=100M: CUDA kernels (native {native})", str(ours), ours <= native)]
    ops: list[tuple[str, Callable[[], object]]] = [
        ("a + b", lambda: qf32 + qf32),
        ("int8 + float32", lambda: qi8 + qf32),
        ("a + 1.0", lambda: qf32 + 1.0),
        ("a < b", lambda: qf32 < qi8),
        ("a += b", lambda: qf32.__iadd__(qf32)),
    ]
    for text, fn in ops:
        torch.cuda.set_sync_debug_mode("error")
        try:
            fn()
            ok, seen = True, "none"
        except RuntimeError as e:
            ok, seen = False, str(e).splitlines()[0]
        finally:
            torch.cuda.set_sync_debug_mode("default")
        checks.append((f"{text}: host synchronizations", seen, ok))
    return checks


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def machine() -> list[str]:
    """What the numbers were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], check=False, capture_output=True, text=True
    ).stdout.strip()
    versions = ", ".join(
        f"{d} {_version(d)}"
        for d in ("numpy", "torch", "array-api-compat", "array-api-strict", "cupy")
        if _version(d) != "not installed"
    )
    return [
        f"- date: {date.today().isoformat()}; promo_ns {_version('promo_ns')} at {commit or 'unknown'}",
        f"- machine: {cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}; {versions}",
    ]


def report(
    rows: dict[str, list[Row]], imports: list[tuple[str, float, list[str]]], gpu: list[tuple[str, str, bool]]
) -> tuple[str, list[str]]:
    """The Markdown report and the list of missed targets."""
    lines = ["## Machine", "", *machine(), ""]
    missed: list[str] = []
    for backend, brows in rows.items():
        peers = [p for p in PEERS if any(p in r.times for r in brows)]
        lines += [
            f"## {backend}",
            "",
            "Medians per call; ratios are promo_ns's over the peer's, from this run.",
            "",
        ]
        lines += ["| case | " + " | ".join(peers) + " | promo_ns / native | targets |"]
        lines += ["|---|" + "---:|" * len(peers) + "---:|---|"]
        for r in brows:
            cells = [_fmt_time(r.times[p]) if p in r.times else "" for p in peers]
            shown = []
            for text, ratio, ok in r.verdicts:
                value = f"{1 / ratio:.1f}x faster" if "faster" in text else f"{ratio:.2f}x"
                shown.append(f"{text}: {value} {'met' if ok else '**missed**'}")
                if not ok:
                    missed.append(f"{backend}, {r.case.group}, {r.case.name}: {text} ({value})")
            lines.append(
                f"| {r.case.group}: {r.case.name} | "
                + " | ".join(cells)
                + f" | {r.times['promo_ns'] / r.times['native']:.2f}x | "
                + "; ".join(shown)
                + " |"
            )
        mem = [r for r in brows if r.memory]
        if mem:
            mpeers = [p for p in MEMORY_PEERS if any(p in r.memory for r in mem)]
            lines += ["", "Peak memory beyond the inputs (one call, fresh process):", ""]
            lines += ["| case | " + " | ".join(mpeers) + " |", "|---|" + "---:|" * len(mpeers)]
            lines += [
                f"| {r.case.name} | "
                + " | ".join(_fmt_bytes(r.memory[p]) if p in r.memory else "" for p in mpeers)
                + " |"
                for r in mem
            ]
        lines.append("")
    if imports:
        lines += ["## Import", "", "| module | median | array libraries it imports |", "|---|---:|---|"]
        for module, t, loaded in imports:
            lines.append(f"| {module} | {t * 1e3:.1f} ms | {', '.join(loaded) or 'none'} |")
            if module == "promo_ns" and (t >= IMPORT_TARGET_S or loaded):
                missed.append(f"import promo_ns: {t * 1e3:.1f} ms, imports {loaded or 'no backend'}")
        lines.append("")
    if gpu:
        lines += [
            "## torch on CUDA: kernels and synchronization",
            "",
            "| check | seen | met |",
            "|---|---|---|",
        ]
        for text, seen, ok in gpu:
            lines.append(f"| {text} | {seen} | {'met' if ok else '**missed**'} |")
            if not ok:
                missed.append(f"torch-cuda: {text}: {seen}")
        lines.append("")
    lines += ["## Targets", ""]
    lines += [f"- missed: {m}" for m in missed] or ["- every target measured in this run was met"]
    return "\n".join(lines) + "\n", missed


MARKER = "<!-- results: written by python -m benchmarks --write -->"


def write(path: str, text: str) -> None:
    """Write the report to ``path``: after its results marker if it has one, else the whole file."""
    try:
        with open(path) as f:
            head = f.read().partition(MARKER)
    except FileNotFoundError:
        head = ("", "", "")
    with open(path, "w") as f:
        f.write(head[0] + MARKER + "\n\n" + text if head[1] else text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; print (and optionally write) the report."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--backend",
        action="append",
        choices=BACKENDS_ORDER,
        help="run only these (repeatable); default: every one available here",
    )
    parser.add_argument("--quick", action="store_true", help="5 rounds instead of 21; no memory runs")
    parser.add_argument(
        "--write", metavar="PATH", help="also write the report to PATH (after its results marker, if any)"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    backends = args.backend or [b for b in BACKENDS_ORDER if available(b)]
    rounds = 5 if args.quick else 21

    def log(msg: str) -> None:
        print(f"  running {msg}", file=sys.stderr, flush=True)

    rows = {b: run_backend(b, rounds=rounds, memory=not args.quick, log=log) for b in backends}
    imports = import_times(3 if args.quick else 9)
    gpu = gpu_checks() if "torch-cuda" in backends else []
    text, missed = report(rows, imports, gpu)
    print(text)
    if args.write:
        write(args.write, text)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
