#include "TensorUtils.hpp"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "Macro.hpp"

namespace MNN {
namespace TensorUtils {

void setLinearLayout(Tensor* t) {
    auto& b = t->buffer();
    // int64 with saturation: absurd shapes are refused right after, but must not overflow here
    int64_t stride = 1;
    for (int i = b.dimensions - 1; i >= 0; --i) {
        b.dim[i].stride = stride > 0x7fffffff ? 0x7fffffff : (int)stride;
        int64_t e = b.dim[i].extent > 0 ? b.dim[i].extent : 0;
        stride = (stride > ((int64_t)1 << 40) || e > ((int64_t)1 << 31)) ? ((int64_t)1 << 40) : stride * e;
    }
}

void setShape(Tensor* t, const std::vector<int>& dims) {
    auto& b = t->buffer();
    b.dimensions = (int)dims.size();
    for (size_t i = 0; i < dims.size() && i < MNN_MAX_TENSOR_DIM; ++i) {
        b.dim[i].extent = dims[i];
        b.dim[i].min = 0;
        b.dim[i].flags = 0;
    }
    setLinearLayout(t);
}

std::vector<int> shape(const Tensor* t) {
    std::vector<int> s(t->dimensions());
    for (int i = 0; i < t->dimensions(); ++i) {
        s[i] = t->length(i);
    }
    return s;
}

int64_t elementCount(const Tensor* t) {
    int64_t n = 1;
    for (int i = 0; i < t->dimensions(); ++i) {
        if (t->length(i) < 0) {
            return -1;
        }
        n *= t->length(i);
    }
    return n;
}

int64_t byteSize(const Tensor* t) {
    int64_t n = 1;
    auto dimType = t->getDimensionType();
    for (int i = 0; i < t->dimensions(); ++i) {
        int64_t e = t->length(i);
        if (i == 1 && dimType == Tensor::CAFFE_C4) {
            const int64_t pack = describe(t)->pack > 0 ? describe(t)->pack : 4;
            e = (e + pack - 1) / pack * pack;
        }
        n *= e;
    }
    return n * t->getType().bytes();
}

bool checkedProduct(const std::vector<int>& dims, int64_t limit, int64_t* out) {
    int64_t n = 1;
    for (auto d : dims) {
        if (d < 0) {
            return false;
        }
        if (d != 0 && n > limit / d) {
            return false;
        }
        n *= d;
    }
    *out = n;
    return true;
}

halide_type_t typeOf(Schema::DataType t) {
    switch (t) {
        case Schema::DataType::DT_FLOAT:
        case Schema::DataType::DT_FLOAT16:
        case Schema::DataType::DT_BFLOAT16:
            return halide_type_of<float>();
        case Schema::DataType::DT_DOUBLE:
            return halide_type_of<double>();
        case Schema::DataType::DT_INT8:
            return halide_type_of<int8_t>();
        case Schema::DataType::DT_UINT8:
        case Schema::DataType::DT_BOOL:
            return halide_type_of<uint8_t>();
        case Schema::DataType::DT_INT16:
            return halide_type_of<int16_t>();
        case Schema::DataType::DT_UINT16:
            return halide_type_of<uint16_t>();
        case Schema::DataType::DT_INT32:
            return halide_type_of<int32_t>();
        case Schema::DataType::DT_UINT32:
            return halide_type_of<uint32_t>();
        case Schema::DataType::DT_INT64:
            return halide_type_of<int64_t>();
        case Schema::DataType::DT_UINT64:
            return halide_type_of<uint64_t>();
        default:
            return halide_type_t(halide_type_handle, 0);
    }
}

Schema::DataType dataTypeOf(halide_type_t t) {
    if (t.code == halide_type_float) {
        return t.bits == 64 ? Schema::DataType::DT_DOUBLE : Schema::DataType::DT_FLOAT;
    }
    if (t.code == halide_type_int) {
        switch (t.bits) {
            case 8: return Schema::DataType::DT_INT8;
            case 16: return Schema::DataType::DT_INT16;
            case 32: return Schema::DataType::DT_INT32;
            case 64: return Schema::DataType::DT_INT64;
        }
    }
    if (t.code == halide_type_uint) {
        switch (t.bits) {
            case 8: return Schema::DataType::DT_UINT8;
            case 16: return Schema::DataType::DT_UINT16;
            case 32: return Schema::DataType::DT_UINT32;
            case 64: return Schema::DataType::DT_UINT64;
        }
    }
    return Schema::DataType::DT_INVALID;
}

const char* typeName(halide_type_t t) {
    switch (dataTypeOf(t)) {
        case Schema::DataType::DT_FLOAT: return "float32";
        case Schema::DataType::DT_DOUBLE: return "float64";
        case Schema::DataType::DT_INT8: return "int8";
        case Schema::DataType::DT_INT16: return "int16";
        case Schema::DataType::DT_INT32: return "int32";
        case Schema::DataType::DT_INT64: return "int64";
        case Schema::DataType::DT_UINT8: return "uint8";
        case Schema::DataType::DT_UINT16: return "uint16";
        case Schema::DataType::DT_UINT32: return "uint32";
        case Schema::DataType::DT_UINT64: return "uint64";
        default: return "unknown";
    }
}

std::string shapeString(const std::vector<int>& dims) {
    if (dims.empty()) {
        return "scalar";
    }
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) {
            s += "x";
        }
        s += std::to_string(dims[i]);
    }
    return s;
}

