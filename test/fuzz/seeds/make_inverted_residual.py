# Writes the inverted_residual fuzz seed (ONNX); the .mnn seed is MNNConvert of it:
#   /usr/bin/python3 test/fuzz/seeds/make_inverted_residual.py test/fuzz/seeds/mnn_fuzz_onnx/inverted_residual.onnx
#   MNNConvert -f ONNX --modelFile test/fuzz/seeds/mnn_fuzz_onnx/inverted_residual.onnx \
#       --MNNModel test/fuzz/seeds/mnn_fuzz_model/inverted_residual.mnn --info
# inverted-residual fuzz seed: two MobileNetV2 blocks (expand 1x1 + ReLU6, depthwise 3x3 + ReLU6, project 1x1),
# the first with a stride-2 depthwise, the second with the residual Add
import sys
import numpy as np, onnx
from onnx import helper, TensorProto, numpy_helper
rng = np.random.default_rng(7)
C, E = 8, 16
inits, nodes = [], []
def const(name, arr):
    inits.append(numpy_helper.from_array(arr.astype(np.float32), name))
    return name
const("lo", np.array(0.0)); const("hi", np.array(6.0))
def conv(x, name, cout, cin, k, stride=1, pad=0, group=1):
    w = const(name + "_w", rng.uniform(-0.5, 0.5, (cout, cin // group, k, k)))
    b = const(name + "_b", rng.uniform(-0.2, 0.2, (cout,)))
    nodes.append(helper.make_node("Conv", [x, w, b], [name], name=name, kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[pad] * 4, group=group))
    return name
def relu6(x):
    nodes.append(helper.make_node("Clip", [x, "lo", "hi"], [x + "_r6"]))
    return x + "_r6"
def block(x, tag, stride, residual):
    e = relu6(conv(x, tag + "_expand", E, C, 1))
    d = relu6(conv(e, tag + "_dw", E, E, 3, stride, 1, E))
    p = conv(d, tag + "_project", C, E, 1)
    if residual:
        nodes.append(helper.make_node("Add", [p, x], [tag + "_add"]))
        return tag + "_add"
    return p
y = block(block("x", "b1", 2, False), "b2", 1, True)
nodes.append(helper.make_node("Identity", [y], ["y"]))
g = helper.make_graph(nodes, "inverted_residual", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, 16, 16])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, C, 8, 8])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="mnn-seed")
m.ir_version = 7
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])
