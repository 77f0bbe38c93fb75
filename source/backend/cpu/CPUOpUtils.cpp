#include "CPUOpUtils.hpp"
#include <math.h>
#include <string.h>
#include "SaturateCast.hpp"
#include "backend/cpu/CPUBackend.hpp"

namespace MNN {
namespace CPUUtils {

std::vector<int64_t> broadcastStrides(const std::vector<int>& in, const std::vector<int>& out) {
    std::vector<int64_t> s(out.size(), 0);
    int64_t stride = 1;
    int offset = (int)out.size() - (int)in.size();
    for (int i = (int)in.size() - 1; i >= 0; --i) {
        s[i + offset] = in[i] == 1 ? 0 : stride;
        stride *= in[i];
    }
    return s;
}

std::vector<int64_t> strides(const std::vector<int>& shape) {
    std::vector<int64_t> s(shape.size(), 1);
    for (int i = (int)shape.size() - 2; i >= 0; --i) {
        s[i] = s[i + 1] * shape[i + 1];
    }
    return s;
}

double readAsDouble(const Tensor* t, int64_t i) {
    auto type = t->getType();
    switch (type.code) {
        case halide_type_float:
            return type.bits == 64 ? t->host<double>()[i] : t->host<float>()[i];
        case halide_type_int:
            switch (type.bits) {
                case 8: return t->host<int8_t>()[i];
                case 16: return t->host<int16_t>()[i];
                case 32: return t->host<int32_t>()[i];
                default: return (double)t->host<int64_t>()[i];
            }
        case halide_type_uint:
            switch (type.bits) {
                case 8: return t->host<uint8_t>()[i];
                case 16: return t->host<uint16_t>()[i];
                case 32: return t->host<uint32_t>()[i];
                default: return (double)t->host<uint64_t>()[i];
            }
        default:
            return 0;
    }
}

void writeFromDouble(Tensor* t, int64_t i, double v) {
    auto type = t->getType();
    switch (type.code) {
        case halide_type_float:
            if (type.bits == 64) {
                t->host<double>()[i] = v;
            } else {
                t->host<float>()[i] = (float)v;
            }
            return;
        case halide_type_int:
            switch (type.bits) {
                case 8: t->host<int8_t>()[i] = saturateFromDouble<int8_t>(v); return;
                case 16: t->host<int16_t>()[i] = saturateFromDouble<int16_t>(v); return;
                case 32: t->host<int32_t>()[i] = saturateFromDouble<int32_t>(v); return;
                default: t->host<int64_t>()[i] = saturateFromDouble<int64_t>(v); return;
            }
        case halide_type_uint:
            switch (type.bits) {
                case 8: t->host<uint8_t>()[i] = saturateFromDouble<uint8_t>(v); return;
                case 16: t->host<uint16_t>()[i] = saturateFromDouble<uint16_t>(v); return;
                case 32: t->host<uint32_t>()[i] = saturateFromDouble<uint32_t>(v); return;
                default: t->host<uint64_t>()[i] = saturateFromDouble<uint64_t>(v); return;
            }
        default:
            return;
    }
}

bool constantsFrom(const std::vector<Tensor*>& inputs, size_t from) {
    for (size_t i = from; i < inputs.size(); ++i) {
        if (inputs[i] && TensorUtils::describe(inputs[i])->usage != Tensor::InsideDescribe::CONSTANT) {
            return false;
        }
    }
    return true;
}

void ParamBytes::prepare(const std::vector<Tensor*>& inputs, size_t from) {
    mFrom = from;
    mValid = false;
    size_t total = 0;
    for (size_t i = from; i < inputs.size(); ++i) {
        if (inputs[i]) {
            total += (size_t)TensorUtils::byteSize(inputs[i]);
        }
    }
    mBytes.assign(total, 0);
}

bool ParamBytes::changed(const std::vector<Tensor*>& inputs) {
    bool differs = !mValid;
    size_t at = 0;
    for (size_t i = mFrom; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            continue;
        }
        const size_t n = (size_t)TensorUtils::byteSize(inputs[i]);
        const uint8_t* src = inputs[i]->host<uint8_t>();
        if (n == 0 || !src || at + n > mBytes.size()) {
            continue;
        }
        if (differs || ::memcmp(mBytes.data() + at, src, n) != 0) {
            differs = true;
            ::memcpy(mBytes.data() + at, src, n);
        }
        at += n;
    }
    mValid = true;
    return differs;
}

size_t halfWeightsMinBytes(const Backend* b) {
    return static_cast<const CPUBackend*>(b)->precision() == BackendConfig::Precision_Low ? 0 : kHalfWeightsMinBytes;
}

bool halfWeights(const float* w, size_t n, size_t minBytes, LargeVector<uint16_t>* h) {
    h->clear();
    if (n * sizeof(float) < minBytes) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (!(std::fabs(w[i]) <= 65504.0f)) {
            return false;
        }
    }
    h->resize(n);
    for (size_t i = 0; i < n; ++i) {
        (*h)[i] = TensorUtils::floatToFp16(w[i]);
    }
    return true;
}

bool highPrecision(const Backend* b) {
    return static_cast<const CPUBackend*>(b)->precision() == BackendConfig::Precision_High;
}

GemmPost gemmPostFor(const ConvAttrs& attrs, const Backend* backend) {
    GemmPost post;
    switch (attrs.activation) {
        case Schema::FusedActivation::RELU:
            post.act = 1;
            break;
        case Schema::FusedActivation::CLIP:
            post.act = 2;
            post.lo = attrs.clipMin;
            post.hi = attrs.clipMax;
            break;
        case Schema::FusedActivation::SILU:
            post.act = 3;
            post.unaryOp = (int)(highPrecision(backend) ? VecUnaryOp::SILU : VecUnaryOp::SILU_FAST);
            break;
        case Schema::FusedActivation::HARD_SWISH:
            post.act = 3;
            post.unaryOp = (int)VecUnaryOp::HARD_SWISH;
            break;
        default:
            break;
    }
    return post;
}

} // namespace CPUUtils
} // namespace MNN