std::string shapeString(const Tensor* t) {
    return shapeString(shape(t));
}

// Logical NCHW-order dims of a tensor whatever its layout.
static std::vector<int> logicalDims(const Tensor* t) {
    auto s = shape(t);
    if (t->getDimensionType() == Tensor::TENSORFLOW && s.size() >= 3) {
        // N, spatial..., C -> N, C, spatial...
        std::vector<int> r(s.size());
        r[0] = s[0];
        r[1] = s.back();
        for (size_t i = 1; i + 1 < s.size(); ++i) {
            r[i + 1] = s[i];
        }
        return r;
    }
    return s;
}

// Offset in elements of logical (n, c, inner) in the tensor's layout.
// inner indexes the flattened spatial dims.
bool copyHostWithLayout(const Tensor* src, Tensor* dst) {
    if (src->getType() != dst->getType()) {
        MNN_ERROR("copy between tensors of different types (%s -> %s)\n", typeName(src->getType()),
                  typeName(dst->getType()));
        return false;
    }
    auto ls = logicalDims(src);
    auto ld = logicalDims(dst);
    if (ls != ld) {
        MNN_ERROR("copy between tensors of different shapes (%s -> %s)\n", shapeString(src).c_str(),
                  shapeString(dst).c_str());
        return false;
    }
    if (src->host<void>() == nullptr || dst->host<void>() == nullptr) {
        int64_t n = elementCount(src);
        if (n == 0) {
            return true;
        }
        MNN_ERROR("copy of a tensor without host memory\n");
        return false;
    }
    const int bytes = src->getType().bytes();
    auto st = src->getDimensionType();
    auto dt = dst->getDimensionType();
    bool srcPlain = st == Tensor::CAFFE || ls.size() < 3 || (st == Tensor::TENSORFLOW && ls.size() < 3);
    bool dstPlain = dt == Tensor::CAFFE || ld.size() < 3 || (dt == Tensor::TENSORFLOW && ld.size() < 3);
    if (st == Tensor::CAFFE_C4 && ls.size() >= 2) {
        srcPlain = false;
    }
    if (dt == Tensor::CAFFE_C4 && ld.size() >= 2) {
        dstPlain = false;
    }
    if (srcPlain && dstPlain) {
        ::memcpy(dst->host<void>(), src->host<void>(), (size_t)elementCount(src) * bytes);
        return true;
    }
    // General path through logical (n, c, i) coordinates.
    int64_t batch = ls.size() > 0 ? ls[0] : 1;
    int64_t channel = ls.size() > 1 ? ls[1] : 1;
    int64_t inner = 1;
    for (size_t i = 2; i < ls.size(); ++i) {
        inner *= ls[i];
    }
    const int64_t srcPack = describe(src)->pack > 0 ? describe(src)->pack : 4;
    const int64_t dstPack = describe(dst)->pack > 0 ? describe(dst)->pack : 4;
    auto offsetOf = [&](Tensor::DimensionType type, bool plain, int64_t pack, int64_t n, int64_t c,
                        int64_t i) -> int64_t {
        if (plain) {
            return (n * channel + c) * inner + i;
        }
        if (type == Tensor::TENSORFLOW) {
            return (n * inner + i) * channel + c;
        }
        int64_t blocks = (channel + pack - 1) / pack;
        return ((n * blocks + c / pack) * inner + i) * pack + (c % pack);
    };
    if (dt == Tensor::CAFFE_C4 && !dstPlain) {
        ::memset(dst->host<void>(), 0, (size_t)byteSize(dst));
    }
    auto s = src->host<uint8_t>();
    auto d = dst->host<uint8_t>();
    for (int64_t n = 0; n < batch; ++n) {
        for (int64_t c = 0; c < channel; ++c) {
            for (int64_t i = 0; i < inner; ++i) {
                ::memcpy(d + offsetOf(dt, dstPlain, dstPack, n, c, i) * bytes,
                         s + offsetOf(st, srcPlain, srcPack, n, c, i) * bytes, bytes);
            }
        }
    }
    return true;
}

