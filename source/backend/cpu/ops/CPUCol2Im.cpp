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
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        // image_shape / block_shape may be computed values: their length is known here, their values
        // are read at execute into these tables
        const size_t n = (size_t)TensorUtils::elementCount(inputs[1]);
        mImage.assign(n, 0);
        mBlock.assign(n, 0);
        mBlocks.assign(n, 0);
        mKIdx.assign(n, 0);
        mLIdx.assign(n, 0);
        mDilUse.assign(n, 1);
        mStrideUse.assign(n, 1);
        mPadsUse.assign(2 * n, 0);
        if (!mDil.empty()) mDilUse = mDil;
        if (!mStride.empty()) mStrideUse = mStride;
        if (!mPads.empty()) mPadsUse = mPads;
        if (mDilUse.size() != n || mStrideUse.size() != n || mPadsUse.size() != 2 * n ||
            TensorUtils::elementCount(inputs[2]) != (int64_t)n) {
            return error(INVALID_VALUE, "Col2Im: attributes do not match %d spatial axes", (int)n);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const size_t n = mImage.size();
        const int64_t* dil = mDilUse.data();
        const int64_t* stride = mStrideUse.data();
        const int64_t* pads = mPadsUse.data();
        int64_t* image = mImage.data();
        int64_t* block = mBlock.data();
        int64_t* blocks = mBlocks.data();
        for (size_t i = 0; i < n; ++i) {
            image[i] = ShapeUtils::readInt(inputs[1], (int64_t)i);
            block[i] = ShapeUtils::readInt(inputs[2], (int64_t)i);
            if (image[i] != outputs[0]->length(2 + (int)i) || block[i] <= 0) {
                return error(INPUT_DATA_ERROR, "Col2Im: image_shape / block_shape changed after the shape pass");
            }
            blocks[i] = (image[i] + pads[i] + pads[i + n] - (dil[i] * (block[i] - 1) + 1)) / stride[i] + 1;
        }
        const int N = inputs[0]->length(0);
        const int64_t L = inputs[0]->length(2);
        int64_t K = 1, P = 1;
        for (size_t i = 0; i < n; ++i) {
            K *= block[i];
            P *= image[i];
        }
        const int64_t C = inputs[0]->length(1) / K;
        const float* src = inputs[0]->host<float>();
        float* dst = outputs[0]->host<float>();
        ::memset(dst, 0, sizeof(float) * (size_t)TensorUtils::elementCount(outputs[0]));
        int64_t* kIdx = mKIdx.data();
        int64_t* lIdx = mLIdx.data();
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
    // sized in onResize
    std::vector<int64_t> mDilUse, mStrideUse, mPadsUse, mImage, mBlock, mBlocks, mKIdx, mLIdx;
};

static Execution* createCol2Im(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    return new CPUCol2Im(backend, op->param_as_ConvParam());
}
} // namespace MNN

MNN_REGISTER_CPU(Col2Im, createCol2Im)
