// Gather, GatherElements, GatherND (AxisParam.axis / batchDims), ScatterND, ScatterElements
// (AxisParam.reduction). Index values are checked by the kernels at execute time.
#include "ShapeDataOps.hpp"

namespace MNN {

static const char* nameOf(const Tensor* t) {
    return TensorUtils::describe(t)->name.c_str();
}

static ErrorCode checkIndices(const Schema::Op* op, const Tensor* t) {
    auto type = t->getType();
    if (type.code != halide_type_int || (type.bits != 32 && type.bits != 64)) {
        return ShapeUtils::error(op, INVALID_VALUE, "indices %s must be int32 or int64, got %s", nameOf(t),
                                 TensorUtils::typeName(type));
    }
    return NO_ERROR;
}

static ErrorCode shapeGather(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, indices and 1 output");
    }
    if (checkIndices(op, inputs[1]) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    auto data = TensorUtils::shape(inputs[0]);
    auto idx = TensorUtils::shape(inputs[1]);
    auto p = op->param_as_AxisParam();
    const int a = p ? p->axis() : 0;
    const int axis = ShapeUtils::normalizeAxis(a, (int)data.size());
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for data %s of rank %d", a, nameOf(inputs[0]),
                                 (int)data.size());
    }
    if (data.size() - 1 + idx.size() > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "output rank over the limit");
    }
    std::vector<int> out(data.begin(), data.begin() + axis);
    out.insert(out.end(), idx.begin(), idx.end());
    out.insert(out.end(), data.begin() + axis + 1, data.end());
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

// indices (and updates) of the *Elements ops: same rank as data, non-axis dims within data's
static ErrorCode checkElements(const Schema::Op* op, const std::vector<int>& data, const Tensor* indices,
                               int* axisOut) {
    auto idx = TensorUtils::shape(indices);
    auto p = op->param_as_AxisParam();
    const int a = p ? p->axis() : 0;
    const int axis = ShapeUtils::normalizeAxis(a, (int)data.size());
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for rank %d", a, (int)data.size());
    }
    if (idx.size() != data.size()) {
        return ShapeUtils::error(op, INVALID_VALUE, "indices %s has rank %d, data rank %d", nameOf(indices),
                                 (int)idx.size(), (int)data.size());
    }
    for (size_t d = 0; d < idx.size(); ++d) {
        if ((int)d != axis && idx[d] > data[d]) {
            return ShapeUtils::error(op, INVALID_VALUE, "indices %s shape %s exceeds data %s on axis %d",
                                     nameOf(indices), TensorUtils::shapeString(idx).c_str(),
                                     TensorUtils::shapeString(data).c_str(), (int)d);
        }
    }
    *axisOut = axis;
    return NO_ERROR;
}

static ErrorCode shapeGatherElements(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                     const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, indices and 1 output");
    }
    int axis = 0;
    if (checkIndices(op, inputs[1]) != NO_ERROR ||
        checkElements(op, TensorUtils::shape(inputs[0]), inputs[1], &axis) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    if (inputs[0]->dimensions() == 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "data must have rank >= 1");
    }
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(inputs[1]), inputs[0]->getType());
    return NO_ERROR;
}

// GatherND / ScatterND index layout: batch dims b, tuple length `last`
static ErrorCode checkND(const Schema::Op* op, const std::vector<int>& data, const std::vector<int>& idx, int b,
                         int* lastOut) {
    const int r = (int)data.size();
    const int q = (int)idx.size();
    if (r < 1 || q < 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "data and indices must have rank >= 1 (got %d, %d)", r, q);
    }
    if (b < 0 || b >= q || b >= r) {
        return ShapeUtils::error(op, INVALID_VALUE, "batchDims %d invalid for ranks %d and %d", b, r, q);
    }
    for (int d = 0; d < b; ++d) {
        if (data[d] != idx[d]) {
            return ShapeUtils::error(op, INVALID_VALUE, "batch dim %d differs: data %d, indices %d", d, data[d], idx[d]);
        }
    }
    const int last = idx[q - 1];
    if (last < 1 || last > r - b) {
        return ShapeUtils::error(op, INVALID_VALUE, "indices last dim %d must be in [1, %d]", last, r - b);
    }
    *lastOut = last;
    return NO_ERROR;
}

static ErrorCode shapeGatherND(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, indices and 1 output");
    }
    if (checkIndices(op, inputs[1]) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    auto data = TensorUtils::shape(inputs[0]);
    auto idx = TensorUtils::shape(inputs[1]);
    auto p = op->param_as_AxisParam();
    const int b = p ? p->batchDims() : 0;
    int last = 0;
    if (checkND(op, data, idx, b, &last) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    std::vector<int> out(idx.begin(), idx.end() - 1);
    out.insert(out.end(), data.begin() + b + last, data.end());
    if (out.size() > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "output rank over the limit");
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode checkScatterCommon(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, indices, updates and 1 output");
    }
    if (checkIndices(op, inputs[1]) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    if (inputs[2]->getType() != inputs[0]->getType()) {
        return ShapeUtils::error(op, INVALID_VALUE, "updates type %s differs from data type %s",
                                 TensorUtils::typeName(inputs[2]->getType()),
                                 TensorUtils::typeName(inputs[0]->getType()));
    }
    auto p = op->param_as_AxisParam();
    const int red = p ? p->reduction() : 0;
    if (red < 0 || red > 4) {
        return ShapeUtils::error(op, INVALID_VALUE, "reduction %d is not 0..4 (none/add/mul/max/min)", red);
    }
    return NO_ERROR;
}

static ErrorCode shapeScatterND(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    if (checkScatterCommon(op, inputs, outputs) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    auto data = TensorUtils::shape(inputs[0]);
    auto idx = TensorUtils::shape(inputs[1]);
    int last = 0;
    if (checkND(op, data, idx, 0, &last) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    std::vector<int> want(idx.begin(), idx.end() - 1);
    want.insert(want.end(), data.begin() + last, data.end());
    if (TensorUtils::shape(inputs[2]) != want) {
        return ShapeUtils::error(op, INVALID_VALUE, "updates %s has shape %s, expected %s", nameOf(inputs[2]),
                                 TensorUtils::shapeString(inputs[2]).c_str(), TensorUtils::shapeString(want).c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

static ErrorCode shapeScatterElements(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    if (checkScatterCommon(op, inputs, outputs) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    int axis = 0;
    if (inputs[0]->dimensions() == 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "data must have rank >= 1");
    }
    if (checkElements(op, TensorUtils::shape(inputs[0]), inputs[1], &axis) != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIndices / checkScatterCommon
    }
    if (TensorUtils::shape(inputs[2]) != TensorUtils::shape(inputs[1])) {
        return ShapeUtils::error(op, INVALID_VALUE, "updates %s shape %s differs from indices shape %s",
                                 nameOf(inputs[2]), TensorUtils::shapeString(inputs[2]).c_str(),
                                 TensorUtils::shapeString(inputs[1]).c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Gather, ShapeEntry{shapeGather, nullptr, 0})
MNN_REGISTER_SHAPE(GatherElements, ShapeEntry{shapeGatherElements, nullptr, 0})
MNN_REGISTER_SHAPE(GatherND, ShapeEntry{shapeGatherND, nullptr, 0})
MNN_REGISTER_SHAPE(ScatterND, ShapeEntry{shapeScatterND, nullptr, 0})
MNN_REGISTER_SHAPE(ScatterElements, ShapeEntry{shapeScatterElements, nullptr, 0})
