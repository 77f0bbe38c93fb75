// Shape functions of Unique (value-dependent output count), Det, QuantizeLinear / DequantizeLinear,
// Random (RandomNormal/Uniform and their *Like forms) and Bernoulli. ONNX semantics.
#include "ShapeUtils.hpp"
#include "UniqueCore.hpp"

namespace MNN {

// Unique (X; AxisParam.axes = [axis] or empty = flattened; exclusive = !sorted) ->
// Y, indices, inverse_indices, counts (the three index outputs int64).
static ErrorCode shapeUnique(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.empty() || outputs.size() > 4 || !outputs[0]) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 to 4 outputs (Y present), got %d outputs",
                                 (int)outputs.size());
    }
    auto x = inputs[0];
    auto in = TensorUtils::shape(x);
    auto p = op->param_as_AxisParam();
    int axis = -1;
    if (p && p->axes() && p->axes()->size() > 0) {
        if (p->axes()->size() != 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "takes one axis, got %d", (int)p->axes()->size());
        }
        axis = ShapeUtils::normalizeAxis(p->axes()->Get(0), (int)in.size());
        if (axis < 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for input %s of rank %d",
                                     p->axes()->Get(0), TensorUtils::describe(x)->name.c_str(), (int)in.size());
        }
    }
    int64_t outer = 1, n = TensorUtils::elementCount(x), inner = 1;
    if (axis >= 0) {
        outer = 1;
        for (int d = 0; d < axis; ++d) {
            outer *= in[d];
        }
        n = in[axis];
        inner = 1;
        for (int d = axis + 1; d < (int)in.size(); ++d) {
            inner *= in[d];
        }
    }
    std::vector<int64_t> perm(n), groupOf(n);
    int64_t groups = 0;
    bool ok = UniqueCore::dispatch(x->getType(), x->host<void>(), [&](auto* data) {
        groups = UniqueCore::group(data, outer, n, inner, perm.data(), groupOf.data());
    });
    if (!ok) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s type %s is not supported",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    std::vector<int> y;
    if (axis >= 0) {
        y = in;
        y[axis] = (int)groups;
    } else {
        y = {(int)groups};
    }
    const auto i64 = halide_type_of<int64_t>();
    for (size_t k = 0; k < outputs.size(); ++k) {
        if (!outputs[k]) {
            continue;
        }
        if (k == 0) {
            ShapeUtils::setOutput(outputs[0], y, x->getType());
        } else if (k == 2) {
            ShapeUtils::setOutput(outputs[k], {(int)n}, i64);
        } else {
            ShapeUtils::setOutput(outputs[k], {(int)groups}, i64);
        }
    }
    return NO_ERROR;
}

// Det: X [..., M, M] float -> [...]
static ErrorCode shapeDet(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                          const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto x = inputs[0];
    auto in = TensorUtils::shape(x);
    const int r = (int)in.size();
    if (r < 2 || in[r - 1] != in[r - 2]) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must be [..., M, M], got %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::shapeString(x).c_str());
    }
    auto t = x->getType();
    if (t.code != halide_type_float || (t.bits != 32 && t.bits != 64)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s type %s is not supported (float, double)",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(t));
    }
    in.resize(r - 2);
    ShapeUtils::setOutput(outputs[0], in, t);
    return NO_ERROR;
}

static bool isQuantInt(halide_type_t t) {
    return (t.code == halide_type_int || t.code == halide_type_uint) && (t.bits == 8 || t.bits == 16);
}

// checks scale / zero point against x for per-tensor, per-axis and blocked quantization
static ErrorCode checkQuantParams(const Schema::Op* op, const std::vector<Tensor*>& inputs, int axis, int block) {
    auto x = inputs[0];
    auto s = inputs[1];
    auto in = TensorUtils::shape(x);
    auto sd = TensorUtils::shape(s);
    const int64_t sn = TensorUtils::elementCount(s);
    const char* sname = TensorUtils::describe(s)->name.c_str();
    auto st = s->getType();
    if (st.code != halide_type_float || st.bits != 32) {
        return ShapeUtils::error(op, NOT_SUPPORT, "scale %s type %s is not supported (float)", sname,
                                 TensorUtils::typeName(st));
    }
    const bool perTensor = sd.empty() || (sd.size() == 1 && sn == 1 && block == 0);
    if (!perTensor) {
        int a = ShapeUtils::normalizeAxis(axis, (int)in.size());
        if (a < 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "axis %d out of range for rank %d", axis, (int)in.size());
        }
        if (block <= 0) {
            if (block < 0 || sd.size() != 1 || sd[0] != in[a]) {
                return ShapeUtils::error(op, INVALID_VALUE, "scale %s shape %s does not match axis %d of x (%d)",
                                         sname, TensorUtils::shapeString(s).c_str(), axis, in[a]);
            }
        } else {
            bool ok = sd.size() == in.size();
            for (size_t d = 0; ok && d < sd.size(); ++d) {
                const int want = (int)d == a ? (in[d] + block - 1) / block : in[d];
                ok = sd[d] == want;
            }
            if (!ok) {
                return ShapeUtils::error(op, INVALID_VALUE,
                                         "scale %s shape %s does not fit x %s with block size %d on axis %d", sname,
                                         TensorUtils::shapeString(s).c_str(), TensorUtils::shapeString(x).c_str(),
                                         block, axis);
            }
        }
    }
    if (ShapeUtils::has(inputs, 2)) {
        auto z = inputs[2];
        if (TensorUtils::shape(z) != sd) {
            return ShapeUtils::error(op, INVALID_VALUE, "zero point %s shape %s differs from scale shape %s",
                                     TensorUtils::describe(z)->name.c_str(), TensorUtils::shapeString(z).c_str(),
                                     TensorUtils::shapeString(s).c_str());
        }
    }
    return NO_ERROR;
}

