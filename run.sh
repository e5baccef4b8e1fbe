#!/usr/bin/env bash
# Installs what is missing, builds, and opens Warpscope on the demo workspace.
# With no display it runs the headless demo instead and writes a report.
set -euo pipefail
cd "$(dirname "$0")"
source tools/deps.sh
ws_install_deps
ws_build
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/app/gui/warpscope ]; then
  exec build/app/gui/warpscope "$@"
fi
exec tools/headless-demo.sh build "$@"
