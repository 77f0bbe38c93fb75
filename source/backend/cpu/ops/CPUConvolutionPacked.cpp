// Direct 2-D convolution on the packed layout NC16HW16 (PackedLayout.hpp) with the table's register
// tile (PackedConvTile): weights are packed once per group of Q output blocks; every output row is
// split into column segments whose set of in-bounds taps is constant (left edge, interior, right
// edge), each segment into tiles of up to pcPMax positions that read the input in place (no im2col,
// no padded planes). A plain input is packed into scratch first, a plain output is computed into
// scratch and unpacked. Depthwise and Winograd have their own packed Executions.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string>
#include <vector>
#include "CPUConvolutionFast.hpp"
#include "CPUConvolutionPool.hpp"
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUFeatures.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

namespace {

/**
 * P output positions of an image: along a row (column == 0: positions yPos + p) or down a column
 * (column == 1: positions yPos + p * ow, computed into a small buffer and copied out; used for the
 * narrow edge segments, which would otherwise run as tiles of one or two positions).
 */
struct PcTileDesc {
    int64_t xOff;  // floats from the image's first block to the first in-bounds tap of position 0
    int32_t yPos;  // output position (oy * ow + ox) of position 0
    int32_t list;  // tap list
    int16_t P;
    int16_t column;
};

/**
 * input bytes of one image per chunk of tiles: this share of the core's L2 (CPUFeatures::l2Bytes).
 * Half of L2 was the best fixed budget on Zen 3 (512 KB L2: 256 KB); on a Xeon with 2 MB of L2 per
 * core (AVX-512 tier, 2026-11-27, per-op medians of alternating runs in one process) a budget of 1 MB
 * took resnet50 -2.7% (its 14x14 1024-channel layers, whose 800 KB input had been cut into 4 chunks
 * that each streamed the weights again: -11..21%), inception_v3 -1.7%; no chunks at all: -0.5% / +0.7%
 */
constexpr double kChunkL2Share = 0.5;
// 1x1 convolutions with K of 16 blocks or more (K > 240) walk K in slices of 128 channels
// (PackedConvJob::runSliced): a slice of one output-block group's weights (8 KB per block) stays
// in L1 across a run of tiles instead of the whole K x Q * 16 weights (16-128 KB at K = 256-2048)
// streaming from L2 for every 6-position tile. The tiles' outputs are re-read once per slice.
// Zen 3, 2026-11-26 (session_ab, one process): resnet50's sliced layers -5.6% at one thread, -7.1%
// at two; inception_v3's -5.2% / -5.3%; slices of 64 or 256 channels were slower than 128;
// lowering the bound from 32 blocks to 16 took mobilenet_v3 another -2%, the others +-1%.
// Zen 3 again on 2026-11-29, after the flat loop, runs and prefetches of later sessions: the whole
// K per tile was faster there (2-3% per model), so the AVX2 tier no longer slices (pcKSlices).
constexpr int kKSliceBlocks = 8;
constexpr int kKSliceMinBlocks = 16;
/**
 * Small planes take slices of kKSliceSmallBlocks (64 channels; tiers with pcKSliceSmall) where a
 * slice of kKSliceBlocks would not fit in kKSliceL1Bytes with its input over the chunk's positions
 * and halving it does: the input of a small plane's slice is then read from L1 by every tile, next
 * to the slice's weights, instead of both crowding L1 (64 positions x 128 channels = 32 KB with 16
 * KB of AVX-512 weights). Intel Xeon (48 KB L1, AVX-512 tier), per-op minimums in the model at one
 * thread: inception_v3's 8x8 1x1 layers (K = 1280 / 2048) -6..12%, resnet50's 7x7 ones (K = 512 /
 * 2048) -4..8%, mobilenet_v2's 7x7 projections -4..7%; the 14x14 and 17x17 layers 2-5% slower with
 * 64 channels (their input never fits: they keep 128); at two threads resnet50's 7x7 layers -3..5%
 */
constexpr int kKSliceSmallBlocks = 4;
constexpr double kKSliceL1Bytes = 32.0 * 1024.0;
/**
 * Windowed layers (3x3 ...) with K of kWindowSliceMinBlocks blocks or more whose input image fits in
 * L2 walk K in slices of kKSliceTapBlocks blocks x taps (2 blocks of a 3x3 window, 18 KB of weights
 * per output block), every tile of the image per slice: the whole K x taps x 16 weights of an output
 * block (295 KB at 512 channels) no longer stream from L2 / L3 for every 6-position tile next to an
 * input that takes the rest of L2. Zen 3, per-op minimums in the model: resnet50's layer4.0.conv2
 * (512 channels, 14x14 -> 7x7) 4.08 -> 3.09 ms at one thread, 2.37 -> 2.06 at two; resnet18's
 * layer4.0.conv1 (256 -> 512) 1.75 -> 1.50 / 1.10 -> 1.06; inception_v3's Mixed_7a stride-2 layers
 * (192 channels, 17x17 -> 8x8) -8% / -13% at one thread, -3% / -14% at two; slices of 1 block 2-3%
 * slower at one thread. On the Xeon (AVX-512 tier, 2 MB of L2, where weights and input fit side by
 * side) within +-1%.
 */
constexpr int kWindowSliceMinBlocks = 8;
constexpr int kKSliceTapBlocks = 18;
constexpr size_t kPrefetchWeightBytes = 2u * 1024u * 1024u;  // weights beyond L2: prefetched by the tile kernel

/**
 * Tiles of at most kRunKBlocks K blocks x taps (K <= 64 of a 1x1 layer, the folded RGB stems) run
 * up to kTileRuns tiles of a row per kernel call (PackedConvTile::runs): a small-K tile's call,
 * dispatch and field loads cost as much as its multiply-adds at K = 16 (a 6-position tile -17% at
 * K = 16, -11% at K = 24, -5% at K = 64 in a harness on Zen 3). Zen 3, per-op medians in one process:
 * mobilenet_v2 -3.9%, mobilenet_v3 -2.7%, squeezenet -3%, efficientnet_b0 -2.4% (the RGB stems
 * -4..16%, the K = 16 / 24 pointwise layers -5..14%); for every K the 7x7 layers' weight prefetch,
 * issued a tile's share per call, bunched up (their layers +5..14%); a bound of 9 blocks gave the same.
 */
constexpr int kRunKBlocks = 4;
constexpr int kTileRuns = 8;

/** ConvolutionPool: the convolution rows of a band, one output-block group (L2 share) */
constexpr double kBandBytes = 128.0 * 1024.0;

/**
 * A row-folded stem (mFold): the padded NHWC input rows of a band of output rows, per task (L1 /
 * L2 share). The bands copy the rows they read into this buffer instead of one padded copy of the
 * whole image that the tiles then read back (written to and read from L2 / L3)
 */
constexpr double kFoldBandBytes = 64.0 * 1024.0;

/** MNN_FOLD_BANDS=0: a row-folded stem copies its whole padded input first (the path before bands) */
inline bool foldBandsEnabled() {
    const char* env = getenv("MNN_FOLD_BANDS");
    return !(env && strcmp(env, "0") == 0);
}

/**
 * MNN_KSPLIT: 0 never splits K (KSplitJob), "all" splits every eligible layer (at the producer's
 * split, else at half of K: for tests), unset where the producer split the channels
 */
inline int kSplitMode() {
    const char* env = getenv("MNN_KSPLIT");
    return env && strcmp(env, "0") == 0 ? 0 : env && strcmp(env, "all") == 0 ? 2 : 1;
}

/** tasks per thread of the work index (contiguous ranges, claimed as threads come free) */
constexpr int kTasksPerThread = 12;

/**
 * the fewest tiles per task of a K-sliced job (runSliced) at several threads: 12 tasks per thread
 * left 1-4 tiles per task on 14x14 / 7x7 layers (a 7x7 960->160 projection: 20 tasks of one tile
 * for the AVX-512 tile), each task then reading every slice of its group's weights for a tile or
 * two. Xeon (AVX-512 tier), 2 threads, per-op sums of alternating sessions: mobilenet_v2 -6.4%,
 * mobilenet_v3 -2.4%, resnet50 -0.6%, efficientnet_b0 0 against 12 tasks per thread; 16 tiles
 * -1..3.5% against 8 on mobilenet_v2 / inception_v3, 32 and one task per thread within +-3% of 16;
 * Zen 3 (AVX2 tile), 2 threads: mobilenet_v3 -1.7%, resnet50 -1.1%, efficientnet_b0 -2.9%,
 * inception_v3 +1.6%
 */
constexpr int64_t kSlicedTaskTiles = 16;

/** floats of the per-task buffer of a column tile (pcPMax * pcQMax * 16 must fit) */
constexpr int kColumnTileFloats = 1024;

struct PcTapList {
    int32_t start;
    int32_t count;
};

/**
 * A plain input of at most 16 channels as NHWC (channels innermost, C lanes per position): one
 * "block" whose positions are C floats apart, so a stem convolution on 3 channels neither writes
 * nor reads 13 padding lanes per position.
 */
/** positions [p0, p1) of one image: d[p * C + c] = s[c * plane + p] (C known: the loop vectorises) */
template <int C>
inline void toNhwc(const float* s, float* d, int64_t plane, int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
        for (int c = 0; c < C; ++c) {
            d[p * C + c] = s[c * plane + p];
        }
    }
}

/** toNhwc<3> four positions at a time on SSE2 (the x86-64 baseline: no ISA flags) */
inline void toNhwc3(const float* s, float* d, int64_t plane, int64_t p0, int64_t p1) {
    int64_t p = p0;
#if defined(__SSE2__)
    const float *r = s, *g = s + plane, *b = s + 2 * plane;
    for (; p + 4 <= p1; p += 4) {
        const __m128 rv = _mm_loadu_ps(r + p), gv = _mm_loadu_ps(g + p), bv = _mm_loadu_ps(b + p);
        const __m128 rgLo = _mm_unpacklo_ps(rv, gv), rgHi = _mm_unpackhi_ps(rv, gv);  // r0 g0 r1 g1, r2 g2 r3 g3
        const __m128 t0 = _mm_shuffle_ps(bv, rgLo, _MM_SHUFFLE(2, 2, 0, 0));          // b0 b0 r1 r1
        const __m128 t1 = _mm_shuffle_ps(rgLo, bv, _MM_SHUFFLE(1, 1, 3, 3));          // g1 g1 b1 b1
        const __m128 t2 = _mm_shuffle_ps(bv, rgHi, _MM_SHUFFLE(3, 2, 3, 2));          // b2 b3 r3 g3
        float* o = d + p * 3;
        _mm_storeu_ps(o, _mm_shuffle_ps(rgLo, t0, _MM_SHUFFLE(2, 0, 1, 0)));      // r0 g0 b0 r1
        _mm_storeu_ps(o + 4, _mm_shuffle_ps(t1, rgHi, _MM_SHUFFLE(1, 0, 2, 0)));  // g1 b1 r2 g2
        _mm_storeu_ps(o + 8, _mm_shuffle_ps(t2, t2, _MM_SHUFFLE(1, 3, 2, 0)));    // b2 r3 g3 b3
    }
#endif
    toNhwc<3>(s, d, plane, p, p1);
}

