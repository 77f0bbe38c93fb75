#include "CPUConvolutionPackedWinograd.hpp"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <string>
#include <vector>
#include "CPUConvolutionWinograd.hpp"
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "backend/cpu/WinogradConstTables.hpp"
#include "backend/cpu/WinogradMatrices.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

namespace {

constexpr int64_t kChunkBytesLow = 512 * 1024;             // V and M of one chunk (per task), U under 4 MB
constexpr int64_t kStreamedWeightBytes = 8 * 1024 * 1024;  // U this large comes from memory, not L3
/**
 * U this large (8x L2) costs more re-read from L3 per chunk than V and M spilling there: chunks of V
 * and M up to U's size (at most kStreamedWeightBytes), under Memory_Normal / High
 */
constexpr int64_t kLargeChunkWeightBytes = 4 * 1024 * 1024;
/**
 * U of this size or more is prefetched by the tile kernel (PackedConvTile::prefetch): inside a model
 * every U of more than a share of L2 comes from memory at each run, the next layers' weights having
 * evicted it (the bound was 2 MB, L2). Intel Xeon (2 MB L2, AVX-512 tier), per-op minimums in the
 * model at one thread: the 1 MB U of resnet50's / resnet18's 64-channel F(6,3) layers -9..16%, the
 * others within noise (the AVX2 tier on the same machine: within 1%); 64 KB: no better
 */
constexpr int64_t kPrefetchWeightBytes = 256 * 1024;
/**
 * stride-2 3x3 windows take Winograd on planes of at least this many tiles: on 7x7 / 8x8 outputs
 * (16 tiles of 2x2) each U value serves 16 rows against the direct kernel's 49-64 positions per
 * weight, and with two threads sharing the memory bandwidth the larger U lost (Zen 3, per-op medians
 * of alternating sessions: resnet18 layer4.0.conv1 1.28-1.30x, resnet50 layer4.0.conv2 1.15-1.19x,
 * inception_v3 Mixed_7a 192 -> 320 1.10-1.27x the direct time; at one thread 0.80-1.0x); the 28x28,
 * 17x17 and 14x14 layers (196, 81 / 36 and 49 tiles) were 0.64-0.89x at one and two threads
 */
constexpr int kStride2MinTiles = 32;
/**
 * GEMMs of at most this many input blocks (64 channels) run up to kGemmRuns tiles of P positions per
 * tile-kernel call (PackedConvTile::runs), as CPUConvolutionPacked's small-K tiles do: the call and
 * field loads of a 6-position tile cost as much as a few K blocks' multiply-adds. Zen 3, per-op
 * minimums in the model: squeezenet's 55x55 / 13x13 expand3x3 layers -3.5..5.5% (the others +-1%),
 * resnet18's 64-channel layers -2.5..5% at one thread
 */
constexpr int kGemmRunBlocks = 4;
constexpr int kGemmRuns = 8;

int64_t ceilDiv(int64_t v, int64_t q) {
    return (v + q - 1) / q;
}
int64_t roundUp(int64_t v, int64_t q) {
    return ceilDiv(v, q) * q;
}

// MNN_CONV_ALGO: -2 for reference / gemm (no Winograd), -1 for "winograd" (cheapest tile size),
// m for winogradM, 0 otherwise
int forcedUnit() {
    const char* env = getenv("MNN_CONV_ALGO");
    if (!env) {
        return 0;
    }
    if (strcmp(env, "reference") == 0 || strcmp(env, "gemm") == 0) {
        return -2;
    }
    if (strncmp(env, "winograd", 8) != 0) {
        return 0;
    }
    return env[8] ? atoi(env + 8) : -1;
}

bool isConstFloat(const Tensor* t) {
    return t && CPUUtils::isFloat(t) && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT &&
           t->host<float>() != nullptr;
}

class CPUConvolutionPackedWinograd : public Execution {
public:
    /**
     * axis: 0 for r x r windows, 1 for 1 x r (along rows), 2 for r x 1 (down columns). s2d: a k x k
     * window (k = 2r - 1 or 2r) at stride 2 over C <= 4 channels, run as the r x r stride-1 window
     * over the 4C channels of its 2x2 space-to-depth input (spaceToDepth); stride is then 1
     */
    CPUConvolutionPackedWinograd(Backend* b, const ConvAttrs& attrs, const CPUCoreFunctions& f, int m, int r, int axis,
                                 int stride = 1, bool s2d = false)
        : Execution(b), mAttrs(attrs), mFuncs(&f), mM(m), mR(r), mAxis(axis), mStride(stride), mS2d(s2d) {
        mPost = CPUUtils::gemmPostFor(attrs, b);
        mPost.unary = f.unaryF32;
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        setAlgo();
    }

    void setAlgo() {
        const char* tag = mUHalf.empty() ? "" : "-f16";
        char window[16] = "";
        if (mAxis != 0) {
            snprintf(window, sizeof(window), " %dx%d", mAxis == 2 ? mR : 1, mAxis == 1 ? mR : 1);
        }
        const char* shape = mStride == 2 ? " s2" : mS2d ? " s2d" : mUQ == 1 && mFuncs->pcQMax > 1 ? " wide" : "";
        const char* pooled = !mPoolFused ? "" : mPoolAttrs.type == Schema::PoolType::MAXPOOL ? "+maxpool" : "+avgpool";
        snprintf(mAlgo, sizeof(mAlgo), "packed-winograd%s F(%d,%d)%s%s%s %s %s", tag, mM, mR, window, shape, pooled,
                 mFuncs->pwinoName, mFuncs->packedConvName);
    }

