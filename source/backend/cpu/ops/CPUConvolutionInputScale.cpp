// Convolution with a fourth input S [N or 1, C, 1...] (ShapeConvolution.cpp): conv(X * S). Where the
// packed 1x1 / direct kernel's weights are fewer than its input positions CPUConvolutionPacked scales
// the weights per image instead; everywhere else this wrapper scales X into a scratch tensor of X's
// shape and layout (plain or packed) and runs the three-input Execution on it.
#include <memory>
#include "CPUConvolutionFast.hpp"
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

namespace {

/** per (image, channel block or channel): y = x * s over the plane */
struct InputScaleJob {
    const float* x;
    const float* s;
    float* y;
    int channels, units;  // units per image: packed blocks or plain channels
    bool packed;
    int64_t plane;
    int64_t sImage;  // S floats per image (0: one S for every image)
    void operator()(int i) const {
        const int n = i / units, u = i % units;
        const float* sn = s + n * sImage;
        if (!packed) {
            const float k = sn[u];
            const float* xs = x + (int64_t)i * plane;
            float* ys = y + (int64_t)i * plane;
            for (int64_t j = 0; j < plane; ++j) {
                ys[j] = xs[j] * k;
            }
            return;
        }
        float k[kCpuPack];
        for (int l = 0; l < kCpuPack; ++l) {
            const int c = u * kCpuPack + l;
            k[l] = c < channels ? sn[c] : 0.0f;
        }
        const float* xs = x + (int64_t)i * plane * kCpuPack;
        float* ys = y + (int64_t)i * plane * kCpuPack;
        for (int64_t j = 0; j < plane; ++j) {
            for (int l = 0; l < kCpuPack; ++l) {
                ys[j * kCpuPack + l] = xs[j * kCpuPack + l] * k[l];
            }
        }
    }
};

class CPUConvolutionInputScale : public Execution {
public:
    CPUConvolutionInputScale(Backend* b, Execution* inner) : Execution(b), mInner(inner) {
        mScaled.reset(new Tensor(4, Tensor::CAFFE));
    }

    const char* algorithm() const override {
        return mInner->algorithm();
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        Tensor* xs = mScaled.get();
        xs->buffer().type = x->getType();
        TensorUtils::setShape(xs, TensorUtils::shape(x));
        if (isCpuPacked(x)) {
            setCpuPacked(xs, true);
        }
        TensorUtils::describe(xs)->name = TensorUtils::describe(x)->name + "*S";
        mIns = {xs, inputs[1], inputs.size() > 2 ? inputs[2] : nullptr};
        const Tensor* s = inputs.size() > 3 ? inputs[3] : nullptr;
        // S is never packed: only X is a data slot of a Convolution (Session::assignLayouts)
        if (!s || isCpuPacked(s) || s->dimensions() != x->dimensions() || s->length(1) != x->length(1) ||
            (s->length(0) != 1 && s->length(0) != x->length(0))) {
            MNN_ERROR("Convolution: input scale S %s does not fit X %s\n", s ? TensorUtils::shapeString(s).c_str() : "(none)",
                      TensorUtils::shapeString(x).c_str());
            return INVALID_VALUE;
        }
        // the scaled copy is scratch of this op: planned here, reused by later ops
        if (!backend()->onAcquireBuffer(xs, Backend::DYNAMIC)) {
            return OUT_OF_MEMORY;
        }
        const ErrorCode code = mInner->onResize(mIns, outputs);
        backend()->onReleaseBuffer(xs, Backend::DYNAMIC);
        return code;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const Tensor* s = inputs[3];
        const bool packed = isCpuPacked(x);
        const int n = x->length(0), c = x->length(1);
        int64_t plane = 1;
        for (int d = 2; d < x->dimensions(); ++d) {
            plane *= x->length(d);
        }
        InputScaleJob job;
        job.x = x->host<float>();
        job.s = s->host<float>();
        job.y = mScaled->host<float>();
        job.channels = c;
        job.units = packed ? packedBlocks(c) : c;
        job.packed = packed;
        job.plane = plane;
        job.sImage = s->length(0) == 1 ? 0 : c;
        parallelFor(static_cast<CPUBackend*>(backend())->threadPool(), n * job.units, job);
        return mInner->onExecute(mIns, outputs);
    }

private:
    std::unique_ptr<Execution> mInner;
    std::unique_ptr<Tensor> mScaled;
    std::vector<Tensor*> mIns;
};

}  // namespace

Execution* wrapInputScale(Execution* inner, Backend* backend) {
    if (!inner) {
        return nullptr;
    }
    return new CPUConvolutionInputScale(backend, inner);
}

}  // namespace MNN
