// Packed-layout (NC16HW16) channel gather, avx2 tier: each 8-lane half of an output vector takes
// its entries' lanes with two in-lane-crossing permutes (one per input half), a select between
// them, and a masked blend into the result (lanes of no entry stay 0).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {
void pgather__avx2(const PackedGatherBlock* b) {
    const int entries = b->entries;
    bool identity = entries == 1 && b->mask[0] == 0xffffu;
    for (int l = 0; identity && l < 16; ++l) {
        identity = b->perm[l] == l;
    }
    if (identity) {
        ::memcpy(b->y, b->src[0], (size_t)b->count * 16 * sizeof(float));
        return;
    }
    // per entry and output half: the permute index, "from the upper input half" and lane masks
    __m256i idx[16][2];
    __m256 hiSel[16][2], take[16][2];
    const __m256i seven = _mm256_set1_epi32(7);
    for (int e = 0; e < entries && e < 16; ++e) {
        for (int h = 0; h < 2; ++h) {
            idx[e][h] = _mm256_loadu_si256((const __m256i*)(b->perm + e * 16 + h * 8));
            hiSel[e][h] = _mm256_castsi256_ps(_mm256_cmpgt_epi32(idx[e][h], seven));
            int32_t bits[8];
            for (int l = 0; l < 8; ++l) {
                bits[l] = ((b->mask[e] >> (h * 8 + l)) & 1u) ? -1 : 0;
            }
            take[e][h] = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i*)bits));
        }
    }
    for (int64_t p = 0; p < b->count; ++p) {
        __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
        for (int e = 0; e < entries && e < 16; ++e) {
            const float* s = b->src[e] + p * 16;
            const __m256 lo = _mm256_loadu_ps(s), hi = _mm256_loadu_ps(s + 8);
            __m256 r0 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, idx[e][0]),
                                         _mm256_permutevar8x32_ps(hi, idx[e][0]), hiSel[e][0]);
            __m256 r1 = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, idx[e][1]),
                                         _mm256_permutevar8x32_ps(hi, idx[e][1]), hiSel[e][1]);
            acc0 = _mm256_blendv_ps(acc0, r0, take[e][0]);
            acc1 = _mm256_blendv_ps(acc1, r1, take[e][1]);
        }
        _mm256_storeu_ps(b->y + p * 16, acc0);
        _mm256_storeu_ps(b->y + p * 16 + 8, acc1);
    }
}
}  // namespace MNN
#endif
