// 2-D Max / Average pooling (and the global forms) on the packed layout NC16HW16: the table's
// poolpack kernel computes one output row of one 16-channel block, vectorised across the block's
// channels, with the window clipped at the borders (no padded copy). Semantics of the plain kernels
// (CPUPoolingFast.cpp): Max propagates NaN and gives the lowest float for a window with nothing
// inside; Average divides by the inside count, or with count_include_pad by the count inside
// [-padBegin, in + padEnd) per dimension (ceil_mode's extra positions never count). Work items:
// (batch x block x band of output rows) over the backend's pool.
#include <stdio.h>
#include <algorithm>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"
#include "CPUPackedOps.hpp"

namespace MNN {

namespace {

/**
 * the fewest window taps x lanes per task of a pool at several threads (a few microseconds): with a
 * task per (plane, band) item, each claimed by its own atomic exchange between the cores, a small
 * pool's claims cost more than its sums (Intel Xeon, 2 threads, medians of alternating sessions: the
 * final 7x7 global pools of mobilenet_v3 / efficientnet_b0 / resnet50, 80-128 items of 49 positions,
 * 19 / 23 / 42 -> 11 / 17 / 32 us; mobilenet_v3's 7x7 squeeze-excite pools 9-12 -> 3-4 us; pools of
 * more work keep a task per item)
 */
constexpr double kMinTaskWork = 16384.0;

struct PackedPoolJob {
    const CPUCoreFunctions* f;
    const DwPlaneGeom* g;
    const float* x;
    float* y;
    const float* invY;
    const float* invX;
    int isMax, bands;
    void operator()(int t) const {
        const int plane = t / bands, band = t % bands;
        const int oy0 = (int)((int64_t)g->oh * band / bands), oy1 = (int)((int64_t)g->oh * (band + 1) / bands);
        const float* xp = x + (int64_t)plane * g->ih * g->iw * 16;
        PackedPoolRow r = packedPoolRow(*g, isMax, invX);
        for (int oy = oy0; oy < oy1; ++oy) {
            const int i0 = oy * g->sh - g->pt;
            const int k0 = i0 < 0 ? (-i0 + g->dh - 1) / g->dh : 0;
            const int k1 = std::max(k0, g->ih - 1 - i0 < 0 ? 0 : std::min(g->kh, (g->ih - 1 - i0) / g->dh + 1));
            r.rows = k1 - k0;
            r.x = r.rows > 0 ? xp + (int64_t)(i0 + k0 * g->dh) * g->iw * 16 : xp;
            r.scaleY = invY[oy];
            r.y = y + ((int64_t)plane * g->oh + oy) * g->ow * 16;
            f->packedPool(&r);
        }
    }
};

class CPUPoolingPacked : public Execution {
public:
    CPUPoolingPacked(Backend* b, const PoolAttrs& a) : Execution(b), mAttrs(a) {
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        snprintf(mAlgo, sizeof(mAlgo), "packed-pool");
    }
    const char* algorithm() const override {
        return mAlgo;
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        WindowGeometry geom;
        if (!resolvePool(mAttrs, TensorUtils::shape(inputs[0]), &geom, &err)) {
            return error(INVALID_VALUE, "Pooling %s: %s", TensorUtils::describe(outputs[0])->name.c_str(), err.c_str());
        }
        if (geom.input.size() != 2) {
            return error(NOT_SUPPORT, "Pooling %s: the packed kernel needs 2-D input, got %d spatial dims",
                         TensorUtils::describe(outputs[0])->name.c_str(), (int)geom.input.size());
        }
        mGeom = dwPlaneGeom(geom);  // the same row geometry as the packed depthwise kernel
        const auto& g = mGeom;
        poolInverseCounts(mAttrs, geom, &mInvY, &mInvX);
        const int blocks = packedBlocks(inputs[0]->length(1));
        const int64_t planes = (int64_t)inputs[0]->length(0) * blocks;
        if (planes > (1 << 22)) {
            return error(INVALID_VALUE, "Pooling %s: %lld planes are too many for the packed kernel",
                         TensorUtils::describe(outputs[0])->name.c_str(), (long long)planes);
        }
        mPlanes = (int)planes;
        const int threads = mPool ? mPool->threads() : 1;
        mBands = 1;
        if (threads > 1 && planes > 0 && planes < 4 * threads) {
            mBands = (int)std::min<int64_t>(std::max(g.oh, 1), (4 * threads + planes - 1) / planes);
        }
        mItemWork = (double)g.oh * g.ow * g.kh * g.kw * kCpuPack / mBands;
        mFuncs = &cpuCoreFunctions();
        snprintf(mAlgo, sizeof(mAlgo), "packed-pool %s %s", mFuncs->packedPoolName,
                 mAttrs.type == Schema::PoolType::MAXPOOL ? "max" : "avg");
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        PackedPoolJob job;
        job.f = mFuncs;
        job.g = &mGeom;
        job.x = inputs[0]->host<float>();
        job.y = outputs[0]->host<float>();
        job.invY = mInvY.data();
        job.invX = mInvX.data();
        job.isMax = mAttrs.type == Schema::PoolType::MAXPOOL ? 1 : 0;
        job.bands = mBands;
        // items (plane, band) in tasks of at least kMinTaskWork window taps x lanes
        parallelForItems(mPool, (int64_t)mPlanes * mBands, mItemWork, kMinTaskWork, job);
        return NO_ERROR;
    }

private:
    PoolAttrs mAttrs;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    DwPlaneGeom mGeom{};
    int mPlanes = 0, mBands = 1;
    double mItemWork = 0.0;  // window taps x lanes of one (plane, band) item
    std::vector<float> mInvY, mInvX;
    char mAlgo[64];
};

bool isFloat4d(const Tensor* t) {
    return t && t->dimensions() == 4 && t->getType() == halide_type_of<float>();
}

}  // namespace

PackedPoolRow packedPoolRow(const DwPlaneGeom& g, int isMax, const float* invX) {
    PackedPoolRow r;
    setRowGeometry(&r, g);
    r.isMax = isMax;
    r.invX = invX;
    return r;
}

void poolInverseCounts(const PoolAttrs& attrs, const WindowGeometry& geom, std::vector<float>* invY,
                       std::vector<float>* invX) {
    // per dimension: 1 / (inside count, or the count inside [-padBegin, in + padEnd))
    auto inverse = [&](int d, std::vector<float>* inv) {
        inv->assign((size_t)geom.output[d], 0.0f);
        for (int o = 0; o < geom.output[d]; ++o) {
            int inside = 0, padded = 0;
            for (int k = 0; k < geom.kernel[d]; ++k) {
                const int64_t i = (int64_t)o * geom.strides[d] - geom.padBegin[d] + (int64_t)k * geom.dilations[d];
                inside += (i >= 0 && i < geom.input[d]) ? 1 : 0;
                padded += (i >= -geom.padBegin[d] && i < (int64_t)geom.input[d] + geom.padEnd[d]) ? 1 : 0;
            }
            const int n = attrs.countIncludePad ? padded : inside;
            (*inv)[(size_t)o] = n > 0 ? 1.0f / (float)n : 0.0f;
        }
    };
    inverse(0, invY);
    inverse(1, invX);
}

Execution* createPackedPooling(const PoolAttrs& attrs, Backend* backend) {
    if (attrs.type != Schema::PoolType::MAXPOOL && attrs.type != Schema::PoolType::AVERAGEPOOL) {
        return nullptr;
    }
    return new CPUPoolingPacked(backend, attrs);
}

bool packedPoolingSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!op || op->type() != Schema::OpType::Pooling || inputs.size() != 1 || outputs.size() != 1 ||
        !isFloat4d(inputs[0]) || !isFloat4d(outputs[0])) {
        return false;
    }
    PoolAttrs attrs;
    attrs.load(op->param_as_PoolParam());
    return attrs.type == Schema::PoolType::MAXPOOL || attrs.type == Schema::PoolType::AVERAGEPOOL;
}

Execution* createPackedPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                               const Schema::Op* op, Backend* backend) {
    if (!packedPoolingSupported(op, inputs, outputs) || !isCpuPacked(inputs[0]) || !isCpuPacked(outputs[0])) {
        return nullptr;
    }
    PoolAttrs attrs;
    attrs.load(op->param_as_PoolParam());
    return new CPUPoolingPacked(backend, attrs);
}

}  // namespace MNN
