# Sourced by run.sh and test.sh: installs the Debian packages Warpscope needs
# when any is missing (Debian 12).  Needs root or sudo the first time.
ws_deps=(meson ninja-build pkg-config gcc g++ python3 gettext
  libglib2.0-dev libgtk-4-dev libadwaita-1-dev libsqlite3-dev sqlite3
  libgsl-dev libzstd-dev zstd liblz4-dev libjson-glib-dev libcairo2-dev
  xvfb xauth imagemagick jq clang-format)

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

# The sanitized build (./test.sh --sanitize): ASan + UBSan in build-sanitize,
# built by gcc, whose shared sanitizer runtime also lets the replacement
# libcudart run inside uninstrumented CUDA programs.  The libFuzzer targets
# need clang and have their own build (tools/fuzz.sh).
ws_build_sanitize() {
  if [ ! -f build-sanitize/build.ninja ]; then
    CC=gcc meson setup build-sanitize --buildtype=debugoptimized -Db_sanitize=address,undefined \
      -Db_lundef=false >/dev/null || return 1
  fi
  ninja -C build-sanitize
}

# Sanitizer settings for running the suite: stop at the first report of
# either sanitizer, with a stack; leaks are reported (LeakSanitizer) except
# the third-party ones listed, with the reason, in tools/lsan.supp; the
# replacement libcudart is loaded into programs that are not instrumented
# themselves.
ws_sanitize_env() {
  # fast_unwind_on_malloc=0: GLib is built without frame pointers, so the
  # fast unwinder loses a leak's stack inside it and tools/lsan.supp's
  # entries (g_set_user_dirs...) no longer match (store: 216 suppressed
  # GLib allocations reported as leaks).
  export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:verify_asan_link_order=0:detect_odr_violation=0:fast_unwind_on_malloc=0"
  export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
}

# Fuzzing (tools/fuzz.sh) needs clang's libFuzzer.
ws_install_fuzz_deps() {
  command -v clang >/dev/null 2>&1 && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || true
  $sudo apt-get install -y -qq --no-install-recommends clang llvm
}
