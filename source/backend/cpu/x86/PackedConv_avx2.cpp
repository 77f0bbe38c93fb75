// AVX2 tile of the packed-layout convolution (PackedConvTile): up to 6 positions x 1 block of 16
// output channels (2 ymm each) = 12 accumulators, 2 weight vectors and a broadcast. Built with
// -mavx2 -mfma; templates in an anonymous namespace (no instantiation shared across ISA files).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

constexpr int kPMax = 6;
constexpr int kQMax = 1;

template <int P, int Q>
void pconvTile(const PackedConvTile* t) {
    constexpr int V = 2 * Q;  // vectors per position
    __m256 acc[P][V];
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
        const int q = v / 2, h = (v % 2) * 8;
        const float* yq = t->y + q * t->yBlockStride + h;
        const __m256 b = t->accumulate ? _mm256_setzero_ps() : _mm256_loadu_ps(t->bias + q * 16 + h);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            acc[p][v] = t->accumulate ? _mm256_loadu_ps(yq + p * 16) : b;
        }
    }
    const int64_t wRow = Q * 16;
    const int64_t xs = t->xPosStride;
    for (int kb = 0; kb < t->kBlocks; ++kb) {
        const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
        const float* xb = t->x + kb * t->xBlockStride;
        for (int tp = 0; tp < t->taps; ++tp) {
            const float* xt = xb + t->tapOff[tp];
            const float* wt = t->w + ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * wRow;
            for (int i = 0; i < lanes; ++i) {
                __m256 wv[V];
#pragma GCC unroll 16
                for (int v = 0; v < V; ++v) {
                    wv[v] = _mm256_loadu_ps(wt + i * wRow + v * 8);
                }
#pragma GCC unroll 16
                for (int p = 0; p < P; ++p) {
                    const __m256 xv = _mm256_broadcast_ss(xt + p * xs + i);
#pragma GCC unroll 16
                    for (int v = 0; v < V; ++v) {
                        acc[p][v] = _mm256_fmadd_ps(xv, wv[v], acc[p][v]);
                    }
                }
            }
        }
    }
    const GemmPost* post = t->post;
    if (post && post->act == 1) {
        const __m256 zero = _mm256_setzero_ps();
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int v = 0; v < V; ++v) {
                acc[p][v] = _mm256_max_ps(acc[p][v], zero);
            }
        }
    } else if (post && post->act == 2) {
        const __m256 lo = _mm256_set1_ps(post->lo), hi = _mm256_set1_ps(post->hi);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int v = 0; v < V; ++v) {
                acc[p][v] = _mm256_min_ps(hi, _mm256_max_ps(lo, acc[p][v]));
            }
        }
    }
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
        float* yq = t->y + (v / 2) * t->yBlockStride + (v % 2) * 8;
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            _mm256_storeu_ps(yq + p * 16, acc[p][v]);
        }
    }
    if (post && post->act == 3) {
        for (int q = 0; q < Q; ++q) {
            float* yq = t->y + q * t->yBlockStride;
            post->unary(post->unaryOp, yq, yq, (int64_t)P * 16, post->lo, post->hi);
        }
    }
}

typedef void (*TileFn)(const PackedConvTile*);

const TileFn kTiles[kQMax][kPMax] = {
    {pconvTile<1, 1>, pconvTile<2, 1>, pconvTile<3, 1>, pconvTile<4, 1>, pconvTile<5, 1>, pconvTile<6, 1>},
};

}  // namespace

void pconv_6x16__avx2(const PackedConvTile* tile) {
    if (tile->P < 1 || tile->P > kPMax || tile->Q < 1 || tile->Q > kQMax) {
        return;
    }
    kTiles[tile->Q - 1][tile->P - 1](tile);
}

}  // namespace MNN
#endif
