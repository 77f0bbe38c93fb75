// Reference Resize (ONNX Resize-19): nearest / linear / cubic over any number of axes, every
// coordinate transform, antialias, exclude_outside, tf_crop_and_resize extrapolation.
// Each output coordinate gets a list of taps (input index, weight) per axis; an output element is the
// tensor product of its axes' taps (separable filters), computed in double.
// Fast path (float32, nearest / linear without an antialiased downscale, not tf_crop_and_resize,
// only the last two axes resized): the same taps, turned into at most two source columns and
// weights per output column and two source rows and weights per output row; each output row is the
// table's horizontal pass over its source rows (kept while consecutive output rows share them) and
// one vertical blend, rows split over the thread pool. MNN_RESIZE_ALGO=reference forces the
// reference.
#include <limits>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <type_traits>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ResizeGeometry.hpp"

namespace MNN {
using Schema::CoordTransform;
using Schema::NearestMode;
using Schema::ResizeMode;

/** maps output coordinate x of one axis to the input coordinate; *outside for tf_crop_and_resize */
// lenOut is the real-valued resized length (input length times scale), as in ONNX's definition.
static double originalCoordinate(CoordTransform ct, double x, double scale, int lenIn, double lenOut, int outInt,
                                 double roiStart, double roiEnd, bool* outside) {
    *outside = false;
    switch (ct) {
        case CoordTransform::HALF_PIXEL:
            return (x + 0.5) / scale - 0.5;
        case CoordTransform::HALF_PIXEL_SYMMETRIC: {
            double adjustment = (double)outInt / lenOut;
            double center = (double)lenIn / 2.0;
            double offset = center * (1.0 - adjustment);
            return offset + (x + 0.5) / scale - 0.5;
        }
        case CoordTransform::PYTORCH_HALF_PIXEL:
            return lenOut > 1.0 ? (x + 0.5) / scale - 0.5 : 0.0;
        case CoordTransform::TF_HALF_PIXEL_FOR_NN:
            return (x + 0.5) / scale;
        case CoordTransform::ALIGN_CORNERS:
            return lenOut == 1.0 ? 0.0 : x * (double)(lenIn - 1) / (lenOut - 1.0);
        case CoordTransform::TF_CROP_AND_RESIZE: {
            double v = lenOut > 1.0 ? roiStart * (lenIn - 1) + x * (roiEnd - roiStart) * (lenIn - 1) / (lenOut - 1.0)
                                  : 0.5 * (roiStart + roiEnd) * (lenIn - 1);
            *outside = v < 0.0 || v > (double)(lenIn - 1);
            return v;
        }
        case CoordTransform::ASYMMETRIC:
        default:
            return x / scale;
    }
}

static double cubicKernel(double t, double A) {
    t = fabs(t);
    if (t <= 1.0) {
        return ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0;
    }
    if (t < 2.0) {
        return ((A * t - 5.0 * A) * t + 8.0 * A) * t - 4.0 * A;
    }
    return 0.0;
}

template <typename T>
static T fromDouble(double v) {
    if constexpr (std::is_floating_point<T>::value) {
        return (T)v;
    } else {
        double r = nearbyint(v);
        double lo = (double)std::numeric_limits<T>::lowest();
        double hi = (double)std::numeric_limits<T>::max();
        if (!(r >= lo)) {
            return std::numeric_limits<T>::lowest();
        }
        if (r >= hi) {
            return std::numeric_limits<T>::max();
        }
        return (T)r;
    }
}

class CPUResize : public Execution {
public:
    CPUResize(Backend* b, const ResizeConfig& cfg) : Execution(b), mCfg(cfg) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = inputs[0]->getType();
        if (t != outputs[0]->getType() || (t.code == halide_type_float && t.bits != 32 && t.bits != 64)) {
            return error(NOT_SUPPORT, "Resize: X type %s is not supported", TensorUtils::typeName(t));
        }
        if (outputs[0]->dimensions() > MNN_MAX_TENSOR_DIM) {
            return error(NOT_SUPPORT, "Resize: rank %d is more than %d", outputs[0]->dimensions(), MNN_MAX_TENSOR_DIM);
        }
        // roi / scales / sizes that are constants (or absent) give the taps now; computed ones hold their
        // values only at execute, where the taps are rebuilt when those values change
        mReady = false;
        mFast = false;
        mParams.prepare(inputs, 1);
        if (CPUUtils::constantsFrom(inputs, 1)) {
            auto code = plan(inputs, outputs);
            if (code != NO_ERROR) {
                return code;
            }
            mReady = true;
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!mReady && mParams.changed(inputs)) {
            auto code = plan(inputs, outputs);
            if (code != NO_ERROR) {
                mParams.prepare(inputs, 1);  // plan again next time
                return code;
            }
        }
        if (mFast) {
            runFast(inputs[0]->host<float>(), outputs[0]->host<float>());
            return NO_ERROR;
        }
        auto t = inputs[0]->getType();
        if (t.code == halide_type_float) {
            if (t.bits == 64) {
                run<double>(inputs[0], outputs[0]);
            } else if (t.bits == 32) {
                run<float>(inputs[0], outputs[0]);
            } else {
                return NOT_SUPPORT;
            }
        } else if (t.code == halide_type_int) {
            switch (t.bits) {
                case 8: run<int8_t>(inputs[0], outputs[0]); break;
                case 16: run<int16_t>(inputs[0], outputs[0]); break;
                case 32: run<int32_t>(inputs[0], outputs[0]); break;
                default: run<int64_t>(inputs[0], outputs[0]); break;
            }
        } else {
            switch (t.bits) {
                case 8: run<uint8_t>(inputs[0], outputs[0]); break;
                case 16: run<uint16_t>(inputs[0], outputs[0]); break;
                case 32: run<uint32_t>(inputs[0], outputs[0]); break;
                default: run<uint64_t>(inputs[0], outputs[0]); break;
            }
        }
        return NO_ERROR;
    }

private:
    /** geometry from the current roi / scales / sizes values, then the taps */
    ErrorCode plan(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
        mFast = false;
        ResizeGeometry g;
        std::string err;
        if (!computeResizeGeometry(mCfg, inputs, &g, &err)) {
            return error(INPUT_DATA_ERROR, "Resize: %s", err.c_str());
        }
        if (g.outDims != TensorUtils::shape(outputs[0])) {
            return error(INPUT_DATA_ERROR, "Resize: scales / sizes changed after the shape pass");
        }
        buildTaps(TensorUtils::shape(inputs[0]), g);
        planFast(inputs[0], outputs[0]);
        return NO_ERROR;
    }

public:
    const char* algorithm() const override {
        return mFast ? mFuncs->resizeName : "reference";
    }

private:
    // one axis of the fast path: per output coordinate two source indices and weights
    struct Axis {
        std::vector<int32_t> i0, i1;
        std::vector<float> w0, w1;
        bool gather = true;  // every coordinate is one tap of weight 1
    };
    // the taps of axis d as Axis (offsets divided by the axis' stride); false if any has more than
    // two taps or one tap of weight other than 1
    bool axisFromTaps(int d, int64_t stride, int lenOut, Axis* a) const {
        a->i0.resize(lenOut);
        a->i1.resize(lenOut);
        a->w0.resize(lenOut);
        a->w1.resize(lenOut);
        a->gather = true;
        for (int o = 0; o < lenOut; ++o) {
            const int64_t b = mTapBegin[d][o], e = mTapBegin[d][o + 1];
            if (e - b == 1 && mTapWeight[b] == 1.0) {
                // one tap: the same source twice at half weight (exact, and inf stays inf)
                a->i0[o] = a->i1[o] = (int32_t)(mTapOffset[b] / stride);
                a->w0[o] = a->w1[o] = 0.5f;
            } else if (e - b == 2) {
                a->i0[o] = (int32_t)(mTapOffset[b] / stride);
                a->i1[o] = (int32_t)(mTapOffset[b + 1] / stride);
                a->w0[o] = (float)mTapWeight[b];
                a->w1[o] = (float)mTapWeight[b + 1];
                a->gather = false;
            } else {
                return false;
            }
        }
        return true;
    }
    void planFast(const Tensor* X, const Tensor* Y) {
        mFast = false;
        const char* env = getenv("MNN_RESIZE_ALGO");
        const int rank = X->dimensions();
        if ((env && strcmp(env, "reference") == 0) || X->getType() != halide_type_of<float>() || rank < 2 ||
            mCfg.mode == ResizeMode::CUBIC || mCfg.coord == CoordTransform::TF_CROP_AND_RESIZE) {
            return;
        }
        const int64_t ih = X->length(rank - 2), iw = X->length(rank - 1);
        const int oh = Y->length(rank - 2), ow = Y->length(rank - 1);
        if (ih * iw >= ((int64_t)1 << 31) || (int64_t)oh * ow == 0) {
            return;
        }
        // leading axes unchanged: one tap of weight 1 at the same index
        mPlanes = 1;
        const auto strides = CPUUtils::strides(TensorUtils::shape(X));
        for (int d = 0; d < rank - 2; ++d) {
            if (X->length(d) != Y->length(d)) {
                return;
            }
            for (int o = 0; o < Y->length(d); ++o) {
                const int64_t b = mTapBegin[d][o], e = mTapBegin[d][o + 1];
                const int64_t expect = (int64_t)o * strides[d];
                if (e - b != 1 || mTapWeight[b] != 1.0 || mTapOffset[b] != expect) {
                    return;
                }
            }
            mPlanes *= X->length(d);
        }
        if (!axisFromTaps(rank - 2, iw, oh, &mRows) || !axisFromTaps(rank - 1, 1, ow, &mCols)) {
            return;
        }
        mIh = ih;
        mIw = iw;
        mOh = oh;
        mOw = ow;
        auto cpu = static_cast<CPUBackend*>(backend());
        mPool = cpu->threadPool();
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t rows = mPlanes * oh;
        const int64_t work = rows * ow;
        mTasks = (int)std::max<int64_t>(1, std::min<int64_t>(rows, work >= 16384 ? 4 * threads : 1));
        mScratch.assign(mRows.gather ? 0 : (size_t)mTasks * 2 * ow, 0.0f);
        mFuncs = &cpuCoreFunctions();
        mFast = true;
    }

