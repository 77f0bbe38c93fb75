#!/usr/bin/env python3
"""Time one ONNX model in OpenVINO (pip package openvino), CPU plugin, latency hint, f32 inference
precision (no bf16 down-conversion), THREADS inference threads.
usage: python3 openvino_bench.py MODEL.onnx THREADS [WARMUP] [RUNS] [SHAPE] [CACHE_DIR]"""
from common import args, det_input, time_and_print
import openvino as ov


def main():
    model, threads, warmup, runs, shape, cache = args()
    core = ov.Core()
    m = core.read_model(model)
    m.reshape({m.inputs[0].get_any_name(): shape})
    compiled = core.compile_model(m, "CPU", {"INFERENCE_NUM_THREADS": threads, "PERFORMANCE_HINT": "LATENCY",
                                             "INFERENCE_PRECISION_HINT": "f32", "NUM_STREAMS": 1})
    req = compiled.create_infer_request()
    x = det_input(shape)

    def run():
        req.infer({0: x})

    time_and_print("openvino " + ov.__version__, model, threads, shape, warmup, runs, run)


if __name__ == "__main__":
    main()
