#!/usr/bin/env python3
"""tools/gpu-ground-truth.sh without a GPU (issue 25), in TAP.

The instruction counters on PTX and SASS text, the packing of a GPU run and
its comparison with an emulated reference on hand-made work folders, the
usage errors and the no-GPU exit code, and, where nvcc is found, the real
--dry-run on saxpy2 and vstream (compiled for sm_90) and the emulated
reference of saxpy2 (needs warpscope-cli, $WS_CLI).  Data here are
synthetic; nothing claims to be measured."""

import csv
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import traceback

SRC = os.environ.get("WS_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(SRC, "tools", "gpu-ground-truth.sh")
NVCC = os.environ.get("WS_NVCC", "")
CLI = os.environ.get("WS_CLI", "")

spec = importlib.util.spec_from_file_location("ggt", os.path.join(SRC, "tools", "gpu-ground-truth.py"))
ggt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ggt)

TESTS = []


def case(name, needs=None):
    def wrap(f):
        TESTS.append((name, f, needs))
        return f
    return wrap


def env_with_nvcc():
    env = dict(os.environ)
    env.pop("OUT", None)
    if NVCC:
        env["PATH"] = os.path.dirname(NVCC) + os.pathsep + env.get("PATH", "")
    return env


def run(args, **kw):
    return subprocess.run([SCRIPT] + args, capture_output=True, text=True, env=env_with_nvcc(), **kw)


def by_opcode(counts, kernel):
    out = {}
    for key, n in counts.items():
        if key[0] == kernel:
            out[key[1]] = out.get(key[1], 0) + n
    return out


# ---------------------------------------------------------------------------

PTX = r"""
.version 9.0
.target sm_90
.address_size 64
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[4] = {37, 100, 10};

.visible .entry _Z1kPfS_i(
	.param .u64 _Z1kPfS_i_param_0,
	.param .u64 _Z1kPfS_i_param_1,
	.param .u32 _Z1kPfS_i_param_2
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<9>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<9>;
	// demoted variable
	.shared .align 4 .b8 _ZZ1kE1s[1024];

	ld.param.u64 	%rd1, [_Z1kPfS_i_param_0];
	mov.u32 	%r1, %tid.x;
	setp.ge.s32 	%p1, %r1, 5;
	@%p1 bra 	$L__BB0_2;

$L__BB0_1:
	ld.global.nc.f32 	%f1, [%rd1];
	fma.rn.f32 	%f2, %f1, %f1, %f1;
	ex2.approx.ftz.f32 	%f3, %f2;
	div.rn.f64 	%fd1, %fd2, %fd3;
	st.shared.f32 	[%r2], %f3;
	bar.sync 	0;
	atom.shared.add.u32 	%r3, [%r2], 1;
	red.global.add.f32 	[%rd1], %f3;
	shfl.sync.down.b32 	%r4|%p2, %r3, 1, 31, -1;
	// begin inline asm
	{  cvt.rn.f16.f32 %rs1, %f3;}

	// end inline asm
	mov.b64 	{%r5, %r6}, %rd1;
	@!%p2 bra.uni 	$L__BB0_1;

$L__BB0_2:
	{ // callseq 0, 0
	.param .b64 param0;
	st.param.b64 	[param0], %rd1;
	.param .b32 retval0;
	call.uni (retval0),
	vprintf,
	(
	param0
	);
	} // callseq 0
	ret;

}
"""


@case("/tools/gpu-ground-truth/ptx-counts")
def test_ptx():
    counts = ggt.count_ptx(PTX)
    ops = by_opcode(counts, "_Z1kPfS_i")
    expect = {"ld.param.u64": 1, "mov.u32": 1, "setp.ge.s32": 1, "bra": 1, "ld.global.nc.f32": 1,
              "fma.rn.f32": 1, "ex2.approx.ftz.f32": 1, "div.rn.f64": 1, "st.shared.f32": 1, "bar.sync": 1,
              "atom.shared.add.u32": 1, "red.global.add.f32": 1, "shfl.sync.down.b32": 1,
              "cvt.rn.f16.f32": 1, "mov.b64": 1, "bra.uni": 1, "st.param.b64": 1, "call.uni": 1, "ret": 1}
    assert ops == expect, ops
    # The extern declaration of vprintf has no body.
    assert not any(k[0] == "vprintf" for k in counts), counts
    classes = {op: ggt.ptx_class(op) for op in ops}
    assert classes["fma.rn.f32"] == "fp32"
    assert classes["div.rn.f64"] == "fp64"
    assert classes["ex2.approx.ftz.f32"] == "sfu"
    assert classes["ld.global.nc.f32"] == "ld_global"
    assert classes["st.shared.f32"] == "st_shared"
    assert classes["atom.shared.add.u32"] == "atomic_shared"
    assert classes["red.global.add.f32"] == "atomic_global"
    assert classes["setp.ge.s32"] == "int"
    assert classes["bra.uni"] == "branch" and classes["call.uni"] == "branch"
    assert classes["bar.sync"] == "barrier"
    assert classes["shfl.sync.down.b32"] == "warp"
    assert classes["st.param.b64"] == "param"
    assert ggt.ptx_class("setp.lt.f32") == "fp32"
    assert ggt.ptx_class("ld.local.u32") == "ld_local"
    assert ggt.ptx_class("st.global.v4.f32") == "st_global"
    assert ggt.ptx_class("ld.shared::cta.u32") == "ld_shared"
    assert ggt.ptx_class("ld.u32") == "ld_generic"
    assert ggt.ptx_class("atom.add.u64") == "atomic_generic"
    assert ggt.ptx_class("ld.const.f32") == "ld_const"
    assert ggt.ptx_class("rcp.approx.ftz.f64") == "sfu"
    assert ggt.ptx_class("add.rn.f16x2") == "fp16"
    assert ggt.ptx_class("lop3.b32") == "int"
    assert set(classes.values()) <= set(ggt.CLASSES)


