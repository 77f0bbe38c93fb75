// PointwiseDepthwise on the packed layout NC16HW16 in row bands: the expanded tensor [N, E, H, W]
// (the widest of an inverted residual block, 4.8 MB at mobilenet_v2's 112x112 stage) is never stored
// whole. A work item is (image, set of groups of Q mid blocks, range of output rows); it walks its
// rows in bands, and per band each group in turn: the pointwise tile kernel (PackedConvTile, flat
// over the band's new mid rows) writes them into the item's buffer, then the dwpack kernel reads
// them from there. The mid rows a band shares with the next (the depthwise window's overlap) are
// moved to the buffer's top instead of being computed again. Threads get items of several sets
// (nothing is computed twice) and, where the sets are too few, of several row ranges. A plain input
// is packed into scratch first, a plain output is computed into scratch and unpacked. The optional
// mean output M (a squeeze-excite block's global average pool, fused by the converter) is summed
// from each band's output rows right after the depthwise kernel wrote them (in L1 / L2): per item
// and block, then over an image's items in item order, so the bits do not depend on the threads.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <string>
#include <vector>
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

namespace {

/** bytes of one item's band buffer: the mid rows of a band stay in L2 */
constexpr size_t kBandBytes = 256 * 1024;
/**
 * a split whose whole mid plane fits this runs as one band: bands re-read the pointwise weights
 * (884 KB in efficientnet_b0's 7x7 blocks) and their tiles shrink to a row
 */
constexpr size_t kWholeBytes = 1024 * 1024;
/** lines (64 B) of the next group's pointwise weights prefetched into L1 during a group's tiles */
constexpr int64_t kNextWeightLines = 256;
/**
 * the most pointwise pieces one tile call runs (PackedConvTile::runs) where the input has at most
 * kRunInBlocks blocks (CPUConvolutionPacked's kTileRuns / kRunKBlocks: mobilenet_v2's 16 / 24-channel
 * blocks -5..14% on Zen 3)
 */
constexpr int kPieceRuns = 8;
constexpr int kRunInBlocks = 4;
/** Memory_Low: the smallest bands (also how the tests reach many bands on small planes) */
constexpr size_t kBandBytesLow = 16 * 1024;

struct PwDwPlan {
    int n, c, e, h, w;  // X [n, c, h, w], mid [n, e, h, w]
    int inBlocks, midBlocks;
    int qMax, groups;    // mid blocks per group (the tile's Q), groups of them
    int sets;            // the groups in this many sets, one per work item
    int setGroups;       // groups per set (the last may have fewer)
    int splits;          // ranges of output rows per set
    int bandRows;        // output rows per band
    int ringRows;        // mid rows the buffer holds per block
    int64_t ringFloats;  // per item: setGroups * qMax * ringRows * w * 16
    int64_t items;       // sets * splits, per image (the images run one after another)
};

/**
 * Work items for the threads: sets of groups (free: each reads the small input again) times ranges
 * of output rows (each computes its window overlap again). Every (sets, splits) with at most
 * 8 items per thread is scored by the time the threads take when they claim the items in order
 * (list scheduling), an item costing its pointwise and depthwise multiply-adds; the shortest wins,
 * fewer items on a tie. (The earlier fixed "2 items per thread" gave mobilenet_v2's 18-group 14x14
 * blocks sets of 5, 5, 5, 3 groups: one thread did 10, the other 8.)
 */
void planItems(const DwPlaneGeom& g, int threads, PwDwPlan* p) {
    p->sets = 1;
    p->setGroups = p->groups;
    p->splits = 1;
    if (threads <= 1) {
        return;
    }
    const int maxItems = 8 * threads;
    const int maxSplits = std::max(1, std::min(g.oh / 4, maxItems));
    const double pwPerRow = (double)p->w * p->c, dwPerRow = (double)g.ow * g.kh * g.kw;
    double best = -1.0;
    int64_t bestItems = 0;
    std::vector<double> free((size_t)threads);
    for (int wantSets = 1; wantSets <= p->groups && wantSets <= maxItems; ++wantSets) {
        // the most even sets of groups of this count (a count no group size gives is skipped)
        const int setGroups = (p->groups + wantSets - 1) / wantSets;
        const int sets = (p->groups + setGroups - 1) / setGroups;
        if (sets != wantSets) {
            continue;
        }
        for (int splits = 1; splits <= maxSplits; ++splits) {
            const int64_t items = (int64_t)sets * splits;
            if (items > maxItems && items > 1) {
                break;
            }
            std::fill(free.begin(), free.end(), 0.0);
            for (int64_t item = 0; item < items; ++item) {
                const int split = (int)(item % splits), set = (int)(item / splits % sets);
                const int blocks = std::min(p->midBlocks, (set + 1) * setGroups * p->qMax) - set * setGroups * p->qMax;
                const int oyA = (int)((int64_t)g.oh * split / splits),
                          oyB = (int)((int64_t)g.oh * (split + 1) / splits);
                const int midRows = std::min(p->h, (oyB - oyA - 1) * g.sh + (g.kh - 1) * g.dh + 1);
                const double cost = blocks * (midRows * pwPerRow + (oyB - oyA) * dwPerRow);
                auto t = std::min_element(free.begin(), free.end());
                *t += cost;
            }
            const double span = *std::max_element(free.begin(), free.end());
            if (best < 0.0 || span < best * 0.995 || (span <= best * 1.005 && items < bestItems)) {
                best = span;
                bestItems = items;
                p->sets = sets;
                p->setGroups = setGroups;
                p->splits = splits;
            }
        }
    }
}

struct PwDwJob {
    const CPUCoreFunctions* f;
    const PwDwPlan* p;
    const DwPlaneGeom* g;
    const float* x;   // packed [n][inBlocks][h][w][16]
    float* y;         // packed [n][midBlocks][oh][ow][16]
    float* ring;      // items * ringFloats
    int image;        // the image this parallelFor runs
    const float* w1;  // packConvWeights layout
    const float* b1;  // [midBlocks][16]
    const float* w2;  // [midBlocks][taps][16]
    const float* b2;  // [midBlocks][16]
    const GemmPost* post1;
    const GemmPost* post2;
    float* sums;  // null, or per item [set blocks][16]: the sums of the item's output rows (mean output)
    int64_t sumFloats;