/** packed blocks (one per task) subsampled: dst[block][oy][ox] = src[block][oy * sh][ox * sw], 16 lanes */
struct SubsampleJob {
    const float* src;
    float* dst;
    int ih, iw, sh, sw, oh, ow;
    void operator()(int block) const {
        const float* s = src + (int64_t)block * ih * iw * kCpuPack;
        float* d = dst + (int64_t)block * oh * ow * kCpuPack;
        for (int oy = 0; oy < oh; ++oy) {
            const float* row = s + (int64_t)oy * sh * iw * kCpuPack;
            for (int ox = 0; ox < ow; ++ox) {
                memcpy(d, row + (int64_t)ox * sw * kCpuPack, sizeof(float) * kCpuPack);
                d += kCpuPack;
            }
        }
    }
};

/** toNhwc for any C (1, 3 and 4 specialised) */
inline void toNhwcAny(int channels, const float* s, float* d, int64_t plane, int64_t p0, int64_t p1) {
    switch (channels) {
        case 1:
            toNhwc<1>(s, d, plane, p0, p1);
            return;
        case 3:
            toNhwc3(s, d, plane, p0, p1);  // RGB stems
            return;
        case 4:
            toNhwc<4>(s, d, plane, p0, p1);
            return;
        default:
            break;
    }
    for (int64_t p = p0; p < p1; ++p) {
        for (int c = 0; c < channels; ++c) {
            d[p * channels + c] = s[c * plane + p];
        }
    }
}

struct NhwcJob {
    const float* src;
    float* dst;
    int channels;
    int64_t plane, rows;  // positions per image, positions per task
    int64_t tasksPerImage;
    void operator()(int i) const {
        const int64_t n = i / tasksPerImage, p0 = (i % tasksPerImage) * rows;
        const int64_t p1 = std::min(plane, p0 + rows);
        toNhwcAny(channels, src + n * channels * plane, dst + n * channels * plane, plane, p0, p1);
    }
};

/**
 * Rows [r0, r1) of image `s` (C planes of ih x iw) as NHWC inside a zero border, to d (row r0 first):
 * padded row r, column j = input (r - pt, j - pl) or 0, wp columns of C floats per row
 */
inline void paddedNhwcRows(const float* s, float* d, int channels, int ih, int iw, int pt, int pl, int wp, int r0,
                           int r1) {
    const int64_t plane = (int64_t)ih * iw, rowFloats = (int64_t)wp * channels;
    // input columns [j0, j1) land at padded columns [pl + j0, pl + j1) inside [0, wp)
    const int j0 = std::max(0, -pl), j1 = std::min(iw, wp - pl);
    for (int r = r0; r < r1; ++r, d += rowFloats) {
        const int iy = r - pt;
        if (iy < 0 || iy >= ih || j1 <= j0) {
            memset(d, 0, sizeof(float) * rowFloats);
            continue;
        }
        const int64_t left = (int64_t)(pl + j0) * channels, right = (int64_t)(pl + j1) * channels;
        memset(d, 0, sizeof(float) * left);
        toNhwcAny(channels, s + (int64_t)iy * iw + j0, d + left, plane, 0, j1 - j0);
        memset(d + right, 0, sizeof(float) * (rowFloats - right));
    }
}

/** the whole padded NHWC image (a row-folded stem, see mFold): rows [task * rowsPerTask, ...) of one image per task */
struct PaddedNhwcJob {
    const float* src;
    float* dst;
    int channels, ih, iw, pt, pl, hp, wp;  // the input, its top / left pad, the padded extents
    int rowsPerTask, tasksPerImage;
    void operator()(int i) const {
        const int n = i / tasksPerImage, r0 = (i % tasksPerImage) * rowsPerTask;
        const int r1 = std::min(hp, r0 + rowsPerTask);
        const int64_t rowFloats = (int64_t)wp * channels;
        paddedNhwcRows(src + (int64_t)n * channels * ih * iw, dst + ((int64_t)n * hp + r0) * rowFloats, channels, ih,
                       iw, pt, pl, wp, r0, r1);
    }
};

