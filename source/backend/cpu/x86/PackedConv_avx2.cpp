// AVX2 tile of the packed-layout convolution (PackedConvTile): up to 6 positions x 1 block of 16
// output channels (2 ymm each) = 12 accumulators, 2 weight vectors and a broadcast. A last block
// of at most 8 channels (yLastLanes) computes one ymm per position; SiLU / HardSwish run in
// registers; IEEE half weights (wHalf: GEMV-like tiles, streamed Winograd weights; any P) are
// widened by F16C's vcvtph2ps; weights that outgrow L2 are prefetched ahead (PackedConvTile::prefetch);
// positions 16 floats apart get their own instantiation (constant broadcast offsets).
// Built with -mavx2 -mfma -mf16c; templates in an anonymous namespace (no instantiation shared
// across ISA files).
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

#include "backend/cpu/x86/Avx2Math.inl"
#include "backend/cpu/x86/PackedConvFlat.inl"

constexpr int kPMax = 6;
constexpr int kPMaxHalf = 12;         // positions of a tile whose block is half (yLastLanes <= 8)
constexpr int kPrefetchRows = 16;     // a row of 16 float weights is one cache line
// half rows are 32 B: a line per two rows, 2 KB ahead (a GEMV of 1280 x 1000 half weights from
// memory -10..20% against 256 B ahead in a harness on Zen 3; 4 and 8 KB no better)
constexpr int kPrefetchRowsHalf = 64;

/** 8 weights of a row at off: float, or IEEE half widened (exact) */
template <bool H>
inline __attribute__((always_inline)) __m256 loadWeights8(const float* w, const uint16_t* wh, int64_t off) {
    if (H) {
        return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(wh + off)));
    }
    return _mm256_loadu_ps(w + off);
}

/**
 * One input lane i of a tap: P positions x V ymm (V = 2: the whole block, V = 1: its first 8 lanes,
 * yLastLanes <= 8) += the lane's input (xt + p * xs + i) times its weight row (wt / wht + i * 16);
 * H: half weights; PF: prefetch the weights kPrefetchRows rows ahead
 */
template <int P, int V, bool H, bool PF>
inline __attribute__((always_inline)) void laneStep(const float* xt, int64_t xs, const float* wt, const uint16_t* wht,
                                                    int i, __m256 (&acc)[P][2]) {
    if (PF) {
        if (H) {
            if (i % 2 == 0) {
                _mm_prefetch((const char*)(wht + (i + kPrefetchRowsHalf) * 16), _MM_HINT_T0);
            }
        } else {
            _mm_prefetch((const char*)(wt + (i + kPrefetchRows) * 16), _MM_HINT_T0);
        }
    }
    __m256 wv[V];
#pragma GCC unroll 2
    for (int v = 0; v < V; ++v) {
        wv[v] = loadWeights8<H>(wt, wht, i * 16 + v * 8);
    }
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
        const __m256 xv = _mm256_broadcast_ss(xt + p * xs + i);
#pragma GCC unroll 2
        for (int v = 0; v < V; ++v) {
            acc[p][v] = _mm256_fmadd_ps(xv, wv[v], acc[p][v]);
        }
    }
}

