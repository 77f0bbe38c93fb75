// Signal ops (SignalParam): Window (Hann / Hamming / Blackman), DFT, STFT, MelWeightMatrix.
// Their lengths come from scalar inputs read by value (content mask).
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
namespace {
const char* nameOf(const Tensor* t) {
    return TensorUtils::describe(t)->name.c_str();
}

/** a scalar integer input's value (one element of an integer type) */
ErrorCode scalarInt(const Schema::Op* op, const Tensor* t, const char* what, int64_t* v) {
    const auto type = t->getType();
    if (type.code != halide_type_int && type.code != halide_type_uint) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s %s must be an integer, got %s", what, nameOf(t),
                                 TensorUtils::typeName(type));
    }
    if (TensorUtils::elementCount(t) != 1 || t->dimensions() > 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s %s must hold one value, has shape %s", what, nameOf(t),
                                 TensorUtils::shapeString(t).c_str());
    }
    *v = ShapeUtils::readInt(t, 0);
    return NO_ERROR;
}

bool realOrComplexFloat(const Tensor* t) {
    return CPUUtils::isFloatType(t->getType()) && t->getType().bits >= 32;
}

/** output type of Window / MelWeightMatrix: float or double */
ErrorCode outputType(const Schema::Op* op, halide_type_t* type) {
    auto p = op->param_as_SignalParam();
    *type = TensorUtils::typeOf(p ? p->outputType() : Schema::DataType::DT_FLOAT);
    if (!CPUUtils::isFloatType(*type) || type->bits < 32) {
        return ShapeUtils::error(op, NOT_SUPPORT, "output type %s is not supported (float or double)",
                                 TensorUtils::typeName(*type));
    }
    return NO_ERROR;
}
}  // namespace

static ErrorCode shapeWindow(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || inputs.size() != 1 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    int64_t size = 0;
    auto code = scalarInt(op, inputs[0], "size", &size);
    if (code != NO_ERROR) {
        return code;
    }
    int dim = 0;
    if (!ShapeUtils::toDim(size, &dim)) {
        return ShapeUtils::error(op, INVALID_VALUE, "size %s = %lld is invalid", nameOf(inputs[0]), (long long)size);
    }
    halide_type_t type;
    code = outputType(op, &type);
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], {dim}, type);
    return NO_ERROR;
}

static ErrorCode shapeDFT(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                          const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || inputs.size() > 2 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, [dft_length] and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    auto dims = TensorUtils::shape(x);
    const int rank = (int)dims.size();
    if (!realOrComplexFloat(x) || rank < 2 || (dims[rank - 1] != 1 && dims[rank - 1] != 2)) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must be float / double [..., 1 or 2], got %s %s",
                                 nameOf(x), TensorUtils::typeName(x->getType()), TensorUtils::shapeString(x).c_str());
    }
    auto p = op->param_as_SignalParam();
    const int a = p ? p->axis() : 1;
    const int axis = ShapeUtils::normalizeAxis(a, rank);
    if (axis < 0 || axis >= rank - 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d is out of range for input %s %s (not the last dim)", a,
                                 nameOf(x), TensorUtils::shapeString(x).c_str());
    }
    const bool onesided = p && p->onesided();
    if (onesided && p->inverse()) {
        return ShapeUtils::error(op, NOT_SUPPORT, "onesided with inverse is not supported");
    }
    int64_t length = dims[axis];
    if (ShapeUtils::has(inputs, 1)) {
        auto code = scalarInt(op, inputs[1], "dft_length", &length);
        if (code != NO_ERROR) {
            return code;
        }
    }
    int dim = 0;
    if (!ShapeUtils::toDim(length, &dim) || dim < 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "DFT length %lld is invalid (input %s %s)", (long long)length,
                                 nameOf(x), TensorUtils::shapeString(x).c_str());
    }
    dims[axis] = onesided ? dim / 2 + 1 : dim;
    dims[rank - 1] = 2;
    ShapeUtils::setOutput(outputs[0], dims, x->getType());
    return NO_ERROR;
}

