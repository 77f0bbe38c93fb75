#!/usr/bin/env python3
"""Our engine against ONNX Runtime (and, with --peers ort,mnn, Alibaba's MNN from its pip package) in
one process, run by run: for each model and thread count it runs one inference of each engine per
round, rotating which engine goes first, and reports each engine's min and median, the ratio of the
medians and the median of the per-round ratios (ours / each peer). On a shared machine whose load comes and goes in phases of seconds, paired runs are the
fairest comparison: both engines see the same phase. One thread is the default and the meaningful
case: with several threads the two engines' pools share the process and its cores (ORT's workers
spin on after its run, on the core our worker needs: with ORT's defaults ours took 1.0-1.4x ORT's
time at 2 threads in one process on the 2-core Zen 3 VM, with --ort-spin 0 0.55-0.89x, session 29,
ORT itself slower without its spinning; before session 29 ours was slowed with ORT's spinning off
too: our sleeping worker woke on the caller's busy CPU, ThreadPool.hpp).
For several threads, --processes runs each engine in a worker process of
its own (this script with --worker), in turns: each round asks every worker for a burst of about
--burst-ms of back-to-back runs (after --lead-runs untimed ones, which absorb the previous engine's
spinning workers) and records the burst's median. (A pause between turns was tried: every engine's
next runs then came 20-50% slower, ours most, as caches and clocks went cold.) Writes
benchmark/results/paired_<stamp>.md.

usage: python3 benchmark/paired/paired_ort.py --shim BUILD/benchmark/paired/libmnn_paired_shim.so
           --convert BUILD/tools/converter/MNNConvert --corpus DIR_WITH_ONNX [--models a,b]
           [--threads 1] [--pairs 40] [--warmup 5] [--precision normal|high] [--peers ort,mnn]
           [--processes [--burst-ms 150] [--lead-runs 2]] [--ort-spin 1|0]
Setup: python3 -m pip install "onnxruntime==1.30.*" numpy (the shim is built with MNN_BUILD_SHARED);
for mnn also python3 -m pip install MNN (its mnnconvert converts the ONNX file; its library lives
beside ours in the process: the shim's symbols are hidden behind its C entry points).
"""
import argparse, ctypes, datetime, os, platform, statistics, subprocess, sys, tempfile, time

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
PRECISION = {"normal": 0, "high": 1, "low": 2}


def ort_session(onnx, threads, spin=True):
    so = ort.SessionOptions()
    if not spin:
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(onnx, so, providers=["CPUExecutionProvider"])
    feeds = {}
    for inp in sess.get_inputs():
        shape = [d if isinstance(d, int) and d > 0 else 1 for d in inp.shape]
        n = int(np.prod(shape))
        feeds[inp.name] = (((np.arange(n) * 7919) % 255) / 255.0 - 0.5).astype(np.float32).reshape(shape)
    return sess, feeds


