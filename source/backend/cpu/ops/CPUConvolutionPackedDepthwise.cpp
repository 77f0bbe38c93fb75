// Depthwise convolution (group == input channels == output channels) on the packed layout NC16HW16:
// the table's dwpack kernel computes one output row of one 16-channel block, vectorised across the
// block's channels, with clipped taps at the borders (no padded copy). A plain input is packed into
// scratch first, a plain output is computed into scratch and unpacked. Work items: (batch x block x
// band of output rows) over the backend's pool, band-major.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"
#include "CPUPackedOps.hpp"

namespace MNN {

void dwValidRows(const DwPlaneGeom& g, int oy, int* k0, int* k1) {
    const int i0 = oy * g.sh - g.pt;
    *k0 = i0 < 0 ? (-i0 + g.dh - 1) / g.dh : 0;
    *k1 = g.ih - 1 - i0 < 0 ? 0 : std::min(g.kh, (g.ih - 1 - i0) / g.dh + 1);
    *k1 = std::max(*k1, *k0);
}

DwPlaneGeom dwPlaneGeom(const WindowGeometry& geom) {
    DwPlaneGeom g;
    g.ih = geom.input[0];
    g.iw = geom.input[1];
    g.oh = geom.output[0];
    g.ow = geom.output[1];
    g.kh = geom.kernel[0];
    g.kw = geom.kernel[1];
    g.sh = geom.strides[0];
    g.sw = geom.strides[1];
    g.dh = geom.dilations[0];
    g.dw = geom.dilations[1];
    g.pt = geom.padBegin[0];
    g.pl = geom.padBegin[1];
    // output columns [in0, in1) whose whole window lies inside [0, iw)
    int b = 0;
    while (b < g.ow && b * g.sw - g.pl < 0) {
        ++b;
    }
    int e = b;
    while (e < g.ow && e * g.sw - g.pl + (g.kw - 1) * g.dw < g.iw) {
        ++e;
    }
    g.in0 = b;
    g.in1 = e;
    return g;
}

void packDepthwiseWeights(const float* w, const float* b, int channels, int taps, std::vector<float>* wOut,
                          std::vector<float>* bOut) {
    const int blocks = packedBlocks(channels);
    wOut->assign((size_t)blocks * taps * 16, 0.0f);
    bOut->assign((size_t)blocks * 16, 0.0f);
    for (int ch = 0; ch < channels; ++ch) {
        float* dst = wOut->data() + (int64_t)(ch / 16) * taps * 16 + ch % 16;
        for (int t = 0; t < taps; ++t) {
            dst[t * 16] = w[(int64_t)ch * taps + t];
        }
        (*bOut)[(size_t)ch] = b ? b[ch] : 0.0f;
    }
}

void packedDwRows(const CPUCoreFunctions& f, const DwPlaneGeom& g, const float* x, int rowBase, const float* w,
                  const float* bias, float* y, int oy0, int oy1, const GemmPost* post) {
    PackedDwRow r;
    setRowGeometry(&r, g);
    r.bias = bias;
    r.post = post;
    for (int oy = oy0; oy < oy1; ++oy) {
        int k0, k1;
        dwValidRows(g, oy, &k0, &k1);
        r.rows = k1 - k0;
        r.x = r.rows > 0 ? x + (int64_t)(oy * g.sh - g.pt + k0 * g.dh - rowBase) * g.iw * 16 : x;
        r.w = w + (int64_t)k0 * g.kw * 16;
        r.y = y + (int64_t)oy * g.ow * 16;
        f.packedDw(&r);
    }
}

namespace {

struct PackedDwJob {
    const CPUCoreFunctions* f;
    const DwPlaneGeom* g;
    const float* x;     // packed input, [batch * blocks][ih][iw][16]
    const float* w;     // [blocks][kh * kw][16]
    const float* bias;  // [blocks][16]
    float* y;           // packed output
    const GemmPost* post;
    int blocks, bands, planes;
    /** item t = (band t / planes, plane t % planes): band-major, a thread's share is a range of rows */
    void operator()(int t) const {
        const int plane = t % planes, band = t / planes, blk = plane % blocks;
        const int oy0 = (int)((int64_t)g->oh * band / bands), oy1 = (int)((int64_t)g->oh * (band + 1) / bands);
        const float* xp = x + (int64_t)plane * g->ih * g->iw * 16;
        packedDwRows(*f, *g, xp, 0, w + (int64_t)blk * g->kh * g->kw * 16, bias + (int64_t)blk * 16,
                     y + (int64_t)plane * g->oh * g->ow * 16, oy0, oy1, post);
    }
};

class CPUConvolutionPackedDepthwise : public Execution {
public:
    CPUConvolutionPackedDepthwise(Backend* b, const ConvAttrs& attrs) : Execution(b), mAttrs(attrs) {
        mPost = CPUUtils::gemmPostFor(attrs, b);
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        snprintf(mAlgo, sizeof(mAlgo), "packed-depthwise");
    }