static ErrorCode shapeSTFT(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 4 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "needs signal, frame_step, [window], [frame_length] and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    if (!realOrComplexFloat(x) || x->dimensions() != 3 || (x->length(2) != 1 && x->length(2) != 2)) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "signal %s must be float / double [batch, length, 1 or 2], got %s %s", nameOf(x),
                                 TensorUtils::typeName(x->getType()), TensorUtils::shapeString(x).c_str());
    }
    int64_t step = 0;
    auto code = scalarInt(op, inputs[1], "frame_step", &step);
    if (code != NO_ERROR) {
        return code;
    }
    int64_t length = -1;
    if (ShapeUtils::has(inputs, 2)) {
        const Tensor* w = inputs[2];
        if (!(w->getType() == x->getType()) || w->dimensions() != 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "window %s must be 1-D of the signal's type, got %s %s",
                                     nameOf(w), TensorUtils::typeName(w->getType()),
                                     TensorUtils::shapeString(w).c_str());
        }
        length = w->length(0);
    }
    if (ShapeUtils::has(inputs, 3)) {
        int64_t fl = 0;
        code = scalarInt(op, inputs[3], "frame_length", &fl);
        if (code != NO_ERROR) {
            return code;
        }
        if (length >= 0 && fl != length) {
            return ShapeUtils::error(op, INVALID_VALUE, "frame_length %lld differs from the window's length %lld",
                                     (long long)fl, (long long)length);
        }
        length = fl;
    }
    if (length < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs a window or a frame_length");
    }
    const int64_t signal = x->length(1);
    if (step < 1 || length < 1 || length > signal) {
        return ShapeUtils::error(op, INVALID_VALUE, "frame_step %lld / frame length %lld invalid for signal %s %s",
                                 (long long)step, (long long)length, nameOf(x), TensorUtils::shapeString(x).c_str());
    }
    auto p = op->param_as_SignalParam();
    const bool onesided = p ? p->onesided() : true;
    const int64_t frames = (signal - length) / step + 1;
    const int64_t bins = onesided ? length / 2 + 1 : length;
    ShapeUtils::setOutput(outputs[0], {x->length(0), (int)frames, (int)bins, 2}, x->getType());
    return NO_ERROR;
}

static ErrorCode shapeMelWeightMatrix(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    if (inputs.size() != 5 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 5 inputs and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    for (int i = 0; i < 5; ++i) {
        if (!ShapeUtils::has(inputs, i)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d is missing", i);
        }
    }
    int64_t mel = 0, dft = 0, rate = 0;
    static const char* names[3] = {"num_mel_bins", "dft_length", "sample_rate"};
    int64_t* values[3] = {&mel, &dft, &rate};
    for (int i = 0; i < 3; ++i) {
        auto code = scalarInt(op, inputs[i], names[i], values[i]);
        if (code != NO_ERROR) {
            return code;
        }
    }
    for (int i = 3; i < 5; ++i) {
        const Tensor* t = inputs[i];
        if (!CPUUtils::isFloatType(t->getType()) || TensorUtils::elementCount(t) != 1 || t->dimensions() > 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "%s %s must be one float value, got %s %s",
                                     i == 3 ? "lower_edge_hertz" : "upper_edge_hertz", nameOf(t),
                                     TensorUtils::typeName(t->getType()), TensorUtils::shapeString(t).c_str());
        }
    }
    const float low = ShapeUtils::readFloat(inputs[3], 0), high = ShapeUtils::readFloat(inputs[4], 0);
    int melDim = 0, dftDim = 0;
    if (!ShapeUtils::toDim(mel, &melDim) || !ShapeUtils::toDim(dft, &dftDim) || melDim < 1 || dftDim < 1 || rate < 1 ||
        !(low >= 0.0f) || !(high > low)) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "invalid values: num_mel_bins %lld, dft_length %lld, sample_rate %lld, edges %g..%g",
                                 (long long)mel, (long long)dft, (long long)rate, low, high);
    }
    halide_type_t type;
    auto code = outputType(op, &type);
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], {dftDim / 2 + 1, melDim}, type);
    return NO_ERROR;
}
}  // namespace MNN

MNN_REGISTER_SHAPE(Window, ShapeEntry{shapeWindow, nullptr, 0x1u})
MNN_REGISTER_SHAPE(DFT, ShapeEntry{shapeDFT, nullptr, 0x2u})
MNN_REGISTER_SHAPE(STFT, ShapeEntry{shapeSTFT, nullptr, 0xAu})
MNN_REGISTER_SHAPE(MelWeightMatrix, ShapeEntry{shapeMelWeightMatrix, nullptr, 0x1Fu})
