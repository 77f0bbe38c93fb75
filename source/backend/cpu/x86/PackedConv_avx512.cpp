// AVX-512 tile of the packed-layout convolution (PackedConvTile): up to 14 positions x 2 blocks of 16
// output channels = 28 zmm accumulators; per input lane 2 weight vectors and one broadcast per
// position. A last block of at most 8 channels (yLastLanes) runs in ymm. Built with -mavx512f/bw/vl. The templates live
// in an anonymous namespace so that no instantiation compiled with these flags can be shared with another ISA file by
// the linker.
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

#include "backend/cpu/x86/Avx512Math.inl"
#include "backend/cpu/x86/PackedConvFlat.inl"

constexpr int kPMax = 14;
constexpr int kQMax = 2;

constexpr int kPrefetchRows = 16;
/**
 * half weights are fetched this many rows ahead (P x Q tiles; a row is Q * 32 bytes): for GEMVs
 * (P = 1, a row per multiply-add) 4 rows, the hardware prefetcher does most (mobilenet_v3 heads: 4
 * rows 0.21 ms, 16 rows 0.25 ms); for tiles of several positions (Winograd U streamed from memory)
 * 2 KB ahead, as the AVX2 tile: 256 B ahead did not cover the memory latency between the tile's
 * rows (Intel Xeon, 2 MB L2: resnet18's 512-channel F(2,3) layers, U of 8.4 MB as half, 1.66 ->
 * 1.27 ms at one thread, 1.10 -> 0.73 at two; 1 KB ahead 1.51 ms, 3 to 6 KB within 2% of 2 KB)
 */
template <int P, int Q>
constexpr int prefetchRowsHalf() {
    return P == 1 ? 4 : 2048 / (Q * 32);
}

/** 16 weights of a row: float, or IEEE half widened (exact) */
template <bool H>
inline __attribute__((always_inline)) __m512 loadWeights(const float* w, const uint16_t* wh, int64_t off) {
    if (H) {
        return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(wh + off)));
    }
    return _mm512_loadu_ps(w + off);
}

/** the first 8 weights of a row */
template <bool H>
inline __attribute__((always_inline)) __m256 loadWeights8(const float* w, const uint16_t* wh, int64_t off) {
    if (H) {
        return _mm512_castps512_ps256(
            _mm512_cvtph_ps(_mm256_zextsi128_si256(_mm_loadu_si128((const __m128i*)(wh + off)))));
    }
    return _mm256_loadu_ps(w + off);
}

// The accumulators of a P x Q tile: Q zmm blocks per position, or with HL (PackedConvTile::yLastLanes
// <= 8) Q - 1 zmm blocks and the last block's first 8 lanes in a ymm. Zen 4 runs a zmm FMA as two
// 256-bit halves, so the ymm is half the work of the zmm it replaces.
template <int P, int Q, bool HL>
struct TileAcc {
    static constexpr int QF = HL ? Q - 1 : Q;  // whole zmm blocks
    __m512 z[P][QF > 0 ? QF : 1];
    __m256 h[P];
};

/**
 * One input lane i of a tap: acc += the lane's input (xt + p * xs + i) times its weight row (wRow =
 * Q * 16 floats at wt / wht + i * wRow); PF: the weights are fetched kPrefetchRows rows ahead (they
 * stream from L3 / memory where they outgrow L2: Winograd U of wide layers), a line per 16 lanes
 * (32 bytes per 16 lanes for H: half weights, t->wHalf)
 */
