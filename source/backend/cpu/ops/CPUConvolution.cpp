// Reference Convolution and ConvTranspose (any number of spatial dims, groups, dilation, pads,
// auto_pad, optional bias, fused ReLU / Clip / SiLU / HardSwish). Direct loops with double accumulation: the oracle
// the optimised kernels are checked against.
#include <math.h>
#include <algorithm>
#include "backend/cpu/CPUOpUtils.hpp"
#include "CPUConvolutionFast.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

static float applyActivation(double v, const ConvAttrs& a) {
    switch (a.activation) {
        case Schema::FusedActivation::RELU:
            return v > 0.0 ? (float)v : 0.0f;
        case Schema::FusedActivation::CLIP:
            return (float)std::min(std::max(v, (double)a.clipMin), (double)a.clipMax);
        case Schema::FusedActivation::SILU:
            return (float)(v / (1.0 + exp(-v)));
        case Schema::FusedActivation::HARD_SWISH:
            return v != v ? (float)v : (float)(v * std::min(std::max(v / 6.0 + 0.5, 0.0), 1.0));
        default:
            return (float)v;
    }
}

static int64_t product(const std::vector<int>& v) {
    int64_t r = 1;
    for (auto x : v) {
        r *= x;
    }
    return r;
}

// Row-major multi-index of every flat position of `dims` (count x dims.size()).
static std::vector<int> indexTable(const std::vector<int>& dims) {
    const int nd = (int)dims.size();
    const int64_t count = product(dims);
    std::vector<int> table((size_t)(count * nd));
    for (int64_t f = 0; f < count; ++f) {
        int64_t rest = f;
        for (int d = nd - 1; d >= 0; --d) {
            table[(size_t)(f * nd + d)] = (int)(rest % dims[d]);
            rest /= dims[d];
        }
    }
    return table;
}

class CPUConvolution : public Execution {
public:
    CPUConvolution(Backend* b, const ConvAttrs& attrs, bool transpose)
        : Execution(b), mAttrs(attrs), mTranspose(transpose) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::vector<int> bias;
        const bool hasBias = inputs.size() > 2 && inputs[2];
        if (hasBias) {
            bias = TensorUtils::shape(inputs[2]);
        }
        std::string err;
        if (!resolveConv(mAttrs, mTranspose, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]),
                         hasBias ? &bias : nullptr, &mGeom, &mOutChannels, &err)) {
            return error(INVALID_VALUE, "%s: %s", mTranspose ? "ConvTranspose" : "Convolution", err.c_str());
        }
        mKernelIndex = indexTable(mGeom.kernel);
        if (mTranspose) {
            mInputIndex = indexTable(mGeom.input);
            mAccum.assign((size_t)(mOutChannels * product(mGeom.output)), 0.0);
        } else {
            mOutputIndex = indexTable(mGeom.output);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mTranspose) {
            runTranspose(inputs, outputs[0]);
        } else {
            runForward(inputs, outputs[0]);
        }
        return NO_ERROR;
    }

