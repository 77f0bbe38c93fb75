#!/usr/bin/python3
"""Times OpenCV (Debian python3-opencv, /usr/bin/python3) doing the preprocessing steps that
benchmark/imageprocess_bench.cpp times for MNN::CV::ImageProcess:

  rgba_c4:  RGBA 640x480 uint8 -> resize 224x224 INTER_LINEAR -> float32 -> (x - mean) * normal.
            A 4-channel NHWC float image is exactly NC4HW4 with one channel block, so nothing else.
  rgb_nchw: RGBA -> cvtColor RGB -> resize -> float32 -> normalise -> transpose to contiguous NCHW.
  blob:     cv2.dnn.blobFromImage(RGB input, 1/57.12, (224, 224), mean, swapRB=False) (scalar scale).
  resize:   only the uint8 RGBA resize inside rgba_c4 (how much of it is OpenCV, how much numpy).
  nv21_c4:  NV21 640x480 -> cvtColor RGB -> resize -> float -> normalise -> NC4HW4 (pad to 4 channels).

Usage: imageprocess_opencv.py [THREADS=1] [RUNS=300]. Prints one line per case: the minimum and the
median wall time of RUNS runs in microseconds, and the mean CPU time per run (process_time).
"""
import sys
import time

import cv2
import numpy as np

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 300
cv2.setNumThreads(threads)
rng = np.random.default_rng(1)
rgba = rng.integers(0, 256, (480, 640, 4), dtype=np.uint8)
nv21 = rng.integers(0, 256, (720, 640), dtype=np.uint8)
mean = np.array([123.675, 116.28, 103.53, 0.0], np.float32)
normal = np.array([1 / 58.395, 1 / 57.12, 1 / 57.375, 1.0], np.float32)


def rgba_c4():
    r = cv2.resize(rgba, (224, 224), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    r -= mean
    r *= normal
    return r


def rgb_nchw():
    r = cv2.resize(cv2.cvtColor(rgba, cv2.COLOR_RGBA2RGB), (224, 224), interpolation=cv2.INTER_LINEAR)
    r = r.astype(np.float32)
    r -= mean[:3]
    r *= normal[:3]
    return np.ascontiguousarray(r.transpose(2, 0, 1))


rgb_img = cv2.cvtColor(rgba, cv2.COLOR_RGBA2RGB)


def blob():
    return cv2.dnn.blobFromImage(rgb_img, 1 / 57.12, (224, 224), (123.675, 116.28, 103.53), swapRB=False)


def nv21_c4():
    r = cv2.resize(cv2.cvtColor(nv21, cv2.COLOR_YUV2RGB_NV21), (224, 224), interpolation=cv2.INTER_LINEAR)
    r = r.astype(np.float32)
    r -= mean[:3]
    r *= normal[:3]
    out = np.zeros((224, 224, 4), np.float32)
    out[:, :, :3] = r
    return out


def resize():
    return cv2.resize(rgba, (224, 224), interpolation=cv2.INTER_LINEAR)


for name, fn in [("rgba_c4", rgba_c4), ("resize", resize), ("rgb_nchw", rgb_nchw), ("blob", blob),
                 ("nv21_c4", nv21_c4)]:
    for _ in range(20):
        fn()
    times = []
    c0 = time.process_time()
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    cpu = (time.process_time() - c0) / runs
    times.sort()
    print("%-9s threads=%d min %8.1f us  median %8.1f us  cpu/run %8.1f us" %
          (name, threads, times[0] * 1e6, times[len(times) // 2] * 1e6, cpu * 1e6))
