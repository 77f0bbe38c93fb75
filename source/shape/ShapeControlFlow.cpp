// If / Loop / Scan: output shapes depend on values (the branch taken, the trip count), so the
// shape function runs the op on the values of all its inputs (see core/ControlFlow.hpp).
#include "ShapeUtils.hpp"
#include "core/ControlFlow.hpp"

namespace MNN {
static ErrorCode shapeControlFlow(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                  const std::vector<Tensor*>& outputs) {
    auto cf = ControlFlowOp::create(op, BackendConfig::Precision_High);
    if (!cf) {
        return INVALID_VALUE;  // reported by ControlFlowOp::create
    }
    std::vector<HostValue> values;
    auto code = cf->run(inputs, &values);
    if (code != NO_ERROR) {
        return code;
    }
    if (values.size() != outputs.size()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%d outputs computed, the op has %d", (int)values.size(),
                                 (int)outputs.size());
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
        ShapeUtils::setOutput(outputs[i], values[i].dims, values[i].type);
    }
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(If, ShapeEntry{shapeControlFlow, nullptr, 0x80000000u})
MNN_REGISTER_SHAPE(Loop, ShapeEntry{shapeControlFlow, nullptr, 0x80000000u})
MNN_REGISTER_SHAPE(Scan, ShapeEntry{shapeControlFlow, nullptr, 0x80000000u})