    void operator()(int item) const {
        runItem(image, item / p->splits, item % p->splits, ring + (int64_t)item * p->ringFloats,
                sums ? sums + (int64_t)item * sumFloats : nullptr);
    }

    // mid rows [r0, r1) of blocks [qb0, qb0 + Q) into rows [r0 - lo, r1 - lo) of their buffer blocks
    // (buf); the tiles request nextLines lines of next (the next group's weights) between them
    void pointwiseRows(int n, int qb0, int Q, int r0, int r1, int lo, float* buf, const float* next,
                       int64_t nextLines) const {
        // a group of one block of at most 8 channels may take longer tiles (pcPMaxHalf)
        const int halfPMax =
            Q == 1 && qb0 + 1 == p->midBlocks ? halfBlockPMax(*f, p->e - (p->midBlocks - 1) * kCpuPack) : 0;
        const int pMax = halfPMax > 0 ? halfPMax : f->pcPMax;
        const int64_t count = (int64_t)(r1 - r0) * p->w;
        const int64_t pieces = (count + pMax - 1) / pMax;
        static const int32_t zeroTap = 0;
        PackedConvTile t;
        t.xPosStride = kCpuPack;
        t.xBlockStride = (int64_t)p->h * p->w * kCpuPack;
        t.kBlocks = p->inBlocks;
        t.kLast = p->c - (p->inBlocks - 1) * kCpuPack;
        t.tapOff = &zeroTap;
        t.tapIdx = &zeroTap;
        t.taps = 1;
        t.tapsAll = 1;
        t.w = w1 + (int64_t)qb0 * p->inBlocks * kCpuPack * kCpuPack;
        t.bias = b1 + (int64_t)qb0 * kCpuPack;
        t.yBlockStride = (int64_t)p->ringRows * p->w * kCpuPack;
        t.Q = Q;
        t.yLastLanes = qb0 + Q == p->midBlocks ? p->e - (p->midBlocks - 1) * kCpuPack : kCpuPack;
        t.post = post1;
        const float* xr = x + ((int64_t)n * p->inBlocks * p->h + r0) * p->w * kCpuPack;
        float* yr = buf + (int64_t)(r0 - lo) * p->w * kCpuPack;
        int64_t pos = 0;
        SpreadPrefetch prefetch(next, nextLines, pieces);
        const int64_t longer = count % pieces;  // pieces [0, longer) have one position more
        for (int64_t k = 0; k < pieces;) {
            const int P = (int)(count / pieces + (k < longer ? 1 : 0));
            // pieces of equal P in one call, up to kPieceRuns (PackedConvTile::runs)
            const int runs =
                p->inBlocks > kRunInBlocks ? 1 : (int)std::min<int64_t>(kPieceRuns, (k < longer ? longer : pieces) - k);
            for (int r = 0; r < runs; ++r) {
                prefetch.step();
            }
            t.x = xr + pos * kCpuPack;
            t.y = yr + pos * kCpuPack;
            t.P = P;
            t.runs = runs;
            f->packedConv(&t);
            pos += (int64_t)P * runs;
            k += runs;
        }
    }