SASS = """
Fatbin elf code:
================
arch = sm_90
code version = [1,8]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _Z6saxpy2iiPfS_
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                             /* 0x00000a00ff017b82 */
                                                                                      /* 0x000fe40000000800 */
        /*0010*/                   S2R R0, SR_CTAID.X ;                               /* 0x0000000000007919 */
        /*0020*/                   ULDC UR4, c[0x0][0x210] ;
        /*0030*/                   IMAD R0, R0, UR4, R3 ;
        /*0040*/                   ISETP.GE.AND P0, PT, R0, UR4, PT ;
        /*0050*/               @P0 EXIT ;
        /*0060*/                   IMAD.MOV.U32 R5, RZ, RZ, RZ ;
        /*0070*/                   LDG.E R2, desc[UR4][R2.64] ;
.L_x_1:
        /*0080*/                   FADD R5, R2, R5 ;
        /*0090*/                   UIADD3 UR5, UR5, 0x1, URZ ;
        /*00a0*/              @!P1 BRA `(.L_x_1) ;
        /*00b0*/                   STG.E desc[UR4][R6.64], R5 ;
        /*00c0*/                   EXIT ;
.L_x_2:
        /*00d0*/                   BRA `(.L_x_2);
        /*00e0*/                   NOP;
        /*00f0*/                   NOP;
		..........

		Function : _Z5otherv
	.headerflags	@"EF_CUDA_SM90"
        /*0000*/                   MUFU.EX2 R0, R1 ;
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0020*/                   EXIT ;
        /*0030*/                   BRA 0x30;
"""


@case("/tools/gpu-ground-truth/sass-counts")
def test_sass():
    counts = ggt.count_sass(SASS)
    per = {}
    for (kernel, op, cls), n in counts.items():
        per.setdefault(kernel, {}).setdefault(cls, 0)
        per[kernel][cls] += n
    k = per["_Z6saxpy2iiPfS_"]
    assert k == {"ld_const": 2, "special": 1, "int": 3, "branch": 3, "move": 1, "ld_global": 1, "fp32": 1,
                 "st_global": 1, "padding": 3}, k
    assert per["_Z5otherv"] == {"sfu": 1, "barrier": 1, "branch": 1, "padding": 1}, per["_Z5otherv"]
    assert ggt.sass_class("DFMA") == "fp64"
    assert ggt.sass_class("ATOMS.ADD") == "atomic_shared"
    assert ggt.sass_class("LDS.U.128") == "ld_shared"
    assert ggt.sass_class("UMOV") == "move"
    assert ggt.sass_class("SHFL.DOWN") == "warp"
    assert ggt.sass_class("I2F.F64") == "convert"
    assert ggt.sass_class("FANCYNEW") == "other"


@case("/tools/gpu-ground-truth/filter-metrics")
def test_filter():
    with tempfile.TemporaryDirectory() as d:
        q = os.path.join(d, "q.txt")
        with open(q, "w") as f:
            f.write("Device NVIDIA H100\n---------\nMetric Name   Metric Type  Metric Unit  Metric Description\n")
            for i in range(60):
                f.write("sm__filler_%d Counter cycle filler\n" % i)
            f.write("gpu__time_duration Counter nsecond duration\n")
            f.write("smsp__average_warps_issue_stalled_wait_per_issue_active Ratio  stalls\n")
        kept, dropped = ggt.filter_metrics(q, ["gpu__time_duration.sum", "launch__grid_size",
                                               "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
                                               "smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio"])
        assert kept == ["gpu__time_duration.sum", "launch__grid_size",
                        "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"], kept
        assert dropped == ["smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio"], dropped
        # An empty or failed query keeps every metric.
        kept, dropped = ggt.filter_metrics(os.path.join(d, "absent.txt"), ["a__b.sum"])
        assert kept == ["a__b.sum"] and dropped == []


