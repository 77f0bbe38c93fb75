// Reference MatMul (numpy semantics, batch broadcast) and Gemm (alpha * A' * B' + beta * C), with the
// fused activation of GemmParam (ReLU / Clip). Floats accumulate in double, integers in 64 bits
// (wrapping like the C++ unsigned types); Gemm on integers uses double only when alpha or beta is not 1.
#include <type_traits>
#include "backend/cpu/CPUOpUtils.hpp"
#include "CPUMatMulFast.hpp"

namespace MNN {

struct Activation {
    Schema::FusedActivation type = Schema::FusedActivation::NONE;
    double lo = 0.0, hi = 6.0;
    double apply(double v) const {
        if (type == Schema::FusedActivation::RELU) {
            return v < 0.0 ? 0.0 : v;
        }
        if (type == Schema::FusedActivation::CLIP) {
            return v < lo ? lo : (v > hi ? hi : v);
        }
        return v;
    }
};

template <typename T>
using AccOf = typename std::conditional<std::is_floating_point<T>::value, double,
                                        typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type>::type;

template <typename T>
static T finish(AccOf<T> v, const Activation& act) {
    if (act.type == Schema::FusedActivation::NONE) {
        return (T)v;
    }
    if (std::is_floating_point<T>::value) {
        return (T)act.apply((double)v);
    }
    // integers: compare in double, keep exact values when not clipped
    double d = (double)v;
    double r = act.apply(d);
    return r == d ? (T)v : (T)r;
}

#define MNN_DISPATCH_TYPES(t, CALL)                                  \
    if (t == halide_type_of<float>()) {                              \
        CALL(float);                                                 \
    } else if (t == halide_type_of<double>()) {                      \
        CALL(double);                                                \
    } else if (t == halide_type_of<int32_t>()) {                     \
        CALL(int32_t);                                               \
    } else if (t == halide_type_of<int64_t>()) {                     \
        CALL(int64_t);                                               \
    } else if (t == halide_type_of<uint32_t>()) {                    \
        CALL(uint32_t);                                              \
    } else if (t == halide_type_of<uint64_t>()) {                    \
        CALL(uint64_t);                                              \
    } else {                                                         \
        return NOT_SUPPORT;                                          \
    }

class CPUMatMul : public Execution {
public:
    CPUMatMul(Backend* b, const Activation& act) : Execution(b), mAct(act) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto a = TensorUtils::shape(inputs[0]);
        auto b = TensorUtils::shape(inputs[1]);
        if (a.size() == 1) {
            a.insert(a.begin(), 1);
        }
        if (b.size() == 1) {
            b.push_back(1);
        }
        mM = a[a.size() - 2];
        mK = a.back();
        mN = b.back();
        std::vector<int> batchA(a.begin(), a.end() - 2), batchB(b.begin(), b.end() - 2);
        std::vector<int> batch;
        if (!ShapeBroadcast(batchA, batchB, &batch)) {
            return error(INVALID_VALUE, "MatMul: batch dims do not broadcast");
        }
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
                int64_t idx = rest % batch[d];
                rest /= batch[d];
                oa += idx * sa[d];
                ob += idx * sb[d];
            }
            mAOffset[(size_t)f] = oa * mM * mK;
            mBOffset[(size_t)f] = ob * mK * mN;
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = inputs[0]->getType();
#define MNN_MATMUL_CALL(T) run<T>(inputs[0], inputs[1], outputs[0])
        MNN_DISPATCH_TYPES(t, MNN_MATMUL_CALL)
#undef MNN_MATMUL_CALL
        return NO_ERROR;
    }

private:
    static bool ShapeBroadcast(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>* out) {
        size_t n = a.size() > b.size() ? a.size() : b.size();
        out->assign(n, 1);
        for (size_t i = 0; i < n; ++i) {
            int da = i < n - a.size() ? 1 : a[i - (n - a.size())];
            int db = i < n - b.size() ? 1 : b[i - (n - b.size())];
            if (da != db && da != 1 && db != 1) {
                return false;
            }
            (*out)[i] = da == 1 ? db : da;
        }
        return true;
    }
    template <typename T>
    void run(const Tensor* A, const Tensor* B, Tensor* C) {
        const T* a = A->host<T>();
        const T* b = B->host<T>();
        T* c = C->host<T>();
        for (size_t bi = 0; bi < mAOffset.size(); ++bi) {
            const T* ab = a + mAOffset[bi];
            const T* bb = b + mBOffset[bi];
            T* cb = c + (int64_t)bi * mM * mN;
            for (int64_t i = 0; i < mM; ++i) {
                for (int64_t j = 0; j < mN; ++j) {
                    AccOf<T> acc = 0;
                    for (int64_t k = 0; k < mK; ++k) {
                        acc += (AccOf<T>)ab[i * mK + k] * (AccOf<T>)bb[k * mN + j];
                    }
                    cb[i * mN + j] = finish<T>(acc, mAct);
                }
            }
        }
    }

    Activation mAct;
    int64_t mM = 0, mN = 0, mK = 0;
    std::vector<int64_t> mAOffset;
    std::vector<int64_t> mBOffset;
};

