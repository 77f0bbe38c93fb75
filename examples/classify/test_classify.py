#!/usr/bin/python3
"""End-to-end check of mnn_classify (run by ctest as classify_e2e):

  image (PNG, written here with cv2) -> stb_image -> ImageProcess -> MNN session -> top-5
versus
  the same PNG -> cv2.imread -> float32 cv2.resize INTER_LINEAR (and centre crop) -> ImageNet
  normalisation -> NCHW -> PyTorch (the example model's SmallCNN, rebuilt with its seed and checked
  against the saved small_cnn_output.npy first) -> top-5.

usage: test_classify.py MNN_CLASSIFY MNNCONVERT MODELS_DIR
       test_classify.py MNN_CLASSIFY MNNCONVERT --arch NAME MAKE_MODELS_PY
The second form takes a torchvision classifier (e.g. resnet18) from ../shared/tools/make_models.py,
built exactly as that script builds it (seed 0, random init, BatchNorm calibration), exports it to
ONNX here, and compares top-5 on 224x224 inputs the same way.
Exit 77 (ctest: skipped) when torch / torchvision / cv2 cannot be imported by /usr/bin/python3.
"""
import os
import re
import subprocess
import sys
import tempfile

try:
    import cv2
    import numpy as np
    import torch
except ImportError as e:
    print("SKIP: %s (needs Debian python3-opencv and python3-torch)" % e)
    sys.exit(77)

MEAN = np.array([123.675, 116.28, 103.53], np.float32)
STD = np.array([58.395, 57.12, 57.375], np.float32)


def torch_model(models_dir):
    sys.path.insert(0, models_dir)
    import make_small_cnn as m
    # the same construction as make_small_cnn.main(): seed, module, BatchNorm statistics
    torch.manual_seed(0)
    model = m.SmallCNN().eval()
    for mod in model.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.5, 0.5)
            mod.running_var.uniform_(0.5, 1.5)
    x = np.load(os.path.join(models_dir, "small_cnn_input.npy"))
    y = np.load(os.path.join(models_dir, "small_cnn_output.npy"))
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    if not np.allclose(got, y, atol=1e-5):
        print("FAIL: the rebuilt PyTorch model does not reproduce small_cnn_output.npy "
              "(make_small_cnn.py changed?)")
        sys.exit(1)
    return model


def corpus_model(make_models_py, arch, onnx_path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(make_models_py)))
    try:
        import make_models as mm  # needs torchvision
    except ImportError as e:
        print("SKIP: %s" % e)
        sys.exit(77)
    builder, shapes, in_names, out_names, _ = mm.MODELS[arch]
    torch.manual_seed(0)
    model = builder().eval()
    mm.calibrate_bn(model, shapes)
    x = torch.zeros(shapes[0])
    torch.onnx.export(model, (x,), onnx_path, opset_version=mm.OPSET, do_constant_folding=True,
                      input_names=in_names, output_names=out_names, export_params=True)
    return model


def reference(model, png, size, resize_shorter):
    img = cv2.cvtColor(cv2.imread(png, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB).astype(np.float32)
    h, w = img.shape[:2]
    if resize_shorter:
        s = min(w, h) / resize_shorter
        rw, rh = round(w / s), round(h / s)
        assert abs(rw - w / s) < 1e-6 and abs(rh - h / s) < 1e-6, "pick sizes with an exact resize"
        img = cv2.resize(img, (rw, rh), interpolation=cv2.INTER_LINEAR)
        ox, oy = round((rw - size) / 2), round((rh - size) / 2)
        img = img[oy:oy + size, ox:ox + size]
    else:
        img = cv2.resize(img, (size, size), interpolation=cv2.INTER_LINEAR)
    x = ((img - MEAN) / STD).transpose(2, 0, 1)[None].astype(np.float32)
    with torch.no_grad():
        return model(torch.from_numpy(x)).numpy().reshape(-1)


def ours(classify, mnn, png, extra):
    out = subprocess.run([classify, mnn, png] + extra, capture_output=True, text=True)
    if out.returncode != 0:
        print("FAIL: mnn_classify exited with", out.returncode, out.stdout, out.stderr)
        sys.exit(1)
    rows = re.findall(r"^\d+: class (\d+) score (\S+)", out.stdout, re.M)
    return [(int(c), float(s)) for c, s in rows], out.stdout


def check(classify, mnn, model, png, size, extra, shorter, score_tol):
    top, text = ours(classify, mnn, png, extra)
    ref = reference(model, png, size, shorter)
    order = list(np.argsort(-ref, kind="stable")[:5])
    print(text.strip())
    print("pytorch top-5:", [(int(i), float(ref[i])) for i in order])
    failures = 0
    if len(top) != 5:
        print("FAIL: expected 5 rows")
        return 1
    for rank, (cls, score) in enumerate(top):
        if abs(score - ref[cls]) > score_tol:
            print("FAIL: class %d score %g, pytorch %g" % (cls, score, ref[cls]))
            failures += 1
        # the same class at each rank, unless PyTorch's own scores there are within the tolerance
        if cls != order[rank] and abs(ref[cls] - ref[order[rank]]) > score_tol:
            print("FAIL: rank %d is class %d, pytorch says %d" % (rank + 1, cls, order[rank]))
            failures += 1
    return failures


def structured_image(w, h, seed, path):
    # smooth colour fields plus noise, written as PNG (lossless: stb and cv2 decode the same pixels)
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.stack([128 + 100 * np.sin(xx * 0.2 + seed), 128 + 100 * np.cos(yy * 0.15),
                    128 + 60 * np.sin((xx + yy) * 0.1)], -1) + rng.normal(0, 20, (h, w, 3))
    cv2.imwrite(path, np.clip(img, 0, 255).astype(np.uint8)[:, :, ::-1])


def convert_model(convert, onnx_path, mnn):
    r = subprocess.run([convert, "-f", "ONNX", "--modelFile", onnx_path, "--MNNModel", mnn, "--bizCode", "test"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: MNNConvert:", r.stdout, r.stderr)
        sys.exit(1)


def main():
    classify, convert = sys.argv[1:3]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        mnn = os.path.join(tmp, "model.mnn")
        if sys.argv[3] == "--arch":
            arch, make_models_py = sys.argv[4], sys.argv[5]
            onnx_path = os.path.join(tmp, arch + ".onnx")
            model = corpus_model(make_models_py, arch, onnx_path)
            convert_model(convert, onnx_path, mnn)
            size, cases = 224, [(300, 200, [], 0), (400, 300, ["--resize-crop", "240"], 240)]
            score_tol = 2e-3
        else:
            models_dir = sys.argv[3]
            model = torch_model(models_dir)
            convert_model(convert, os.path.join(models_dir, "small_cnn.onnx"), mnn)
            size, cases = 32, [(60, 45, [], 0), (60, 45, ["--resize-crop", "36"], 36)]
            score_tol = 1e-4
        for i, (w, h, extra, shorter) in enumerate(cases):
            png = os.path.join(tmp, "img%d.png" % i)
            structured_image(w, h, i, png)
            failures += check(classify, mnn, model, png, size, extra, shorter, score_tol)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