@case("/tools/gpu-ground-truth/probe-metrics")
def test_probe():
    with tempfile.TemporaryDirectory() as d:
        # A stand-in for ncu that rejects two names, one of them silently.
        fake = os.path.join(d, "ncu")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\n'
                    'case "$*" in *bad__named*) echo "==ERROR== Failed to find metric bad__named.sum" >&2; exit 1 ;; esac\n'
                    'case "$*" in *bad__silent*) exit 1 ;; esac\n'
                    'echo \'"ID","Kernel Name"\'; echo \'"0","k"\'\n')
        os.chmod(fake, 0o755)
        metrics = ["a__x.sum", "bad__named.sum", "b__y.avg"] + ["c__%d.sum" % i for i in range(12)] + ["bad__silent.pct"]
        with open(os.path.join(d, "log"), "w") as log:
            kept, dropped = ggt.probe_metrics(fake, metrics, ["true"], log)
        assert dropped == ["bad__named.sum", "bad__silent.pct"], dropped
        assert kept == [m for m in metrics if not m.startswith("bad__")], kept
        with open(os.path.join(d, "log"), "w") as log:
            assert ggt.probe_metrics(fake, ["a__x.sum"], ["true"], log) == (["a__x.sum"], [])


@case("/tools/gpu-ground-truth/usage-errors")
def test_usage():
    for args, what in ((["--budget", "ten"], "--budget"), (["--only", "nosuchprogram", "--dry-run"], "nosuchprogram"),
                       (["--frobnicate"], "unknown option"), (["--runs"], "--runs")):
        r = run(args)
        assert r.returncode == 2, (args, r.returncode, r.stderr)
        assert what in r.stderr, (args, r.stderr)
    r = run(["--help"])
    assert r.returncode == 0 and "--dry-run" in r.stdout


def nvidia_gpu_present():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    r = subprocess.run([smi, "-L"], capture_output=True, text=True)
    return r.returncode == 0 and "GPU " in r.stdout


@case("/tools/gpu-ground-truth/no-gpu-exit-3", needs="nogpu")
def test_no_gpu():
    with tempfile.TemporaryDirectory() as d:
        r = run(["--only", "saxpy2", "-o", os.path.join(d, "out")])
        assert r.returncode == 3, (r.returncode, r.stderr)
        assert "no NVIDIA GPU" in r.stderr and "--dry-run" in r.stderr, r.stderr


def make_fake_gpu_work(w):
    """A work folder as a GPU run leaves it: two programs, one sweep point."""
    for sub in ("meta", "run", "cupti", "ncu", "ptx", "sass", "calibrate"):
        os.makedirs(os.path.join(w, sub), exist_ok=True)
    with open(os.path.join(w, "programs.tsv"), "w") as f:
        f.write("saxpy2\texamples/saxpy2.cu\tsaxpy2\t\n")
        f.write("vroofline\texamples/validation/vroofline.cu\tvroofline\tm=8\tns=0,1\n")
    with open(os.path.join(w, "sweeps.tsv"), "w") as f:
        f.write("saxpy2-ci-4\texamples/saxpy2.cu\tsaxpy2\t10000000\t4\t256\t0\n")
    with open(os.path.join(w, "commands.sh"), "w") as f:
        f.write("# fake\n")
    with open(os.path.join(w, "meta", "options.env"), "w") as f:
        f.write("budget_s=1100\nelapsed_s=321\nruns=3\nncu_launch_count=60\nbuild_flags=-O2 -arch=sm_90\n")
    with open(os.path.join(w, "meta", "nvidia-smi-query.csv"), "w") as f:
        f.write("name, driver_version, clocks.sm [MHz], clocks.max.sm [MHz]\n"
                "NVIDIA H100 80GB HBM3, 580.159.04, 1980 MHz, 1980 MHz\n")
    with open(os.path.join(w, "meta", "nvidia-smi.txt"), "w") as f:
        f.write("| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0 |\n")
    with open(os.path.join(w, "meta", "nvcc.txt"), "w") as f:
        f.write("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\n")
    steps = [(1, "run", "saxpy2", "ok", 0, 0.4), (2, "run", "vroofline", "ok", 0, 0.5),
             (3, "cupti", "saxpy2", "ok", 0, 0.5), (4, "cupti", "saxpy2", "ok", 0, 0.5),
             (5, "cupti", "saxpy2", "ok", 0, 0.5), (6, "calibrate", "ws-calibrate", "ok", 0, 50.0),
             (7, "sweep", "saxpy2-ci-4", "ok", 0, 2.0), (8, "ncu", "saxpy2", "ok", 0, 4.0),
             (9, "ncu", "vroofline", "skipped-budget", None, None)]
    with open(os.path.join(w, "steps.tsv"), "w") as f:
        for s in steps:
            f.write("\t".join("-" if v is None else str(v) for v in s) + "\n")
    with open(os.path.join(w, "run", "saxpy2.stdout"), "w") as f:
        f.write("saxpy2: N=16384 computeIntensity=16 blockSize=256 grid=64 shMem=0\nPASSED\n")
    with open(os.path.join(w, "run", "vroofline.stdout"), "w") as f:
        f.write("RESULT n=0 flop_per_byte=0.2500 ms=0.011000 GFlops=100.000 GBps=400.000\n"
                "RESULT n=1 flop_per_byte=0.5000 ms=0.012000 GFlops=190.000 GBps=380.000\nPASSED\n")
    with open(os.path.join(w, "run", "saxpy2-ci-4.stdout"), "w") as f:
        f.write("PASSED\n")
    header = "kind,name,grid_x,grid_y,grid_z,block_x,block_y,block_z,shared_bytes,registers,direction,bytes,runs,duration_ns\n"
    with open(os.path.join(w, "cupti", "saxpy2.csv"), "w") as f:
        for i, d in enumerate((3000, 3400, 3100)):
            f.write("# raw run recorded by the warpscope CUPTI injection library; 3 records, 0 dropped\n")
            if i == 0:
                f.write(header)
            f.write("memcpy,memcpy,,,,,,,,,HtoD,65536,1,%d\n" % (5000 + i))
            f.write("kernel,_Z6saxpy2iiPfS_,64,1,1,256,1,1,0,8,,,1,%d\n" % d)
            f.write("memcpy,memcpy,,,,,,,,,DtoH,65536,1,%d\n" % (6000 + i))
    with open(os.path.join(w, "cupti", "saxpy2-ci-4.csv"), "w") as f:
        f.write("# raw run recorded by the warpscope CUPTI injection library; 1 records, 0 dropped\n" + header)
        f.write("kernel,_Z6saxpy2iiPfS_,39063,1,1,256,1,1,0,8,,,1,41000\n")
    with open(os.path.join(w, "ncu", "saxpy2.csv"), "w") as f:
        f.write('==PROF== Connected to process\n')
        f.write('"ID","Process ID","Kernel Name","gpu__time_duration.sum","smsp__inst_executed.sum"\n')
        f.write('"","","","ns","inst"\n')
        f.write('"0","123","_Z6saxpy2iiPfS_","3520","41984"\n')
    with open(os.path.join(w, "calibrate", "ws-calibrate.out"), "w") as f:
        f.write("l1_latency 33.5\nfp32_latency 4.1\npcie HtoD 4096 0.000011\n")
    with open(os.path.join(w, "ptx", "saxpy2.csv"), "w") as f:
        f.write("saxpy2,_Z6saxpy2iiPfS_,ptx,fp32,add.f32,2\n")
    with open(os.path.join(w, "sass", "saxpy2.csv"), "w") as f:
        f.write("saxpy2,_Z6saxpy2iiPfS_,sass,fp32,FADD,2\n")
    # Bulk that must not make raw.tar.gz exceed its limit (tested below).
    with open(os.path.join(w, "ncu", "saxpy2.ncu-rep"), "wb") as f:
        f.write(os.urandom(300000))