class CPUGemm : public Execution {
public:
    CPUGemm(Backend* b, float alpha, float beta, bool transA, bool transB, const Activation& act)
        : Execution(b), mAlpha(alpha), mBeta(beta), mTransA(transA), mTransB(transB), mAct(act) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mM = outputs[0]->length(0);
        mN = outputs[0]->length(1);
        mK = mTransA ? inputs[0]->length(0) : inputs[0]->length(1);
        mHasC = inputs.size() > 2 && inputs[2];
        if (mHasC) {
            mCStrides = CPUUtils::broadcastStrides(TensorUtils::shape(inputs[2]), {(int)mM, (int)mN});
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = inputs[0]->getType();
#define MNN_GEMM_CALL(T) run<T>(inputs, outputs[0])
        MNN_DISPATCH_TYPES(t, MNN_GEMM_CALL)
#undef MNN_GEMM_CALL
        return NO_ERROR;
    }

private:
    template <typename T>
    void run(const std::vector<Tensor*>& inputs, Tensor* Y) {
        const T* a = inputs[0]->host<T>();
        const T* b = inputs[1]->host<T>();
        const T* c = mHasC ? inputs[2]->host<T>() : nullptr;
        T* y = Y->host<T>();
        const bool exactInt = !std::is_floating_point<T>::value && mAlpha == 1.0f && mBeta == 1.0f;
        for (int64_t i = 0; i < mM; ++i) {
            for (int64_t j = 0; j < mN; ++j) {
                AccOf<T> acc = 0;
                for (int64_t k = 0; k < mK; ++k) {
                    const T av = mTransA ? a[k * mM + i] : a[i * mK + k];
                    const T bv = mTransB ? b[j * mK + k] : b[k * mN + j];
                    acc += (AccOf<T>)av * (AccOf<T>)bv;
                }
                const T* cv = c ? c + i * mCStrides[0] + j * mCStrides[1] : nullptr;
                if (exactInt) {
                    y[i * mN + j] = finish<T>(acc + (cv ? (AccOf<T>)*cv : 0), mAct);
                } else {
                    double r = (double)mAlpha * (double)acc + (cv ? (double)mBeta * (double)*cv : 0.0);
                    y[i * mN + j] = (T)mAct.apply(r);
                }
            }
        }
    }

    float mAlpha, mBeta;
    bool mTransA, mTransB;
    Activation mAct;
    int64_t mM = 0, mN = 0, mK = 0;
    bool mHasC = false;
    std::vector<int64_t> mCStrides;
};

static Activation activationOf(const Schema::GemmParam* p) {
    Activation act;
    if (p) {
        act.type = p->activation();
        act.lo = p->clipMin();
        act.hi = p->clipMax();
    }
    return act;
}

static LinearAttrs linearAttrs(const Schema::GemmParam* p, bool gemm) {
    LinearAttrs a;
    a.gemm = gemm;
    if (p) {
        a.alpha = gemm ? p->alpha() : 1.0f;
        a.beta = gemm ? p->beta() : 1.0f;
        a.transA = gemm && p->transA();
        a.transB = gemm && p->transB();
        a.activation = p->activation();
        a.clipMin = p->clipMin();
        a.clipMax = p->clipMax();
    }
    return a;
}

static Execution* createMatMul(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    // constant float 2-D B: packed SGEMM (CPUMatMulFast.cpp)
    if (auto fast = createFastLinear(inputs, linearAttrs(op->param_as_GemmParam(), false), backend)) {
        return fast;
    }
    return new CPUMatMul(backend, activationOf(op->param_as_GemmParam()));
}

static Execution* createGemm(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&, const Schema::Op* op,
                             Backend* backend) {
    auto p = op->param_as_GemmParam();
    if (auto fast = createFastLinear(inputs, linearAttrs(p, true), backend)) {
        return fast;
    }
    return new CPUGemm(backend, p ? p->alpha() : 1.0f, p ? p->beta() : 1.0f, p && p->transA(), p && p->transB(),
                       activationOf(p));
}

} // namespace MNN

MNN_REGISTER_CPU(MatMul, createMatMul)
MNN_REGISTER_CPU(Gemm, createGemm)
