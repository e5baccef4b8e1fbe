#!/usr/bin/env python3
"""Counts individual test cases in meson's testlog.json.

Tests speak TAP (GLib's --tap); each "ok"/"not ok" line is one case.  A test
program that crashed or printed no TAP counts as one failed case.  Prints the
failing cases, each with the last diagnostic lines its test printed under
it (a Python traceback ends with the assertion), then the closing line
"N passed, M failed" and exits 1 when M > 0."""
import json, re, sys

MAX_DIAGNOSTIC_LINES = 25

passed = failed = skipped = 0
failures = []
with open(sys.argv[1]) as f:
    for line in f:
        t = json.loads(line)
        out = t.get("stdout") or ""
        ok = nok = 0
        lines = out.splitlines()
        for i, l in enumerate(lines):
            if re.match(r"^ok \d+", l):
                if "# SKIP" in l:
                    skipped += 1
                else:
                    ok += 1
            elif re.match(r"^not ok \d+", l):
                if "# TODO" in l:
                    continue
                nok += 1
                # The diagnostics TAP puts under the line ("# ..."), so a
                # log that keeps only the tail still says why (CI does).
                why = []
                for d in lines[i + 1:]:
                    if not d.startswith("#"):
                        break
                    why.append("    " + d[:400])
                failures.append("\n".join([f"{t['name']}: {l}"] + why[-MAX_DIAGNOSTIC_LINES:]))
        if t.get("result") not in ("OK", "EXPECTEDFAIL", "SKIP") and nok == 0:
            nok = 1
            failures.append(f"{t['name']}: {t.get('result')}")
        if t.get("result") == "SKIP" and ok == 0:
            skipped += 1
        passed += ok
        failed += nok
for fl in failures:
    print("FAILED", fl)
tail = f", {skipped} skipped" if skipped else ""
print(f"{passed} passed, {failed} failed{tail}")
sys.exit(1 if failed else 0)