struct PackedConvJob {
    const CPUCoreFunctions* f;
    const float* x;
    float* y;
    const PcTileDesc* tiles;
    int64_t tilesPerImage;
    const int32_t* tapOff;
    const int32_t* tapIdx;
    const PcTapList* lists;
    const float* w;
    const uint16_t* wHalf;  // the weights as IEEE half (w unused), or null
    int64_t wImage;         // weight floats between images (scaled per image by S), else 0
    int64_t wPerBlock;      // packed weight floats per output block
    const float* bias;
    int groups, outBlocks, qMax, tasks;
    int lastLanes;  // output channels in the last block (PackedConvTile::yLastLanes)
    // work index = ((image * chunks + chunk) * groups + group) * chunkTiles + tile in chunk: all
    // output-block groups of a chunk of tiles run back to back while its input is in cache
    int64_t chunks, chunkTiles;
    int64_t total;  // batch * chunks * groups * chunkTiles
    int64_t xImage, yImage, xBlockStride, yBlockStride;
    int64_t xRowStride, xColStride;  // input floats between the positions of a row / column tile
    int64_t ow;
    // floats taken off every tile's input offset: a band of a folded stem's rows copied to x (FoldRows)
    int64_t xShift = 0;
    int kBlocks, kLast, tapsAll;
    int prefetch;  // PackedConvTile::prefetch
    const GemmPost* post;
    // the residual R (packed like y) added to each stored tile, then rPost (the activation after it)
    const float* res = nullptr;
    const GemmPost* rPost = nullptr;
    // K blocks per slice (kKSliceBlocks, kKSliceTapBlocks / taps), or 0: the whole K per tile (runSliced)
    int kSlice = 0;
    // runSliced's K blocks [kBegin, kEnd): a share of K (KSplitJob); kEnd < 0: to kBlocks
    int kBegin = 0, kEnd = -1;
    bool hasColumns = false;  // the plan has column tiles (runSliced runs them after the slices)
    // the most positions of a tile whose block has at most 8 channels (pcPMaxHalf), or 0: the AVX2
    // tile computes such a block as one ymm per position, 6 FMA chains bound by their latency at 6
    // positions; two adjacent tiles run as one of up to 12 (24- and 40-channel 1x1 layers -1..8%)
    int pMaxHalf = 0;
    // the most tiles per kernel call (kTileRuns, or 1: K over kRunKBlocks)
    int runsMax = 1;
    /** group g is one block of at most 8 channels, whose tiles may merge up to pMaxHalf positions */
    bool halfGroup(int g) const {
        return pMaxHalf > 0 && g == groups - 1 && outBlocks - g * qMax == 1;
    }
    /** tiles k and k + 1 exist, both along rows, adjacent in the output and in the input */
    bool adjacentRowTiles(int64_t k) const {
        if (k + 1 >= tilesPerImage) {
            return false;
        }
        const PcTileDesc& a = tiles[k];
        const PcTileDesc& b = tiles[k + 1];
        return !a.column && !b.column && a.list == b.list && b.yPos == a.yPos + a.P &&
               b.xOff == a.xOff + (int64_t)a.P * xRowStride;
    }
    /** tile k and the next run as one tile of up to pMaxHalf positions */
    bool mergesWithNext(int64_t k) const {
        return adjacentRowTiles(k) && tiles[k].P + tiles[k + 1].P <= pMaxHalf;
    }
    /** tile k + 1 continues tile k's run (PackedConvTile::runs): adjacent, of equal P */
    bool continuesRun(int64_t k) const {
        return adjacentRowTiles(k) && tiles[k].P == tiles[k + 1].P;
    }
    /**
     * the fields of `t` that place tile d of image n, output blocks [qb0, qb0 + Q), from K block kb0
     * on; returns the tile's first output (and in *rt its residual, or null)
     */
    float* placeTile(PackedConvTile* t, const PcTileDesc& d, int n, int qb0, int kb0, const float** rt) const {
        setTileFields(t, d, n, qb0, kb0);
        float* yt = y + n * yImage + qb0 * yBlockStride + (int64_t)d.yPos * kCpuPack;
        *rt = res ? res + (yt - y) : nullptr;
        return yt;
    }
    /** the fields of `t` that place tile d of image n, output blocks [qb0, qb0 + Q), from K block kb0 on (not y) */
    void setTileFields(PackedConvTile* t, const PcTileDesc& d, int n, int qb0, int kb0) const {
        const PcTapList& l = lists[d.list];
        const int Q = std::min(qMax, outBlocks - qb0);
        const int64_t wSlice = (int64_t)kb0 * tapsAll * kCpuPack * Q * kCpuPack;  // weights before kb0
        t->x = x + (n * xImage + d.xOff + (int64_t)kb0 * xBlockStride - xShift);
        t->tapOff = tapOff + l.start;
        t->tapIdx = tapIdx + l.start;
        t->taps = l.count;
        t->w = wHalf ? nullptr : w + n * wImage + qb0 * wPerBlock + wSlice;
        t->wHalf = wHalf ? wHalf + qb0 * wPerBlock + wSlice : nullptr;
        t->bias = bias + qb0 * kCpuPack;
        t->P = d.P;
        t->Q = Q;
        t->yLastLanes = qb0 + Q == outBlocks ? lastLanes : kCpuPack;
    }
    /**
     * Tiles [t0, t1) of image n (row tiles only: a plan made for bands, see CPUConvolutionPacked::
     * mBanded), output-block group g, into yb: block qb0 + q at yb + q * ybs, position p at
     * (p - yPosBase) * 16 within it; runs and half-block merges as in operator()
     */
    void runTileRange(int n, int g, int64_t t0, int64_t t1, float* yb, int64_t ybs, int64_t yPosBase) const {
        PackedConvTile t;
        t.xBlockStride = xBlockStride;
        t.kBlocks = kBlocks;
        t.kLast = kLast;
        t.tapsAll = tapsAll;
        t.accumulate = 0;
        t.prefetch = prefetch;
        t.xPosStride = xRowStride;
        t.yBlockStride = ybs;
        t.res = nullptr;
        t.post = post;
        const int qb0 = g * qMax;
        const bool half = halfGroup(g);
        for (int64_t k = t0; k < t1;) {
            const PcTileDesc& d = tiles[k];
            setTileFields(&t, d, n, qb0, 0);
            t.y = yb + ((int64_t)d.yPos - yPosBase) * kCpuPack;
            t.runs = 1;
            int64_t next = k + 1;
            if (half && next < t1 && mergesWithNext(k)) {
                t.P += tiles[next].P;
                ++next;
            } else {
                while (t.runs < runsMax && k + t.runs < t1 && continuesRun(k + t.runs - 1)) {
                    ++t.runs;
                }
                next = k + t.runs;
            }
            f->packedConv(&t);
            k = next;
        }
    }
    /**
     * A job with K in slices (float weights): for each run of tiles of one chunk and output-block
     * group, slice s of the weights (kSlice * 16 lanes x taps x Q * 16 channels: 8 KB per output
     * block for a 1x1 layer, 18 KB for a 3x3 one) is used by every row tile of the run before slice
     * s + 1, so it stays in L1; the tiles' outputs hold the partial sums (the first slice starts
     * from the bias and adds the residual, the others accumulate), and the activation goes with
     * the last slice. A row tile uses the taps of its own list within each slice. Column tiles (the narrow
     * edge columns of a windowed layer, whose outputs are not contiguous) run after the slices with
     * the whole K, as in operator().
     */
    void runSliced(int task) const {
        const int64_t i0 = total * task / tasks, i1 = total * (task + 1) / tasks;
        PackedConvTile t;
        t.xBlockStride = xBlockStride;
        t.tapsAll = tapsAll;
        t.prefetch = prefetch;
        int64_t i = i0;
        while (i < i1) {
            const int64_t inChunk0 = i % chunkTiles;
            int64_t r = i / chunkTiles;
            const int g = (int)(r % groups);
            r /= groups;
            const int64_t c = r % chunks;
            const int n = (int)(r / chunks);
            const int64_t runEnd = std::min(i1, i - inChunk0 + chunkTiles);
            const int qb0 = g * qMax;
            const bool half = halfGroup(g);
            const int kB = kEnd < 0 ? kBlocks : kEnd;
            for (int s0 = kBegin; s0 < kB; s0 += kSlice) {
                const int sb = std::min(kSlice, kB - s0);
                const bool last = s0 + sb >= kB;
                t.kBlocks = sb;
                t.kLast = s0 + sb >= kBlocks ? kLast : kCpuPack;
                t.accumulate = s0 == kBegin ? 0 : 1;
                // the next slice's weights (or the next group's first slice) are requested into L1
                // a share per tile across this run, so that the next run finds them there rather
                // than in L2 / L3 (mobilenet_v2's 7x7 and 14x14 layers -17..22%, resnet50's layer3 /
                // layer4 1x1 layers -4..11% on Zen 3, per-op medians in one process)
                const int qn = last ? (qb0 + qMax < outBlocks ? qb0 + qMax : 0) : qb0;
                const int s1 = last ? kBegin : s0 + sb;
                const int Qn = std::min(qMax, outBlocks - qn);
                SpreadPrefetch next(w + n * wImage + qn * wPerBlock + (int64_t)s1 * tapsAll * kCpuPack * Qn * kCpuPack,
                                    (int64_t)std::min(kSlice, kB - s1) * tapsAll * Qn * kCpuPack, runEnd - i);
                for (int64_t j = i; j < runEnd; ++j) {
                    next.step();
                    const int64_t tile = c * chunkTiles + (j % chunkTiles);
                    if (tile >= tilesPerImage || tiles[tile].column) {
                        continue;  // the last chunk's unused slots; column tiles after the slices
                    }
                    const float* rt = nullptr;
                    float* yt = placeTile(&t, tiles[tile], n, qb0, s0, &rt);
                    if (j + 1 < runEnd && half && mergesWithNext(tile)) {
                        t.P += tiles[tile + 1].P;
                        ++j;
                        next.step();  // the merged tile's share too
                    }
                    t.xPosStride = xRowStride;
                    t.y = yt;
                    t.yBlockStride = yBlockStride;
                    // R with the first slice (the partial sums then start from bias + R): Y may
                    // be R's buffer (inPlaceInput), which the first slice's store overwrites
                    t.res = s0 == kBegin ? rt : nullptr;
                    t.post = last ? (rt ? rPost : post) : nullptr;
                    f->packedConv(&t);
                }
            }
            if (hasColumns) {
                alignas(64) float column[kColumnTileFloats];
                t.kBlocks = kBlocks;
                t.kLast = kLast;
                t.accumulate = 0;
                for (int64_t j = i; j < runEnd; ++j) {
                    const int64_t tile = c * chunkTiles + (j % chunkTiles);
                    if (tile < tilesPerImage && tiles[tile].column) {
                        const float* rt = nullptr;
                        float* yt = placeTile(&t, tiles[tile], n, qb0, 0, &rt);
                        runColumnTile(&t, tiles[tile], yt, rt, column);
                    }
                }
            }
            i = runEnd;
        }
    }
    /** column tile d (placed in t) through the buffer `column`, then into its output column yt (and R at rt) */
    void runColumnTile(PackedConvTile* t, const PcTileDesc& d, float* yt, const float* rt, float* column) const {
        t->runs = 1;
        t->xPosStride = xColStride;
        t->y = column;
        t->yBlockStride = (int64_t)d.P * kCpuPack;
        t->res = nullptr;
        t->post = post;
        f->packedConv(t);
        for (int q = 0; q < t->Q; ++q) {
            for (int p = 0; p < d.P; ++p) {
                float* yp = yt + q * yBlockStride + p * ow * kCpuPack;
                float* cp = column + (q * d.P + p) * kCpuPack;
                if (rt) {
                    addResidualRow(*f, cp, rt + (yp - yt), kCpuPack, rPost);  // before the store: Y may be R
                }
                memcpy(yp, cp, sizeof(float) * kCpuPack);
            }
        }
    }
    void operator()(int task) const {
        if (kSlice > 0) {
            runSliced(task);
            return;
        }
        const int64_t i0 = total * task / tasks, i1 = total * (task + 1) / tasks;
        PackedConvTile t;
        t.xBlockStride = xBlockStride;
        t.kBlocks = kBlocks;
        t.kLast = kLast;
        t.tapsAll = tapsAll;
        t.accumulate = 0;
        t.prefetch = prefetch;
        alignas(64) float column[kColumnTileFloats];
        t.post = post;
        int64_t inChunk = i0 % chunkTiles, r = i0 / chunkTiles;
        int g = (int)(r % groups);
        r /= groups;
        int64_t c = r % chunks;
        int n = (int)(r / chunks);
        auto advance = [&]() {
            if (++inChunk == chunkTiles) {
                inChunk = 0;
                if (++g == groups) {
                    g = 0;
                    if (++c == chunks) {
                        c = 0;
                        ++n;
                    }
                }
            }
        };
        for (int64_t i = i0; i < i1; ++i) {
            const int64_t tile = c * chunkTiles + inChunk;
            const int gi = g;
            const int ni = n;
            advance();
            if (tile >= tilesPerImage) {
                continue;  // the last chunk's unused slots
            }
            const PcTileDesc& d = tiles[tile];
            const float* rt = nullptr;
            float* yt = placeTile(&t, d, ni, gi * qMax, 0, &rt);
            // a half block's tile takes the next tile of its run too, other row tiles the following
            // ones of equal P as runs (inChunk != 0: the next index is the next tile of this chunk
            // and group)
            t.runs = 1;
            if (inChunk != 0 && i + 1 < i1 && halfGroup(gi) && mergesWithNext(tile)) {
                t.P += tiles[tile + 1].P;
                advance();
                ++i;
            } else if (!d.column) {
                while (t.runs < runsMax && inChunk != 0 && i + 1 < i1 && continuesRun(tile + t.runs - 1)) {
                    ++t.runs;
                    advance();
                    ++i;
                }
            }
            if (!d.column) {
                // R added in the tile's store, then the activation (rPost)
                t.xPosStride = xRowStride;
                t.y = yt;
                t.yBlockStride = yBlockStride;
                t.res = rt;
                t.post = rt ? rPost : post;
                f->packedConv(&t);
                continue;
            }
            runColumnTile(&t, d, yt, rt, column);
        }
    }
};

/**
 * A K-sliced 1x1 layer at two threads split along K (mKSplit): thread t's share of the work is its
 * K range for every output, the range whose input channels it wrote in the previous op
 * (Tensor::InsideDescribe::splitBlock: PointwiseDepthwise's sets of groups, a packed convolution's
 * output-block groups, the input-scale wrapper's blocks), instead of a range of
 * positions over all of K (half of the input from the other core). Share 0 starts from bias + R
 * into Y, share 1 from zero into `part`; KSumJob then adds them and applies the activation.
 */
struct KSplitJob {
    const PackedConvJob* conv;
    float* part;            // share 1's partial sums, packed like Y
    const float* zeroBias;  // [outBlocks * 16] zeros
    int kMid;
    void operator()(int share) const {
        PackedConvJob j = *conv;
        j.tasks = 1;
        j.post = nullptr;
        j.rPost = nullptr;
        if (share == 0) {
            j.kEnd = kMid;
        } else {
            j.kBegin = kMid;
            j.y = part;
            j.res = nullptr;
            j.bias = zeroBias;
        }
        j.runSliced(0);
    }
};

/** Y += part, then the activation, over a range of positions per task (KSplitJob's second pass) */
struct KSumJob {
    const CPUCoreFunctions* f;
    float* y;
    const float* part;
    const GemmPost* post;
    int64_t plane, blockStride;
    int blocks, tasks;
    void operator()(int task) const {
        const int64_t p0 = plane * task / tasks, p1 = plane * (task + 1) / tasks;
        for (int b = 0; b < blocks; ++b) {
            const int64_t o = b * blockStride + p0 * kCpuPack;
            addResidualRow(*f, y + o, part + o, (p1 - p0) * kCpuPack, post);
        }
    }
};

/**
 * The input of a row-folded stem, copied band by band (kFoldBandBytes): load() puts the padded NHWC
 * rows that output rows [oy0, oy1) of image n read into task's buffer and points a copy of the job
 * at them, so that its tiles' offsets (planned over the whole padded image) land in the buffer
 */
struct FoldRows {
    const float* src;  // the plain input
    float* bufs;       // bufFloats per task
    int64_t bufFloats;
    int channels, ih, iw, pt, pl, wp;  // as paddedNhwcRows
    int sh, span;                      // output row stride, padded rows a window spans
    void load(PackedConvJob* j, int task, int n, int oy0, int oy1) const {
        const int r0 = oy0 * sh, r1 = (oy1 - 1) * sh + span;
        float* buf = bufs + task * bufFloats;
        paddedNhwcRows(src + (int64_t)n * channels * ih * iw, buf, channels, ih, iw, pt, pl, wp, r0, r1);
        j->x = buf;
        j->xShift = n * j->xImage + (int64_t)r0 * wp * channels;
    }
};

/** a row-folded stem without a pool: a strip of output rows per task, in bands of bandRows (FoldRows) */
struct FoldBandJob {
    const PackedConvJob* conv;
    const FoldRows* fold;
    const int64_t* rowTile;  // first tile of each output row, [oh + 1]
    int oh, bandRows, strips, batch;
    void operator()(int s) const {
        PackedConvJob j = *conv;
        const int oy0 = (int)((int64_t)oh * s / strips), oy1 = (int)((int64_t)oh * (s + 1) / strips);
        for (int n = 0; n < batch; ++n) {
            for (int b = oy0; b < oy1; b += bandRows) {
                const int e = std::min(oy1, b + bandRows);
                fold->load(&j, s, n, b, e);
                for (int g = 0; g < j.groups; ++g) {
                    j.runTileRange(n, g, rowTile[b], rowTile[e], j.y + n * j.yImage + g * j.qMax * j.yBlockStride,
                                   j.yBlockStride, 0);
                }
            }
        }
    }
};

