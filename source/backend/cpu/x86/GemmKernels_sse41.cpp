// SSE4.1 SGEMM register tile: 4 rows x 8 columns (8 accumulators, mul + add). Built with -msse4.1.
#if defined(__x86_64__) || defined(_M_X64)
#include <smmintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

// every loop over the accumulators is unrolled, so that GCC keeps them in registers (rolled loops
// left the array in memory, stored and reloaded every step of K)
void sgemm_4x8__sse41(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                      int accumulate, const GemmPost* post) {
    __m128 acc[4][2];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 2
        for (int j = 0; j < 2; ++j) {
            acc[i][j] = accumulate ? _mm_loadu_ps(c + i * ldc + 4 * j) : _mm_set1_ps(bias[i]);
        }
    }
    for (int64_t p = 0; p < k; ++p) {
        const __m128 b0 = _mm_loadu_ps(b);
        const __m128 b1 = _mm_loadu_ps(b + 4);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            const __m128 ai = _mm_set1_ps(a[i]);
            acc[i][0] = _mm_add_ps(acc[i][0], _mm_mul_ps(ai, b0));
            acc[i][1] = _mm_add_ps(acc[i][1], _mm_mul_ps(ai, b1));
        }
        a += 4;
        b += 8;
    }
    if (post && post->act == 1) {
        const __m128 zero = _mm_setzero_ps();
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 2
            for (int j = 0; j < 2; ++j) {
                acc[i][j] = _mm_max_ps(acc[i][j], zero);
            }
        }
    } else if (post && post->act == 2) {
        const __m128 lo = _mm_set1_ps(post->lo), hi = _mm_set1_ps(post->hi);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 2
            for (int j = 0; j < 2; ++j) {
                acc[i][j] = _mm_min_ps(hi, _mm_max_ps(lo, acc[i][j]));
            }
        }
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 2
        for (int j = 0; j < 2; ++j) {
            _mm_storeu_ps(c + i * ldc + 4 * j, acc[i][j]);
        }
    }
}

} // namespace MNN
#endif
