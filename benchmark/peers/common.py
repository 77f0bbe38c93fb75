"""Shared by the peer runners: the same deterministic input as ../shared/bench/ort_bench.py and one
JSON line of timings per run."""
import json, os, statistics, sys, time
import numpy as np


def det_input(shape):
    n = int(np.prod(shape))
    return (((np.arange(n) * 7919) % 255) / 255.0 - 0.5).astype(np.float32).reshape(shape)


def args():
    if len(sys.argv) < 3:
        sys.exit("usage: %s MODEL.onnx THREADS [WARMUP=10] [RUNS=50] [SHAPE=1,3,224,224] [CACHE_DIR]" % sys.argv[0])
    model, threads = sys.argv[1], int(sys.argv[2])
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    shape = [int(x) for x in sys.argv[5].split(",")] if len(sys.argv) > 5 and sys.argv[5] else [1, 3, 224, 224]
    cache = sys.argv[6] if len(sys.argv) > 6 else os.path.join(os.path.dirname(os.path.abspath(model)), "peer-cache")
    os.makedirs(cache, exist_ok=True)
    return model, threads, warmup, runs, shape, cache


def peak_rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return None


def time_and_print(engine, model, threads, shape, warmup, runs, fn):
    for _ in range(warmup):
        fn()
    t = []
    for _ in range(runs):
        s = time.perf_counter()
        fn()
        t.append((time.perf_counter() - s) * 1e3)
    print(json.dumps({"engine": engine, "model": os.path.basename(model), "threads": threads, "shape": shape,
                      "min_ms": round(min(t), 3), "median_ms": round(statistics.median(t), 3),
                      "mean_ms": round(statistics.mean(t), 3), "runs": runs, "peak_rss_mb": peak_rss_mb()}))