bool allocHost(Tensor* t) {
    freeHost(t);
    int64_t bytes = byteSize(t);
    if (bytes < 0) {
        return false;  // reported by the caller (a negative size is its tensor's shape error)
    }
    // Keep a valid non-null pointer for empty tensors.
    void* p = ::calloc((size_t)(bytes > 0 ? bytes : 1), 1);
    if (!p) {
        MNN_ERROR("out of memory allocating %lld bytes for tensor %s\n", (long long)bytes,
                  describe(t)->name.c_str());
        return false;
    }
    t->buffer().host = (uint8_t*)p;
    describe(t)->ownHost = true;
    return true;
}

void freeHost(Tensor* t) {
    if (describe(t)->ownHost && t->buffer().host) {
        ::free(t->buffer().host);
    }
    t->buffer().host = nullptr;
    describe(t)->ownHost = false;
}

float fp16ToFloat(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {
            // subnormal
            float f = ldexpf((float)mant, -24);
            return (h >> 15) ? -f : f;
        }
    } else if (exp == 31) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    }
    float f;
    ::memcpy(&f, &bits, 4);
    return f;
}

uint16_t floatToFp16(float f) {
    uint32_t x;
    ::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) {  // inf or nan
        return (uint16_t)(sign | 0x7c00 | (absx > 0x7f800000u ? 0x200 : 0));
    }
    if (absx >= 0x477ff000u) {  // overflow -> inf
        return (uint16_t)(sign | 0x7c00);
    }
    if (absx < 0x38800000u) {  // subnormal or zero: round to nearest even
        float a;
        ::memcpy(&a, &absx, 4);
        float scaled = a * 16777216.0f;  // 2^24
        uint32_t m = (uint32_t)nearbyintf(scaled);
        return (uint16_t)(sign | m);
    }
    uint32_t exp = ((absx >> 23) - 112) << 10;
    uint32_t mant = (absx >> 13) & 0x3ff;
    uint32_t rest = absx & 0x1fff;
    uint32_t h = exp | mant;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) {
        h += 1;
    }
    return (uint16_t)(sign | h);
}

float bf16ToFloat(uint16_t h) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    ::memcpy(&f, &bits, 4);
    return f;
}

} // namespace TensorUtils
} // namespace MNN