    /**
     * U_e = G g G^T (in double) per transform element e (1-D windows: U_e = G g), in the tile kernel's
     * layout per Q group
     */
    bool prepareWeights(const float* w, const float* bias, int inC, int outC) {
        std::vector<float> folded;
        if (mS2d) {
            // W[co][c][ky][kx] -> W'[co][c * 4 + a * 2 + b][p][q] = W[co][c][2p + a][2q + b] (0 outside k x k)
            const int k = mKernel, r = mR;
            if (inC < 1 || inC > 4 || k < 2 * r - 1 || k > 2 * r) {
                return false;
            }
            folded.assign((size_t)outC * inC * 4 * r * r, 0.0f);
            for (int co = 0; co < outC; ++co) {
                for (int c = 0; c < inC; ++c) {
                    for (int ky = 0; ky < k; ++ky) {
                        for (int kx = 0; kx < k; ++kx) {
                            const int ch = c * 4 + (ky % 2) * 2 + kx % 2;
                            folded[(((size_t)co * inC * 4 + ch) * r + ky / 2) * r + kx / 2] =
                                w[(((size_t)co * inC + c) * k + ky) * k + kx];
                        }
                    }
                }
            }
            mSrcC = inC;
            inC *= 4;
            w = folded.data();
        }
        WinogradMatrices mat;
        if (mStride == 2 ? !makeStride2WinogradMatrices(mM, &mat) : !makeWinogradMatrices(mM, mR, &mat)) {
            return false;
        }
        mAlpha = mat.alpha;
        mInC = inC;
        mOutC = outC;
        mCiB = packedBlocks(inC);
        mCoB = packedBlocks(outC);
        mAt.assign(mat.at.begin(), mat.at.end());
        mBt.assign(mat.bt.begin(), mat.bt.end());
        const int alpha = mAlpha;
        mUeStride = (int64_t)mCiB * 16 * mCoB * 16;
        mE = mAxis == 0 ? alpha * alpha : alpha;
        // U_e per transform element; at stride 2 the odd points' rows / columns of G are equal
        // (makeStride2WinogradMatrices): those elements share one U, and the GEMMs run in order of
        // their U so that a shared one is read from L2 the second time
        int distinct = mE;
        mUIndex.resize((size_t)mE);
        if (mStride == 2) {
            const int classes = mM + 2;
            distinct = classes * classes;
            for (int a = 0; a < alpha; ++a) {
                for (int b = 0; b < alpha; ++b) {
                    mUIndex[(size_t)(a * alpha + b)] = std::min(a, mM + 1) * classes + std::min(b, mM + 1);
                }
            }
        } else {
            for (int e = 0; e < mE; ++e) {
                mUIndex[(size_t)e] = e;
            }
        }
        mEOrder.resize((size_t)mE);
        for (int e = 0; e < mE; ++e) {
            mEOrder[(size_t)e] = e;
        }
        std::stable_sort(mEOrder.begin(), mEOrder.end(), [&](int x, int y) { return mUIndex[x] < mUIndex[y]; });
        // U in groups of one output block for the wide tile (pcWideP positions, Q = 1) where an image
        // has exactly that many tiles and U streams as half: resnet18's / resnet50's 512-channel 7x7
        // F(2,3) layers ran their 16 tiles as 14 + 2, the 2-position pass re-reading and widening
        // every weight for 4 multiply-adds (1.31 -> 1.09-1.13 ms per layer; resnet18 -3.2% at one
        // thread, two builds in one process, Xeon; resnet50 +0.5%, within its noise). With U in
        // groups of two blocks the wide tile read each line twice (session 21)
        const size_t uCount = (size_t)(mUeStride * distinct);
        const bool half =
            keepsHalfU(*mFuncs, CPUUtils::highPrecision(backend()), alpha, 4.0 * (double)uCount, halfTiles());
        mUQ =
            mFuncs->pcWideP > mFuncs->pcPMax && mWideTiles == mFuncs->pcWideP && half ? 1 : std::max(1, mFuncs->pcQMax);
        const int qMax = mUQ;
        // U straight into its half copy where it is kept as half (no float U of twice the size
        // beside it at the peak), else as float; a value beyond half's range falls back to float
        bool halfFits = half;
        if (half) {
            mUHalf.assign(uCount, 0);
            fillU(w, inC, outC, mat, qMax, [&](size_t i, double v) {
                halfFits = halfFits && fabs(v) <= 65504.0;
                mUHalf[i] = TensorUtils::floatToFp16((float)v);
            });
        }
        if (!halfFits) {
            LargeVector<uint16_t>().swap(mUHalf);
            mU.assign(uCount, 0.0f);
            fillU(w, inC, outC, mat, qMax, [&](size_t i, double v) { mU[i] = (float)v; });
        }
        setAlgo();
        mBias.assign((size_t)mCoB * 16, 0.0f);
        for (int co = 0; bias && co < outC; ++co) {
            mBias[co] = bias[co];
        }
        mZeroBias.assign((size_t)qMax * 16, 0.0f);
        return true;
    }

    /**
     * U = G g G^T of every (output, input) channel pair of the weights w (outC x inC x r x r, or x r
     * for a 1-D window), each value handed to store(index into U, value); U_e at mUIndex[e] * mUeStride,
     * output blocks in groups of qMax
     */
    template <class Store>
    void fillU(const float* w, int inC, int outC, const WinogradMatrices& mat, int qMax, Store store) const {
        const int alpha = mAlpha, r = mR;
        std::vector<double> gg((size_t)alpha * r);
        for (int co = 0; co < outC; ++co) {
            // the Q group holding block co / 16: blocks [qb0, qb0 + q) at qb0 * ciB * 256 of each U_e
            const int blk = co / 16, qb0 = blk / qMax * qMax, q = std::min(qMax, mCoB - qb0);
            for (int ci = 0; ci < inC; ++ci) {
                const int64_t off = (int64_t)qb0 * mCiB * 256 + (int64_t)ci * q * 16 + (co - qb0 * 16);
                if (mAxis != 0) {
                    // a 1 x r or r x 1 window: its r taps are contiguous either way
                    const float* k = w + ((int64_t)co * inC + ci) * r;
                    for (int a = 0; a < alpha; ++a) {
                        double acc = 0.0;
                        for (int j = 0; j < r; ++j) {
                            acc += mat.g[(size_t)a * r + j] * k[j];
                        }
                        store((size_t)(mUIndex[a] * mUeStride + off), acc);
                    }
                    continue;
                }
                const float* k = w + ((int64_t)co * inC + ci) * r * r;
                for (int a = 0; a < alpha; ++a) {
                    for (int j = 0; j < r; ++j) {
                        double acc = 0.0;
                        for (int i = 0; i < r; ++i) {
                            acc += mat.g[(size_t)a * r + i] * k[i * r + j];
                        }
                        gg[(size_t)a * r + j] = acc;
                    }
                }
                for (int a = 0; a < alpha; ++a) {
                    for (int b = 0; b < alpha; ++b) {
                        double acc = 0.0;
                        for (int j = 0; j < r; ++j) {
                            acc += gg[(size_t)a * r + j] * mat.g[(size_t)b * r + j];
                        }
                        store((size_t)(mUIndex[a * alpha + b] * mUeStride + off), acc);
                    }
                }
            }
        }
    }

    /** tiles per image for keepsHalfU: those of an r x r window at stride 1, else 0 */
    int64_t halfTiles() const {
        return mAxis == 0 && mStride == 1 && !mS2d ? mWideTiles : 0;
    }
    /** the tiles per image the layer is planned for (prepareWeights groups U for pcWideP by it) */
    void setWideTiles(int tiles) {
        mWideTiles = tiles;
    }

    /*
     * Half U (keepsHalfU, filled by prepareWeights): U of kStreamedWeightBytes or more comes from
     * memory at every run (resnet18's 512-channel F(2) layers: 16.8 MB each, a third of their time):
     * below Precision_High, where the tier's tile kernel takes IEEE half weights on every tile
     * (pcHalfTileP >= pcPMax: AVX2 and AVX-512), U is kept as half only. Products and sums stay float;
     * each U value is rounded by at most 2^-11 of itself (corpus against PyTorch at Precision_Normal:
     * resnet18 2.6e-4 -> 3.2e-4, resnet50 2.5e-4 -> 3.4e-4, inception_v3 3.3e-4 -> 3.6e-4; bound
     * 1e-3). F(4)'s larger transform coefficients amplify the rounding: resnet50 with half F(4) U on
     * its six 256-channel 14x14 layers reached 3.5e-3 (2026-11-26), so F(4) keeps a half U only on
     * planes of at most kHalfF4MaxTiles tiles, the 7x7 512-channel layers (resnet18 5.9e-4, resnet50
     * 5.7e-4 on 2026-11-29; Zen 3, per-op medians in one process: 2.0 -> 1.3 ms per layer)
     */

