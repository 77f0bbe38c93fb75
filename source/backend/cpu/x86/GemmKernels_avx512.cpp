// AVX-512 SGEMM register tile: 8 rows x 32 columns (16 accumulators). Built with -mavx512f/bw/vl.
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

// every loop over the accumulators is unrolled, so that GCC keeps them in registers (rolled loops
// left the array in memory, stored and reloaded every step of K)
void sgemm_8x32__avx512(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                        int accumulate, const GemmPost* post) {
    __m512 acc[8][2];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
#pragma GCC unroll 2
        for (int j = 0; j < 2; ++j) {
            acc[i][j] = accumulate ? _mm512_loadu_ps(c + i * ldc + 16 * j) : _mm512_set1_ps(bias[i]);
        }
    }
    for (int64_t p = 0; p < k; ++p) {
        const __m512 b0 = _mm512_loadu_ps(b);
        const __m512 b1 = _mm512_loadu_ps(b + 16);
#pragma GCC unroll 8
        for (int i = 0; i < 8; ++i) {
            const __m512 ai = _mm512_set1_ps(a[i]);
            acc[i][0] = _mm512_fmadd_ps(ai, b0, acc[i][0]);
            acc[i][1] = _mm512_fmadd_ps(ai, b1, acc[i][1]);
        }
        a += 8;
        b += 32;
    }
    if (post && post->act == 1) {
        const __m512 zero = _mm512_setzero_ps();
#pragma GCC unroll 8
        for (int i = 0; i < 8; ++i) {
#pragma GCC unroll 2
            for (int j = 0; j < 2; ++j) {
                acc[i][j] = _mm512_max_ps(acc[i][j], zero);
            }
        }
    } else if (post && post->act == 2) {
        const __m512 lo = _mm512_set1_ps(post->lo), hi = _mm512_set1_ps(post->hi);
#pragma GCC unroll 8
        for (int i = 0; i < 8; ++i) {
#pragma GCC unroll 2
            for (int j = 0; j < 2; ++j) {
                acc[i][j] = _mm512_min_ps(hi, _mm512_max_ps(lo, acc[i][j]));
            }
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
#pragma GCC unroll 2
        for (int j = 0; j < 2; ++j) {
            _mm512_storeu_ps(c + i * ldc + 16 * j, acc[i][j]);
        }
    }
}

} // namespace MNN
#endif