    // output rows of one split for the groups of one set: bands outer, groups inner, so that a
    // band's input rows are read from cache by every group
    void runItem(int n, int set, int split, float* buf, float* itemSums) const {
        const int gA = set * p->setGroups, gB = std::min(p->groups, gA + p->setGroups);
        const int blkA = gA * p->qMax, blkB = std::min(p->midBlocks, gB * p->qMax);
        if (itemSums) {
            std::fill(itemSums, itemSums + (int64_t)(blkB - blkA) * kCpuPack, 0.0f);
        }
        const int oyA = (int)((int64_t)g->oh * split / p->splits),
                  oyB = (int)((int64_t)g->oh * (split + 1) / p->splits);
        const int64_t rowFloats = (int64_t)p->w * kCpuPack, blockFloats = (int64_t)p->ringRows * rowFloats;
        int bufLo = 0, bufHi = 0;  // mid rows held, at buffer rows [0, bufHi - bufLo)
        bool first = true;
        for (int o0 = oyA; o0 < oyB; o0 += p->bandRows) {
            const int o1 = std::min(oyB, o0 + p->bandRows);
            // mid rows the band's windows touch
            int lo = p->h, hi = 0;
            for (int oy = o0; oy < o1; ++oy) {
                int k0, k1;
                dwValidRows(*g, oy, &k0, &k1);
                if (k1 > k0) {
                    lo = std::min(lo, oy * g->sh - g->pt + k0 * g->dh);
                    hi = std::max(hi, oy * g->sh - g->pt + (k1 - 1) * g->dh + 1);
                }
            }
            int newLo = 0, newHi = 0;  // mid rows to compute
            if (hi > lo) {
                // while windows start in the top padding the first row a window needs is not monotonic
                // (with dilation a later row may need a row above this band's lo): keep from row 0
                const int keepFrom = o0 * g->sh - g->pt < 0 ? 0 : lo;
                if (first || keepFrom >= bufHi) {
                    bufLo = bufHi = keepFrom;
                } else if (keepFrom > bufLo) {
                    // keep [keepFrom, bufHi): the overlap with the previous band
                    const int keep = bufHi - keepFrom;
                    for (int blk = blkA; blk < blkB; ++blk) {
                        float* b = buf + (blk - blkA) * blockFloats;
                        memmove(b, b + (int64_t)(keepFrom - bufLo) * rowFloats,
                                sizeof(float) * (size_t)(keep * rowFloats));
                    }
                    bufLo = keepFrom;
                }
                first = false;
                newLo = bufHi;
                newHi = std::max(hi, bufHi);
                bufHi = newHi;
            }
            for (int grp = gA; grp < gB; ++grp) {
                const int qb0 = grp * p->qMax, Q = std::min(p->qMax, p->midBlocks - qb0);
                float* gbuf = buf + (qb0 - blkA) * blockFloats;
                if (newHi > newLo) {
                    // the next group's pointwise weights (up to 16 KB) are requested into L1 while
                    // this group's tiles run (mobilenet_v2's 14x14 and 7x7 blocks -6..22%,
                    // mobilenet_v3 / efficientnet_b0's blocks -1..2% on Zen 3, per-op medians)
                    const int gn = grp + 1 < gB ? grp + 1 : gA;
                    const int qn = gn * p->qMax, Qn = std::min(p->qMax, p->midBlocks - qn);
                    pointwiseRows(n, qb0, Q, newLo, newHi, bufLo, gbuf,
                                  w1 + (int64_t)qn * p->inBlocks * kCpuPack * kCpuPack,
                                  std::min<int64_t>(kNextWeightLines, (int64_t)p->inBlocks * kCpuPack * Qn));
                }
                for (int q = 0; q < Q; ++q) {
                    const int blk = qb0 + q;
                    float* yb = y + ((int64_t)n * p->midBlocks + blk) * g->oh * g->ow * kCpuPack;
                    packedDwRows(*f, *g, gbuf + q * blockFloats, bufLo, w2 + (int64_t)blk * g->kh * g->kw * kCpuPack,
                                 b2 + (int64_t)blk * kCpuPack, yb, o0, o1, post2);
                    if (itemSums) {
                        f->packedSum(yb + (int64_t)o0 * g->ow * kCpuPack, (int64_t)(o1 - o0) * g->ow,
                                     itemSums + (int64_t)(blk - blkA) * kCpuPack);
                    }
                }
            }
        }
    }
};

class CPUPointwiseDepthwisePacked : public Execution {
public:
    CPUPointwiseDepthwisePacked(Backend* b, const ConvAttrs& pw, const ConvAttrs& dw) : Execution(b), mPw(pw), mDw(dw) {
        mPost1 = CPUUtils::gemmPostFor(pw, b);
        mPost2 = CPUUtils::gemmPostFor(dw, b);
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        snprintf(mAlgo, sizeof(mAlgo), "packed-pwdw");
    }