/** acc += x * w over all input blocks and taps (laneStep); XS16: positions 16 floats apart */
template <int P, int V, bool H, bool PF, bool XS16>
inline __attribute__((always_inline)) void accumulateTile(const PackedConvTile* t, const float* x,
                                                          __m256 (&acc)[P][2]) {
    const int64_t xs = XS16 ? 16 : t->xPosStride;
    for (int kb = 0; kb < t->kBlocks; ++kb) {
        const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
        const float* xb = x + kb * t->xBlockStride;
        for (int tp = 0; tp < t->taps; ++tp) {
            const float* xt = xb + t->tapOff[tp];
            const int64_t wOff = ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * 16;
            const float* wt = H ? nullptr : t->w + wOff;
            const uint16_t* wht = H ? t->wHalf + wOff : nullptr;
            auto step = [&](int i) __attribute__((always_inline)) {
                laneStep<P, V, H, PF>(xt, xs, wt, wht, i, acc);
            };
            if (lanes == 16) {
                // a whole block: a constant trip count, unrolled by 4 (constant offsets, fewer
                // loop branches; a full unroll by 16 measured slower on Zen 3)
#pragma GCC unroll 4
                for (int i = 0; i < 16; ++i) {
                    step(i);
                }
            } else if (lanes == 3) {
                // an RGB stem (NHWC input, 3 lanes per tap, 27-49 taps): no loop per tap (resnet50's
                // 7x7 stem -5..18% on Zen 3, per-op medians in one process)
                step(0);
                step(1);
                step(2);
            } else {
                for (int i = 0; i < lanes; ++i) {
                    step(i);
                }
            }
        }
    }
}

/**
 * accumulateTile for tiles of one or two positions (GEMVs, squeeze-excite projections, edge tiles):
 * their 2-4 accumulators would chain every multiply-add on the last one (4 cycles of latency on
 * Zen 3 for 2 multiply-adds per cycle), so consecutive lanes go to S sets of accumulators, summed
 * at the end (P = 1: 4 sets, P = 2: 2). A 1280 x 1000 GEMV with its weights in L3: -28% in a harness
 * on Zen 3 (from memory: unchanged, bound by the bandwidth)
 */
template <int P, int V, bool H, bool PF>
inline __attribute__((always_inline)) void accumulateChains(const PackedConvTile* t, const float* x,
                                                            __m256 (&acc)[P][2]) {
    constexpr int S = P == 1 ? 4 : 2;
    const int64_t xs = t->xPosStride;
    __m256 c[S][P][2];
#pragma GCC unroll 4
    for (int s = 1; s < S; ++s) {
#pragma GCC unroll 2
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 2
            for (int v = 0; v < V; ++v) {
                c[s][p][v] = _mm256_setzero_ps();
            }
        }
    }
#pragma GCC unroll 2
    for (int p = 0; p < P; ++p) {
#pragma GCC unroll 2
        for (int v = 0; v < V; ++v) {
            c[0][p][v] = acc[p][v];
        }
    }
    for (int kb = 0; kb < t->kBlocks; ++kb) {
        const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
        const float* xb = x + kb * t->xBlockStride;
        for (int tp = 0; tp < t->taps; ++tp) {
            const float* xt = xb + t->tapOff[tp];
            const int64_t wOff = ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * 16;
            const float* wt = H ? nullptr : t->w + wOff;
            const uint16_t* wht = H ? t->wHalf + wOff : nullptr;
            int i = 0;
            for (; i + S <= lanes; i += S) {
#pragma GCC unroll 4
                for (int s = 0; s < S; ++s) {
                    laneStep<P, V, H, PF>(xt, xs, wt, wht, i + s, c[s]);
                }
            }
            for (; i < lanes; ++i) {
                laneStep<P, V, H, PF>(xt, xs, wt, wht, i, c[0]);
            }
        }
    }
#pragma GCC unroll 2
    for (int p = 0; p < P; ++p) {
#pragma GCC unroll 2
        for (int v = 0; v < V; ++v) {
            __m256 sum = c[0][p][v];
#pragma GCC unroll 4
            for (int s = 1; s < S; ++s) {
                sum = _mm256_add_ps(sum, c[s][p][v]);
            }
            acc[p][v] = sum;
        }
    }
}

/**
 * acc += x * w for a flat tile (PackedConvFlat.inl) with float weights; each K block first requests
 * the next tile's P input lines of that block (walkFlatK<P>), which the next call of a run (or of the
 * next tile) reads: the 12-64 block rows of a tile are as many streams, one line each, 50-200 KB
 * apart. Harness on Zen 3 (the whole layer, tiles in turn, its input in L2 / L3): 192 -> 32 at 28x28,
 * 384 -> 64 / 1024 -> 256 at 14x14, 512 -> 1000 at 13x13 at 91-95 GFLOP/s in every pass (medians
 * 84-92) against 67-93 (medians 57-86); in the models resnet50 -0.5%, squeezenet -0.7..3% at one
 * thread, two threads within +-1%
 */
