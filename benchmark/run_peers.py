#!/usr/bin/env python3
"""The issue-5 benchmark: our MNNBenchmark against ONNX Runtime, Alibaba's MNN, ncnn, OpenVINO and
OpenCV DNN on the same ONNX corpus, interleaved (every engine once per round, in a rotating order,
so load drifts hit every engine alike), several rounds, medians. Writes a dated markdown table
of medians, ratios to ORT, the best peer and the issue's targets, plus peak RSS per engine, to
benchmark/results/peers_<stamp>.md (and the raw samples as .json beside it).

usage: python3 benchmark/run_peers.py --bench BUILD/tools/MNNBenchmark --convert BUILD/tools/converter/MNNConvert
           --corpus DIR_WITH_ONNX [--models a,b] [--threads 1,2] [--rounds 3] [--loop 30] [--warmup 10]
           [--engines ours,ort,mnn,ncnn,openvino,opencv] [--precision normal] [--stat median|min]
Peers: python3 -m pip install "onnxruntime==1.30.*" MNN ncnn pnnx openvino numpy; OpenCV DNN from
Debian's python3-opencv (run with /usr/bin/python3). A peer that is missing or fails is reported
as n/a with its error, never silently dropped.
"""
import argparse, datetime, json, os, platform, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "bench")

# issue 5's table: ORT ms and the best peer ms measured on this machine (1 thread, 2 threads)
TARGETS = {
    "mobilenet_v2": ((7.28, 7.21), (3.81, 3.81)),
    "mobilenet_v3_large": ((5.72, 5.72), (3.35, 3.35)),
    "resnet18": ((33.35, 19.40), (16.92, 12.57)),
    "resnet50": ((74.85, 63.36), (37.96, 35.59)),
    "squeezenet1_1": ((6.83, 5.44), (3.71, 3.47)),
    "shufflenet_v2_x1_0": ((4.39, 4.04), (2.77, 2.63)),
    "efficientnet_b0": ((11.64, 11.64), (6.69, 6.69)),
    "inception_v3": ((103.8, 82.59), (53.67, 51.45)),
}
SHAPES = {"inception_v3": "1,3,299,299"}


def run_child(cmd, env=None):
    """runs cmd, returns (stdout, peak RSS MiB of that child)"""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            raise RuntimeError((err.read().decode(errors="replace").strip().splitlines() or ["exit %d" % p.returncode])[-1][:200])
        return out.read().decode(), ru.ru_maxrss / 1024.0


