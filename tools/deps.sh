# Sourced by run.sh and test.sh: installs the Debian packages Warpscope needs
# when any is missing (Debian 12).  Needs root or sudo the first time.
ws_deps=(meson ninja-build pkg-config gcc g++ python3 gettext
  libglib2.0-dev libgtk-4-dev libadwaita-1-dev libsqlite3-dev sqlite3
  libgsl-dev libzstd-dev zstd liblz4-dev libjson-glib-dev libcairo2-dev
  xvfb xauth imagemagick jq)

ws_install_deps() {
  local missing=()
  for p in "${ws_deps[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || true
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ws_build() {
  if [ ! -f build/build.ninja ]; then
    meson setup build --buildtype=debugoptimized >/dev/null
  fi
  ninja -C build
}