// QuantizeLinear (x, y_scale, y_zero_point?): y type = zero point's, else outputType, else uint8
static ErrorCode shapeQuantize(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs x, y_scale and 1 output");
    }
    auto p = op->param_as_QuantParam();
    const int axis = p ? p->axis() : 1;
    const int block = p ? p->blockSize() : 0;
    auto x = inputs[0];
    if (x->getType().code != halide_type_float || x->getType().bits != 32) {
        return ShapeUtils::error(op, NOT_SUPPORT, "x %s type %s is not supported (float)",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    halide_type_t yt = halide_type_of<uint8_t>();
    if (p && p->outputType() != Schema::DataType::DT_INVALID) {
        yt = TensorUtils::typeOf(p->outputType());
    }
    if (ShapeUtils::has(inputs, 2)) {
        auto zt = inputs[2]->getType();
        if (p && p->outputType() != Schema::DataType::DT_INVALID && !(zt == yt)) {
            return ShapeUtils::error(op, INVALID_VALUE, "zero point type %s differs from output_dtype %s",
                                     TensorUtils::typeName(zt), TensorUtils::typeName(yt));
        }
        yt = zt;
    }
    if (!isQuantInt(yt)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "output type %s is not supported (int8, uint8, int16, uint16)",
                                 TensorUtils::typeName(yt));
    }
    auto code = checkQuantParams(op, inputs, axis, block);
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(x), yt);
    return NO_ERROR;
}

// DequantizeLinear (x, x_scale, x_zero_point?) -> float
static ErrorCode shapeDequantize(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs x, x_scale and 1 output");
    }
    auto p = op->param_as_QuantParam();
    auto x = inputs[0];
    auto xt = x->getType();
    if (!isQuantInt(xt) && !(xt.code == halide_type_int && xt.bits == 32)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "x %s type %s is not supported (int8, uint8, int16, uint16, int32)",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(xt));
    }
    if (ShapeUtils::has(inputs, 2) && !(inputs[2]->getType() == xt)) {
        return ShapeUtils::error(op, INVALID_VALUE, "zero point type %s differs from x type %s",
                                 TensorUtils::typeName(inputs[2]->getType()), TensorUtils::typeName(xt));
    }
    auto code = checkQuantParams(op, inputs, p ? p->axis() : 1, p ? p->blockSize() : 0);
    if (code != NO_ERROR) {
        return code;
    }
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(x), halide_type_of<float>());
    return NO_ERROR;
}

static bool isRandomType(halide_type_t t) {
    return t.code == halide_type_float && (t.bits == 32 || t.bits == 64);
}

// Random: no input (shape and dtype from RandomParam) or one input (*Like: its shape; dtype
// DT_INVALID = its type)
static ErrorCode shapeRandom(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    auto p = op->param_as_RandomParam();
    if (!p || outputs.size() != 1 || inputs.size() > 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs RandomParam, at most 1 input and 1 output");
    }
    const bool like = ShapeUtils::has(inputs, 0);
    halide_type_t t;
    if (p->dtype() != Schema::DataType::DT_INVALID) {
        t = TensorUtils::typeOf(p->dtype());
    } else if (like) {
        t = inputs[0]->getType();
    } else {
        t = halide_type_of<float>();
    }
    if (!isRandomType(t)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "output type %s is not supported (float, double)",
                                 TensorUtils::typeName(t));
    }
    if (!p->normal() && !(p->low() <= p->high())) {
        return ShapeUtils::error(op, INVALID_VALUE, "low %g is above high %g", p->low(), p->high());
    }
    std::vector<int> dims;
    if (like) {
        dims = TensorUtils::shape(inputs[0]);
    } else if (p->shape()) {
        for (auto v : *p->shape()) {
            int d = 0;
            if (!ShapeUtils::toDim(v, &d)) {
                return ShapeUtils::error(op, INVALID_VALUE, "bad shape value %lld", (long long)v);
            }
            dims.push_back(d);
        }
    }
    ShapeUtils::setOutput(outputs[0], dims, t);
    return NO_ERROR;
}

// Bernoulli (input probabilities) -> 0/1 of RandomParam.dtype (DT_INVALID = the input's type)
static ErrorCode shapeBernoulli(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto x = inputs[0];
    if (!isRandomType(x->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s type %s is not supported (float, double)",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    auto p = op->param_as_RandomParam();
    halide_type_t t = x->getType();
    if (p && p->dtype() != Schema::DataType::DT_INVALID) {
        t = TensorUtils::typeOf(p->dtype());
        if (t.code == halide_type_handle || t.code == halide_type_bfloat || (t.code == halide_type_float && t.bits == 16)) {
            return ShapeUtils::error(op, NOT_SUPPORT, "output type %s is not supported", TensorUtils::typeName(t));
        }
    }
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(x), t);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Unique, ShapeEntry{shapeUnique, nullptr, 0x1u, true})
MNN_REGISTER_SHAPE(Det, ShapeEntry{shapeDet, nullptr, 0})
MNN_REGISTER_SHAPE(QuantizeLinear, ShapeEntry{shapeQuantize, nullptr, 0})
MNN_REGISTER_SHAPE(DequantizeLinear, ShapeEntry{shapeDequantize, nullptr, 0})
MNN_REGISTER_SHAPE(Random, ShapeEntry{shapeRandom, nullptr, 0})
MNN_REGISTER_SHAPE(Bernoulli, ShapeEntry{shapeBernoulli, nullptr, 0})
