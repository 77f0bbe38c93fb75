// TopK: inputs X, K (one int32/int64 value, read by value); outputs values (type of X) and int64
// indices, with K in place of dim `axis`. Without a TopKParam the ONNX defaults apply.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeTopK(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, K and 2 outputs, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto param = op->param_as_TopKParam();
    const Tensor* x = inputs[0];
    const Tensor* k = inputs[1];
    if (!CPUUtils::isNumericType(x->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    auto kt = k->getType();
    if (!(kt.code == halide_type_int && (kt.bits == 32 || kt.bits == 64)) || TensorUtils::elementCount(k) != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "K input %s must hold one int32/int64 value, got %s %s",
                                 TensorUtils::describe(k)->name.c_str(), TensorUtils::typeName(kt),
                                 TensorUtils::shapeString(k).c_str());
    }
    auto shape = TensorUtils::shape(x);
    const int rank = (int)shape.size();
    const int axisIn = param ? param->axis() : -1;
    const int axis = ShapeUtils::normalizeAxis(axisIn, rank);
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d is out of range for input %s of rank %d", axisIn,
                                 TensorUtils::describe(x)->name.c_str(), rank);
    }
    auto kvals = ShapeUtils::readInts(k);
    if (kvals.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "K input %s has no value", TensorUtils::describe(k)->name.c_str());
    }
    const int64_t kv = kvals[0];
    if (kv < 0 || kv > shape[axis]) {
        return ShapeUtils::error(op, INVALID_VALUE, "K = %lld is outside [0, %d] (dim %d of input %s)",
                                 (long long)kv, shape[axis], axis, TensorUtils::describe(x)->name.c_str());
    }
    shape[axis] = (int)kv;
    ShapeUtils::setOutput(outputs[0], shape, x->getType());
    ShapeUtils::setOutput(outputs[1], shape, halide_type_of<int64_t>());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(TopK, ShapeEntry{shapeTopK, nullptr, 0x2u})
