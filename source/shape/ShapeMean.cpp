// Mean: variadic elementwise op over N >= 1 inputs with numpy broadcasting, for ONNX Sum / Mean /
// Max / Min. BinaryParam.type picks it: ADD (Sum), MEAN (Mean, also when there is no param),
// MAXIMUM (Max), MINIMUM (Min). All inputs share one type; MEAN needs a float type.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
using Schema::BinaryOpType;

static ErrorCode shapeMean(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (inputs.empty() || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs at least 1 input and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto param = op->param_as_BinaryParam();
    auto type = param ? param->type() : BinaryOpType::MEAN;
    if (type != BinaryOpType::ADD && type != BinaryOpType::MEAN && type != BinaryOpType::MAXIMUM &&
        type != BinaryOpType::MINIMUM) {
        return ShapeUtils::error(op, INVALID_VALUE, "type %s is not one of ADD, MEAN, MAXIMUM, MINIMUM",
                                 Schema::EnumNameBinaryOpType(type));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d is missing", (int)i);
        }
    }
    auto t = inputs[0]->getType();
    bool typeOk = type == BinaryOpType::MEAN ? CPUUtils::isFloatType(t) : CPUUtils::isNumericType(t);
    if (!typeOk) {
        return ShapeUtils::error(op, NOT_SUPPORT, "%s does not support input %s of type %s",
                                 Schema::EnumNameBinaryOpType(type), TensorUtils::describe(inputs[0])->name.c_str(),
                                 TensorUtils::typeName(t));
    }
    std::vector<int> out = TensorUtils::shape(inputs[0]);
    for (size_t i = 1; i < inputs.size(); ++i) {
        if (inputs[i]->getType() != t) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %s has type %s, input %s has %s",
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::typeName(inputs[i]->getType()),
                                     TensorUtils::describe(inputs[0])->name.c_str(), TensorUtils::typeName(t));
        }
        std::vector<int> next;
        auto s = TensorUtils::shape(inputs[i]);
        if (!ShapeUtils::broadcast(out, s, next)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %s of shape %s does not broadcast with %s",
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::shapeString(s).c_str(), TensorUtils::shapeString(out).c_str());
        }
        out = next;
    }
    ShapeUtils::setOutput(outputs[0], out, t);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Mean, ShapeEntry{shapeMean, nullptr, 0})