    const char* algorithm() const override {
        return mAlgo;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const auto* x = inputs[0];
        const auto* y = outputs[0];
        std::vector<int> bias;
        const bool hasBias = inputs.size() > 2 && inputs[2];
        if (hasBias) {
            bias = TensorUtils::shape(inputs[2]);
        }
        std::string err;
        WindowGeometry g;
        int outC = 0;
        if (!resolveConv(mAttrs, false, TensorUtils::shape(x), TensorUtils::shape(inputs[1]), hasBias ? &bias : nullptr,
                         &g, &outC, &err)) {
            return error(INVALID_VALUE, "Convolution: %s", err.c_str());
        }
        const int srcStride = mS2d ? 2 : mStride, srcC = mS2d ? mSrcC : mInC;
        // the output: the convolution's, or (mPoolFused) the pool's over it
        WindowGeometry pg;
        std::vector<int> yShape = {x->length(0), outC, g.output.empty() ? 0 : g.output[0],
                                   g.output.size() < 2 ? 0 : g.output[1]};
        if (mPoolFused) {
            if (g.input.size() != 2 || !resolvePool(mPoolAttrs, yShape, &pg, &err) || pg.input.size() != 2) {
                return error(INVALID_VALUE, "ConvolutionPool: pool: %s", err.c_str());
            }
            yShape[2] = pg.output[0];
            yShape[3] = pg.output[1];
            if (!isCpuPacked(y)) {
                return error(NOT_SUPPORT, "ConvolutionPool: the pool fused into packed Winograd needs a packed output");
            }
        }
        if (g.input.size() != 2 || g.strides[0] != srcStride || g.strides[1] != srcStride || x->length(1) != srcC ||
            outC != mOutC || y->dimensions() != 4 || y->length(0) != x->length(0) || y->length(1) != outC ||
            y->length(2) != yShape[2] || y->length(3) != yShape[3]) {
            return error(
                INVALID_VALUE,
                "Convolution: packed Winograd planned for %d -> %d channels, got input %d, output %d x %d x %d", mInC,
                mOutC, x->dimensions() > 1 ? x->length(1) : -1, outC, g.output.empty() ? -1 : g.output[0],
                g.output.size() < 2 ? -1 : g.output[1]);
        }
        mBatch = x->length(0);
        mIh = g.input[0];
        mIw = g.input[1];
        mOh = g.output[0];
        mOw = g.output[1];
        mPadTop = g.padBegin[0];
        mPadLeft = g.padBegin[1];
        mInPacked = isCpuPacked(x);
        if (mS2d) {
            // the r x r window's input: the space-to-depth plane of (oh + r - 1) x (ow + r - 1)
            // positions, the pads inside it (spaceToDepth)
            mSrcH = mIh;
            mSrcW = mIw;
            mSrcPadTop = mPadTop;
            mSrcPadLeft = mPadLeft;
            mSrcPacked = mInPacked;
            mIh = mOh + mR - 1;
            mIw = mOw + mR - 1;
            mPadTop = mPadLeft = 0;
            mInPacked = false;
        }
        mOutPacked = isCpuPacked(y);
        const int m = mM, P = std::max(1, mFuncs->pcPMax);
        // a tile: mTileY x mTileX outputs (m x m; 1 x m along rows; m x 1 down columns)
        mTileY = mAxis == 1 ? 1 : m;
        mTileX = mAxis == 2 ? 1 : m;
        mTilesX = (int)ceilDiv(mOw, mTileX);
        mTiles = (int)(ceilDiv(mOh, mTileY) * mTilesX);
        // Chunk: the tiles transformed together. Every chunk streams all of U (alpha^2 x Ci x Co),
        // while V and M grow with the chunk, so a chunk is as large as its budget of V and M allows
        // (U's size up to 8 MB where U is large, else kChunkBytesLow), and the tiles are spread evenly.
        // Threads take whole chunks while there are enough of them; otherwise each chunk is also
        // split into groups of output blocks (every group transforms the chunk's input again, which
        // costs little next to its share of the GEMM, and streams only its share of U).
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t perTile = (int64_t)mE * (mCiB + mCoB) * 16 * (int64_t)sizeof(float);
        const bool low = static_cast<CPUBackend*>(backend())->memoryMode() == BackendConfig::Memory_Low;
        // (measured on resnet18, per-op medians in one process: the 4.2 MB U of its 256-channel F(2)
        // layers -7..11% as one chunk of 49 tiles instead of five of 10, the model -1..2.4%; with every
        // U of 1 MB or more (its 64- and 128-channel layers too) in 2 MB chunks it was 5-7% slower)
        // the float size: a half U streams half the bytes, the chunking below keeps the float plan
        const int64_t uBytes = (int64_t)(mU.size() + mUHalf.size()) * (int64_t)sizeof(float);
        // (V and M up to U's size instead of 2 MB where U is 4 MB or more: inception_v3's Mixed_6a
        // 288 -> 384, 7 MB of U over 81 tiles, in one chunk instead of four -7% at one thread, -10%
        // at two (a chunk per thread) on Zen 3; chunks of half U's size were slower than four)
        const int64_t budget =
            !low && uBytes >= kLargeChunkWeightBytes ? std::min(uBytes, kStreamedWeightBytes) : kChunkBytesLow;
        mPrefetch = uBytes >= kPrefetchWeightBytes ? 1 : 0;
        int64_t chunk = std::max<int64_t>(P, budget / perTile / P * P);
        int64_t chunks = mTiles > 0 ? ceilDiv(mTiles, chunk) : 0;
        // fewer chunks than threads with a large U: the threads split the output blocks (each
        // streams its share of U) rather than the tiles (each would stream all of U: resnet50's
        // 512-channel F(2,3) layers at two threads, 16 tiles as two chunks of 8, 0.85 -> 0.59 ms with
        // one chunk of 16 in two groups and the wide tile, in the model)
        const bool splitU = chunks < threads && uBytes >= kLargeChunkWeightBytes;
        if (threads > 1 && chunks > 0 && !splitU) {
            // up to twice the chunks, for a count of items the threads share evenly (squeezenet's
            // 55x55 layers had 5 chunks: 3 for one thread, 2 for the other)
            const int64_t batch = std::max(1, mBatch);
            double best = -1.0;
            int64_t bestChunks = chunks;
            for (int64_t c = chunks; c <= 2 * chunks && c <= mTiles; ++c) {
                const int64_t items = batch * ceilDiv(mTiles, ceilDiv(mTiles, c));
                const double even = (double)items / (double)(threads * ceilDiv(items, threads));
                if (even > best + 0.02) {
                    best = even;
                    bestChunks = ceilDiv(mTiles, ceilDiv(mTiles, c));
                }
            }
            chunks = bestChunks;
        }
        chunk = chunks > 0 ? ceilDiv(mTiles, chunks) : 1;
        const int qGroups = (int)ceilDiv(mCoB, mUQ);
        int groups = 1;
        const int64_t perGroup = (int64_t)std::max(1, mBatch) * chunks;
        while (threads > 1 && groups < qGroups && perGroup * groups < 2 * threads &&
               (perGroup * groups) % threads != 0) {
            ++groups;
        }
        mChunk = (int)std::max<int64_t>(1, chunk);
        mChunks = (int)chunks;
        mGroups = groups;
        mQGroups = qGroups;
        mItems = (int64_t)mBatch * mChunks * mGroups;
        // one task per item, claimed by the threads as they come free (even balance), each taking a
        // scratch slot for its V and M: buffers for as many items as run at once, not for all
        mSlotted = threads > 1 && threads <= ScratchSlots::kMaxSlots && mItems <= (1 << 20);
        mTasks = mSlotted ? (int)mItems
                          : (int)std::max<int64_t>(1, std::min<int64_t>(mItems, threads > 1 ? 2 * threads : 1));
        int64_t buffers = mSlotted ? std::min<int64_t>(threads, mItems) : mTasks;
        if (mPoolFused) {
            // strips of pooled rows, one per thread, each computing the tile rows its rows need
            // (a tile row shared by two strips is computed by both) into a band of convolution rows
            // that the pool reads while they are in cache (poolStrip)
            mPoolGeom = dwPlaneGeom(pg);
            poolInverseCounts(mPoolAttrs, pg, &mPoolInvY, &mPoolInvX);
            const auto& pp = mPoolGeom;
            const int64_t span = (int64_t)(pp.kh - 1) * pp.dh + 1;
            mBandRows = std::min<int64_t>(mOh, span - 1 + mTileY);
            mBandBlock = std::max<int64_t>(1, mBandRows) * mOw * 16;
            mStrips = std::max(1, std::min(pp.oh, threads));
            mGroups = 1;
            mItems = (int64_t)mBatch * mChunks;
            mSlotted = false;
            mTasks = mStrips;
            buffers = mStrips;
        }
        mVEStride = (int64_t)mCiB * mChunk * 16;
        mMEStride = (int64_t)mCoB * mChunk * 16;
        mVFloats = mE * mVEStride;
        mMFloats = mE * mMEStride;
        mInFloats = mInPacked ? 0 : roundUp((int64_t)mBatch * mCiB * mIh * mIw * 16, 16);
        mOutFloats = mOutPacked ? 0 : roundUp((int64_t)mBatch * mCoB * mOh * mOw * 16, 16);
        const int64_t bandFloats = mPoolFused ? mBandBlock * mCoB : 0;
        const int64_t floats = mInFloats + mOutFloats + (mVFloats + mMFloats + bandFloats) * buffers;
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (size_t)floats)) {
            return OUT_OF_MEMORY;
        }
        return NO_ERROR;
    }

    struct Job {
        const CPUConvolutionPackedWinograd* self;
        const float* x;  // packed input
        float* y;        // packed output
        float* work;     // per task: V, M
        void operator()(int task) const;
    };

    /**
     * tiles [t0, t0 + count) (count <= mChunk) of image nb of the packed input x, output blocks
     * [qb0, qb1), with V and M in v and mo: block qb of the tiles' outputs at yb + qb * outPlane, row
     * oy at (oy - oyBase) * ow * 16 (the image's plane from oyBase on)
     */
    void runTiles(const float* x, int nb, int t0, int count, int qb0, int qb1, float* v, float* mo, float* yb,
                  int64_t outPlane, int oyBase) const;

    struct PoolStripJob {
        const CPUConvolutionPackedWinograd* self;
        const float* x;  // packed input
        float* y;        // the pooled output, packed
        float* work;     // per strip: V, M, the band
        void operator()(int strip) const {
            self->poolStrip(x, y, work + (self->mVFloats + self->mMFloats + self->mBandBlock * self->mCoB) * strip,
                            strip);
        }
    };

    /**
     * ConvolutionPool (fusePool): the pooled rows of strip s for every image. The band holds
     * convolution rows [c0, c1) (mBandBlock floats per output block, rows ow * 16 apart); tile rows
     * are appended in order, each pooled row is computed once the band holds its window's rows,
     * and rows no later pooled row reads are dropped before the next tile row.
     */
    void poolStrip(const float* x, float* y, float* work, int s) const {
        const auto& f = *mFuncs;
        const DwPlaneGeom& pp = mPoolGeom;
        float* v = work;
        float* mo = v + mVFloats;
        float* band = mo + mMFloats;
        const int py0 = (int)((int64_t)pp.oh * s / mStrips), py1 = (int)((int64_t)pp.oh * (s + 1) / mStrips);
        const int64_t rowFloats = (int64_t)mOw * 16, yBlock = (int64_t)pp.oh * pp.ow * 16;
        const int isMax = mPoolAttrs.type == Schema::PoolType::MAXPOOL ? 1 : 0;
        PackedPoolRow r = packedPoolRow(pp, isMax, mPoolInvX.data());
        for (int n = 0; n < mBatch; ++n) {
            int c0 = 0, c1 = 0;
            bool started = false;
            for (int oy = py0; oy < py1; ++oy) {
                int k0 = 0, k1 = 0;
                dwValidRows(pp, oy, &k0, &k1);
                // the window's rows inside the convolution's output: [lo, hi)
                const int64_t top = (int64_t)oy * pp.sh - pp.pt;
                const int lo = k1 > k0 ? (int)(top + (int64_t)k0 * pp.dh) : 0;
                const int hi = k1 > k0 ? (int)(top + (int64_t)(k1 - 1) * pp.dh + 1) : 0;
                if (k1 > k0 && (!started || hi > c1)) {
                    // more rows: append tile rows until hi, each after dropping the rows before lo
                    // (the band then holds at most window rows - 1 + tile rows: mBandRows)
                    if (!started || lo >= c1) {
                        c0 = c1 = lo / mTileY * mTileY;
                        started = true;
                    }
                    while (c1 < hi) {
                        if (lo > c0) {
                            for (int q = 0; c1 > lo && q < mCoB; ++q) {
                                float* b = band + q * mBandBlock;
                                memmove(b, b + (int64_t)(lo - c0) * rowFloats, sizeof(float) * (c1 - lo) * rowFloats);
                            }
                            c0 = std::min(lo, c1);
                        }
                        if (c1 - c0 + std::min(mTileY, mOh - c1) > mBandRows) {
                            // the plan's bound (mBandRows) broken: stop rather than write past the band
                            MNN_ERROR("ConvolutionPool: band of %lld rows cannot take rows %d..%d after %d..%d\n",
                                      (long long)mBandRows, c1, c1 + mTileY, c0, c1);
                            return;
                        }
                        const int ty = c1 / mTileY;
                        for (int t = ty * mTilesX; t < (ty + 1) * mTilesX; t += mChunk) {
                            runTiles(x, n, t, std::min(mChunk, (ty + 1) * mTilesX - t), 0, mCoB, v, mo, band,
                                     mBandBlock, c0);
                        }
                        c1 = std::min(mOh, c1 + mTileY);
                    }
                }
                r.rows = k1 - k0;
                r.scaleY = mPoolInvY[oy];
                for (int q = 0; q < mCoB; ++q) {
                    r.x = band + q * mBandBlock + (r.rows > 0 ? (int64_t)(lo - c0) * rowFloats : 0);
                    r.y = y + ((int64_t)n * mCoB + q) * yBlock + (int64_t)oy * pp.ow * 16;
                    f.packedPool(&r);
                }
            }
        }
    }

