// Reference RoiAlign (ONNX RoiAlign-16). Each output bin averages (avg) or maxes (max) a regular grid
// of bilinear samples. As in ONNX's reference: samples further than one pixel outside the image read
// 0, coordinates in [-1, 0] clamp to 0; max mode takes, per sample, the largest of the four weighted
// corner values, then the largest over the samples.
#include <math.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

class CPURoiAlign : public Execution {
public:
    CPURoiAlign(Backend* b, const Schema::RoiAlignParam* p)
        : Execution(b),
          mMax(p->mode() == 0),
          mOutH(p->outputHeight()),
          mOutW(p->outputWidth()),
          mSampling(p->samplingRatio()),
          mScale(p->spatialScale()),
          mHalfPixel(p->halfPixel()) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* X = inputs[0];
        const int N = X->length(0), C = X->length(1), H = X->length(2), W = X->length(3);
        const int R = inputs[1]->length(0);
        const float* x = inputs[0]->host<float>();
        const float* rois = inputs[1]->host<float>();
        const Tensor* batchT = inputs[2];
        float* y = outputs[0]->host<float>();
        for (int r = 0; r < R; ++r) {
            const int64_t bi = ShapeUtils::readInt(batchT, r);
            if (bi < 0 || bi >= N) {
                return error(INPUT_DATA_ERROR, "RoiAlign: batch index %lld of roi %d outside [0, %d)", (long long)bi, r,
                             N);
            }
        }
        const double offset = mHalfPixel ? 0.5 : 0.0;
        for (int r = 0; r < R; ++r) {
            const float* roi = rois + (int64_t)r * 4;
            const double x1 = roi[0] * (double)mScale - offset, y1 = roi[1] * (double)mScale - offset;
            const double x2 = roi[2] * (double)mScale - offset, y2 = roi[3] * (double)mScale - offset;
            double rw = x2 - x1, rh = y2 - y1;
            if (!mHalfPixel) {
                rw = fmax(rw, 1.0);
                rh = fmax(rh, 1.0);
            }
            if (!isfinite(rw) || !isfinite(rh) || !isfinite(x1) || !isfinite(y1)) {
                return error(INPUT_DATA_ERROR, "RoiAlign: roi %d has non-finite coordinates", r);
            }
            const double binH = rh / mOutH, binW = rw / mOutW;
            const double ghD = mSampling > 0 ? mSampling : ceil(rh / mOutH);
            const double gwD = mSampling > 0 ? mSampling : ceil(rw / mOutW);
            if (ghD * gwD > (double)(1 << 24)) {
                return error(INPUT_DATA_ERROR, "RoiAlign: roi %d needs %g samples per bin, more than %d", r, ghD * gwD,
                             1 << 24);
            }
            const int gh = ghD > 0 ? (int)ghD : 0, gw = gwD > 0 ? (int)gwD : 0;
            const double count = (double)(gh * gw > 1 ? gh * gw : 1);
            const int64_t batchIndex = ShapeUtils::readInt(batchT, r);
            for (int c = 0; c < C; ++c) {
                const float* img = x + (batchIndex * C + c) * H * W;
                float* out = y + (((int64_t)r * C + c) * mOutH) * mOutW;
                for (int ph = 0; ph < mOutH; ++ph) {
                    for (int pw = 0; pw < mOutW; ++pw) {
                        double acc = 0.0;
                        bool first = true;
                        for (int iy = 0; iy < gh; ++iy) {
                            const double sy = y1 + ph * binH + (iy + 0.5) * binH / gh;
                            for (int ix = 0; ix < gw; ++ix) {
                                const double sx = x1 + pw * binW + (ix + 0.5) * binW / gw;
                                double v = sampleAt(img, H, W, sy, sx);
                                if (mMax) {
                                    acc = first ? v : fmax(acc, v);
                                    first = false;
                                } else {
                                    acc += v;
                                }
                            }
                        }
                        out[ph * mOutW + pw] = (float)(mMax ? acc : acc / count);
                    }
                }
            }
        }
        return NO_ERROR;
    }

private:
    double sampleAt(const float* img, int H, int W, double yy, double xx) const {
        if (yy < -1.0 || yy > H || xx < -1.0 || xx > W || H == 0 || W == 0) {
            return 0.0;
        }
        yy = yy <= 0 ? 0 : yy;
        xx = xx <= 0 ? 0 : xx;
        int yl = (int)yy, xl = (int)xx, yh, xh;
        if (yl >= H - 1) {
            yh = yl = H - 1;
            yy = yl;
        } else {
            yh = yl + 1;
        }
        if (xl >= W - 1) {
            xh = xl = W - 1;
            xx = xl;
        } else {
            xh = xl + 1;
        }
        const double ly = yy - yl, lx = xx - xl, hy = 1.0 - ly, hx = 1.0 - lx;
        const double v1 = hy * hx * img[yl * W + xl], v2 = hy * lx * img[yl * W + xh];
        const double v3 = ly * hx * img[yh * W + xl], v4 = ly * lx * img[yh * W + xh];
        if (mMax) {
            return fmax(fmax(v1, v2), fmax(v3, v4));
        }
        return v1 + v2 + v3 + v4;
    }

    bool mMax;
    int mOutH, mOutW, mSampling;
    float mScale;
    bool mHalfPixel;
};

static Execution* createRoiAlign(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                 Backend* backend) {
    auto p = op->param_as_RoiAlignParam();
    return p ? new CPURoiAlign(backend, p) : nullptr;
}
} // namespace MNN

MNN_REGISTER_CPU(RoiAlign, createRoiAlign)
