// DynamicQuantizeLinear -> DynamicQuantizeLinear (X; outputs y, y_scale, y_zero_point).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapDynamicQuantizeLinear(OnnxNode& node) {
    if (node.input(0) < 0) {
        node.invalid("needs input x");
    }
    node.addOp(Schema::OpType::DynamicQuantizeLinear, {node.input(0)}, node.usedOutputs());
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(DynamicQuantizeLinear, MNN::Convert::mapDynamicQuantizeLinear, "DynamicQuantizeLinear")