public:
    /** run the pool p over the convolution's output inside this Execution (ConvolutionPool) */
    void fusePool(const PoolAttrs& p) {
        mPoolFused = true;
        mPoolAttrs = p;
        setAlgo();
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mItems == 0) {
            return NO_ERROR;
        }
        float* scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        const float* x = inputs[0]->host<float>();
        float* y = outputs[0]->host<float>();
        if (mS2d) {
            spaceToDepth(x, scratch);
            x = scratch;
        } else if (!mInPacked) {
            packNC16(x, scratch, mBatch, mInC, (int64_t)mIh * mIw);
            x = scratch;
        }
        float* yp = mOutPacked ? y : scratch + mInFloats;
        if (mPoolFused) {
            PoolStripJob strips{this, x, yp, scratch + mInFloats + mOutFloats};
            parallelFor(mPool, mStrips, strips);
            return NO_ERROR;
        }
        Job job{this, x, yp, scratch + mInFloats + mOutFloats};
        parallelFor(mPool, mTasks, job);
        if (!mOutPacked) {
            unpackNC16(yp, y, mBatch, mOutC, (int64_t)mOh * mOw);
        }
        return NO_ERROR;
    }

    /** the original window's size (s2d) */
    void setKernel(int k) {
        mKernel = k;
    }

