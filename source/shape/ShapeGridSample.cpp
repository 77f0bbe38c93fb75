// GridSample(X [N, C, D1..Dn], grid [N, O1..On, n]) -> Y [N, C, O1..On] (ONNX GridSample-16/20: any
// number n >= 1 of spatial axes for linear / nearest, n = 2 for cubic). grid[..., 0] addresses the
// last (innermost) axis, as (x, y, z).
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
    const int n = (int)X.size() - 2;
    if (n < 1 || (int)G.size() != n + 2 || G[0] != X[0] || G.back() != n) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s and grid %s: expected [N, C, D1..Dn] and [N, O1..On, n]",
                                 TensorUtils::shapeString(X).c_str(), TensorUtils::shapeString(G).c_str());
    }
    if (p->mode() == 2 && n != 2) {
        return ShapeUtils::error(op, NOT_SUPPORT, "cubic mode needs 4-D X, got %s", TensorUtils::shapeString(X).c_str());
    }
    std::vector<int> out = {X[0], X[1]};
    out.insert(out.end(), G.begin() + 1, G.end() - 1);
    ShapeUtils::setOutput(outputs[0], out, f);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(GridSample, ShapeEntry{shapeGridSample, nullptr, 0})