/**
 * ConvolutionPool on the packed layout (CPUConvolutionPacked with a pool): a task takes a strip of
 * pooled rows and walks it in bands of bandPoolRows, image by image: for each output-block group,
 * the convolution rows the band's windows read are computed into the group's part of the task's
 * band buffer (the rows the previous band already holds are moved to its top, not recomputed), then
 * pooled into the output. The convolution's output never leaves the cache (a resnet stem's is
 * 3.2 MB), and the groups of a band read the same input rows while they are in cache.
 */
struct ConvPoolBandJob {
    const PackedConvJob* conv;
    const CPUCoreFunctions* f;
    const DwPlaneGeom* pg;   // the pool over the convolution's output (ih x iw = its oh x ow)
    const int64_t* rowTile;  // first tile of each convolution row, [oh + 1]
    const float* invY;       // average: PackedPoolRow::scaleY per pooled row, invX per column
    const float* invX;
    float* bands;                   // bandFloats per task
    float* y;                       // the pooled output, packed
    int64_t bandFloats, bandBlock;  // floats per task, per block of a band (bandRows * iw * 16)
    int batch, strips, bandPoolRows, isMax;
    const FoldRows* fold = nullptr;  // a row-folded stem: its input rows copied per band
    void operator()(int s) const {
        const DwPlaneGeom& pool = *pg;
        PackedConvJob folded;
        const PackedConvJob* cj = conv;
        if (fold) {
            folded = *conv;
            cj = &folded;
        }
        const int py0 = (int)((int64_t)pool.oh * s / strips), py1 = (int)((int64_t)pool.oh * (s + 1) / strips);
        const int64_t rowFloats = (int64_t)pool.iw * kCpuPack;
        const int64_t yBlock = (int64_t)pool.oh * pool.ow * kCpuPack;
        float* band = bands + s * bandFloats;
        PackedPoolRow r = packedPoolRow(pool, isMax, invX);
        for (int n = 0; n < batch; ++n) {
            int c0 = 0, c1 = 0;  // the convolution rows the band holds (row c0 first)
            for (int pb = py0; pb < py1; pb += bandPoolRows) {
                const int pe = std::min(py1, pb + bandPoolRows);
                // in int64: a hostile window (kernel x dilation) must not wrap around
                const int lo = (int)std::max<int64_t>(0, (int64_t)pb * pool.sh - pool.pt);
                const int hi =
                    (int)std::max<int64_t>(lo, std::min<int64_t>(pool.ih, (int64_t)(pe - 1) * pool.sh - pool.pt +
                                                                              (int64_t)(pool.kh - 1) * pool.dh + 1));
                const int keep = lo >= c0 && lo < c1 ? std::min(c1, hi) - lo : 0;
                if (fold && lo + keep < hi) {
                    fold->load(&folded, s, n, lo + keep, hi);
                }
                for (int g = 0; g < conv->groups; ++g) {
                    const int qb0 = g * conv->qMax, Q = std::min(conv->qMax, conv->outBlocks - qb0);
                    float* gb = band + (int64_t)qb0 * bandBlock;
                    if (keep > 0 && lo > c0) {
                        for (int q = 0; q < Q; ++q) {
                            float* b = gb + q * bandBlock;
                            memmove(b, b + (lo - c0) * rowFloats, sizeof(float) * keep * rowFloats);
                        }
                    }
                    if (lo + keep < hi) {
                        cj->runTileRange(n, g, rowTile[lo + keep], rowTile[hi], gb, bandBlock, (int64_t)lo * pool.iw);
                    }
                    for (int oy = pb; oy < pe; ++oy) {
                        int k0 = 0, k1 = 0;
                        dwValidRows(pool, oy, &k0, &k1);
                        r.rows = k1 - k0;
                        r.scaleY = invY[oy];
                        const int64_t row = (int64_t)oy * pool.sh - pool.pt + (int64_t)k0 * pool.dh - lo;
                        for (int q = 0; q < Q; ++q) {
                            r.x = gb + q * bandBlock + (r.rows > 0 ? row * rowFloats : 0);
                            r.y = y + ((int64_t)n * conv->outBlocks + qb0 + q) * yBlock +
                                  (int64_t)oy * pool.ow * kCpuPack;
                            f->packedPool(&r);
                        }
                    }
                }
                c0 = lo;
                c1 = hi;
            }
        }
    }
};

/** [lo, hi) of window taps k (< kernel) with begin + k * dil inside [0, extent) */
void validTaps(int64_t begin, int kernel, int dil, int extent, int* lo, int* hi) {
    int a = 0;
    if (begin < 0) {
        a = (int)std::min<int64_t>(kernel, (-begin + dil - 1) / dil);
    }
    int b = 0;
    if (begin < extent) {
        b = (int)std::min<int64_t>(kernel, (extent - 1 - begin) / dil + 1);
    }
    *lo = a;
    *hi = std::max(a, b);
}

}  // namespace

/**
 * W * S for one image's scale (index = scale image * groups + group): every row (input channel lane
 * kb * 16 + i, tap) of the packed weights times that channel's scale
 */
struct WeightScaleJob {
    const float* w;
    const float* s;
    float* out;
    int64_t sImage, wImage, wPerBlock;
    int groups, qMax, outBlocks, inBlocks, taps, channels;
    void operator()(int index) const {
        const int n = index / groups, g = index % groups;
        const int Q = std::min(qMax, outBlocks - g * qMax);
        const int64_t base = (int64_t)g * qMax * wPerBlock, row = (int64_t)Q * kCpuPack;
        const float* sn = s + n * sImage;
        const float* src = w + base;
        float* dst = out + n * wImage + base;
        for (int kb = 0; kb < inBlocks; ++kb) {
            for (int tap = 0; tap < taps; ++tap) {
                for (int i = 0; i < kCpuPack; ++i) {
                    const int c = kb * kCpuPack + i;
                    const float k = c < channels ? sn[c] : 0.0f;
                    const int64_t off = (((int64_t)kb * taps + tap) * kCpuPack + i) * row;
                    for (int64_t j = 0; j < row; ++j) {
                        dst[off + j] = src[off + j] * k;
                    }
                }
            }
        }
    }
};

class CPUConvolutionPacked : public Execution {
public:
    /**
     * scaleInput: the op's input 3 (S) scales X per image and channel, applied to the weights;
     * residual: its input 4 (R, packed like the packed output) is added before the activation
     */
    /**
     * pool (ConvolutionPool): the output is that pooling over the convolution's, computed in bands
     * (ConvPoolBandJob); X, W, [B] only, the output packed
     */
    CPUConvolutionPacked(Backend* b, const ConvAttrs& attrs, const Tensor* weight, const Tensor* bias,
                         bool scaleInput = false, bool residual = false, const PoolAttrs* pool = nullptr)
        : Execution(b), mAttrs(attrs), mScaleInput(scaleInput), mResidual(residual) {
        if (pool) {
            mPoolFused = true;
            mPoolAttrs = *pool;
        }
        mPost = CPUUtils::gemmPostFor(attrs, b);
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        packWeights(cpuCoreFunctions(), weight, bias);
        snprintf(mAlgo, sizeof(mAlgo), "packed %s", mFuncs->packedConvName);
    }

