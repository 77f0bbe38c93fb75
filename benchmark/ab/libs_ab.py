#!/usr/bin/env python3
"""Two builds of the library in one process, whole-model runs alternating: the before / after of a
kernel change, measured as the whole model runs (no per-op timing callbacks between the ops).

Each build's libMNN.so.0 and paired shim (benchmark/paired, MNN_BUILD_SHARED) are copied into a
temporary folder under names of the same length (libMNA.so.0 / libMNB.so.0: the shim's DT_NEEDED
entry and the library's SONAME patched in place), so the loader keeps both; every symbol but the
shim's C entry points is hidden, so the two engines do not mix. Runs alternate A, B / B, A; the
statistic is the median of per-pair ratios B / A. The library loaded second ran 1-1.5% faster than
the first on the Xeon VM of session 25 with the two builds identical, so the script runs both load
orders and reports sqrt(r1 / r2), which cancels that bias (it is printed too).

Why: on these shared machines process-level rounds (and per-op profiles) moved 3-6% between two
identical binaries; the per-op profile of a squeeze-excite GEMV showed 12 -> 5 us for a prefetch
that changed the whole model by 0.0%. In-process alternation resolved about 0.5%.

--processes: each build in a worker process of its own, in turns (A first on even rounds); a turn is
8 untimed runs, then back-to-back runs for --burst-ms, whose median is the turn's time; the
statistic is the median of per-round ratios B / A (and the ratio of the medians). In one process the
two builds' weights and activations share the L3, and each run follows the other build's run: a
change that streams fewer weight bytes looked better there than when a model runs back to back on
its own (session 27, two threads: the Winograd layers splitting U instead of the tiles, resnet18
-4.5..6.7% in one process, -2.6..5.2% in processes). Use it for decisions at several threads.

--env-a / --env-b NAME=VALUE[,NAME=VALUE...]: set while that build's session is created (the same build
twice with two settings of an MNN_* switch); `precision=normal|high|low` there sets the session's
precision instead (default normal).

usage: python3 benchmark/ab/libs_ab.py --a BUILD_A --b BUILD_B --model M.mnn [--model-b M2.mnn]
           [--threads 1] [--pairs 300] [--processes [--burst-ms 150]] [--env-a LIST] [--env-b LIST]
"""
import argparse, ctypes, math, os, shutil, statistics, subprocess, sys, tempfile, time

SONAME = b"libMNN.so.0"


def stage(build, letter, folder):
    """copies build's library and shim into folder with the SONAME patched; returns the shim's path"""
    lib = open(os.path.join(build, "libMNN.so.0"), "rb").read()
    shim = open(os.path.join(build, "benchmark", "paired", "libmnn_paired_shim.so"), "rb").read()
    name = ("libMN%s.so.0" % letter).encode()
    if lib.count(SONAME) < 1 or shim.count(SONAME) != 1:
        sys.exit("%s: %s not found where expected in the library / shim" % (build, SONAME.decode()))
    open(os.path.join(folder, name.decode()), "wb").write(lib.replace(SONAME, name))
    path = os.path.join(folder, "shim_%s.so" % letter)
    open(path, "wb").write(shim.replace(SONAME, name))
    return path


def parseEnv(spec):
    """NAME=VALUE[,NAME=VALUE...] (or empty) as a dict"""
    return dict(kv.split("=", 1) for kv in (spec or "").split(",") if kv)


def openWith(lib, model, threads, spec):
    """lib.pairedOpen(model) with spec's variables set while the session is created"""
    env = parseEnv(spec)
    # precision=normal|high|low in the list is the session's BackendConfig precision, not a variable
    precision = {"normal": 0, "high": 1, "low": 2}[env.pop("precision", "normal")]
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return lib.pairedOpen(model.encode(), threads, precision)
    finally:
        for k, v in old.items():
            if v is None:
                del os.environ[k]
            else:
                os.environ[k] = v


def worker(a):
    """one load order: prints the median of per-pair ratios second / first"""
    def load(path, model, spec):
        lib = ctypes.CDLL(path, mode=ctypes.RTLD_LOCAL)
        lib.pairedOpen.restype = ctypes.c_void_p
        lib.pairedOpen.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
        lib.pairedRun.argtypes = [ctypes.c_void_p]
        h = openWith(lib, model, a.threads, spec)
        if not h:
            sys.exit("%s could not open %s" % (path, model))
        return lambda: lib.pairedRun(h)
    first, second = load(a.first, a.first_model, a.first_env), load(a.second, a.second_model, a.second_env)
    for _ in range(10):
        first()
        second()
    ratios, t1, t2 = [], [], []
    for i in range(a.pairs):
        order = (first, second) if i % 2 == 0 else (second, first)
        t = {}
        for fn in order:
            s = time.perf_counter()
            fn()
            t[fn] = time.perf_counter() - s
        t1.append(t[first])
        t2.append(t[second])
        ratios.append(t[second] / t[first])
    print("%.6f %.4f %.4f" % (statistics.median(ratios), statistics.median(t1) * 1e3, statistics.median(t2) * 1e3))


