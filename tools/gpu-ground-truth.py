#!/usr/bin/env python3
"""Helper of tools/gpu-ground-truth.sh (issue 25): instruction counting,
packing a GPU run's results into at most eight files, the emulated reference
and the comparison of the two.  Standard library only: it runs on the GPU
machine, which has no package registry.

    count-ptx LABEL FILE.ptx           CSV rows: static PTX instructions per kernel
    count-sass LABEL FILE.sass         the same from `cuobjdump -sass`
    filter-metrics QUERY.txt M1,M2...  keep the metrics `ncu --query-metrics` knows
    probe-metrics NCU LOG M1,M2... PROGRAM [ARGS]   keep those ncu accepts on PROGRAM
    collect WORK OUT                   pack a run (or a dry run) into OUT
    emulated-collect WORK OUT          pack an --emulated-reference run into OUT
    compare EMULATED GPU OUT           compare the two; exit 1 on a mismatch

Opcode classes are shared by PTX and SASS so the two counts of a kernel sit
side by side (docs/measurement.md, "Ground truth from a GPU machine")."""

import csv
import io
import json
import os
import re
import statistics
import sys
import tarfile

MAX_FILE_BYTES = 16 * 1024 * 1024 - 64 * 1024  # the device tool's limit, less a margin
MAX_FILES = 8

CLASSES = ("fp32", "fp64", "fp16", "int", "sfu", "convert", "move", "ld_global", "st_global",
           "atomic_global", "ld_shared", "st_shared", "atomic_shared", "ld_local", "st_local",
           "ld_generic", "st_generic", "atomic_generic", "ld_const", "param", "texture", "tensor",
           "branch", "barrier", "warp", "special", "padding", "other")

INSTRUCTION_FIELDS = ["program", "kernel", "source", "class", "opcode", "count"]

# ---------------------------------------------------------------------------
# PTX

PTX_TYPES_FP32 = {"f32"}
PTX_TYPES_FP64 = {"f64"}
PTX_TYPES_FP16 = {"f16", "f16x2", "bf16", "bf16x2", "e4m3x2", "e5m2x2"}
PTX_ARITH = {"add", "sub", "mul", "mad", "fma", "min", "max", "abs", "neg", "setp", "selp", "set",
             "slct", "div", "rem", "rcp", "sqrt", "copysign", "testp"}
PTX_INT_ONLY = {"and", "or", "xor", "not", "cnot", "shl", "shr", "lop3", "shf", "popc", "clz", "brev",
                "bfe", "bfi", "bfind", "prmt", "dp4a", "dp2a", "mul24", "mad24", "sad", "fns", "szext",
                "bmsk", "mulhi", "madc", "addc", "subc"}
PTX_SFU = {"ex2", "lg2", "sin", "cos", "rsqrt", "tanh"}


def _space(quals):
    for q in quals:
        for s in ("global", "shared", "local", "const", "param"):
            if q == s or q.startswith(s + "::"):
                return s
    return "generic"


def ptx_class(opcode):
    """Class of a PTX opcode such as 'ld.global.nc.f32' or 'add.rn.f32'."""
    parts = opcode.split(".")
    base, quals = parts[0], parts[1:]
    qset = set(quals)
    if base in ("ld", "ldu", "st"):
        space = _space(quals)
        if space == "param":
            return "param"
        if space == "const":
            return "ld_const" if base != "st" else "other"
        return ("st_" if base == "st" else "ld_") + space
    if base in ("atom", "red"):
        space = _space(quals)
        return "atomic_" + (space if space in ("global", "shared") else "generic")
    if base in ("tex", "tld4", "txq", "suld", "sust", "sured", "suq"):
        return "texture"
    if base in ("bra", "brx", "call", "ret", "exit"):
        return "branch"
    if base in ("bar", "barrier", "membar", "fence"):
        return "barrier"
    if base in ("shfl", "vote", "match", "redux", "activemask", "elect"):
        return "warp"
    if base == "mov":
        return "move"
    if base in ("cvt", "cvta"):
        return "convert"
    if base in ("mma", "wmma", "wgmma", "ldmatrix", "stmatrix"):
        return "tensor"
    if base in PTX_SFU or (base in ("rcp", "sqrt", "div") and "approx" in qset):
        return "sfu"
    if base in PTX_INT_ONLY:
        return "int"
    if base in PTX_ARITH:
        types = [q for q in quals if q in PTX_TYPES_FP32 | PTX_TYPES_FP64 | PTX_TYPES_FP16]
        # setp.lt.f32 compares floats; cvt-like two-type forms do not occur here.
        if types:
            t = types[-1]
            if t in PTX_TYPES_FP32:
                return "fp32"
            if t in PTX_TYPES_FP64:
                return "fp64"
            return "fp16"
        return "int"
    # nanosleep, trap, prefetch, isspacep, cp.async, mbarrier ...
    return "other"


_PTX_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_PTX_FUNC = re.compile(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)")
_PTX_LABEL = re.compile(r"^\s*[A-Za-z_$%][\w$]*:\s*")
_PTX_LABELS_ONLY = re.compile(r"[A-Za-z_$%][\w$]*:")
_PTX_PRED = re.compile(r"^@!?%?[\w$]+\s+")


def ptx_statements(body):
    """The statements of a function body (text after its opening brace) up to
    the closing brace at depth 0: instructions and directives, without labels
    and predicate guards.  Braces that open a statement are scopes (call
    sequences, inline assembly); braces inside one are operands
    (mov.b64 {%r1, %r2}, %rd1)."""
    depth, cur, out = 1, [], []
    for ch in body:
        blank = False
        if ch in "{}":
            # Blank up to here, or only labels (a scope may follow one).
            blank = not _PTX_LABELS_ONLY.sub("", "".join(cur)).strip()
        if blank and ch == "{":
            depth += 1
            cur = []
        elif blank and ch == "}":
            depth -= 1
            cur = []
            if depth == 0:
                break
        elif ch == ";":
            s = " ".join("".join(cur).split())
            cur = []
            while True:
                m = _PTX_LABEL.match(s)
                if not m:
                    break
                s = s[m.end():]
            s = _PTX_PRED.sub("", s)
            if s:
                out.append(s)
        else:
            cur.append(ch)
    return out


