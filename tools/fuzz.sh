#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz) for longer than the suite does and
# prints, per target, the runs made and the crashes found.
#
#   tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 300 s; all of
#   expr json ptx fatbin trace)
#
# Builds build-fuzz with clang, ASan and UBSan (installing clang when it is
# missing).  What a target finds stays in build-fuzz/tests/fuzz/found-NAME;
# a crash is written as build-fuzz/tests/fuzz/NAME-crash-* with its stack
# in NAME.log.  The last line counts the targets as "N passed, M failed" (a
# target passes when it found nothing); exit status 0 when none failed.
set -uo pipefail
cd "$(dirname "$0")/.."
source tools/deps.sh
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(expr json ptx fatbin trace)

ws_install_deps || exit 1
ws_install_fuzz_deps || { echo "clang is needed for fuzzing"; exit 1; }
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang meson setup build-fuzz --buildtype=debugoptimized -Dfuzzing=true -Dgui=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null || exit 1
fi
ninja -C build-fuzz $(printf 'tests/fuzz/fuzz-%s ' "${targets[@]}") || exit 1

export ASAN_OPTIONS="abort_on_error=1:detect_leaks=0"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
dir=build-fuzz/tests/fuzz
status=0
passed=0
failed=0
printf '%-8s %12s %8s %s\n' target runs crashes "first crash"
for t in "${targets[@]}"; do
  mkdir -p "$dir/found-$t"
  "$dir/fuzz-$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/$t-" "$dir/found-$t" "tests/fuzz/corpus/$t" >"$dir/$t.log" 2>&1
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t.log" | tail -1)
  [ -z "$runs" ] && runs=$(sed -n 's/.*Done \([0-9]*\) runs.*/\1/p' "$dir/$t.log" | tail -1)
  crashes=$(ls "$dir/$t"-crash-* "$dir/$t"-leak-* "$dir/$t"-timeout-* "$dir/$t"-oom-* 2>/dev/null | wc -l)
  first=$(ls "$dir/$t"-crash-* "$dir/$t"-timeout-* "$dir/$t"-oom-* 2>/dev/null | head -1)
  printf '%-8s %12s %8s %s\n' "$t" "${runs:-?}" "$crashes" "$first"
  if [ "$crashes" -gt 0 ] || [ -z "$runs" ]; then
    status=1
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
exit $status
