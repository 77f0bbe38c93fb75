// Fast MatMul / Gemm with constant weights: Y[M x N] = X[M x K] * W + bias[N] is computed as
// Y^T = W^T X^T + bias (rows of the GEMM = output features, so the bias and the fused activation
// go in the GEMM's store and the weights are packed once at onResize). X is packed per run into
// B panels (transposing on the fly); Y^T lands in the backend scratch and is transposed into Y
// (M == 1 writes Y directly). fp32 accumulation.
#include "CPUMatMulFast.hpp"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUGemm.hpp"
#include "core/TensorUtils.hpp"

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
// Few rows (M < kGemvRows): the packed-layout tile kernel with the rows of X as its positions
// (xPosStride K, input "blocks" of 16 consecutive features) and W^T packed per group of Q
// 16-column blocks; task c runs group c into Y^T blocks [NB][M][16] in scratch.
constexpr int kGemvRows = 4;
struct GemvJob {
    const CPUCoreFunctions* funcs;
    const float* x;
    const float* w;         // per group: [kBlocks][16][Qg * 16]
    const uint16_t* wHalf;  // the same as IEEE half (w unused), or null
    const int64_t* wOff;    // float offset of each group's weights
    const float* bias;      // NB * 16
    float* yt;              // [NB][M][16]
    int m, k, groupBlocks, blocks;
    int lastLanes;  // columns in the last block (PackedConvTile::yLastLanes)
    int prefetch;   // PackedConvTile::prefetch: weights beyond L2
    const GemmPost* post;
    void operator()(int c) const {
        PackedConvTile t;
        const int32_t zero = 0;
        t.x = x;
        t.xPosStride = k;
        t.xBlockStride = 16;
        t.kBlocks = (k + 15) / 16;
        t.kLast = k - (t.kBlocks - 1) * 16;
        t.tapOff = &zero;
        t.tapIdx = &zero;
        const int b0 = c * groupBlocks;
        t.Q = std::min(groupBlocks, blocks - b0);
        t.yLastLanes = b0 + t.Q == blocks ? lastLanes : 16;
        t.w = wHalf ? nullptr : w + wOff[c];
        t.wHalf = wHalf ? wHalf + wOff[c] : nullptr;
        t.bias = bias + (int64_t)b0 * 16;
        t.y = yt + (int64_t)b0 * m * 16;
        t.yBlockStride = (int64_t)m * 16;
        t.P = m;
        t.post = post;
        t.prefetch = prefetch;
        funcs->packedConv(&t);
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
            return error(INVALID_VALUE, "%s: A must be %s, got rank %d", mAttrs.gemm ? "Gemm" : "MatMul",
                         mAttrs.gemm ? "2-D" : "at least 1-D", xr);
        }
        const int wk = mAttrs.transB ? w->length(1) : w->length(0);
        const int wn = mAttrs.transB ? w->length(0) : w->length(1);
        mK = x->length(xr - 1);
        if (mK != wk) {
            return error(INVALID_VALUE, "%s: A's last dim %d does not match B's %d", mAttrs.gemm ? "Gemm" : "MatMul",
                         mK, wk);
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
        // one packed copy of the weights, for the path this M takes (M comes back here on resize)
        if (mM >= kGemvRows) {
            mPackedA.assign((size_t)gemmPackedASize(*mFuncs, mN, mK), 0.0f);
            gemmPackA(*mFuncs, wt.data(), mK, mN, mK, mPackedA.data());
        } else {
            LargeVector<float>().swap(mPackedA);
        }
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
        size_t yt = mM == 1 ? 0 : (size_t)mN * mM;
        LargeVector<uint16_t>().swap(mGemvH);
        if (mM < kGemvRows && mK > 0) {
            packGemvWeights();
            yt = (size_t)mBlocks * 16 * mM;
            halfGemvWeights();
        } else {
            LargeVector<float>().swap(mGemvW);
        }
        std::vector<float>().swap(mWt);
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) * (packB + yt + 16))) {
            return OUT_OF_MEMORY;
        }
        if (mM < kGemvRows) {
            snprintf(mAlgo, sizeof(mAlgo), "gemv%s %s", mGemvH.empty() ? "" : "-f16", mFuncs->packedConvName);
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
            float* y = outputs[0]->host<float>();
            if (mK == 0) {
                for (int i = 0; i < mM; ++i) {
                    for (int j = 0; j < mN; ++j) {
                        float v = mBias[(size_t)j];
                        y[(int64_t)i * mN + j] = mPost.act == 1   ? std::max(v, 0.0f)
                                                 : mPost.act == 2 ? std::min(std::max(v, mPost.lo), mPost.hi)
                                                                  : v;
                    }
                }
                return NO_ERROR;
            }
            float* yt = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
            GemvJob gemv;
            gemv.funcs = mFuncs;
            gemv.x = inputs[0]->host<float>();
            gemv.w = mGemvW.data();
            gemv.wHalf = mGemvH.empty() ? nullptr : mGemvH.data();
            gemv.wOff = mGemvOff.data();
            gemv.bias = mGemvBias.data();
            gemv.yt = yt;
            gemv.m = mM;
            gemv.k = mK;
            gemv.groupBlocks = mFuncs->pcQMax;
            gemv.blocks = mBlocks;
            gemv.lastLanes = mN - (mBlocks - 1) * 16;
            gemv.post = mPost.act ? &mPost : nullptr;
            const size_t wBytes = mGemvH.empty() ? mGemvW.size() * sizeof(float) : mGemvH.size() * sizeof(uint16_t);
            gemv.prefetch = wBytes >= (size_t)(1 << 20) ? 1 : 0;  // read once: from memory
            parallelFor(mPool, (int)mGemvOff.size(), gemv);
            for (int i = 0; i < mM; ++i) {
                float* yr = y + (int64_t)i * mN;
                for (int j = 0; j < mN; ++j) {
                    yr[j] = yt[((int64_t)(j / 16) * mM + i) * 16 + j % 16];
                }
            }
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
    // W^T into the tile kernel's layout, per group of pcQMax 16-column blocks (zero padded)
    void packGemvWeights() {
        const int qMax = mFuncs->pcQMax;
        const int kBlocks = (mK + 15) / 16;
        mBlocks = (mN + 15) / 16;
        mGemvOff.clear();
        mGemvW.assign((size_t)kBlocks * 16 * mBlocks * 16, 0.0f);
        int64_t off = 0;
        for (int b0 = 0; b0 < mBlocks; b0 += qMax) {
            const int q = std::min(qMax, mBlocks - b0);
            mGemvOff.push_back(off);
            for (int kk = 0; kk < mK; ++kk) {
                for (int j = 0; j < q * 16 && b0 * 16 + j < mN; ++j) {
                    mGemvW[(size_t)(off + (int64_t)kk * q * 16 + j)] = mWt[(size_t)(b0 * 16 + j) * mK + kk];
                }
            }
            off += (int64_t)kBlocks * 16 * q * 16;
        }
        mGemvBias.assign((size_t)mBlocks * 16, 0.0f);
        std::copy(mBias.begin(), mBias.begin() + mN, mGemvBias.begin());
    }

    /**
     * A GEMV reads each weight once per run, from L3 or memory: below Precision_High, where the
     * tile kernel takes half weights, they are kept as IEEE half (half the bytes; the products and
     * sums stay float, the weights' relative rounding is at most 2^-11). Weights outside the half
     * range keep the float path.
     */
    void halfGemvWeights() {
        const bool high = static_cast<CPUBackend*>(backend())->precision() == BackendConfig::Precision_High;
        if (high || mFuncs->pcHalfMaxP < mM) {
            return;
        }
        if (!CPUUtils::halfWeights(mGemvW.data(), mGemvW.size(), CPUUtils::halfWeightsMinBytes(backend()), &mGemvH)) {
            return;
        }
        LargeVector<float>().swap(mGemvW);
    }

    LinearAttrs mAttrs;
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    int mM = 0, mN = 0, mK = 0, mBlocks = 0;
    std::vector<float> mBias, mWt, mGemvBias;
    LargeVector<float> mPackedA, mGemvW;
    LargeVector<uint16_t> mGemvH;
    std::vector<int64_t> mGemvOff;
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
            return error(INVALID_VALUE, "MatMul: A %s and B %s do not multiply", TensorUtils::shapeString(a).c_str(),
                         TensorUtils::shapeString(b).c_str());
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