def make_fake_emulated(d, saxpy2_stdout, vroofline_exit=0):
    os.makedirs(d, exist_ok=True)
    runs = [{"label": "saxpy2", "exit_code": 0, "stdout": saxpy2_stdout},
            {"label": "vroofline", "exit_code": vroofline_exit,
             "stdout": "RESULT n=0 flop_per_byte=0.2500 ms=1234.5 GFlops=0.001 GBps=0.002\n"
                       "RESULT n=1 flop_per_byte=0.5000 ms=2345.6 GFlops=0.001 GBps=0.002\nPASSED\n"}]
    with open(os.path.join(d, "runs.json"), "w") as f:
        json.dump(runs, f)
    with open(os.path.join(d, "launches.csv"), "w") as f:
        f.write("label,launch,kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,dynamic_shared_bytes,"
                "thread_blocks,warp_instructions,thread_instructions,memory_instructions,global_requests,"
                "shared_accesses,barriers\n")
        f.write("saxpy2,0,_Z6saxpy2iiPfS_,64,1,1,256,1,1,0,64,46592,1441792,1536,6144,0,0\n")


@case("/tools/gpu-ground-truth/collect-and-compare")
def test_collect_compare():
    with tempfile.TemporaryDirectory() as d:
        w, out = os.path.join(d, "work"), os.path.join(d, "out")
        make_fake_gpu_work(w)
        # A limit below the size of the fake report: the .ncu-rep goes first.
        left = ggt.pack_raw(w, os.path.join(d, "small.tar.gz"), limit=200000)
        assert left == ["ncu-rep"], left
        rc = ggt.cmd_collect(w, out)
        assert rc == 0
        files = sorted(os.listdir(out))
        assert files == sorted(["README.md", "metadata.json", "commands.sh", "instructions.csv", "runs.json",
                                "cupti.csv", "ncu.csv", "raw.tar.gz"]), files
        with open(os.path.join(out, "cupti.csv")) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 10, len(rows)
        k = [r for r in rows if r["label"] == "saxpy2" and r["kind"] == "kernel"]
        assert [r["run"] for r in k] == ["1", "2", "3"] and [r["duration_ns"] for r in k] == ["3000", "3400", "3100"]
        with open(os.path.join(out, "ncu.csv")) as f:
            rows = list(csv.reader(f))
        assert rows[0][:3] == ["label", "ID", "Process ID"] and rows[1][0] == "(unit)", rows[:2]
        assert rows[2][0] == "saxpy2" and rows[2][-1] == "41984", rows[2]
        meta = json.load(open(os.path.join(out, "metadata.json")))
        assert meta["gpu"]["name"] == "NVIDIA H100 80GB HBM3" and meta["gpu"]["clocks.sm"] == "1980 MHz", meta["gpu"]
        assert meta["gpu"]["cuda_driver_version"] == "13.0"
        assert meta["calibration"]["l1_latency"] == "33.5" and meta["calibration"]["pcie HtoD 4096"] == "0.000011"
        assert meta["sweeps"] == [{"label": "saxpy2-ci-4", "N": 10000000, "compute_intensity": 4,
                                   "block_size": 256, "shared_bytes": 0}]
        assert meta["tools"]["nvcc"] == "Cuda compilation tools, release 13.0, V13.0.88"
        runs = {r["label"]: r for r in json.load(open(os.path.join(out, "runs.json")))}
        assert runs["saxpy2"]["exit_code"] == 0 and runs["saxpy2"]["stdout"].endswith("PASSED\n")
        assert len(runs["saxpy2"]["cupti_runs"]) == 3 and runs["vroofline"]["ncu"]["status"] == "skipped-budget"
        assert runs["saxpy2-ci-4"]["sweep"] and runs["saxpy2-ci-4"]["status"] == "ok"
        readme = open(os.path.join(out, "README.md")).read()
        for want in ("NVIDIA H100 80GB HBM3", "580.159.04", "1980 MHz", "`raw.tar.gz`", "skipped-budget"):
            assert want in readme, want

        # Equivalent outputs: timing fields and floats differ, words and integers do not.
        emu = os.path.join(d, "emu")
        make_fake_emulated(emu, "saxpy2: N=16384 computeIntensity=16 blockSize=256 grid=64 shMem=0\nPASSED\n")
        cmp_dir = os.path.join(d, "cmp")
        with open(os.devnull, "w") as null:
            old, sys.stdout = sys.stdout, null
            try:
                rc = ggt.cmd_compare(emu, out, cmp_dir)
            finally:
                sys.stdout = old
        assert rc == 0, open(os.path.join(cmp_dir, "report.md")).read()
        report = open(os.path.join(cmp_dir, "report.md")).read()
        assert "| saxpy2 | 0 / 0 | same | 1 / 1 | same | 0.901 (1) | 3.1 us |" in report, report
        with open(os.path.join(cmp_dir, "measured", "saxpy2.csv")) as f:
            lines = [l for l in f if not l.startswith("#")]
        rows = list(csv.DictReader(lines))
        assert [(r["kind"], r["direction"], r["occurrence"], r["runs"], r["duration_ns"]) for r in rows] == [
            ("memcpy", "HtoD", "0", "3", "5001"), ("kernel", "", "0", "3", "3100"),
            ("memcpy", "DtoH", "0", "3", "6001")], rows

        # A run split over two device calls: both folders' CUPTI runs count.
        with open(os.devnull, "w") as null:
            old, sys.stdout = sys.stdout, null
            try:
                rc = ggt.cmd_compare(emu, out + "," + out, cmp_dir)
            finally:
                sys.stdout = old
        assert rc == 0
        with open(os.path.join(cmp_dir, "measured", "saxpy2.csv")) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
        assert [r["runs"] for r in rows] == ["6", "6", "6"], rows
        assert os.path.exists(os.path.join(cmp_dir, "measured", "saxpy2-ci-4.csv"))

        # An integer that differs is a mismatch; so is an exit status.
        make_fake_emulated(emu, "saxpy2: N=16384 computeIntensity=16 blockSize=256 grid=65 shMem=0\nPASSED\n", 1)
        with open(os.devnull, "w") as null:
            old, sys.stdout = sys.stdout, null
            try:
                rc = ggt.cmd_compare(emu, out, cmp_dir)
            finally:
                sys.stdout = old
        report = open(os.path.join(cmp_dir, "report.md")).read()
        assert rc == 1
        assert "grid=65" in report and "exit status 1 under the emulator, 0 on the GPU" in report, report


