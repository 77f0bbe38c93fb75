// Fast MatMul / Gemm with constant weights: Y[M x N] = X[M x K] * W + bias[N] is computed as
// Y^T = W^T X^T + bias (rows of the GEMM = output features, so the bias and the fused activation
// go in the GEMM's store and the weights are packed once at onResize). X is packed per run into
// B panels (transposing on the fly); Y^T lands in the backend scratch and is transposed into Y
// (M == 1 writes Y directly). fp32 accumulation.
#include "CPUMatMulFast.hpp"
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUGemm.hpp"

namespace MNN {

namespace {
// B panel p of X^T: B[q][j] = X[j][q] for columns j in [p*nr, p*nr + nr)
struct PackXJob {
    const float* x;
    float* packed;
    int m, k, nr;
    void operator()(int p) const {
        float* dst = packed + (int64_t)p * nr * k;
        const int j0 = p * nr;
        const int cols = std::min(nr, m - j0);
        for (int q = 0; q < k; ++q) {
            float* d = dst + (int64_t)q * nr;
            for (int j = 0; j < cols; ++j) {
                d[j] = x[(int64_t)(j0 + j) * k + q];
            }
            for (int j = cols; j < nr; ++j) {
                d[j] = 0.0f;
            }
        }
    }
};
// Few rows (M < kGemvRows): dot products of X's rows with W^T's rows (8 partial sums), outputs
// [c * kGemvChunk, ...) per task.
constexpr int kGemvRows = 4;
constexpr int kGemvChunk = 64;
struct GemvJob {
    const float* x;
    const float* wt;
    const float* bias;
    float* y;
    int m, n, k;
    GemmPost post;
    void operator()(int c) const {
        const int n0 = c * kGemvChunk, n1 = std::min(n, n0 + kGemvChunk);
        for (int i = 0; i < m; ++i) {
            const float* xr = x + (int64_t)i * k;
            for (int j = n0; j < n1; ++j) {
                const float* wr = wt + (int64_t)j * k;
                float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
                int q = 0;
                for (; q + 8 <= k; q += 8) {
                    for (int u = 0; u < 8; ++u) {
                        acc[u] += wr[q + u] * xr[q + u];
                    }
                }
                float v = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
                for (; q < k; ++q) {
                    v += wr[q] * xr[q];
                }
                v += bias[j];
                if (post.act == 1) {
                    v = v > 0.0f ? v : 0.0f;
                } else if (post.act == 2) {
                    v = std::min(std::max(v, post.lo), post.hi);
                }
                y[(int64_t)i * n + j] = v;
            }
        }
    }
};
}  // namespace

class CPULinearFast : public Execution {
public:
    CPULinearFast(Backend* b, const LinearAttrs& a) : Execution(b), mAttrs(a) {
        if (a.activation == Schema::FusedActivation::RELU) {
            mPost.act = 1;
        } else if (a.activation == Schema::FusedActivation::CLIP) {
            mPost.act = 2;
            mPost.lo = a.clipMin;
            mPost.hi = a.clipMax;
        }
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        mAlgo[0] = 0;
    }
    const char* algorithm() const override {
        return mAlgo;
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const Tensor* w = inputs[1];
        const int xr = x->dimensions();
        if (xr < (mAttrs.gemm ? 2 : 1) || (mAttrs.gemm && xr != 2)) {
            MNN_ERROR("%s: A must be %s, got rank %d\n", mAttrs.gemm ? "Gemm" : "MatMul",
                      mAttrs.gemm ? "2-D" : "at least 1-D", xr);
            return INVALID_VALUE;
        }
        const int wk = mAttrs.transB ? w->length(1) : w->length(0);
        const int wn = mAttrs.transB ? w->length(0) : w->length(1);
        mK = x->length(xr - 1);
        if (mK != wk) {
            MNN_ERROR("%s: A's last dim %d does not match B's %d\n", mAttrs.gemm ? "Gemm" : "MatMul", mK, wk);
            return INVALID_VALUE;
        }
        mN = wn;
        int64_t rows = 1;
        for (int d = 0; d + 1 < xr; ++d) {
            rows *= x->length(d);
        }
        mM = (int)rows;
        mFuncs = &cpuCoreFunctions();
        // weights W^T [N x K] packed as the GEMM's A, alpha folded in
        std::vector<float>& wt = mWt;
        wt.assign((size_t)mN * mK, 0.0f);
        const float* wp = w->host<float>();
        for (int i = 0; i < mN; ++i) {
            for (int q = 0; q < mK; ++q) {
                const float v = mAttrs.transB ? wp[(int64_t)i * mK + q] : wp[(int64_t)q * mN + i];
                wt[(size_t)i * mK + q] = mAttrs.alpha * v;
            }
        }
        mPackedA.assign((size_t)gemmPackedASize(*mFuncs, mN, mK), 0.0f);
        gemmPackA(*mFuncs, wt.data(), mK, mN, mK, mPackedA.data());
        mBias.assign((size_t)((mN + mFuncs->mr - 1) / mFuncs->mr * mFuncs->mr), 0.0f);
        if (mAttrs.gemm && inputs.size() > 2 && inputs[2]) {
            const Tensor* c = inputs[2];
            const int64_t cn = TensorUtils::elementCount(c);
            const float* cp = c->host<float>();
            for (int i = 0; i < mN; ++i) {
                mBias[(size_t)i] = mAttrs.beta * cp[cn == 1 ? 0 : i];
            }
        }
        const size_t packB = (size_t)gemmPackedBSize(*mFuncs, mM, mK);
        const size_t yt = mM == 1 ? 0 : (size_t)mN * mM;
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (packB + yt + 16))) {
            return OUT_OF_MEMORY;
        }
        if (mM < kGemvRows) {
            snprintf(mAlgo, sizeof(mAlgo), "gemv");
        } else {
            snprintf(mAlgo, sizeof(mAlgo), "gemm %s", mFuncs->sgemmName);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mM == 0 || mN == 0) {
            return NO_ERROR;
        }
        if (mM < kGemvRows) {
            GemvJob gemv;
            gemv.x = inputs[0]->host<float>();
            gemv.wt = mWt.data();
            gemv.bias = mBias.data();
            gemv.y = outputs[0]->host<float>();
            gemv.m = mM;
            gemv.n = mN;
            gemv.k = mK;
            gemv.post = mPost;
            const int chunks = (mN + kGemvChunk - 1) / kGemvChunk;
            parallelFor(mPool, chunks, gemv);
            return NO_ERROR;
        }
        float* scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        float* packed = scratch;
        const size_t packB = (size_t)gemmPackedBSize(*mFuncs, mM, mK);
        PackXJob job;
        job.x = inputs[0]->host<float>();
        job.packed = packed;
        job.m = mM;
        job.k = mK;
        job.nr = mFuncs->nr;
        parallelFor(mPool, (mM + job.nr - 1) / job.nr, job);
        float* y = outputs[0]->host<float>();
        if (mM == 1) {
            gemmRunPacked(*mFuncs, mN, 1, mK, mPackedA.data(), packed, mBias.data(), y, 1, mPost, mPool);
            return NO_ERROR;
        }
        // align Y^T to 16 floats after the packed panels
        float* yt = scratch + (packB + 15) / 16 * 16;
        gemmRunPacked(*mFuncs, mN, mM, mK, mPackedA.data(), packed, mBias.data(), yt, mM, mPost, mPool);
        for (int i = 0; i < mM; ++i) {
            float* yr = y + (int64_t)i * mN;
            for (int j = 0; j < mN; ++j) {
                yr[j] = yt[(int64_t)j * mM + i];
            }
        }
        return NO_ERROR;
    }

