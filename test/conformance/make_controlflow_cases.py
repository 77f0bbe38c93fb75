#!/usr/bin/python3
"""Writes small ONNX control-flow cases (Loop, Scan, If nested in Loop) in the ONNX backend-test
layout, with expected outputs computed here in numpy, into test/conformance/controlflow/.

Run with Debian's python (python3-onnx, numpy):  /usr/bin/python3 make_controlflow_cases.py
The OnnxControlFlowCases ctest runs MNNOnnxSuite on the folder; every case must pass.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "controlflow")


def save(name, model, ins, outs):
    d = os.path.join(OUT, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for kind, arrays in (("input", ins), ("output", outs)):
        for i, a in enumerate(arrays):
            with open(os.path.join(d, "test_data_set_0", f"{kind}_{i}.pb"), "wb") as f:
                f.write(nh.from_array(a).SerializeToString())


def vi(name, t, shape):
    return h.make_tensor_value_info(name, t, shape)


def loop_add():
    # v += x (x captured from the outer graph); cond_out = iter < 2; scan output v * k (k an outer
    # initializer). M = 5, but the condition stops the loop after iteration 2.
    body = h.make_graph(
        [h.make_node("Less", ["iter", "two"], ["cond_out"]),
         h.make_node("Add", ["v", "x"], ["v_out"]),
         h.make_node("Mul", ["v_out", "k"], ["scan"])],
        "body", [vi("iter", T.INT64, []), vi("cond", T.BOOL, []), vi("v", T.FLOAT, None)],
        [vi("cond_out", T.BOOL, []), vi("v_out", T.FLOAT, None), vi("scan", T.FLOAT, None)],
        [nh.from_array(np.array(2, dtype=np.int64), "two")])
    g = h.make_graph([h.make_node("Loop", ["M", "", "v0"], ["vf", "scans"], body=body)], "g",
                     [vi("M", T.INT64, []), vi("v0", T.FLOAT, [2]), vi("x", T.FLOAT, [2])],
                     [vi("vf", T.FLOAT, [2]), vi("scans", T.FLOAT, None)],
                     [nh.from_array(np.array([2, 3], dtype=np.float32), "k")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    v0 = np.array([1, 2], np.float32)
    x = np.array([10, 20], np.float32)
    v, scans = v0.copy(), []
    for i in range(5):
        v = v + x
        scans.append(v * np.array([2, 3], np.float32))
        if not i < 2:
            break
    save("loop_add", m, [np.array(5, np.int64), v0, x], [v, np.stack(scans)])


def scan_axis1_reverse():
    # state s += X[:, t]; scan output s * w (w captured); input axis 1, output reversed
    body = h.make_graph([h.make_node("Add", ["s", "xt"], ["s2"]), h.make_node("Mul", ["s2", "w"], ["y"])], "sb",
                        [vi("s", T.FLOAT, [2]), vi("xt", T.FLOAT, [2])],
                        [vi("s2", T.FLOAT, [2]), vi("y", T.FLOAT, [2])])
    g = h.make_graph([h.make_node("Scan", ["s0", "X"], ["sf", "Y"], body=body, num_scan_inputs=1,
                                  scan_input_axes=[1], scan_output_directions=[1])], "g",
                     [vi("s0", T.FLOAT, [2]), vi("X", T.FLOAT, [2, 3]), vi("w", T.FLOAT, [2])],
                     [vi("sf", T.FLOAT, [2]), vi("Y", T.FLOAT, [3, 2])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 11)])
    s0 = np.array([0, 100], np.float32)
    X = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.array([1, -1], np.float32)
    s, ys = s0.copy(), []
    for t in range(3):
        s = s + X[:, t]
        ys.append(s * w)
    save("scan_axis1_reverse", m, [s0, X, w], [s, np.stack(ys[::-1])])


def loop_nested_if():
    # an If inside the Loop body whose branches read v (body scope) and x (main graph scope)
    then_b = h.make_graph([h.make_node("Add", ["v", "x"], ["r"])], "then", [], [vi("r", T.FLOAT, None)])
    else_b = h.make_graph([h.make_node("Sub", ["v", "x"], ["r2"])], "else", [], [vi("r2", T.FLOAT, None)])
    body = h.make_graph(
        [h.make_node("Less", ["iter", "one"], ["c"]),
         h.make_node("If", ["c"], ["v_out"], then_branch=then_b, else_branch=else_b),
         h.make_node("Equal", ["iter", "iter"], ["keep"])],
        "body", [vi("iter", T.INT64, []), vi("cond", T.BOOL, []), vi("v", T.FLOAT, None)],
        [vi("keep", T.BOOL, []), vi("v_out", T.FLOAT, None)],
        [nh.from_array(np.array(1, dtype=np.int64), "one")])
    g = h.make_graph([h.make_node("Loop", ["M", "", "v0"], ["vf"], body=body)], "g",
                     [vi("M", T.INT64, []), vi("v0", T.FLOAT, [2]), vi("x", T.FLOAT, [2])],
                     [vi("vf", T.FLOAT, [2])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    v0 = np.array([1, 2], np.float32)
    x = np.array([10, 20], np.float32)
    v = v0.copy()
    for i in range(3):
        v = v + x if i < 1 else v - x
    save("loop_nested_if", m, [np.array(3, np.int64), v0, x], [v])


def if_captures():
    # both branches read outer tensors; the else branch reads two of them
    then_b = h.make_graph([h.make_node("Mul", ["a", "a"], ["t"])], "then", [], [vi("t", T.FLOAT, None)])
    else_b = h.make_graph([h.make_node("Sub", ["b", "a"], ["e"])], "else", [], [vi("e", T.FLOAT, None)])
    g = h.make_graph([h.make_node("Greater", ["p", "q"], ["c"]),
                      h.make_node("If", ["c"], ["y"], then_branch=then_b, else_branch=else_b)], "g",
                     [vi("a", T.FLOAT, [3]), vi("b", T.FLOAT, [3]), vi("p", T.FLOAT, []), vi("q", T.FLOAT, [])],
                     [vi("y", T.FLOAT, [3])])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    a = np.array([1, -2, 3], np.float32)
    b = np.array([0, 5, 1], np.float32)
    p, q = np.array(1, np.float32), np.array(2, np.float32)
    save("if_captures", m, [a, b, p, q], [a * a if p > q else b - a])


if __name__ == "__main__":
    loop_add()
    scan_axis1_reverse()
    loop_nested_if()
    if_captures()
    print("wrote", sorted(os.listdir(OUT)))
