// UnaryOp: elementwise math and activations. Output has the input's shape and type, except
// ISNAN / ISINF which give bool (uint8). The shape function checks the type per operation.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
using Schema::UnaryOpType;

// 0: float only, 1: float or any integer, 2: float or signed integer, 3: integer only,
// 4: bool (uint8) only, 5: any type
static int unaryTypeClass(UnaryOpType t) {
    switch (t) {
        case UnaryOpType::ABS:
        case UnaryOpType::SIGN:
        case UnaryOpType::RELU:
        case UnaryOpType::CLIP:
        case UnaryOpType::SQUARE:
            return 1;
        case UnaryOpType::NEG:
            return 2;
        case UnaryOpType::BITWISE_NOT:
            return 3;
        case UnaryOpType::NOT:
            return 4;
        case UnaryOpType::IDENTITY:
            return 5;
        default:
            return 0;
    }
}

static ErrorCode shapeUnaryOp(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    auto param = op->param_as_UnaryParam();
    if (!param) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing UnaryParam");
    }
    auto type = param->type();
    if ((int)type < (int)UnaryOpType::MIN || (int)type > (int)UnaryOpType::MAX) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown unary type %d", (int)type);
    }
    auto it = inputs[0]->getType();
    bool ok = false;
    switch (unaryTypeClass(type)) {
        case 0: ok = CPUUtils::isFloatType(it); break;
        case 1: ok = CPUUtils::isNumericType(it); break;
        case 2: ok = CPUUtils::isFloatType(it) || (CPUUtils::isIntegerType(it) && it.code == halide_type_int); break;
        case 3: ok = CPUUtils::isIntegerType(it); break;
        case 4: ok = CPUUtils::isBoolType(it); break;
        default: ok = CPUUtils::isNumericType(it); break;
    }
    if (!ok) {
        return ShapeUtils::error(op, NOT_SUPPORT, "%s does not support input %s of type %s",
                                 Schema::EnumNameUnaryOpType(type), TensorUtils::describe(inputs[0])->name.c_str(),
                                 TensorUtils::typeName(it));
    }
    halide_type_t ot = (type == UnaryOpType::ISNAN || type == UnaryOpType::ISINF) ? halide_type_of<uint8_t>() : it;
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(inputs[0]), ot);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(UnaryOp, ShapeEntry{shapeUnaryOp, nullptr, 0})