    const char* algorithm() const override {
        return mAlgo;
    }
    /**
     * R (input 4): every tile reads R at its own outputs before it stores them (a K-sliced tile
     * with the first slice, a column tile into its buffer before the copy), so Y may take R's
     * buffer. The writes of a fresh buffer cost its read for ownership: resnet50 and mobilenet_v2
     * -0.9% at one thread, -0.1..0.3% at two (two builds in one process, libs_ab; Xeon).
     */
    int inPlaceInput() const override {
        return mResidual && !mPoolFused ? 4 : -1;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::vector<int> biasShape;
        const bool hasBias = inputs.size() > 2 && inputs[2];
        if (hasBias) {
            biasShape = TensorUtils::shape(inputs[2]);
        }
        std::string err;
        int outChannels = 0;
        if (!resolveConv(mAttrs, false, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]),
                         hasBias ? &biasShape : nullptr, &mGeom, &outChannels, &err)) {
            return error(INVALID_VALUE, "Convolution: %s", err.c_str());
        }
        if (mGeom.input.size() != 2 || outChannels != mOutChannels || inputs[0]->length(1) != mInChannels) {
            return error(NOT_SUPPORT, "Convolution: packed kernel needs 2-D input of %d channels, got %s", mInChannels,
                         TensorUtils::shapeString(inputs[0]).c_str());
        }
        if (&cpuCoreFunctions() != mFuncs || mWeights.empty()) {
            packWeights(cpuCoreFunctions(), inputs[1], hasBias ? inputs[2] : nullptr);
        }
        mPost.unary = mFuncs->unaryF32;
        mInPacked = isCpuPacked(inputs[0]);
        mOutPacked = isCpuPacked(outputs[0]);
        if (mPoolFused && (!mOutPacked || mScaleInput || mResidual)) {
            return error(NOT_SUPPORT, "ConvolutionPool %s: the banded kernel needs a packed output and X, W, [B] only",
                         TensorUtils::describe(outputs[0])->name.c_str());
        }
        // a strided 1x1 convolution runs on its input subsampled into scratch: one flat stride-1 plane
        // of whole tiles (strided rows split into tiles of 3-5 positions that stream the weights
        // again each: resnet50's downsample layers ran 1.3-1.5x slower than ORT's)
        const auto& g = mGeom;
        mSubsample = mInPacked && g.kernel[0] == 1 && g.kernel[1] == 1 && (g.strides[0] > 1 || g.strides[1] > 1) &&
                     g.padBegin[0] == 0 && g.padBegin[1] == 0 &&
                     (int64_t)(g.output[0] - 1) * g.strides[0] < g.input[0] &&
                     (int64_t)(g.output[1] - 1) * g.strides[1] < g.input[1];
        if (mSubsample) {
            mSubInput[0] = g.input[0];
            mSubInput[1] = g.input[1];
            mSubStride[0] = g.strides[0];
            mSubStride[1] = g.strides[1];
            mGeom.input = mGeom.output;
            mGeom.strides = {1, 1};
            mGeom.padEnd = {0, 0};
        }
        // floats per input position: 16 lanes of a block, or C for a plain input of one block (NHWC)
        mXLanes = (!mInPacked && mInChannels < kCpuPack) ? mInChannels : kCpuPack;
        mBatch = inputs[0]->length(0);
        // An NHWC stem folds each kernel row into the K dimension: the kw * C floats a window row
        // reads are contiguous in a zero-bordered NHWC copy, so a tap is a kernel row (kh taps of
        // kw * C lanes, packed densely: 7x7 on RGB is 7 taps of 21 lanes instead of 49 of 3 whose
        // weights, 3 of every 16 rows, alias in L1) and no output position has a partial window
        mFold = !mInPacked && mXLanes < kCpuPack && !mScaleInput && g.kernel[1] > 1 && g.dilations[1] == 1 &&
                g.output[0] > 0 && g.output[1] > 0;
        mKLanes = mInChannels;
        if (mFold) {
            mFoldSrc[0] = g.input[0];
            mFoldSrc[1] = g.input[1];
            mFoldPad[0] = g.padBegin[0];
            mFoldPad[1] = g.padBegin[1];
            mKLanes = g.kernel[1] * mInChannels;
            // the rows and columns the windows span, from the first window's top-left corner
            const int64_t hp = (int64_t)(g.output[0] - 1) * g.strides[0] + (int64_t)(g.kernel[0] - 1) * g.dilations[0] + 1;
            const int64_t wp = (int64_t)(g.output[1] - 1) * g.strides[1] + g.kernel[1];
            if (hp > 1000000 || wp > 1000000) {
                return error(INVALID_VALUE, "Convolution %s: padded input %lldx%lld too large",
                             TensorUtils::describe(outputs[0])->name.c_str(), (long long)hp, (long long)wp);
            }
            mGeom.input = {(int)hp, (int)wp};
            mGeom.kernel = {g.kernel[0], 1};
            mGeom.dilations = {g.dilations[0], 1};
            mGeom.padBegin = {0, 0};
            mGeom.padEnd = {0, 0};
        }
        if (mFold != mWeightsFolded) {
            packWeights(*mFuncs, inputs[1], hasBias ? inputs[2] : nullptr, mFold);
        }
        mFoldBands = mFold && !mResidual && !mScaleInput && foldBandsEnabled();
        const int ih = mGeom.input[0], iw = mGeom.input[1], oh = mGeom.output[0], ow = mGeom.output[1];
        const int kh = mGeom.kernel[0], kw = mGeom.kernel[1];
        const double inPlane = (double)ih * iw, outPlane = (double)oh * ow;
        const double span = ((double)(kh - 1) * mGeom.dilations[0] * iw + (double)(kw - 1) * mGeom.dilations[1]);
        if (outPlane > 2147483647.0 || span * kCpuPack > 2147483647.0 || inPlane > 1e15) {
            return error(INVALID_VALUE, "Convolution: output plane of %.0f or window span of %.0f positions too large",
                         outPlane, span);
        }
        // the tile plan holds a few descriptors per pcPMax positions of a row (and per column of
        // the narrow edge segments); refuse planes whose plan alone would take more than 256 MB
        // before it is built (found by mnn_fuzz_model: a 1.4e9-position plane)
        const double tileBound = (double)oh * ((double)ow / mFuncs->pcPMax + 8.0) + (double)ow * 8.0;
        if (tileBound * sizeof(PcTileDesc) > 256.0 * 1024 * 1024) {
            return error(INVALID_VALUE,
                         "Convolution %s: output plane %dx%d too large for the packed kernel's tile plan",
                         TensorUtils::describe(outputs[0])->name.c_str(), oh, ow);
        }
        planTiles();
        const int inBlocks = packedBlocks(mInChannels), outBlocks = packedBlocks(mOutChannels);
        mInImage = (int64_t)inBlocks * ih * iw * mXLanes;
        mOutImage = (int64_t)outBlocks * oh * ow * kCpuPack;
        if (mPoolFused && !planBands(outputs[0])) {
            return INVALID_VALUE;
        }
        if (mFoldBands) {
            if (!mPoolFused) {
                planRowTiles();
            }
            planFoldBands();
        }
        // tasks: contiguous ranges of the work index (image, chunk, group, tile), each with enough work
        const int threads = mPool ? mPool->threads() : 1;
        const int groups = (outBlocks + mFuncs->pcQMax - 1) / mFuncs->pcQMax;
        // chunks of tiles whose input fits in L2 when re-reading the weights per chunk moves fewer
        // bytes than re-reading the input per output-block group: as few as keep each chunk's input
        // within the budget (an input of exactly two budgets had three chunks: inception_v3's
        // Mixed_7c 2048-channel 8x8 layers, weights of 2.6-3.7 MB streamed once more per run,
        // -5..14% at one thread on Zen 3 with two)
        const int64_t tiles = (int64_t)mTiles.size();
        const double xBytes = (double)mInImage * sizeof(float);
        const double wBytes = (double)mWeightBytes;
        const double chunkBytes = (double)cpuFeatures().l2Bytes * kChunkL2Share;
        int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(tiles, (int64_t)std::ceil(xBytes / chunkBytes)));
        // a windowed layer of many input channels whose image fits in L2 runs in K slices over all
        // of its tiles (kKSliceTapBlocks): one chunk, the weights of each group read once
        const bool windowSliced = !mPoolFused && mTapsAll > 1 && !mFold && !mScaleInput && mXLanes == kCpuPack &&
                                  inBlocks >= kWindowSliceMinBlocks && ow > mFuncs->pcHalfMaxP &&
                                  xBytes <= (double)cpuFeatures().l2Bytes;
        if (groups == 1 || windowSliced || xBytes + chunks * wBytes >= groups * xBytes + wBytes) {
            chunks = 1;
        }
        if (threads > 1 && !windowSliced && chunks < threads && wBytes < xBytes && tiles >= 4 * threads) {
            // a chunk per thread where the input outweighs the weights: each thread's share of the
            // tasks (ThreadPool) is then a range of positions, whose input the previous op of the
            // same split wrote into this core's cache, instead of a range of output blocks over every
            // position (half of the input from the other core); each thread reads all the weights.
            // Two threads, alternating processes: squeezenet -4%, inception_v3 -4..6%, mobilenet_v3
            // -2.5%, mobilenet_v2 -1..2%, the others within 1%
            chunks = threads;
        }
        mChunkTiles = std::max<int64_t>(1, (tiles + chunks - 1) / chunks);
        mChunks = std::max<int64_t>(1, (tiles + mChunkTiles - 1) / mChunkTiles);
        const int64_t total = (int64_t)mBatch * groups * mChunks * mChunkTiles;
        const double macs = (double)mBatch * outPlane * outBlocks * kCpuPack * mInChannels * kh * kw;
        const int64_t byWork = (int64_t)(macs / (1 << 17)) + 1;
        // 12 tasks per thread (was 4): a worker the system deschedules mid-task holds back less of the
        // op (2 threads, per-op sums A/B in one process: resnet50 -3..5%, mobilenet_v2 / efficientnet /
        // squeezenet -1..1.6%)
        mTasks = (int)std::max<int64_t>(
            1, std::min<int64_t>({total, (int64_t)(threads > 1 ? kTasksPerThread * threads : 1), byWork}));
        mScaleImages = 0;
        if (mScaleInput) {
            // S [1 or N, C, 1, 1] (checked by shape inference): the weights scaled per image into scratch
            const Tensor* s = inputs.size() > 3 ? inputs[3] : nullptr;
            // S is never packed: only X is a data slot of a Convolution (Session::assignLayouts)
            if (!s || isCpuPacked(s) || s->dimensions() != 4 || s->length(1) != mInChannels ||
                (s->length(0) != 1 && s->length(0) != mBatch)) {
                return error(INVALID_VALUE, "Convolution %s: input scale S %s does not fit X %s",
                             TensorUtils::describe(outputs[0])->name.c_str(),
                             s ? TensorUtils::shapeString(s).c_str() : "(none)",
                             TensorUtils::shapeString(inputs[0]).c_str());
            }
            mScaleImages = s->length(0);
            LargeVector<uint16_t>().swap(mWeightsHalf);
        } else {
            halfWeightsIfGemv();
        }
        if (mResidual) {
            const Tensor* r = inputs.size() > 4 ? inputs[4] : nullptr;
            if (!r || !isCpuPacked(r) || !mOutPacked || TensorUtils::shape(r) != TensorUtils::shape(outputs[0])) {
                return error(INVALID_VALUE, "Convolution %s: residual R %s must be packed and of the output's shape %s",
                             TensorUtils::describe(outputs[0])->name.c_str(),
                             r ? TensorUtils::shapeString(r).c_str() : "(none)",
                             TensorUtils::shapeString(outputs[0]).c_str());
            }
        }
        mKSlice = 0;
        if (!mPoolFused && mTapsAll == 1 && mLists.size() == 1 && !mFold && mWeightsHalf.empty() && !mScaleInput &&
            packedBlocks(mKLanes) >= kKSliceMinBlocks) {
            // bytes of a slice of kb blocks: its input over the chunk's positions and its group's weights
            const double positions = std::min(outPlane, (double)mChunkTiles * mFuncs->pcPMax);
            const auto sliceBytes = [&](int kb) {
                return (positions + (double)mFuncs->pcQMax * kCpuPack) * kb * kCpuPack * sizeof(float);
            };
            const bool small = mFuncs->pcKSliceSmall && sliceBytes(kKSliceBlocks) > kKSliceL1Bytes &&
                               sliceBytes(kKSliceSmallBlocks) <= kKSliceL1Bytes;
            mKSlice = mHasColumns ? 0 : small ? kKSliceSmallBlocks : kKSliceBlocks;
        } else if (windowSliced && mWeightsHalf.empty()) {
            mKSlice = std::max(1, kKSliceTapBlocks / mTapsAll);
        }
        // K split where the producer split X's channels between the two threads (splitBlock), for
        // fewer than half as many outputs as inputs: each thread then reads the half of X its core
        // wrote, and the other's partial sums (a third of it or less) instead of the other half of X
        const int kSplit = kSplitMode();
        int splitBlock = TensorUtils::describe(inputs[0])->splitBlock;
        if (kSplit == 2 && (splitBlock <= 0 || splitBlock >= inBlocks)) {
            splitBlock = inBlocks / 2;
        }
        mKSplit = kSplit > 0 && threads == 2 && mKSlice > 0 && mTapsAll == 1 && mLists.size() == 1 && mBatch == 1 &&
                  !mScaleInput && mWeightsHalf.empty() && !mSubsample && 2 * mOutChannels < mInChannels &&
                  splitBlock > 0 && splitBlock < inBlocks;
        if (mKSplit) {
            mKMid = splitBlock;
            mZeroBias.assign((size_t)outBlocks * kCpuPack, 0.0f);
        }
        if (mKSlice > 0 && mTapsAll == 1 && !mKSplit && !mFuncs->pcKSlices) {
            mKSlice = 0;  // this tier's tiles take the whole K of a 1x1 layer (pcKSlices)
        }
        if (mKSlice > 0 && threads > 1) {
            // a sliced task keeps each weight slice in L1 only across its own run of tiles: at
            // least kSlicedTaskTiles tiles per task, a multiple of the threads in tasks
            int64_t t = std::max<int64_t>(threads, total / kSlicedTaskTiles);
            t = (t + threads - 1) / threads * threads;
            mTasks = (int)std::max<int64_t>(1, std::min<int64_t>((int64_t)mTasks, t));
        }
        // this op's own split at two threads: by output-block groups where one chunk's work index
        // (group-major) halves on a group's first tile
        int outSplit = 0;
        if (threads == 2 && !mKSplit && !mFoldBands && !mPoolFused && mChunks == 1 && mBatch == 1 && groups >= 2) {
            const int64_t half = total * (mTasks / 2) / std::max(1, mTasks);
            if (half % mChunkTiles == 0) {
                outSplit = std::min(outBlocks, (int)(half / mChunkTiles) * mFuncs->pcQMax);
            }
        }
        TensorUtils::describe(outputs[0])->splitBlock = outSplit;
        const char* pooled = !mPoolFused ? "" : mPoolAttrs.type == Schema::PoolType::MAXPOOL ? "+maxpool" : "+avgpool";
        snprintf(mAlgo, sizeof(mAlgo), "packed%s%s%s%s%s%s %s", mXLanes < kCpuPack ? "-nhwc" : "",
                 mWeightsHalf.empty() ? "" : "-f16", mScaleInput ? "-scaled" : "", mResidual ? "-residual" : "",
                 mKSlice ? "-ksliced" : "", pooled, mFuncs->packedConvName);
        size_t scratch = 0;
        if (mKSplit) {
            scratch += (size_t)mOutImage * sizeof(float);
        }
        if (mFoldBands) {
            scratch += (size_t)(mFoldStrips * mFoldRows.bufFloats) * sizeof(float);
        } else if (!mInPacked || mSubsample) {
            scratch += (size_t)(mBatch * mInImage) * sizeof(float);
        }
        if (!mOutPacked) {
            scratch += (size_t)(mBatch * mOutImage) * sizeof(float);
        }
        scratch += (size_t)mScaleImages * mWeights.size() * sizeof(float);
        if (mPoolFused) {
            scratch += (size_t)mBandTasks * mBandFloats * sizeof(float);
        }
        if (scratch && !static_cast<CPUBackend*>(backend())->reserveScratch(scratch)) {
            return OUT_OF_MEMORY;
        }
        return NO_ERROR;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int inBlocks = packedBlocks(mInChannels), outBlocks = packedBlocks(mOutChannels);
        const int64_t inPlane = (int64_t)mGeom.input[0] * mGeom.input[1];
        const int64_t outPlane = (int64_t)mGeom.output[0] * mGeom.output[1];
        float* scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        const float* x = inputs[0]->host<float>();
        FoldRows fold = mFoldRows;
        if (mFoldBands) {
            fold.src = x;
            fold.bufs = scratch;
            scratch += mFoldStrips * mFoldRows.bufFloats;
        } else if (mFold) {
            const int hp = mGeom.input[0], wp = mGeom.input[1];
            const int perImage = std::min(hp, mPool ? 4 * mPool->threads() : 1);
            const int rowsPerTask = (hp + perImage - 1) / perImage;
            PaddedNhwcJob pad{x,           scratch,     mInChannels, mFoldSrc[0], mFoldSrc[1],
                              mFoldPad[0], mFoldPad[1], hp,          wp,          rowsPerTask,
                              (hp + rowsPerTask - 1) / rowsPerTask};
            parallelFor(mPool, mBatch * pad.tasksPerImage, pad);
            x = scratch;
            scratch += mBatch * mInImage;
        } else if (!mInPacked && mXLanes < kCpuPack) {
            const int perImage = mPool ? 4 * mPool->threads() : 1;
            const int64_t rows = (inPlane + perImage - 1) / perImage;
            NhwcJob nhwc{x, scratch, mInChannels, inPlane, rows, (inPlane + rows - 1) / rows};
            parallelFor(mPool, (int)(mBatch * nhwc.tasksPerImage), nhwc);
            x = scratch;
            scratch += mBatch * mInImage;
        } else if (!mInPacked) {
            PackedRepackJob pack{x, scratch, mInChannels, inBlocks, inPlane, true};
            runRepack(mPool, pack, mBatch);
            x = scratch;
            scratch += mBatch * mInImage;
        } else if (mSubsample) {
            SubsampleJob sub{
                x, scratch, mSubInput[0], mSubInput[1], mSubStride[0], mSubStride[1], mGeom.output[0], mGeom.output[1]};
            parallelFor(mPool, mBatch * inBlocks, sub);
            x = scratch;
            scratch += mBatch * mInImage;
        }
        float* y = mOutPacked ? outputs[0]->host<float>() : scratch;
        if (!mOutPacked) {
            scratch += mBatch * mOutImage;
        }
        const float* w = mWeights.data();
        const int64_t wFloats = (int64_t)mWeights.size();
        if (mScaleInput) {
            const Tensor* s = inputs[3];
            WeightScaleJob scale;
            scale.w = w;
            scale.s = s->host<float>();
            scale.out = scratch;
            scale.sImage = mScaleImages == 1 ? 0 : mInChannels;
            scale.wImage = wFloats;
            scale.wPerBlock = (int64_t)inBlocks * mTapsAll * kCpuPack * kCpuPack;
            scale.qMax = mFuncs->pcQMax;
            scale.outBlocks = outBlocks;
            scale.groups = (outBlocks + scale.qMax - 1) / scale.qMax;
            scale.inBlocks = inBlocks;
            scale.taps = mTapsAll;
            scale.channels = mInChannels;
            parallelFor(mPool, mScaleImages * scale.groups, scale);
            w = scratch;
        }
        PackedConvJob job;
        job.f = mFuncs;
        job.x = x;
        job.y = y;
        job.tiles = mTiles.data();
        job.tilesPerImage = (int64_t)mTiles.size();
        job.tapOff = mTapOff.data();
        job.tapIdx = mTapIdx.data();
        job.lists = mLists.data();
        job.w = w;
        job.wImage = mScaleInput && mScaleImages > 1 ? wFloats : 0;
        job.wHalf = mWeightsHalf.empty() ? nullptr : mWeightsHalf.data();
        // weights beyond L2 stream from L3 / memory: the tile kernel prefetches them
        job.prefetch = mWeightBytes >= kPrefetchWeightBytes ? 1 : 0;
        job.kSlice = mKSlice;
        job.hasColumns = mHasColumns;
        const int kBlocks = packedBlocks(mKLanes);  // inBlocks, or a folded stem's kw * C lanes
        job.runsMax = kBlocks * mTapsAll <= kRunKBlocks ? kTileRuns : 1;
        job.wPerBlock = (int64_t)kBlocks * mTapsAll * kCpuPack * kCpuPack;
        job.bias = mBias.data();
        job.qMax = mFuncs->pcQMax;
        job.outBlocks = outBlocks;
        job.lastLanes = mOutChannels - (outBlocks - 1) * kCpuPack;
        job.pMaxHalf = halfBlockPMax(*mFuncs, job.lastLanes);
        job.groups = (outBlocks + job.qMax - 1) / job.qMax;
        job.tasks = mTasks;
        job.chunks = mChunks;
        job.chunkTiles = mChunkTiles;
        job.total = (int64_t)mBatch * job.groups * mChunks * mChunkTiles;
        job.xImage = mInImage;
        job.yImage = mOutImage;
        job.xBlockStride = mFold ? kCpuPack : inPlane * mXLanes;  // folded: K lanes are contiguous
        job.yBlockStride = outPlane * kCpuPack;
        job.xRowStride = mXRowStride;
        job.xColStride = mXColStride;
        job.ow = mGeom.output[1];
        job.kBlocks = kBlocks;
        job.kLast = mKLanes - (kBlocks - 1) * kCpuPack;
        job.tapsAll = mTapsAll;
        job.post = mPost.act ? &mPost : nullptr;
        if (mResidual) {
            job.res = inputs[4]->host<float>();
            job.rPost = job.post;
            job.post = nullptr;  // the activation comes after R
        }
        if (mPoolFused) {
            ConvPoolBandJob band;
            band.conv = &job;
            band.f = mFuncs;
            band.pg = &mPoolGeom;
            band.rowTile = mRowTile.data();
            band.invY = mPoolInvY.data();
            band.invX = mPoolInvX.data();
            band.bands = scratch;
            band.y = outputs[0]->host<float>();
            band.bandFloats = mBandFloats;
            band.bandBlock = mBandBlock;
            band.batch = mBatch;
            band.strips = mBandTasks;
            band.bandPoolRows = mBandPoolRows;
            band.isMax = mPoolAttrs.type == Schema::PoolType::MAXPOOL ? 1 : 0;
            band.fold = mFoldBands ? &fold : nullptr;
            if (mBatch > 0 && mPoolGeom.oh > 0 && mPoolGeom.ow > 0) {
                parallelFor(mPool, mBandTasks, band);
            }
            return NO_ERROR;
        }
        if (mKSplit && job.total > 0) {
            KSplitJob split{&job, scratch, mZeroBias.data(), mKMid};
            parallelFor(mPool, 2, split);
            KSumJob sum{mFuncs, y, scratch, mResidual ? job.rPost : job.post, outPlane, job.yBlockStride, outBlocks, 2};
            parallelFor(mPool, 2, sum);
        } else if (mFoldBands) {
            FoldBandJob bands{&job, &fold, mRowTile.data(), mGeom.output[0], mFoldBandRows, mFoldStrips, mBatch};
            if (job.total > 0) {
                parallelFor(mPool, mFoldStrips, bands);
            }
        } else if (job.total > 0) {
            parallelFor(mPool, mTasks, job);
        }
        if (!mOutPacked) {
            PackedRepackJob unpack{y, outputs[0]->host<float>(), mOutChannels, outBlocks, outPlane, false};
            runRepack(mPool, unpack, mBatch);
        }
        return NO_ERROR;
    }

