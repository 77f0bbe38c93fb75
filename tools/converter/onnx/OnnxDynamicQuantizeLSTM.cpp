// com.microsoft.DynamicQuantizeLSTM -> DynamicQuantizeLSTM (inputs in the contrib op's order: X, W,
// R, B, sequence_lens, initial_h, initial_c, P, W_scale, W_zero_point, R_scale, R_zero_point),
// RnnParam as LSTM's (loadRnnParam).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapDynamicQuantizeLSTM(OnnxNode& node) {
    if (node.inputCount() != 12) {
        node.invalid("needs 12 inputs (X ... R_zero_point)");
    }
    auto op = node.addOp(Schema::OpType::DynamicQuantizeLSTM, node.inputs(), node.usedOutputs());
    loadRnnParam(node, setParam<Schema::RnnParamT>(op));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(DynamicQuantizeLSTM, MNN::Convert::mapDynamicQuantizeLSTM, "com.microsoft.DynamicQuantizeLSTM")