def count_ptx(text):
    """{(kernel, opcode): count} of every .entry and .func in PTX @text."""
    text = _PTX_COMMENT.sub("", text)
    counts = {}
    for m in _PTX_FUNC.finditer(text):
        name = m.group(2)
        # Declarations end with ';' before any body.
        brace = text.find("{", m.end())
        semi = text.find(";", m.end())
        if brace < 0 or (0 <= semi < brace):
            continue
        for s in ptx_statements(text[brace + 1:]):
            if s.startswith("."):
                continue      # .reg, .shared, .local, .param, .pragma, .loc
            opcode = s.split()[0]
            counts[(name, opcode)] = counts.get((name, opcode), 0) + 1
    return counts

# ---------------------------------------------------------------------------
# SASS (cuobjdump -sass / nvdisasm)

SASS_CLASSES = {
    "fp32": "FADD FMUL FFMA FMNMX FSEL FSET FSETP FCHK FSWZADD FADD32I FMUL32I FFMA32I",
    "fp64": "DADD DMUL DFMA DSETP DMNMX DSET",
    "fp16": "HADD2 HMUL2 HFMA2 HSETP2 HMNMX2 HSET2 HADD2_32I HMUL2_32I HFMA2_32I",
    "sfu": "MUFU",
    "convert": "F2F F2I I2F I2I F2FP I2FP F2IP FRND",
    "move": "MOV MOV32I UMOV",
    "int": ("IADD3 IADD IADD32I IMAD IMAD32I IMUL IMUL32I IMNMX IABS ISETP LOP3 LOP LOP32I SHF SHL SHR LEA "
            "POPC FLO BREV PRMT SEL BMSK SGXT IDP VABSDIFF VABSDIFF4 VIADD VIADDMNMX VIMNMX VIMNMX3 P2R R2P "
            "PLOP3 PSETP ISCADD BFE BFI"),
    "ld_global": "LDG LDGSTS LDGDEPBAR",
    "st_global": "STG",
    "atomic_global": "ATOMG RED REDG REDAS",
    "atomic_generic": "ATOM",
    "ld_shared": "LDS LDSM",
    "st_shared": "STS STSM",
    "atomic_shared": "ATOMS",
    "ld_local": "LDL",
    "st_local": "STL",
    "ld_generic": "LD",
    "st_generic": "ST",
    "ld_const": "LDC ULDC",
    "texture": "TEX TLD TLD4 TXQ TMML TXD SULD SUST SURED SUATOM SUQUERY",
    "tensor": "HMMA IMMA DMMA BMMA HGMMA IGMMA QGMMA BGMMA UTMALDG UTMASTG UBLKCP",
    "branch": "BRA BRX JMP JMX CALL RET EXIT BSSY BSYNC WARPSYNC BREAK BPT KILL YIELD",
    "barrier": "BAR MEMBAR ERRBAR CCTL CCTLL CCTLT FENCE SYNCS ARRIVES",
    "warp": "SHFL VOTE VOTEU MATCH REDUX ELECT",
    "special": "S2R S2UR CS2R R2UR B2R R2B GETLMEMBASE SETLMEMBASE SETCTAID LEPC",
    "padding": "NOP",
}
_SASS_BY_OPCODE = {op: c for c, ops in SASS_CLASSES.items() for op in ops.split()}


def sass_class(opcode):
    """Class of a SASS opcode such as 'IMAD.WIDE.U32' or 'LDG.E.128'."""
    base = opcode.split(".")[0]
    if opcode.startswith("IMAD.MOV"):
        return "move"
    c = _SASS_BY_OPCODE.get(base)
    if c is None and base.startswith("U") and base[1:] in _SASS_BY_OPCODE:
        # Uniform datapath: UIADD3, ULOP3, USEL, UISETP ... as their vector twins.
        c = _SASS_BY_OPCODE[base[1:]]
        if c not in ("int", "move", "convert"):
            c = "int"
    return c or "other"


_SASS_FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
_SASS_INSN = re.compile(r"^\s*/\*([0-9a-fA-F]{4,})\*/\s+([^;]*?)\s*;")
_SASS_LABEL = re.compile(r"^\s*(\.L_[\w]+):\s*$")
_SASS_PRED = re.compile(r"^@!?U?P[T0-9]+\s+")


def count_sass(text):
    """{(kernel, opcode): count} from cuobjdump -sass text.  The branch to
    itself that ends every kernel (a trap for runaway warps) counts as
    padding, like the NOPs that align the code."""
    counts = {}
    func = None
    labels = {}
    pending = []
    for line in text.splitlines():
        m = _SASS_FUNC.match(line)
        if m:
            func, labels, pending = m.group(1), {}, []
            continue
        if func is None:
            continue
        m = _SASS_LABEL.match(line)
        if m:
            pending.append(m.group(1))
            continue
        m = _SASS_INSN.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        for lab in pending:
            labels[lab] = addr
        pending = []
        insn = _SASS_PRED.sub("", m.group(2).strip())
        if not insn:
            continue
        fields = insn.split(None, 1)
        opcode = fields[0]
        cls = sass_class(opcode)
        if opcode.split(".")[0] == "BRA" and len(fields) > 1:
            target = fields[1].strip()
            t = re.match(r"^`?\(?(\.L_\w+)\)?", target)
            if (t and labels.get(t.group(1)) == addr) or target.lower() in ("0x%x" % addr, "0x%04x" % addr):
                cls = "padding"
        key = (func, opcode, cls)
        counts[key] = counts.get(key, 0) + 1
    return counts