private:
    /**
     * z[n][c * 4 + a * 2 + b][u][v] = x[n][c][2u + a - padTop][2v + b - padLeft] (0 outside x), as
     * one packed block of mIh x mIw positions (lanes from 4C on 0): y[oy][ox] = sum over z's channels
     * and p, q < r of W'[..][p][q] z[..][oy + p][ox + q] (prepareWeights' W')
     */
    void spaceToDepth(const float* x, float* z) const {
        // rows of z, in near-equal ranges per thread (a serial pass took 1-2% of resnet18 at one thread)
        struct Rows {
            const CPUConvolutionPackedWinograd* self;
            const float* x;
            float* z;
            int64_t rows, tasks;
            void operator()(int task) const {
                const int64_t r0 = rows * task / tasks, r1 = rows * (task + 1) / tasks;
                for (int64_t r = r0; r < r1; ++r) {
                    self->spaceToDepthRow(x, z, (int)(r / self->mIh), (int)(r % self->mIh));
                }
            }
        };
        const int64_t rows = (int64_t)mBatch * mIh;
        const int threads = mPool ? mPool->threads() : 1;
        Rows job{this, x, z, rows, std::min<int64_t>(rows, threads)};
        parallelFor(mPool, (int)job.tasks, job);
    }

    /** row u of image n of z (spaceToDepth): 16 lanes per position, lanes from 4C on 0 */
    void spaceToDepthRow(const float* x, float* z, int n, int u) const {
        const int64_t srcPlane = (int64_t)mSrcH * mSrcW;
        float* zr = z + ((int64_t)n * mIh + u) * mIw * 16;
        memset(zr, 0, sizeof(float) * mIw * 16);
        const int64_t xs = mSrcPacked ? 16 : 1;  // floats between source columns
        // z columns v whose source columns 2v - padLeft and 2v + 1 - padLeft are both inside x
        const int last = mSrcW - 2 + mSrcPadLeft;  // 2v <= last
        const int v0 = std::min(mIw, (mSrcPadLeft + 1) / 2);
        const int v1 = last < 0 ? v0 : std::max(v0, std::min(mIw, last / 2 + 1));
        for (int c = 0; c < mSrcC; ++c) {
            for (int a = 0; a < 2; ++a) {
                const int iy = 2 * u + a - mSrcPadTop;
                if (iy < 0 || iy >= mSrcH) {
                    continue;  // a pad row: zeros
                }
                const float* xr = mSrcPacked ? x + (n * srcPlane + (int64_t)iy * mSrcW) * 16 + c
                                             : x + ((int64_t)n * mSrcC + c) * srcPlane + (int64_t)iy * mSrcW;
                float* zl = zr + c * 4 + a * 2;
                const float* xv = xr + (int64_t)(2 * v0 - mSrcPadLeft) * xs;
                for (int v = v0; v < v1; ++v, xv += 2 * xs) {
                    zl[(int64_t)v * 16] = xv[0];
                    zl[(int64_t)v * 16 + 1] = xv[xs];
                }
                // the edge columns [0, v0) and [v1, iw), each source column checked
                const auto edge = [&](int e0, int e1) {
                    for (int v = e0; v < e1; ++v) {
                        for (int b = 0; b < 2; ++b) {
                            const int ix = 2 * v + b - mSrcPadLeft;
                            if (ix >= 0 && ix < mSrcW) {
                                zl[(int64_t)v * 16 + b] = xr[(int64_t)ix * xs];
                            }
                        }
                    }
                };
                edge(0, v0);
                edge(v1, mIw);
            }
        }
    }

    ConvAttrs mAttrs;
    const CPUCoreFunctions* mFuncs;
    int mM, mR;     // F(m, r): output tile, kernel size (3 or 5; 1-D windows also 7)
    int mAxis = 0;  // 0: r x r windows; 1: 1 x r; 2: r x 1
    int mStride = 1;                    // 2: a 3x3 window at stride 2 (makeStride2WinogradMatrices)
    // a k x k stride-2 window over mSrcC channels as r x r over the space-to-depth plane (spaceToDepth)
    bool mS2d = false, mSrcPacked = false;
    int mKernel = 0, mSrcC = 0, mSrcH = 0, mSrcW = 0, mSrcPadTop = 0, mSrcPadLeft = 0;
    std::vector<int> mUIndex, mEOrder;  // per transform element: its U; the elements in order of U
    int mE = 0;     // transform elements (GEMMs): alpha^2, 1-D alpha
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    char mAlgo[96];
    // weights
    int mUQ = 0;         // output blocks per U group (prepareWeights): pcQMax, or 1 for the wide tile
    int mWideTiles = 0;  // setWideTiles
    int mAlpha = 0, mInC = 0, mOutC = 0, mCiB = 0, mCoB = 0;
    std::vector<float> mAt, mBt, mBias, mZeroBias;
    LargeVector<float> mU;
    LargeVector<uint16_t> mUHalf;  // U as IEEE half (keepsHalfU; mU is then empty)
    int64_t mUeStride = 0;
    // plan
    int mBatch = 0, mIh = 0, mIw = 0, mOh = 0, mOw = 0, mPadTop = 0, mPadLeft = 0;
    bool mInPacked = true, mOutPacked = true;
    int mTileY = 1, mTileX = 1;  // outputs per tile down / across
    int mTilesX = 0, mTiles = 0, mChunk = 1, mChunks = 0, mTasks = 1, mGroups = 1, mQGroups = 1, mPrefetch = 0;
    bool mSlotted = false;  // one task per item, V and M in a claimed slot (mSlots)
    mutable ScratchSlots mSlots;
    int64_t mItems = 0, mVFloats = 0, mMFloats = 0, mInFloats = 0, mOutFloats = 0;
    int64_t mVEStride = 0, mMEStride = 0;  // floats from V_e / M_e to V_e+1 / M_e+1
    // ConvolutionPool (fusePool): the pool over the convolution's output, its strips and bands
    bool mPoolFused = false;
    PoolAttrs mPoolAttrs;
    DwPlaneGeom mPoolGeom{};
    std::vector<float> mPoolInvY, mPoolInvX;
    int mStrips = 1;
    int64_t mBandRows = 0, mBandBlock = 0;
};

