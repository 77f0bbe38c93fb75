#include "PackedLayout.hpp"
#include <string.h>
#include "core/TensorUtils.hpp"

namespace MNN {

int packedBlocks(int channels) {
    return (channels + kCpuPack - 1) / kCpuPack;
}

bool isCpuPacked(const Tensor* t) {
    auto des = TensorUtils::describe(t);
    return t->dimensions() == 4 && des->dimType == Tensor::CAFFE_C4 && des->pack == kCpuPack &&
           t->getType() == halide_type_of<float>();
}

void setCpuPacked(Tensor* t, bool packed) {
    auto des = TensorUtils::describe(t);
    des->dimType = packed ? Tensor::CAFFE_C4 : Tensor::CAFFE;
    des->pack = packed ? kCpuPack : 4;
}

// Both directions go through 16 x 16 tiles (positions x channels) so that reads and writes stay
// within a few cache lines; the compiler vectorises the inner loops for the baseline ISA.
void packNC16(const float* src, float* dst, int batch, int channels, int64_t plane) {
    const int blocks = packedBlocks(channels);
    for (int n = 0; n < batch; ++n) {
        for (int b = 0; b < blocks; ++b) {
            const int lanes = channels - b * kCpuPack < kCpuPack ? channels - b * kCpuPack : kCpuPack;
            const float* s = src + ((int64_t)n * channels + (int64_t)b * kCpuPack) * plane;
            float* d = dst + ((int64_t)n * blocks + b) * plane * kCpuPack;
            for (int64_t p0 = 0; p0 < plane; p0 += kCpuPack) {
                const int64_t pe = p0 + kCpuPack < plane ? p0 + kCpuPack : plane;
                if (lanes < kCpuPack) {
                    ::memset(d + p0 * kCpuPack, 0, (size_t)(pe - p0) * kCpuPack * sizeof(float));
                }
                for (int l = 0; l < lanes; ++l) {
                    const float* sl = s + (int64_t)l * plane;
                    for (int64_t p = p0; p < pe; ++p) {
                        d[p * kCpuPack + l] = sl[p];
                    }
                }
            }
        }
    }
}

void unpackNC16(const float* src, float* dst, int batch, int channels, int64_t plane) {
    const int blocks = packedBlocks(channels);
    for (int n = 0; n < batch; ++n) {
        for (int b = 0; b < blocks; ++b) {
            const int lanes = channels - b * kCpuPack < kCpuPack ? channels - b * kCpuPack : kCpuPack;
            const float* s = src + ((int64_t)n * blocks + b) * plane * kCpuPack;
            float* d = dst + ((int64_t)n * channels + (int64_t)b * kCpuPack) * plane;
            for (int64_t p0 = 0; p0 < plane; p0 += kCpuPack) {
                const int64_t pe = p0 + kCpuPack < plane ? p0 + kCpuPack : plane;
                for (int l = 0; l < lanes; ++l) {
                    float* dl = d + (int64_t)l * plane;
                    for (int64_t p = p0; p < pe; ++p) {
                        dl[p] = s[p * kCpuPack + l];
                    }
                }
            }
        }
    }
}

} // namespace MNN