template <int P, int Q, bool PF, bool H, bool HL>
inline __attribute__((always_inline)) void laneStep(const float* xt, int64_t xs, const float* wt, const uint16_t* wht,
                                                    int i, TileAcc<P, Q, HL>& acc) {
    constexpr int QF = TileAcc<P, Q, HL>::QF;
    constexpr int64_t wRow = Q * 16;
    __m512 wv[QF > 0 ? QF : 1];
    __m256 wl;
    if (PF) {
#pragma GCC unroll 16
        for (int q = 0; q < Q; ++q) {
            if (H) {
                if (q % 2 == 0) {
                    _mm_prefetch((const char*)(wht + (i + prefetchRowsHalf<P, Q>()) * wRow + q * 16), _MM_HINT_T0);
                }
            } else {
                _mm_prefetch((const char*)(wt + (i + kPrefetchRows) * wRow + q * 16), _MM_HINT_T0);
            }
        }
    }
#pragma GCC unroll 16
    for (int q = 0; q < QF; ++q) {
        wv[q] = loadWeights<H>(wt, wht, i * wRow + q * 16);
    }
    if (HL) {
        wl = loadWeights8<H>(wt, wht, i * wRow + QF * 16);
    }
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
        if (QF > 0) {
            const __m512 xv = _mm512_set1_ps(xt[p * xs + i]);
#pragma GCC unroll 16
            for (int q = 0; q < QF; ++q) {
                acc.z[p][q] = _mm512_fmadd_ps(xv, wv[q], acc.z[p][q]);
            }
            if (HL) {
                acc.h[p] = _mm256_fmadd_ps(_mm512_castps512_ps256(xv), wl, acc.h[p]);
            }
        } else {
            acc.h[p] = _mm256_fmadd_ps(_mm256_broadcast_ss(xt + p * xs + i), wl, acc.h[p]);
        }
    }
}

// acc += x * w over all input blocks and taps (laneStep)
template <int P, int Q, bool PF, bool H, bool HL, bool XS16>
inline __attribute__((always_inline)) void accumulateTile(const PackedConvTile* t, const float* x,
                                                          TileAcc<P, Q, HL>& acc) {
    const int64_t wRow = Q * 16;
    const int64_t xs = XS16 ? 16 : t->xPosStride;
    for (int kb = 0; kb < t->kBlocks; ++kb) {
        const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
        const float* xb = x + kb * t->xBlockStride;
        for (int tp = 0; tp < t->taps; ++tp) {
            const float* xt = xb + t->tapOff[tp];
            const int64_t wOff = ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * wRow;
            const float* wt = H ? nullptr : t->w + wOff;
            const uint16_t* wht = H ? t->wHalf + wOff : nullptr;
            for (int i = 0; i < lanes; ++i) {
                laneStep<P, Q, PF, H, HL>(xt, xs, wt, wht, i, acc);
            }
        }
    }
}

/**
 * accumulateTile for tiles of one position (GEMVs, squeeze-excite projections, edge tiles): their 1-2
 * accumulators would chain every multiply-add on the last one, so consecutive lanes go to 4 sets of
 * accumulators, summed at the end (the AVX2 tile's accumulateChains). Intel Xeon, in a harness: a
 * 1280 x 1000 half-weight GEMV in L3 -10..31%, 960 x 240 -13%
 */
template <int Q, bool PF, bool H, bool HL>
inline __attribute__((always_inline)) void accumulateChains(const PackedConvTile* t, const float* x,
                                                            TileAcc<1, Q, HL>& acc) {
    constexpr int S = 4;
    constexpr int QF = TileAcc<1, Q, HL>::QF;
    const int64_t wRow = Q * 16;
    TileAcc<1, Q, HL> c[S];
    c[0] = acc;
#pragma GCC unroll 4
    for (int s = 1; s < S; ++s) {
#pragma GCC unroll 2
        for (int q = 0; q < QF; ++q) {
            c[s].z[0][q] = _mm512_setzero_ps();
        }
        c[s].h[0] = _mm256_setzero_ps();
    }
    for (int kb = 0; kb < t->kBlocks; ++kb) {
        const int lanes = kb + 1 == t->kBlocks ? t->kLast : 16;
        const float* xb = x + kb * t->xBlockStride;
        for (int tp = 0; tp < t->taps; ++tp) {
            const float* xt = xb + t->tapOff[tp];
            const int64_t wOff = ((int64_t)kb * t->tapsAll + t->tapIdx[tp]) * 16 * wRow;
            const float* wt = H ? nullptr : t->w + wOff;
            const uint16_t* wht = H ? t->wHalf + wOff : nullptr;
            int i = 0;
            for (; i + S <= lanes; i += S) {
#pragma GCC unroll 4
                for (int s = 0; s < S; ++s) {
                    laneStep<1, Q, PF, H, HL>(xt, 0, wt, wht, i + s, c[s]);
                }
            }
            for (; i < lanes; ++i) {
                laneStep<1, Q, PF, H, HL>(xt, 0, wt, wht, i, c[0]);
            }
        }
    }
#pragma GCC unroll 2
    for (int q = 0; q < QF; ++q) {
        acc.z[0][q] =
            _mm512_add_ps(_mm512_add_ps(c[0].z[0][q], c[1].z[0][q]), _mm512_add_ps(c[2].z[0][q], c[3].z[0][q]));
    }
    if (HL) {
        acc.h[0] = _mm256_add_ps(_mm256_add_ps(c[0].h[0], c[1].h[0]), _mm256_add_ps(c[2].h[0], c[3].h[0]));
    }
}

