#!/usr/bin/env python3
"""Writes the bundled example model: a small CNN with fixed random weights (seed 0), exported
to ONNX, with an input and PyTorch's output as .npy. Run with Debian's /usr/bin/python3
(python3-torch, python3-onnx). The .mnn next to it is `MNNConvert -f ONNX --modelFile
small_cnn.onnx --MNNModel small_cnn.mnn --bizCode example`."""
import os
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU6(),
            nn.Conv2d(32, 32, 3, padding=1, groups=32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, 10)

    def forward(self, x):
        x = self.features(x)
        x = torch.flatten(x, 1)
        return torch.softmax(self.classifier(x), dim=1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    model = SmallCNN().eval()
    # non-trivial BatchNorm statistics
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
    x = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        y = model(x)
    torch.onnx.export(model, x, os.path.join(here, "small_cnn.onnx"), input_names=["input"],
                      output_names=["probabilities"], opset_version=13)
    np.save(os.path.join(here, "small_cnn_input.npy"), x.numpy().astype(np.float32))
    np.save(os.path.join(here, "small_cnn_output.npy"), y.numpy().astype(np.float32))
    print("wrote small_cnn.onnx, small_cnn_input.npy, small_cnn_output.npy")


if __name__ == "__main__":
    main()
