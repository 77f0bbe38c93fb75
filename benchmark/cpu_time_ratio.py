#!/usr/bin/env python3
"""Per-inference CPU time (user + sys of the benchmark process) of our MNNBenchmark against ONNX
Runtime (../shared/bench/ort_bench.py) at one thread, from two loop counts: (cpu(N2) - cpu(N1)) /
(N2 - N1) cancels model loading and session creation. On a shared machine whose load makes
wall-clock medians swing by 2x, CPU time is what stays comparable between engines (it still
includes cache and memory-bandwidth contention, so repeat and take the median; the published
issue-5 table in benchmark/results/ stays wall-clock, from run_peers.py).

usage: python3 benchmark/cpu_time_ratio.py --bench BUILD/tools/MNNBenchmark --models-dir DIR_WITH_MNN
           --onnx-dir DIR_WITH_ONNX [--models a,b] [--n1 5] [--n2 45] [--repeat 3] [--precision normal]
Writes a markdown table to stdout.
"""
import argparse, os, resource, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORT = os.path.join(HERE, "..", "..", "shared", "bench", "ort_bench.py")
MODELS = ["mobilenet_v2", "mobilenet_v3_large", "resnet18", "resnet50", "squeezenet1_1", "shufflenet_v2_x1_0",
          "efficientnet_b0", "inception_v3"]


def cpu_of(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3


def per_run(make_cmd, n1, n2):
    return (cpu_of(make_cmd(n2)) - cpu_of(make_cmd(n1))) / (n2 - n1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--models-dir", required=True)
    ap.add_argument("--onnx-dir", required=True)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--n1", type=int, default=5)
    ap.add_argument("--n2", type=int, default=45)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--precision", default="normal")
    a = ap.parse_args()
    print("| model | ours CPU ms / run | ORT CPU ms / run | ours / ORT |")
    print("|---|---|---|---|")
    for m in a.models.split(","):
        mnn = os.path.join(a.models_dir, m + ".mnn")
        onnx = os.path.join(a.onnx_dir, m + ".onnx")
        ours, ort = [], []
        for _ in range(a.repeat):
            ours.append(per_run(lambda n: [a.bench, "--model", mnn, "--threads", "1", "--loop", str(n), "--warmup", "1",
                                           "--precision", a.precision], a.n1, a.n2))
            ort.append(per_run(lambda n: [sys.executable, ORT, onnx, "1", "1", str(n)], a.n1, a.n2))
        o, r = statistics.median(ours), statistics.median(ort)
        print("| %s | %.2f | %.2f | %.2f |" % (m, o, r, o / r), flush=True)


if __name__ == "__main__":
    main()
