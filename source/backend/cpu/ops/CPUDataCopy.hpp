// Byte-level copy helpers of the data-movement kernels: they move elements of any type by size.
#ifndef MNN_CPU_CPUDATACOPY_HPP
#define MNN_CPU_CPUDATACOPY_HPP

#include <stdint.h>
#include <string.h>
#include <vector>
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/SaturateCast.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {
namespace DataCopy {

/**
 * Writes every element of an output of shape `dims` (row-major) from the source element at
 * offset sum_d tables[d][i_d] (in elements). A table entry < 0 means "no source": the element
 * is set to `fill` (elementSize bytes; zero bytes when fill is null). Rank 0 copies offset 0.
 */
void gatherAxes(uint8_t* dst, const uint8_t* src, const std::vector<int>& dims,
                const std::vector<std::vector<int64_t>>& tables, int elementSize, const uint8_t* fill);

/** tables of a plain strided view: tables[d][i] = (start[d] + i*step[d]) * stride[d] */
std::vector<std::vector<int64_t>> stridedTables(const std::vector<int>& dims, const std::vector<int64_t>& start,
                                                const std::vector<int64_t>& step,
                                                const std::vector<int64_t>& stride);

/** permuted view: output axis i walks source axis perm[i] of `srcDims` */
void transpose(uint8_t* dst, const uint8_t* src, const std::vector<int>& srcDims, const std::vector<int>& perm,
               int elementSize);

inline int elementSize(const Tensor* t) {
    int b = t->getType().bytes();
    return b > 0 ? b : 1;
}

inline int64_t count(const std::vector<int>& dims) {
    int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

/** calls f(T*) typed by a numeric halide type; returns false for unsupported types */
template <typename F>
bool dispatchNumeric(halide_type_t t, F f) {
    if (t.code == halide_type_float) {
        if (t.bits == 32) {
            f((float*)nullptr);
            return true;
        }
        if (t.bits == 64) {
            f((double*)nullptr);
            return true;
        }
        return false;
    }
    if (t.code == halide_type_int) {
        switch (t.bits) {
            case 8: f((int8_t*)nullptr); return true;
            case 16: f((int16_t*)nullptr); return true;
            case 32: f((int32_t*)nullptr); return true;
            case 64: f((int64_t*)nullptr); return true;
            default: return false;
        }
    }
    if (t.code == halide_type_uint) {
        switch (t.bits) {
            case 8: f((uint8_t*)nullptr); return true;
            case 16: f((uint16_t*)nullptr); return true;
            case 32: f((uint32_t*)nullptr); return true;
            case 64: f((uint64_t*)nullptr); return true;
            default: return false;
        }
    }
    return false;
}

/** reads index i of an integer (or float) index tensor as int64 */
inline int64_t readIndex(const Tensor* t, int64_t i) {
    auto type = t->getType();
    if (type.code == halide_type_int) {
        switch (type.bits) {
            case 64: return t->host<int64_t>()[i];
            case 32: return t->host<int32_t>()[i];
            case 16: return t->host<int16_t>()[i];
            default: return t->host<int8_t>()[i];
        }
    }
    if (type.code == halide_type_uint) {
        switch (type.bits) {
            case 64: return (int64_t)t->host<uint64_t>()[i];
            case 32: return t->host<uint32_t>()[i];
            case 16: return t->host<uint16_t>()[i];
            default: return t->host<uint8_t>()[i];
        }
    }
    // float indices (OneHot allows them): truncated; NaN and values past int64 become the lowest
    // int64, out of range for every axis, instead of an undefined conversion
    const double v = CPUUtils::readAsDouble(t, i);
    return v != v ? std::numeric_limits<int64_t>::lowest() : CPUUtils::saturateFromDouble<int64_t>(v);
}

} // namespace DataCopy
} // namespace MNN
#endif
