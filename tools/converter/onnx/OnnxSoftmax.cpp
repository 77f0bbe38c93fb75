// Softmax / LogSoftmax / Hardmax -> Softmax with mode (opset < 13: coerced to 2-D at axis, default 1).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapSoftmax(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Softmax, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::SoftmaxParamT>(op);
    bool old = node.opset() < 13;
    p->coerce2D = old;
    p->axis = (int)node.attrInt("axis", old ? 1 : -1);
    const auto& t = node.opType();
    p->mode = t == "LogSoftmax" ? Schema::SoftmaxMode::LOG_SOFTMAX
                                : (t == "Hardmax" ? Schema::SoftmaxMode::HARDMAX : Schema::SoftmaxMode::SOFTMAX);
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Softmax, MNN::Convert::mapSoftmax, "Softmax", "LogSoftmax", "Hardmax")
