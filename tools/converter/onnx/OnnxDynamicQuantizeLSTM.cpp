// com.microsoft.DynamicQuantizeLSTM -> DynamicQuantizeLSTM (inputs in the contrib op's order: X, W,
// R, B, sequence_lens, initial_h, initial_c, P, W_scale, W_zero_point, R_scale, R_zero_point),
// RnnParam as LSTM's.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapDynamicQuantizeLSTM(OnnxNode& node) {
    if (node.inputCount() != 12) {
        node.invalid("needs 12 inputs (X ... R_zero_point)");
    }
    auto op = node.addOp(Schema::OpType::DynamicQuantizeLSTM, node.inputs(), node.usedOutputs());
    auto p = setParam<Schema::RnnParamT>(op);
    if (!node.hasAttr("hidden_size")) {
        node.invalid("hidden_size is required");
    }
    p->hiddenSize = (int)node.attrInt("hidden_size", 0);
    auto dir = node.attrString("direction", "forward");
    if (dir == "forward") {
        p->direction = Schema::RnnDirection::FORWARD;
    } else if (dir == "reverse") {
        p->direction = Schema::RnnDirection::REVERSE;
    } else if (dir == "bidirectional") {
        p->direction = Schema::RnnDirection::BIDIRECTIONAL;
    } else {
        node.invalid("unknown direction '" + dir + "'");
    }
    p->activations = node.attrStrings("activations");
    p->activationAlpha = node.attrFloats("activation_alpha");
    p->activationBeta = node.attrFloats("activation_beta");
    p->clip = node.attrFloat("clip", 0.0f);
    p->inputForget = node.attrInt("input_forget", 0) != 0;
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(DynamicQuantizeLSTM, MNN::Convert::mapDynamicQuantizeLSTM, "com.microsoft.DynamicQuantizeLSTM")
