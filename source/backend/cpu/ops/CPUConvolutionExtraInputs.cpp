// Convolution's optional inputs (ShapeConvolution.cpp): S (input 3) [N or 1, C, 1...] convolves X * S;
// R (input 4, the output's shape) gives act(conv + B + R). CPUConvolutionPacked does both itself
// where it runs (the weights scaled per image, R added to each stored tile); everywhere else these
// wrappers do them around the Execution of the remaining inputs: X * S into scratch of X's shape
// and layout before it, y = act(y + R) after it (that Execution made without the activation).
#include <algorithm>
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

/** y = act(y + r) over [begin, end) of flat buffers of one layout, per task */
struct ResidualFlatJob {
    const CPUCoreFunctions* f;
    float* y;
    const float* r;
    int64_t count;
    int tasks;
    const GemmPost* post;
    void operator()(int task) const {
        const int64_t a = count * task / tasks, b = count * (task + 1) / tasks;
        addResidualRow(*f, y + a, r + a, b - a, post);
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
        // InputScaleJob's tasks are X's blocks: at two threads, thread 1 writes the second half
        // (Tensor::InsideDescribe::splitBlock, for a K-split inner convolution)
        const ThreadPool* pool = static_cast<CPUBackend*>(backend())->threadPool();
        const int units = isCpuPacked(x) ? packedBlocks(x->length(1)) : 0;
        TensorUtils::describe(xs)->splitBlock = pool && pool->threads() == 2 && x->length(0) == 1 ? units / 2 : 0;
        mIns = {xs, inputs[1], inputs.size() > 2 ? inputs[2] : nullptr};  // R (input 4): an outer wrapper's
        const Tensor* s = inputs.size() > 3 ? inputs[3] : nullptr;
        // S is never packed: only X is a data slot of a Convolution (Session::assignLayouts)
        if (!s || isCpuPacked(s) || s->dimensions() != x->dimensions() || s->length(1) != x->length(1) ||
            (s->length(0) != 1 && s->length(0) != x->length(0))) {
            return error(INVALID_VALUE, "Convolution: input scale S %s does not fit X %s",
                         s ? TensorUtils::shapeString(s).c_str() : "(none)", TensorUtils::shapeString(x).c_str());
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

/** the residual R of an inner Execution made for X, W, B[, S] without the activation */
class CPUConvolutionResidual : public Execution {
public:
    CPUConvolutionResidual(Backend* b, Execution* inner, const ConvAttrs& attrs) : Execution(b), mInner(inner) {
        mPost = CPUUtils::gemmPostFor(attrs, b);
    }

    const char* algorithm() const override {
        return mInner->algorithm();
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mIns.assign(inputs.begin(), inputs.begin() + std::min<size_t>(inputs.size(), 4));
        const Tensor* r = inputs.size() > 4 ? inputs[4] : nullptr;
        if (!r || TensorUtils::shape(r) != TensorUtils::shape(outputs[0])) {
            return error(INVALID_VALUE, "Convolution: residual R %s does not fit the output %s",
                         r ? TensorUtils::shapeString(r).c_str() : "(none)",
                         TensorUtils::shapeString(outputs[0]).c_str());
        }
        mPost.unary = cpuCoreFunctions().unaryF32;
        return mInner->onResize(mIns, outputs);
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const ErrorCode code = mInner->onExecute(mIns, outputs);
        if (code != NO_ERROR) {
            return code;
        }
        const Tensor* r = inputs[4];
        Tensor* y = outputs[0];
        const auto& f = cpuCoreFunctions();
        const GemmPost* post = mPost.act ? &mPost : nullptr;
        if (isCpuPacked(r) == isCpuPacked(y)) {
            // one layout: element for element over the buffer (padding lanes too: unspecified anyway)
            const int64_t count = TensorUtils::byteSize(y) / (int64_t)sizeof(float);
            auto pool = static_cast<CPUBackend*>(backend())->threadPool();
            const int tasks =
                (int)std::max<int64_t>(1, std::min<int64_t>(pool ? 4 * pool->threads() : 1, count / 16384));
            ResidualFlatJob job{&f, y->host<float>(), r->host<float>(), count, tasks, post};
            parallelFor(pool, tasks, job);
            return NO_ERROR;
        }
        // one packed, one plain (a graph input or output on one side): element by element
        const int n = y->length(0), c = y->length(1), blocks = packedBlocks(c);
        const int64_t plane = (int64_t)y->length(2) * y->length(3);
        const bool yPacked = isCpuPacked(y);
        float* yd = y->host<float>();
        const float* rd = r->host<float>();
        for (int i = 0; i < n; ++i) {
            for (int ch = 0; ch < c; ++ch) {
                const int64_t plain = ((int64_t)i * c + ch) * plane;
                const int64_t packed = (((int64_t)i * blocks + ch / kCpuPack) * plane) * kCpuPack + ch % kCpuPack;
                for (int64_t j = 0; j < plane; ++j) {
                    float* yv = yd + (yPacked ? packed + j * kCpuPack : plain + j);
                    const float rv = rd[yPacked ? plain + j : packed + j * kCpuPack];
                    float v = *yv + rv;
                    addResidualRow(f, &v, nullptr, 1, post);
                    *yv = v;
                }
            }
        }
        return NO_ERROR;
    }

private:
    std::unique_ptr<Execution> mInner;
    std::vector<Tensor*> mIns;
    GemmPost mPost;
};

}  // namespace

void addResidualRow(const CPUCoreFunctions& f, float* y, const float* r, int64_t n, const GemmPost* post) {
    if (r) {
        f.binaryF32((int)VecBinaryOp::ADD, y, r, y, n, 0);
    }
    if (!post) {
        return;
    }
    switch (post->act) {
        case 1:
            f.unaryF32((int)VecUnaryOp::RELU, y, y, n, 0.0f, 0.0f);
            break;
        case 2:
            f.unaryF32((int)VecUnaryOp::CLIP, y, y, n, post->lo, post->hi);
            break;
        case 3:
            f.unaryF32(post->unaryOp, y, y, n, post->lo, post->hi);
            break;
        default:
            break;
    }
}

Execution* wrapResidual(Execution* inner, const ConvAttrs& attrs, Backend* backend) {
    if (!inner) {
        return nullptr;
    }
    return new CPUConvolutionResidual(backend, inner, attrs);
}

Execution* createWithExtraInputs(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs, Backend* backend,
                                 const ConvCreator& base) {
    const bool hasS = inputs.size() > 3 && inputs[3];
    const bool hasR = inputs.size() > 4 && inputs[4];
    if (hasR) {
        // act(conv + B + R): the inner convolution without the activation
        ConvAttrs linear = attrs;
        linear.activation = Schema::FusedActivation::NONE;
        const std::vector<Tensor*> noR(inputs.begin(), inputs.begin() + 4);
        return wrapResidual(createWithExtraInputs(noR, linear, backend, base), attrs, backend);
    }
    if (hasS) {
        const std::vector<Tensor*> three(inputs.begin(), inputs.begin() + 3);
        return wrapInputScale(base(three, attrs), backend);
    }
    const std::vector<Tensor*> three(inputs.begin(), inputs.begin() + std::min<size_t>(inputs.size(), 3));
    return base(three, attrs);
}

Execution* wrapInputScale(Execution* inner, Backend* backend) {
    if (!inner) {
        return nullptr;
    }
    return new CPUConvolutionInputScale(backend, inner);
}

}  // namespace MNN
