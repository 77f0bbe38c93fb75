// Reference normalisations with statistics: BatchNorm (inference), InstanceNorm, LayerNorm, RMSNorm,
// GroupNorm. Statistics in double, two passes (mean, then mean squared deviation).
// LayerNorm / RMSNorm on float32 have a fast path through the kernel table's layerNormRow when
// scale and bias are absent or cover the normalised extent contiguously (rows split over the
// thread pool); MNN_NORM_ALGO=reference forces the reference.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

static int64_t productOf(const std::vector<int>& v, size_t from, size_t to) {
    int64_t r = 1;
    for (size_t i = from; i < to; ++i) {
        r *= v[i];
    }
    return r;
}

// product of a tensor's dims [from, rank) without building a shape vector (onExecute allocates nothing)
static int64_t lengthsFrom(const Tensor* t, int from) {
    int64_t n = 1;
    for (int i = from; i < t->dimensions(); ++i) {
        n *= t->length(i);
    }
    return n;
}

// y = (x - mean[c]) / sqrt(var[c] + eps) * scale[c] + B[c]
class CPUBatchNorm : public Execution {
public:
    CPUBatchNorm(Backend* b, float eps) : Execution(b), mEps(eps) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t batch = inputs[0]->length(0);
        const int c = inputs[0]->length(1);
        const int64_t inner = lengthsFrom(inputs[0], 2);
        const float* x = inputs[0]->host<float>();
        const float* scale = inputs[1]->host<float>();
        const float* bias = inputs[2]->host<float>();
        const float* mean = inputs[3]->host<float>();
        const float* var = inputs[4]->host<float>();
        float* y = outputs[0]->host<float>();
        for (int64_t n = 0; n < batch; ++n) {
            for (int ch = 0; ch < c; ++ch) {
                const double inv = 1.0 / sqrt((double)var[ch] + (double)mEps);
                const int64_t base = (n * c + ch) * inner;
                for (int64_t i = 0; i < inner; ++i) {
                    y[base + i] = (float)(((double)x[base + i] - mean[ch]) * inv * scale[ch] + bias[ch]);
                }
            }
        }
        return NO_ERROR;
    }

private:
    float mEps;
};

// Mean and 1/sqrt(var + eps) of `count` values at x[0], x[stride], ...
static void meanInvStd(const float* x, int64_t count, double eps, double* mean, double* invStd) {
    double sum = 0.0;
    for (int64_t i = 0; i < count; ++i) {
        sum += x[i];
    }
    const double m = count > 0 ? sum / (double)count : 0.0;
    double sq = 0.0;
    for (int64_t i = 0; i < count; ++i) {
        sq += ((double)x[i] - m) * ((double)x[i] - m);
    }
    const double var = count > 0 ? sq / (double)count : 0.0;
    *mean = m;
    *invStd = 1.0 / sqrt(var + eps);
}

// InstanceNorm: statistics per (n, c) over the spatial dims.
// GroupNorm: statistics per (n, group) over the group's channels and the spatial dims; scale and bias
// per channel ([C], opset 21) or per group ([num_groups], opset 18).
class CPUGroupedNorm : public Execution {
public:
    CPUGroupedNorm(Backend* b, float eps, int groups, bool instance)
        : Execution(b), mEps(eps), mGroups(groups), mInstance(instance) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t batch = inputs[0]->length(0);
        const int c = inputs[0]->length(1);
        const int groups = mInstance ? c : mGroups;
        const int perGroup = groups > 0 ? c / groups : 0;
        const int64_t spatial = lengthsFrom(inputs[0], 2);
        const float* x = inputs[0]->host<float>();
        const Tensor* scaleT = inputs.size() > 1 ? inputs[1] : nullptr;
        const Tensor* biasT = inputs.size() > 2 ? inputs[2] : nullptr;
        const float* scale = scaleT ? scaleT->host<float>() : nullptr;
        const float* bias = biasT ? biasT->host<float>() : nullptr;
        const bool scalePerChannel = scaleT && scaleT->length(0) == c;
        const bool biasPerChannel = biasT && biasT->length(0) == c;
        float* y = outputs[0]->host<float>();
        for (int64_t n = 0; n < batch; ++n) {
            for (int g = 0; g < groups; ++g) {
                const int64_t base = (n * c + (int64_t)g * perGroup) * spatial;
                double mean = 0.0, inv = 0.0;
                meanInvStd(x + base, perGroup * spatial, mEps, &mean, &inv);
                for (int k = 0; k < perGroup; ++k) {
                    const int ch = g * perGroup + k;
                    const double s = scale ? scale[scalePerChannel ? ch : g] : 1.0;
                    const double b = bias ? bias[biasPerChannel ? ch : g] : 0.0;
                    const int64_t off = base + (int64_t)k * spatial;
                    for (int64_t i = 0; i < spatial; ++i) {
                        y[off + i] = (float)(((double)x[off + i] - mean) * inv * s + b);
                    }
                }
            }
        }
        return NO_ERROR;
    }

