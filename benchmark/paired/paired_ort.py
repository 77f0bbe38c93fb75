#!/usr/bin/env python3
"""Our engine against ONNX Runtime (and, with --peers ort,mnn, Alibaba's MNN from its pip package) in
one process, run by run: for each model and thread count it runs one inference of each engine per
round, rotating which engine goes first, and reports each engine's min and median, the ratio of the
medians and the median of the per-round ratios (ours / each peer). On a shared machine whose load comes and goes in phases of seconds, paired runs are the
fairest comparison: both engines see the same phase. One thread is the default and the meaningful
case: with several threads the two engines' pools share the process and its cores (ORT's workers
spin on after its run; ours ran 10-40% slower at 2 threads here than in a process of its own, even
with ORT's spinning off), so 2-thread comparisons belong to run_peers.py. Writes benchmark/results/paired_<stamp>.md.

usage: python3 benchmark/paired/paired_ort.py --shim BUILD/benchmark/paired/libmnn_paired_shim.so
           --convert BUILD/tools/converter/MNNConvert --corpus DIR_WITH_ONNX [--models a,b]
           [--threads 1] [--pairs 40] [--warmup 5] [--precision normal|high] [--peers ort,mnn]
Setup: python3 -m pip install "onnxruntime==1.30.*" numpy (the shim is built with MNN_BUILD_SHARED);
for mnn also python3 -m pip install MNN (its mnnconvert converts the ONNX file; its library lives
beside ours in the process: the shim's symbols are hidden behind its C entry points).
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


def pair(a, lib, name, threads):
    onnx = os.path.join(a.corpus, name + ".onnx")
    mnn = os.path.join(a.cache, name + ".mnn")
    if not os.path.exists(mnn) or os.path.getmtime(mnn) < os.path.getmtime(a.convert):
        subprocess.run([a.convert, "-f", "ONNX", "--modelFile", onnx, "--MNNModel", mnn], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    handle = lib.pairedOpen(mnn.encode(), threads, PRECISION[a.precision])
    if not handle:
        raise RuntimeError("our session for %s could not be created" % mnn)
    engines = [("ours", lambda: lib.pairedRun(handle))]
    keep = []
    for peer in a.peers:
        if peer == "ort":
            sess, feeds = ort_session(onnx, threads)
            keep.append(sess)
            engines.append(("ort", lambda sess=sess, feeds=feeds: sess.run(None, feeds)))
        elif peer == "mnn":
            run, handles = mnn_session(a, onnx, threads)
            keep.append(handles)
            engines.append(("mnn", run))
    for _ in range(a.warmup):
        for _, fn in engines:
            fn()
    times = {e: [] for e, _ in engines}
    for i in range(a.pairs):
        k = i % len(engines)
        for e, fn in engines[k:] + engines[:k]:
            s = time.perf_counter()
            r = fn()
            times[e].append((time.perf_counter() - s) * 1e3)
            if e == "ours" and r != 0:
                raise RuntimeError("runSession returned %d" % r)
    lib.pairedClose(handle)
    out = {"ours_min": min(times["ours"]), "ours_med": statistics.median(times["ours"])}
    for e in a.peers:
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
    a = ap.parse_args()
    a.peers = [p for p in a.peers.split(",") if p]
    if not a.peers or any(p not in ("ort", "mnn") for p in a.peers):
        raise SystemExit("--peers: a comma list of ort, mnn")
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
        names = {"ort": "ONNX Runtime " + ort.__version__, "mnn": "MNN (pip) " + mnn_version()}
        f.write("# Ours vs %s, paired runs in one process (%s UTC)\n\n" %
                (" and ".join(names[p] for p in a.peers), stamp))
        f.write("%s (%s), %d cores; %d rounds (one run of each engine, the first engine rotating) after %d "
                "warm-up runs each, precision %s.\n\n" % (cpu, isa, os.cpu_count(), a.pairs, a.warmup, a.precision))
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