    struct FastJob {
        CPUResize* self;
        const float* src;
        float* dst;
        int tasks;
        void operator()(int t) const {
            self->fastRows(src, dst, t, tasks);
        }
    };
    void runFast(const float* src, float* dst) {
        FastJob job{this, src, dst, mTasks};
        parallelFor(mPool, mTasks, job);
    }
    // output rows [rows * t / tasks, rows * (t + 1) / tasks) of all planes
    void fastRows(const float* src, float* dst, int t, int tasks) {
        const int64_t rows = mPlanes * mOh;
        const int64_t r0 = rows * t / tasks, r1 = rows * (t + 1) / tasks;
        const Axis& c = mCols;
        const float* cw0 = c.gather ? nullptr : c.w0.data();
        const float* cw1 = c.gather ? nullptr : c.w1.data();
        float* buf[2] = {nullptr, nullptr};
        int64_t key[2] = {-1, -1};  // plane * ih + source row held by buf[k]
        if (!mRows.gather) {
            buf[0] = mScratch.data() + (size_t)t * 2 * mOw;
            buf[1] = buf[0] + mOw;
        }
        // the horizontal pass of source row k (plane * ih + row), kept unless it is `keep`
        auto fetch = [&](int64_t k, int64_t keep) -> const float* {
            for (int s = 0; s < 2; ++s) {
                if (key[s] == k) {
                    return buf[s];
                }
            }
            const int s = key[0] == keep ? 1 : 0;
            mFuncs->resizeRowH(src + k * mIw, c.i0.data(), c.i1.data(), cw0, cw1, buf[s], mOw);
            key[s] = k;
            return buf[s];
        };
        int64_t prevKey = -1;
        for (int64_t r = r0; r < r1; ++r) {
            const int64_t p = r / mOh;
            const int oy = (int)(r - p * mOh);
            float* out = dst + r * mOw;
            const int64_t k0 = p * mIh + mRows.i0[oy];
            if (mRows.gather) {
                if (k0 == prevKey) {
                    memcpy(out, out - mOw, sizeof(float) * (size_t)mOw);
                } else {
                    mFuncs->resizeRowH(src + k0 * mIw, c.i0.data(), c.i1.data(), cw0, cw1, out, mOw);
                }
                prevKey = k0;
                continue;
            }
            const int64_t k1 = p * mIh + mRows.i1[oy];
            const float* h0 = fetch(k0, -1);
            const float* h1 = fetch(k1, k0);
            mFuncs->resizeBlendV(h0, h1, mRows.w0[oy], mRows.w1[oy], out, mOw);
        }
    }
    // Taps of every output coordinate of every axis: mTapBegin[d][o]..mTapBegin[d][o+1] index into
    // mTapOffset (input element offset along axis d, already times the stride) and mTapWeight.
    void buildTaps(const std::vector<int>& inDims, const ResizeGeometry& g) {
        const int rank = (int)inDims.size();
        auto strides = CPUUtils::strides(inDims);
        mTapBegin.resize(rank);
        mOutside.resize(rank);
        mTapOffset.clear();
        mTapWeight.clear();
        std::vector<double>& coeff = mCoeff;
        for (int d = 0; d < rank; ++d) {
            const int lenIn = inDims[d], lenOut = g.outDims[d];
            mTapBegin[d].assign(1, (int64_t)mTapOffset.size());
            mOutside[d].assign(lenOut, 0);
            for (int o = 0; o < lenOut; ++o) {
                bool outside = false;
                double x = originalCoordinate(mCfg.coord, (double)o, g.scales[d], lenIn, g.lengthResized[d], lenOut,
                                              g.roiStart[d],
                                              g.roiEnd[d], &outside);
                mOutside[d][o] = outside ? 1 : 0;
                // far beyond either edge every tap clamps to the edge pixel: bounding x there changes no
                // result and keeps the integer conversions below defined (huge tf_crop_and_resize rois)
                const double bound = 8.0 * lenIn + 1e6;
                x = (outside || x != x) ? 0.0 : (x < -bound ? -bound : (x > bound ? bound : x));
                double fl = floor(x);
                bool integral = (x == fl);
                if (mCfg.mode == ResizeMode::NEAREST) {
                    int64_t idx = (int64_t)fl;
                    if (!integral) {
                        double r = x - fl;
                        bool up = false;
                        switch (mCfg.nearest) {
                            case NearestMode::ROUND_PREFER_FLOOR: up = r > 0.5; break;
                            case NearestMode::ROUND_PREFER_CEIL: up = r >= 0.5; break;
                            case NearestMode::FLOOR: up = false; break;
                            case NearestMode::CEIL: up = true; break;
                        }
                        idx += up ? 1 : 0;
                    }
                    idx = idx < 0 ? 0 : (idx >= lenIn ? lenIn - 1 : idx);
                    mTapOffset.push_back(idx * strides[d]);
                    mTapWeight.push_back(1.0);
                    mTapBegin[d].push_back((int64_t)mTapOffset.size());
                    continue;
                }
                // linear / cubic: the filter stretched by 1/scale when antialiasing a downscale
                double s = (mCfg.antialias && g.scales[d] < 1.0) ? g.scales[d] : 1.0;
                bool cubic = mCfg.mode == ResizeMode::CUBIC;
                int start = (int)floor((cubic ? -2.0 : -1.0) / s) + 1;
                int count = 2 - 2 * start;
                // ratio in (0, 1]: an integral coordinate takes the left neighbour with ratio 1
                double base = integral ? fl - 1.0 : fl;
                double ratio = x - base;
                coeff.assign(count, 0.0);
                double sum = 0.0;
                for (int i = 0; i < count; ++i) {
                    double tt = ((double)(start + i) - ratio) * s;
                    double c = cubic ? cubicKernel(tt, mCfg.cubicA) : fmax(0.0, 1.0 - fabs(tt));
                    int64_t idx = (int64_t)base + start + i;
                    if (mCfg.excludeOutside && (idx < 0 || idx >= lenIn)) {
                        c = 0.0;
                    }
                    coeff[i] = c;
                    sum += c;
                }
                bool normalize = (mCfg.excludeOutside || s < 1.0) && sum != 0.0;
                for (int i = 0; i < count; ++i) {
                    if (coeff[i] == 0.0) {
                        continue;
                    }
                    int64_t idx = (int64_t)base + start + i;
                    idx = idx < 0 ? 0 : (idx >= lenIn ? lenIn - 1 : idx);
                    mTapOffset.push_back(idx * strides[d]);
                    mTapWeight.push_back(normalize ? coeff[i] / sum : coeff[i]);
                }
                mTapBegin[d].push_back((int64_t)mTapOffset.size());
            }
        }
    }

