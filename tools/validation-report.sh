#!/usr/bin/env bash
# Regenerates the tables and plots of docs/validation.md from a fresh
# `warpscope-cli validate` run over the public dataset (shared/ground-truth):
# the part of the file between the GENERATED markers is replaced, the plots
# go to docs/images/validation/.  Usage: tools/validation-report.sh [BUILD]
# (BUILD defaults to build/; extra validate options may follow it).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
cli="$build/app/cli/warpscope-cli"
[ -x "$cli" ] || { echo "validation-report: $cli is missing; build first (ninja -C $build)" >&2; exit 1; }
doc=docs/validation.md
plots=docs/images/validation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$plots"
"$cli" --db "$tmp/ws.db" validate --markdown --plot "$plots" -o "$tmp/tables.md" "$@"
# Plot links relative to docs/.
sed -i "s#($plots/#(images/validation/#g" "$tmp/tables.md"
python3 - "$doc" "$tmp/tables.md" <<'PY'
import sys, datetime
doc, tables = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
begin, end = "<!-- BEGIN GENERATED: tools/validation-report.sh -->", "<!-- END GENERATED -->"
a, b = text.index(begin) + len(begin), text.index(end)
stamp = datetime.date.today().isoformat()
text = text[:a] + "\n_Generated on " + stamp + " by `tools/validation-report.sh`._\n\n" + tables + "\n" + text[b:]
open(doc, "w").write(text)
PY
echo "validation-report: updated $doc and $plots"