void CPUConvolutionPackedWinograd::Job::operator()(int task) const {
    const auto& w = *self;
    const int T = w.mChunk, qMax = w.mUQ;
    const int slot = w.mSlotted ? w.mSlots.claim() : task;
    float* v = work + (w.mVFloats + w.mMFloats) * slot;
    float* mo = v + w.mVFloats;
    const int64_t outPlane = (int64_t)w.mOh * w.mOw * 16;
    const int64_t i0 = w.mItems * task / w.mTasks, i1 = w.mItems * (task + 1) / w.mTasks;
    for (int64_t item = i0; item < i1; ++item) {
        const int group = (int)(item % w.mGroups);
        const int nb = (int)(item / w.mGroups / w.mChunks);
        const int t0 = (int)(item / w.mGroups % w.mChunks) * T;
        // this group's output blocks: whole Q groups [qb0, qb1)
        const int qb0 = w.mQGroups * group / w.mGroups * qMax;
        const int qb1 = std::min(w.mCoB, w.mQGroups * (group + 1) / w.mGroups * qMax);
        const int count = std::min(T, w.mTiles - t0);
        w.runTiles(x, nb, t0, count, qb0, qb1, v, mo, y + (int64_t)nb * w.mCoB * outPlane, outPlane, 0);
    }
    if (w.mSlotted) {
        w.mSlots.release(slot);
    }
}

void CPUConvolutionPackedWinograd::runTiles(const float* x, int nb, int t0, int count, int qb0, int qb1, float* v,
                                            float* mo, float* yb, int64_t outPlane, int oyBase) const {
    const auto& w = *this;
    const auto& f = *w.mFuncs;
    const int m = w.mM, alpha = w.mAlpha, E = w.mE, T = w.mChunk;
    const int tileY = w.mTileY, tileX = w.mTileX, vertical = w.mAxis == 2 ? 1 : 0;
    // U's groups (mUQ blocks); the wide tile where the chunk is exactly its positions
    const int P = w.mUQ == 1 && count == f.pcWideP ? f.pcWideP : std::max(1, f.pcPMax), qMax = w.mUQ;
    const int64_t vE = w.mVEStride, mE = w.mMEStride, blk = (int64_t)T * 16;
    const int64_t inPlane = (int64_t)w.mIh * w.mIw * 16;
    const int32_t tap0 = 0;
    const int kLast = w.mInC - (w.mCiB - 1) * 16;
    const float* xb = x + (int64_t)nb * w.mCiB * inPlane;
    // input transform, per block and run of tiles on one tile row
    for (int kb = 0; kb < w.mCiB; ++kb) {
        for (int t = t0; t < t0 + count;) {
            const int ty = t / w.mTilesX, tx = t % w.mTilesX;
            const int n = std::min(t0 + count - t, w.mTilesX - tx);
            const float* xk = xb + kb * inPlane;
            const int S = w.mStride;
            const int iy0 = ty * tileY * S - w.mPadTop, ix0 = tx * tileX * S - w.mPadLeft;
            float* vt = v + kb * blk + (int64_t)(t - t0) * 16;
            if (w.mAxis == 0) {
                f.pwinoInput(xk, w.mIh, w.mIw, iy0, ix0, m * S, n, w.mBt.data(), alpha, vt, vE);
            } else {
                f.pwinoInput1d(xk, w.mIh, w.mIw, iy0, ix0, m, n, vertical, w.mBt.data(), alpha, vt, vE);
            }
            t += n;
        }
    }
    // M_e = V_e U_e: tiles of P positions x Q output blocks
    PackedConvTile tile;
    tile.xPosStride = 16;
    tile.xBlockStride = blk;
    tile.kBlocks = w.mCiB;
    tile.kLast = kLast;
    tile.tapOff = &tap0;
    tile.tapIdx = &tap0;
    tile.taps = 1;
    tile.tapsAll = 1;
    tile.bias = w.mZeroBias.data();
    tile.yBlockStride = blk;
    tile.accumulate = 0;
    tile.post = nullptr;
    tile.prefetch = w.mPrefetch;
    const bool runsOk = w.mCiB <= kGemmRunBlocks;
    for (int ei = 0; ei < E; ++ei) {
        const int e = w.mEOrder[(size_t)ei];
        for (int qb = qb0; qb < qb1; qb += qMax) {
            tile.Q = std::min(qMax, qb1 - qb);
            const int64_t uOff = w.mUIndex[(size_t)e] * w.mUeStride + (int64_t)qb * w.mCiB * 256;
            tile.w = w.mUHalf.empty() ? w.mU.data() + uOff : nullptr;
            tile.wHalf = w.mUHalf.empty() ? nullptr : w.mUHalf.data() + uOff;
            for (int p = 0; p < count;) {
                tile.P = std::min(P, count - p);
                tile.runs = runsOk && tile.P == P ? std::min(kGemmRuns, (count - p) / P) : 1;
                tile.x = v + e * vE + (int64_t)p * 16;
                tile.y = mo + e * mE + qb * blk + (int64_t)p * 16;
                f.packedConv(&tile);
                p += tile.P * tile.runs;
            }
        }
    }
    // output transform, per block and run of tiles on one tile row
    const GemmPost* post = w.mPost.act ? &w.mPost : nullptr;
    for (int qb = qb0; qb < qb1; ++qb) {
        for (int t = t0; t < t0 + count;) {
            const int ty = t / w.mTilesX, tx = t % w.mTilesX;
            const int n = std::min(t0 + count - t, w.mTilesX - tx);
            const int oy = ty * tileY, ox = tx * tileX;
            const float* ot = mo + qb * blk + (int64_t)(t - t0) * 16;
            float* yt = yb + qb * outPlane + ((int64_t)(oy - oyBase) * w.mOw + ox) * 16;
            const int rows = std::min(tileY, w.mOh - oy), cols = std::min(n * tileX, w.mOw - ox);
            if (w.mAxis == 0) {
                f.pwinoOutput(ot, mE, w.mAt.data(), alpha, m, n, w.mBias.data() + qb * 16, yt, (int64_t)w.mOw * 16,
                              rows, cols, post);
            } else {
                f.pwinoOutput1d(ot, mE, w.mAt.data(), alpha, m, n, vertical, w.mBias.data() + qb * 16, yt,
                                (int64_t)w.mOw * 16, rows, cols, post);
            }
            t += n;
        }
    }
}

}  // namespace

bool keepsHalfU(const CPUCoreFunctions& f, bool high, int alpha, double uBytes, int64_t tiles) {
    const bool shape = alpha == 4 || (alpha == 6 && f.pwHalfF4 && tiles > 0 && tiles <= kHalfF4MaxTiles);
    return !high && shape && uBytes >= (double)kStreamedWeightBytes && f.pcHalfTileP >= f.pcPMax;
}

namespace {
/** keepsHalfU for F(m) on s: its tiles per image count for an r x r window at stride 1 only */
bool keepsHalfUFor(int m, const PackedWinogradShape& s, double uBytes) {
    const int64_t tiles = s.axis == 0 && s.stride == 1 ? ceilDiv(s.oh, m) * ceilDiv(s.ow, m) : 0;
    return keepsHalfU(*s.funcs, s.high, winogradAlpha(m, s), uBytes, tiles);
}
}  // namespace

int winogradAlpha(int m, const PackedWinogradShape& s) {
    return s.stride == 2 ? 2 * m + 1 : m + s.r - 1;
}

