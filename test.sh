#!/usr/bin/env bash
# Installs what is missing, builds, runs every test, and ends with
# "N passed, M failed" (N and M count individual test cases).
set -uo pipefail
cd "$(dirname "$0")"
source tools/deps.sh
# --sanitize: the same suite built with ASan and UBSan in build-sanitize;
# any report fails the test that triggered it, leaks included (the
# third-party ones suppressed, with reasons, in tools/lsan.supp).  (The fuzz
# targets: tools/fuzz.sh.)
build=build
multiplier=3
if [ "${1:-}" = "--sanitize" ]; then
  shift
  build=build-sanitize
  multiplier=10
fi
ws_install_deps || { echo "0 passed, 1 failed"; exit 1; }
if [ "$build" = build-sanitize ]; then
  ws_build_sanitize || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
  ws_sanitize_env
else
  ws_build || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
fi
# A timeout multiplier keeps a slow or busy machine from failing tests that
# only ran long; the tests themselves assert values, never times.
meson test -C "$build" --print-errorlogs --num-processes "$(nproc)" --timeout-multiplier "$multiplier" "$@"
python3 tools/count-tests.py "$build/meson-logs/testlog.json"
