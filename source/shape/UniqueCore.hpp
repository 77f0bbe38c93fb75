// Grouping core shared by Unique's shape function and its CPU kernel: the input is seen as N slices
// (outer x N x inner; slice i is every element whose coordinate along the axis is i), slices are
// sorted lexicographically (NaN after every number, NaNs equal) with the original index as tie-break,
// and equal neighbours form one group. Allocation-free: the caller provides perm and groupOf (N each).
#ifndef MNN_SHAPE_UNIQUECORE_HPP
#define MNN_SHAPE_UNIQUECORE_HPP

#include <stdint.h>
#include <algorithm>

namespace MNN {
namespace UniqueCore {

template <typename T>
inline int compareValues(T a, T b) {
    const bool na = a != a, nb = b != b;
    if (na || nb) {
        return na == nb ? 0 : (na ? 1 : -1);
    }
    return a < b ? -1 : (b < a ? 1 : 0);
}

template <typename T>
inline int compareSlices(const T* x, int64_t outer, int64_t n, int64_t inner, int64_t i, int64_t j) {
    for (int64_t o = 0; o < outer; ++o) {
        const T* base = x + o * n * inner;
        for (int64_t k = 0; k < inner; ++k) {
            int c = compareValues<T>(base[i * inner + k], base[j * inner + k]);
            if (c != 0) {
                return c;
            }
        }
    }
    return 0;
}

/** fills perm with the sorted slice order and groupOf[slice] with its group (groups numbered in sorted
 *  order); returns the number of groups. Within a group perm lists the slices by rising index. */
template <typename T>
int64_t group(const T* x, int64_t outer, int64_t n, int64_t inner, int64_t* perm, int64_t* groupOf) {
    for (int64_t i = 0; i < n; ++i) {
        perm[i] = i;
    }
    std::sort(perm, perm + n, [&](int64_t a, int64_t b) {
        int c = compareSlices<T>(x, outer, n, inner, a, b);
        return c != 0 ? c < 0 : a < b;
    });
    int64_t groups = 0;
    for (int64_t k = 0; k < n; ++k) {
        if (k > 0 && compareSlices<T>(x, outer, n, inner, perm[k - 1], perm[k]) != 0) {
            ++groups;
        }
        groupOf[perm[k]] = groups;
    }
    return n > 0 ? groups + 1 : 0;
}

/** calls f(T*) with the typed pointer for the supported Unique types; false if unsupported */
template <typename F>
bool dispatch(halide_type_t t, const void* p, F f) {
    if (t.code == halide_type_float && t.bits == 32) { f((const float*)p); return true; }
    if (t.code == halide_type_float && t.bits == 64) { f((const double*)p); return true; }
    if (t.code == halide_type_int && t.bits == 8) { f((const int8_t*)p); return true; }
    if (t.code == halide_type_int && t.bits == 16) { f((const int16_t*)p); return true; }
    if (t.code == halide_type_int && t.bits == 32) { f((const int32_t*)p); return true; }
    if (t.code == halide_type_int && t.bits == 64) { f((const int64_t*)p); return true; }
    if (t.code == halide_type_uint && t.bits == 8) { f((const uint8_t*)p); return true; }
    if (t.code == halide_type_uint && t.bits == 16) { f((const uint16_t*)p); return true; }
    if (t.code == halide_type_uint && t.bits == 32) { f((const uint32_t*)p); return true; }
    if (t.code == halide_type_uint && t.bits == 64) { f((const uint64_t*)p); return true; }
    return false;
}

} // namespace UniqueCore
} // namespace MNN
#endif