@case("/tools/gpu-ground-truth/dry-run", needs="nvcc")
def test_dry_run():
    with tempfile.TemporaryDirectory() as d:
        out, work = os.path.join(d, "out"), os.path.join(d, "work")
        r = run(["--dry-run", "--only", "saxpy2,vstream", "--jobs", "2", "--work", work, "-o", out], timeout=900)
        assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
        files = sorted(os.listdir(out))
        assert files == ["README.md", "commands.sh", "instructions.csv", "metadata.json"], files
        for name in files:
            assert os.path.getsize(os.path.join(out, name)) < 16 * 1024 * 1024
        # The summary names both programs with their PTX totals.
        assert "saxpy2" in r.stdout and "vstream" in r.stdout, r.stdout
        # Really compiled for sm_90, with the CUPTI injection library.
        for b in ("saxpy2", "vstream", "ws-calibrate"):
            assert os.access(os.path.join(work, "bin", b), os.X_OK), b
        cmds = open(os.path.join(out, "commands.sh")).read()
        assert cmds.count("-arch=sm_90") >= 5, cmds[:2000]
        assert "-o $W/bin/saxpy2 " in cmds and "-ptx -o $W/ptx/vstream.ptx" in cmds
        ncu_lines = [l for l in cmds.splitlines() if " --metrics " in l]
        # One full profile per program, six occupancy-sweep profiles.
        assert len(ncu_lines) == 2 + 6, len(ncu_lines)
        full = [l for l in ncu_lines if '"$W/ncu/vstream"' in l][0]
        for m in ("gpu__time_duration.sum", "sm__cycles_elapsed.avg", "smsp__inst_executed.sum",
                  "sm__warps_active.avg.pct_of_peak_sustained_active", "l1tex__t_sector_hit_rate.pct",
                  "lts__t_sector_hit_rate.pct", "dram__bytes_read.sum", "dram__bytes_write.sum",
                  "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"):
            assert m in full, m
        for flag in ("--clock-control none", "--csv --page raw", "--launch-count 60",
                     "block_sizes=64,128,256,512,1024", "pollute=104857600"):
            assert flag in full, flag
        assert cmds.count("CUDA_INJECTION64_PATH=") == 3 * 2 + 25, cmds.count("CUDA_INJECTION64_PATH=")
        assert "-sass \"$W/bin/saxpy2\"" in cmds and '"$W/bin/ws-calibrate"' in cmds
        assert '"$W/bin/saxpy2" 10000000 4096 256 0' in cmds and '"$W/bin/saxpy2" 100000000 16 256 0' in cmds
        assert '"$W/bin/saxpy2" 10000000 16 32 49152' in cmds
        # PTX counts: saxpy2's kernel adds in its loop and once after it.
        with open(os.path.join(out, "instructions.csv")) as f:
            rows = list(csv.DictReader(f))
        sx = {r["opcode"]: int(r["count"]) for r in rows if r["program"] == "saxpy2" and r["source"] == "ptx"}
        assert sx.get("add.f32") == 2, sx
        assert sx.get("ld.global.f32") == 2 and sx.get("st.global.f32") == 1 and sx.get("ret") == 1, sx
        assert 20 <= sum(sx.values()) <= 60, sum(sx.values())
        assert {r["kernel"] for r in rows if r["program"] == "saxpy2"} == {"_Z6saxpy2iiPfS_"}
        vk = {r["kernel"] for r in rows if r["program"] == "vstream"}
        assert "_Z4readPdPKdS1_xi" in vk and len(vk) == 7, vk
        triad_fp64 = sum(int(r["count"]) for r in rows
                         if r["program"] == "vstream" and "triad" in r["kernel"] and r["class"] == "fp64")
        assert triad_fp64 >= 1, triad_fp64
        meta = json.load(open(os.path.join(out, "metadata.json")))
        assert meta["dry_run"] is True and meta["options"]["build_flags"] == "-O2 -arch=sm_90"
        assert meta["options"]["build_failed"] == ""
        kinds = {}
        for s in meta["steps"]:
            assert s["status"] == "planned", s
            kinds[s["kind"]] = kinds.get(s["kind"], 0) + 1
        assert kinds == {"run": 2, "cupti": 6, "sass": 2, "calibrate": 1, "sweep": 25, "ncu": 2, "ncu-sweep": 6,
                         "gpu-after": 1}, kinds
        assert len(meta["sweeps"]) == 25
        readme = open(os.path.join(out, "README.md")).read()
        assert "dry run" in readme and "-arch=sm_90" in readme


