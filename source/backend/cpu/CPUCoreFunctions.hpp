// The one table of optimised CPU kernels, filled once per ISA tier (std::call_once).
// Kernels live in x86/*_sse41.cpp, *_avx2.cpp, *_avx512.cpp (compiled with their ISA's flags only)
// and CPUCoreFunctions.cpp (scalar). This header must stay free of inline code: it is included by
// the ISA files, and an inline function compiled there with AVX flags could be picked by the linker.
#ifndef MNN_CPU_CPUCOREFUNCTIONS_HPP
#define MNN_CPU_CPUCOREFUNCTIONS_HPP

#include <stdint.h>
#include "CPUFeatures.hpp"

namespace MNN {

typedef void (*UnaryF32Kernel)(int op, const float* x, float* y, int64_t n, float a, float b);

/**
 * activation fused into the GEMM / convolution store: 0 none, 1 max(x, 0), 2 min(max(x, lo), hi),
 * 3 the table's unary kernel (unary(unaryOp, row, row, n, lo, hi)) over each stored row: the
 * register kernels do 1 and 2 themselves, the drivers apply 3 to the rows they just stored.
 */
struct GemmPost {
    int act = 0;
    float lo = 0.0f;
    float hi = 0.0f;
    UnaryF32Kernel unary = nullptr;
    int unaryOp = 0;
};

/**
 * One register tile: C[i][j] (i < MR, j < NR, row stride ldc) =
 *   (accumulate ? C[i][j] : bias[i]) + sum_{p < k} a[p * MR + i] * b[p * NR + j]
 * then the activation when post is not null. a: packed MR-row panel of A, b: packed NR-column
 * panel of B (both k-major), bias: MR values. The full MR x NR tile is read / written.
 */
typedef void (*SgemmKernel)(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                            int accumulate, const GemmPost* post);

/** float32 unary kernels of the table (values are stable: tests name them) */
enum class VecUnaryOp : int {
    RELU = 0,
    CLIP,
    SIGMOID,
    SILU,
    HARD_SIGMOID,
    HARD_SWISH,
    TANH,
    EXP,
    GELU,
    GELU_TANH,
    LEAKY_RELU,
    ABS,
    NEG,
    SQUARE,
    RECIPROCAL,
    // SiLU with a sigmoid of relative error up to 3e-6 on the AVX-512 tier (elsewhere SILU's kernel):
    // the convolutions' fused SiLU below Precision_High (CPUUtils::gemmPostFor)
    SILU_FAST
};
constexpr int kVecUnaryOpCount = 16;
/** float32 binary kernels of the table */
enum class VecBinaryOp : int { ADD = 0, SUB, MUL, DIV, MAX, MIN };

/** UnaryF32Kernel: y[i] = op(x[i]) for i < n; a, b: CLIP's bounds, HARD_SIGMOID's alpha / beta,
 * LEAKY_RELU's alpha (y may equal x) */
/** mode 0: c[i] = a[i] op b[i]; 1: c[i] = a[i] op b[0]; 2: c[i] = a[0] op b[i]   (i < n) */
typedef void (*BinaryF32Kernel)(int op, const float* a, const float* b, float* c, int64_t n, int mode);

/**
 * Depthwise rows: for oy < oh, ox < ow:
 *   y[oy * ow + ox] = bias + sum_{t < taps} w[t] * src[oy * rowStep + tapOff[t] + ox], then post.
 * src is a zero-padded plane laid out so that every tap is a contiguous run; it must be readable
 * dwLanes floats past the last valid column of every row.
 */
typedef void (*DepthwiseRowsKernel)(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps,
                                    float bias, float* y, int oh, int ow, const GemmPost* post);

/** geometry of DepthwiseChannelsKernel */
struct DwChannelGeom {
    int ih, iw, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl;
};
constexpr int kDwChannelMaxTaps = 64;
/** floats of scratch one DepthwiseChannelsKernel call needs with `lanes` = the table's dwLanes */
int64_t dwChannelScratchFloats(const DwChannelGeom& g, int lanes);
/**
 * Depthwise (one output per input channel) over nch <= dwLanes channels at once, vectorised across
 * them: channel l reads x + l * inPlane and writes y + l * outPlane; wv: taps x dwLanes weights
 * (lane l = channel l), bv: dwLanes biases; then post. kh * kw <= kDwChannelMaxTaps.
 */
typedef void (*DepthwiseChannelsKernel)(const float* x, int64_t inPlane, int nch, const DwChannelGeom* g,
                                        const float* wv, const float* bv, float* y, int64_t outPlane,
                                        const GemmPost* post, float* scratch);

/**
 * Pooling rows over the padded layout of DepthwiseRowsKernel: y = max over taps (NaN propagates;
 * pad with -inf) or sum over taps * invY[oy] * invX[ox] (pad with 0).
 */
typedef void (*PoolRowsKernel)(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax,
                               const float* invY, const float* invX, float* y, int oh, int ow);

/**
 * Winograd input transform over a panel of nr tiles: d holds alpha * alpha rows of nr floats (row
 * r * alpha + s = input position (r, s) of each tile); writes (B^T d B)[a][b] to
 * v + (a * alpha + b) * xiStride (nr floats). bt: alpha x alpha, row-major.
 */
typedef void (*WinogradInputKernel)(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride);
/**
 * Winograd output transform over a panel of nr tiles: o + xi * xiStride holds the nr GEMM results of
 * xi; y[(a * m + b) * nr + j] = bias + (A^T o A)[a][b] of tile j, then post. at: m x alpha.
 */
typedef void (*WinogradOutputKernel)(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr,
                                     float bias, float* y, const GemmPost* post);

/**
 * Winograd input transform on the packed layout (PackedLayout.hpp) for nx tiles of one tile row of
 * one 16-channel block: x is the block's plane (ih x iw positions of 16 floats); tile j's alpha x
 * alpha window starts at position (iy0, ix0 + j * m) (zero outside the plane); writes
 * (B^T d B)[a][b] (16 lanes) to v + (a * alpha + b) * eStride + j * 16. bt: alpha x alpha, row-major.
 */
typedef void (*PackedWinoInputKernel)(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt,
                                      int alpha, float* v, int64_t eStride);
/**
 * Winograd output transform on the packed layout for nx tiles of one tile row of one output block:
 * tile j's GEMM results are o + (u * alpha + w) * eStride + j * 16 (16 lanes);
 *   y[a * yRowStride + (j * m + b) * 16 + l] = bias[l] + (A^T o A)[a][b] of lane l, then post,
 * for a < min(rows, m) and j * m + b < cols (the rest of the tiles is not stored). at: m x alpha.
 */
typedef void (*PackedWinoOutputKernel)(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx,
                                       const float* bias, float* y, int64_t yRowStride, int rows, int cols,
                                       const GemmPost* post);
/**
 * 1-D Winograd F(m, r) input transform on the packed layout (windows of 1 x r or r x 1): nx tiles,
 * tile j's window the alpha positions from input (iy0, ix0 + j * m) along the row (vertical 0) or from
 * (iy0, ix0 + j) down the column (vertical 1), zero outside the ih x iw plane (positions of 16
 * floats); v[e * eStride + j * 16 + l] = sum_k bt[e][k] window_j[k][l]
 */
typedef void (*PackedWino1dInputKernel)(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical,
                                        const float* bt, int alpha, float* v, int64_t eStride);
/**
 * its output transform for one output block: tile j's alpha products at o[e * eStride + j * 16];
 * output i < m of tile j = bias + sum_e at[i][e] o_j[e], then post; along the row (vertical 0) it
 * goes to y + (j * m + i) * 16 while j * m + i < cols, down the column (vertical 1) to
 * y + i * yRowStride + j * 16 while i < rows
 */
typedef void (*PackedWino1dOutputKernel)(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx,
                                         int vertical, const float* bias, float* y, int64_t yRowStride, int rows,
                                         int cols, const GemmPost* post);

/**
 * One register tile of a convolution on the packed layout NC16HW16 (PackedLayout.hpp): P output
 * positions x Q blocks of 16 output channels, summed over kBlocks input-channel blocks and `taps`
 * kernel taps. For p < P, q < Q, l < 16:
 *   y[q * yBlockStride + p * 16 + l] = (accumulate ? y[...] : bias[q * 16 + l])
 *     + sum_{kb, t, i} x[kb * xBlockStride + tapOff[t] + p * xPosStride + i]
 *                      * w[((kb * tapsAll + tapIdx[t]) * 16 + i) * Q * 16 + q * 16 + l]
 * with i < 16 for every block but the last, i < kLast there (the input's padding lanes are never
 * read); then post (act 1 / 2 in registers, act 3 applied to each stored block row of P * 16).
 * 1x1 convolutions and GEMMs: taps 1, tapOff {0}, tapIdx {0}. P <= the table's pcPMax, Q <= pcQMax.
 */
struct PackedConvTile {
    const float* x = nullptr;
    int64_t xPosStride = 16;
    int64_t xBlockStride = 0;
    int kBlocks = 0;
    int kLast = 16;
    const int32_t* tapOff = nullptr;
    const int32_t* tapIdx = nullptr;
    int taps = 1;
    int tapsAll = 1;
    const float* w = nullptr;
    const float* bias = nullptr;
    float* y = nullptr;
    int64_t yBlockStride = 0;
    int P = 0;
    int Q = 0;
    int accumulate = 0;
    const GemmPost* post = nullptr;
    /** nonzero: the weights outgrow L2 (they stream from L3 / memory), kernels that can prefetch
     *  them ahead do so; a hint only, results are the same */
    int prefetch = 0;
    /**
     * non-null: the weights as IEEE half (w's layout, w unused), for memory-bound products of few
     * positions (GEMV, streamed Winograd weights) at Precision_Normal; only where the table's pcHalfTileP >= P
     * (or P == pcWideP)
     */
    const uint16_t* wHalf = nullptr;
    /**
     * output channels that exist in the tile's last block (1..16; below 16 only where that block is
     * the tensor's last): a kernel may skip the lanes past 8 when this is <= 8, storing 0 there (a
     * hint: 24 / 40 / 72 / 120-channel layers compute 3 half-blocks instead of 4)
     */
    int yLastLanes = 16;
    /**
     * non-null: a residual R laid out as y (its blocks yBlockStride apart), added to every output
     * before post (act(conv + bias + R) in the tile's store, no second pass over y)
     */
    const float* res = nullptr;
    /**
     * the tile repeated along its positions (>= 1): run r computes positions [r * P, (r + 1) * P) of
     * the formula above (x + p * xPosStride, y and res + p * 16), every other field the same; one
     * call for a row of small-K tiles, whose call, dispatch and field loads cost as much as 16 lanes
     * of multiply-adds (forEachTileRun: kernels that do not loop themselves)
     */
    int runs = 1;
};
typedef void (*PackedConvKernel)(const PackedConvTile* tile);

/** kernel(tile) for each run of tile (PackedConvTile::runs) as a tile of one run */
inline void forEachTileRun(const PackedConvTile* tile, PackedConvKernel kernel) {
    PackedConvTile one = *tile;
    one.runs = 1;
    for (int r = 0; r < tile->runs; ++r) {
        kernel(&one);
        one.x += (int64_t)tile->P * tile->xPosStride;
        one.y += tile->P * 16;
        if (one.res) {
            one.res += tile->P * 16;
        }
    }
}

/**
 * One output row of a depthwise convolution on the packed layout NC16HW16 (PackedLayout.hpp), the
 * 16 channels of one block (lane l = channel l). For ox < ow, l < 16, with ix = ox * sw - pl + kx * dw:
 *   y[ox * 16 + l] = bias[l] + sum_{r < rows} sum_{kx < kw, 0 <= ix < iw}
 *                    x[r * xRowStep + ix * 16 + l] * w[(r * kw + kx) * 16 + l]
 * then post (act 1 / 2 in registers, act 3 over the stored row). x: the first input row of the
 * window that lies inside the input (rows: how many do), w: that kernel row's weights. Positions
 * [in0, in1) (0 <= in0 <= in1 <= ow) have their whole window inside the row: computed several at a
 * time; the others clip their taps to [0, iw) (no padded copy of the input).
 */
struct PackedDwRow {
    const float* x = nullptr;
    int64_t xRowStep = 0;
    int rows = 0;
    const float* w = nullptr;
    const float* bias = nullptr;
    float* y = nullptr;
    int iw = 0, ow = 0, kw = 1, sw = 1, dw = 1, pl = 0, in0 = 0, in1 = 0;
    const GemmPost* post = nullptr;
};
typedef void (*PackedDwKernel)(const PackedDwRow* row);

/**
 * One output row of pooling on the packed layout, geometry as PackedDwRow (no weights): isMax: the
 * max over the window's inside taps (NaN propagates; no inside tap gives the lowest float), else
 * their sum * scaleY * invX[ox].
 */
struct PackedPoolRow {
    const float* x = nullptr;
    int64_t xRowStep = 0;
    int rows = 0;
    float* y = nullptr;
    int iw = 0, ow = 0, kw = 1, sw = 1, dw = 1, pl = 0, in0 = 0, in1 = 0;
    int isMax = 1;
    float scaleY = 1.0f;
    const float* invX = nullptr;
};
typedef void (*PackedPoolKernel)(const PackedPoolRow* row);
/**
 * Channel-axis data movement on the packed layout (Slice / Concat / ChannelShuffle at any channel
 * offsets): `count` consecutive output vectors of one 16-channel output block. For p < count, l < 16:
 *   y[p * 16 + l] = src[e][p * 16 + perm[e * 16 + l]]  for the entry e whose mask[e] has bit l,
 *                   0                                 when no entry's mask has bit l.
 * The entries' masks are disjoint; src[e] points at the first of the count positions of entry e's
 * input block (its 16-float vectors are read whole); perm values are in [0, 16).
 */
struct PackedGatherBlock {
    const float* const* src = nullptr;
    const int32_t* perm = nullptr;   // entries x 16
    const uint32_t* mask = nullptr;  // entries
    int entries = 0;
    float* y = nullptr;
    int64_t count = 0;
};
typedef void (*PackedGatherKernel)(const PackedGatherBlock* block);
// ---- normalisation and resize rows (LayerNorm / RMSNorm, 2-D float resize) ----
/** flags of NormRowKernel */
constexpr int kNormRms = 1;   // RMSNorm: no mean is subtracted
constexpr int kNormHigh = 2;  // sums and output in double (Precision_High)
/**
 * One LayerNorm / RMSNorm row of n floats: mean = sum(x) / n (0 for RMS), var = sum((x - mean)^2) / n,
 * inv = 1 / sqrt(var + eps); y[i] = (x[i] - mean) * inv * scale[i] + bias[i] (scale / bias may be
 * null); stats[0] = mean, stats[1] = inv. y may equal x.
 */
typedef void (*NormRowKernel)(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                              int flags, float* stats);
/** horizontal resize pass: dst[i] = src[i0[i]] * w0[i] + src[i1[i]] * w1[i]; w0 null: dst[i] = src[i0[i]] */
typedef void (*ResizeRowKernel)(const float* src, const int32_t* i0, const int32_t* i1, const float* w0,
                                const float* w1, float* dst, int n);
/** vertical resize blend: dst[i] = r0[i] * w0 + r1[i] * w1 */
typedef void (*ResizeBlendKernel)(const float* r0, const float* r1, float w0, float w1, float* dst, int n);

/**
 * the packed 3x3 choice's cost constants (packedWinogradCost / packedDirect3x3Cost), in units of one
 * GEMM multiply-add lane of the Winograd product. The defaults were set on Zen 4 / AVX-512 (a weight
 * float streamed from memory: the FMA rate over the memory bandwidth, ~58 G multiply-adds / s against
 * ~7.5 G floats / s there); a tier whose kernels were measured sets its own
 * (benchmark/ab/fit_winograd_cost.py).
 */
struct Packed3x3Costs {
    double transform = 1.0;     // per transform lane-op
    double uWeight = 8.0;       // per transformed weight float streamed per run
    double directMac = 1.0;     // per direct multiply-add
    double directWeight = 8.0;  // per direct weight float streamed per run
    /**
     * the direct kernel's time per multiply-add at stride 2 over stride 1: its tiles read every
     * other position, and the layers are mostly on small planes (Zen 3, 3x3 stride-2 layers of
     * resnet18 / 50 and inception_v3 as one-op models against the stride-2 Winograd: 1.15-1.3x the
     * time per cost unit of the Winograd fit)
     */
    double directStride2 = 1.2;
};

struct CPUCoreFunctions {
    CPUTier tier = CPUTier::SCALAR;
    const char* sgemmName = "";  // e.g. "sgemm_4x24__avx2"
    int mr = 0;                  // rows of a register tile (output channels)
    int nr = 0;                  // columns of a register tile (output positions)
    SgemmKernel sgemm = nullptr;
    UnaryF32Kernel unaryF32 = nullptr;    // unary_f32__<isa>
    BinaryF32Kernel binaryF32 = nullptr;  // binary_f32__<isa>
    DepthwiseRowsKernel dwconvRows = nullptr;
    const char* dwconvName = "";                              // e.g. "dwconv_rows__avx512"
    int dwLanes = 1;                                          // floats per vector of the depthwise kernel
    DepthwiseChannelsKernel dwconvChannels = nullptr;         // dwconv_channels__<isa>
    double (*planeSum)(const float* x, int64_t n) = nullptr;  // sum, vector partial sums then double
    PoolRowsKernel poolRows = nullptr;                        // pool_rows__<isa>
    WinogradInputKernel winoInput = nullptr;                  // wino_input__<isa>
    WinogradOutputKernel winoOutput = nullptr;                // wino_output__<isa>
    const char* winoName = "";                                // e.g. "wino__avx512"
    PackedConvKernel packedConv = nullptr;                    // pconv_<P>x<Q*16>__<isa>
    const char* packedConvName = "";
    int pcPMax = 1;        // most positions per tile
    int pcQMax = 1;        // most 16-channel output blocks per tile
    int pcPMaxHalf = 0;    // most positions of a tile of one block of at most 8 channels (0: pcPMax)
    int pcHalfMaxP = 0;    // GEMV-like products of at most this many positions per tile keep half weights (0: none)
    int pcHalfTileP = 0;   // most positions per tile the kernel takes with half weights (>= pcHalfMaxP)
    /**
     * > pcPMax: the kernel also takes tiles of exactly this many positions with Q = 1 and a full last
     * block (yLastLanes > 8), float or half weights, for GEMMs of that many columns whose weights
     * stream (the 16 tiles of F(2,3) on a 7x7 output: one pass instead of 14 + 2); 0: none
     */
    int pcWideP = 0;
    /**
     * 1x1 layers of many input channels walk K in slices (CPUConvolutionPacked's runSliced: a slice of
     * the weights kept in L1 across a run of tiles) rather than the whole K per tile; false: only
     * where two threads split K (KSplitJob). pcKSliceSmall: small planes take half slices. Both off on
     * the AVX2 tier, whose 6 x 16 tile does 12 multiply-adds per lane against the AVX-512 tile's 28
     * (a slice's call, output reload and prefetch outweighed the weights read from L2: Zen 3,
     * 2026-11-29, docs/performance.md session 28)
     */
    bool pcKSlices = true;
    bool pcKSliceSmall = true;
    /**
     * F(4,3) keeps a streamed U as IEEE half on planes of at most kHalfF4MaxTiles tiles (keepsHalfU):
     * on the AVX2 tier, measured on Zen 3 (resnet18's / resnet50's 7x7 512-channel layers 2.0 -> 1.3
     * ms, 2026-11-29). Off elsewhere: the AVX-512 tier runs those layers' 16 F(2,3) tiles in one wide
     * pass (pcWideP) and was not measured with it
     */
    bool pwHalfF4 = false;
    Packed3x3Costs pw3x3;  // the packed 3x3 choice's cost constants (defaults: Zen 4 / AVX-512)
    PackedWinoInputKernel pwinoInput = nullptr;    // pwino_input__<isa>
    PackedWinoOutputKernel pwinoOutput = nullptr;  // pwino_output__<isa>
    const char* pwinoName = "";                    // e.g. "pwino__avx512"
    PackedWino1dInputKernel pwinoInput1d = nullptr;    // pwino_input1d__<isa>
    PackedWino1dOutputKernel pwinoOutput1d = nullptr;  // pwino_output1d__<isa>
    PackedDwKernel packedDw = nullptr;             // dwpack__<isa>
    const char* packedDwName = "";
    PackedPoolKernel packedPool = nullptr;  // poolpack__<isa>
    const char* packedPoolName = "";
    /** acc[l] += sum_{p < positions} x[p * 16 + l] (packed positions of one block; a fixed order) */
    void (*packedSum)(const float* x, int64_t positions, float* acc) = nullptr;  // packsum__<isa>
    PackedGatherKernel packedGather = nullptr;  // pgather__<isa>
    const char* packedGatherName = "";
    // normalisation and resize rows
    NormRowKernel layerNormRow = nullptr;      // layernorm_row__<isa>
    const char* normName = "";                 // e.g. "layernorm__avx512"
    ResizeRowKernel resizeRowH = nullptr;      // resize_row_h__<isa>
    ResizeBlendKernel resizeBlendV = nullptr;  // resize_blend_v__<isa>
    const char* resizeName = "";               // e.g. "resize__avx512"
};

/**
 * The most positions of a tile whose only output block has lastLanes (<= 8) channels, where the
 * tier's kernel takes more than pcPMax there (pcPMaxHalf); 0 otherwise
 */
inline int halfBlockPMax(const CPUCoreFunctions& f, int lastLanes) {
    return lastLanes <= 8 && f.pcPMaxHalf > f.pcPMax ? f.pcPMaxHalf : 0;
}

/** the table of the tier in use (cpuTier(), or the testing override) */
const CPUCoreFunctions& cpuCoreFunctions();
/** the table of tier t, clamped to the best tier this CPU has */
const CPUCoreFunctions& cpuCoreFunctionsFor(CPUTier t);
/** testing: makes cpuCoreFunctions() return tier t's table (clamped); -1 restores the default */
void cpuSetTierOverride(int tier);

// kernels of each ISA file (declared here, defined only there)
void sgemm_4x8__scalar(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                       int accumulate, const GemmPost* post);
void dwconv_rows__scalar(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps, float bias,
                         float* y, int oh, int ow, const GemmPost* post);
int dwconv_lanes__scalar();
void dwconv_channels__scalar(const float* x, int64_t inPlane, int nch, const DwChannelGeom* g, const float* wv,
                             const float* bv, float* y, int64_t outPlane, const GemmPost* post, float* scratch);
void pool_rows__scalar(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax, const float* invY,
                       const float* invX, float* y, int oh, int ow);
double plane_sum__scalar(const float* x, int64_t n);
void unary_f32__scalar(int op, const float* x, float* y, int64_t n, float a, float b);
void binary_f32__scalar(int op, const float* a, const float* b, float* c, int64_t n, int mode);
void pconv_4x64__scalar(const PackedConvTile* tile);
void dwpack__scalar(const PackedDwRow* row);
void poolpack__scalar(const PackedPoolRow* row);
void packsum__scalar(const float* x, int64_t positions, float* acc);
void pgather__scalar(const PackedGatherBlock* block);
void wino_input__scalar(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride);
void wino_output__scalar(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias,
                         float* y, const GemmPost* post);
void pwino_input__scalar(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                         float* v, int64_t eStride);
void pwino_output__scalar(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                          float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void pwino_input1d__scalar(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical,
                           const float* bt, int alpha, float* v, int64_t eStride);
void pwino_output1d__scalar(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                            const float* bias, float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
#if defined(__x86_64__) || defined(_M_X64)
void dwconv_rows__sse41(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps, float bias,
                        float* y, int oh, int ow, const GemmPost* post);
int dwconv_lanes__sse41();
void dwconv_channels__sse41(const float* x, int64_t inPlane, int nch, const DwChannelGeom* g, const float* wv,
                            const float* bv, float* y, int64_t outPlane, const GemmPost* post, float* scratch);
void pool_rows__sse41(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax, const float* invY,
                      const float* invX, float* y, int oh, int ow);
double plane_sum__sse41(const float* x, int64_t n);
void unary_f32__sse41(int op, const float* x, float* y, int64_t n, float a, float b);
void binary_f32__sse41(int op, const float* a, const float* b, float* c, int64_t n, int mode);
void dwconv_rows__avx2(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps, float bias,
                       float* y, int oh, int ow, const GemmPost* post);
int dwconv_lanes__avx2();
void dwconv_channels__avx2(const float* x, int64_t inPlane, int nch, const DwChannelGeom* g, const float* wv,
                           const float* bv, float* y, int64_t outPlane, const GemmPost* post, float* scratch);
void pool_rows__avx2(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax, const float* invY,
                     const float* invX, float* y, int oh, int ow);
double plane_sum__avx2(const float* x, int64_t n);
void unary_f32__avx2(int op, const float* x, float* y, int64_t n, float a, float b);
void binary_f32__avx2(int op, const float* a, const float* b, float* c, int64_t n, int mode);
void dwconv_rows__avx512(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps, float bias,
                         float* y, int oh, int ow, const GemmPost* post);
int dwconv_lanes__avx512();
void dwconv_channels__avx512(const float* x, int64_t inPlane, int nch, const DwChannelGeom* g, const float* wv,
                             const float* bv, float* y, int64_t outPlane, const GemmPost* post, float* scratch);
void pool_rows__avx512(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax, const float* invY,
                       const float* invX, float* y, int oh, int ow);
double plane_sum__avx512(const float* x, int64_t n);
void unary_f32__avx512(int op, const float* x, float* y, int64_t n, float a, float b);
void binary_f32__avx512(int op, const float* a, const float* b, float* c, int64_t n, int mode);
void wino_input__sse41(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride);
void wino_output__sse41(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias,
                        float* y, const GemmPost* post);
void wino_input__avx2(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride);
void wino_output__avx2(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias,
                       float* y, const GemmPost* post);
void wino_input__avx512(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride);
void wino_output__avx512(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias,
                         float* y, const GemmPost* post);
void pwino_input__sse41(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                        float* v, int64_t eStride);
void pwino_output__sse41(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                         float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void pwino_input1d__sse41(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical,
                          const float* bt, int alpha, float* v, int64_t eStride);
void pwino_output1d__sse41(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                           const float* bias, float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void pwino_input__avx2(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                       float* v, int64_t eStride);
void pwino_output__avx2(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                        float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void pwino_input1d__avx2(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical, const float* bt,
                         int alpha, float* v, int64_t eStride);
void pwino_output1d__avx2(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                          const float* bias, float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void pwino_input__avx512(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                         float* v, int64_t eStride);
void pwino_output__avx512(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                          float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void pwino_input1d__avx512(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical,
                           const float* bt, int alpha, float* v, int64_t eStride);
void pwino_output1d__avx512(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                            const float* bias, float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post);
void dwpack__sse41(const PackedDwRow* row);
void poolpack__sse41(const PackedPoolRow* row);
void packsum__sse41(const float* x, int64_t positions, float* acc);
void dwpack__avx2(const PackedDwRow* row);
void poolpack__avx2(const PackedPoolRow* row);
void packsum__avx2(const float* x, int64_t positions, float* acc);
void dwpack__avx512(const PackedDwRow* row);
void poolpack__avx512(const PackedPoolRow* row);
void packsum__avx512(const float* x, int64_t positions, float* acc);
void pgather__avx2(const PackedGatherBlock* block);
void pgather__avx512(const PackedGatherBlock* block);
void sgemm_4x8__sse41(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                      int accumulate, const GemmPost* post);
void sgemm_4x24__avx2(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                      int accumulate, const GemmPost* post);
void sgemm_8x32__avx512(int64_t k, const float* a, const float* b, float* c, int64_t ldc, const float* bias,
                        int accumulate, const GemmPost* post);
void pconv_3x16__sse41(const PackedConvTile* tile);
void pconv_6x16__avx2(const PackedConvTile* tile);
void pconv_14x32__avx512(const PackedConvTile* tile);
#endif
// normalisation and resize rows
void layernorm_row__scalar(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                           int flags, float* stats);
void resize_row_h__scalar(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                          float* dst, int n);
void resize_blend_v__scalar(const float* r0, const float* r1, float w0, float w1, float* dst, int n);
#if defined(__x86_64__) || defined(_M_X64)
void layernorm_row__sse41(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                          int flags, float* stats);
void resize_row_h__sse41(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                         float* dst, int n);
void resize_blend_v__sse41(const float* r0, const float* r1, float w0, float w1, float* dst, int n);
void layernorm_row__avx2(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                         int flags, float* stats);
void resize_row_h__avx2(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                        float* dst, int n);
void resize_blend_v__avx2(const float* r0, const float* r1, float w0, float w1, float* dst, int n);
void layernorm_row__avx512(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                           int flags, float* stats);
void resize_row_h__avx512(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                          float* dst, int n);
void resize_blend_v__avx512(const float* r0, const float* r1, float w0, float w1, float* dst, int n);
#endif

}  // namespace MNN
#endif
