// BinaryOp: numpy broadcasting; comparisons and logic produce bool (uint8), others the type of A.
#include "ShapeUtils.hpp"

namespace MNN {
static bool isCompare(Schema::BinaryOpType t) {
    switch (t) {
        case Schema::BinaryOpType::EQUAL:
        case Schema::BinaryOpType::LESS:
        case Schema::BinaryOpType::LESS_EQUAL:
        case Schema::BinaryOpType::GREATER:
        case Schema::BinaryOpType::GREATER_EQUAL:
        case Schema::BinaryOpType::AND:
        case Schema::BinaryOpType::OR:
        case Schema::BinaryOpType::XOR:
            return true;
        default:
            return false;
    }
}

static ErrorCode shapeBinaryOp(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 2 inputs and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    auto param = op->param_as_BinaryParam();
    if (!param) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing BinaryParam");
    }
    std::vector<int> out;
    auto a = TensorUtils::shape(inputs[0]);
    auto b = TensorUtils::shape(inputs[1]);
    if (!ShapeUtils::broadcast(a, b, out)) {
        return ShapeUtils::error(op, INVALID_VALUE, "shapes %s and %s do not broadcast",
                                 TensorUtils::shapeString(a).c_str(), TensorUtils::shapeString(b).c_str());
    }
    halide_type_t type = isCompare(param->type()) ? halide_type_of<uint8_t>() : inputs[0]->getType();
    ShapeUtils::setOutput(outputs[0], out, type);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(BinaryOp, ShapeEntry{shapeBinaryOp, nullptr, 0})
