// Normalisations (float32): BatchNorm (inference), InstanceNorm, LayerNorm, GroupNorm, RMSNorm, LRN,
// LpNormalization, MeanVarianceNormalization. Outputs take X's shape (LayerNorm's optional Mean and
// InvStdDev: X's shape with the normalised dims set to 1).
#include "NormShapeUtils.hpp"
#include "ShapeUtils.hpp"

namespace MNN {

static ErrorCode requireFloat(const Schema::Op* op, const std::vector<Tensor*>& inputs, const char* const* names) {
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] && !(inputs[i]->getType() == halide_type_of<float>())) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %s has type %s; only float32 is supported", names[i],
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    return NO_ERROR;
}

static ErrorCode checkCounts(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs, size_t minIn, size_t maxIn, size_t maxOut) {
    for (size_t i = 0; i < minIn; ++i) {
        if (!ShapeUtils::has(inputs, i)) {
            return ShapeUtils::error(op, INVALID_VALUE, "required input %d is missing", (int)i);
        }
    }
    if (inputs.size() > maxIn || outputs.empty() || outputs.size() > maxOut) {
        return ShapeUtils::error(op, INVALID_VALUE, "got %d inputs and %d outputs; expects at most %d and %d",
                                 (int)inputs.size(), (int)outputs.size(), (int)maxIn, (int)maxOut);
    }
    return NO_ERROR;
}

// A per-channel vector: shape [C].
static ErrorCode checkChannelVector(const Schema::Op* op, const Tensor* t, const char* name, int c) {
    auto s = TensorUtils::shape(t);
    if (s.size() != 1 || s[0] != c) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s has shape %s; expected [%d] (channels of X)", name,
                                 TensorUtils::shapeString(s).c_str(), c);
    }
    return NO_ERROR;
}

static ErrorCode shapeBatchNorm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    static const char* names[] = {"X", "scale", "B", "input_mean", "input_var"};
    auto code = checkCounts(op, inputs, outputs, 5, 5, 1);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    auto x = TensorUtils::shape(inputs[0]);
    if (x.size() < 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "X has shape %s; expected [N, C, ...]",
                                 TensorUtils::shapeString(x).c_str());
    }
    for (int i = 1; i < 5; ++i) {
        code = checkChannelVector(op, inputs[i], names[i], x[1]);
        if (code != NO_ERROR) {
            return code;
        }
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

static ErrorCode shapeInstanceNorm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                   const std::vector<Tensor*>& outputs) {
    static const char* names[] = {"input", "scale", "B"};
    auto code = checkCounts(op, inputs, outputs, 3, 3, 1);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    auto x = TensorUtils::shape(inputs[0]);
    if (x.size() < 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "input has shape %s; expected [N, C, ...]",
                                 TensorUtils::shapeString(x).c_str());
    }
    for (int i = 1; i < 3; ++i) {
        code = checkChannelVector(op, inputs[i], names[i], x[1]);
        if (code != NO_ERROR) {
            return code;
        }
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

// LayerNorm / RMSNorm: normalised dims [axis, rank); scale and bias broadcast to them.
static ErrorCode shapeAxisNorm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs, bool rms) {
    static const char* names[] = {"X", "Scale", "B"};
    auto code = checkCounts(op, inputs, outputs, 1, rms ? 2 : 3, rms ? 1 : 3);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    auto param = op->param_as_NormParam();
    int axisAttr = param ? param->axis() : -1;
    auto x = TensorUtils::shape(inputs[0]);
    int axis = ShapeUtils::normalizeAxis(axisAttr, (int)x.size());
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d is out of range for X of rank %d", axisAttr,
                                 (int)x.size());
    }
    std::vector<int> norm(x.begin() + axis, x.end());
    for (size_t i = 1; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            continue;
        }
        auto s = TensorUtils::shape(inputs[i]);
        if (!NormShapeUtils::broadcastsTo(s, norm)) {
            return ShapeUtils::error(op, INVALID_VALUE, "%s has shape %s; it does not broadcast to the normalised shape %s",
                                     names[i], TensorUtils::shapeString(s).c_str(),
                                     TensorUtils::shapeString(norm).c_str());
        }
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    std::vector<int> stat = x;
    for (size_t i = axis; i < stat.size(); ++i) {
        stat[i] = 1;
    }
    for (size_t i = 1; i < outputs.size(); ++i) {
        ShapeUtils::setOutput(outputs[i], stat, halide_type_of<float>());
    }
    return NO_ERROR;
}

