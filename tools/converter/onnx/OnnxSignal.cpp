// Signal ops: HannWindow / HammingWindow / BlackmanWindow -> Window; DFT (axis attribute before
// opset 20, a constant input from 20 on), STFT, MelWeightMatrix -> same-named ops (SignalParam).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
Schema::DataType outputDataType(OnnxNode& node) {
    auto t = OnnxNode::dataType((int)node.attrInt("output_datatype", 1));
    if (t != Schema::DataType::DT_FLOAT && t != Schema::DataType::DT_DOUBLE) {
        node.unsupported("output_datatype other than float / double");
    }
    return t;
}

void mapWindow(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Window, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::SignalParamT>(op);
    const auto& t = node.opType();
    p->window = t == "HammingWindow"    ? Schema::WindowType::HAMMING
                : t == "BlackmanWindow" ? Schema::WindowType::BLACKMAN
                                        : Schema::WindowType::HANN;
    p->periodic = node.attrInt("periodic", 1) != 0;
    p->outputType = outputDataType(node);
}

void mapDFT(OnnxNode& node) {
    int axis = (int)node.attrInt("axis", 1);
    if (node.opset() >= 20) {
        axis = -2;
        if (node.input(2) >= 0) {
            std::vector<int64_t> v;
            if (!node.constInts(2, &v) || v.size() != 1) {
                node.unsupported("axis given by a non-constant input");
            }
            axis = (int)v[0];
        }
    }
    auto op = node.addOp(Schema::OpType::DFT, {node.input(0), node.input(1)}, {node.output(0)});
    auto p = setParam<Schema::SignalParamT>(op);
    p->axis = axis;
    p->inverse = node.attrInt("inverse", 0) != 0;
    p->onesided = node.attrInt("onesided", 0) != 0;
}

void mapSTFT(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::STFT, node.inputs(), {node.output(0)});
    setParam<Schema::SignalParamT>(op)->onesided = node.attrInt("onesided", 1) != 0;
}

void mapMelWeightMatrix(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::MelWeightMatrix, node.inputs(), {node.output(0)});
    setParam<Schema::SignalParamT>(op)->outputType = outputDataType(node);
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Window, MNN::Convert::mapWindow, "HannWindow", "HammingWindow", "BlackmanWindow")
MNN_REGISTER_ONNX(DFT, MNN::Convert::mapDFT, "DFT")
MNN_REGISTER_ONNX(STFT, MNN::Convert::mapSTFT, "STFT")
MNN_REGISTER_ONNX(MelWeightMatrix, MNN::Convert::mapMelWeightMatrix, "MelWeightMatrix")
