// Fast 2-D pooling: per (batch, channel) plane (split over the thread pool), direct window loops
// with the reference's semantics: Max takes the first inside element and replaces it only by a
// greater one (so NaN handling matches), an empty window gives the lowest float; Average divides
// by the inside count, or with count_include_pad by the count inside [-padBegin, in + padEnd)
// (per dimension, so ceil_mode's extra positions never count), accumulating in double.
#include "CPUPoolingFast.hpp"
#include <string.h>
#include <limits>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {
struct PoolJob {
    const float* x;
    float* y;
    int ih, iw, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw, peh, pew;
    bool isMax, includePad;
    void operator()(int plane) const {
        const float* xp = x + (int64_t)plane * ih * iw;
        float* yp = y + (int64_t)plane * oh * ow;
        for (int oy = 0; oy < oh; ++oy) {
            const int ys = oy * sh - ph;
            int paddedY = 0;
            if (!isMax) {
                for (int ky = 0; ky < kh; ++ky) {
                    const int iy = ys + ky * dh;
                    paddedY += (iy >= -ph && iy < ih + peh) ? 1 : 0;
                }
            }
            for (int ox = 0; ox < ow; ++ox) {
                const int xs = ox * sw - pw;
                if (isMax) {
                    float best = std::numeric_limits<float>::lowest();
                    bool found = false;
                    for (int ky = 0; ky < kh; ++ky) {
                        const int iy = ys + ky * dh;
                        if ((unsigned)iy >= (unsigned)ih) {
                            continue;
                        }
                        const float* row = xp + (int64_t)iy * iw;
                        for (int kx = 0; kx < kw; ++kx) {
                            const int ix = xs + kx * dw;
                            if ((unsigned)ix >= (unsigned)iw) {
                                continue;
                            }
                            const float v = row[ix];
                            if (!found) {
                                best = v;
                                found = true;
                            } else if (v > best) {
                                best = v;
                            }
                        }
                    }
                    yp[(int64_t)oy * ow + ox] = best;
                } else {
                    double sum = 0.0;
                    int insideY = 0, insideX = 0, paddedX = 0;
                    for (int kx = 0; kx < kw; ++kx) {
                        const int ix = xs + kx * dw;
                        insideX += (unsigned)ix < (unsigned)iw ? 1 : 0;
                        paddedX += (ix >= -pw && ix < iw + pew) ? 1 : 0;
                    }
                    for (int ky = 0; ky < kh; ++ky) {
                        const int iy = ys + ky * dh;
                        if ((unsigned)iy >= (unsigned)ih) {
                            continue;
                        }
                        ++insideY;
                        const float* row = xp + (int64_t)iy * iw;
                        for (int kx = 0; kx < kw; ++kx) {
                            const int ix = xs + kx * dw;
                            if ((unsigned)ix < (unsigned)iw) {
                                sum += (double)row[ix];
                            }
                        }
                    }
                    const int64_t divisor = includePad ? (int64_t)paddedY * paddedX : (int64_t)insideY * insideX;
                    yp[(int64_t)oy * ow + ox] = divisor > 0 ? (float)(sum / (double)divisor) : 0.0f;
                }
            }
        }
    }
};
// Average over whole planes (GlobalAveragePool, or a window equal to the unpadded input): the
// table's vector sum per plane.
struct GlobalAverageJob {
    const CPUCoreFunctions* f;
    const float* x;
    float* y;
    int64_t plane;
    void operator()(int p) const {
        y[p] = (float)(f->planeSum(x + plane * p, plane) / (double)plane);
    }
};
} // namespace

class CPUPoolingFast : public Execution {
public:
    CPUPoolingFast(Backend* b, const PoolAttrs& a) : Execution(b), mAttrs(a) {
        mPool = static_cast<CPUBackend*>(b)->threadPool();
    }
    const char* algorithm() const override {
        return mGlobal ? "global-average-vector" : "pool2d-direct";
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        if (!resolvePool(mAttrs, TensorUtils::shape(inputs[0]), &mGeom, &err)) {
            MNN_ERROR("Pooling: %s\n", err.c_str());
            return INVALID_VALUE;
        }
        if (mGeom.input.size() != 2) {
            MNN_ERROR("Pooling: the fast path needs 2-D input, got %d spatial dims\n", (int)mGeom.input.size());
            return NOT_SUPPORT;
        }
        mFuncs = &cpuCoreFunctions();
        mGlobal = mAttrs.type == Schema::PoolType::AVERAGEPOOL && mGeom.output[0] == 1 && mGeom.output[1] == 1 &&
                  mGeom.kernel[0] == mGeom.input[0] && mGeom.kernel[1] == mGeom.input[1] && mGeom.padBegin[0] == 0 &&
                  mGeom.padBegin[1] == 0 && mGeom.padEnd[0] == 0 && mGeom.padEnd[1] == 0 &&
                  mGeom.dilations[0] == 1 && mGeom.dilations[1] == 1 && mGeom.input[0] > 0 && mGeom.input[1] > 0 &&
                  mFuncs->planeSum != nullptr;
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mGlobal) {
            GlobalAverageJob g{mFuncs, inputs[0]->host<float>(), outputs[0]->host<float>(),
                               (int64_t)mGeom.input[0] * mGeom.input[1]};
            parallelFor(mPool, inputs[0]->length(0) * inputs[0]->length(1), g);
            return NO_ERROR;
        }
        PoolJob job;
        job.x = inputs[0]->host<float>();
        job.y = outputs[0]->host<float>();
        job.ih = mGeom.input[0];
        job.iw = mGeom.input[1];
        job.oh = mGeom.output[0];
        job.ow = mGeom.output[1];
        job.kh = mGeom.kernel[0];
        job.kw = mGeom.kernel[1];
        job.sh = mGeom.strides[0];
        job.sw = mGeom.strides[1];
        job.ph = mGeom.padBegin[0];
        job.pw = mGeom.padBegin[1];
        job.peh = mGeom.padEnd[0];
        job.pew = mGeom.padEnd[1];
        job.dh = mGeom.dilations[0];
        job.dw = mGeom.dilations[1];
        job.isMax = mAttrs.type == Schema::PoolType::MAXPOOL;
        job.includePad = mAttrs.countIncludePad;
        const int planes = inputs[0]->length(0) * inputs[0]->length(1);
        parallelFor(mPool, planes, job);
        return NO_ERROR;
    }

private:
    PoolAttrs mAttrs;
    WindowGeometry mGeom;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    bool mGlobal = false;
};

Execution* createFastPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                             const PoolAttrs& attrs, Backend* backend) {
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;
    }
    if (inputs.empty() || !inputs[0] || !CPUUtils::isFloat(inputs[0]) || inputs[0]->dimensions() != 4 ||
        outputs.size() != 1) {
        return nullptr;
    }
    if (attrs.type != Schema::PoolType::MAXPOOL && attrs.type != Schema::PoolType::AVERAGEPOOL) {
        return nullptr;
    }
    return new CPUPoolingFast(backend, attrs);
}

} // namespace MNN
