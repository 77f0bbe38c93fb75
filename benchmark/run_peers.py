#!/usr/bin/env python3
"""Times converted corpus models in MNNBenchmark (reference conv kernels via MNN_CONV_ALGO=reference,
and the fast path) and the same ONNX models in ONNX Runtime (../shared/bench/ort_bench.py),
interleaved round by round so machine load hits every engine alike. Writes a dated markdown table
to benchmark/results/ with the load average before and after.

usage: python3 benchmark/run_peers.py --bench BUILD/tools/MNNBenchmark --corpus DIR
           [--models resnet18,mobilenet_v2] [--threads 1,2] [--rounds 3] [--loop 20] [--warmup 5] [--ref-loop 3] [--skip-ref]
Needs: python3 -m pip install "onnxruntime==1.30.*" numpy (for the ORT column; skipped if missing).
"""
import argparse, datetime, json, os, platform, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def mnn_run(bench, model, threads, loop, warmup, algo):
    env = dict(os.environ)
    env["MNN_CONV_ALGO"] = algo
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    try:
        subprocess.run([bench, "--model", model, "--threads", str(threads), "--loop", str(loop),
                        "--warmup", str(warmup), "--precision", "high", "--json", out],
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)[0]["median_ms"]
    finally:
        os.unlink(out)


def ort_run(script, model, threads, loop, warmup):
    r = subprocess.run([sys.executable, script, model, str(threads), str(warmup), str(loop)],
                       check=True, capture_output=True, text=True)
    return json.loads(r.stdout.strip().splitlines()[-1])["median_ms"]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--models", default="resnet18,mobilenet_v2,mobilenet_v3_small")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--loop", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--ref-loop", type=int, default=3, help="timed runs of the (slow) reference conv")
    ap.add_argument("--skip-ref", action="store_true", help="leave the reference column out")
    ap.add_argument("--ort", default=os.path.join(HERE, "..", "..", "shared", "bench", "ort_bench.py"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    a = ap.parse_args()
    try:
        import onnxruntime  # noqa: F401
        have_ort = os.path.exists(a.ort)
    except ImportError:
        have_ort = False
    load_before = os.getloadavg()
    rows = []
    for name in a.models.split(","):
        mnn = os.path.join(a.corpus, name + ".mnn")
        onnx = os.path.join(a.corpus, name + ".onnx")
        for t in [int(x) for x in a.threads.split(",")]:
            ref, fast, ort = [], [], []
            for _ in range(a.rounds):  # interleaved: reference, fast, ORT, reference, ...
                if not a.skip_ref:
                    ref.append(mnn_run(a.bench, mnn, t, a.ref_loop, 1, "reference"))
                fast.append(mnn_run(a.bench, mnn, t, a.loop, a.warmup, "gemm"))
                if have_ort:
                    ort.append(ort_run(a.ort, onnx, t, a.loop, a.warmup))
            r = {"model": name, "threads": t, "ref": min(ref) if ref else None, "fast": min(fast),
                 "ort": min(ort) if ort else None}
            rows.append(r)
            print(json.dumps(r), flush=True)
    load_after = os.getloadavg()
    stamp = datetime.datetime.utcnow().strftime("%Y-%m-%d_%H%M%S")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "peers_%s.md" % stamp)
    with open(path, "w") as f:
        f.write("# MNN vs ONNX Runtime, %s UTC\n\n" % stamp.replace("_", " "))
        f.write("- CPU: %s, %d logical cores\n" % (cpu_name(), os.cpu_count()))
        f.write("- load average (1/5/15 min) before: %.2f %.2f %.2f, after: %.2f %.2f %.2f\n"
                % (load_before + load_after))
        f.write("- each cell: best of %d interleaved rounds of the median of %d runs (%d warmup; MNN reference: "
                "%d runs, 1 warmup), ms; precision high\n" % (a.rounds, a.loop, a.warmup, a.ref_loop))
        f.write("- MNN reference = MNN_CONV_ALGO=reference (direct double-accumulating conv), "
                "MNN fast = packed SGEMM / depthwise path\n\n")
        f.write("| model | threads | MNN reference ms | MNN fast ms | speedup | ONNX Runtime ms | fast / ORT |\n")
        f.write("|---|---|---|---|---|---|---|\n")
        for r in rows:
            ort = "%.2f" % r["ort"] if r["ort"] else "n/a"
            ratio = "%.2f" % (r["fast"] / r["ort"]) if r["ort"] else "n/a"
            refc = "%.2f" % r["ref"] if r["ref"] else "n/a"
            speed = "%.2fx" % (r["ref"] / r["fast"]) if r["ref"] else "n/a"
            f.write("| %s | %d | %s | %.2f | %s | %s | %s |\n" % (r["model"], r["threads"], refc, r["fast"], speed,
                                                                 ort, ratio))
    print("wrote", path)


if __name__ == "__main__":
    main()