private:
    /** weights packed for the tile (packConvWeights), bias [outBlocks][16] zero past M */
    /** fold: kernel rows as taps, (kx, c) pairs as the K lanes f = kx * C + c (see mFold) */
    void packWeights(const CPUCoreFunctions& f, const Tensor* weight, const Tensor* bias, bool fold = false) {
        mFuncs = &f;
        mOutChannels = weight->length(0);
        mInChannels = weight->length(1);
        const int kh = weight->length(2), kw = weight->length(3);
        mWeightsFolded = fold;
        if (fold) {
            // W[m][c][ky][kx] -> Wf[m][kx * C + c][ky], packed as kw * C channels of kh taps
            const int lanes = kw * mInChannels;
            const float* w = weight->host<float>();
            std::vector<float> wf((size_t)mOutChannels * lanes * kh);
            for (int m = 0; m < mOutChannels; ++m) {
                for (int c = 0; c < mInChannels; ++c) {
                    for (int ky = 0; ky < kh; ++ky) {
                        for (int kx = 0; kx < kw; ++kx) {
                            wf[((size_t)m * lanes + kx * mInChannels + c) * kh + ky] =
                                w[(((size_t)m * mInChannels + c) * kh + ky) * kw + kx];
                        }
                    }
                }
            }
            mTapsAll = kh;
            packConvWeights(f, wf.data(), mOutChannels, lanes, kh, &mWeights);
        } else {
            mTapsAll = kh * kw;
            packConvWeights(f, weight->host<float>(), mOutChannels, mInChannels, mTapsAll, &mWeights);
        }
        mWeightBytes = mWeights.size() * sizeof(float);
        mBias.assign((size_t)packedBlocks(mOutChannels) * kCpuPack, 0.0f);
        if (bias) {
            const float* b = bias->host<float>();
            std::copy(b, b + mOutChannels, mBias.begin());
        }
    }

    /**
     * A product of at most pcHalfMaxP positions per tile (a 1x1 output: squeeze-excite) reads each
     * weight once, from L3 or memory: below Precision_High, where the tile kernel takes half
     * weights, they are kept as IEEE half (half the bytes; products and sums stay float). A later
     * resize to a wider output packs the float weights again.
     */
    void halfWeightsIfGemv() {
        LargeVector<uint16_t>().swap(mWeightsHalf);
        int maxP = 0;
        for (auto& d : mTiles) {
            maxP = std::max<int>(maxP, d.P);
        }
        const bool high = static_cast<CPUBackend*>(backend())->precision() == BackendConfig::Precision_High;
        // rows wider than pcHalfMaxP are split into tiles that re-read the weights (7x7 planes on
        // the AVX2 tier: pieces of 4 + 3): not a GEMV, the weights stay float there
        if (high || maxP < 1 || maxP > mFuncs->pcHalfMaxP || mGeom.output[1] > mFuncs->pcHalfMaxP) {
            return;
        }
        if (!CPUUtils::halfWeights(mWeights.data(), mWeights.size(), CPUUtils::halfWeightsMinBytes(backend()),
                                   &mWeightsHalf)) {
            return;
        }
        LargeVector<float>().swap(mWeights);
    }

    /** mRowTile: the first tile of each output row (a banded plan) */
    void planRowTiles() {
        const int oh = mGeom.output[0], ow = mGeom.output[1];
        mRowTile.assign((size_t)oh + 1, 0);
        int64_t k = 0;
        for (int oy = 0; oy <= oh; ++oy) {
            while (k < (int64_t)mTiles.size() && mTiles[(size_t)k].yPos < (int64_t)oy * ow) {
                ++k;
            }
            mRowTile[(size_t)oy] = k;
        }
    }

    /**
     * mFoldBands: the output rows of a band whose padded input rows fit kFoldBandBytes (at least
     * one), the strips, and mFoldRows but its input and buffers: each task's buffer holds the rows
     * of its largest band (a pool band's convolution rows, mBandBlock, or mFoldBandRows)
     */
    void planFoldBands() {
        const int oh = mGeom.output[0], sh = mGeom.strides[0];
        const int64_t span = (int64_t)(mGeom.kernel[0] - 1) * mGeom.dilations[0] + 1;
        const int64_t rowFloats = (int64_t)mGeom.input[1] * mXLanes;
        const int64_t fit = (int64_t)(kFoldBandBytes / sizeof(float)) / std::max<int64_t>(1, rowFloats);
        mFoldBandRows = (int)std::max<int64_t>(1, std::min<int64_t>(oh, (fit - span) / sh + 1));
        const int threads = mPool ? mPool->threads() : 1;
        mFoldStrips = threads > 1 ? std::max(1, std::min(oh, 4 * threads)) : 1;
        int64_t rows = mFoldBandRows;
        if (mPoolFused) {
            rows = mBandBlock / ((int64_t)mGeom.output[1] * kCpuPack);
            mFoldStrips = mBandTasks;
        }
        FoldRows& f = mFoldRows;
        f.bufFloats = ((rows - 1) * sh + span) * rowFloats;
        f.bufFloats = (f.bufFloats + kCpuPack - 1) / kCpuPack * kCpuPack;  // each buffer 64-byte aligned
        f.channels = mInChannels;
        f.ih = mFoldSrc[0];
        f.iw = mFoldSrc[1];
        f.pt = mFoldPad[0];
        f.pl = mFoldPad[1];
        f.wp = mGeom.input[1];
        f.sh = sh;
        f.span = (int)span;
    }

    /**
     * ConvolutionPool: the pool's geometry over the convolution's output, the tiles of each
     * convolution row, and the bands: as many pooled rows per band as keep the convolution rows of
     * every output block within kBandBytes; one task per strip of pooled rows, 2 per thread (a
     * strip's first band recomputes the rows its predecessor shares)
     */
    bool planBands(const Tensor* output) {
        const int oh = mGeom.output[0], ow = mGeom.output[1];
        WindowGeometry pg;
        std::string err;
        if (!resolvePool(mPoolAttrs, {mBatch, mOutChannels, oh, ow}, &pg, &err) || pg.input.size() != 2) {
            error(INVALID_VALUE, "pool over %s: %s", TensorUtils::describe(output)->name.c_str(), err.c_str());
            return false;  // reported by onResize's INVALID_VALUE (the reason is recorded)
        }
        mPoolGeom = dwPlaneGeom(pg);
        poolInverseCounts(mPoolAttrs, pg, &mPoolInvY, &mPoolInvX);
        const auto& p = mPoolGeom;
        planRowTiles();
        const int blocks = packedBlocks(mOutChannels);
        auto bandRows = [&](int b) {
            return (int)std::min<int64_t>(oh, (int64_t)(b - 1) * p.sh + (int64_t)(p.kh - 1) * p.dh + 1);
        };
        const double rowBytes = (double)blocks * ow * kCpuPack * sizeof(float);
        mBandPoolRows = 1;
        while (mBandPoolRows < p.oh && bandRows(mBandPoolRows + 1) * rowBytes <= kBandBytes) {
            ++mBandPoolRows;
        }
        mBandBlock = (int64_t)std::max(1, bandRows(mBandPoolRows)) * ow * kCpuPack;
        mBandFloats = mBandBlock * blocks;
        const int threads = mPool ? mPool->threads() : 1;
        mBandTasks = threads > 1 ? std::max(1, std::min(p.oh, 2 * threads)) : 1;
        return true;
    }

    /**
     * Tap lists per (row class, column segment) and the tiles of one image. A 1x1 stride-1 unpadded
     * convolution is one row over the whole plane. For bands (banded()) every tile runs along a
     * row and the tiles are in row order.
     */
    void planTiles() {
        const auto& g = mGeom;
        int ih = g.input[0], iw = g.input[1], oh = g.output[0], ow = g.output[1];
        const int kh = g.kernel[0], kw = g.kernel[1], sh = g.strides[0], sw = g.strides[1];
        const int dh = g.dilations[0], dw = g.dilations[1], pt = g.padBegin[0], pl = g.padBegin[1];
        const bool flat =
            !banded() && kh == 1 && kw == 1 && sh == 1 && sw == 1 && pt == 0 && pl == 0 && oh == ih && ow == iw;
        if (flat) {
            iw = ih * iw;
            ow = oh * ow;
            ih = oh = 1;
        }
        const int64_t lanes = mXLanes;
        mXRowStride = (int64_t)sw * lanes;
        mXColStride = (int64_t)sh * iw * lanes;
        // rows: [ky0, ky1) per output row; classes of equal ranges
        std::vector<int> rowClass((size_t)oh);
        std::vector<std::pair<int, int>> rowRanges;
        for (int oy = 0; oy < oh; ++oy) {
            int a = 0, b = 0;
            validTaps(flat ? 0 : (int64_t)oy * sh - pt, kh, dh, ih, &a, &b);
            auto it = std::find(rowRanges.begin(), rowRanges.end(), std::make_pair(a, b));
            rowClass[(size_t)oy] = (int)(it - rowRanges.begin());
            if (it == rowRanges.end()) {
                rowRanges.emplace_back(a, b);
            }
        }
        // columns: maximal runs [ox0, ox1) of equal [kx0, kx1)
        struct Seg {
            int ox0, ox1, kx0, kx1;
        };
        std::vector<Seg> segs;
        for (int ox = 0; ox < ow; ++ox) {
            int a = 0, b = 0;
            validTaps((int64_t)ox * sw - pl, kw, dw, iw, &a, &b);
            if (!segs.empty() && segs.back().kx0 == a && segs.back().kx1 == b) {
                segs.back().ox1 = ox + 1;
            } else {
                segs.push_back({ox, ox + 1, a, b});
            }
        }
        // tap lists, id = rowClass * segs + seg; offsets relative to the first in-bounds tap
        mLists.clear();
        mHasColumns = false;
        mTapOff.clear();
        mTapIdx.clear();
        for (auto& r : rowRanges) {
            for (auto& s : segs) {
                PcTapList l{(int32_t)mTapOff.size(), 0};
                for (int ky = r.first; ky < r.second; ++ky) {
                    for (int kx = s.kx0; kx < s.kx1; ++kx) {
                        mTapOff.push_back(
                            (int32_t)((((int64_t)(ky - r.first) * dh * iw) + (int64_t)(kx - s.kx0) * dw) * lanes));
                        mTapIdx.push_back(ky * kw + kx);
                        ++l.count;
                    }
                }
                mLists.push_back(l);
            }
        }
        // tiles: per run of rows of one class, each segment in near-equal pieces of at most pcPMax
        // positions, along its rows or (narrow edge segments) down its columns, whichever gives the
        // larger tiles
        const int pMax = mFuncs->pcPMax;
        const bool columnsFit = !banded() && pMax * mFuncs->pcQMax * kCpuPack <= kColumnTileFloats;
        auto avgTile = [&](int len) { return (double)len / ((len + pMax - 1) / pMax); };
        mTiles.clear();
        for (int oyA = 0; oyA < oh;) {
            const int rc = rowClass[(size_t)oyA];
            int oyB = oyA + 1;
            // bands: one row per run, so that the tiles come in row order
            while (!banded() && oyB < oh && rowClass[(size_t)oyB] == rc) {
                ++oyB;
            }
            const int ky0 = rowRanges[(size_t)rc].first;
            for (size_t si = 0; si < segs.size(); ++si) {
                const Seg& s = segs[si];
                const int list = rc * (int)segs.size() + (int)si;
                const bool empty = mLists[(size_t)list].count == 0;
                const int width = s.ox1 - s.ox0, height = oyB - oyA;
                const bool column = columnsFit && avgTile(height) > avgTile(width);
                auto emit = [&](int oy, int ox, int P) {
                    PcTileDesc d;
                    d.yPos = (int32_t)((int64_t)oy * ow + ox);
                    d.list = list;
                    d.P = (int16_t)P;
                    d.column = column ? 1 : 0;
                    d.xOff = 0;
                    if (!empty) {
                        const int64_t iy = (int64_t)oy * sh - pt + (int64_t)ky0 * dh;
                        const int64_t ix = (int64_t)ox * sw - pl + (int64_t)s.kx0 * dw;
                        d.xOff = (iy * iw + ix) * lanes;
                    }
                    mTiles.push_back(d);
                    mHasColumns = mHasColumns || column;
                };
                const int len = column ? height : width;
                const int pieces = (len + pMax - 1) / pMax;
                for (int a = column ? s.ox0 : oyA; a < (column ? s.ox1 : oyB); ++a) {
                    int b = column ? oyA : s.ox0;
                    for (int k = 0; k < pieces; ++k) {
                        const int P = len / pieces + (k < len % pieces ? 1 : 0);
                        if (column) {
                            emit(b, a, P);
                        } else {
                            emit(a, b, P);
                        }
                        b += P;
                    }
                }
            }
            oyA = oyB;
        }
    }

    ConvAttrs mAttrs;
    // ConvolutionPool (planBands): the pool, its geometry over the convolution's output and its
    // average divisors, the first tile of each convolution row, the bands and their tasks
    bool mPoolFused = false;
    // a row-folded stem whose padded input rows are copied band by band (FoldRows): the bands'
    // output rows, the strips (tasks) and each task's buffer
    bool mFoldBands = false;
    // KSplitJob: K blocks [0, mKMid) on thread 0, the rest on thread 1, summed by KSumJob
    bool mKSplit = false;
    int mKMid = 0;
    int mFoldBandRows = 1, mFoldStrips = 1;
    FoldRows mFoldRows{};  // planFoldBands; onExecute adds the input and the buffers
    /** the tiles run along rows, in row order, for bands (ConvPoolBandJob, FoldBandJob) */
    bool banded() const {
        return mPoolFused || mFoldBands;
    }
    PoolAttrs mPoolAttrs;
    DwPlaneGeom mPoolGeom{};
    std::vector<float> mPoolInvY, mPoolInvX;
    std::vector<int64_t> mRowTile;
    int mBandPoolRows = 1, mBandTasks = 1;
    int64_t mBandBlock = 0, mBandFloats = 0;
    bool mScaleInput = false;
    bool mResidual = false;
    int mScaleImages = 0;  // S's images (1: one scale for the batch)
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    WindowGeometry mGeom;  // with mSubsample: of the convolution on the subsampled input
    bool mSubsample = false;
    int mKSlice = 0;                             // PackedConvJob::kSlice
    bool mHasColumns = false;                    // PackedConvJob::hasColumns
    bool mFold = false, mWeightsFolded = false;  // a row-folded NHWC stem; the weights packed so
    int mFoldSrc[2] = {0, 0}, mFoldPad[2] = {0, 0};  // its input extents and top / left pads
    int mKLanes = 0;  // lanes along K: the input channels, or kw * C folded
    int mSubInput[2] = {0, 0}, mSubStride[2] = {1, 1};  // the input's extents and strides before it
    int mInChannels = 0, mOutChannels = 0, mTapsAll = 1, mBatch = 0, mTasks = 1;
    bool mInPacked = true, mOutPacked = true;
    int mXLanes = kCpuPack;
    int64_t mChunks = 1, mChunkTiles = 1;
    int64_t mInImage = 0, mOutImage = 0, mXRowStride = kCpuPack, mXColStride = 0;
    LargeVector<float> mWeights;
    std::vector<float> mZeroBias;
    std::vector<float> mBias;
    LargeVector<uint16_t> mWeightsHalf;
    size_t mWeightBytes = 0;  // of the float weights
    std::vector<PcTileDesc> mTiles;
    std::vector<PcTapList> mLists;
    std::vector<int32_t> mTapOff, mTapIdx;
    char mAlgo[64];
};