    const char* algorithm() const override {
        return mAlgo;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* bias2 = inputs.size() > 4 ? inputs[4] : nullptr;
        auto shapeOr = [&](size_t i, std::vector<int>* s) -> const std::vector<int>* {
            if (i >= inputs.size() || !inputs[i]) {
                return nullptr;
            }
            *s = TensorUtils::shape(inputs[i]);
            return s;
        };
        std::vector<int> b1s, b2s;
        const auto* b1 = shapeOr(2, &b1s);
        const auto* b2 = shapeOr(4, &b2s);
        WindowGeometry g1, g2;
        int e = 0;
        std::string err;
        if (!resolvePointwiseDepthwise(mPw, mDw, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]), b1,
                                       TensorUtils::shape(inputs[3]), b2, &g1, &g2, &e, &err)) {
            return error(INVALID_VALUE, "PointwiseDepthwise %s: %s", TensorUtils::describe(outputs[0])->name.c_str(),
                         err.c_str());
        }
        auto& p = mPlan;
        p.n = inputs[0]->length(0);
        p.c = inputs[0]->length(1);
        p.h = inputs[0]->length(2);
        p.w = inputs[0]->length(3);
        p.e = e;
        mGeom = dwPlaneGeom(g2);
        const auto& g = mGeom;
        const double inFloats = (double)p.n * packedBlocks(p.c) * p.h * p.w * kCpuPack;
        const double outFloats = (double)p.n * packedBlocks(e) * g.oh * g.ow * kCpuPack;
        const double rowFloats = (double)p.w * kCpuPack;
        if (inFloats > 9.0e15 || outFloats > 9.0e15 || rowFloats * (g.kh * (double)g.dh + g.sh) * 16 > 2.0e9 ||
            (double)p.h * p.w > 2147483647.0) {
            return error(INVALID_VALUE, "PointwiseDepthwise %s: tensor of %s too large for the banded kernel",
                         TensorUtils::describe(outputs[0])->name.c_str(), TensorUtils::shapeString(inputs[0]).c_str());
        }
        // the weights are constant: packed on the first resize, W1 again only for another tier's tile
        if (&cpuCoreFunctions() != mFuncs || mW1.empty()) {
            mFuncs = &cpuCoreFunctions();
            packConvWeights(*mFuncs, inputs[1]->host<float>(), e, p.c, 1, &mW1);
        }
        if (mW2.empty()) {
            mB1.assign((size_t)packedBlocks(e) * kCpuPack, 0.0f);
            if (inputs[2]) {
                std::copy(inputs[2]->host<float>(), inputs[2]->host<float>() + e, mB1.begin());
            }
            packDepthwiseWeights(inputs[3]->host<float>(), bias2 ? bias2->host<float>() : nullptr, e, g.kh * g.kw, &mW2,
                                 &mB2);
        }
        mPost1.unary = mFuncs->unaryF32;
        mPost2.unary = mFuncs->unaryF32;
        p.inBlocks = packedBlocks(p.c);
        p.midBlocks = packedBlocks(e);
        p.qMax = mFuncs->pcQMax;
        p.groups = (p.midBlocks + p.qMax - 1) / p.qMax;
        const int threads = mPool ? mPool->threads() : 1;
        planItems(g, threads, &p);
        // the largest band whose mid rows fit the budget (at least one output row)
        const size_t budget =
            static_cast<CPUBackend*>(backend())->memoryMode() == BackendConfig::Memory_Low ? kBandBytesLow : kBandBytes;
        const int rowsPerSplit = std::max(1, (g.oh + p.splits - 1) / p.splits);
        const int setBlocks = std::min(p.midBlocks, p.setGroups * p.qMax);
        auto ringRowsFor = [&](int band) { return (band - 1) * g.sh + (g.kh - 1) * g.dh + 1; };
        auto ringBytes = [&](int band) {
            return (double)setBlocks * std::min(ringRowsFor(band), std::max(p.h, 1)) * rowFloats * sizeof(float);
        };
        if (ringBytes(rowsPerSplit) <= (double)kWholeBytes && budget == kBandBytes) {
            // the split's whole mid plane fits L2: one band, every weight of W1 read once per item
            p.bandRows = rowsPerSplit;
        } else {
            p.bandRows = 1;
            while (p.bandRows < rowsPerSplit && ringBytes(p.bandRows + 1) <= (double)budget) {
                ++p.bandRows;
            }
        }
        p.ringRows = std::min(ringRowsFor(p.bandRows), std::max(p.h, 1));
        p.ringFloats = (int64_t)setBlocks * p.ringRows * p.w * kCpuPack;
        p.items = (int64_t)p.sets * p.splits;  // at most 8 per thread (planItems)
        // two threads: the pool's shares are the halves of the items, set-major; where the half
        // falls between sets, thread 1 writes the mid blocks from that set's first on
        int splitBlock = 0;
        if (threads == 2 && p.sets >= 2 && (p.items / 2) % p.splits == 0) {
            splitBlock = std::min(p.midBlocks, (int)(p.items / 2 / p.splits) * p.setGroups * p.qMax);
        }
        TensorUtils::describe(outputs[0])->splitBlock = splitBlock;
        mInPacked = isCpuPacked(inputs[0]);
        mOutPacked = isCpuPacked(outputs[0]);
        mInScratch = mInPacked ? 0 : (int64_t)inFloats;
        mOutScratch = mOutPacked ? 0 : (int64_t)outFloats;
        mMean = outputs.size() > 1;
        mMeanPacked = mMean && isCpuPacked(outputs[1]);
        mSumFloats = mMean ? (int64_t)setBlocks * kCpuPack : 0;
        const size_t scratch =
            sizeof(float) * (size_t)(mInScratch + mOutScratch + p.items * p.ringFloats + p.items * mSumFloats);
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(scratch)) {
            return OUT_OF_MEMORY;
        }
        snprintf(mAlgo, sizeof(mAlgo), "packed-pwdw%s %s %s", mMean ? "+mean" : "", mFuncs->packedConvName,
                 mFuncs->packedDwName);
        return NO_ERROR;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const auto& p = mPlan;
        float* scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        const float* x = inputs[0]->host<float>();
        if (!mInPacked) {
            PackedRepackJob pack{x, scratch, p.c, p.inBlocks, (int64_t)p.h * p.w, true};
            runRepack(mPool, pack, p.n);
            x = scratch;
        }
        float* y = mOutPacked ? outputs[0]->host<float>() : scratch + mInScratch;
        PwDwJob job;
        job.f = mFuncs;
        job.p = &mPlan;
        job.g = &mGeom;
        job.x = x;
        job.y = y;
        job.ring = scratch + mInScratch + mOutScratch;
        job.w1 = mW1.data();
        job.b1 = mB1.data();
        job.w2 = mW2.data();
        job.b2 = mB2.data();
        job.post1 = mPost1.act ? &mPost1 : nullptr;
        job.post2 = mPost2.act ? &mPost2 : nullptr;
        job.sums = mMean ? job.ring + p.items * p.ringFloats : nullptr;
        job.sumFloats = mSumFloats;
        // one image after another: the rings are those of one image's items, whatever the batch
        for (int b = 0; b < p.n && p.items > 0; ++b) {
            job.image = b;
            parallelFor(mPool, (int)p.items, job);
            if (mMean) {
                writeMeans(job.sums, b, outputs[1]->host<float>());
            }
        }
        if (!mOutPacked) {
            PackedRepackJob unpack{y, outputs[0]->host<float>(), p.e, p.midBlocks, (int64_t)mGeom.oh * mGeom.ow, false};
            runRepack(mPool, unpack, p.n);
        }
        return NO_ERROR;
    }