def turnWorker(a):
    """--processes: one build in this process; a line on stdin asks for a turn, its median goes to stdout"""
    lib = ctypes.CDLL(a.turns, mode=ctypes.RTLD_LOCAL)
    lib.pairedOpen.restype = ctypes.c_void_p
    lib.pairedOpen.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    lib.pairedRun.argtypes = [ctypes.c_void_p]
    h = openWith(lib, a.first_model, a.threads, a.first_env)
    if not h:
        sys.exit("%s could not open %s" % (a.turns, a.first_model))
    for _ in range(5):
        lib.pairedRun(h)
    print("ready", flush=True)
    for _ in sys.stdin:
        for _ in range(8):
            lib.pairedRun(h)
        t, t0 = [], time.perf_counter()
        while time.perf_counter() - t0 < a.burst_ms / 1e3 or len(t) < 3:
            s = time.perf_counter()
            lib.pairedRun(h)
            t.append(time.perf_counter() - s)
        print(statistics.median(t), flush=True)


def runProcesses(a, sa, sb, mb, env):
    """--processes: rounds of one turn per build, A first on even rounds"""
    ws = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--turns", shim, "--first-model", m,
                            "--first-env", e, "--threads", str(a.threads), "--burst-ms", str(a.burst_ms)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
          for shim, m, e in ((sa, a.model, a.env_a), (sb, mb, a.env_b))]
    for w in ws:
        if w.stdout.readline().strip() != "ready":
            sys.exit("a worker did not start")
    ta, tb, ratios = [], [], []
    for r in range(a.pairs):
        t = {}
        for i in ((0, 1) if r % 2 == 0 else (1, 0)):
            ws[i].stdin.write("turn\n")
            ws[i].stdin.flush()
            t[i] = float(ws[i].stdout.readline())
        ta.append(t[0])
        tb.append(t[1])
        ratios.append(t[1] / t[0])
    for w in ws:
        w.stdin.close()
        w.wait()
    print("A median %.3f ms, B median %.3f ms over %d turns each" %
          (statistics.median(ta) * 1e3, statistics.median(tb) * 1e3, a.pairs))
    print("B / A = %.4f   (ratio of the medians %.4f)" %
          (statistics.median(ratios), statistics.median(tb) / statistics.median(ta)))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", help="build folder A (libMNN.so.0, benchmark/paired/libmnn_paired_shim.so)")
    p.add_argument("--b", help="build folder B")
    p.add_argument("--model", help="the .mnn model (of A, and of B without --model-b)")
    p.add_argument("--model-b", help="B's model when it differs (a converter change)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--pairs", type=int, default=300, help="pairs of runs (with --processes: rounds of turns)")
    p.add_argument("--processes", action="store_true", help="each build in a worker process, in turns")
    p.add_argument("--burst-ms", type=float, default=150.0, help="--processes: the timed part of a turn")
    p.add_argument("--env-a", default="", help="NAME=VALUE[,...] set while A's session is created")
    p.add_argument("--env-b", default="", help="NAME=VALUE[,...] set while B's session is created")
    # internal: one load order in a child process
    p.add_argument("--first")
    p.add_argument("--second")
    p.add_argument("--first-model")
    p.add_argument("--second-model")
    p.add_argument("--first-env", default="")
    p.add_argument("--second-env", default="")
    p.add_argument("--turns")
    a = p.parse_args()
    if a.turns:
        turnWorker(a)
        return
    if a.first:
        worker(a)
        return
    if not (a.a and a.b and a.model):
        p.error("--a, --b and --model are required")
    mb = a.model_b or a.model
    folder = tempfile.mkdtemp(prefix="libs_ab_")
    try:
        sa, sb = stage(a.a, "A", folder), stage(a.b, "B", folder)
        env = dict(os.environ, LD_LIBRARY_PATH=folder + os.pathsep + os.environ.get("LD_LIBRARY_PATH", ""))
        if a.processes:
            runProcesses(a, sa, sb, mb, env)
            return

        def run(first, fm, fe, second, sm, se):
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--first", first, "--second", second,
                                  "--first-model", fm, "--second-model", sm, "--first-env", fe, "--second-env", se,
                                  "--threads", str(a.threads), "--pairs", str(a.pairs)],
                                 env=env, capture_output=True, text=True, check=True)
            r, m1, m2 = out.stdout.split()
            return float(r), float(m1), float(m2)

        r1, a1, b1 = run(sa, a.model, a.env_a, sb, mb, a.env_b)  # B / A with A loaded first
        r2, b2, a2 = run(sb, mb, a.env_b, sa, a.model, a.env_a)  # A / B with B loaded first
        print("A median %.3f / %.3f ms, B median %.3f / %.3f ms (the two load orders)" % (a1, a2, b1, b2))
        print("B / A = %.4f   (load orders: %.4f, 1 / %.4f; second-loaded bias %.4f)" %
              (math.sqrt(r1 / r2), r1, r2, math.sqrt(r1 * r2)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