void packConvWeights(const CPUCoreFunctions& f, const float* w, int m, int c, int taps, LargeVector<float>* out) {
    const int inBlocks = packedBlocks(c), outBlocks = packedBlocks(m);
    const int64_t wPerBlock = (int64_t)inBlocks * taps * kCpuPack * kCpuPack;
    out->assign((size_t)(wPerBlock * outBlocks), 0.0f);
    for (int qb0 = 0; qb0 < outBlocks; qb0 += f.pcQMax) {
        const int Q = std::min(f.pcQMax, outBlocks - qb0);
        float* dst = out->data() + qb0 * wPerBlock;
        for (int q = 0; q < Q; ++q) {
            for (int l = 0; l < kCpuPack; ++l) {
                const int oc = (qb0 + q) * kCpuPack + l;
                if (oc >= m) {
                    break;
                }
                for (int ic = 0; ic < c; ++ic) {
                    const int kb = ic / kCpuPack, i = ic % kCpuPack;
                    const float* src = w + ((int64_t)oc * c + ic) * taps;
                    for (int tap = 0; tap < taps; ++tap) {
                        dst[((((int64_t)kb * taps + tap) * kCpuPack + i) * Q + q) * kCpuPack + l] = src[tap];
                    }
                }
            }
        }
    }
}