private:
    /** image b's means from its items' sums (sets x splits, summed over the splits in order) into M */
    void writeMeans(const float* sums, int b, float* m) const {
        const auto& p = mPlan;
        const double plane = (double)mGeom.oh * mGeom.ow;
        const float inv = plane > 0.0 ? (float)(1.0 / plane) : 0.0f;
        for (int set = 0; set < p.sets; ++set) {
            const int blkA = set * p.setGroups * p.qMax;
            const int blkB = std::min(p.midBlocks, (set * p.setGroups + p.setGroups) * p.qMax);
            for (int blk = blkA; blk < blkB; ++blk) {
                float acc[kCpuPack] = {};
                for (int split = 0; split < p.splits; ++split) {
                    const float* s = sums + (int64_t)(set * p.splits + split) * mSumFloats + (blk - blkA) * kCpuPack;
                    for (int l = 0; l < kCpuPack; ++l) {
                        acc[l] += s[l];
                    }
                }
                const int lanes = std::min(kCpuPack, p.e - blk * kCpuPack);
                if (mMeanPacked) {
                    float* d = m + ((int64_t)b * p.midBlocks + blk) * kCpuPack;
                    for (int l = 0; l < kCpuPack; ++l) {
                        d[l] = l < lanes ? acc[l] * inv : 0.0f;  // padding lanes 0, as packNC16 leaves them
                    }
                } else {
                    for (int l = 0; l < lanes; ++l) {
                        m[(int64_t)b * p.e + blk * kCpuPack + l] = acc[l] * inv;
                    }
                }
            }
        }
    }

    ConvAttrs mPw, mDw;
    GemmPost mPost1, mPost2;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    PwDwPlan mPlan{};
    DwPlaneGeom mGeom{};
    bool mInPacked = false, mOutPacked = false;
    bool mMean = false, mMeanPacked = false;  // the mean output M, and its layout
    int64_t mInScratch = 0, mOutScratch = 0, mSumFloats = 0;
    LargeVector<float> mW1;
    std::vector<float> mB1, mW2, mB2;
    char mAlgo[96];
};