@case("/tools/gpu-ground-truth/dry-run-steps", needs="nvcc")
def test_dry_run_steps():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        r = run(["--dry-run", "--only", "saxpy2", "--steps", "ncu,ncu-sweep", "-o", out], timeout=600)
        assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
        meta = json.load(open(os.path.join(out, "metadata.json")))
        kinds = sorted({s["kind"] for s in meta["steps"]})
        assert kinds == ["gpu-after", "ncu", "ncu-sweep"], kinds
        assert meta["options"]["steps"] == "ncu,ncu-sweep"
        cmds = open(os.path.join(out, "commands.sh")).read()
        assert "ws-calibrate" not in cmds and "CUDA_INJECTION64_PATH=" not in cmds
        r = run(["--dry-run", "--steps", "run,bogus"])
        assert r.returncode == 2 and "bogus" in r.stderr, r.stderr


FAKE_TOOLS = {
    "nvidia-smi": """#!/bin/sh
case "$1" in
  -L) echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-fake)" ;;
  --query-gpu=*) echo "name, driver_version, clocks.sm [MHz]"; echo "NVIDIA H100 80GB HBM3, 580.159.04, 1980 MHz" ;;
  -q) echo "fake" ;;
  *) echo "| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0 |" ;;
esac
""",
    "ncu": """#!/bin/sh
case " $* " in
  *" --version "*) echo "Version 2025.3.1.0 (fake)"; exit 0 ;;
  *" --query-metrics "*) exit 0 ;;
  *" --import "*) echo '"ID","Kernel Name","smsp__inst_executed.sum"'; echo '"","","inst"'; echo '"0","_Z6saxpy2iiPfS_","41984"'; exit 0 ;;
esac
to=""; prev=""
for a in "$@"; do [ "$prev" = "--export" ] && to=$a; prev=$a; done
if [ -n "$to" ]; then echo fake > "$to.ncu-rep"; sleep "${FAKE_NCU_SLEEP:-0}"; exit 0; fi
echo '"ID","Kernel Name"'; echo '"0","k"'
""",
    "cuobjdump": """#!/bin/sh
case "$1" in
  --version) echo "Cuda compilation tools, release 13.0, V13.0.88 (fake)" ;;
  -sass) printf '\\t\\tFunction : _Z6saxpy2iiPfS_\\n        /*0000*/    FADD R5, R2, R5 ;\\n        /*0010*/    EXIT ;\\n        /*0020*/    BRA 0x20;\\n' ;;
  *) echo "Resource usage: fake" ;;
esac
""",
}


