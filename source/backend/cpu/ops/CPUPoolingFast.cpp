// Fast 2-D pooling: per (batch, channel) plane (split over the thread pool), direct window loops
// with the reference's semantics: Max propagates NaN (any NaN in the window gives NaN), an empty
// window gives the lowest float; Average divides
// by the inside count, or with count_include_pad by the count inside [-padBegin, in + padEnd)
// (per dimension, so ceil_mode's extra positions never count), accumulating in double.
#include "CPUPoolingFast.hpp"
#include <stdio.h>
#include <string.h>
#include <limits>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "PaddedPlane.hpp"

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
                            } else if (v > best || (v != v && best == best)) {  // NaN propagates
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
// Max / average windows with the table's vector kernel over a padded copy of each plane (-inf
// padding for max, 0 for average); planes split over tasks, each with its own scratch plane.
struct VectorPoolJob {
    const CPUCoreFunctions* f;
    const PaddedPlane* plane;
    const float* x;
    float* y;
    float* scratch;
    const float* invY;
    const float* invX;
    const uint8_t* emptyY;  // max: windows with no input element give the lowest float
    const uint8_t* emptyX;
    bool anyEmpty;
    int planes, tasks, oh, ow, taps, isMax;
    void operator()(int t) const {
        const int64_t p0 = (int64_t)planes * t / tasks, p1 = (int64_t)planes * (t + 1) / tasks;
        float* P = scratch + plane->planeFloats * t;
        const int64_t inPlane = (int64_t)plane->ih * plane->iw;
        const float pad = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
        for (int64_t p = p0; p < p1; ++p) {
            plane->build(x + p * inPlane, P, pad);
            float* yp = y + p * oh * ow;
            f->poolRows(P, plane->rowStep, plane->tapOff.data(), taps, isMax, invY, invX, yp, oh, ow);
            if (anyEmpty) {
                for (int oy = 0; oy < oh; ++oy) {
                    for (int ox = 0; ox < ow; ++ox) {
                        if (emptyY[oy] || emptyX[ox]) {
                            yp[(int64_t)oy * ow + ox] = std::numeric_limits<float>::lowest();
                        }
                    }
                }
            }
        }
    }
};
} // namespace