def write_instruction_rows(label, source, counts, out):
    w = csv.writer(out, lineterminator="\n")
    for key in sorted(counts):
        if source == "ptx":
            kernel, opcode = key
            cls = ptx_class(opcode)
        else:
            kernel, opcode, cls = key
        w.writerow([label, kernel, source, cls, opcode, counts[key]])

# ---------------------------------------------------------------------------
# ncu metrics


def filter_metrics(query_path, metrics):
    """Keeps the metrics whose base name (before the first '.') `ncu
    --query-metrics` lists; an empty or unreadable list keeps everything."""
    known = set()
    try:
        with open(query_path, errors="replace") as f:
            for line in f:
                tok = line.split()
                if tok and re.match(r"^[a-z0-9]+__\w+$", tok[0]):
                    known.add(tok[0])
    except OSError:
        pass
    if len(known) < 50:
        return metrics, []
    # launch__ and device__ are attributes of the launch, not counters:
    # always there, and not necessarily listed.
    def ok(m):
        return m.startswith(("launch__", "device__")) or m.split(".")[0] in known
    kept = [m for m in metrics if ok(m)]
    dropped = [m for m in metrics if not ok(m)]
    return kept, dropped

def probe_metrics(ncu, metrics, command, log):
    """The metrics of @metrics with which ncu profiles @command (a tiny
    launch): a name ncu rejects would lose every profile of the run.  All at
    once first; on failure without the names ncu's output mentions; then in
    groups of 8, and one by one inside a failing group."""
    import subprocess

    def works(ms):
        if not ms:
            return True, ""
        try:
            r = subprocess.run([ncu, "--clock-control", "none", "--csv", "--page", "raw", "--metrics", ",".join(ms)]
                               + command, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            return False, str(e)
        text = r.stdout + r.stderr
        rows = [l for l in r.stdout.splitlines() if l.startswith('"')]
        log.write("probe %d metrics: exit %d, %d CSV lines\n" % (len(ms), r.returncode, len(rows)))
        return r.returncode == 0 and len(rows) >= 2, text

    ok, text = works(metrics)
    if ok:
        return metrics, []
    log.write(text[-4000:] + "\n")
    named = [m for m in metrics if m.split(".")[0] in text]
    rest = [m for m in metrics if m not in named]
    if named and works(rest)[0]:
        return rest, named
    kept = []
    for i in range(0, len(rest), 8):
        group = rest[i:i + 8]
        if works(group)[0]:
            kept += group
        else:
            kept += [m for m in group if works([m])[0]]
    return kept, [m for m in metrics if m not in kept]

# ---------------------------------------------------------------------------
# Reading a work folder


def read_text(path, limit=None):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace")
    if limit is not None and len(text) > limit:
        text = "[... %d characters left out ...]\n" % (len(text) - limit) + text[-limit:]
    return text


def read_steps(work):
    """steps.tsv: index, kind, label, status, rc, seconds, command."""
    steps = []
    path = os.path.join(work, "steps.tsv")
    if not os.path.exists(path):
        return steps
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 6:
                continue
            steps.append({"index": int(p[0]), "kind": p[1], "label": p[2], "status": p[3],
                          "rc": int(p[4]) if p[4] not in ("", "-") else None,
                          "seconds": float(p[5]) if p[5] not in ("", "-") else None})
    return steps


def read_programs(work, name="programs.tsv"):
    """programs.tsv (or sweeps.tsv) written by the shell: label, source,
    binary, arguments (tab-separated words)."""
    progs = []
    path = os.path.join(work, name)
    if not os.path.exists(path):
        return progs
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 3:
                continue
            progs.append({"label": p[0], "source": p[1], "binary": p[2], "args": p[3:] if len(p) > 3 and p[3] else []})
    return progs


def cupti_runs(path):
    """Rows of a WS_CUPTI_OUTPUT file, split into runs at the injection
    library's '# raw run' comment (one per process)."""
    text = read_text(path)
    if text is None:
        return []
    runs, header = [], None
    for line in text.splitlines():
        if line.startswith("# raw run"):
            runs.append([])
            continue
        if not line.strip() or line.startswith("#"):
            continue
        row = next(csv.reader([line]))
        if header is None and row and row[0] == "kind":
            header = row
            continue
        if header is None:
            continue
        if not runs:
            runs.append([])
        runs[-1].append(dict(zip(header, row)))
    return runs


def parse_ncu_csv(path):
    """Rows of `ncu --import R --csv --page raw`: header, a units row, data."""
    text = read_text(path)
    if text is None:
        return [], {}
    lines = [l for l in text.splitlines() if l.startswith('"')]
    if not lines:
        return [], {}
    rows = list(csv.reader(lines))
    header = rows[0]
    units, data = {}, []
    for r in rows[1:]:
        if len(r) != len(header):
            continue
        if r[0] == "" and not data:
            units = dict(zip(header, r))
            continue
        data.append(dict(zip(header, r)))
    return data, units

# ---------------------------------------------------------------------------
# collect


def _json_or(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def build_runs(work, progs, steps, stdout_limit=200000):
    runs = []
    by = {}
    for s in steps:
        by.setdefault((s["kind"], s["label"]), []).append(s)
    for p in progs:
        lab = p["label"]
        run = (by.get(("run", lab)) or by.get(("sweep", lab)) or [None])[0]
        entry = {"label": lab, "source": p["source"], "args": p["args"]}
        if p.get("sweep"):
            entry["sweep"] = True
        if run is not None:
            entry.update({"status": run["status"], "exit_code": run["rc"], "wall_s": run["seconds"],
                          "stdout": read_text(os.path.join(work, "run", lab + ".stdout"), stdout_limit),
                          "stderr": read_text(os.path.join(work, "run", lab + ".stderr"), 4000)})
        else:
            entry["status"] = "not run"
        entry["cupti_runs"] = [{"status": s["status"], "exit_code": s["rc"], "wall_s": s["seconds"]}
                               for s in by.get(("cupti", lab), [])]
        nc = (by.get(("ncu", lab)) or [None])[0]
        if nc is not None:
            entry["ncu"] = {"status": nc["status"], "exit_code": nc["rc"], "wall_s": nc["seconds"]}
        runs.append(entry)
    return runs


def write_cupti_csv(work, labels, path):
    fields = ["label", "run", "kind", "name", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
              "shared_bytes", "registers", "direction", "bytes", "duration_ns"]
    n = 0
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(fields)
        for lab in labels:
            for i, rows in enumerate(cupti_runs(os.path.join(work, "cupti", lab + ".csv"))):
                for r in rows:
                    w.writerow([lab, i + 1] + [r.get(k, "") for k in fields[2:]])
                    n += 1
    return n


def write_ncu_csv(work, labels, path):
    header, units, allrows = None, {}, []
    for lab in labels:
        data, u = parse_ncu_csv(os.path.join(work, "ncu", lab + ".csv"))
        for r in data:
            if header is None:
                header = [k for k in r]
            for k in r:
                if k not in header:
                    header.append(k)
            allrows.append((lab, r))
        units.update({k: v for k, v in u.items() if v})
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if header is None:
            w.writerow(["label"])
            return 0
        w.writerow(["label"] + header)
        w.writerow(["(unit)"] + [units.get(k, "") for k in header])
        for lab, r in allrows:
            w.writerow([lab] + [r.get(k, "") for k in header])
    return len(allrows)


def pack_raw(work, tar_path, limit=MAX_FILE_BYTES):
    """raw.tar.gz of the work folder's logs, ncu reports, SASS, PTX and
    calibration output; the bulkiest kinds go first when it is too large."""
    groups = [
        ("meta", lambda p: p.startswith("meta/") or p in ("steps.tsv", "programs.tsv", "commands.sh")),
        ("calibrate", lambda p: p.startswith("calibrate/")),
        ("runs", lambda p: p.startswith("run/") or p.startswith("cupti/")),
        ("ncu-csv", lambda p: p.startswith("ncu/") and not p.endswith(".ncu-rep")),
        ("build", lambda p: p.startswith("build/")),
        ("sass", lambda p: p.startswith("sass/")),
        ("ptx", lambda p: p.startswith("ptx/")),
        ("ncu-rep", lambda p: p.endswith(".ncu-rep")),
    ]
    files = []
    for root, _, names in os.walk(work):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), work)
            if rel.startswith("bin/") or rel.startswith("lib/") or rel.startswith("emu/"):
                continue
            files.append(rel)
    files.sort()
    keep = [g for g, _ in groups]
    left_out = []
    while True:
        chosen = [f for f in files if any(test(f) for g, test in groups if g in keep)]
        with tarfile.open(tar_path, "w:gz", compresslevel=9) as t:
            for f in chosen:
                t.add(os.path.join(work, f), arcname="raw/" + f)
        if os.path.getsize(tar_path) <= limit or len(keep) <= 1:
            break
        left_out.append(keep.pop())
    return left_out


