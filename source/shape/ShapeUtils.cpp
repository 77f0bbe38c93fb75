#include "ShapeUtils.hpp"
#include <stdio.h>

namespace MNN {
namespace ShapeUtils {

ErrorCode error(const Schema::Op* op, ErrorCode code, const char* fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    MNN_ERROR("op %s (%s): %s\n", name(op), op ? opTypeName(op->type()) : "?", msg);
    return code;
}

bool broadcast(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& out) {
    size_t n = a.size() > b.size() ? a.size() : b.size();
    out.assign(n, 1);
    for (size_t i = 0; i < n; ++i) {
        int da = i < n - a.size() ? 1 : a[i - (n - a.size())];
        int db = i < n - b.size() ? 1 : b[i - (n - b.size())];
        if (da == db || db == 1) {
            out[i] = da;
        } else if (da == 1) {
            out[i] = db;
        } else {
            return false;
        }
    }
    return true;
}

int normalizeAxis(int axis, int rank) {
    if (axis < -rank || axis >= rank) {
        return -1;
    }
    return axis < 0 ? axis + rank : axis;
}

void setOutput(Tensor* t, const std::vector<int>& dims, halide_type_t type) {
    t->buffer().type = type;
    TensorUtils::describe(t)->dimType = Tensor::CAFFE;
    TensorUtils::setShape(t, dims);
}

int64_t readInt(const Tensor* t, int64_t i) {
    auto type = t->getType();
    if (type.code == halide_type_float) {
        return type.bits == 64 ? (int64_t)t->host<double>()[i] : (int64_t)t->host<float>()[i];
    }
    if (type.bits == 64) {
        return t->host<int64_t>()[i];
    }
    if (type.bits == 32) {
        return type.code == halide_type_uint ? (int64_t)t->host<uint32_t>()[i] : (int64_t)t->host<int32_t>()[i];
    }
    if (type.bits == 16) {
        return type.code == halide_type_uint ? (int64_t)t->host<uint16_t>()[i] : (int64_t)t->host<int16_t>()[i];
    }
    return type.code == halide_type_uint ? (int64_t)t->host<uint8_t>()[i] : (int64_t)t->host<int8_t>()[i];
}

float readFloat(const Tensor* t, int64_t i) {
    auto type = t->getType();
    if (type.code == halide_type_float) {
        return type.bits == 64 ? (float)t->host<double>()[i] : t->host<float>()[i];
    }
    return (float)readInt(t, i);
}

std::vector<int64_t> readInts(const Tensor* t) {
    int64_t n = TensorUtils::elementCount(t);
    std::vector<int64_t> r;
    if (n <= 0 || !t->host<void>()) {
        return r;
    }
    r.resize((size_t)n);
    for (int64_t i = 0; i < n; ++i) {
        r[i] = readInt(t, i);
    }
    return r;
}

std::vector<float> readFloats(const Tensor* t) {
    int64_t n = TensorUtils::elementCount(t);
    std::vector<float> r;
    if (n <= 0 || !t->host<void>()) {
        return r;
    }
    r.resize((size_t)n);
    for (int64_t i = 0; i < n; ++i) {
        r[i] = readFloat(t, i);
    }
    return r;
}

bool toDim(int64_t v, int* out) {
    if (v < 0 || v > 0x7fffffff) {
        return false;
    }
    *out = (int)v;
    return true;
}

} // namespace ShapeUtils
} // namespace MNN