def mnn_session(a, onnx, threads):
    """Alibaba's MNN (pip package MNN) on the CPU at precision normal, as benchmark/peers/mnn_bench.py"""
    import shutil
    import MNN
    out = os.path.join(a.cache, os.path.splitext(os.path.basename(onnx))[0] + ".alibaba.mnn")
    if not os.path.exists(out):
        tool = shutil.which("mnnconvert") or shutil.which("MNNConvert")
        subprocess.run([tool, "-f", "ONNX", "--modelFile", onnx, "--MNNModel", out, "--bizCode", "bench"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    net = MNN.Interpreter(out)
    session = net.createSession({"backend": "CPU", "numThread": threads, "precision": "normal"})
    inp = net.getSessionInput(session)
    shape = [d if d > 0 else 1 for d in inp.getShape()]
    n = int(np.prod(shape))
    x = (((np.arange(n) * 7919) % 255) / 255.0 - 0.5).astype(np.float32).reshape(shape)
    inp.copyFrom(MNN.Tensor(tuple(shape), MNN.Halide_Type_Float, x, MNN.Tensor_DimensionType_Caffe))
    return lambda: net.runSession(session), (net, session)


def open_shim(path):
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.pairedOpen.restype = ctypes.c_void_p
    lib.pairedOpen.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    lib.pairedRun.argtypes = [ctypes.c_void_p]
    lib.pairedClose.argtypes = [ctypes.c_void_p]
    return lib


def engine_run(a, lib, engine, onnx, mnn, threads, keep):
    """a function running one inference of the engine (ours: returns runSession's code)"""
    if engine == "ours":
        handle = lib.pairedOpen(mnn.encode(), threads, PRECISION[a.precision])
        if not handle:
            raise RuntimeError("our session for %s could not be created" % mnn)
        keep.append(lambda: lib.pairedClose(handle))
        return lambda: lib.pairedRun(handle)
    if engine == "ort":
        sess, feeds = ort_session(onnx, threads, a.ort_spin == 1)
        keep.append(sess)
        return lambda: sess.run(None, feeds)
    run, handles = mnn_session(a, onnx, threads)
    keep.append(handles)
    return run


def worker(a):
    """--worker ENGINE: one engine on a.worker_onnx / a.worker_mnn at a.worker_threads; each stdin
    line "run N" runs a.lead_runs untimed inferences, then N timed ones back to back, and is answered
    with the median of the N in milliseconds (or "error ..."); "quit" ends"""
    lib = open_shim(a.shim) if a.worker == "ours" else None
    keep = []
    fn = engine_run(a, lib, a.worker, a.worker_onnx, a.worker_mnn, a.worker_threads, keep)
    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        if len(words) != 2 or words[0] != "run":
            break
        for _ in range(a.lead_runs):
            fn()  # the other engine's pool may still spin: these runs absorb that
        ms, code = [], 0
        for _ in range(max(1, int(words[1]))):
            s = time.perf_counter()
            r = fn()
            ms.append((time.perf_counter() - s) * 1e3)
            if a.worker == "ours" and r != 0:
                code = r
        print("error runSession returned %d" % code if code else "ms %.6f" % statistics.median(ms), flush=True)
    if a.worker == "ours":
        keep[0]()


class ProcessEngine:
    """an engine in a worker process of its own: calling it runs a burst there, returns its median ms"""

    def __init__(self, a, engine, onnx, mnn, threads):
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", engine, "--worker-onnx", onnx,
               "--worker-mnn", mnn, "--worker-threads", str(threads), "--shim", a.shim, "--convert", a.convert,
               "--corpus", a.corpus, "--precision", a.precision, "--cache", a.cache, "--lead-runs", str(a.lead_runs),
               "--ort-spin", str(a.ort_spin)]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.answer(("ready",)) != "ready":
            raise RuntimeError("the %s worker did not start" % engine)

    def answer(self, prefixes):
        """the worker's next protocol line (the engine's own prints to stdout are skipped)"""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the worker ended")
            line = line.strip()
            if line.startswith("error"):
                raise RuntimeError(line)
            if line.startswith(prefixes):
                return line

    burst = 1

    def __call__(self):
        self.p.stdin.write("run %d\n" % self.burst)
        self.p.stdin.flush()
        return float(self.answer(("ms ",))[3:])

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()


def pair(a, lib, name, threads):
    onnx = os.path.join(a.corpus, name + ".onnx")
    mnn = os.path.join(a.cache, name + ".mnn")
    if not os.path.exists(mnn) or os.path.getmtime(mnn) < os.path.getmtime(a.convert):
        subprocess.run([a.convert, "-f", "ONNX", "--modelFile", onnx, "--MNNModel", mnn], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    keep = []
    if a.processes:
        engines = [(e, ProcessEngine(a, e, onnx, mnn, threads)) for e in ["ours"] + a.peers]
        try:
            for _, e in engines:
                warm = [e() for _ in range(a.warmup)]
                e.burst = max(3, int(round(a.burst_ms / max(0.01, statistics.median(warm)))))
        except Exception:
            for _, e in engines:
                e.close()
            raise
        return timed_rounds(a, engines, [e.close for _, e in engines], timed_inside=True)
    engines = [(e, engine_run(a, lib, e, onnx, mnn, threads, keep)) for e in ["ours"] + a.peers]
    return timed_rounds(a, engines, [keep[0]], timed_inside=False)


def timed_rounds(a, engines, closers, timed_inside):
    """warm-up, then a.pairs rounds of one run per engine (the first engine rotating)"""
    try:
        for _ in range(0 if timed_inside else a.warmup):
            for _, fn in engines:
                fn()
        times = {e: [] for e, _ in engines}
        for i in range(a.pairs):
            k = i % len(engines)
            for e, fn in engines[k:] + engines[:k]:
                s = time.perf_counter()
                r = fn()
                if timed_inside:
                    times[e].append(r)
                else:
                    times[e].append((time.perf_counter() - s) * 1e3)
                    if e == "ours" and r != 0:
                        raise RuntimeError("runSession returned %d" % r)
    finally:
        for c in closers:
            c()
    out = {"ours_min": min(times["ours"]), "ours_med": statistics.median(times["ours"])}
    for e, _ in engines[1:]:
        out[e + "_min"] = min(times[e])
        out[e + "_med"] = statistics.median(times[e])
        out[e + "_ratio"] = statistics.median([o / p for o, p in zip(times["ours"], times[e])])
    return out


def mnn_version():
    try:
        import MNN
        return MNN.version()
    except Exception:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--convert", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--models", default="mobilenet_v2,mobilenet_v3_large,resnet18,resnet50,squeezenet1_1,"
                    "shufflenet_v2_x1_0,efficientnet_b0,inception_v3")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--pairs", type=int, default=40)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--precision", default="normal", choices=sorted(PRECISION))
    ap.add_argument("--out", default=os.path.join(HERE, "..", "results"))
    ap.add_argument("--peers", default="ort", help="comma list of ort, mnn")
    ap.add_argument("--processes", action="store_true", help="each engine in a worker process of its own")
    ap.add_argument("--burst-ms", type=float, default=150.0, help="--processes: back-to-back runs per turn")
    ap.add_argument("--lead-runs", type=int, default=2, help="--processes: untimed runs before each burst")
    ap.add_argument("--ort-spin", type=int, default=1, choices=[0, 1],
                    help="0: ORT's intra-op workers do not spin after a run (session.intra_op.allow_spinning)")
    ap.add_argument("--cache", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--worker", choices=["ours", "ort", "mnn"], help=argparse.SUPPRESS)
    ap.add_argument("--worker-onnx", help=argparse.SUPPRESS)
    ap.add_argument("--worker-mnn", help=argparse.SUPPRESS)
    ap.add_argument("--worker-threads", type=int, default=1, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a)
        return
    a.peers = [p for p in a.peers.split(",") if p]
    if not a.peers or any(p not in ("ort", "mnn") for p in a.peers):
        raise SystemExit("--peers: a comma list of ort, mnn")
    lib = None if a.processes else open_shim(a.shim)
    a.cache = tempfile.mkdtemp(prefix="mnn-paired-")
    rows = []
    for name in a.models.split(","):
        for t in [int(x) for x in a.threads.split(",")]:
            try:
                r = pair(a, lib, name, t)
            except Exception as e:  # a failure is reported, never dropped
                r = {"error": str(e)[:200]}
            rows.append((name, t, r))
            print(name, t, r, flush=True)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    flags = next((l for l in open("/proc/cpuinfo") if l.startswith("flags")), "")
    isa = "AVX-512" if " avx512f" in flags else "AVX2" if " avx2" in flags else "SSE"
    stamp = datetime.datetime.utcnow().strftime("%Y-%m-%d_%H%M")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "paired_%s.md" % stamp)
    with open(path, "w") as f:
        names = {"ort": "ONNX Runtime " + ort.__version__, "mnn": "MNN (pip) " + mnn_version()}
        where = "each engine in a worker process of its own" if a.processes else "in one process"
        f.write("# Ours vs %s, paired runs %s (%s UTC)\n\n" % (" and ".join(names[p] for p in a.peers), where, stamp))
        if a.processes:
            f.write("%s (%s), %d cores; %d rounds (a turn of each engine, the first engine rotating: %d untimed "
                    "runs, then about %.0f ms of back-to-back runs whose median is the turn's time) after %d "
                    "warm-up turns of one run, precision %s. Min and median are over the turns.\n\n" %
                    (cpu, isa, os.cpu_count(), a.pairs, a.lead_runs, a.burst_ms, a.warmup, a.precision))
        else:
            f.write("%s (%s), %d cores; %d rounds (one run of each engine, the first engine rotating) after %d "
                    "warm-up runs each, precision %s.\n\n" % (cpu, isa, os.cpu_count(), a.pairs, a.warmup,
                                                              a.precision))
        if a.ort_spin == 0 and "ort" in a.peers:
            f.write("ORT's intra-op workers do not spin after a run (--ort-spin 0, not ORT's default).\n\n")
        cols = "| model | threads | ours min / median ms |"
        for p in a.peers:
            cols += " %s min / median ms | ours/%s (medians) | median of per-round ratios |" % (p.upper(), p.upper())
        f.write(cols + "\n|" + "---|" * (3 + 3 * len(a.peers)) + "\n")
        for name, t, r in rows:
            if "error" in r:
                f.write("| %s | %d | n/a (%s) |%s\n" % (name, t, r["error"], " |" * (3 * len(a.peers))))
                continue
            line = "| %s | %d | %.2f / %.2f |" % (name, t, r["ours_min"], r["ours_med"])
            for p in a.peers:
                line += " %.2f / %.2f | %.3f | %.3f |" % (r[p + "_min"], r[p + "_med"], r["ours_med"] / r[p + "_med"],
                                                         r[p + "_ratio"])
            f.write(line + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