def ours(a, name, threads, onnx):
    mnn = os.path.join(a.cache, name + ".mnn")
    # converted again whenever the converter is newer than the cached model (new graph passes)
    if not os.path.exists(mnn) or os.path.getmtime(mnn) < os.path.getmtime(a.convert):
        subprocess.run([a.convert, "-f", "ONNX", "--modelFile", onnx, "--MNNModel", mnn], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    js = os.path.join(a.cache, "ours.json")
    cmd = [a.bench, "--model", mnn, "--threads", str(threads), "--loop", str(a.loop), "--warmup", str(a.warmup),
           "--precision", a.precision, "--json", js]
    if name in SHAPES:
        pass  # the model's own input shape is used
    _, rss = run_child(cmd)
    with open(js) as f:
        r = json.load(f)[0]
    return r["median_ms"], rss


def peer(script, python, a, name, threads, onnx):
    shape = SHAPES.get(name, "1,3,224,224")
    cmd = [python, script, onnx, str(threads), str(a.warmup), str(a.loop), shape, a.cache]
    out, rss = run_child(cmd)
    r = json.loads(out.strip().splitlines()[-1])
    if "error" in r:
        raise RuntimeError(r["error"])
    return r["median_ms"], rss


def engines(a):
    py = sys.executable
    e = {
        "ours": lambda n, t, o: ours(a, n, t, o),
        "ort": lambda n, t, o: peer(os.path.join(SHARED, "ort_bench.py"), py, a, n, t, o),
        "mnn": lambda n, t, o: peer(os.path.join(HERE, "peers", "mnn_bench.py"), py, a, n, t, o),
        "ncnn": lambda n, t, o: peer(os.path.join(HERE, "peers", "ncnn_bench.py"), py, a, n, t, o),
        "openvino": lambda n, t, o: peer(os.path.join(HERE, "peers", "openvino_bench.py"), py, a, n, t, o),
        "opencv": lambda n, t, o: peer(os.path.join(SHARED, "cv_bench.py"), "/usr/bin/python3", a, n, t, o),
    }
    return {k: e[k] for k in a.engines.split(",")}


def cpu_name():
    """model name, plus the widest x86 vector ISA (AVX-512 or AVX2 machines are different races)"""
    name, flags = platform.processor(), []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and name == platform.processor():
                    name = line.split(":", 1)[1].strip()
                elif line.startswith("flags") and not flags:
                    flags = line.split(":", 1)[1].split()
    except OSError:
        pass
    isa = "AVX-512" if "avx512f" in flags else "AVX2, no AVX-512" if "avx2" in flags else ""
    return name + (" (%s)" % isa if isa else "")


def fmt(v):
    return "%.2f" % v if isinstance(v, (int, float)) else "n/a"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--convert", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--models", default=",".join(TARGETS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--loop", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--precision", default="normal")
    ap.add_argument("--engines", default="ours,ort,mnn,ncnn,openvino,opencv")
    ap.add_argument("--cache", default=None, help="converted models (default: a folder under /tmp)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--stat", choices=("median", "min"), default="median",
                    help="per cell over the rounds: median (default), or min where other tenants of a shared VM "
                         "slow whole rounds down (the raw samples go to the .json either way)")
    a = ap.parse_args()
    a.cache = a.cache or os.path.join(tempfile.gettempdir(), "mnn-peer-cache")
    os.makedirs(a.cache, exist_ok=True)
    eng = engines(a)
    names = list(eng)
    load_before = os.getloadavg()
    samples = {}  # (model, threads, engine) -> [ms], rss, error
    for model in a.models.split(","):
        onnx = os.path.join(a.corpus, model + ".onnx")
        for t in [int(x) for x in a.threads.split(",")]:
            for rnd in range(a.rounds):
                order = names[rnd % len(names):] + names[:rnd % len(names)]
                for e in order:
                    key = (model, t, e)
                    s = samples.setdefault(key, {"ms": [], "rss": None, "error": None})
                    if s["error"]:
                        continue
                    try:
                        ms, rss = eng[e](model, t, onnx)
                        s["ms"].append(ms)
                        s["rss"] = rss  # the last round's: the first may include a one-off conversion
                    except Exception as ex:  # reported in the table
                        s["error"] = str(ex)
            row = {e: samples[(model, t, e)] for e in names}
            print(model, t, json.dumps({e: (statistics.median(v["ms"]) if v["ms"] else v["error"]) for e, v in row.items()}),
                  flush=True)
    load_after = os.getloadavg()
    stamp = datetime.datetime.utcnow().strftime("%Y-%m-%d_%H%M")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "peers_%s.md" % stamp)
    agg = statistics.median if a.stat == "median" else min
    med = lambda k: agg(samples[k]["ms"]) if k in samples and samples[k]["ms"] else None
    peers = [e for e in names if e not in ("ours", "opencv")]
    with open(path, "w") as f:
        f.write("# Ours vs peers, %s UTC\n\n" % stamp.replace("_", " "))
        f.write("- CPU: %s, %d logical cores; load average before %.2f %.2f %.2f, after %.2f %.2f %.2f\n"
                % ((cpu_name(), os.cpu_count()) + load_before + load_after))
        f.write("- each cell: %s over %d interleaved rounds of each run's median of %d timed runs (%d warmup), ms; "
                "ours at precision %s; peers f32 CPU defaults (ORT graph optimisation all)\n"
                % (a.stat, a.rounds, a.loop, a.warmup, a.precision))
        f.write("- best peer = fastest of %s in this run; target = issue 5's ours/ORT bound (best peer of the issue's "
                "table x 0.8 / ORT of that table); RSS = peak resident MiB of the engine's process\n\n" % ", ".join(peers))
        f.write("| model | thr | " + " | ".join(names) + " | best peer | ours/ORT | target | ours/best | "
                + " | ".join("RSS " + e for e in names) + " |\n")
        f.write("|" + "---|" * (2 + len(names) + 4 + len(names)) + "\n")
        for model in a.models.split(","):
            for t in [int(x) for x in a.threads.split(",")]:
                cells = [fmt(med((model, t, e))) for e in names]
                pv = [(med((model, t, e)), e) for e in peers if med((model, t, e))]
                best = min(pv) if pv else (None, "")
                o, ort = med((model, t, "ours")), med((model, t, "ort"))
                tgt = TARGETS.get(model)
                target = (tgt[t - 1][1] * 0.8 / tgt[t - 1][0]) if tgt and t in (1, 2) else None
                ratio = (o / ort) if o and ort else None
                f.write("| %s | %d | %s | %s %s | %s | %s | %s | %s |\n" % (
                    model, t, " | ".join(cells), fmt(best[0]), best[1], fmt(ratio), fmt(target),
                    fmt(o / best[0]) if o and best[0] else "n/a",
                    " | ".join("%.0f" % samples[(model, t, e)]["rss"] if samples[(model, t, e)]["rss"] else "n/a"
                               for e in names)))
        errs = [(k, v["error"]) for k, v in samples.items() if v["error"]]
        if errs:
            f.write("\nFailures:\n\n")
            for k, err in errs:
                f.write("- %s %d threads, %s: %s\n" % (k[0], k[1], k[2], err))
    with open(path[:-3] + ".json", "w") as f:
        json.dump({"%s|%d|%s" % k: v for k, v in samples.items()}, f, indent=0)
    print("wrote", path)


if __name__ == "__main__":
    main()
