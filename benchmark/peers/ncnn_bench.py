#!/usr/bin/env python3
"""Time one ONNX model in ncnn (pip packages ncnn + pnnx): converts it once with pnnx into CACHE_DIR
(MODEL.ncnn.param / .bin), then runs an extractor per inference on the CPU (no Vulkan).
usage: python3 ncnn_bench.py MODEL.onnx THREADS [WARMUP] [RUNS] [SHAPE] [CACHE_DIR]"""
import glob, os, shutil, subprocess, sys
from common import args, det_input, time_and_print
import ncnn


def main():
    model, threads, warmup, runs, shape, cache = args()
    stem = os.path.splitext(os.path.basename(model))[0]
    work = os.path.join(cache, stem + ".pnnx")
    param = os.path.join(work, stem + ".ncnn.param")
    if not os.path.exists(param):
        os.makedirs(work, exist_ok=True)
        local = os.path.join(work, stem + ".onnx")
        shutil.copy(model, local)
        tool = shutil.which("pnnx")
        subprocess.run([tool, local, "inputshape=[%s]" % ",".join(str(d) for d in shape)], cwd=work, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    net = ncnn.Net()
    net.opt.use_vulkan_compute = False
    net.opt.num_threads = threads
    net.load_param(param)
    net.load_model(os.path.join(work, stem + ".ncnn.bin"))
    x = det_input(shape)
    mat = ncnn.Mat(x[0])

    def run():
        ex = net.create_extractor()
        ex.input("in0", mat)
        ret, out = ex.extract("out0")
        if ret != 0:
            raise RuntimeError("ncnn extract failed: %d" % ret)

    time_and_print("ncnn " + ncnn.__version__, model, threads, shape, warmup, runs, run)


if __name__ == "__main__":
    main()