template <int P, int V, bool PF>
inline __attribute__((always_inline)) void accumulateFlat(const PackedConvTile* t, const float* x,
                                                          __m256 (&acc)[P][2]) {
    walkFlatK<P>(
        t, x, 16 * 16, [&](const float* xb, const float* wt, int i) __attribute__((always_inline)) {
            laneStep<P, V, false, PF>(xb, 16, wt, nullptr, i, acc);
        });
}

/**
 * The tile's P positions from x into y (res: their residual, or null), t's other fields as given;
 * inlined into pconvTile's loop over the runs
 */
template <int P, bool H, bool HL>
inline __attribute__((always_inline)) void tileRun(const PackedConvTile* t, const float* x, float* y,
                                                   const float* res) {
    constexpr int V = HL ? 1 : 2;  // vectors per position
    if (res) {
        // the residual is added only after the whole K: its rows (often an earlier block's output,
        // out in L3) are requested now so that they arrive during the products (resnet50's
        // residual 1x1 layers -3% on Zen 3; prefetching a tile ahead from the job did no better)
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            _mm_prefetch((const char*)(res + p * 16), _MM_HINT_T0);
        }
    }
    __m256 acc[P][2];
#pragma GCC unroll 2
    for (int v = 0; v < V; ++v) {
        const float* yv = y + v * 8;
        const __m256 b = t->accumulate ? _mm256_setzero_ps() : _mm256_loadu_ps(t->bias + v * 8);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            acc[p][v] = t->accumulate ? _mm256_loadu_ps(yv + p * 16) : b;
        }
    }
    // positions 16 floats apart (1x1 stride 1, Winograd's products): broadcasts at constant offsets
    // (a runtime stride costs address arithmetic per step; 3-10% of resnet50 / squeezenet on Zen 3)
    const bool xs16 = t->xPosStride == 16;
    if (P <= 2) {
        if (t->prefetch) {
            accumulateChains<P, V, H, true>(t, x, acc);
        } else {
            accumulateChains<P, V, H, false>(t, x, acc);
        }
    } else if (!H && isFlatTile(t)) {
        if (t->prefetch) {
            accumulateFlat<P, V, true>(t, x, acc);
        } else {
            accumulateFlat<P, V, false>(t, x, acc);
        }
    } else if (t->prefetch) {
        if (xs16) {
            accumulateTile<P, V, H, true, true>(t, x, acc);
        } else {
            accumulateTile<P, V, H, true, false>(t, x, acc);
        }
    } else if (xs16) {
        accumulateTile<P, V, H, false, true>(t, x, acc);
    } else {
        accumulateTile<P, V, H, false, false>(t, x, acc);
    }
    if (res) {
#pragma GCC unroll 2
        for (int v = 0; v < V; ++v) {
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) {
                acc[p][v] = _mm256_add_ps(acc[p][v], _mm256_loadu_ps(res + p * 16 + v * 8));
            }
        }
    }
    const GemmPost* post = t->post;
    // SiLU / HardSwish in registers; other unary activations through the table's kernel below
    // (SILU_FAST is SILU's kernel on this tier)
    const bool silu = post && (post->unaryOp == (int)VecUnaryOp::SILU || post->unaryOp == (int)VecUnaryOp::SILU_FAST);
    const bool inRegs = post && post->act == 3 && (silu || post->unaryOp == (int)VecUnaryOp::HARD_SWISH);
    if (post && post->act == 1) {
        const __m256 zero = _mm256_setzero_ps();
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 2
            for (int v = 0; v < V; ++v) {
                acc[p][v] = _mm256_max_ps(acc[p][v], zero);  // NaN -> 0, as max(v, 0) elsewhere
            }
        }
    } else if (post && post->act == 2) {
        const __m256 lo = _mm256_set1_ps(post->lo), hi = _mm256_set1_ps(post->hi);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 2
            for (int v = 0; v < V; ++v) {
                acc[p][v] = _mm256_min_ps(hi, _mm256_max_ps(lo, acc[p][v]));
            }
        }
    } else if (inRegs) {
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
#pragma GCC unroll 2
            for (int v = 0; v < V; ++v) {
                acc[p][v] = silu ? ewSilu8(acc[p][v]) : ewHardSwish8(acc[p][v]);
            }
        }
    }
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
        _mm256_storeu_ps(y + p * 16, acc[p][0]);
        _mm256_storeu_ps(y + p * 16 + 8, HL ? _mm256_setzero_ps() : acc[p][V - 1]);
    }
    if (post && post->act == 3 && !inRegs) {
        post->unary(post->unaryOp, y, y, (int64_t)P * 16, post->lo, post->hi);
    }
}

