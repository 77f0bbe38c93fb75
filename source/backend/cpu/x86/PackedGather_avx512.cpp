// Packed-layout (NC16HW16) channel gather, avx512 tier: each output vector is built from its
// entries' input vectors with one masked permute each (vpermps with a merge mask).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace {
using namespace MNN;

template <int E>
void gatherFixed(const PackedGatherBlock* b) {
    __m512i idx[E];
    __mmask16 m[E];
    const float* s[E];
    for (int e = 0; e < E; ++e) {
        idx[e] = _mm512_loadu_si512(b->perm + e * 16);
        m[e] = (__mmask16)b->mask[e];
        s[e] = b->src[e];
    }
    float* y = b->y;
    for (int64_t p = 0; p < b->count; ++p) {
        __m512 acc = _mm512_setzero_ps();
        for (int e = 0; e < E; ++e) {
            acc = _mm512_mask_permutexvar_ps(acc, m[e], idx[e], _mm512_loadu_ps(s[e] + p * 16));
        }
        _mm512_storeu_ps(y + p * 16, acc);
    }
}

void gatherAny(const PackedGatherBlock* b) {
    float* y = b->y;
    for (int64_t p = 0; p < b->count; ++p) {
        __m512 acc = _mm512_setzero_ps();
        for (int e = 0; e < b->entries; ++e) {
            acc = _mm512_mask_permutexvar_ps(acc, (__mmask16)b->mask[e], _mm512_loadu_si512(b->perm + e * 16),
                                             _mm512_loadu_ps(b->src[e] + p * 16));
        }
        _mm512_storeu_ps(y + p * 16, acc);
    }
}
}  // namespace

namespace MNN {
void pgather__avx512(const PackedGatherBlock* b) {
    if (b->entries == 1 && b->mask[0] == 0xffffu) {
        bool identity = true;
        for (int l = 0; l < 16; ++l) {
            identity = identity && b->perm[l] == l;
        }
        if (identity) {
            ::memcpy(b->y, b->src[0], (size_t)b->count * 16 * sizeof(float));
            return;
        }
    }
    switch (b->entries) {
        case 0: {
            const __m512 z = _mm512_setzero_ps();
            for (int64_t p = 0; p < b->count; ++p) {
                _mm512_storeu_ps(b->y + p * 16, z);
            }
            return;
        }
        case 1:
            return gatherFixed<1>(b);
        case 2:
            return gatherFixed<2>(b);
        case 3:
            return gatherFixed<3>(b);
        case 4:
            return gatherFixed<4>(b);
        default:
            return gatherAny(b);
    }
}
}  // namespace MNN
#endif
