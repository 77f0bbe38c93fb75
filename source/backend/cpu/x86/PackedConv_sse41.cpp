// SSE4.1 tile of the packed-layout convolution (PackedConvTile): up to 3 positions x 1 block of 16
// output channels (4 xmm each) = 12 accumulators; per input lane and position one broadcast, the
// weight vectors are reloaded (L1) to leave registers for the products. Built with -msse4.1;
// templates in an anonymous namespace (no instantiation shared across ISA files).
#if defined(__x86_64__) || defined(_M_X64)
#include <smmintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

constexpr int kPMax = 3;
constexpr int kQMax = 1;

template <int P, int Q>
void pconvTile(const PackedConvTile* t) {
    constexpr int V = 4 * Q;  // vectors per position
    __m128 acc[P][V];
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
        const int q = v / 4, h = (v % 4) * 4;
        const float* yq = t->y + q * t->yBlockStride + h;
        const __m128 b = t->accumulate ? _mm_setzero_ps() : _mm_loadu_ps(t->bias + q * 16 + h);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            acc[p][v] = t->accumulate ? _mm_loadu_ps(yq + p * 16) : b;
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
                const float* wi = wt + i * wRow;
#pragma GCC unroll 16
                for (int p = 0; p < P; ++p) {
                    const __m128 xv = _mm_set1_ps(xt[p * xs + i]);
#pragma GCC unroll 16
                    for (int v = 0; v < V; ++v) {
                        acc[p][v] = _mm_add_ps(acc[p][v], _mm_mul_ps(xv, _mm_loadu_ps(wi + v * 4)));
                    }
                }
            }
        }
    }
    if (t->res) {
#pragma GCC unroll 16
        for (int v = 0; v < V; ++v) {
            const float* rq = t->res + (v / 4) * t->yBlockStride + (v % 4) * 4;
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) {
                acc[p][v] = _mm_add_ps(acc[p][v], _mm_loadu_ps(rq + p * 16));
            }
        }
    }
    const GemmPost* post = t->post;
    if (post && post->act == 1) {
        const __m128 zero = _mm_setzero_ps();
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int v = 0; v < V; ++v) {
                acc[p][v] = _mm_max_ps(acc[p][v], zero);
            }
        }
    } else if (post && post->act == 2) {
        const __m128 lo = _mm_set1_ps(post->lo), hi = _mm_set1_ps(post->hi);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int v = 0; v < V; ++v) {
                acc[p][v] = _mm_min_ps(hi, _mm_max_ps(lo, acc[p][v]));
            }
        }
    }
#pragma GCC unroll 16
    for (int v = 0; v < V; ++v) {
        float* yq = t->y + (v / 4) * t->yBlockStride + (v % 4) * 4;
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            _mm_storeu_ps(yq + p * 16, acc[p][v]);
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
    {pconvTile<1, 1>, pconvTile<2, 1>, pconvTile<3, 1>},
};

}  // namespace

void pconv_3x16__sse41(const PackedConvTile* tile) {
    if (tile->P < 1 || tile->runs < 1 || tile->P > kPMax || tile->Q < 1 || tile->Q > kQMax) {
        return;
    }
    if (tile->runs > 1) {
        forEachTileRun(tile, pconv_3x16__sse41);
        return;
    }
    kTiles[tile->Q - 1][tile->P - 1](tile);
}

}  // namespace MNN
#endif
