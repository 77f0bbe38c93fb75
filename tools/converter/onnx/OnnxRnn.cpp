// LSTM / GRU / RNN: inputs kept in ONNX order (X, W, R, B, sequence_lens, initial_h, [initial_c, P]).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

void loadRnnParam(OnnxNode& node, Schema::RnnParamT* p) {
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
    p->linearBeforeReset = node.attrInt("linear_before_reset", 0) != 0;
    p->layout = (int)node.attrInt("layout", 0);
}

namespace {
void mapRnn(OnnxNode& node) {
    const auto& t = node.opType();
    auto type = t == "LSTM" ? Schema::OpType::LSTM : (t == "GRU" ? Schema::OpType::GRU : Schema::OpType::RNN);
    auto op = node.addOp(type, node.inputs(), node.usedOutputs());
    loadRnnParam(node, setParam<Schema::RnnParamT>(op));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Rnn, MNN::Convert::mapRnn, "LSTM", "GRU", "RNN")
