// Pooling: MaxPool / AveragePool / LpPool and their global variants. X [N, C, spatial...];
// Y [N, C, out...] of X's type; MaxPool's optional 2nd output Indices (int64, same shape).
#include "ShapeUtils.hpp"
#include "WindowGeometry.hpp"

namespace MNN {

static ErrorCode shapePooling(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || inputs.size() != 1 || outputs.empty() || outputs.size() > 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 or 2 outputs, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    PoolAttrs attrs;
    attrs.load(op->param_as_PoolParam());
    auto type = inputs[0]->getType();
    const bool isMax = attrs.type == Schema::PoolType::MAXPOOL;
    if (attrs.type != Schema::PoolType::MAXPOOL && attrs.type != Schema::PoolType::AVERAGEPOOL &&
        attrs.type != Schema::PoolType::LPPOOL) {
        return ShapeUtils::error(op, NOT_SUPPORT, "unknown pool type %d", (int)attrs.type);
    }
    const bool floatType = type == halide_type_of<float>() || type == halide_type_of<double>();
    const bool byteType = type == halide_type_of<int8_t>() || type == halide_type_of<uint8_t>();
    if (!(floatType || (isMax && byteType))) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input X has type %s; supported: float32, float64%s",
                                 TensorUtils::typeName(type), isMax ? ", int8, uint8" : "");
    }
    if (outputs.size() == 2 && !isMax) {
        return ShapeUtils::error(op, INVALID_VALUE, "only MaxPool has an Indices output");
    }
    if (outputs.size() == 2 && attrs.storageOrder != 0 && attrs.storageOrder != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "storage_order %d is not 0 or 1", attrs.storageOrder);
    }
    auto x = TensorUtils::shape(inputs[0]);
    WindowGeometry g;
    std::string err;
    if (!resolvePool(attrs, x, &g, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    std::vector<int> out = {x[0], x[1]};
    out.insert(out.end(), g.output.begin(), g.output.end());
    ShapeUtils::setOutput(outputs[0], out, type);
    if (outputs.size() == 2) {
        ShapeUtils::setOutput(outputs[1], out, halide_type_of<int64_t>());
    }
    return NO_ERROR;
}

} // namespace MNN

MNN_REGISTER_SHAPE(Pooling, ShapeEntry{shapePooling, nullptr, 0})