def instructions_csv(work, path):
    """instructions.csv: the PTX and SASS counts of every binary built."""
    with open(path, "w", newline="") as f:
        f.write(",".join(INSTRUCTION_FIELDS) + "\n")
        for sub in ("ptx", "sass"):
            d = os.path.join(work, sub)
            for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if name.endswith(".csv"):
                    f.write(read_text(os.path.join(d, name)) or "")


def kernels_summary(path):
    """{(program, kernel): {source: {class: count}}} from instructions.csv."""
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            d = out.setdefault((r["program"], r["kernel"]), {}).setdefault(r["source"], {})
            d[r["class"]] = d.get(r["class"], 0) + int(r["count"])
    return out


def fmt_duration(s):
    return "-" if s is None else ("%.1f s" % s)


def write_readme(path, meta, progs, steps, files, dry_run, runs=None, launches=None):
    g = meta.get("gpu", {})
    t = meta.get("tools", {})
    lines = []
    add = lines.append
    add("# H100 ground truth" if not dry_run else "# GPU ground truth: dry run (nothing was measured)")
    add("")
    add("Written by `tools/gpu-ground-truth.sh`%s (Warpscope issue 25; docs/measurement.md, "
        "\"Ground truth from a GPU machine\"). Copy this folder's files to "
        "`tests/data/measured/h100/` with this README." % (" --dry-run" if dry_run else ""))
    add("")
    add("| | |")
    add("|---|---|")
    add("| date (UTC) | %s |" % meta.get("date", "?"))
    add("| repository | %s |" % meta.get("repository", "?"))
    add("| GPU | %s |" % (g.get("name") or "(none: dry run)"))
    add("| driver | %s (CUDA %s) |" % (g.get("driver_version") or "-", g.get("cuda_driver_version") or "-"))
    add("| memory | %s |" % (g.get("memory.total") or "-"))
    add("| clocks before | SM %s, memory %s (max SM %s, memory %s; application SM %s) |" % (
              g.get("clocks.sm", "-"), g.get("clocks.mem", "-"), g.get("clocks.max.sm", "-"),
              g.get("clocks.max.mem", "-"), g.get("clocks.applications.graphics", "-")))
    ga = meta.get("gpu_after", {})
    if ga:
        add("| clocks after | SM %s, memory %s; temperature %s C, power %s |" % (
                  ga.get("clocks.sm", "-"), ga.get("clocks.mem", "-"), ga.get("temperature.gpu", "-"),
                  ga.get("power.draw", "-")))
    add("| persistence, compute mode | %s, %s |" % (g.get("persistence_mode", "-"), g.get("compute_mode", "-")))
    add("| nvcc | %s |" % t.get("nvcc", "-"))
    add("| ncu | %s |" % t.get("ncu", "absent"))
    add("| cuobjdump | %s |" % t.get("cuobjdump", "absent"))
    add("| host | %s |" % meta.get("host", "-"))
    add("| build | `%s` |" % meta.get("build_flags", ""))
    add("| budget | %s s, used %s s |" % (meta.get("budget_s"), meta.get("elapsed_s", "-")))
    add("| steps of this run | %s |" % (meta.get("options", {}).get("steps") or "all"))
    add("")
    add("## Files")
    add("")
    add("| file | what |")
    add("|---|---|")
    what = {
        "README.md": "this file",
        "metadata.json": "tools, GPU (nvidia-smi before and after), options, every step with its status and time, "
                                          "the ncu metric lists, the calibration output",
        "commands.sh": "the build commands and every step's command in the order run (`W` the work folder)",
        "runs.json": "per program: arguments, exit status, standard output and error of the plain run, "
                                  "status of the CUPTI and ncu runs",
        "cupti.csv": "per kernel launch and memcpy: CUPTI duration (ns) of each run; columns of "
                                  "`warpscope-cli measure` plus label and run",
        "ncu.csv": "per kernel launch: the ncu metrics (raw page, base units), one row per profiled launch",
        "instructions.csv": "per kernel: static instruction counts per opcode and class, PTX (`nvcc -ptx`) and "
                                                "SASS (`cuobjdump -sass`)",
        "raw.tar.gz": "logs, ncu reports (.ncu-rep), SASS, PTX, resource usage, calibration output",
    }
    for f in files:
        add("| `%s` | %s |" % (f, what.get(f, "")))
    add("")
    if meta.get("raw_left_out"):
        add("Left out of raw.tar.gz to keep it under 16 MiB: %s." % ", ".join(meta["raw_left_out"]))
        add("")
    add("## How it was measured")
    add("")
    add("- Every program was built with `%s` (static runtime) and run once plainly (exit status and output), "
        "then %s times with the CUPTI injection library of `warpscope-cli measure` "
        "(`tools/cupti/ws-cupti-inject.c`, built on the machine) for per-launch durations."
        % (meta.get("build_flags", ""), meta.get("options", {}).get("runs", "?")))
    add("- ncu (`%s`), at most %s launches per program, metrics in metadata.json (`ncu_metrics`)."
        % (meta.get("ncu_flags") or "", meta.get("options", {}).get("ncu_launch_count", "?")))
    add("- Static SASS: `cuobjdump -sass` and `-res-usage` of each binary; PTX: `nvcc -ptx` with the same flags.")
    add("- seed 004 saxpy2 sweeps (labels `saxpy2-ci-*`, `saxpy2-occ-*`, `saxpy2-n-*`): CUPTI duration, and ncu "
        "achieved occupancy for the occupancy sweep.")
    add("- Calibration micro-benchmarks: `bench/calibration/ws-calibrate.cu` (output in metadata.json "
        "`calibration` and raw.tar.gz).")
    add("")
    counts = {}
    for s in steps:
        counts.setdefault(s["kind"], {}).setdefault(s["status"], 0)
        counts[s["kind"]][s["status"]] += 1
    if steps:
        add("## Steps")
        add("")
        add("| kind | status |")
        add("|---|---|")
        for k, d in counts.items():
            add("| %s | %s |" % (k, ", ".join("%s %d" % (st, n) for st, n in sorted(d.items()))))
        add("")
        bad = [s for s in steps if s["status"] not in ("ok", "planned")]
        if bad:
            add("Not ok: " + ", ".join("%s %s (%s)" % (s["kind"], s["label"], s["status"]) for s in bad))
            add("")
    add("## Programs")
    add("")
    add("| label | source | arguments | exit | kernel launches (CUPTI) |")
    add("|---|---|---|---|---|")
    by_label = {r["label"]: r for r in runs or []}
    for p in progs:
        r = by_label.get(p["label"], {})
        exit_code = r.get("exit_code")
        add("| %s | `%s` | `%s` | %s | %s |" % (
            p["label"], p["source"], " ".join(p["args"]) or "(defaults)",
            "-" if exit_code is None else exit_code, (launches or {}).get(p["label"], "-")))
    add("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def _first_line(text, pattern=None):
    for line in (text or "").splitlines()[::-1]:
        if line.strip() and (pattern is None or re.search(pattern, line)):
            return line.strip()
    return None


def _smi_csv(path):
    """{field: value} from `nvidia-smi --query-gpu=... --format=csv` (first GPU)."""
    text = read_text(path)
    if not text:
        return {}
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 2:
        return {}
    keys = [k.strip().split(" [")[0] for k in rows[0]]
    return {k: v.strip() for k, v in zip(keys, rows[1])}


def build_metadata(work):
    """metadata.json from what the shell wrote into WORK/meta."""
    meta_dir = os.path.join(work, "meta")
    opts = {}
    for line in (read_text(os.path.join(meta_dir, "options.env")) or "").splitlines():
        k, eq, v = line.partition("=")
        if eq:
            opts[k] = v

    def text_of(name):
        return read_text(os.path.join(meta_dir, name)) or ""
    repository = text_of("repository.txt").splitlines()
    meta = {"date": text_of("date.txt").strip(),
            "host": " / ".join(text_of("host.txt").splitlines()),
            "repository": repository[0] if repository else "",
            "repository_changes": [l[len("changed: "):] for l in repository if l.startswith("changed: ")],
            "options": opts,
            "budget_s": opts.get("budget_s"),
            "elapsed_s": opts.get("elapsed_s"),
            "build_flags": opts.get("build_flags"),
            "ncu_flags": opts.get("ncu_flags"),
            "tools": {}}
    versions = (("nvcc", r"release|V\d"), ("ncu", r"[Vv]ersion"), ("cuobjdump", r"[Vv]ersion|release"),
                ("compute-sanitizer", r"[Vv]ersion"), ("nvdisasm", r"[Vv]ersion|release"), ("hostcc", None))
    for tool, pattern in versions:
        text = read_text(os.path.join(meta_dir, tool + ".txt"))
        if tool == "hostcc":
            meta["tools"][tool] = (text or "absent").splitlines()[0].strip() if text else "absent"
        else:
            meta["tools"][tool] = _first_line(text, pattern) or "absent"
    meta["gpu"] = _smi_csv(os.path.join(meta_dir, "nvidia-smi-query.csv"))
    meta["gpu_after"] = _smi_csv(os.path.join(meta_dir, "nvidia-smi-after.csv"))
    smi = read_text(os.path.join(meta_dir, "nvidia-smi.txt")) or ""
    m = re.search(r"CUDA Version:\s*([\d.]+)", smi)
    if m:
        meta["gpu"]["cuda_driver_version"] = m.group(1)
    for key, name in (("ncu_metrics", "ncu-metrics.txt"), ("ncu_sweep_metrics", "ncu-sweep-metrics.txt")):
        meta[key] = [l for l in (read_text(os.path.join(meta_dir, name)) or "").splitlines() if l.strip()]
    dropped = read_text(os.path.join(meta_dir, "ncu-metrics-dropped.txt"))
    meta["ncu_metrics_dropped"] = [l for l in (dropped or "").splitlines() if l.strip()]
    meta["sweeps"] = [{"label": p["label"], "N": int(p["args"][0]), "compute_intensity": int(p["args"][1]),
                       "block_size": int(p["args"][2]), "shared_bytes": int(p["args"][3])}
                      for p in read_programs(work, "sweeps.tsv")]
    return meta


def cmd_collect(work, out, dry_run=False):
    os.makedirs(out, exist_ok=True)
    meta = build_metadata(work)
    progs = read_programs(work) + [dict(p, sweep=True) for p in read_programs(work, "sweeps.tsv")]
    steps = read_steps(work)
    labels = [p["label"] for p in progs]
    all_labels = labels + sorted({s["label"] for s in steps if s["label"] not in labels})
    meta["steps"] = steps
    meta["dry_run"] = dry_run
    calib = read_text(os.path.join(work, "calibrate", "ws-calibrate.out"))
    if calib:
        meta["calibration"] = {}
        for line in calib.splitlines():
            p = line.split()
            if len(p) >= 2 and not line.startswith("#"):
                meta["calibration"][" ".join(p[:-1])] = p[-1]
    files = ["README.md", "metadata.json", "commands.sh", "instructions.csv"]
    instructions_csv(work, os.path.join(out, "instructions.csv"))
    with open(os.path.join(work, "commands.sh")) as f, open(os.path.join(out, "commands.sh"), "w") as g:
        g.write(f.read())
    if not dry_run:
        runs = build_runs(work, progs, steps)
        with open(os.path.join(out, "runs.json"), "w") as f:
            json.dump(runs, f, indent=1)
        meta["cupti_rows"] = write_cupti_csv(work, all_labels, os.path.join(out, "cupti.csv"))
        meta["ncu_rows"] = write_ncu_csv(work, all_labels, os.path.join(out, "ncu.csv"))
        files += ["runs.json", "cupti.csv", "ncu.csv", "raw.tar.gz"]
    meta["files"] = files
    # raw.tar.gz last but one: README and metadata name what it left out.
    if not dry_run:
        meta["raw_left_out"] = pack_raw(work, os.path.join(out, "raw.tar.gz"))
    launches = {}
    if not dry_run:
        for lab in labels:
            first = (cupti_runs(os.path.join(work, "cupti", lab + ".csv")) or [[]])[0]
            if first:
                launches[lab] = sum(1 for r in first if r.get("kind") == "kernel")
    write_readme(os.path.join(out, "README.md"), meta, progs, steps, files, dry_run,
                 None if dry_run else runs, launches)
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump(meta, f, indent=1)
    problems = []
    present = [n for n in os.listdir(out) if os.path.isfile(os.path.join(out, n))]
    if len(present) > MAX_FILES:
        problems.append("%d files in %s (at most %d come back)" % (len(present), out, MAX_FILES))
    for n in present:
        size = os.path.getsize(os.path.join(out, n))
        if size > MAX_FILE_BYTES:
            problems.append("%s is %d bytes (over %d)" % (n, size, MAX_FILE_BYTES))
    for p in problems:
        print("gpu-ground-truth: " + p, file=sys.stderr)
    return 1 if problems else 0


def print_summary(out):
    ks = kernels_summary(os.path.join(out, "instructions.csv"))
    per_prog = {}
    for (prog, kernel), d in ks.items():
        per_prog.setdefault(prog, []).append((kernel, d))
    print("%-22s %8s %10s %10s  %s" % ("program", "kernels", "PTX insts", "SASS insts", "PTX classes (top 4)"))
    for prog in sorted(per_prog):
        ptx = {}
        sass_total = 0
        for _, d in per_prog[prog]:
            for c, n in d.get("ptx", {}).items():
                ptx[c] = ptx.get(c, 0) + n
            sass_total += sum(n for c, n in d.get("sass", {}).items() if c != "padding")
        top = sorted(ptx.items(), key=lambda kv: -kv[1])[:4]
        print("%-22s %8d %10d %10s  %s" % (prog, len(per_prog[prog]), sum(ptx.values()),
                                           sass_total or "-", ", ".join("%s %d" % kv for kv in top)))

# ---------------------------------------------------------------------------
# Emulated reference and comparison


def cmd_emulated_collect(work, out):
    os.makedirs(out, exist_ok=True)
    progs = read_programs(work)
    steps = read_steps(work)
    runs = build_runs(work, progs, steps)
    fields = ["label", "launch", "kernel", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
              "dynamic_shared_bytes", "thread_blocks", "warp_instructions", "thread_instructions",
              "memory_instructions", "global_requests", "shared_accesses", "barriers", "static_instructions"]
    with open(os.path.join(out, "launches.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(fields)
        for p in progs:
            info = _json_or(os.path.join(work, "emu", p["label"] + ".info.json"), {})
            static = {k.get("name"): k.get("static_instructions") for k in info.get("kernels", [])}
            for l in info.get("launches", []):
                g, b = l.get("grid", [1, 1, 1]), l.get("block", [1, 1, 1])
                w.writerow([p["label"], l.get("index"), l.get("kernel"), g[0], g[1], g[2], b[0], b[1], b[2],
                            l.get("dynamic_shared_bytes"), l.get("thread_blocks"), l.get("warp_instructions"),
                            l.get("thread_instructions"), l.get("memory_instructions"), l.get("global_requests"),
                            l.get("shared_accesses"), l.get("barriers"), static.get(l.get("kernel"))])
    with open(os.path.join(out, "runs.json"), "w") as f:
        json.dump(runs, f, indent=1)
    meta = build_metadata(work)
    meta["steps"] = steps
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump(meta, f, indent=1)
    instructions_csv(work, os.path.join(out, "instructions.csv"))
    bad = [r for r in runs if r.get("exit_code") != 0]
    for r in bad:
        print("gpu-ground-truth: %s exited with %s under the emulator" % (r["label"], r.get("exit_code")),
              file=sys.stderr)
    return 0


# Fields of the validation programs' RESULT lines that are times or rates:
# meaningless under the emulator, so never compared.
TIMING_KEYS = {"ms", "GBps", "GFlops", "ns_per_load", "us_per_kernel", "cycles_per_warp_load",
               "bytes_per_cycle_per_sm"}
_NUM = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def output_tokens(text):
    """(line, [tokens]) of a program's output with timing fields removed;
    floating-point numbers (max errors, flop/byte) become '<float>': each
    program checks them against its own tolerance and prints PASSED."""
    out = []
    for line in (text or "").splitlines():
        toks = []
        for tok in line.replace(",", " , ").split():
            key, eq, val = tok.partition("=")
            if eq and key in TIMING_KEYS:
                continue
            v = val if eq else tok
            if _NUM.match(v) and re.search(r"[.eE]", v):
                v = "<float>"
            toks.append(key + "=" + v if eq else v)
        out.append(toks)
    return out


def compare_outputs(emu, gpu):
    """Differences between two outputs, as strings (empty: equivalent)."""
    a, b = output_tokens(emu), output_tokens(gpu)
    diffs = []
    if len(a) != len(b):
        diffs.append("%d lines under the emulator, %d on the GPU" % (len(a), len(b)))
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            diffs.append("line %d: emulator '%s', GPU '%s'" % (i + 1, " ".join(x), " ".join(y)))
    return diffs


def median_measure_rows(runs):
    """`warpscope-cli measure`'s aggregation: occurrence within (kind, name,
    configuration) per run, then the median duration over runs."""
    acc = {}
    order = []
    for rows in runs:
        seen = {}
        for r in rows:
            if r.get("kind") == "kernel":
                cfg = tuple(r.get(k, "") for k in ("grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
                                                   "shared_bytes", "registers"))
            else:
                cfg = (r.get("direction", ""), r.get("bytes", ""))
            base = (r.get("kind"), r.get("name"), cfg)
            occ = seen.get(base, 0)
            seen[base] = occ + 1
            key = base + (occ,)
            if key not in acc:
                acc[key] = (r, [])
                order.append(key)
            acc[key][1].append(float(r["duration_ns"]))
    out = []
    for key in order:
        r, d = acc[key]
        out.append((r, key[3], statistics.median(d), len(d)))
    return out


def write_measure_csv(path, rows, comment):
    fields = ["kind", "name", "occurrence", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
              "shared_bytes", "registers", "direction", "bytes", "runs", "duration_ns"]
    with open(path, "w", newline="") as f:
        f.write("# " + comment + "\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(fields)
        for r, occ, med, n in rows:
            vals = [r.get("kind"), r.get("name"), occ] + [r.get(k, "") for k in fields[3:13]] + [n, "%.0f" % med]
            w.writerow(vals)


def cmd_compare(emu_dir, gpu_dir, out):
    os.makedirs(out, exist_ok=True)
    emu_runs = {r["label"]: r for r in _json_or(os.path.join(emu_dir, "runs.json"), [])}
    # A run split over several device calls (--steps) comes back as several
    # folders: a program's plain run from one, its ncu rows from another.
    gpu_dirs = [d for d in gpu_dir.split(",") if d]
    gpu_runs, cupti, ncu = {}, {}, {}
    for d in gpu_dirs:
        for r in _json_or(os.path.join(d, "runs.json"), []):
            have = gpu_runs.get(r["label"])
            if have is None or (have.get("status") == "not run" and r.get("status") != "not run"):
                gpu_runs[r["label"]] = r
        path = os.path.join(d, "cupti.csv")
        if os.path.exists(path):
            with open(path) as f:
                base = {lab: len(v) for lab, v in cupti.items()}
                for r in csv.DictReader(f):
                    run_no = base.get(r["label"], 0) + int(r["run"])
                    cupti.setdefault(r["label"], {}).setdefault(run_no, []).append(r)
        path = os.path.join(d, "ncu.csv")
        if os.path.exists(path):
            with open(path) as f:
                for r in csv.DictReader(f):
                    if r["label"] != "(unit)":
                        ncu.setdefault(r["label"], []).append(r)
    gpu_dir = gpu_dirs[0] if gpu_dirs else gpu_dir
    emu_launches = {}
    path = os.path.join(emu_dir, "launches.csv")
    if os.path.exists(path):
        with open(path) as f:
            for r in csv.DictReader(f):
                emu_launches.setdefault(r["label"], []).append(r)
    meta = _json_or(os.path.join(gpu_dir, "metadata.json"), {})
    gpu_name = meta.get("gpu", {}).get("name", "GPU")
    measured_dir = os.path.join(out, "measured")
    os.makedirs(measured_dir, exist_ok=True)
    lines = ["# Emulator against %s" % gpu_name, "",
             "Emulated reference: `%s`; GPU run: `%s`." % (emu_dir, "`, `".join(gpu_dirs)), "",
             "| label | exit (emu / GPU) | output | launches (emu / CUPTI) | kernels in order | "
             "warp insts SASS/PTX (ncu launches) | median kernel time (CUPTI) |",
             "|---|---|---|---|---|---|---|"]
    failures = 0
    details = []
    sweeps = []
    for lab in sorted(set(emu_runs) | set(gpu_runs)):
        e, g = emu_runs.get(lab), gpu_runs.get(lab)
        if e is None and g is not None and g.get("sweep"):
            runs = [cupti[lab][k] for k in sorted(cupti.get(lab, {}))]
            med = median_measure_rows(runs)
            if med:
                write_measure_csv(os.path.join(measured_dir, lab + ".csv"), med,
                                  "measured on %s by tools/gpu-ground-truth.sh, sweep point %s (saxpy2 %s)"
                                  % (gpu_name, lab, " ".join(g.get("args", []))))
                sweeps.append(lab)
            continue
        if e is None or g is None:
            lines.append("| %s | %s | only %s | | | | |" % (lab, "-", "GPU" if e is None else "emulator"))
            continue
        ok_exit = e.get("exit_code") == g.get("exit_code")
        diffs = compare_outputs(e.get("stdout"), g.get("stdout"))
        if not ok_exit or diffs:
            failures += 1
            details.append((lab, ([] if ok_exit else ["exit status %s under the emulator, %s on the GPU" % (
                e.get("exit_code"), g.get("exit_code"))]) + diffs))
        runs = [cupti[lab][k] for k in sorted(cupti.get(lab, {}))]
        kern_gpu = [r for r in (runs[0] if runs else []) if r["kind"] == "kernel"]
        kern_emu = emu_launches.get(lab, [])
        same_order = [r["name"] for r in kern_gpu] == [r["kernel"] for r in kern_emu]
        # Warp-level instructions: ncu's executed SASS against the emulator's
        # executed PTX, launch by launch in order (ncu may cover a prefix).
        ratio = "-"
        nrows = ncu.get(lab, [])
        if nrows and kern_emu:
            s_sass = s_ptx = 0.0
            for nr, er in zip(nrows, kern_emu):
                v = nr.get("smsp__inst_executed.sum", "").replace(",", "")
                try:
                    s_sass += float(v)
                    s_ptx += float(er["warp_instructions"])
                except ValueError:
                    pass
            if s_ptx > 0:
                ratio = "%.3f (%d)" % (s_sass / s_ptx, min(len(nrows), len(kern_emu)))
        med = median_measure_rows(runs)
        if med:
            write_measure_csv(os.path.join(measured_dir, lab + ".csv"), med,
                              "measured on %s by tools/gpu-ground-truth.sh, label %s, %d runs (median)"
                              % (gpu_name, lab, len(runs)))
        ktime = sum(m for r, occ, m, n in med if r.get("kind") == "kernel")
        lines.append("| %s | %s / %s | %s | %d / %d | %s | %s | %s |" % (
            lab, e.get("exit_code"), g.get("exit_code"), "same" if not diffs else "**differs**",
            len(kern_emu), len(kern_gpu), "same" if same_order else "differs", ratio,
            ("%.1f us" % (ktime / 1000.0)) if med else "-"))
    lines.append("")
    if sweeps:
        lines.append("saxpy2 sweep points measured (no emulated counterpart): %d, in `measured/`." % len(sweeps))
        lines.append("")
    if details:
        lines.append("## Differences")
        lines.append("")
        for lab, ds in details:
            lines.append("- **%s**: %s" % (lab, "; ".join(ds[:10])))
        lines.append("")
    lines.append("Integers and words of every output line must be identical; floating-point numbers are left to "
                 "each program's own check (it prints PASSED only within its tolerance); the timing fields of "
                 "RESULT lines (%s) are not compared. `measured/LABEL.csv` holds each program's CUPTI "
                 "medians in the format of `warpscope-cli measurements import`." % ", ".join(sorted(TIMING_KEYS)))
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failures else 0

# ---------------------------------------------------------------------------


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == "count-ptx" and len(args) == 2:
        write_instruction_rows(args[0], "ptx", count_ptx(read_text(args[1]) or ""), sys.stdout)
        return 0
    if cmd == "count-sass" and len(args) == 2:
        write_instruction_rows(args[0], "sass", count_sass(read_text(args[1]) or ""), sys.stdout)
        return 0
    if cmd == "filter-metrics" and len(args) == 2:
        kept, dropped = filter_metrics(args[0], [m for m in args[1].split(",") if m])
        for m in dropped:
            print("gpu-ground-truth: ncu does not know %s; left out" % m, file=sys.stderr)
        print(",".join(kept))
        return 0
    if cmd == "probe-metrics" and len(args) >= 4:
        # probe-metrics NCU LOG M1,M2,... PROGRAM [ARGS...]
        with open(args[1], "a") as log:
            kept, dropped = probe_metrics(args[0], [m for m in args[2].split(",") if m], args[3:], log)
        for m in dropped:
            print("gpu-ground-truth: ncu rejected %s on a test launch; left out" % m, file=sys.stderr)
        print(",".join(kept))
        return 0
    if cmd == "collect" and len(args) in (2, 3):
        dry = len(args) == 3 and args[2] == "--dry-run"
        rc = cmd_collect(args[0], args[1], dry)
        print_summary(args[1])
        return rc
    if cmd == "emulated-collect" and len(args) == 2:
        return cmd_emulated_collect(args[0], args[1])
    if cmd == "compare" and len(args) == 3:
        return cmd_compare(args[0], args[1], args[2])
    if cmd == "summary" and len(args) == 1:
        print_summary(args[0])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
