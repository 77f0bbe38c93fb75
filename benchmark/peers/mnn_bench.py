#!/usr/bin/env python3
"""Time one ONNX model in Alibaba's MNN (pip package MNN): converts it once with the package's
mnnconvert into CACHE_DIR, then runs the session API on the CPU backend (precision normal).
usage: python3 mnn_bench.py MODEL.onnx THREADS [WARMUP] [RUNS] [SHAPE] [CACHE_DIR]"""
import os, shutil, subprocess, sys
from common import args, det_input, time_and_print
import MNN


def main():
    model, threads, warmup, runs, shape, cache = args()
    out = os.path.join(cache, os.path.splitext(os.path.basename(model))[0] + ".alibaba.mnn")
    if not os.path.exists(out):
        tool = shutil.which("mnnconvert") or shutil.which("MNNConvert")
        subprocess.run([tool, "-f", "ONNX", "--modelFile", model, "--MNNModel", out, "--bizCode", "bench"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    net = MNN.Interpreter(out)
    session = net.createSession({"backend": "CPU", "numThread": threads, "precision": "normal"})
    inp = net.getSessionInput(session)
    net.resizeTensor(inp, tuple(shape))
    net.resizeSession(session)
    x = det_input(shape)
    tmp = MNN.Tensor(tuple(shape), MNN.Halide_Type_Float, x, MNN.Tensor_DimensionType_Caffe)
    inp.copyFrom(tmp)

    def run():
        net.runSession(session)

    time_and_print("MNN " + MNN.version(), model, threads, shape, warmup, runs, run)


if __name__ == "__main__":
    main()