FAKE_RUN_BUDGET = 150


def toolkit_root(nvcc):
    """The CUDA toolkit folder of NVCC.  The folder above nvcc's where that is
    a toolkit; else (nvcc a wrapper script, as /usr/local/bin/nvcc on the CI
    machine, which then found no CUPTI) the TOP nvcc reports in a --dryrun."""
    top = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.isfile(os.path.join(top, "bin", "nvcc.profile")):
        return top
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "probe.cu")
        open(src, "w").close()
        r = subprocess.run([nvcc, "--dryrun", "-c", "-o", os.path.join(d, "probe.o"), src],
                           capture_output=True, text=True)
    tops = [line.split("=", 1)[1] for line in (r.stdout + r.stderr).splitlines() if line.startswith("#$ TOP=")]
    assert tops, "nvcc --dryrun named no TOP: " + r.stderr[-500:]
    return os.path.realpath(tops[0])


@case("/tools/gpu-ground-truth/fake-gpu-run", needs="nvcc")
def test_fake_gpu_run():
    """The GPU run's control flow with stand-ins for nvidia-smi, ncu and
    cuobjdump (the programs themselves find no GPU and fail, which is
    recorded): eight files, a step cut by the budget, the rest skipped."""
    with tempfile.TemporaryDirectory() as d:
        bindir = os.path.join(d, "fakebin")
        os.makedirs(bindir)
        for name, text in FAKE_TOOLS.items():
            with open(os.path.join(bindir, name), "w") as f:
                f.write(text)
            os.chmod(os.path.join(bindir, name), 0o755)
        # The budget counts the builds, and nvcc under a parallel test run
        # can take a minute (CI: the ncu step was left under 5 s and skipped,
        # not cut).  So saxpy2 is built here, before the clock starts, with
        # the script's own flags, and a stand-in nvcc hands those files out
        # (anything else goes to the real nvcc).  The steps then get
        # FAKE_RUN_BUDGET - 40 (reserve) s less the rest of the set-up, and
        # the fake ncu outlasts them.  CI failed this once more with a 60 s
        # budget (20 s for the steps; cause not in the log it kept), and a
        # 75 s budget was still close: 150 s leaves over 100 s of margin
        # under load before the ncu step would be skipped (< 5 s left)
        # instead of cut.  The test sleeps most of that time (no CPU).
        cache = os.path.join(d, "prebuilt")
        os.makedirs(cache)
        src = os.path.join(SRC, "examples", "saxpy2.cu")
        for extra, name in (([], "saxpy2"), (["-ptx"], "saxpy2.ptx")):
            b = subprocess.run([NVCC, "-O2", "-arch=sm_90"] + extra + ["-o", os.path.join(cache, name), src],
                               capture_output=True, text=True)
            assert b.returncode == 0, b.stderr
        # The stand-in lives in a toolkit folder of its own whose other parts
        # (CUPTI, headers, libraries) are the real toolkit's: the script
        # finds them beside nvcc.
        toolkit = os.path.join(d, "cuda")
        real_root = toolkit_root(NVCC)
        os.makedirs(os.path.join(toolkit, "bin"))
        for part in os.listdir(real_root):
            if part != "bin":
                os.symlink(os.path.join(real_root, part), os.path.join(toolkit, part))
        with open(os.path.join(toolkit, "bin", "nvcc"), "w") as f:
            f.write('#!/bin/sh\nout=""; prev=""\n'
                    'for a in "$@"; do [ "$prev" = "-o" ] && out=$a; prev=$a; done\n'
                    'if [ -n "$out" ] && [ -f "$FAKE_NVCC_CACHE/${out##*/}" ]; then\n'
                    '  exec cp "$FAKE_NVCC_CACHE/${out##*/}" "$out"\nfi\n'
                    'exec %s "$@"\n' % shlex.quote(NVCC))
        os.chmod(os.path.join(toolkit, "bin", "nvcc"), 0o755)
        env = env_with_nvcc()
        env["PATH"] = os.pathsep.join([bindir, os.path.join(toolkit, "bin"), env["PATH"]])
        env["FAKE_NVCC_CACHE"] = cache
        env["FAKE_NCU_SLEEP"] = "600"
        env["OUT"] = os.path.join(d, "out")
        r = subprocess.run([SCRIPT, "--only", "saxpy2", "--runs", "1", "--no-calibrate", "--no-sweeps",
                            "--budget", str(FAKE_RUN_BUDGET), "--jobs", "2"], capture_output=True, text=True, env=env, timeout=300)
        log = r.stderr[-3000:]
        assert r.returncode == 0, (r.returncode, log)
        out = env["OUT"]
        files = sorted(os.listdir(out))
        assert files == sorted(["README.md", "metadata.json", "commands.sh", "instructions.csv", "runs.json",
                                "cupti.csv", "ncu.csv", "raw.tar.gz"]), (files, log)
        meta = json.load(open(os.path.join(out, "metadata.json")))
        status = {s["kind"]: s["status"] for s in meta["steps"]}
        assert set(status) == {"run", "cupti", "sass", "ncu", "gpu-after"}, status
        assert status["sass"] == "ok" and status["ncu"] == "timeout" and status["gpu-after"] == "skipped-budget", (status, log)
        assert int(meta["elapsed_s"]) < FAKE_RUN_BUDGET, (meta["elapsed_s"], log)
        assert meta["gpu"]["name"] == "NVIDIA H100 80GB HBM3" and meta["tools"]["ncu"] == "Version 2025.3.1.0 (fake)"
        with open(os.path.join(out, "instructions.csv")) as f:
            sass = [r for r in csv.DictReader(f) if r["source"] == "sass"]
        assert {(r["class"], r["count"]) for r in sass} == {("fp32", "1"), ("branch", "1"), ("padding", "1")}, (sass, log)
        # The profile that timed out still left its (partial) report.
        with tarfile.open(os.path.join(out, "raw.tar.gz")) as t:
            names = t.getnames()
        assert "raw/ncu/saxpy2.ncu-rep" in names and "raw/commands.sh" in names, (names, log)
        readme = open(os.path.join(out, "README.md")).read()
        assert "ncu saxpy2 (timeout)" in readme and "gpu-after nvidia-smi (skipped-budget)" in readme, (readme, log)