private:
    LinearAttrs mAttrs;
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    int mM = 0, mN = 0, mK = 0;
    std::vector<float> mPackedA, mBias, mWt;
    char mAlgo[64];
};

// MatMul of two float inputs (activations, rank >= 2, numpy batch broadcast): per batch entry both
// operands are packed into the backend scratch and one GEMM writes C [M x N] in place.
class CPUBatchedMatMulFast : public Execution {
public:
    CPUBatchedMatMulFast(Backend* b, const LinearAttrs& a) : Execution(b) {
        if (a.activation == Schema::FusedActivation::RELU) {
            mPost.act = 1;
        } else if (a.activation == Schema::FusedActivation::CLIP) {
            mPost.act = 2;
            mPost.lo = a.clipMin;
            mPost.hi = a.clipMax;
        }
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        mAlgo[0] = 0;
    }
    const char* algorithm() const override {
        return mAlgo;
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto a = TensorUtils::shape(inputs[0]);
        auto b = TensorUtils::shape(inputs[1]);
        auto c = TensorUtils::shape(outputs[0]);
        if (a.size() < 2 || b.size() < 2 || c.size() < 2 || a.back() != b[b.size() - 2]) {
            MNN_ERROR("MatMul: A %s and B %s do not multiply\n", TensorUtils::shapeString(a).c_str(),
                      TensorUtils::shapeString(b).c_str());
            return INVALID_VALUE;
        }
        mM = a[a.size() - 2];
        mK = a.back();
        mN = b.back();
        std::vector<int> batch(c.begin(), c.end() - 2);
        std::vector<int> batchA(a.begin(), a.end() - 2), batchB(b.begin(), b.end() - 2);
        auto sa = CPUUtils::broadcastStrides(batchA, batch);
        auto sb = CPUUtils::broadcastStrides(batchB, batch);
        int64_t count = 1;
        for (auto d : batch) {
            count *= d;
        }
        mAOffset.assign((size_t)count, 0);
        mBOffset.assign((size_t)count, 0);
        for (int64_t f = 0; f < count; ++f) {
            int64_t rest = f, oa = 0, ob = 0;
            for (int d = (int)batch.size() - 1; d >= 0; --d) {
                const int64_t idx = rest % batch[d];
                rest /= batch[d];
                oa += idx * sa[d];
                ob += idx * sb[d];
            }
            mAOffset[(size_t)f] = oa * mM * mK;
            mBOffset[(size_t)f] = ob * mK * mN;
        }
        mFuncs = &cpuCoreFunctions();
        // Strassen-Winograd levels by the cost model (not at Precision_High: its error bound grows
        // with every level); MNN_MATMUL_ALGO=strassen forces one level where the sizes are even,
        // gemm none
        const char* env = getenv("MNN_MATMUL_ALGO");
        const bool high = static_cast<CPUBackend*>(backend())->precision() == BackendConfig::Precision_High;
        mStrassen = high ? 0 : gemmStrassenLevels(mM, mN, mK, 3);
        if (env && strcmp(env, "gemm") == 0) {
            mStrassen = 0;
        } else if (env && strcmp(env, "strassen") == 0) {
            mStrassen = mM % 2 == 0 && mN % 2 == 0 && mK % 2 == 0 ? 1 : 0;
        }
        if (mStrassen > 0) {
            const int64_t floats = gemmStrassenScratchFloats(*mFuncs, mM, mN, mK, mStrassen);
            if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (size_t)floats)) {
                return OUT_OF_MEMORY;
            }
            snprintf(mAlgo, sizeof(mAlgo), "strassen-%d %s", mStrassen, mFuncs->sgemmName);
            return NO_ERROR;
        }
        mBias.assign((size_t)((mM + mFuncs->mr - 1) / mFuncs->mr * mFuncs->mr), 0.0f);
        mPackA = (size_t)gemmPackedASize(*mFuncs, mM, mK);
        mPackA = (mPackA + 15) / 16 * 16;
        const size_t packB = (size_t)gemmPackedBSize(*mFuncs, mN, mK);
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (mPackA + packB + 16))) {
            return OUT_OF_MEMORY;
        }
        snprintf(mAlgo, sizeof(mAlgo), "batched-gemm %s", mFuncs->sgemmName);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mM == 0 || mN == 0) {
            return NO_ERROR;
        }
        float* scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        float* pa = scratch;
        float* pb = scratch + mPackA;
        const float* a = inputs[0]->host<float>();
        const float* b = inputs[1]->host<float>();
        float* c = outputs[0]->host<float>();
        if (mStrassen > 0) {
            for (size_t bi = 0; bi < mAOffset.size(); ++bi) {
                float* cb = c + (int64_t)bi * mM * mN;
                gemmStrassen(*mFuncs, mM, mN, mK, a + mAOffset[bi], mK, b + mBOffset[bi], mN, cb, mN, mStrassen,
                             scratch, mPool);
                if (mPost.act == 1) {
                    mFuncs->unaryF32((int)VecUnaryOp::RELU, cb, cb, (int64_t)mM * mN, 0.0f, 0.0f);
                } else if (mPost.act == 2) {
                    mFuncs->unaryF32((int)VecUnaryOp::CLIP, cb, cb, (int64_t)mM * mN, mPost.lo, mPost.hi);
                }
            }
            return NO_ERROR;
        }
        for (size_t bi = 0; bi < mAOffset.size(); ++bi) {
            gemmPackA(*mFuncs, a + mAOffset[bi], mK, mM, mK, pa);
            gemmPackB(*mFuncs, b + mBOffset[bi], mN, mN, mK, pb);
            gemmRunPacked(*mFuncs, mM, mN, mK, pa, pb, mBias.data(), c + (int64_t)bi * mM * mN, mN, mPost, mPool);
        }
        return NO_ERROR;
    }

