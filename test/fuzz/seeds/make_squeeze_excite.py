# Writes the squeeze_excite fuzz seed (ONNX); the .mnn seed is MNNConvert of it:
#   /usr/bin/python3 test/fuzz/seeds/make_squeeze_excite.py test/fuzz/seeds/mnn_fuzz_onnx/squeeze_excite.onnx
#   MNNConvert -f ONNX --modelFile test/fuzz/seeds/mnn_fuzz_onnx/squeeze_excite.onnx \
#       --MNNModel test/fuzz/seeds/mnn_fuzz_model/squeeze_excite.mnn --info
# squeeze-excite fuzz seed: an EfficientNet-style block (expand 1x1 + SiLU, depthwise 3x3 + SiLU,
# squeeze-excite: GlobalAveragePool, 1x1 + SiLU, 1x1, Sigmoid, Mul), then the 1x1 projection that
# the converter gives the Mul's scale as its fourth input (FuseInputScale)
import sys
import numpy as np, onnx
from onnx import helper, TensorProto, numpy_helper
rng = np.random.default_rng(11)
C, E, R = 8, 24, 4
inits, nodes = [], []
def const(name, arr):
    inits.append(numpy_helper.from_array(arr.astype(np.float32), name))
    return name
def conv(x, name, cout, cin, k, stride=1, pad=0, group=1):
    w = const(name + "_w", rng.uniform(-0.5, 0.5, (cout, cin // group, k, k)))
    b = const(name + "_b", rng.uniform(-0.2, 0.2, (cout,)))
    nodes.append(helper.make_node("Conv", [x, w, b], [name], name=name, kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[pad] * 4, group=group))
    return name
def silu(x):
    nodes.append(helper.make_node("Sigmoid", [x], [x + "_sig"]))
    nodes.append(helper.make_node("Mul", [x, x + "_sig"], [x + "_silu"]))
    return x + "_silu"
e = silu(conv("x", "expand", E, C, 1))
d = silu(conv(e, "dw", E, E, 3, 1, 1, E))
nodes.append(helper.make_node("GlobalAveragePool", [d], ["pool"]))
r = silu(conv("pool", "reduce", R, E, 1))
s = conv(r, "excite", E, R, 1)
nodes.append(helper.make_node("Sigmoid", [s], ["scale"]))
nodes.append(helper.make_node("Mul", [d, "scale"], ["scaled"]))
p = conv("scaled", "project", C, E, 1)
nodes.append(helper.make_node("Add", [p, "x"], ["y"]))
g = helper.make_graph(nodes, "squeeze_excite", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, 12, 12])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, C, 12, 12])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="mnn-seed")
m.ir_version = 7
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])
