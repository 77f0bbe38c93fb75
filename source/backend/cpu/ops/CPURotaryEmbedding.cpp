// Reference RotaryEmbedding: per token (b, s) and head, the first `rot` channels are rotated by the
// cached angle of the token's position: pairs (x[i], x[i + rot/2]) (halves) or (x[2i], x[2i+1])
// (interleaved) become (cos x1 - sin x2, sin x1 + cos x2); the other channels are copied.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {
class CPURotaryEmbedding : public Execution {
public:
    CPURotaryEmbedding(Backend* b, bool interleaved, int rot, int numHeads)
        : Execution(b), mInterleaved(interleaved), mRotAttr(rot), mNumHeads(numHeads) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* X = inputs[0];
        const bool four = X->dimensions() == 4;
        const int B = X->length(0), S = four ? X->length(2) : X->length(1);
        const int H = four ? X->length(1) : mNumHeads;
        const int head = four ? X->length(3) : X->length(2) / mNumHeads;
        const int rot = mRotAttr > 0 ? mRotAttr : head;
        const int half = rot / 2;
        const float* x = inputs[0]->host<float>();
        const float* cosC = inputs[1]->host<float>();
        const float* sinC = inputs[2]->host<float>();
        float* y = outputs[0]->host<float>();
        const bool hasPos = ShapeUtils::has(inputs, 3);
        const int64_t maxPos = hasPos ? inputs[1]->length(0) : 0;
        for (int b = 0; b < B; ++b) {
            for (int s = 0; s < S; ++s) {
                int64_t row = (int64_t)b * S + s;
                if (hasPos) {
                    auto t = inputs[3]->getType();
                    int64_t pos = t.bits == 64 ? inputs[3]->host<int64_t>()[row] : inputs[3]->host<int32_t>()[row];
                    if (pos < 0 || pos >= maxPos) {
                        return error(INPUT_DATA_ERROR, "RotaryEmbedding: position id %lld outside [0, %lld)",
                                     (long long)pos, (long long)maxPos);
                    }
                    row = pos;
                }
                const float* c = cosC + row * half;
                const float* sn = sinC + row * half;
                for (int h = 0; h < H; ++h) {
                    // 4-D: [B, H, S, head]; 3-D: [B, S, H * head]
                    int64_t off = four ? (((int64_t)b * H + h) * S + s) * head : (((int64_t)b * S + s) * H + h) * head;
                    const float* xi = x + off;
                    float* yo = y + off;
                    for (int i = 0; i < half; ++i) {
                        const int i1 = mInterleaved ? 2 * i : i;
                        const int i2 = mInterleaved ? 2 * i + 1 : i + half;
                        const float x1 = xi[i1], x2 = xi[i2];
                        yo[i1] = c[i] * x1 - sn[i] * x2;
                        yo[i2] = sn[i] * x1 + c[i] * x2;
                    }
                    if (head > rot) {
                        ::memcpy(yo + rot, xi + rot, sizeof(float) * (head - rot));
                    }
                }
            }
        }
        return NO_ERROR;
    }

private:
    bool mInterleaved;
    int mRotAttr;
    int mNumHeads;
};

static Execution* createRotary(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_AttentionParam();
    return new CPURotaryEmbedding(backend, p && p->interleaved(), p ? p->rotaryEmbeddingDim() : 0,
                                  p ? p->numHeads() : 0);
}
} // namespace MNN

MNN_REGISTER_CPU(RotaryEmbedding, createRotary)