private:
    // y[n, m, o] = b[m] + sum_{ci, k} x[n, g*Cg + ci, o*s - padBegin + k*dilation] * w[m, ci, k]
    void runForward(const std::vector<Tensor*>& inputs, Tensor* output) {
        const float* x = inputs[0]->host<float>();
        const float* w = inputs[1]->host<float>();
        const float* b = (inputs.size() > 2 && inputs[2]) ? inputs[2]->host<float>() : nullptr;
        float* y = output->host<float>();
        const int nd = (int)mGeom.input.size();
        const int batch = inputs[0]->length(0);
        const int c = inputs[0]->length(1);
        const int m = mOutChannels;
        const int cg = c / mAttrs.group;
        const int mg = m / mAttrs.group;
        const int64_t inCount = product(mGeom.input);
        const int64_t outCount = product(mGeom.output);
        const int64_t kCount = product(mGeom.kernel);
        for (int n = 0; n < batch; ++n) {
            for (int oc = 0; oc < m; ++oc) {
                const int g = oc / mg;
                for (int64_t o = 0; o < outCount; ++o) {
                    const int* oIdx = mOutputIndex.data() + o * nd;
                    double acc = b ? (double)b[oc] : 0.0;
                    for (int ci = 0; ci < cg; ++ci) {
                        const float* xPlane = x + ((int64_t)n * c + (int64_t)g * cg + ci) * inCount;
                        const float* wKernel = w + ((int64_t)oc * cg + ci) * kCount;
                        for (int64_t k = 0; k < kCount; ++k) {
                            const int* kIdx = mKernelIndex.data() + k * nd;
                            int64_t offset = 0;
                            bool inside = true;
                            for (int d = 0; d < nd; ++d) {
                                int64_t pos = (int64_t)oIdx[d] * mGeom.strides[d] - mGeom.padBegin[d] +
                                              (int64_t)kIdx[d] * mGeom.dilations[d];
                                if (pos < 0 || pos >= mGeom.input[d]) {
                                    inside = false;
                                    break;
                                }
                                offset = offset * mGeom.input[d] + pos;
                            }
                            if (inside) {
                                acc += (double)xPlane[offset] * (double)wKernel[k];
                            }
                        }
                    }
                    y[((int64_t)n * m + oc) * outCount + o] = applyActivation(acc, mAttrs);
                }
            }
        }
    }

    // Every x[n, c, i] adds x * w[c, mi, k] to y[n, g*Mg + mi, i*s + k*dilation - padBegin].
    void runTranspose(const std::vector<Tensor*>& inputs, Tensor* output) {
        const float* x = inputs[0]->host<float>();
        const float* w = inputs[1]->host<float>();
        const float* b = (inputs.size() > 2 && inputs[2]) ? inputs[2]->host<float>() : nullptr;
        float* y = output->host<float>();
        const int nd = (int)mGeom.input.size();
        const int batch = inputs[0]->length(0);
        const int c = inputs[0]->length(1);
        const int m = mOutChannels;
        const int cg = c / mAttrs.group;
        const int mg = m / mAttrs.group;
        const int64_t inCount = product(mGeom.input);
        const int64_t outCount = product(mGeom.output);
        const int64_t kCount = product(mGeom.kernel);
        for (int n = 0; n < batch; ++n) {
            for (int oc = 0; oc < m; ++oc) {
                std::fill(mAccum.begin() + oc * outCount, mAccum.begin() + (oc + 1) * outCount,
                          b ? (double)b[oc] : 0.0);
            }
            for (int ic = 0; ic < c; ++ic) {
                const int g = ic / cg;
                const float* xPlane = x + ((int64_t)n * c + ic) * inCount;
                for (int64_t i = 0; i < inCount; ++i) {
                    const int* iIdx = mInputIndex.data() + i * nd;
                    const double xv = xPlane[i];
                    for (int mi = 0; mi < mg; ++mi) {
                        const int oc = g * mg + mi;
                        const float* wKernel = w + ((int64_t)ic * mg + mi) * kCount;
                        double* acc = mAccum.data() + oc * outCount;
                        for (int64_t k = 0; k < kCount; ++k) {
                            const int* kIdx = mKernelIndex.data() + k * nd;
                            int64_t offset = 0;
                            bool inside = true;
                            for (int d = 0; d < nd; ++d) {
                                int64_t pos = (int64_t)iIdx[d] * mGeom.strides[d] +
                                              (int64_t)kIdx[d] * mGeom.dilations[d] - mGeom.padBegin[d];
                                if (pos < 0 || pos >= mGeom.output[d]) {
                                    inside = false;
                                    break;
                                }
                                offset = offset * mGeom.output[d] + pos;
                            }
                            if (inside) {
                                acc[offset] += xv * (double)wKernel[k];
                            }
                        }
                    }
                }
            }
            float* yBatch = y + (int64_t)n * m * outCount;
            for (int64_t j = 0; j < (int64_t)m * outCount; ++j) {
                yBatch[j] = applyActivation(mAccum[j], mAttrs);
            }
        }
    }

    ConvAttrs mAttrs;
    bool mTranspose;
    WindowGeometry mGeom;
    int mOutChannels = 0;
    std::vector<int> mKernelIndex;
    std::vector<int> mOutputIndex;
    std::vector<int> mInputIndex;
    std::vector<double> mAccum;
};

Execution* createPlainConvolution(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs, Backend* backend) {
    // 2-D with constant weights: packed GEMM / depthwise (MNN_CONV_ALGO=reference forces this one)
    if (auto fast = createFastConvolution(inputs, attrs, backend)) {
        return fast;
    }
    return new CPUConvolution(backend, attrs, false);
}

static Execution* createConvolution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&,
                                    const Schema::Op* op, Backend* backend) {
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    // S (input 3) and R (input 4) in wrappers around the convolution of X, W, B
    return createWithExtraInputs(inputs, attrs, backend, [backend](const std::vector<Tensor*>& in, const ConvAttrs& a) {
        return createPlainConvolution(in, a, backend);
    });
}

static Execution* createConvTranspose(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                      Backend* backend) {
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    return new CPUConvolution(backend, attrs, true);
}

}  // namespace MNN

MNN_REGISTER_CPU(Convolution, createConvolution)
MNN_REGISTER_CPU(ConvTranspose, createConvTranspose)
