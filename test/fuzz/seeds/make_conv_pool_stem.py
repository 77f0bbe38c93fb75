# Writes the conv_pool_stem fuzz seed (ONNX); the .mnn seed is MNNConvert of it (one ConvolutionPool
# feeding a 1x1 convolution, so its output is packed and the banded kernel runs):
#   /usr/bin/python3 test/fuzz/seeds/make_conv_pool_stem.py test/fuzz/seeds/mnn_fuzz_onnx/conv_pool_stem.onnx
#   MNNConvert -f ONNX --modelFile test/fuzz/seeds/mnn_fuzz_onnx/conv_pool_stem.onnx \
#       --MNNModel test/fuzz/seeds/mnn_fuzz_model/conv_pool_stem.mnn --info
# a network stem: 3x3 stride-2 convolution on RGB + ReLU, 3x3 stride-2 max pool, a 1x1 convolution
import sys
import numpy as np, onnx
from onnx import helper, TensorProto, numpy_helper
rng = np.random.default_rng(11)
inits = [numpy_helper.from_array(rng.uniform(-0.5, 0.5, (24, 3, 3, 3)).astype(np.float32), "w"),
         numpy_helper.from_array(rng.uniform(-0.2, 0.2, (24,)).astype(np.float32), "b"),
         numpy_helper.from_array(rng.uniform(-0.5, 0.5, (8, 24, 1, 1)).astype(np.float32), "w2")]
nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4),
         helper.make_node("Relu", ["c"], ["r"]),
         helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4),
         helper.make_node("Conv", ["p", "w2"], ["y"], kernel_shape=[1, 1])]
g = helper.make_graph(nodes, "conv_pool_stem", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 30])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="mnn-seed")
m.ir_version = 7
onnx.checker.check_model(m)
onnx.save(m, sys.argv[1])
