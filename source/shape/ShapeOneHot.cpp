// OneHot (indices, depth, values; AxisParam.axis), NonZero, Compress (input, condition;
// AxisParam.axes = [axis] when ONNX gives an axis, no axes = the input is flattened).
// NonZero and Compress have output shapes decided by input values (content mask).
#include "ShapeDataOps.hpp"

namespace MNN {

static ErrorCode shapeOneHot(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs indices, depth, values and 1 output");
    }
    auto depthT = inputs[1];
    auto valuesT = inputs[2];
    auto it = inputs[0]->getType();
    if (it.code == halide_type_handle || depthT->getType().code == halide_type_handle) {
        return ShapeUtils::error(op, INVALID_VALUE, "indices and depth must be numeric");
    }
    if (TensorUtils::elementCount(depthT) != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "depth %s must hold one value, has shape %s",
                                 TensorUtils::describe(depthT)->name.c_str(), TensorUtils::shapeString(depthT).c_str());
    }
    if (TensorUtils::elementCount(valuesT) != 2 || valuesT->dimensions() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "values %s must be [off, on], has shape %s",
                                 TensorUtils::describe(valuesT)->name.c_str(),
                                 TensorUtils::shapeString(valuesT).c_str());
    }
    int64_t depth = ShapeUtils::readInts(depthT)[0];
    if (depth < 0 || depth > 0x7fffffff) {
        return ShapeUtils::error(op, INVALID_VALUE, "depth %lld is invalid", (long long)depth);
    }
    auto idx = TensorUtils::shape(inputs[0]);
    const int rank = (int)idx.size() + 1;
    if (rank > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "output rank over the limit");
    }
    auto p = op->param_as_AxisParam();
    const int a = p ? p->axis() : -1;
    const int axis = ShapeUtils::normalizeAxis(a, rank);
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for output rank %d", a, rank);
    }
    std::vector<int> out = idx;
    out.insert(out.begin() + axis, (int)depth);
    ShapeUtils::setOutput(outputs[0], out, valuesT->getType());
    return NO_ERROR;
}

static ErrorCode shapeNonZero(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto x = inputs[0];
    if (x->getType().code == halide_type_handle || x->getType().code == halide_type_bfloat) {
        return ShapeUtils::error(op, NOT_SUPPORT, "type %s is not supported", TensorUtils::typeName(x->getType()));
    }
    const int64_t n = TensorUtils::elementCount(x);
    int64_t nnz = 0;
    for (int64_t i = 0; i < n; ++i) {
        nnz += DataOps::isNonZero(x, i) ? 1 : 0;
    }
    // a rank-0 input is treated as 1-D (numpy's atleast_1d): one coordinate row
    const int rows = x->dimensions() == 0 ? 1 : x->dimensions();
    ShapeUtils::setOutput(outputs[0], {rows, (int)nnz}, halide_type_of<int64_t>());
    return NO_ERROR;
}

static ErrorCode shapeCompress(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, condition and 1 output");
    }
    auto cond = inputs[1];
    if (cond->dimensions() != 1 || cond->getType().code == halide_type_handle) {
        return ShapeUtils::error(op, INVALID_VALUE, "condition %s must be a 1-D bool tensor, got %s %s",
                                 TensorUtils::describe(cond)->name.c_str(), TensorUtils::typeName(cond->getType()),
                                 TensorUtils::shapeString(cond).c_str());
    }
    auto in = TensorUtils::shape(inputs[0]);
    auto p = op->param_as_AxisParam();
    int64_t length = 0;
    int axis = -1;
    if (p && p->axes() && p->axes()->size() > 0) {
        const int a = p->axes()->Get(0);
        axis = ShapeUtils::normalizeAxis(a, (int)in.size());
        if (axis < 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for rank %d", a, (int)in.size());
        }
        length = in[axis];
    } else {
        length = TensorUtils::elementCount(inputs[0]);
    }
    const int64_t n = TensorUtils::elementCount(cond);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (DataOps::isNonZero(cond, i)) {
            if (i >= length) {
                return ShapeUtils::error(op, INVALID_VALUE, "condition selects index %lld beyond the %lld slices",
                                         (long long)i, (long long)length);
            }
            ++kept;
        }
    }
    std::vector<int> out;
    if (axis >= 0) {
        out = in;
        out[axis] = (int)kept;
    } else {
        out = {(int)kept};
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(OneHot, ShapeEntry{shapeOneHot, nullptr, 0x2u})
MNN_REGISTER_SHAPE(NonZero, ShapeEntry{shapeNonZero, nullptr, 0x1u, true})
MNN_REGISTER_SHAPE(Compress, ShapeEntry{shapeCompress, nullptr, 0x2u})
