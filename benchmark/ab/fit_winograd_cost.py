#!/usr/bin/env python3
"""Fits the packed 3x3 cost constants of a CPU tier (CPUCoreFunctions::pw3x3: transform, uWeight,
directMac, directWeight) to per-layer times measured on this machine: every 3x3 stride-1 layer of
the given corpus models is timed as F(2), F(4), F(6) and direct (MNN_CONV_ALGO=winograd2 / 4 / 6 /
gemm), two configurations at a time in one process (session_ab: alternating runs, per-op medians),
and the time of each (layer, algorithm) is fitted as a sum of the cost model's terms. Prints the
constants relative to the Winograd GEMM's multiply-add unit (WinogradConv::kGemmFactor included, as
packedWinogradCost counts it), the fit's error, and which algorithm the fitted model would pick per
layer against the measured best. Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy).

usage: /usr/bin/python3 benchmark/ab/fit_winograd_cost.py --session-ab BUILD/benchmark/session_ab
           --convert BUILD/tools/converter/MNNConvert --corpus DIR_WITH_ONNX
           [--models resnet18,resnet50,inception_v3,squeezenet1_1] [--rounds 16] [--threads 1]
"""
import argparse, csv, os, subprocess, tempfile

import numpy as np
import onnx
import onnx.shape_inference

K_GEMM_FACTOR = 1.3  # WinogradConv::kGemmFactor
STREAMED_BYTES = 8 * 1024 * 1024  # kStreamedWeightBytes: an F(2) U this large is kept as half


def ceil_div(a, b):
    return -(-a // b)


def round_up(a, q):
    return ceil_div(a, q) * q


def features(algo, c, m, h, w):
    """[GEMM multiply-adds x kGemmFactor, transform lane-ops, U floats streamed, direct multiply-adds,
    direct weight floats], as packedWinogradCost / packedDirect3x3Cost count them"""
    o16, c16 = round_up(m, 16), round_up(c, 16)
    if algo == "D":
        return [0, 0, 0, 9 * c * o16 * h * w, 9 * c * o16]
    u = int(algo[1])
    a = u + 2
    tiles = ceil_div(h, u) * ceil_div(w, u)
    gemm = K_GEMM_FACTOR * a * a * o16 * tiles * c
    transforms = tiles * c16 * (a * a + a ** 3) + tiles * o16 * (a * a * u + u * u * a + u * u)
    u_floats = a * a * c * o16
    if u == 2 and 4 * u_floats >= STREAMED_BYTES:
        u_floats /= 2  # held as half
    return [gemm, transforms, u_floats, 0, 0]


def layers(onnx_path):
    """{node name: (C, M, H, W)} of the 3x3 stride-1 dilation-1 single-group convolutions"""
    g = onnx.shape_inference.infer_shapes(onnx.load(onnx_path)).graph
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(g.value_info) + list(g.input) + list(g.output)}
    inits = {i.name: list(i.dims) for i in g.initializer}
    out = {}
    for n in g.node:
        if n.op_type != "Conv" or n.input[1] not in inits:
            continue
        at = {x.name: x for x in n.attribute}
        wdims = inits[n.input[1]]
        strides = list(at["strides"].ints) if "strides" in at else [1, 1]
        dil = list(at["dilations"].ints) if "dilations" in at else [1, 1]
        group = at["group"].i if "group" in at else 1
        if wdims[2:] != [3, 3] or strides != [1, 1] or dil != [1, 1] or group != 1 or n.output[0] not in shapes:
            continue
        y = shapes[n.output[0]]
        out[n.name] = (wdims[1], wdims[0], y[2], y[3])
    return out


def ab(a, mnn, env_a, env_b):
    with tempfile.NamedTemporaryFile(suffix=".csv") as f:
        subprocess.run([a.session_ab, "--model", mnn, "--threads", str(a.threads), "--rounds", str(a.rounds),
                        "--a", env_a, "--b", env_b, "--top", "0", "--csv", f.name], check=True,
                       stdout=subprocess.DEVNULL)
        return {r["op"]: (float(r["median_a"]), float(r["median_b"])) for r in csv.DictReader(open(f.name))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--session-ab", required=True)
    ap.add_argument("--convert", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--models", default="resnet18,resnet50,inception_v3,squeezenet1_1")
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    cache = tempfile.mkdtemp(prefix="mnn-fit-")
    rows = []  # (model, layer, C, M, H, W, {algo: ms})
    for name in a.models.split(","):
        onnx_path = os.path.join(a.corpus, name + ".onnx")
        mnn = os.path.join(cache, name + ".mnn")
        subprocess.run([a.convert, "-f", "ONNX", "--modelFile", onnx_path, "--MNNModel", mnn], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        f24 = ab(a, mnn, "MNN_CONV_ALGO=winograd2", "MNN_CONV_ALGO=winograd4")
        f6d = ab(a, mnn, "MNN_CONV_ALGO=winograd6", "MNN_CONV_ALGO=gemm")
        for layer, (c, m, h, w) in layers(onnx_path).items():
            if layer in f24 and layer in f6d:
                rows.append((name, layer, c, m, h, w, {"F2": f24[layer][0], "F4": f24[layer][1],
                                                       "F6": f6d[layer][0], "D": f6d[layer][1]}))
    if not rows:
        raise SystemExit("no 3x3 stride-1 layers measured")
    x = np.array([features(al, c, m, h, w) for _, _, c, m, h, w, t in rows for al in t], float)
    y = np.array([ms for *_, t in rows for ms in t.values()])
    coef, *_ = np.linalg.lstsq(x / y[:, None], np.ones(len(y)), rcond=None)  # least relative error
    err = np.abs(x @ coef - y) / y
    print("%d layers x 4 algorithms; relative error median %.3f, max %.3f" % (len(rows), np.median(err), err.max()))
    print("constants in GEMM multiply-add units: transform %.2f, uWeight %.2f, directMac %.3f, "
          "directWeight %.2f" % (coef[1] / coef[0], coef[2] / coef[0], coef[3] / coef[0], coef[4] / coef[0]))
    picked = best = 0.0
    for model, layer, c, m, h, w, t in rows:
        pred = {al: float(np.dot(features(al, c, m, h, w), coef)) for al in t}
        p, b = min(pred, key=pred.get), min(t, key=t.get)
        picked += t[p]
        best += t[b]
        print("%-14s %-40s C%4d M%4d %3dx%-3d F2 %.3f F4 %.3f F6 %.3f D %.3f | fitted pick %s, best %s" %
              (model, layer[-40:], c, m, h, w, t["F2"], t["F4"], t["F6"], t["D"], p, b))
    print("sum of the fitted picks %.2f ms against the best %.2f ms (Memory_Normal's weight cap not applied)" %
          (picked, best))


if __name__ == "__main__":
    main()
