// Where(condition, X, Y): condition is bool (uint8); X and Y share a type; all three broadcast.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeWhere(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs condition, X, Y and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    if (!CPUUtils::isBoolType(inputs[0]->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "condition %s must be bool, got %s",
                                 TensorUtils::describe(inputs[0])->name.c_str(),
                                 TensorUtils::typeName(inputs[0]->getType()));
    }
    auto xt = inputs[1]->getType();
    if (!CPUUtils::isNumericType(xt) || xt != inputs[2]->getType()) {
        return ShapeUtils::error(op, NOT_SUPPORT, "X %s (%s) and Y %s (%s) must have the same numeric type",
                                 TensorUtils::describe(inputs[1])->name.c_str(), TensorUtils::typeName(xt),
                                 TensorUtils::describe(inputs[2])->name.c_str(),
                                 TensorUtils::typeName(inputs[2]->getType()));
    }
    std::vector<int> cx, out;
    auto c = TensorUtils::shape(inputs[0]);
    auto x = TensorUtils::shape(inputs[1]);
    auto y = TensorUtils::shape(inputs[2]);
    if (!ShapeUtils::broadcast(c, x, cx) || !ShapeUtils::broadcast(cx, y, out)) {
        return ShapeUtils::error(op, INVALID_VALUE, "shapes %s, %s and %s do not broadcast",
                                 TensorUtils::shapeString(c).c_str(), TensorUtils::shapeString(x).c_str(),
                                 TensorUtils::shapeString(y).c_str());
    }
    ShapeUtils::setOutput(outputs[0], out, xt);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Where, ShapeEntry{shapeWhere, nullptr, 0})
