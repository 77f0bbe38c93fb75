// NegativeLogLikelihoodLoss (LossParam): input [N, C, d1..dk] (float / double), target
// [N, d1..dk] (int32 / int64), optional weight [C] of input's type. Output: loss of input's type,
// [N, d1..dk] for reduction none, a scalar for sum / mean.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeNegativeLogLikelihoodLoss(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                                const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 3 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, target, [weight] and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    const Tensor* t = inputs[1];
    const char* xn = TensorUtils::describe(x)->name.c_str();
    const char* tn = TensorUtils::describe(t)->name.c_str();
    if (!CPUUtils::isFloatType(x->getType()) || x->getType().bits < 32) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s must be float or double, got %s", xn,
                                 TensorUtils::typeName(x->getType()));
    }
    const auto tt = t->getType();
    if (tt.code != halide_type_int || (tt.bits != 32 && tt.bits != 64)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "target %s must be int32 or int64, got %s", tn,
                                 TensorUtils::typeName(tt));
    }
    auto xd = TensorUtils::shape(x);
    auto td = TensorUtils::shape(t);
    bool match = xd.size() >= 2 && td.size() + 1 == xd.size() && td[0] == xd[0];
    for (size_t i = 2; match && i < xd.size(); ++i) {
        match = td[i - 1] == xd[i];
    }
    if (!match) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s %s and target %s %s must be [N, C, d...] and [N, d...]",
                                 xn, TensorUtils::shapeString(x).c_str(), tn, TensorUtils::shapeString(t).c_str());
    }
    if (ShapeUtils::has(inputs, 2)) {
        const Tensor* w = inputs[2];
        if (!(w->getType() == x->getType()) || w->dimensions() != 1 || w->length(0) != xd[1]) {
            return ShapeUtils::error(op, INVALID_VALUE, "weight %s must be [%d] of the input's type, got %s %s",
                                     TensorUtils::describe(w)->name.c_str(), xd[1], TensorUtils::typeName(w->getType()),
                                     TensorUtils::shapeString(w).c_str());
        }
    }
    auto p = op->param_as_LossParam();
    const auto reduction = p ? p->reduction() : Schema::LossReduction::MEAN;
    if (reduction != Schema::LossReduction::NONE && reduction != Schema::LossReduction::MEAN &&
        reduction != Schema::LossReduction::SUM) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown reduction %d", (int)reduction);
    }
    if (reduction == Schema::LossReduction::NONE) {
        ShapeUtils::setOutput(outputs[0], td, x->getType());
    } else {
        ShapeUtils::setOutput(outputs[0], {}, x->getType());
    }
    return NO_ERROR;
}
}  // namespace MNN

MNN_REGISTER_SHAPE(NegativeLogLikelihoodLoss, ShapeEntry{shapeNegativeLogLikelihoodLoss, nullptr, 0})
