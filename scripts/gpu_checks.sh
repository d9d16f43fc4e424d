#!/usr/bin/env bash
# The checks that need a CUDA GPU, in one go, each stage with a time limit and its own log:
#   1. the tests on CuPy and torch on CUDA (pytest -k "cupy or cuda"),
#   2. beside them, the array-api-tests suite on promo_ns.cupy (conformance/array_api_tests.py),
#   3. then, on a quiet GPU, the benchmarks of torch-cuda and cupy (kernels counted against native).
# Usage: bash scripts/gpu_checks.sh OUT_DIR [ARRAY_API_TESTS_CHECKOUT]
# Needs numpy, ml_dtypes, array-api-compat, torch with CUDA, cupy, pytest, pytest-xdist,
# pytest-timeout, hypothesis, and for the suite ndindex and pytest-json-report.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bash scripts/gpu_checks.sh OUT_DIR [ARRAY_API_TESTS_CHECKOUT]}
suite=${2:-${ARRAY_API_TESTS_SUITE:-}}
mkdir -p "$out"
python=${PYTHON:-python3}
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# JAX stays on the CPU: its GPU client would take most of the GPU's memory in every worker.
export JAX_PLATFORMS=cpu

{
    date -u
    nvidia-smi -L
    "$python" -c 'import sys, numpy, torch, cupy, hypothesis
print(sys.version.split()[0], "numpy", numpy.__version__, "torch", torch.__version__, "cupy", cupy.__version__,
      "hypothesis", hypothesis.__version__)
print("torch sees", torch.cuda.get_device_name(0), "; cupy sees", cupy.cuda.runtime.getDeviceCount(), "GPU(s)")'
} >"$out/env.txt" 2>&1

# -v: each test's outcome is in the log as it ends; SIGINT at the limit still prints the failures' summary.
timeout -s INT -k 20 "${TESTS_SECONDS:-330}" "$python" -m pytest tests -v -n "${TESTS_JOBS:-10}" \
    -p no:cacheprovider -k "cupy or cuda" --tb=short -rfE --durations 15 \
    --continue-on-collection-errors $("$python" -c 'import pytest_timeout' 2>/dev/null && echo --timeout 300) >"$out/tests.log" 2>&1 &
tests=$!
if [ -n "$suite" ]; then
    timeout "${SUITE_SECONDS:-330}" "$python" -m conformance.array_api_tests --suite "$suite" --backend cupy \
        -j 4 --out "$out" >"$out/array-api-tests.log" 2>&1
    echo "exit status $?" >>"$out/array-api-tests.log"
fi
wait $tests
echo "exit status $?" >>"$out/tests.log"

[ "${BENCH_SECONDS:-180}" = 0 ] && exit 0
timeout "${BENCH_SECONDS:-180}" "$python" -m benchmarks --backend torch-cuda --backend cupy --quick \
    --write "$out/benchmarks.md" >"$out/benchmarks.log" 2>&1
echo "exit status $?" >>"$out/benchmarks.log"
