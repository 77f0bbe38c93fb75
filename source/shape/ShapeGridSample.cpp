// GridSample(X [N, C, H, W], grid [N, Ho, Wo, 2]) -> Y [N, C, Ho, Wo] (4-D, ONNX GridSample-16/20).
#include "ShapeUtils.hpp"

namespace MNN {
static ErrorCode shapeGridSample(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X and grid and 1 output");
    }
    auto p = op->param_as_GridSampleParam();
    if (!p) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing GridSampleParam");
    }
    if (p->mode() < 0 || p->mode() > 2 || p->paddingMode() < 0 || p->paddingMode() > 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "mode %d / paddingMode %d out of range", p->mode(),
                                 p->paddingMode());
    }
    auto f = halide_type_of<float>();
    if (inputs[0]->getType() != f || inputs[1]->getType() != f) {
        return ShapeUtils::error(op, NOT_SUPPORT, "X (%s) and grid (%s) must be float32",
                                 TensorUtils::typeName(inputs[0]->getType()), TensorUtils::typeName(inputs[1]->getType()));
    }
    auto X = TensorUtils::shape(inputs[0]);
    auto G = TensorUtils::shape(inputs[1]);
    if (X.size() != 4 || G.size() != 4 || G[0] != X[0] || G[3] != 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s and grid %s: expected [N, C, H, W] and [N, Ho, Wo, 2]",
                                 TensorUtils::shapeString(X).c_str(), TensorUtils::shapeString(G).c_str());
    }
    ShapeUtils::setOutput(outputs[0], {X[0], X[1], G[1], G[2]}, f);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(GridSample, ShapeEntry{shapeGridSample, nullptr, 0})