bool constFloat(const Tensor* t) {
    return t && CPUUtils::isFloat(t) && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT &&
           t->host<float>() != nullptr;
}

bool activationSupported(Schema::FusedActivation a) {
    switch (a) {
        case Schema::FusedActivation::NONE:
        case Schema::FusedActivation::RELU:
        case Schema::FusedActivation::CLIP:
        case Schema::FusedActivation::SILU:
        case Schema::FusedActivation::HARD_SWISH:
            return true;
        default:
            return false;
    }
}

}  // namespace

Execution* createPackedPointwiseDepthwise(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                          const Schema::Op* op, Backend* backend) {
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;  // the adapter runs the plain pair of convolutions
    }
    auto param = op->param_as_PointwiseDepthwiseParam();
    const Tensor* bias2 = inputs.size() > 4 ? inputs[4] : nullptr;
    if (!param || !param->pointwise() || !param->depthwise() || inputs.size() < 4 || inputs.size() > 5 ||
        outputs.empty() || outputs.size() > 2 || !inputs[0] || inputs[0]->dimensions() != 4 ||
        !CPUUtils::isFloat(inputs[0]) || !constFloat(inputs[1]) || !constFloat(inputs[3]) ||
        (inputs[2] && !constFloat(inputs[2])) || (bias2 && !constFloat(bias2))) {
        return nullptr;
    }
    if (!isCpuPacked(inputs[0]) && !isCpuPacked(outputs[0])) {
        return nullptr;
    }
    ConvAttrs pw, dw;
    pw.load(param->pointwise());
    dw.load(param->depthwise());
    if (!activationSupported(pw.activation) || !activationSupported(dw.activation)) {
        return nullptr;
    }
    return new CPUPointwiseDepthwisePacked(backend, pw, dw);
}

}  // namespace MNN
