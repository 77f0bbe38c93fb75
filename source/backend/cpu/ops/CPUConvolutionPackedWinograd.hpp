// Winograd F(m x m, r x r) convolution on the packed layout NC16HW16: 3x3 windows with m = 2, 4, 6,
// 5x5 windows with m = 2, 4 (alpha = m + r - 1 <= 8; stride 1, dilation 1, one group), and 1-D
// F(m, r) for 1 x r / r x 1 windows (r = 3, 5, 7, m = 2, 4, 6, alpha <= 12: tiles of 1 x m / m x 1
// outputs, alpha GEMMs; inception_v3's 17x17 1x7 / 7x1 layers as F(6,7)); 3x3 windows at stride 2 as one transform of
// alpha 2m + 1, m = 2, 3 (makeStride2WinogradMatrices: F(m, 2) on the even samples, the odd ones passed through; 6.25 /
// 5.44 products per output against 9), and 7x7 / 8x8 windows at stride 2 over at most 4 channels (RGB stems) as F(4x4,
// 4x4) on their 2x2 space-to-depth input (4C channels, one block; createSpaceToDepthWinograd): the weights are
// transformed once (U = G g G^T, in double) and stored per transform element e in the layout of the table's packed
// convolution tile. Per chunk of output tiles: the input transform reads each tile's alpha x alpha window of 16-channel
// vectors straight from the packed input and writes V_e = [ciBlock][tile][16]; alpha^2 GEMMs (PackedConvTile, taps 1)
// give M_e = V_e U_e = [coBlock][tile][16]; the output transform (A^T M A + bias, fused activation) writes the m x m
// outputs of every tile to the packed output. Plain inputs / outputs are converted through scratch.
// createPackedWinograd (CPUPackedOps.hpp) builds it. A ConvolutionPool's pool can run inside (fusePool): strips of
// pooled rows, one per thread, each computing the tile rows its pooled rows read into a band of convolution rows in
// cache.
#ifndef MNN_CPU_CPUCONVOLUTIONPACKEDWINOGRAD_HPP
#define MNN_CPU_CPUCONVOLUTIONPACKEDWINOGRAD_HPP

#include <stdint.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

/** sizes the cost models see */
struct PackedWinogradShape {
    int batch = 1, inC = 0, outC = 0, oh = 0, ow = 0;
    int pMax = 14;  // positions per register tile of the table's packed convolution kernel
    /** BackendConfig::Memory_Low: count whole register-tile passes and the weights streamed per run */
    bool lowMemory = false;
    /**
     * count the weights streamed once per run (Memory_Normal and Memory_Low): a model whose weights
     * outgrow L3 reads every layer's weights from memory at every run, so F(6)'s 64 / 9 x the direct
     * weights cost more than its fewer multiply-adds save on mid-sized planes (resnet50 / resnet18
     * layer2, squeezenet: F(6) -> F(4), -1..3% on Zen 3, 2026-11-25)
     */
    bool streamWeights = false;
    /** Precision_High (U is never kept as half there: keepsHalfU) */
    bool high = false;
    /** the tier's table: its cost constants (pw3x3) and whether its tile takes half U */
    const CPUCoreFunctions* funcs = nullptr;
    /** the kernel size r of the r x r window (3 or 5), or of a 1 x r / r x 1 window (3, 5 or 7) */
    int r = 3;
    /** 0: an r x r window; 1: 1 x r (1-D Winograd along rows); 2: r x 1 (down columns) */
    int axis = 0;
    /** 1, or 2 for a 3x3 window at stride 2 (makeStride2WinogradMatrices: alpha 2m + 1) */
    int stride = 1;
};

/** the transform's alpha of F(m, r) for s: m + r - 1, or 2m + 1 at stride 2 */
int winogradAlpha(int m, const PackedWinogradShape& s);
/** whether F(m, r) is offered for s: m = 2, 4, 6 (2, 3 at stride 2) within the axis' alpha limit */
bool winogradOffers(int m, const PackedWinogradShape& s);
/** distinct transformed weight matrices U_e of F(m, r) for s: alpha^2 (1-D: alpha), (m + 2)^2 at stride 2 */
int winogradDistinctU(int m, const PackedWinogradShape& s);