    const char* algorithm() const override {
        return mAlgo;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const bool hasBias = inputs.size() > 2 && inputs[2];
        std::vector<int> biasShape;
        if (hasBias) {
            biasShape = TensorUtils::shape(inputs[2]);
        }
        std::string err;
        WindowGeometry geom;
        int outChannels = 0;
        if (!resolveConv(mAttrs, false, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]),
                         hasBias ? &biasShape : nullptr, &geom, &outChannels, &err)) {
            return error(INVALID_VALUE, "Convolution %s: %s", TensorUtils::describe(outputs[0])->name.c_str(),
                         err.c_str());
        }
        const int c = inputs[0]->length(1);
        if (geom.input.size() != 2 || c != mAttrs.group || outChannels != c) {
            return error(
                NOT_SUPPORT,
                "Convolution %s: the packed depthwise kernel needs 2-D input with group == C == M (C %d, M %d, "
                "group %d)",
                TensorUtils::describe(outputs[0])->name.c_str(), c, outChannels, mAttrs.group);
        }
        mGeom = dwPlaneGeom(geom);
        const auto& g = mGeom;
        mBatch = inputs[0]->length(0);
        mChannels = c;
        mBlocks = packedBlocks(c);
        const int64_t planes = (int64_t)mBatch * mBlocks;
        const double inFloats = (double)planes * g.ih * g.iw * 16, outFloats = (double)planes * g.oh * g.ow * 16;
        if (inFloats > 9.0e15 || outFloats > 9.0e15 || planes > (1 << 22)) {
            return error(INVALID_VALUE, "Convolution %s: tensor too large for the packed depthwise kernel",
                         TensorUtils::describe(outputs[0])->name.c_str());
        }
        // weights [blocks][kh * kw][16] and bias [blocks][16], padding lanes 0
        packDepthwiseWeights(inputs[1]->host<float>(), hasBias ? inputs[2]->host<float>() : nullptr, c, g.kh * g.kw,
                             &mWeights, &mBias);
        mFuncs = &cpuCoreFunctions();
        mPost.unary = mFuncs->unaryF32;
        mInPacked = isCpuPacked(inputs[0]);
        mOutPacked = isCpuPacked(outputs[0]);
        mInScratch = mInPacked ? 0 : (int64_t)inFloats;
        mOutScratch = mOutPacked ? 0 : (int64_t)outFloats;
        // bands of rows so that there are a few items per thread
        const int threads = mPool ? mPool->threads() : 1;
        mBands = 1;
        if (threads > 1 && planes > 0 && planes < 4 * threads) {
            mBands = (int)std::min<int64_t>(std::max(g.oh, 1), (4 * threads + planes - 1) / planes);
        }
        // at two or more threads a band per thread at least: with the items band-major each thread's
        // share (ThreadPool) is then a range of rows over all channels, as the 1x1 layers around it
        // split their positions where the activations outweigh the weights (mobilenet_v2 at two
        // threads -1..1.6%, alternating processes)
        if (threads > 1) {
            mBands = std::max(mBands, std::min(std::max(g.oh, 1), threads));
        }
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (size_t)(mInScratch + mOutScratch))) {
            return OUT_OF_MEMORY;
        }
        snprintf(mAlgo, sizeof(mAlgo), "packed-depthwise %s", mFuncs->packedDwName);
        return NO_ERROR;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        float* scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        const int planes = mBatch * mBlocks;
        const float* x = inputs[0]->host<float>();
        if (!mInPacked) {
            PackedRepackJob pack{x, scratch, mChannels, mBlocks, (int64_t)mGeom.ih * mGeom.iw, true};
            runRepack(mPool, pack, mBatch);
            x = scratch;
        }
        float* y = mOutPacked ? outputs[0]->host<float>() : scratch + mInScratch;
        PackedDwJob job;
        job.f = mFuncs;
        job.g = &mGeom;
        job.x = x;
        job.w = mWeights.data();
        job.bias = mBias.data();
        job.y = y;
        job.post = mPost.act ? &mPost : nullptr;
        job.blocks = mBlocks;
        job.bands = mBands;
        job.planes = planes;
        parallelFor(mPool, planes * mBands, job);
        if (!mOutPacked) {
            PackedRepackJob unpack{y,       outputs[0]->host<float>(),    mChannels,
                                   mBlocks, (int64_t)mGeom.oh * mGeom.ow, false};
            runRepack(mPool, unpack, mBatch);
        }
        return NO_ERROR;
    }

private:
    ConvAttrs mAttrs;
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    DwPlaneGeom mGeom{};
    int mBatch = 0, mChannels = 0, mBlocks = 0, mBands = 1;
    bool mInPacked = false, mOutPacked = false;
    int64_t mInScratch = 0, mOutScratch = 0;
    std::vector<float> mWeights, mBias;
    char mAlgo[64];
};

bool isConstantTensor(const Tensor* t) {
    return t && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT;
}

}  // namespace

Execution* createPackedDepthwise(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const ConvAttrs& attrs, Backend* backend) {
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;
    }
    if (inputs.size() < 2 || outputs.size() != 1 || !inputs[0] || inputs[0]->dimensions() != 4 ||
        inputs[0]->getType() != halide_type_of<float>() || outputs[0]->dimensions() != 4 ||
        outputs[0]->getType() != halide_type_of<float>()) {
        return nullptr;
    }
    const Tensor* w = inputs[1];
    const Tensor* b = inputs.size() > 2 ? inputs[2] : nullptr;
    if (!isConstantTensor(w) || w->getType() != halide_type_of<float>() || w->dimensions() != 4 ||
        (b && (!isConstantTensor(b) || b->getType() != halide_type_of<float>()))) {
        return nullptr;
    }
    const int c = inputs[0]->length(1);
    if (attrs.group <= 1 || c != attrs.group || w->length(0) != c || w->length(1) != 1 || attrs.kernel.size() > 2) {
        return nullptr;
    }
    switch (attrs.activation) {
        case Schema::FusedActivation::NONE:
        case Schema::FusedActivation::RELU:
        case Schema::FusedActivation::CLIP:
        case Schema::FusedActivation::SILU:
        case Schema::FusedActivation::HARD_SWISH:
            break;
        default:
            return nullptr;
    }
    return new CPUConvolutionPackedDepthwise(backend, attrs);
}

}  // namespace MNN