private:
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    int mM = 0, mN = 0, mK = 0, mStrassen = 0;
    size_t mPackA = 0;
    std::vector<int64_t> mAOffset, mBOffset;
    std::vector<float> mBias;
    char mAlgo[64];
};

static bool isConstFloat(const Tensor* t) {
    return t && CPUUtils::isFloat(t) && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT &&
           t->host<float>() != nullptr;
}

Execution* createFastLinear(const std::vector<Tensor*>& inputs, const LinearAttrs& attrs, Backend* backend) {
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;
    }
    if (!attrs.gemm && inputs.size() == 2 && inputs[0] && inputs[1] && CPUUtils::isFloat(inputs[0]) &&
        CPUUtils::isFloat(inputs[1]) && inputs[0]->dimensions() >= 2 && inputs[1]->dimensions() >= 2 &&
        !(isConstFloat(inputs[1]) && inputs[1]->dimensions() == 2)) {
        return new CPUBatchedMatMulFast(backend, attrs);
    }
    if (inputs.size() < 2 || !inputs[0] || !CPUUtils::isFloat(inputs[0]) || !isConstFloat(inputs[1]) ||
        inputs[1]->dimensions() != 2 || attrs.transA) {
        return nullptr;
    }
    if (attrs.gemm && inputs.size() > 2 && inputs[2]) {
        const Tensor* c = inputs[2];
        if (!isConstFloat(c)) {
            return nullptr;
        }
        const int n = attrs.transB ? inputs[1]->length(0) : inputs[1]->length(1);
        const int64_t cn = TensorUtils::elementCount(c);
        const int cr = c->dimensions();
        const bool rowBroadcast =
            cn == 1 || (cr == 1 && c->length(0) == n) || (cr == 2 && c->length(0) == 1 && c->length(1) == n);
        if (!rowBroadcast) {
            return nullptr;
        }
    }
    if (!attrs.gemm && inputs[0]->dimensions() < 2) {
        return nullptr;
    }
    return new CPULinearFast(backend, attrs);
}

}  // namespace MNN
