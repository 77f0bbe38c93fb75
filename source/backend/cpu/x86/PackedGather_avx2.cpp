// Packed-layout (NC16HW16) channel gather, avx2 tier. The block's entries are first cut into
// "pieces": one per (output half, entry, input half) that moves at least one lane, with the lane
// permute and the output lanes it fills. Per position each piece is one 8-float load, one
// in-lane-crossing permute and one blend into its output half, so an interleave of two inputs
// (ShuffleNet's channel shuffle: 2 pieces per output half) costs 4 permutes per vector instead of
// a pass over every entry and both input halves (16 permutes). Up to 4 pieces per half run with
// their permutes and masks held in registers (compile-time counts); more take a loop over them.
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

constexpr int kMaxFixedPieces = 4;  // pieces per output half with a compile-time count
constexpr int kMaxPieces = 16 * 2;  // per output half: every entry from both input halves

/** a piece of an output half: out = blend(out, permute(load(src + p * 16), idx), take) */
struct GatherPiece {
    const float* src;  // the entry's block, offset to the input half
    __m256i idx;       // lane permute (0..7 within the input half)
    __m256 take;       // the output lanes this piece fills (all bits set)
};

template <int N0, int N1>
void gatherFixed(const GatherPiece* p0, const GatherPiece* p1, float* y, int64_t count) {
    const float* s0[N0 > 0 ? N0 : 1];
    const float* s1[N1 > 0 ? N1 : 1];
    __m256i i0[N0 > 0 ? N0 : 1], i1[N1 > 0 ? N1 : 1];
    __m256 t0[N0 > 0 ? N0 : 1], t1[N1 > 0 ? N1 : 1];
    for (int k = 0; k < N0; ++k) {
        s0[k] = p0[k].src;
        i0[k] = p0[k].idx;
        t0[k] = p0[k].take;
    }
    for (int k = 0; k < N1; ++k) {
        s1[k] = p1[k].src;
        i1[k] = p1[k].idx;
        t1[k] = p1[k].take;
    }
    const __m256 zero = _mm256_setzero_ps();
    for (int64_t p = 0; p < count; ++p) {
        __m256 a0 = zero, a1 = zero;
#pragma GCC unroll 4
        for (int k = 0; k < N0; ++k) {
            a0 = _mm256_blendv_ps(a0, _mm256_permutevar8x32_ps(_mm256_loadu_ps(s0[k] + p * 16), i0[k]), t0[k]);
        }
#pragma GCC unroll 4
        for (int k = 0; k < N1; ++k) {
            a1 = _mm256_blendv_ps(a1, _mm256_permutevar8x32_ps(_mm256_loadu_ps(s1[k] + p * 16), i1[k]), t1[k]);
        }
        _mm256_storeu_ps(y + p * 16, a0);
        _mm256_storeu_ps(y + p * 16 + 8, a1);
    }
}

void gatherLoop(const GatherPiece* p0, int n0, const GatherPiece* p1, int n1, float* y, int64_t count) {
    const __m256 zero = _mm256_setzero_ps();
    for (int64_t p = 0; p < count; ++p) {
        __m256 a0 = zero, a1 = zero;
        for (int k = 0; k < n0; ++k) {
            a0 = _mm256_blendv_ps(a0, _mm256_permutevar8x32_ps(_mm256_loadu_ps(p0[k].src + p * 16), p0[k].idx),
                                  p0[k].take);
        }
        for (int k = 0; k < n1; ++k) {
            a1 = _mm256_blendv_ps(a1, _mm256_permutevar8x32_ps(_mm256_loadu_ps(p1[k].src + p * 16), p1[k].idx),
                                  p1[k].take);
        }
        _mm256_storeu_ps(y + p * 16, a0);
        _mm256_storeu_ps(y + p * 16 + 8, a1);
    }
}

typedef void (*FixedFn)(const GatherPiece*, const GatherPiece*, float*, int64_t);

#define MNN_PGATHER_ROW(N0) \
    { gatherFixed<N0, 0>, gatherFixed<N0, 1>, gatherFixed<N0, 2>, gatherFixed<N0, 3>, gatherFixed<N0, 4> }
const FixedFn kFixed[kMaxFixedPieces + 1][kMaxFixedPieces + 1] = {
    MNN_PGATHER_ROW(0), MNN_PGATHER_ROW(1), MNN_PGATHER_ROW(2), MNN_PGATHER_ROW(3), MNN_PGATHER_ROW(4),
};
#undef MNN_PGATHER_ROW

/** the pieces of output half h (lanes 8h .. 8h + 7); returns their count */
int cutPieces(const PackedGatherBlock* b, int h, GatherPiece* out) {
    int n = 0;
    for (int e = 0; e < b->entries && e < 16; ++e) {
        for (int s = 0; s < 2; ++s) {
            int32_t idx[8] = {}, take[8] = {};
            bool any = false;
            for (int j = 0; j < 8; ++j) {
                const int l = h * 8 + j;
                const int32_t from = b->perm[e * 16 + l];
                if (((b->mask[e] >> l) & 1u) && (from >= 8) == (s == 1)) {
                    idx[j] = from & 7;
                    take[j] = -1;
                    any = true;
                }
            }
            if (!any) {
                continue;
            }
            GatherPiece& g = out[n++];
            g.src = b->src[e] + s * 8;
            g.idx = _mm256_loadu_si256((const __m256i*)idx);
            g.take = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i*)take));
        }
    }
    return n;
}

}  // namespace

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
    GatherPiece p0[kMaxPieces], p1[kMaxPieces];
    const int n0 = cutPieces(b, 0, p0), n1 = cutPieces(b, 1, p1);
    if (n0 <= kMaxFixedPieces && n1 <= kMaxFixedPieces) {
        kFixed[n0][n1](p0, p1, b->y, b->count);
        return;
    }
    gatherLoop(p0, n0, p1, n1, b->y, b->count);
}

}  // namespace MNN
#endif