/**
 * acc += x * w for a flat tile (PackedConvFlat.inl) with float weights (on an Intel Xeon, per-op
 * medians in one process, both passes: mobilenet_v2 -1.5%, squeezenet -1%, shufflenet -2%; not
 * measured on Zen 4)
 */
template <int P, int Q, bool PF, bool HL>
inline __attribute__((always_inline)) void accumulateFlat(const PackedConvTile* t, const float* x,
                                                          TileAcc<P, Q, HL>& acc) {
    walkFlatK(
        t, x, 16 * Q * 16, [&](const float* xb, const float* wt, int i) __attribute__((always_inline)) {
            laneStep<P, Q, PF, false, HL>(xb, 16, wt, nullptr, i, acc);
        });
}

/** max(lo, min(hi, v)) over a tile's accumulators (relu: lo 0, hi +inf) */
template <bool upper, int P, int Q, bool HL>
inline __attribute__((always_inline)) void clampTile(TileAcc<P, Q, HL>& acc, float lo, float hi) {
    constexpr int QF = TileAcc<P, Q, HL>::QF;
    const __m512 l = _mm512_set1_ps(lo), u = _mm512_set1_ps(hi);
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
        for (int q = 0; q < QF; ++q) {
            // relu: max(v, 0) gives 0 for NaN; clip: max(lo, v) keeps NaN
            acc.z[p][q] = upper ? _mm512_min_ps(u, _mm512_max_ps(l, acc.z[p][q])) : _mm512_max_ps(acc.z[p][q], l);
        }
        if (HL) {
            const __m256 lh = _mm512_castps512_ps256(l), uh = _mm512_castps512_ps256(u);
            acc.h[p] = upper ? _mm256_min_ps(uh, _mm256_max_ps(lh, acc.h[p])) : _mm256_max_ps(acc.h[p], lh);
        }
    }
}

/** in-register activations: kActSilu, kActSiluFast (VecUnaryOp::SILU_FAST) or HardSwish */
constexpr int kActHardSwish = 0, kActSilu = 1, kActSiluFast = 2;
/** the activation A of 16 values; ymm half blocks two positions to a zmm */
template <int A>
inline __attribute__((always_inline)) __m512 activate16(__m512 v) {
    return A == kActSilu       ? _mm512_mul_ps(v, ewSigmoid16(v))
           : A == kActSiluFast ? _mm512_mul_ps(v, ewSigmoid16Fast(v))
                               : ewHardSwish16(v);
}
template <int A, int P, int Q, bool HL>
inline __attribute__((always_inline)) void activateTile(TileAcc<P, Q, HL>& acc) {
    constexpr int QF = TileAcc<P, Q, HL>::QF;
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p) {
#pragma GCC unroll 16
        for (int q = 0; q < QF; ++q) {
            acc.z[p][q] = activate16<A>(acc.z[p][q]);
        }
    }
    if (HL) {
#pragma GCC unroll 16
        for (int p = 0; p < P; p += 2) {
            const __m256 hi = p + 1 < P ? acc.h[p + 1] : _mm256_setzero_ps();
            const __m512 v = activate16<A>(_mm512_castpd_ps(
                _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(acc.h[p])), _mm256_castps_pd(hi), 1)));
            acc.h[p] = _mm512_castps512_ps256(v);
            if (p + 1 < P) {
                acc.h[p + 1] = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
            }
        }
    }
}

