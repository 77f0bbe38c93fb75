// Reduce (ONNX Reduce*): inputs data, [axes] (int32 / int64, read by value; else ReduceParam.axes).
// Empty axes reduce everything unless noopWithEmptyAxes, which makes the op an identity.
// Float types support every ReduceType; integer types all but L2 / LOG_SUM / LOG_SUM_EXP.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
using Schema::ReduceType;

static ErrorCode shapeReduce(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data input and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto param = op->param_as_ReduceParam();
    if (!param) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing ReduceParam");
    }
    const Tensor* data = inputs[0];
    const auto type = param->type();
    if ((int)type < (int)ReduceType::MIN || (int)type > (int)ReduceType::MAX) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown reduce type %d", (int)type);
    }
    auto dt = data->getType();
    bool intOk = type != ReduceType::L2 && type != ReduceType::LOG_SUM && type != ReduceType::LOG_SUM_EXP;
    if (!(CPUUtils::isFloatType(dt) || (intOk && CPUUtils::isIntegerType(dt)))) {
        return ShapeUtils::error(op, NOT_SUPPORT, "%s does not support input %s of type %s",
                                 Schema::EnumNameReduceType(type), TensorUtils::describe(data)->name.c_str(),
                                 TensorUtils::typeName(dt));
    }
    std::vector<int64_t> axes;
    if (ShapeUtils::has(inputs, 1)) {
        const Tensor* a = inputs[1];
        auto at = a->getType();
        if (!(at.code == halide_type_int && (at.bits == 32 || at.bits == 64)) || a->dimensions() > 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "axes input %s must be a 1-D int32/int64 tensor, got %s %s",
                                     TensorUtils::describe(a)->name.c_str(), TensorUtils::typeName(at),
                                     TensorUtils::shapeString(a).c_str());
        }
        axes = ShapeUtils::readInts(a);
    } else if (param->axes()) {
        for (auto v : *param->axes()) {
            axes.push_back(v);
        }
    }
    auto inShape = TensorUtils::shape(data);
    const int rank = (int)inShape.size();
    if (axes.empty() && param->noopWithEmptyAxes()) {
        ShapeUtils::setOutput(outputs[0], inShape, dt);
        return NO_ERROR;
    }
    std::vector<bool> reduced(rank, axes.empty());
    for (auto a : axes) {
        int ax = (a < -rank || a >= rank) ? -1 : (int)(a < 0 ? a + rank : a);
        if (ax < 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "axis %lld is out of range for rank %d", (long long)a, rank);
        }
        if (reduced[ax]) {
            return ShapeUtils::error(op, INVALID_VALUE, "axis %lld is given twice", (long long)a);
        }
        reduced[ax] = true;
    }
    std::vector<int> out;
    for (int i = 0; i < rank; ++i) {
        if (!reduced[i]) {
            out.push_back(inShape[i]);
        } else if (param->keepDims()) {
            out.push_back(1);
        }
    }
    ShapeUtils::setOutput(outputs[0], out, dt);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Reduce, ShapeEntry{shapeReduce, nullptr, 0x2u})
