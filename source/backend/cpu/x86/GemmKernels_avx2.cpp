// AVX2 + FMA SGEMM register tile: 4 rows x 24 columns (12 accumulators). Built with -mavx2 -mfma.
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

// every loop over the 4 x 3 accumulators is unrolled, so that GCC keeps them in registers: rolled
// loops left the array in memory, stored and reloaded every step of K (22-25 GFLOP/s on Zen 3)
void sgemm_4x24__avx2(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                      int accumulate, const GemmPost* post) {
    __m256 acc[4][3];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 3
        for (int j = 0; j < 3; ++j) {
            acc[i][j] = accumulate ? _mm256_loadu_ps(c + i * ldc + 8 * j) : _mm256_set1_ps(bias[i]);
        }
    }
    for (int64_t p = 0; p < k; ++p) {
        const __m256 b0 = _mm256_loadu_ps(b);
        const __m256 b1 = _mm256_loadu_ps(b + 8);
        const __m256 b2 = _mm256_loadu_ps(b + 16);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            const __m256 ai = _mm256_broadcast_ss(a + i);
            acc[i][0] = _mm256_fmadd_ps(ai, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(ai, b1, acc[i][1]);
            acc[i][2] = _mm256_fmadd_ps(ai, b2, acc[i][2]);
        }
        a += 4;
        b += 24;
    }
    if (post && post->act == 1) {
        const __m256 zero = _mm256_setzero_ps();
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 3
            for (int j = 0; j < 3; ++j) {
                acc[i][j] = _mm256_max_ps(acc[i][j], zero);  // NaN -> 0, as x > 0 ? x : 0
            }
        }
    } else if (post && post->act == 2) {
        const __m256 lo = _mm256_set1_ps(post->lo), hi = _mm256_set1_ps(post->hi);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 3
            for (int j = 0; j < 3; ++j) {
                acc[i][j] = _mm256_min_ps(hi, _mm256_max_ps(lo, acc[i][j]));  // NaN propagates
            }
        }
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 3
        for (int j = 0; j < 3; ++j) {
            _mm256_storeu_ps(c + i * ldc + 8 * j, acc[i][j]);
        }
    }
}

} // namespace MNN
#endif