static ErrorCode shapeLayerNorm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    return shapeAxisNorm(op, inputs, outputs, false);
}

static ErrorCode shapeRMSNorm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    return shapeAxisNorm(op, inputs, outputs, true);
}

static ErrorCode shapeGroupNorm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    static const char* names[] = {"X", "scale", "bias"};
    auto code = checkCounts(op, inputs, outputs, 1, 3, 1);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    auto param = op->param_as_NormParam();
    int groups = param ? param->numGroups() : 1;
    auto x = TensorUtils::shape(inputs[0]);
    if (x.size() < 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "X has shape %s; expected [N, C, ...]",
                                 TensorUtils::shapeString(x).c_str());
    }
    if (groups < 1 || x[1] % groups != 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "num_groups %d does not divide the %d channels of X", groups, x[1]);
    }
    for (size_t i = 1; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            continue;
        }
        auto s = TensorUtils::shape(inputs[i]);
        if (s.size() != 1 || (s[0] != x[1] && s[0] != groups)) {
            return ShapeUtils::error(op, INVALID_VALUE, "%s has shape %s; expected [%d] (channels) or [%d] (groups)",
                                     names[i], TensorUtils::shapeString(s).c_str(), x[1], groups);
        }
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

static ErrorCode shapeLRN(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                          const std::vector<Tensor*>& outputs) {
    static const char* names[] = {"X"};
    auto code = checkCounts(op, inputs, outputs, 1, 1, 1);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    auto param = op->param_as_LrnParam();
    int size = param ? param->size() : 1;
    if (size < 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "size %d is below 1", size);
    }
    if (inputs[0]->dimensions() < 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "X has shape %s; expected [N, C, ...]",
                                 TensorUtils::shapeString(inputs[0]).c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

static ErrorCode shapeLpNormalization(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    static const char* names[] = {"input"};
    auto code = checkCounts(op, inputs, outputs, 1, 1, 1);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    auto param = op->param_as_NormParam();
    int axisAttr = param ? param->axis() : -1;
    int p = param ? param->p() : 2;
    if (p != 1 && p != 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "p %d is not 1 or 2", p);
    }
    if (ShapeUtils::normalizeAxis(axisAttr, inputs[0]->dimensions()) < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d is out of range for input of rank %d", axisAttr,
                                 inputs[0]->dimensions());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

static ErrorCode shapeMVN(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                          const std::vector<Tensor*>& outputs) {
    static const char* names[] = {"X"};
    auto code = checkCounts(op, inputs, outputs, 1, 1, 1);
    if (code == NO_ERROR) {
        code = requireFloat(op, inputs, names);
    }
    if (code != NO_ERROR) {
        return code;
    }
    std::vector<bool> reduced;
    std::string err;
    if (!NormShapeUtils::mvnAxes(op->param_as_NormParam(), inputs[0]->dimensions(), &reduced, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

} // namespace MNN

MNN_REGISTER_SHAPE(BatchNorm, ShapeEntry{shapeBatchNorm, nullptr, 0})
MNN_REGISTER_SHAPE(InstanceNorm, ShapeEntry{shapeInstanceNorm, nullptr, 0})
MNN_REGISTER_SHAPE(LayerNorm, ShapeEntry{shapeLayerNorm, nullptr, 0})
MNN_REGISTER_SHAPE(RMSNorm, ShapeEntry{shapeRMSNorm, nullptr, 0})
MNN_REGISTER_SHAPE(GroupNorm, ShapeEntry{shapeGroupNorm, nullptr, 0})
MNN_REGISTER_SHAPE(LRN, ShapeEntry{shapeLRN, nullptr, 0})
MNN_REGISTER_SHAPE(LpNormalization, ShapeEntry{shapeLpNormalization, nullptr, 0})
MNN_REGISTER_SHAPE(MeanVarianceNormalization, ShapeEntry{shapeMVN, nullptr, 0})