static bool isConstFloat(const Tensor* t) {
    return t && CPUUtils::isFloat(t) && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT &&
           t->host<float>() != nullptr;
}

namespace {

/** the packed Execution for X, W, [B] (attrs), or null for the adapter */
/** a 4-D float X, constant 4-D W, absent or constant B of W's outputs, and X or Y packed */
bool packedOperands(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    if (inputs.size() < 2 || outputs.size() != 1 || !inputs[0] || inputs[0]->dimensions() != 4 ||
        !CPUUtils::isFloat(inputs[0]) || !isConstFloat(inputs[1]) || inputs[1]->dimensions() != 4) {
        return false;
    }
    const Tensor* bias = inputs.size() > 2 ? inputs[2] : nullptr;
    if (bias && (!isConstFloat(bias) || bias->elementSize() != inputs[1]->length(0))) {
        return false;
    }
    return isCpuPacked(inputs[0]) || isCpuPacked(outputs[0]);
}

Execution* createPackedPlain(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                             const ConvAttrs& attrs, Backend* backend) {
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;  // the adapter runs the reference kernel
    }
    if (!packedOperands(inputs, outputs)) {
        return nullptr;
    }
    const Tensor* bias = inputs.size() > 2 ? inputs[2] : nullptr;
    const int cin = inputs[0]->length(1), cout = inputs[1]->length(0);
    if (attrs.group == cin && cin == cout && attrs.group > 1) {
        return createPackedDepthwise(inputs, outputs, attrs, backend);
    }
    if (attrs.group != 1 || inputs[1]->length(1) != cin) {
        return nullptr;
    }
    if (auto w = createPackedWinograd(inputs, outputs, attrs, backend)) {
        return w;
    }
    return new CPUConvolutionPacked(backend, attrs, inputs[1], bias);
}

}  // namespace

Execution* createPackedConvolutionPool(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                       const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_ConvolutionPoolParam();
    if (!p || !p->conv() || !p->pool() || inputs.size() < 2 || inputs.size() > 3 || outputs.size() != 1 ||
        !isCpuPacked(outputs[0])) {
        return nullptr;  // not an error: the adapter runs the plain pair
    }
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;  // reported by Session (no kernel for the op, with its tensors)
    }
    ConvAttrs conv;
    PoolAttrs pool;
    conv.load(p->conv());
    pool.load(p->pool());
    std::unique_ptr<Tensor> mid(new Tensor(4, Tensor::CAFFE));
    setCpuPacked(mid.get(), true);
    std::string err;
    if (!shapeConvolutionPoolMid(conv, pool, inputs, mid.get(), &err)) {
        return nullptr;  // reported by Session (no kernel for the op, with its tensors); the shape function saw it
                         // first
    }
    const std::vector<Tensor*> midv = {mid.get()};
    const Tensor* bias = inputs.size() > 2 ? inputs[2] : nullptr;
    if (packedOperands(inputs, midv) && conv.group == 1 && inputs[1]->length(1) == inputs[0]->length(1)) {
        // the direct kernel in bands, unless Winograd would run the convolution (with the pool
        // inside where its strips pay, else as a pair)
        bool pooled = false;
        std::unique_ptr<Execution> wino(createPackedWinograd(inputs, midv, conv, backend, &pool, &pooled));
        if (!wino) {
            return new CPUConvolutionPacked(backend, conv, inputs[1], bias, false, false, &pool);
        }
        if (pooled) {
            return wino.release();
        }
        return makeConvolutionPoolPair(backend, conv, pool, mid.release(), wino.release(),
                                       createPackedPooling(pool, backend));
    }
    Execution* c = createPackedPlain(inputs, midv, conv, backend);
    if (!c) {
        return nullptr;  // reported by Session (no kernel for the op, with its tensors)
    }
    return makeConvolutionPoolPair(backend, conv, pool, mid.release(), c, createPackedPooling(pool, backend));
}

Execution* createPackedConvolution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                   const Schema::Op* op, Backend* backend) {
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    const Tensor* s = inputs.size() > 3 ? inputs[3] : nullptr;
    const Tensor* r = inputs.size() > 4 ? inputs[4] : nullptr;
    if (!s && !r) {
        return createPackedPlain(inputs, outputs, attrs, backend);
    }
    // S (X * S) and R (act(conv + B + R)) in the direct kernel: the weights scaled per image where they
    // are no more than X's positions, R added to each stored tile where R and Y are both packed;
    // Winograd, forced algorithms and the rest in the wrappers (CPUConvolutionExtraInputs.cpp)
    auto base = [&](const std::vector<Tensor*>& in, const ConvAttrs& a) {
        return createPackedPlain(in, outputs, a, backend);
    };
    const char* env = getenv("MNN_CONV_ALGO");
    const Tensor* x = inputs[0];
    const Tensor* w = inputs[1];
    const Tensor* bias = inputs[2];
    const bool direct =
        !(env && *env) && packedOperands(inputs, outputs) && attrs.group == 1 && w->length(1) == x->length(1);
    const bool scaleOk =
        !s || (direct && (double)w->length(0) * w->length(2) * w->length(3) <= (double)x->length(2) * x->length(3));
    const bool residualOk = !r || (isCpuPacked(r) && isCpuPacked(outputs[0]));
    if (direct && scaleOk && residualOk) {
        const std::vector<Tensor*> three(inputs.begin(), inputs.begin() + 3);
        ConvAttrs linear = attrs;
        linear.activation = Schema::FusedActivation::NONE;
        // Winograd where it would run, in the wrappers (R outermost, as createWithExtraInputs nests them)
        Execution* wino = createPackedWinograd(three, outputs, r ? linear : attrs, backend);
        if (!wino) {
            return new CPUConvolutionPacked(backend, attrs, w, bias, s != nullptr, r != nullptr);
        }
        if (s) {
            wino = wrapInputScale(wino, backend);
        }
        return r ? wrapResidual(wino, attrs, backend) : wino;
    }
    return createWithExtraInputs(inputs, attrs, backend, base);
}

}  // namespace MNN
