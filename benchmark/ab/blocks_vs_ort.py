#!/usr/bin/env python3
"""Where a model's time goes against ONNX Runtime, block by block: per round, ORT's own profile (the
median of each node's kernel time over 12 runs after 4) and ours (session_ab's per-op medians over
8 alternating runs) are summed per block, a block being the first capture group of --pattern that
matched the op / node name ("other" where none did; fused ops keep the name of one of the nodes they
replace, so compare blocks, not single ops). Prints the median over the rounds of each block's sum
and their ratio. ORT 1.30 from PyPI (default python3, with numpy); one engine runs at a time.

usage: python3 benchmark/ab/blocks_vs_ort.py --session-ab BUILD/benchmark/session_ab
           --convert BUILD/tools/converter/MNNConvert --corpus DIR_WITH_ONNX --model mobilenet_v2
           [--pattern 'features\\.(\\d+)|(classifier)'] [--rounds 5] [--threads 1]
"""
import argparse, collections, csv, json, os, re, statistics, subprocess, tempfile

import numpy as np
import onnxruntime as ort


def block_of(rx, name):
    m = rx.search(name)
    if not m:
        return "other"
    return next((g for g in m.groups() if g), "other")


def sort_key(k):
    m = re.match(r"(\D*)(\d+)", k)
    return (m.group(1), int(m.group(2))) if m else (k, -1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--session-ab", required=True)
    ap.add_argument("--convert", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--pattern", default=r"features\.(\d+)|(classifier)|(layer\d)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    rx = re.compile(a.pattern)
    onnx_path = os.path.join(a.corpus, a.model + ".onnx")
    tmp = tempfile.mkdtemp(prefix="blocks_vs_ort_")
    mnn_path = os.path.join(tmp, a.model + ".mnn")
    subprocess.run([a.convert, "-f", "ONNX", "--modelFile", onnx_path, "--MNNModel", mnn_path], check=True,
                   stdout=subprocess.DEVNULL)
    ours, theirs = collections.defaultdict(list), collections.defaultdict(list)
    for _ in range(a.rounds):
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.intra_op_num_threads = a.threads
        so.inter_op_num_threads = 1
        so.enable_profiling = True
        so.profile_file_prefix = os.path.join(tmp, "ort")
        s = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
        i = s.get_inputs()[0]
        x = np.random.rand(*[d if isinstance(d, int) else 1 for d in i.shape]).astype(np.float32)
        for _ in range(16):
            s.run(None, {i.name: x})
        prof = s.end_profiling()
        with open(prof) as f:
            events = json.load(f)
        os.remove(prof)
        per = collections.defaultdict(list)
        for e in events:
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
                per[e["name"][: -len("_kernel_time")]].append(e["dur"] / 1000.0)
        blocks = collections.defaultdict(float)
        for k, v in per.items():
            blocks[block_of(rx, k)] += statistics.median(v[4:] if len(v) > 4 else v)
        for k, v in blocks.items():
            theirs[k].append(v)
        out = os.path.join(tmp, "ab.csv")
        subprocess.run([a.session_ab, "--model", mnn_path, "--rounds", "8", "--threads", str(a.threads), "--a", "-",
                        "--b", "-", "--top", "0", "--csv", out], check=True, stdout=subprocess.DEVNULL)
        blocks = collections.defaultdict(float)
        with open(out) as f:
            for rec in csv.DictReader(f):
                blocks[block_of(rx, rec["op"])] += float(rec["median_a"])
        for k, v in blocks.items():
            ours[k].append(v)
    to = tq = 0.0
    print("%-14s %9s %9s %7s" % ("block", "ours ms", "ORT ms", "ratio"))
    for k in sorted(set(ours) | set(theirs), key=sort_key):
        o = statistics.median(ours[k]) if k in ours else 0.0
        q = statistics.median(theirs[k]) if k in theirs else 0.0
        to += o
        tq += q
        print("%-14s %9.3f %9.3f %7s" % (k, o, q, "%.3f" % (o / q) if q else "-"))
    print("%-14s %9.3f %9.3f %7.3f" % ("total", to, tq, to / tq if tq else 0.0))


if __name__ == "__main__":
    main()
