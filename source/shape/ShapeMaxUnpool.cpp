// MaxUnpool(X [N, C, D1..Dn], I (int64, shape of X), output_shape?) with PoolParam kernel / strides /
// pads: Y is zeros with Y.flat[I] = X. Default output extent per spatial axis:
// (in - 1) * stride + kernel - pad_begin - pad_end. I indexes that default shape; output_shape (its
// values, no smaller than the default) pads it at the end of each spatial axis, as ONNX's tests do.
#include "ShapeUtils.hpp"

namespace MNN {
static ErrorCode shapeMaxUnpool(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X and I and 1 output");
    }
    auto p = op->param_as_PoolParam();
    if (!p || !p->kernel()) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing PoolParam kernel");
    }
    auto X = TensorUtils::shape(inputs[0]);
    const int n = (int)X.size() - 2;
    if (n < 1 || (int)p->kernel()->size() != n) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s needs rank >= 3 and %d kernel dims, got %d",
                                 TensorUtils::shapeString(X).c_str(), n, (int)p->kernel()->size());
    }
    if (TensorUtils::shape(inputs[1]) != X) {
        return ShapeUtils::error(op, INVALID_VALUE, "I %s must have the shape of X %s",
                                 TensorUtils::shapeString(inputs[1]).c_str(), TensorUtils::shapeString(X).c_str());
    }
    auto it = inputs[1]->getType();
    if (it.code != halide_type_int || (it.bits != 64 && it.bits != 32)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "I has type %s, expected int64", TensorUtils::typeName(it));
    }
    if (p->strides() && (int)p->strides()->size() != n) {
        return ShapeUtils::error(op, INVALID_VALUE, "strides has %d values, expected %d", (int)p->strides()->size(), n);
    }
    if (p->pads() && (int)p->pads()->size() != 2 * n) {
        return ShapeUtils::error(op, INVALID_VALUE, "pads has %d values, expected %d", (int)p->pads()->size(), 2 * n);
    }
    std::vector<int> out = X;
    for (int i = 0; i < n; ++i) {
        int64_t k = p->kernel()->Get(i);
        int64_t st = p->strides() ? p->strides()->Get(i) : 1;
        int64_t pb = p->pads() ? p->pads()->Get(i) : 0, pe = p->pads() ? p->pads()->Get(i + n) : 0;
        if (k <= 0 || st <= 0 || pb < 0 || pe < 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "kernel %lld / stride %lld / pads must be positive",
                                     (long long)k, (long long)st);
        }
        int64_t o = X[i + 2] == 0 ? 0 : ((int64_t)X[i + 2] - 1) * st + k - pb - pe;
        if (!ShapeUtils::toDim(o, &out[i + 2])) {
            return ShapeUtils::error(op, INVALID_VALUE, "output extent %lld of spatial axis %d is invalid",
                                     (long long)o, i);
        }
    }
    if (ShapeUtils::has(inputs, 2) && TensorUtils::elementCount(inputs[2]) > 0) {
        auto s = ShapeUtils::readInts(inputs[2]);
        if (s.size() != X.size()) {
            return ShapeUtils::error(op, INVALID_VALUE, "output_shape has %d values, expected %d", (int)s.size(),
                                     (int)X.size());
        }
        for (size_t i = 0; i < s.size(); ++i) {
            int v = 0;
            if (!ShapeUtils::toDim(s[i], &v) || (i < 2 && v != X[i]) || v < out[i]) {
                return ShapeUtils::error(op, INVALID_VALUE,
                                         "output_shape value %lld at %d is invalid (default extent %d)",
                                         (long long)s[i], (int)i, out[i]);
            }
            out[i] = v;
        }
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(MaxUnpool, ShapeEntry{shapeMaxUnpool, nullptr, 0x4u})
