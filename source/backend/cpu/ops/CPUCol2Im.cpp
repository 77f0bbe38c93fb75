// Reference Col2Im: every column entry (channel c, block offset k, block position l) is added to image
// position l * stride - pad_begin + k * dilation when that lies inside the image.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {
class CPUCol2Im : public Execution {
public:
    CPUCol2Im(Backend* b, const Schema::ConvParam* p) : Execution(b) {
        if (p) {
            if (p->dilations()) mDil.assign(p->dilations()->begin(), p->dilations()->end());
            if (p->strides()) mStride.assign(p->strides()->begin(), p->strides()->end());
            if (p->pads()) mPads.assign(p->pads()->begin(), p->pads()->end());
        }
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto image = ShapeUtils::readInts(inputs[1]);
        auto block = ShapeUtils::readInts(inputs[2]);
        const size_t n = image.size();
        std::vector<int64_t> dil = mDil, stride = mStride, pads = mPads, blocks;
        if (dil.empty()) dil.assign(n, 1);
        if (stride.empty()) stride.assign(n, 1);
        if (pads.empty()) pads.assign(2 * n, 0);
        blocks.assign(n, 0);
        for (size_t i = 0; i < n; ++i) {
            blocks[i] = (image[i] + pads[i] + pads[i + n] - (dil[i] * (block[i] - 1) + 1)) / stride[i] + 1;
        }
        auto X = TensorUtils::shape(inputs[0]);
        const int N = X[0];
        const int64_t L = X[2];
        int64_t K = 1, P = 1;
        for (size_t i = 0; i < n; ++i) {
            K *= block[i];
            P *= image[i];
        }
        const int64_t C = X[1] / K;
        const float* src = inputs[0]->host<float>();
        float* dst = outputs[0]->host<float>();
        ::memset(dst, 0, sizeof(float) * (size_t)TensorUtils::elementCount(outputs[0]));
        std::vector<int64_t> kIdx(n), lIdx(n);
        for (int64_t nc = 0; nc < (int64_t)N * C; ++nc) {
            float* img = dst + nc * P;
            for (int64_t k = 0; k < K; ++k) {
                int64_t rest = k;
                for (int d = (int)n - 1; d >= 0; --d) {
                    kIdx[d] = rest % block[d];
                    rest /= block[d];
                }
                const float* col = src + (nc * K + k) * L;
                for (int64_t l = 0; l < L; ++l) {
                    int64_t r = l, off = 0;
                    bool inside = true;
                    for (int d = (int)n - 1; d >= 0; --d) {
                        lIdx[d] = r % blocks[d];
                        r /= blocks[d];
                    }
                    for (size_t d = 0; d < n && inside; ++d) {
                        int64_t pos = lIdx[d] * stride[d] - pads[d] + kIdx[d] * dil[d];
                        inside = pos >= 0 && pos < image[d];
                        off = off * image[d] + pos;
                    }
                    if (inside) {
                        img[off] += col[l];
                    }
                }
            }
        }
        return NO_ERROR;
    }

private:
    std::vector<int64_t> mDil, mStride, mPads;
};

static Execution* createCol2Im(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    return new CPUCol2Im(backend, op->param_as_ConvParam());
}
} // namespace MNN

MNN_REGISTER_CPU(Col2Im, createCol2Im)
