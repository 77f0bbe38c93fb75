#!/usr/bin/env python3
"""Our engine against ONNX Runtime in one process, run by run: for each model and thread count it
alternates single runs of the two engines (ORT first on even pairs, ours first on odd ones) and
reports each engine's min and median, the ratio of the medians and the median of the per-pair
ratios. On a shared machine whose load comes and goes in phases of seconds, paired runs are the
fairest comparison: both engines see the same phase. One thread is the default and the meaningful
case: with several threads the two engines' pools share the process and its cores (ORT's workers
spin on after its run; ours ran 10-40% slower at 2 threads here than in a process of its own, even
with ORT's spinning off), so 2-thread comparisons belong to run_peers.py. Writes benchmark/results/paired_<stamp>.md.

usage: python3 benchmark/paired/paired_ort.py --shim BUILD/benchmark/paired/libmnn_paired_shim.so
           --convert BUILD/tools/converter/MNNConvert --corpus DIR_WITH_ONNX [--models a,b]
           [--threads 1] [--pairs 40] [--warmup 5] [--precision normal|high]
Setup: python3 -m pip install "onnxruntime==1.30.*" numpy (the shim is built with MNN_BUILD_SHARED).
"""
import argparse, ctypes, datetime, os, platform, statistics, subprocess, sys, tempfile, time

import numpy as np
import onnxruntime as ort

HERE = os.path.dirname(os.path.abspath(__file__))
PRECISION = {"normal": 0, "high": 1, "low": 2}


def ort_session(onnx, threads):
    so = ort.SessionOptions()
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


def pair(a, lib, name, threads):
    onnx = os.path.join(a.corpus, name + ".onnx")
    mnn = os.path.join(a.cache, name + ".mnn")
    if not os.path.exists(mnn) or os.path.getmtime(mnn) < os.path.getmtime(a.convert):
        subprocess.run([a.convert, "-f", "ONNX", "--modelFile", onnx, "--MNNModel", mnn], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    handle = lib.pairedOpen(mnn.encode(), threads, PRECISION[a.precision])
    if not handle:
        raise RuntimeError("our session for %s could not be created" % mnn)
    sess, feeds = ort_session(onnx, threads)
    run_ours = lambda: lib.pairedRun(handle)
    run_ort = lambda: sess.run(None, feeds)
    for _ in range(a.warmup):
        run_ours()
        run_ort()
    t_ours, t_ort = [], []
    for i in range(a.pairs):
        order = ((run_ort, t_ort), (run_ours, t_ours)) if i % 2 == 0 else ((run_ours, t_ours), (run_ort, t_ort))
        for fn, acc in order:
            s = time.perf_counter()
            r = fn()
            acc.append((time.perf_counter() - s) * 1e3)
            if fn is run_ours and r != 0:
                raise RuntimeError("runSession returned %d" % r)
    lib.pairedClose(handle)
    ratios = [o / r for o, r in zip(t_ours, t_ort)]
    return {"ours_min": min(t_ours), "ours_med": statistics.median(t_ours), "ort_min": min(t_ort),
            "ort_med": statistics.median(t_ort), "pair_ratio": statistics.median(ratios)}


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
    a = ap.parse_args()
    lib = ctypes.CDLL(os.path.abspath(a.shim))
    lib.pairedOpen.restype = ctypes.c_void_p
    lib.pairedOpen.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    lib.pairedRun.argtypes = [ctypes.c_void_p]
    lib.pairedClose.argtypes = [ctypes.c_void_p]
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
        f.write("# Ours vs ONNX Runtime %s, paired runs in one process (%s UTC)\n\n" % (ort.__version__, stamp))
        f.write("%s (%s), %d cores; %d pairs after %d warm-up runs each, precision %s.\n\n" %
                (cpu, isa, os.cpu_count(), a.pairs, a.warmup, a.precision))
        f.write("| model | threads | ours min / median ms | ORT min / median ms | ours/ORT (medians) | "
                "median of per-pair ratios |\n|---|---|---|---|---|---|\n")
        for name, t, r in rows:
            if "error" in r:
                f.write("| %s | %d | n/a (%s) | | | |\n" % (name, t, r["error"]))
                continue
            f.write("| %s | %d | %.2f / %.2f | %.2f / %.2f | %.3f | %.3f |\n" %
                    (name, t, r["ours_min"], r["ours_med"], r["ort_min"], r["ort_med"], r["ours_med"] / r["ort_med"],
                     r["pair_ratio"]))
    print("wrote", path)


if __name__ == "__main__":
    main()