/**
 * whether F(m, r) keeps its transformed weights U (uBytes as float) as IEEE half: below
 * Precision_High, U of kStreamedWeightBytes or more, on a tier whose tile takes half weights on every
 * tile; alpha 4 (F(2,3)) on any plane, alpha 6 (F(4,3) of an r x r window) only on tiers with
 * CPUCoreFunctions::pwHalfF4 and planes of at most kHalfF4MaxTiles tiles per image (`tiles`; 0: unknown).
 * The "Half U" comment in CPUConvolutionPackedWinograd.cpp says why.
 */
bool keepsHalfU(const CPUCoreFunctions& f, bool high, int alpha, double uBytes, int64_t tiles);
/**
 * the most tiles per image of a plane whose F(4,3) U is kept as half: the 7x7 / 8x8 outputs (2 x 2
 * tiles), whose layers stream U from memory for 4 tiles
 */
constexpr int64_t kHalfF4MaxTiles = 4;

/** the largest alpha = m + r - 1 of the packed Winograd (its transform kernels' limit) */
constexpr int kMaxWinogradAlpha = 8;
/**
 * the same for 1-D windows (1 x r, r x 1): F(4,7), F(6,7), F(6,5). One transform per axis keeps their
 * round-off near the 2-D F(6,3)'s (float32 model of a 160-channel post-ReLU layer, max error over
 * max output: F(6,7) 1.6-2.4e-5, F(4,7) 1.5-2.1e-5, F(2,7) 1.6e-6, 2-D F(6,3) 1.3e-5); the points
 * 3, -3, 1/3, -1/3 join at alpha 10 and 12
 */
constexpr int kMaxWinogradAlpha1d = 12;
/** the alpha limit for windows along axis (0: r x r, 1 / 2: 1-D) */
inline int maxWinogradAlpha(int axis) {
    return axis == 0 ? kMaxWinogradAlpha : kMaxWinogradAlpha1d;
}

/**
 * Memory_Normal leaves out F(4) / F(6) where their transformed weights would exceed this many bytes
 * per convolution (F(2) always competes); Memory_Low applies the memory-aware model (lowMemory) to
 * every choice; Memory_High is speed-first
 */
constexpr double kWinogradWeightCapBytes = 8.0 * 1024 * 1024;
/**
 * ... and F(4) where its U is kept as half (keepsHalfU: a plane of at most kHalfF4MaxTiles tiles)
 * and the half U stays within this many bytes: resnet18's / resnet50's 512-channel 7x7 layers (18.9
 * MB, 2.25x their half F(2) U) take 0.56x F(2)'s multiply-adds, 4 tiles instead of 16
 */
constexpr double kWinogradHalfCapBytes = 24.0 * 1024 * 1024;

/**
 * estimated cost (GEMM micro-kernel multiply-add units) of one run of F(m x m, r x r) on the packed
 * layout: alpha^2 GEMMs at WinogradConv::kGemmFactor, transforms of ~alpha^3 vector lane-ops per tile
 * and channel (16-lane vectors, no scalar gathers). lowMemory adds the transformed weights
 * (alpha^2 / 9 times the direct ones) streamed once per run (as streamWeights) and rounds the tiles up to whole
 * register tiles, which steers the large layers to F(2) or the direct kernel: on resnet50 peak RSS
 * 322 -> 253 MB, about 10% slower on resnet18 (measured 2026-11-23)
 */
double packedWinogradCost(int m, const PackedWinogradShape& s);
/**
 * the direct packed r x r convolution's cost in the same units: r^2 * Cin * Cout * OH * OW multiply-adds
 * (lowMemory: rows rounded up to whole register tiles; lowMemory or streamWeights: plus its weights
 * streamed once)
 */
double packedDirect3x3Cost(const PackedWinogradShape& s);

}  // namespace MNN
#endif