bool winogradOffers(int m, const PackedWinogradShape& s) {
    // F(3,3) (alpha 5) and F(5,3) (alpha 7) on 3x3 windows here only (their transforms:
    // PackedWinogradKernels.inl); the plain path keeps F(2), F(4), F(6). F(5,3) covers planes of a
    // multiple of 5 without F(6)'s or F(4)'s overhang (inception_v3's 35x35 layers: 36 / 36 outputs
    // per row computed against 35; squeezenet's 55x55: 60 / 56 against 55)
    const bool f33 = (m == 3 || m == 5) && s.axis == 0 && s.r == 3;
    const bool unit = s.stride == 2 ? m == 2 || m == 3 : WinogradConv::supportedUnit(m) || f33;
    return unit && winogradAlpha(m, s) <= maxWinogradAlpha(s.axis);
}

int winogradDistinctU(int m, const PackedWinogradShape& s) {
    const int alpha = winogradAlpha(m, s);
    return s.stride == 2 ? (m + 2) * (m + 2) : s.axis == 0 ? alpha * alpha : alpha;
}

double packedWinogradCost(int m, const PackedWinogradShape& s) {
    // unit: one multiply-add lane of the GEMM micro-kernel (WinogradConv::cost's unit). The windows
    // are loaded as 16-channel vectors: ~1 unit per element where the plain path pays ~10 per
    // gathered / scattered scalar (times the tier's pw3x3.transform)
    const Packed3x3Costs& k = s.funcs->pw3x3;
    const int64_t alpha = winogradAlpha(m, s);
    // 1-D windows (axis 1 / 2): tiles of 1 x m / m x 1, alpha GEMMs, one alpha x alpha (m x alpha) pass
    const int64_t tileY = s.axis == 1 ? 1 : m, tileX = s.axis == 2 ? 1 : m;
    const double E = s.axis == 0 ? (double)(alpha * alpha) : (double)alpha;
    const double tiles = (double)ceilDiv(s.oh, tileY) * ceilDiv(s.ow, tileX);
    const double gemmTiles = s.lowMemory ? (double)roundUp((int64_t)tiles, std::max(1, s.pMax)) : tiles;
    const double cin16 = roundUp(s.inC, 16), cout16 = roundUp(s.outC, 16);
    const double gemm = WinogradConv::kGemmFactor * E * cout16 * gemmTiles * s.inC;
    // lane-ops per tile and channel; at stride 2 B^T and A^T are F(m, 2)'s on the even samples and
    // single 1s on the odd ones: per pass alpha x ((m + 1)^2 + m) input terms, m (m + 2) output terms per row
    double inOps, outOps;
    if (s.stride == 2) {
        inOps = 2.0 * alpha * ((m + 1) * (m + 1) + m);
        outOps = (double)alpha * m * (m + 2) + (double)m * m * (m + 2) + m * m;
    } else if (s.axis == 0) {
        inOps = (double)(alpha * alpha + alpha * alpha * alpha);
        outOps = (double)(alpha * alpha * m + m * m * alpha + m * m);
    } else {
        inOps = (double)(alpha * alpha);
        outOps = (double)(alpha * m + m);
    }
    const double in = tiles * cin16 * inOps, out = tiles * cout16 * outOps;
    const double uFloats = (double)winogradDistinctU(m, s) * s.inC * cout16;
    const double streamed = keepsHalfUFor(m, s, 4.0 * uFloats) ? uFloats / 2 : uFloats;  // float-sized
    const double weights = s.lowMemory || s.streamWeights ? k.uWeight * streamed : 0.0;
    return s.batch * (gemm + k.transform * (in + out)) + weights;
}

double packedDirect3x3Cost(const PackedWinogradShape& s) {
    const Packed3x3Costs& k = s.funcs->pw3x3;
    const double cout16 = roundUp(s.outC, 16);
    const double taps = s.axis == 0 ? (double)s.r * s.r : (double)s.r;
    const double weights = k.directWeight * taps * s.inC * cout16;
    const double mac = k.directMac * (s.stride == 2 ? k.directStride2 : 1.0);
    if (!s.lowMemory) {
        return (double)s.batch * mac * taps * s.inC * cout16 * s.oh * s.ow + (s.streamWeights ? weights : 0.0);
    }
    const double rows = (double)s.oh * roundUp(s.ow, std::max(1, s.pMax));
    return (double)s.batch * mac * taps * s.inC * cout16 * rows + weights;
}

// the planner's limits stay within the compile-time tables' (the 1-D transform buffers are sized by them)
static_assert(kMaxWinogradAlpha <= wino::kMaxAlpha && kMaxWinogradAlpha1d <= wino::kMaxAlpha, "Winograd alpha limits");

namespace {

/**
 * A 7x7 or 8x8 window at stride 2 over at most 4 channels (the RGB stems of resnet18 / resnet50) as
 * a 4x4 window at stride 1 over the 4C <= 16 channels of its 2x2 space-to-depth input, by F(4x4,
 * 4x4) (alpha 7): 49 GEMMs of one input block per 16 outputs, 49 * 16 / 16 = 49 multiply-add lanes
 * per output and output channel against the direct kernel's 7 kernel rows of 21 lanes folded into
 * 2 blocks (CPUConvolutionPacked's row fold: 224 per output). Offered below Precision_High (alpha 7
 * rounds like F(4,5)'s alpha 8, not like F(2,3)) on planes of at least kStride2MinTiles tiles, or
 * forced by MNN_CONV_ALGO=winograd / winograd4.
 */
CPUConvolutionPackedWinograd* createSpaceToDepthWinograd(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs,
                                                         const WindowGeometry& g, int outC, int forced,
                                                         Backend* backend) {
    constexpr int kM = 4, kR = 4;
    if (g.input.size() != 2 || g.kernel[0] != g.kernel[1] || g.kernel[0] < 2 * kR - 1 || g.kernel[0] > 2 * kR ||
        g.strides[0] != 2 || g.strides[1] != 2 || g.dilations[0] != 1 || g.dilations[1] != 1 || g.padBegin[0] < 0 ||
        g.padBegin[1] < 0 || inputs[0]->length(1) > 4 || (forced > 0 && forced != kM)) {
        return nullptr;
    }
    const int64_t tiles = ceilDiv(g.output[0], kM) * ceilDiv(g.output[1], kM);
    const bool high = CPUUtils::highPrecision(backend);
    if (forced == 0 && (high || tiles < kStride2MinTiles)) {
        return nullptr;
    }
    // the space-to-depth plane ((oh + 3) x (ow + 3) positions of 16 floats) as the packed input's
    if ((double)(g.output[0] + kR) * (g.output[1] + kR) * inputs[0]->length(0) > 1e9) {
        return nullptr;
    }
    const auto& f = cpuCoreFunctions();
    if (!f.pwinoInput || !f.pwinoOutput || !f.packedConv) {
        return nullptr;
    }
    auto* exe = new CPUConvolutionPackedWinograd(backend, attrs, f, kM, kR, 0, 1, true);
    exe->setKernel(g.kernel[0]);
    const bool hasBias = inputs.size() > 2 && inputs[2];
    if (!exe->prepareWeights(inputs[1]->host<float>(), hasBias ? inputs[2]->host<float>() : nullptr,
                             inputs[0]->length(1), outC)) {
        delete exe;
        return nullptr;
    }
    return exe;
}

/**
 * ConvolutionPool: the pool runs inside the Winograd Execution (fusePool: strips of pooled rows over
 * bands of convolution rows in cache) where, for the shapes at creation, every thread gets at least
 * two pooled rows and a strip's band of (window rows - 1 + tile rows) rows fits in kFusedBandBytes;
 * else the pair (convolution into an intermediate, then the pool) runs. resnet18's stem (112x112x64
 * into 56x56): the pair wrote and re-read 3.2 MB
 */
constexpr double kFusedBandBytes = 1024.0 * 1024.0;

Execution* withPool(CPUConvolutionPackedWinograd* exe, const std::vector<Tensor*>& inputs, const WindowGeometry& g,
                    int outC, int tileY, const PoolAttrs* pool, bool* pooled, Backend* backend) {
    if (!pool) {
        return exe;
    }
    WindowGeometry pg;
    std::string err;
    if (!resolvePool(*pool, {inputs[0]->length(0), outC, g.output[0], g.output[1]}, &pg, &err) ||
        pg.input.size() != 2) {
        return exe;  // the pair's pool reports it
    }
    auto* tp = static_cast<CPUBackend*>(backend)->threadPool();
    const int threads = tp ? tp->threads() : 1;
    const double span = (double)(pg.kernel[0] - 1) * pg.dilations[0] + 1;
    const double band = (span - 1 + tileY) * g.output[1] * roundUp(outC, 16) * sizeof(float);
    if (pg.output[0] >= 2 * threads && band <= kFusedBandBytes) {
        exe->fusePool(*pool);
        if (pooled) {
            *pooled = true;
        }
    }
    return exe;
}

}  // namespace

