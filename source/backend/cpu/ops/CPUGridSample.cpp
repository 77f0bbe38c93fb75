// Reference GridSample over n spatial axes: linear (2^n corners) / nearest / cubic (n = 2, A = -0.75),
// padding zeros / border / reflection, align_corners, following ONNX: each grid coordinate is
// denormalised; one outside the border ([0, len-1] with align_corners, else [-0.5, len-0.5]) is
// clamped to [0, len-1] (border) or reflected (reflection); then it is interpolated, and every tap
// outside the image reads 0 (zeros), the clamped pixel (border) or the reflected pixel (reflection).
#include <math.h>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUGridSample : public Execution {
public:
    CPUGridSample(Backend* b, int mode, int padding, bool align)
        : Execution(b), mMode(mode), mPadding(padding), mAlign(align) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto X = TensorUtils::shape(inputs[0]);
        mSpatial.assign(X.begin() + 2, X.end());
        const int n = (int)mSpatial.size();
        mCoord.resize(n);
        mBase.resize(n);
        mIdx.resize(n);
        mN = X[0];
        mC = X[1];
        mInPlane = 1;
        for (auto d : mSpatial) {
            mInPlane *= d;
        }
        mOutPlane = 1;
        for (int d = 2; d < outputs[0]->dimensions(); ++d) {
            mOutPlane *= outputs[0]->length(d);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int N = mN, C = mC;
        const int n = (int)mSpatial.size();
        const int64_t inPlane = mInPlane, outPlane = mOutPlane;
        const float* x = inputs[0]->host<float>();
        const float* grid = inputs[1]->host<float>();
        float* y = outputs[0]->host<float>();
        for (int b = 0; b < N; ++b) {
            for (int64_t o = 0; o < outPlane; ++o) {
                const float* g = grid + ((int64_t)b * outPlane + o) * n;
                for (int d = 0; d < n; ++d) {
                    // grid component 0 addresses the innermost axis
                    const int len = mSpatial[d];
                    mCoord[d] = padCoordinate(denormalize(g[n - 1 - d], len), len);
                }
                for (int c = 0; c < C; ++c) {
                    const float* img = x + ((int64_t)b * C + c) * inPlane;
                    y[((int64_t)b * C + c) * outPlane + o] = inPlane == 0 ? 0.0f : (float)sample(img);
                }
            }
        }
        return NO_ERROR;
    }

private:
    double denormalize(double v, int len) const {
        return mAlign ? (v + 1.0) / 2.0 * (len - 1) : ((v + 1.0) * len - 1.0) / 2.0;
    }
    static double reflect(double v, double lo, double hi) {
        double range = hi - lo;
        if (range <= 0.0) {
            return lo;
        }
        if (v < lo) {
            double dx = lo - v;
            double k = floor(dx / range);
            double r = dx - k * range;
            return fmod(k, 2.0) == 0.0 ? lo + r : hi - r;
        }
        if (v > hi) {
            double dx = v - hi;
            double k = floor(dx / range);
            double r = dx - k * range;
            return fmod(k, 2.0) == 0.0 ? hi - r : lo + r;
        }
        return v;
    }
    double padCoordinate(double v, int len) const {
        if (!isfinite(v)) {
            return mPadding == 0 ? -2.0 : 0.0;  // NaN / inf grids read padding (zeros) or the first pixel
        }
        const double lo = mAlign ? 0.0 : -0.5, hi = mAlign ? len - 1.0 : len - 0.5;
        if (mPadding == 1 && (v < lo || v > hi)) {
            return v < 0.0 ? 0.0 : (v > len - 1 ? (double)(len - 1) : v);
        }
        if (mPadding == 2) {
            return reflect(v, lo, hi);
        }
        // zeros: every tap of a coordinate beyond [-3, len + 3] is outside the image anyway; clamping keeps
        // the integer conversions of far-away coordinates defined
        return v < -3.0 ? -3.0 : (v > len + 3.0 ? len + 3.0 : v);
    }
    /** the value at integer position mIdx with the padding rule */
    float pixel(const float* img) const {
        const int n = (int)mSpatial.size();
        int64_t off = 0;
        for (int d = 0; d < n; ++d) {
            const int len = mSpatial[d];
            int64_t i = mIdx[d];
            if (mPadding == 0) {
                if (i < 0 || i >= len) {
                    return 0.0f;
                }
            } else {
                if (mPadding == 2) {
                    i = (int64_t)(mAlign ? reflect((double)i, 0.0, len - 1) : reflect((double)i, -0.5, len - 0.5));
                }
                i = i < 0 ? 0 : (i >= len ? len - 1 : i);
            }
            off = off * len + i;
        }
        return img[off];
    }
    static double cubicWeight(double t) {
        const double A = -0.75;
        t = fabs(t);
        if (t <= 1.0) {
            return ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0;
        }
        if (t < 2.0) {
            return ((A * t - 5.0 * A) * t + 8.0 * A) * t - 4.0 * A;
        }
        return 0.0;
    }
    double sample(const float* img) {
        const int n = (int)mSpatial.size();
        if (mMode == 1) {  // nearest, ties to even
            for (int d = 0; d < n; ++d) {
                mIdx[d] = (int64_t)nearbyint(mCoord[d]);
            }
            return pixel(img);
        }
        for (int d = 0; d < n; ++d) {
            mBase[d] = floor(mCoord[d]);
        }
        if (mMode == 0) {  // linear: every corner of the enclosing cell
            double acc = 0.0;
            for (int corner = 0; corner < (1 << n); ++corner) {
                double w = 1.0;
                for (int d = 0; d < n; ++d) {
                    const int bit = (corner >> (n - 1 - d)) & 1;
                    const double t = mCoord[d] - mBase[d];
                    w *= bit ? t : 1.0 - t;
                    mIdx[d] = (int64_t)mBase[d] + bit;
                }
                if (w != 0.0) {
                    acc += w * pixel(img);
                }
            }
            return acc;
        }
        // cubic, 2 spatial axes: 4x4 taps around the cell
        double wy[4], wx[4];
        const double ty = mCoord[0] - mBase[0], tx = mCoord[1] - mBase[1];
        for (int k = 0; k < 4; ++k) {
            wy[k] = cubicWeight(ty - (k - 1));
            wx[k] = cubicWeight(tx - (k - 1));
        }
        double acc = 0.0;
        for (int a = 0; a < 4; ++a) {
            double row = 0.0;
            for (int c = 0; c < 4; ++c) {
                mIdx[0] = (int64_t)mBase[0] - 1 + a;
                mIdx[1] = (int64_t)mBase[1] - 1 + c;
                row += wx[c] * pixel(img);
            }
            acc += wy[a] * row;
        }
        return acc;
    }

    int mMode;
    int mPadding;
    bool mAlign;
    std::vector<int> mSpatial;
    std::vector<double> mCoord, mBase;
    std::vector<int64_t> mIdx;
    int mN = 0, mC = 0;
    int64_t mInPlane = 0, mOutPlane = 0;
};

static Execution* createGridSample(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                   Backend* backend) {
    auto p = op->param_as_GridSampleParam();
    if (!p) {
        return nullptr;
    }
    return new CPUGridSample(backend, p->mode(), p->paddingMode(), p->alignCorners());
}
} // namespace MNN

MNN_REGISTER_CPU(GridSample, createGridSample)
