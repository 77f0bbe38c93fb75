#!/usr/bin/env python3
"""Models exported with dynamic axes (torch.onnx.export, opset 14, dynamic_axes), each with PyTorch's
outputs at several input shapes: the converter gets no --inputShape, so nothing that depends on an
unknown dim may be folded (Shape / Size chains, Reshape targets, Resize sizes and scales, Range,
Slice ends, ConstantOfShape / Expand, broadcasts, If conditions on shapes).

    /usr/bin/python3 make_dynamic_models.py --out DIR

Writes DIR/NAME.onnx, DIR/NAME/<case>/{in,out}_<k>.npy and DIR/manifest.json in the format that
MNNRealModels reads (--refs DIR). Exit 77 without Debian's python3-torch / python3-onnx.
"""
import argparse
import json
import os
import sys

try:
    import numpy as np
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
except ImportError as e:  # pragma: no cover
    print("SKIP: PyTorch is missing (%s): install python3-torch" % e)
    sys.exit(77)


class ShapeChain(nn.Module):
    """Reshape targets from Shape -> Gather -> Concat; flatten by batch; a Size-derived scale"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        n, c, h, w = y.shape
        seq = y.reshape(n, c, h * w).transpose(1, 2)  # [N, HW, C]
        pooled = seq.sum(1) / (h * w)  # a divisor from the shape
        return self.fc(pooled), seq.reshape(n, -1)[:, : (h * w) // 2]


class ResizeConcat(nn.Module):
    """FPN-style head: a stride-2 branch upsampled back to the input's size (Resize with sizes from
    Shape) and one by scale factor, concatenated"""

    def __init__(self):
        super().__init__()
        self.down = nn.Conv2d(4, 6, 3, stride=2, padding=1)
        self.down2 = nn.Conv2d(6, 6, 3, stride=2, padding=1)
        self.head = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        d = torch.relu(self.down(x))
        d2 = torch.relu(self.down2(d))
        up = F.interpolate(d, size=x.shape[2:], mode="nearest")
        up2 = F.interpolate(d2, scale_factor=2.0, mode="bilinear", align_corners=False)
        up2 = F.interpolate(up2, size=(x.shape[2], x.shape[3]), mode="bilinear", align_corners=False)
        return torch.sigmoid(self.head(torch.cat([x, up, up2], 1)))


class RangeSlice(nn.Module):
    """positions from Range over a dynamic length, ConstantOfShape / Expand, Slice ends from Shape"""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, x):  # [N, T, 16]
        n, t = x.shape[0], x.shape[1]
        pos = torch.arange(t, dtype=torch.float32).unsqueeze(1) / 10.0  # [T, 1]
        y = self.proj(x) + pos
        zeros = torch.zeros(n, t, 4)  # ConstantOfShape
        mask = torch.ones(n, 1, t).expand(n, t, t).tril()  # Expand to a dynamic shape
        att = torch.softmax(torch.bmm(y, y.transpose(1, 2)) / 4.0 - 1e4 * (1 - mask), -1)
        z = torch.bmm(att, y)
        half = z[:, : t // 2 + 1, :]  # Slice end from the shape
        return torch.cat([z[..., :4] + zeros, zeros + 1.0], -1), half.mean(1)


class ShapeIf(nn.Module):
    """an If whose condition is computed from the input's width"""

    def forward(self, x):
        if x.shape[-1] > 8:
            y = x * 2.0 + x.shape[-1]
        else:
            y = x - 1.0
        return y.sum(-1)


MODELS = {
    # name: (module, dynamic axes per input, input shapes per case)
    "dyn_shape_chain": (ShapeChain, {"x": {0: "batch", 2: "height", 3: "width"}},
                        [[(1, 3, 8, 8)], [(2, 3, 12, 10)], [(1, 3, 5, 17)]]),
    "dyn_resize_concat": (ResizeConcat, {"x": {0: "batch", 2: "height", 3: "width"}},
                          [[(1, 4, 16, 16)], [(2, 4, 24, 40)], [(1, 4, 32, 20)]]),
    "dyn_range_slice": (RangeSlice, {"x": {0: "batch", 1: "seq"}},
                        [[(1, 7, 16)], [(2, 12, 16)], [(3, 3, 16)]]),
    "dyn_shape_if": (ShapeIf, {"x": {0: "batch", 1: "width"}},
                     [[(2, 12)], [(3, 5)], [(1, 20)]]),
}


def export(name, out):
    cls, axes, cases = MODELS[name]
    torch.manual_seed(abs(hash(name)) % 1000)
    model = cls().eval()
    if cls is ShapeIf:
        model = torch.jit.script(model)
    rng = np.random.default_rng(7)
    first = [torch.from_numpy(rng.standard_normal(s).astype(np.float32)) for s in cases[0]]
    in_names = list(axes)
    with torch.no_grad():
        ref0 = model(*first)
    n_out = len(ref0) if isinstance(ref0, tuple) else 1
    out_names = ["y%d" % i for i in range(n_out)]
    path = os.path.join(out, name + ".onnx")
    torch.onnx.export(model, tuple(first), path, opset_version=14, input_names=in_names,
                      output_names=out_names, dynamic_axes=dict(axes), do_constant_folding=True)
    entry = {"name": name, "kind": "dynamic axes: " + (cls.__doc__ or "").split("\n")[0],
             "onnx_file": name + ".onnx", "source": "torch.onnx.export opset 14 (PyTorch reference)",
             "cases": []}
    for ci, shapes in enumerate(cases):
        xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        with torch.no_grad():
            ys = model(*[torch.from_numpy(x) for x in xs])
        ys = ys if isinstance(ys, tuple) else (ys,)
        d = os.path.join(out, name, str(ci))
        os.makedirs(d, exist_ok=True)
        case = {"inputs": [], "outputs": []}
        for k, x in enumerate(xs):
            np.save(os.path.join(d, "in_%d.npy" % k), x)
            case["inputs"].append({"name": in_names[k], "npy": "%s/%d/in_%d.npy" % (name, ci, k)})
        for k, y in enumerate(ys):
            np.save(os.path.join(d, "out_%d.npy" % k), y.numpy())
            case["outputs"].append({"name": out_names[k], "npy": "%s/%d/out_%d.npy" % (name, ci, k)})
        entry["cases"].append(case)
    return entry


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    entries = [export(n, a.out) for n in MODELS]
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump({"models": entries}, f, indent=1)
    print(a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