/**
 * the tile's runs (PackedConvTile::runs) back to back in one call (a flat 6-position tile at K = 16
 * -17%, K = 24 -11%, K = 64 -5% with runs of 8 in a harness on Zen 3; choosing the accumulation
 * once outside the loop made K = 24 slower)
 */
template <int P, bool H, bool HL>
void pconvTile(const PackedConvTile* t) {
    const float* x = t->x;
    float* y = t->y;
    const float* res = t->res;
    const int64_t xStep = (int64_t)P * t->xPosStride;
    for (int r = t->runs; r > 0; --r) {
        tileRun<P, H, HL>(t, x, y, res);
        x += xStep;
        y += P * 16;
        if (res) {
            res += P * 16;
        }
    }
}

typedef void (*TileFn)(const PackedConvTile*);

#define MNN_PCONV_ROW(H, HL)                                                                                     \
    {                                                                                                            \
        pconvTile<1, H, HL>, pconvTile<2, H, HL>, pconvTile<3, H, HL>, pconvTile<4, H, HL>, pconvTile<5, H, HL>, \
            pconvTile<6, H, HL>                                                                                  \
    }
// [half weights][last block half][P - 1]
const TileFn kTiles[2][2][kPMax] = {
    {MNN_PCONV_ROW(false, false), MNN_PCONV_ROW(false, true)},
    {MNN_PCONV_ROW(true, false), MNN_PCONV_ROW(true, true)},
};
#undef MNN_PCONV_ROW
// a half block (one ymm per position) of 7..12 positions: 12 accumulators as a whole block's 6 x 2
// (6 positions of one ymm are bound by the FMA latency: 6 chains)
#define MNN_PCONV_HALF_ROW(H)                                                                        \
    {                                                                                                \
        pconvTile<7, H, true>, pconvTile<8, H, true>, pconvTile<9, H, true>, pconvTile<10, H, true>, \
            pconvTile<11, H, true>, pconvTile<12, H, true>                                           \
    }
const TileFn kHalfTiles[2][kPMaxHalf - kPMax] = {MNN_PCONV_HALF_ROW(false), MNN_PCONV_HALF_ROW(true)};
#undef MNN_PCONV_HALF_ROW

}  // namespace

void pconv_6x16__avx2(const PackedConvTile* tile) {
    const bool half = tile->yLastLanes <= 8;
    if (tile->P < 1 || tile->P > (half ? kPMaxHalf : kPMax) || tile->Q != 1 || tile->runs < 1) {
        return;
    }
    if (tile->P > kPMax) {
        kHalfTiles[tile->wHalf ? 1 : 0][tile->P - kPMax - 1](tile);
        return;
    }
    kTiles[tile->wHalf ? 1 : 0][half ? 1 : 0][tile->P - 1](tile);
}

}  // namespace MNN
#endif