private:
    float mEps;
    int mGroups;
    bool mInstance;
};

// LayerNorm (rms = false): y = (x - mean) / sqrt(var + eps) * scale + bias over dims [axis, rank);
// outputs Mean and InvStdDev optional. RMSNorm: y = x / sqrt(mean(x^2) + eps) * scale.
class CPUAxisNorm : public Execution {
public:
    CPUAxisNorm(Backend* b, float eps, int axis, bool rms) : Execution(b), mEps(eps), mAxis(axis), mRms(rms) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto shape = TensorUtils::shape(inputs[0]);
        const int rank = (int)shape.size();
        const int axis = mAxis < 0 ? mAxis + rank : mAxis;
        if (axis < 0 || axis >= rank) {
            return error(INVALID_VALUE, "%s: axis %d is out of range for rank %d", mRms ? "RMSNorm" : "LayerNorm",
                         mAxis, rank);
        }
        mOuter = productOf(shape, 0, axis);
        mInner = productOf(shape, axis, shape.size());
        std::vector<int> norm(shape.begin() + axis, shape.end());
        mScaleIndex.clear();
        mBiasIndex.clear();
        if (inputs.size() > 1 && inputs[1]) {
            mScaleIndex = offsets(TensorUtils::shape(inputs[1]), norm);
        }
        if (inputs.size() > 2 && inputs[2]) {
            mBiasIndex = offsets(TensorUtils::shape(inputs[2]), norm);
        }
        planFast(inputs);
        return NO_ERROR;
    }
    const char* algorithm() const override {
        return mFuncs ? mFuncs->normName : "reference";
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mFuncs) {
            return executeFast(inputs, outputs);
        }
        const float* x = inputs[0]->host<float>();
        const float* scale = mScaleIndex.empty() ? nullptr : inputs[1]->host<float>();
        const float* bias = mBiasIndex.empty() ? nullptr : inputs[2]->host<float>();
        float* y = outputs[0]->host<float>();
        float* meanOut = outputs.size() > 1 ? outputs[1]->host<float>() : nullptr;
        float* invOut = outputs.size() > 2 ? outputs[2]->host<float>() : nullptr;
        for (int64_t o = 0; o < mOuter; ++o) {
            const float* xr = x + o * mInner;
            float* yr = y + o * mInner;
            double mean = 0.0, inv = 0.0;
            if (mRms) {
                double sq = 0.0;
                for (int64_t i = 0; i < mInner; ++i) {
                    sq += (double)xr[i] * xr[i];
                }
                inv = 1.0 / sqrt((mInner > 0 ? sq / (double)mInner : 0.0) + mEps);
            } else {
                meanInvStd(xr, mInner, mEps, &mean, &inv);
            }
            for (int64_t i = 0; i < mInner; ++i) {
                double v = ((double)xr[i] - mean) * inv;
                if (scale) {
                    v *= scale[mScaleIndex[i]];
                }
                if (bias) {
                    v += bias[mBiasIndex[i]];
                }
                yr[i] = (float)v;
            }
            if (meanOut) {
                meanOut[o] = (float)mean;
            }
            if (invOut) {
                invOut[o] = (float)inv;
            }
        }
        return NO_ERROR;
    }

