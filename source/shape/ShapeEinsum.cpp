// Einsum(inputs...) with EinsumParam.equation (numpy semantics, see EinsumPlan.hpp); all inputs
// share one numeric type, which the output keeps.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"
#include "backend/cpu/ops/EinsumPlan.hpp"

namespace MNN {
static ErrorCode shapeEinsum(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (inputs.empty() || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    auto param = op->param_as_EinsumParam();
    if (!param || !param->equation()) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing EinsumParam.equation");
    }
    std::vector<std::vector<int>> shapes;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d is missing", (int)i);
        }
        auto t = inputs[i]->getType();
        if (!CPUUtils::isNumericType(t) || t != inputs[0]->getType()) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %s has type %s; inputs need one numeric type",
                                     TensorUtils::describe(inputs[i])->name.c_str(), TensorUtils::typeName(t));
        }
        shapes.push_back(TensorUtils::shape(inputs[i]));
    }
    EinsumPlan plan;
    std::string err;
    if (!buildEinsumPlan(param->equation()->str(), shapes, &plan, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "equation '%s': %s", param->equation()->c_str(), err.c_str());
    }
    std::vector<int> out(plan.labelDims.begin(), plan.labelDims.begin() + plan.numOut);
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static double flopsEinsum(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                          const std::vector<Tensor*>& outputs) {
    auto param = op->param_as_EinsumParam();
    std::vector<std::vector<int>> shapes;
    for (auto t : inputs) {
        shapes.push_back(TensorUtils::shape(t));
    }
    EinsumPlan plan;
    std::string err;
    if (!param || !param->equation() || !buildEinsumPlan(param->equation()->str(), shapes, &plan, &err)) {
        return 0;
    }
    double n = 1;
    for (auto d : plan.labelDims) {
        n *= d;
    }
    return n * (double)inputs.size();
}
} // namespace MNN

MNN_REGISTER_SHAPE(Einsum, ShapeEntry{shapeEinsum, flopsEinsum, 0})