/**
 * The tile's P positions from x into y (res: their residual, or null), t's other fields as given;
 * inlined into pconvTile's loop over the runs
 */
template <int P, int Q, bool H, bool HL>
inline __attribute__((always_inline)) void tileRun(const PackedConvTile* t, const float* x, float* y,
                                                   const float* res) {
    constexpr int QF = TileAcc<P, Q, HL>::QF;
    TileAcc<P, Q, HL> acc;
#pragma GCC unroll 16
    for (int q = 0; q < QF; ++q) {
        const float* yq = y + q * t->yBlockStride;
        const __m512 b = t->accumulate ? _mm512_setzero_ps() : _mm512_loadu_ps(t->bias + q * 16);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            acc.z[p][q] = t->accumulate ? _mm512_loadu_ps(yq + p * 16) : b;
        }
    }
    if (HL) {
        const float* yq = y + QF * t->yBlockStride;
        const __m256 b = t->accumulate ? _mm256_setzero_ps() : _mm256_loadu_ps(t->bias + QF * 16);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            acc.h[p] = t->accumulate ? _mm256_loadu_ps(yq + p * 16) : b;
        }
    }
    // positions 16 floats apart (1x1 stride 1, Winograd's products): broadcasts at constant offsets
    // (Intel Xeon, per-op medians in one process: mobilenet_v2 / squeezenet -2%, their 1x1 layers
    // -2..5%; not measured on Zen 4)
    const bool xs16 = t->xPosStride == 16;
    if constexpr (P == 1) {
        if (t->prefetch) {
            accumulateChains<Q, true, H, HL>(t, x, acc);
        } else {
            accumulateChains<Q, false, H, HL>(t, x, acc);
        }
    } else if (!H && isFlatTile(t)) {
        if (t->prefetch) {
            accumulateFlat<P, Q, true, HL>(t, x, acc);
        } else {
            accumulateFlat<P, Q, false, HL>(t, x, acc);
        }
    } else if (t->prefetch) {
        if (xs16) {
            accumulateTile<P, Q, true, H, HL, true>(t, x, acc);
        } else {
            accumulateTile<P, Q, true, H, HL, false>(t, x, acc);
        }
    } else if (xs16) {
        accumulateTile<P, Q, false, H, HL, true>(t, x, acc);
    } else {
        accumulateTile<P, Q, false, H, HL, false>(t, x, acc);
    }
    if (res) {
#pragma GCC unroll 16
        for (int q = 0; q < QF; ++q) {
            const float* rq = res + q * t->yBlockStride;
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) {
                acc.z[p][q] = _mm512_add_ps(acc.z[p][q], _mm512_loadu_ps(rq + p * 16));
            }
        }
        if (HL) {
            const float* rq = res + QF * t->yBlockStride;
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) {
                acc.h[p] = _mm256_add_ps(acc.h[p], _mm256_loadu_ps(rq + p * 16));
            }
        }
    }
    const GemmPost* post = t->post;
    if (post && post->act == 1) {
        clampTile<false>(acc, 0.0f, 0.0f);
    } else if (post && post->act == 2) {
        clampTile<true>(acc, post->lo, post->hi);
    }
    // SiLU / HardSwish in registers; other unary activations through the table's kernel below
    const bool inRegs = post && post->act == 3 &&
                        (post->unaryOp == (int)VecUnaryOp::SILU || post->unaryOp == (int)VecUnaryOp::SILU_FAST ||
                         post->unaryOp == (int)VecUnaryOp::HARD_SWISH);
    if (inRegs && post->unaryOp == (int)VecUnaryOp::SILU_FAST) {
        activateTile<kActSiluFast>(acc);
    } else if (inRegs && post->unaryOp == (int)VecUnaryOp::SILU) {
        activateTile<kActSilu>(acc);
    } else if (inRegs) {
        activateTile<kActHardSwish>(acc);
    }