private:
    struct RowJob {
        const CPUCoreFunctions* f;
        const float *x, *scale, *bias;
        float *y, *meanOut, *invOut;
        int64_t outer, inner;
        float eps;
        int flags, tasks;
        void operator()(int t) const {
            const int64_t o0 = outer * t / tasks, o1 = outer * (t + 1) / tasks;
            for (int64_t o = o0; o < o1; ++o) {
                float stats[2];
                f->layerNormRow(x + o * inner, y + o * inner, inner, scale, bias, eps, flags, stats);
                if (meanOut) {
                    meanOut[o] = stats[0];
                }
                if (invOut) {
                    invOut[o] = stats[1];
                }
            }
        }
    };
    // index i of the normalised extent reads element i of the tensor (or the tensor is absent)
    static bool contiguous(const std::vector<int64_t>& index, int64_t inner) {
        if (index.empty()) {
            return true;
        }
        if ((int64_t)index.size() != inner) {
            return false;
        }
        for (int64_t i = 0; i < inner; ++i) {
            if (index[(size_t)i] != i) {
                return false;
            }
        }
        return true;
    }
    void planFast(const std::vector<Tensor*>& inputs) {
        mFuncs = nullptr;
        const char* env = getenv("MNN_NORM_ALGO");
        if (env && strcmp(env, "reference") == 0) {
            return;
        }
        for (size_t i = 0; i < inputs.size() && i < 3; ++i) {
            if (inputs[i] && inputs[i]->getType() != halide_type_of<float>()) {
                return;
            }
        }
        if (!contiguous(mScaleIndex, mInner) || !contiguous(mBiasIndex, mInner)) {
            return;
        }
        auto cpu = static_cast<CPUBackend*>(backend());
        mPool = cpu->threadPool();
        mFlags = (mRms ? kNormRms : 0) | (cpu->precision() == BackendConfig::Precision_High ? kNormHigh : 0);
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t work = mOuter * mInner;
        mTasks = (int)std::max<int64_t>(1, std::min<int64_t>(mOuter, work >= 16384 ? 4 * threads : 1));
        mFuncs = &cpuCoreFunctions();
    }
    ErrorCode executeFast(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
        if (mOuter == 0) {
            return NO_ERROR;
        }
        RowJob job;
        job.f = mFuncs;
        job.x = inputs[0]->host<float>();
        job.scale = mScaleIndex.empty() ? nullptr : inputs[1]->host<float>();
        job.bias = mBiasIndex.empty() ? nullptr : inputs[2]->host<float>();
        job.y = outputs[0]->host<float>();
        job.meanOut = outputs.size() > 1 && outputs[1] ? outputs[1]->host<float>() : nullptr;
        job.invOut = outputs.size() > 2 && outputs[2] ? outputs[2]->host<float>() : nullptr;
        job.outer = mOuter;
        job.inner = mInner;
        job.eps = mEps;
        job.flags = mFlags;
        job.tasks = mTasks;
        parallelFor(mPool, mTasks, job);
        return NO_ERROR;
    }

    // offset into a tensor of shape `from` for every position of `to` (numpy broadcast)
    static std::vector<int64_t> offsets(const std::vector<int>& from, const std::vector<int>& to) {
        auto strides = CPUUtils::broadcastStrides(from, to);
        const int64_t count = productOf(to, 0, to.size());
        std::vector<int64_t> r((size_t)count, 0);
        for (int64_t f = 0; f < count; ++f) {
            int64_t rest = f, off = 0;
            for (int d = (int)to.size() - 1; d >= 0; --d) {
                off += (rest % to[d]) * strides[d];
                rest /= to[d];
            }
            r[(size_t)f] = off;
        }
        // keep the vector non-empty as the "present" marker even for zero-size shapes
        if (r.empty()) {
            r.push_back(0);
        }
        return r;
    }

    float mEps;
    int mAxis;
    bool mRms;
    int64_t mOuter = 0;
    int64_t mInner = 0;
    std::vector<int64_t> mScaleIndex;
    std::vector<int64_t> mBiasIndex;
    const CPUCoreFunctions* mFuncs = nullptr;  // the fast path's table; null: the reference
    ThreadPool* mPool = nullptr;
    int mFlags = 0;
    int mTasks = 1;
};

static float epsilonOf(const Schema::Op* op) {
    auto p = op->param_as_NormParam();
    return p ? p->epsilon() : 1e-5f;
}

static Execution* createBatchNorm(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                  Backend* backend) {
    return new CPUBatchNorm(backend, epsilonOf(op));
}

static Execution* createInstanceNorm(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                     Backend* backend) {
    return new CPUGroupedNorm(backend, epsilonOf(op), 0, true);
}

static Execution* createGroupNorm(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                  Backend* backend) {
    auto p = op->param_as_NormParam();
    return new CPUGroupedNorm(backend, epsilonOf(op), p ? p->numGroups() : 1, false);
}

static Execution* createLayerNorm(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                  Backend* backend) {
    auto p = op->param_as_NormParam();
    return new CPUAxisNorm(backend, epsilonOf(op), p ? p->axis() : -1, false);
}

static Execution* createRMSNorm(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    auto p = op->param_as_NormParam();
    return new CPUAxisNorm(backend, epsilonOf(op), p ? p->axis() : -1, true);
}

} // namespace MNN

MNN_REGISTER_CPU(BatchNorm, createBatchNorm)
MNN_REGISTER_CPU(InstanceNorm, createInstanceNorm)
MNN_REGISTER_CPU(GroupNorm, createGroupNorm)
MNN_REGISTER_CPU(LayerNorm, createLayerNorm)
MNN_REGISTER_CPU(RMSNorm, createRMSNorm)