class CPUPoolingFast : public Execution {
public:
    CPUPoolingFast(Backend* b, const PoolAttrs& a) : Execution(b), mAttrs(a) {
        mPool = static_cast<CPUBackend*>(b)->threadPool();
    }
    const char* algorithm() const override {
        return mGlobal ? "global-average-vector" : (mVector ? mName : "pool2d-direct");
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        if (!resolvePool(mAttrs, TensorUtils::shape(inputs[0]), &mGeom, &err)) {
            return error(INVALID_VALUE, "Pooling: %s", err.c_str());
        }
        if (mGeom.input.size() != 2) {
            return error(NOT_SUPPORT, "Pooling: the fast path needs 2-D input, got %d spatial dims",
                         (int)mGeom.input.size());
        }
        mFuncs = &cpuCoreFunctions();
        mGlobal = mAttrs.type == Schema::PoolType::AVERAGEPOOL && mGeom.output[0] == 1 && mGeom.output[1] == 1 &&
                  mGeom.kernel[0] == mGeom.input[0] && mGeom.kernel[1] == mGeom.input[1] && mGeom.padBegin[0] == 0 &&
                  mGeom.padBegin[1] == 0 && mGeom.padEnd[0] == 0 && mGeom.padEnd[1] == 0 &&
                  mGeom.dilations[0] == 1 && mGeom.dilations[1] == 1 && mGeom.input[0] > 0 && mGeom.input[1] > 0 &&
                  mFuncs->planeSum != nullptr;
        mVector = false;
        if (!mGlobal && mFuncs->poolRows) {
            return planVector(inputs[0]->length(0) * inputs[0]->length(1));
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mGlobal) {
            GlobalAverageJob g{mFuncs, inputs[0]->host<float>(), outputs[0]->host<float>(),
                               (int64_t)mGeom.input[0] * mGeom.input[1]};
            parallelFor(mPool, inputs[0]->length(0) * inputs[0]->length(1), g);
            return NO_ERROR;
        }
        if (mVector) {
            VectorPoolJob v;
            v.f = mFuncs;
            v.plane = &mPlane;
            v.x = inputs[0]->host<float>();
            v.y = outputs[0]->host<float>();
            v.scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
            v.invY = mInvY.data();
            v.invX = mInvX.data();
            v.emptyY = mEmptyY.data();
            v.emptyX = mEmptyX.data();
            v.anyEmpty = mAnyEmpty && mAttrs.type == Schema::PoolType::MAXPOOL;
            v.planes = inputs[0]->length(0) * inputs[0]->length(1);
            v.tasks = mTasks;
            v.oh = mGeom.output[0];
            v.ow = mGeom.output[1];
            v.taps = mGeom.kernel[0] * mGeom.kernel[1];
            v.isMax = mAttrs.type == Schema::PoolType::MAXPOOL ? 1 : 0;
            parallelFor(mPool, mTasks, v);
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
    /** the vector kernel's plan: padded layout, per-row / per-column divisors and empty windows */
    ErrorCode planVector(int planes) {
        const int oh = mGeom.output[0], ow = mGeom.output[1];
        if (planes <= 0 || oh <= 0 || ow <= 0 ||
            !mPlane.plan(mGeom.input[0], mGeom.input[1], oh, ow, mGeom.kernel[0], mGeom.kernel[1], mGeom.strides[0],
                         mGeom.strides[1], mGeom.dilations[0], mGeom.dilations[1], mGeom.padBegin[0],
                         mGeom.padBegin[1], mFuncs->dwLanes)) {
            return NO_ERROR;  // the direct loop
        }
        // per dimension: inside count and (count_include_pad) the count inside [-padBegin, in + padEnd)
        auto counts = [&](int d, int outLen, std::vector<float>* inv, std::vector<uint8_t>* empty) {
            inv->assign((size_t)outLen, 0.0f);
            empty->assign((size_t)outLen, 0);
            for (int o = 0; o < outLen; ++o) {
                int inside = 0, padded = 0;
                for (int k = 0; k < mGeom.kernel[d]; ++k) {
                    const int i = o * mGeom.strides[d] - mGeom.padBegin[d] + k * mGeom.dilations[d];
                    inside += (i >= 0 && i < mGeom.input[d]) ? 1 : 0;
                    padded += (i >= -mGeom.padBegin[d] && i < mGeom.input[d] + mGeom.padEnd[d]) ? 1 : 0;
                }
                const int c = mAttrs.countIncludePad ? padded : inside;
                (*inv)[(size_t)o] = c > 0 ? 1.0f / (float)c : 0.0f;
                (*empty)[(size_t)o] = inside == 0 ? 1 : 0;
                mAnyEmpty = mAnyEmpty || inside == 0;
            }
        };
        mAnyEmpty = false;
        counts(0, oh, &mInvY, &mEmptyY);
        counts(1, ow, &mInvX, &mEmptyX);
        const int threads = mPool ? mPool->threads() : 1;
        mTasks = std::max(1, std::min(planes, threads > 1 ? 4 * threads : 1));
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (size_t)(mPlane.planeFloats * mTasks))) {
            return OUT_OF_MEMORY;  // reported by the Session (the backend's scratch reason)
        }
        mVector = true;
        snprintf(mName, sizeof(mName), "pool_rows__%s %s", cpuTierName(mFuncs->tier),
                 mAttrs.type == Schema::PoolType::MAXPOOL ? "max" : "avg");
        return NO_ERROR;
    }

    PoolAttrs mAttrs;
    WindowGeometry mGeom;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    bool mGlobal = false;
    bool mVector = false;
    bool mAnyEmpty = false;
    int mTasks = 1;
    PaddedPlane mPlane;
    std::vector<float> mInvY, mInvX;
    std::vector<uint8_t> mEmptyY, mEmptyX;
    char mName[48] = {0};
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