Execution* createPackedWinograd(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                const ConvAttrs& attrs, Backend* backend, const PoolAttrs* pool, bool* pooled) {
    const int forced = forcedUnit();
    if (forced == -2 || inputs.size() < 2 || outputs.size() != 1 || !inputs[0] || !CPUUtils::isFloat(inputs[0]) ||
        inputs[0]->dimensions() != 4 || !isConstFloat(inputs[1]) || inputs[1]->dimensions() != 4 ||
        (inputs.size() > 2 && inputs[2] && !isConstFloat(inputs[2])) || attrs.group != 1) {
        return nullptr;
    }
    std::vector<int> biasShape;
    const bool hasBias = inputs.size() > 2 && inputs[2];
    if (hasBias) {
        biasShape = TensorUtils::shape(inputs[2]);
    }
    WindowGeometry g;
    int outC = 0;
    std::string err;
    if (!resolveConv(attrs, false, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]),
                     hasBias ? &biasShape : nullptr, &g, &outC, &err)) {
        return nullptr;  // the caller's path reports it
    }
    const int kh = g.kernel.size() == 2 ? g.kernel[0] : 0, kw = g.kernel.size() == 2 ? g.kernel[1] : 0;
    if (auto stem = createSpaceToDepthWinograd(inputs, attrs, g, outC, forced, backend)) {
        return withPool(stem, inputs, g, outC, 4, pool, pooled, backend);
    }
    // windows r x r (r = 3, 5), 1 x r or r x 1 (r = 3, 5, 7: inception_v3's 1x7 / 7x1 / 1x3 / 3x1)
    const int axis = kh == kw ? 0 : kh == 1 ? 1 : kw == 1 ? 2 : -1;
    const int r = axis == 2 ? kh : kw;
    const bool sizeOk = axis == 0 ? (r == 3 || r == 5) : axis > 0 && (r == 3 || r == 5 || r == 7);
    // stride 2: 3x3 windows only (makeStride2WinogradMatrices)
    const int stride = g.input.size() == 2 && g.strides[0] == g.strides[1] ? g.strides[0] : 0;
    if (g.input.size() != 2 || !sizeOk || !(stride == 1 || (stride == 2 && axis == 0 && r == 3)) ||
        g.dilations[0] != 1 || g.dilations[1] != 1 || g.padBegin[0] < 0 || g.padBegin[1] < 0) {
        return nullptr;
    }
    const auto& f = cpuCoreFunctions();
    if (!f.pwinoInput || !f.pwinoOutput || !f.pwinoInput1d || !f.pwinoOutput1d || !f.packedConv) {
        return nullptr;
    }
    PackedWinogradShape s;
    s.batch = inputs[0]->length(0);
    s.inC = inputs[0]->length(1);
    s.outC = outC;
    s.oh = g.output[0];
    s.ow = g.output[1];
    s.pMax = f.pcPMax;
    s.funcs = &f;
    s.r = r;
    s.axis = axis;
    s.stride = stride;
    int unit = 0;
    if (forced > 0) {
        unit = winogradOffers(forced, s) ? forced : 0;
    } else {
        // Precision_High: alpha 4 only, as the plain Winograd (CPUConvolutionFast.cpp says why)
        const bool high = CPUUtils::highPrecision(backend);
        const auto memory = static_cast<CPUBackend*>(backend)->memoryMode();
        s.lowMemory = memory == BackendConfig::Memory_Low;
        s.streamWeights = memory != BackendConfig::Memory_High;
        s.high = high;
        double best = forced < 0 ? 1e300 : packedDirect3x3Cost(s);
        for (int m : {2, 3, 4, 5, 6}) {
            // alpha <= 8 (1-D: 12); Precision_High: alpha 4 only (F(2,3); F(2,5)'s alpha 6 rounds
            // like F(4,3)); stride 2 (m = 2, 3): the F(m, 2) part's alpha m + 1 counts
            const int roundAlpha = stride == 2 ? m + 1 : winogradAlpha(m, s);
            if (!winogradOffers(m, s) || (high && roundAlpha > 4)) {
                continue;
            }
            if (stride == 2 && ceilDiv(s.oh, m) * ceilDiv(s.ow, m) < kStride2MinTiles) {
                continue;
            }
            // Memory_Normal: F(4) / F(6) only while their transformed weights stay under the cap
            // (F(4) holds 9 MB for 256 channels, 38 MB for 512); F(2) (16 / 9 of the direct
            // weights) always competes
            const double uBytes = 4.0 * winogradDistinctU(m, s) * s.inC * roundUp(s.outC, 16);
            const bool half = keepsHalfUFor(m, s, uBytes);
            if (memory == BackendConfig::Memory_Normal && m > 2 &&
                (half ? uBytes / 2 > kWinogradHalfCapBytes : uBytes > kWinogradWeightCapBytes)) {
                continue;
            }
            const double c = packedWinogradCost(m, s);
            if (c < best) {
                best = c;
                unit = m;
            }
        }
    }
    if (unit == 0) {
        return nullptr;
    }
    auto* exe = new CPUConvolutionPackedWinograd(backend, attrs, f, unit, r, axis, stride);
    if (axis == 0) {
        exe->setWideTiles(ceilDiv(s.oh, unit) * ceilDiv(s.ow, unit));
    }
    if (!exe->prepareWeights(inputs[1]->host<float>(), hasBias ? inputs[2]->host<float>() : nullptr, s.inC, outC)) {
        delete exe;
        return nullptr;
    }
    return withPool(exe, inputs, g, outC, axis == 1 ? 1 : unit, pool, pooled, backend);
}

}  // namespace MNN
