// Reshape (data, shape), Flatten (AxisParam.axis), Squeeze (data, axes?), Unsqueeze (data, axes).
#include "ShapeDataOps.hpp"

namespace MNN {

static ErrorCode checkIntVector(const Schema::Op* op, const std::vector<Tensor*>& inputs, size_t i,
                                const char* what) {
    if (!ShapeUtils::has(inputs, i)) {
        return NO_ERROR;
    }
    auto t = inputs[i];
    if (!DataOps::isIntegerType(t->getType()) || t->dimensions() > 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s input %s must be a 1-D int32/int64 tensor, got %s %s", what,
                                 TensorUtils::describe(t)->name.c_str(), TensorUtils::typeName(t->getType()),
                                 TensorUtils::shapeString(t).c_str());
    }
    return NO_ERROR;
}

static ErrorCode shapeReshape(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, shape and 1 output");
    }
    auto p = op->param_as_ReshapeParam();
    std::vector<int64_t> shape;
    if (ShapeUtils::has(inputs, 1)) {
        if (checkIntVector(op, inputs, 1, "shape") != NO_ERROR) {
            return INVALID_VALUE;  // reported by checkIntVector
        }
        shape = ShapeUtils::readInts(inputs[1]);
    } else if (p && p->shape()) {
        shape.assign(p->shape()->begin(), p->shape()->end());
    } else {
        return ShapeUtils::error(op, INVALID_VALUE, "the shape input is missing");
    }
    const bool allowZero = p && p->allowZero();
    auto in = TensorUtils::shape(inputs[0]);
    const int64_t count = TensorUtils::elementCount(inputs[0]);
    if (shape.size() > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "target rank %d over the limit %d", (int)shape.size(),
                                 MNN_MAX_TENSOR_DIM);
    }
    std::vector<int> out(shape.size());
    int inferAt = -1;
    bool hasZero = false;
    int64_t known = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        int64_t v = shape[i];
        if (v == -1) {
            if (inferAt >= 0) {
                return ShapeUtils::error(op, INVALID_VALUE, "shape has more than one -1");
            }
            inferAt = (int)i;
            continue;
        }
        if (v < -1) {
            return ShapeUtils::error(op, INVALID_VALUE, "shape value %lld is invalid", (long long)v);
        }
        if (v == 0 && !allowZero) {
            if (i >= in.size()) {
                return ShapeUtils::error(op, INVALID_VALUE, "shape[%d] = 0 copies a dim the rank-%d input lacks",
                                         (int)i, (int)in.size());
            }
            v = in[i];
        }
        if (v == 0) {
            hasZero = true;
        }
        if (v > 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "shape value %lld too large", (long long)v);
        }
        out[i] = (int)v;
        known *= v;
        if (known > ((int64_t)1 << 40)) {
            return ShapeUtils::error(op, INVALID_VALUE, "target shape too large");
        }
    }
    if (inferAt >= 0) {
        if (allowZero && hasZero) {
            return ShapeUtils::error(op, INVALID_VALUE, "allowZero shape has both 0 and -1");
        }
        if (known == 0 || count % known != 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "cannot infer -1: %lld elements into a known product of %lld",
                                     (long long)count, (long long)known);
        }
        out[inferAt] = (int)(count / known);
        known *= out[inferAt];
    }
    if (known != count) {
        return ShapeUtils::error(op, INVALID_VALUE, "cannot reshape %s (%lld elements) to %s",
                                 TensorUtils::shapeString(in).c_str(), (long long)count,
                                 TensorUtils::shapeString(out).c_str());
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeFlatten(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto p = op->param_as_AxisParam();
    int axis = p ? p->axis() : 1;
    auto in = TensorUtils::shape(inputs[0]);
    const int rank = (int)in.size();
    if (axis < -rank || axis > rank) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range [-%d, %d]", axis, rank, rank);
    }
    if (axis < 0) {
        axis += rank;
    }
    int64_t a = 1, b = 1;
    for (int i = 0; i < rank; ++i) {
        (i < axis ? a : b) *= in[i];
    }
    if (a > 0x7fffffff || b > 0x7fffffff) {
        return ShapeUtils::error(op, INVALID_VALUE, "flattened dims too large");
    }
    ShapeUtils::setOutput(outputs[0], {(int)a, (int)b}, inputs[0]->getType());
    return NO_ERROR;
}

// axes from input 1 or AxisParam.axes; `given` tells whether any were given
static bool axesOf(const Schema::Op* op, const std::vector<Tensor*>& inputs, std::vector<int64_t>* axes) {
    if (ShapeUtils::has(inputs, 1)) {
        *axes = ShapeUtils::readInts(inputs[1]);
        return true;
    }
    auto p = op->param_as_AxisParam();
    if (p && p->axes() && p->axes()->size() > 0) {
        axes->assign(p->axes()->begin(), p->axes()->end());
        return true;
    }
    return false;
}

static ErrorCode shapeSqueeze(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    if (checkIntVector(op, inputs, 1, "axes") != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIntVector
    }
    auto in = TensorUtils::shape(inputs[0]);
    const int rank = (int)in.size();
    std::vector<int64_t> axes;
    std::vector<bool> drop(rank, false);
    if (axesOf(op, inputs, &axes)) {
        std::vector<int> norm;
        if (!DataOps::normalizeAxes(axes, rank, &norm)) {
            return ShapeUtils::error(op, INVALID_VALUE, "axes out of range or repeated for rank %d", rank);
        }
        for (auto a : norm) {
            if (in[a] != 1) {
                return ShapeUtils::error(op, INVALID_VALUE, "axis %d of %s has size %d, not 1", a,
                                         TensorUtils::shapeString(in).c_str(), in[a]);
            }
            drop[a] = true;
        }
    } else {
        for (int i = 0; i < rank; ++i) {
            drop[i] = in[i] == 1;
        }
    }
    std::vector<int> out;
    for (int i = 0; i < rank; ++i) {
        if (!drop[i]) {
            out.push_back(in[i]);
        }
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeUnsqueeze(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    if (checkIntVector(op, inputs, 1, "axes") != NO_ERROR) {
        return INVALID_VALUE;  // reported by checkIntVector
    }
    auto in = TensorUtils::shape(inputs[0]);
    std::vector<int64_t> axes;
    if (!axesOf(op, inputs, &axes) || axes.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "axes are missing");
    }
    const int rank = (int)(in.size() + axes.size());
    if (rank > MNN_MAX_TENSOR_DIM) {
        return ShapeUtils::error(op, INVALID_VALUE, "output rank %d over the limit %d", rank, MNN_MAX_TENSOR_DIM);
    }
    std::vector<int> norm;
    if (!DataOps::normalizeAxes(axes, rank, &norm)) {
        return ShapeUtils::error(op, INVALID_VALUE, "axes out of range or repeated for output rank %d", rank);
    }
    std::vector<bool> inserted(rank, false);
    for (auto a : norm) {
        inserted[a] = true;
    }
    std::vector<int> out;
    size_t k = 0;
    for (int i = 0; i < rank; ++i) {
        out.push_back(inserted[i] ? 1 : in[k++]);
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Reshape, ShapeEntry{shapeReshape, nullptr, 0x2u})
MNN_REGISTER_SHAPE(Flatten, ShapeEntry{shapeFlatten, nullptr, 0})
MNN_REGISTER_SHAPE(Squeeze, ShapeEntry{shapeSqueeze, nullptr, 0x2u})
MNN_REGISTER_SHAPE(Unsqueeze, ShapeEntry{shapeUnsqueeze, nullptr, 0x2u})
