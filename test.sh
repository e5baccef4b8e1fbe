#!/usr/bin/env bash
# Installs what is missing, builds, runs every test, and ends with
# "N passed, M failed" (N and M count individual test cases).
set -uo pipefail
cd "$(dirname "$0")"
source tools/deps.sh
ws_install_deps || { echo "0 passed, 1 failed"; exit 1; }
ws_build || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
# A timeout multiplier keeps a slow or busy machine from failing tests that
# only ran long; the tests themselves assert values, never times.
meson test -C build --print-errorlogs --num-processes "$(nproc)" --timeout-multiplier 3 "$@"
python3 tools/count-tests.py build/meson-logs/testlog.json
