// Reference GridSample (4-D): bilinear / nearest / bicubic (A = -0.75), padding zeros / border /
// reflection, align_corners, following ONNX: the grid coordinate is denormalised; one outside the
// border is clamped to [0, len-1] (border) or reflected (reflection); then it is interpolated; every tap outside the image reads 0 (zeros),
// the clamped pixel (border) or the reflected pixel (reflection).
#include <math.h>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUGridSample : public Execution {
public:
    CPUGridSample(Backend* b, int mode, int padding, bool align)
        : Execution(b), mMode(mode), mPadding(padding), mAlign(align) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto X = TensorUtils::shape(inputs[0]);
        auto G = TensorUtils::shape(inputs[1]);
        const int N = X[0], C = X[1], H = X[2], W = X[3], Ho = G[1], Wo = G[2];
        const float* x = inputs[0]->host<float>();
        const float* grid = inputs[1]->host<float>();
        float* y = outputs[0]->host<float>();
        for (int n = 0; n < N; ++n) {
            for (int i = 0; i < Ho; ++i) {
                for (int j = 0; j < Wo; ++j) {
                    const float* g = grid + (((int64_t)n * Ho + i) * Wo + j) * 2;
                    double gx = denormalize(g[0], W);
                    double gy = denormalize(g[1], H);
                    gx = padCoordinate(gx, W);
                    gy = padCoordinate(gy, H);
                    for (int c = 0; c < C; ++c) {
                        const float* img = x + ((int64_t)n * C + c) * H * W;
                        y[(((int64_t)n * C + c) * Ho + i) * Wo + j] = (float)sample(img, H, W, gx, gy);
                    }
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
            double n = floor(dx / range);
            double r = dx - n * range;
            return fmod(n, 2.0) == 0.0 ? lo + r : hi - r;
        }
        if (v > hi) {
            double dx = v - hi;
            double n = floor(dx / range);
            double r = dx - n * range;
            return fmod(n, 2.0) == 0.0 ? hi - r : lo + r;
        }
        return v;
    }
    double padCoordinate(double v, int len) const {
        if (!isfinite(v)) {
            return mPadding == 0 ? -2.0 : 0.0;  // NaN / inf grids read padding (zeros) or the first pixel
        }
        if (mPadding == 1) {
            // only coordinates outside the border ([0, len-1] or [-0.5, len-0.5]) are clamped
            const double lo = mAlign ? 0.0 : -0.5, hi = mAlign ? len - 1.0 : len - 0.5;
            if (v < lo || v > hi) {
                return v < 0.0 ? 0.0 : (v > len - 1 ? (double)(len - 1) : v);
            }
            return v;
        }
        if (mPadding == 2) {
            return mAlign ? reflect(v, 0.0, len - 1) : reflect(v, -0.5, len - 0.5);
        }
        return v;
    }
    float pixel(const float* img, int H, int W, int64_t r, int64_t c) const {
        if (mPadding == 0) {
            return (r >= 0 && r < H && c >= 0 && c < W) ? img[r * W + c] : 0.0f;
        }
        if (mPadding == 2) {
            c = (int64_t)(mAlign ? reflect((double)c, 0.0, W - 1) : reflect((double)c, -0.5, W - 0.5));
            r = (int64_t)(mAlign ? reflect((double)r, 0.0, H - 1) : reflect((double)r, -0.5, H - 0.5));
        }
        c = c < 0 ? 0 : (c >= W ? W - 1 : c);
        r = r < 0 ? 0 : (r >= H ? H - 1 : r);
        return img[r * W + c];
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
    double sample(const float* img, int H, int W, double gx, double gy) const {
        if (H == 0 || W == 0) {
            return 0.0;
        }
        if (mMode == 1) {  // nearest, ties to even
            return pixel(img, H, W, (int64_t)nearbyint(gy), (int64_t)nearbyint(gx));
        }
        const double fx = floor(gx), fy = floor(gy);
        const int64_t x0 = (int64_t)fx, y0 = (int64_t)fy;
        const double tx = gx - fx, ty = gy - fy;
        if (mMode == 0) {
            return (1 - ty) * ((1 - tx) * pixel(img, H, W, y0, x0) + tx * pixel(img, H, W, y0, x0 + 1)) +
                   ty * ((1 - tx) * pixel(img, H, W, y0 + 1, x0) + tx * pixel(img, H, W, y0 + 1, x0 + 1));
        }
        double wx[4], wy[4];
        for (int k = 0; k < 4; ++k) {
            wx[k] = cubicWeight(tx - (k - 1));
            wy[k] = cubicWeight(ty - (k - 1));
        }
        double acc = 0.0;
        for (int a = 0; a < 4; ++a) {
            double row = 0.0;
            for (int b = 0; b < 4; ++b) {
                row += wx[b] * pixel(img, H, W, y0 - 1 + a, x0 - 1 + b);
            }
            acc += wy[a] * row;
        }
        return acc;
    }

    int mMode;
    int mPadding;
    bool mAlign;
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