@case("/tools/gpu-ground-truth/emulated-reference", needs="cli")
def test_emulated():
    with tempfile.TemporaryDirectory() as d:
        ref = os.path.join(d, "ref")
        r = run(["--emulated-reference", ref, "--only", "saxpy2", "--jobs", "2", "--cli", CLI], timeout=600)
        assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
        runs = json.load(open(os.path.join(ref, "runs.json")))
        assert len(runs) == 1 and runs[0]["exit_code"] == 0 and runs[0]["stdout"].endswith("PASSED\n"), runs
        with open(os.path.join(ref, "launches.csv")) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) == 1 and rows[0]["kernel"] == "_Z6saxpy2iiPfS_", rows
        # examples/README.md: 64 thread blocks and 47 K warp instructions.
        assert rows[0]["thread_blocks"] == "64" and 40000 < int(rows[0]["warp_instructions"]) < 55000, rows[0]
        # The PTX counter agrees with the emulator's static instruction count.
        with open(os.path.join(ref, "instructions.csv")) as f:
            total = sum(int(r["count"]) for r in csv.DictReader(f) if r["source"] == "ptx")
        assert rows[0]["static_instructions"] == str(total), (rows[0]["static_instructions"], total)
        # An emulated reference compared with itself is equivalent.
        r = subprocess.run([SCRIPT, "--compare", ref, ref, "-o", os.path.join(d, "cmp")],
                           capture_output=True, text=True)
        assert r.returncode == 0 and "| saxpy2 | 0 / 0 | same |" in r.stdout, r.stdout + r.stderr


def main():
    skips = {"nvcc": None if NVCC and os.access(NVCC, os.X_OK) else "nvcc not found",
             "cli": None if (NVCC and CLI and os.access(CLI, os.X_OK)) else "nvcc or warpscope-cli not found",
             "nogpu": "an NVIDIA GPU is present" if nvidia_gpu_present() else None}
    print("TAP version 13")
    print("1..%d" % len(TESTS))
    failed = 0
    for i, (name, f, needs) in enumerate(TESTS, 1):
        why = skips.get(needs) if needs else None
        if why:
            print("ok %d %s # SKIP %s" % (i, name, why))
            continue
        try:
            f()
            print("ok %d %s" % (i, name))
        except Exception:
            failed += 1
            print("not ok %d %s" % (i, name))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
