// AVX-512 tile of the packed-layout convolution (PackedConvTile): up to 14 positions x 2 blocks of 16
// output channels = 28 zmm accumulators; per input lane 2 weight vectors and one broadcast per
// position. Built with -mavx512f/bw/vl. The templates live in an anonymous namespace so that no
// instantiation compiled with these flags can be shared with another ISA file by the linker.
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

#include "backend/cpu/x86/Avx512Math.inl"

constexpr int kPMax = 14;
constexpr int kQMax = 2;

constexpr int kPrefetchRows = 16;
constexpr int kPrefetchRowsHalf = 4;  // half rows are 32 B per block: the hardware prefetcher does most (mobilenet_v3 heads: 4 rows 0.21 ms, 16 rows 0.25 ms)

/** 16 weights of a row: float, or IEEE half widened (exact) */
template <bool H>
inline __attribute__((always_inline)) __m512 loadWeights(const float* w, const uint16_t* wh, int64_t off) {
    if (H) {
        return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(wh + off)));
    }
    return _mm512_loadu_ps(w + off);
}

// acc += x * w over all input blocks and taps; PF: the weights are fetched kPrefetchRows rows ahead
// (they stream from L3 / memory where they outgrow L2: Winograd U of wide layers), a line per 16 lanes
// (32 bytes per 16 lanes for H: half weights, t->wHalf)
template <int P, int Q, bool PF, bool H>
inline __attribute__((always_inline)) void accumulateTile(const PackedConvTile* t, __m512 (&acc)[P][Q]) {
    const int64_t wRow = Q * 16;
    const int64_t xs = t->xPosStride;
    for (int kb = 0; kb < t->kBlocks; ++kb) {
        const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
        const float* xb = t->x + kb * t->xBlockStride;
        for (int tp = 0; tp < t->taps; ++tp) {
            const float* xt = xb + t->tapOff[tp];
            const int64_t wOff = ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * wRow;
            const float* wt = H ? nullptr : t->w + wOff;
            const uint16_t* wht = H ? t->wHalf + wOff : nullptr;
            for (int i = 0; i < lanes; ++i) {
                __m512 wv[Q];
                if (PF) {
#pragma GCC unroll 16
                    for (int q = 0; q < Q; ++q) {
                        if (H) {
                            if (q % 2 == 0) {
                                _mm_prefetch((const char*)(wht + (i + kPrefetchRowsHalf) * wRow + q * 16), _MM_HINT_T0);
                            }
                        } else {
                            _mm_prefetch((const char*)(wt + (i + kPrefetchRows) * wRow + q * 16), _MM_HINT_T0);
                        }
                    }
                }
#pragma GCC unroll 16
                for (int q = 0; q < Q; ++q) {
                    wv[q] = loadWeights<H>(wt, wht, i * wRow + q * 16);
                }
#pragma GCC unroll 16
                for (int p = 0; p < P; ++p) {
                    const __m512 xv = _mm512_set1_ps(xt[p * xs + i]);
#pragma GCC unroll 16
                    for (int q = 0; q < Q; ++q) {
                        acc[p][q] = _mm512_fmadd_ps(xv, wv[q], acc[p][q]);
                    }
                }
            }
        }
    }
}

template <int P, int Q, bool H = false>
void pconvTile(const PackedConvTile* t) {
    __m512 acc[P][Q];
#pragma GCC unroll 16
    for (int q = 0; q < Q; ++q) {
        const float* yq = t->y + q * t->yBlockStride;
        const __m512 b = t->accumulate ? _mm512_setzero_ps() : _mm512_loadu_ps(t->bias + q * 16);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            acc[p][q] = t->accumulate ? _mm512_loadu_ps(yq + p * 16) : b;
        }
    }
    if (t->prefetch) {
        accumulateTile<P, Q, true, H>(t, acc);
    } else {
        accumulateTile<P, Q, false, H>(t, acc);
    }
    const GemmPost* post = t->post;
    if (post && post->act == 1) {
        const __m512 zero = _mm512_setzero_ps();
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int q = 0; q < Q; ++q) {
                acc[p][q] = _mm512_max_ps(acc[p][q], zero);
            }
        }
    } else if (post && post->act == 2) {
        const __m512 lo = _mm512_set1_ps(post->lo), hi = _mm512_set1_ps(post->hi);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int q = 0; q < Q; ++q) {
                acc[p][q] = _mm512_min_ps(hi, _mm512_max_ps(lo, acc[p][q]));
            }
        }
    }
    // SiLU / HardSwish in registers; other unary activations through the table's kernel below
    const bool inRegs = post && post->act == 3 &&
                        (post->unaryOp == (int)VecUnaryOp::SILU || post->unaryOp == (int)VecUnaryOp::HARD_SWISH);
    if (inRegs && post->unaryOp == (int)VecUnaryOp::SILU) {
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int q = 0; q < Q; ++q) {
                acc[p][q] = _mm512_mul_ps(acc[p][q], ewSigmoid16(acc[p][q]));
            }
        }
    } else if (inRegs) {
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
            for (int q = 0; q < Q; ++q) {
                acc[p][q] = ewHardSwish16(acc[p][q]);
            }
        }
    }
#pragma GCC unroll 16
    for (int q = 0; q < Q; ++q) {
        float* yq = t->y + q * t->yBlockStride;
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            _mm512_storeu_ps(yq + p * 16, acc[p][q]);
        }
    }
    if (post && post->act == 3 && !inRegs) {
        for (int q = 0; q < Q; ++q) {
            float* yq = t->y + q * t->yBlockStride;
            post->unary(post->unaryOp, yq, yq, (int64_t)P * 16, post->lo, post->hi);
        }
    }
}

typedef void (*TileFn)(const PackedConvTile*);

const TileFn kTiles[kQMax][kPMax] = {
    {pconvTile<1, 1>, pconvTile<2, 1>, pconvTile<3, 1>, pconvTile<4, 1>, pconvTile<5, 1>, pconvTile<6, 1>,
     pconvTile<7, 1>, pconvTile<8, 1>, pconvTile<9, 1>, pconvTile<10, 1>, pconvTile<11, 1>, pconvTile<12, 1>,
     pconvTile<13, 1>, pconvTile<14, 1>},
    {pconvTile<1, 2>, pconvTile<2, 2>, pconvTile<3, 2>, pconvTile<4, 2>, pconvTile<5, 2>, pconvTile<6, 2>,
     pconvTile<7, 2>, pconvTile<8, 2>, pconvTile<9, 2>, pconvTile<10, 2>, pconvTile<11, 2>, pconvTile<12, 2>,
     pconvTile<13, 2>, pconvTile<14, 2>},
};

// half weights: the few positions of a GEMV (pcHalfMaxP)
constexpr int kHalfPMax = 4;
const TileFn kHalfTiles[kQMax][kHalfPMax] = {
    {pconvTile<1, 1, true>, pconvTile<2, 1, true>, pconvTile<3, 1, true>, pconvTile<4, 1, true>},
    {pconvTile<1, 2, true>, pconvTile<2, 2, true>, pconvTile<3, 2, true>, pconvTile<4, 2, true>},
};

}  // namespace

void pconv_14x32__avx512(const PackedConvTile* tile) {
    if (tile->P < 1 || tile->P > kPMax || tile->Q < 1 || tile->Q > kQMax) {
        return;
    }
    if (tile->wHalf) {
        if (tile->P <= kHalfPMax) {
            kHalfTiles[tile->Q - 1][tile->P - 1](tile);
        }
        return;
    }
    kTiles[tile->Q - 1][tile->P - 1](tile);
}

}  // namespace MNN
#endif
