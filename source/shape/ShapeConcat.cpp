// Concat (AxisParam.axis) and Split (input, split?; AxisParam.axis / numOutputs).
#include <stdio.h>
#include "ShapeDataOps.hpp"

namespace MNN {

static int axisOf(const Schema::Op* op, int def = 0) {
    auto p = op->param_as_AxisParam();
    return p ? p->axis() : def;
}

static ErrorCode shapeConcat(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (inputs.empty() || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs at least 1 input and 1 output");
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d is missing", (int)i);
        }
    }
    auto first = TensorUtils::shape(inputs[0]);
    const int rank = (int)first.size();
    if (rank == 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s is rank 0; Concat needs rank >= 1",
                                 TensorUtils::describe(inputs[0])->name.c_str());
    }
    int axis = ShapeUtils::normalizeAxis(axisOf(op), rank);
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for rank %d", axisOf(op), rank);
    }
    auto out = first;
    int64_t total = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        auto s = TensorUtils::shape(inputs[i]);
        if (inputs[i]->getType() != inputs[0]->getType()) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %s has type %s, input 0 has %s",
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::typeName(inputs[i]->getType()),
                                     TensorUtils::typeName(inputs[0]->getType()));
        }
        bool ok = (int)s.size() == rank;
        for (int d = 0; ok && d < rank; ++d) {
            ok = d == axis || s[d] == first[d];
        }
        if (!ok) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %s has shape %s, incompatible with %s on axis %d",
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::shapeString(s).c_str(), TensorUtils::shapeString(first).c_str(),
                                     axis);
        }
        total += s[axis];
    }
    if (total > 0x7fffffff) {
        return ShapeUtils::error(op, INVALID_VALUE, "concatenated axis has %lld elements", (long long)total);
    }
    out[axis] = (int)total;
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

// Split sizes from the split input, AxisParam.split, numOutputs (uneven) or an even split.
static std::string splitSizes(const Schema::Op* op, const std::vector<Tensor*>& inputs, int dim, int outputCount,
                       std::vector<int>* sizes) {
    auto p = op->param_as_AxisParam();
    std::vector<int64_t> split = DataOps::valuesOf(inputs, 1);
    if (!ShapeUtils::has(inputs, 1) && p && p->split() && p->split()->size() > 0) {
        split.assign(p->split()->begin(), p->split()->end());
    }
    sizes->clear();
    char buf[160];
    if (ShapeUtils::has(inputs, 1) || !split.empty()) {
        if ((int)split.size() != outputCount) {
            snprintf(buf, sizeof(buf), "split has %d sizes for %d outputs", (int)split.size(), outputCount);
            return buf;
        }
        int64_t sum = 0;
        for (auto s : split) {
            if (s < 0 || s > dim) {
                snprintf(buf, sizeof(buf), "split size %lld is invalid for an axis of %d", (long long)s, dim);
                return buf;
            }
            sum += s;
            sizes->push_back((int)s);
        }
        if (sum != dim) {
            snprintf(buf, sizeof(buf), "split sizes add up to %lld, the axis has %d", (long long)sum, dim);
            return buf;
        }
        return "";
    }
    int n = outputCount;
    if (p && p->numOutputs() > 0) {
        if (p->numOutputs() != outputCount) {
            snprintf(buf, sizeof(buf), "numOutputs %d but the op has %d outputs", p->numOutputs(), outputCount);
            return buf;
        }
        int64_t chunk = ((int64_t)dim + n - 1) / n;
        int64_t last = (int64_t)dim - chunk * (n - 1);
        if (last < 0) {
            snprintf(buf, sizeof(buf), "an axis of %d cannot be split into %d chunks of %lld", dim, n,
                     (long long)chunk);
            return buf;
        }
        sizes->assign(n, (int)chunk);
        (*sizes)[n - 1] = (int)last;
        return "";
    }
    if (dim % n != 0) {
        snprintf(buf, sizeof(buf), "an axis of %d does not split evenly into %d outputs", dim, n);
        return buf;
    }
    sizes->assign(n, dim / n);
    return "";
}

static ErrorCode shapeSplit(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs an input and at least 1 output");
    }
    auto dims = TensorUtils::shape(inputs[0]);
    const int rank = (int)dims.size();
    int axis = ShapeUtils::normalizeAxis(axisOf(op), rank);
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for rank %d", axisOf(op), rank);
    }
    if (ShapeUtils::has(inputs, 1) && !DataOps::isIntegerType(inputs[1]->getType())) {
        return ShapeUtils::error(op, INVALID_VALUE, "split input must be integer, got %s",
                                 TensorUtils::typeName(inputs[1]->getType()));
    }
    std::vector<int> sizes;
    auto msg = splitSizes(op, inputs, dims[axis], (int)outputs.size(), &sizes);
    if (!msg.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", msg.c_str());
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
        auto s = dims;
        s[axis] = sizes[i];
        ShapeUtils::setOutput(outputs[i], s, inputs[0]->getType());
    }
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Concat, ShapeEntry{shapeConcat, nullptr, 0})
MNN_REGISTER_SHAPE(Split, ShapeEntry{shapeSplit, nullptr, 0x2u})