#pragma GCC unroll 16
    for (int q = 0; q < QF; ++q) {
        float* yq = y + q * t->yBlockStride;
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            _mm512_storeu_ps(yq + p * 16, acc.z[p][q]);
        }
    }
    if (HL) {
        float* yq = y + QF * t->yBlockStride;
        const __m256 zero = _mm256_setzero_ps();
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
            _mm256_storeu_ps(yq + p * 16, acc.h[p]);
            _mm256_storeu_ps(yq + p * 16 + 8, zero);
        }
    }
    if (post && post->act == 3 && !inRegs) {
        for (int q = 0; q < Q; ++q) {
            float* yq = y + q * t->yBlockStride;
            post->unary(post->unaryOp, yq, yq, (int64_t)P * 16, post->lo, post->hi);
        }
    }
}

/**
 * the tile's runs (PackedConvTile::runs) back to back in one call (Intel Xeon, 14 x 16 flat tiles over
 * 12544 positions in a harness, runs of 8 against 1: K = 16 -13..15%, K = 24 -5..28%)
 */
template <int P, int Q, bool H = false, bool HL = false>
void pconvTile(const PackedConvTile* t) {
    const float* x = t->x;
    float* y = t->y;
    const float* res = t->res;
    const int64_t xStep = (int64_t)P * t->xPosStride;
    for (int r = t->runs; r > 0; --r) {
        tileRun<P, Q, H, HL>(t, x, y, res);
        x += xStep;
        y += P * 16;
        if (res) {
            res += P * 16;
        }
    }
}

typedef void (*TileFn)(const PackedConvTile*);

#define MNN_PCONV_ROW(Q, H, HL)                                                                                \
    {                                                                                                          \
        pconvTile<1, Q, H, HL>, pconvTile<2, Q, H, HL>, pconvTile<3, Q, H, HL>, pconvTile<4, Q, H, HL>,        \
            pconvTile<5, Q, H, HL>, pconvTile<6, Q, H, HL>, pconvTile<7, Q, H, HL>, pconvTile<8, Q, H, HL>,    \
            pconvTile<9, Q, H, HL>, pconvTile<10, Q, H, HL>, pconvTile<11, Q, H, HL>, pconvTile<12, Q, H, HL>, \
            pconvTile<13, Q, H, HL>, pconvTile<14, Q, H, HL>                                                   \
    }

// [half weights (pcHalfTileP: GEMVs, streamed Winograd weights)][last block half][Q - 1][P - 1]
const TileFn kTiles[2][2][kQMax][kPMax] = {
    {{MNN_PCONV_ROW(1, false, false), MNN_PCONV_ROW(2, false, false)},
     {MNN_PCONV_ROW(1, false, true), MNN_PCONV_ROW(2, false, true)}},
    {{MNN_PCONV_ROW(1, true, false), MNN_PCONV_ROW(2, true, false)},
     {MNN_PCONV_ROW(1, true, true), MNN_PCONV_ROW(2, true, true)}},
};
#undef MNN_PCONV_ROW

}  // namespace

void pconv_14x32__avx512(const PackedConvTile* tile) {
    if (tile->P == 16 && tile->Q == 1 && tile->yLastLanes > 8 && tile->runs >= 1) {
        // pcWideP: 16 accumulators, the weights' row loaded (and widened) once for 16 positions
        if (tile->wHalf) {
            pconvTile<16, 1, true, false>(tile);
        } else {
            pconvTile<16, 1, false, false>(tile);
        }
        return;
    }
    if (tile->P < 1 || tile->runs < 1 || tile->P > kPMax || tile->Q < 1 || tile->Q > kQMax) {
        return;
    }
    kTiles[tile->wHalf ? 1 : 0][tile->yLastLanes <= 8 ? 1 : 0][tile->Q - 1][tile->P - 1](tile);
}

}  // namespace MNN
#endif