    template <typename T>
    double accumulate(const T* src, int d, int rank, const int* oIdx, int64_t offset) const {
        const int64_t b = mTapBegin[d][oIdx[d]], e = mTapBegin[d][oIdx[d] + 1];
        double acc = 0.0;
        if (d == rank - 1) {
            for (int64_t k = b; k < e; ++k) {
                acc += mTapWeight[k] * (double)src[offset + mTapOffset[k]];
            }
            return acc;
        }
        for (int64_t k = b; k < e; ++k) {
            acc += mTapWeight[k] * accumulate(src, d + 1, rank, oIdx, offset + mTapOffset[k]);
        }
        return acc;
    }

    template <typename T>
    void run(const Tensor* X, Tensor* Y) const {
        const int rank = Y->dimensions();
        int outDims[MNN_MAX_TENSOR_DIM] = {0};
        for (int d = 0; d < rank; ++d) {
            outDims[d] = Y->length(d);
        }
        const T* src = X->host<T>();
        T* dst = Y->host<T>();
        int64_t total = TensorUtils::elementCount(Y);
        if (total == 0) {
            return;
        }
        if (rank == 0) {
            dst[0] = src[0];
            return;
        }
        int idx[MNN_MAX_TENSOR_DIM] = {0};
        const bool crop = mCfg.coord == CoordTransform::TF_CROP_AND_RESIZE;
        const T extrapolation = fromDouble<T>((double)mCfg.extrapolation);
        for (int64_t o = 0; o < total; ++o) {
            bool outside = false;
            if (crop) {
                for (int d = 0; d < rank && !outside; ++d) {
                    outside = mOutside[d][idx[d]] != 0;
                }
            }
            dst[o] = outside ? extrapolation : fromDouble<T>(accumulate(src, 0, rank, idx, 0));
            for (int d = rank - 1; d >= 0; --d) {
                if (++idx[d] < outDims[d]) {
                    break;
                }
                idx[d] = 0;
            }
        }
    }

    ResizeConfig mCfg;
    bool mReady = false;
    CPUUtils::ParamBytes mParams;
    std::vector<double> mCoeff;
    std::vector<std::vector<int64_t>> mTapBegin;
    std::vector<std::vector<uint8_t>> mOutside;
    std::vector<int64_t> mTapOffset;
    std::vector<double> mTapWeight;
    // fast path
    bool mFast = false;
    const CPUCoreFunctions* mFuncs = nullptr;
    ThreadPool* mPool = nullptr;
    int mTasks = 1;
    int64_t mPlanes = 0, mIh = 0, mIw = 0;
    int mOh = 0, mOw = 0;
    Axis mRows, mCols;
    std::vector<float> mScratch;  // per task: two horizontally resampled rows
};

static Execution* createResize(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_ResizeParam();
    if (!p) {
        return nullptr;
    }
    ResizeConfig cfg;
    cfg.load(p);
    return new CPUResize(backend, cfg);
}
} // namespace MNN

MNN_REGISTER_CPU(Resize, createResize)
