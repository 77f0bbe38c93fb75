// Fast float32 UnaryOp / BinaryOp: the table's vectorised kernels over runs of elements.
// Binary broadcasting is planned in onResize: adjacent output dims merge while both operands stay
// linear across them, so the innermost run is as long as possible and each operand is either
// contiguous (stride 1) or a repeated scalar (stride 0) along it; onExecute walks the outer dims
// with a fixed-size odometer and calls one kernel per run. Large tensors split over the pool.
#include "CPUElementwiseFast.hpp"
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {
using Schema::BinaryOpType;
using Schema::UnaryOpType;

namespace {

constexpr int64_t kMinTaskElements = 16384;  // below this a task costs more than it saves

bool elementwiseForcedReference() {
    const char* env = getenv("MNN_ELEMENTWISE");
    return env && strcmp(env, "reference") == 0;
}

bool allFloat(const std::vector<Tensor*>& ts) {
    for (auto t : ts) {
        if (!t || !CPUUtils::isFloat(t)) {
            return false;
        }
    }
    return true;
}

/** splits n elements into tasks of at least kMinTaskElements, at most 4 per thread, 16-aligned */
struct Chunks {
    int count = 1;
    int64_t size = 0;
    void plan(int64_t n, int threads) {
        count = 1;
        size = n;
        if (threads > 1 && n >= 2 * kMinTaskElements) {
            int64_t c = std::min<int64_t>(4 * threads, n / kMinTaskElements);
            size = ((n + c - 1) / c + 15) / 16 * 16;
            count = (int)((n + size - 1) / size);
        }
    }
};

struct UnaryJob {
    const CPUCoreFunctions* f;
    int op;
    const float* x;
    float* y;
    int64_t n, chunk;
    float a, b;
    void operator()(int t) const {
        const int64_t begin = t * chunk;
        const int64_t len = std::min(chunk, n - begin);
        f->unaryF32(op, x + begin, y + begin, len, a, b);
    }
};

class CPUUnaryFast : public Execution {
public:
    CPUUnaryFast(Backend* b, VecUnaryOp op, float alpha, float beta)
        : Execution(b), mOp(op), mAlpha(alpha), mBeta(beta) {
    }
    const char* algorithm() const override {
        return mName;
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mFuncs = &cpuCoreFunctions();
        mPool = static_cast<CPUBackend*>(backend())->threadPool();
        mN = TensorUtils::elementCount(inputs[0]);
        mChunks.plan(mN, mPool ? mPool->threads() : 1);
        mName[0] = 0;
        strncat(mName, "unary_f32__", sizeof(mName) - 1);
        strncat(mName, cpuTierName(mFuncs->tier), sizeof(mName) - strlen(mName) - 1);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        UnaryJob job{mFuncs, (int)mOp, inputs[0]->host<float>(), outputs[0]->host<float>(), mN, mChunks.size,
                     mAlpha, mBeta};
        parallelFor(mPool, mChunks.count, job);
        return NO_ERROR;
    }

private:
    VecUnaryOp mOp;
    float mAlpha, mBeta;
    const CPUCoreFunctions* mFuncs = nullptr;
    ThreadPool* mPool = nullptr;
    int64_t mN = 0;
    Chunks mChunks;
    char mName[32] = {0};
};

/** collapsed broadcast plan: dims[0..nd), innermost last; sa / sb element strides (0 = broadcast) */
struct BinaryPlan {
    int nd = 0;
    int64_t dims[MNN_MAX_TENSOR_DIM];
    int64_t sa[MNN_MAX_TENSOR_DIM];
    int64_t sb[MNN_MAX_TENSOR_DIM];
    int64_t rows = 1;   // product of the outer dims
    int64_t inner = 1;  // dims[nd - 1]
    int mode = 0;       // kernel mode of the inner run
};

struct BinaryJob {
    const CPUCoreFunctions* f;
    const BinaryPlan* plan;
    int op;
    const float* a;
    const float* b;
    float* c;
    int64_t rowsPerTask;  // when splitting rows
    int64_t colChunk;     // when splitting one long run (rows == 1)
    void operator()(int t) const {
        const BinaryPlan& p = *plan;
        if (p.rows == 1) {
            const int64_t begin = t * colChunk;
            const int64_t len = std::min(colChunk, p.inner - begin);
            const float* ap = a + (p.mode == 2 ? 0 : begin);
            const float* bp = b + (p.mode == 1 ? 0 : begin);
            f->binaryF32(op, ap, bp, c + begin, len, p.mode);
            return;
        }
        const int64_t r0 = t * rowsPerTask;
        const int64_t r1 = std::min(p.rows, r0 + rowsPerTask);
        // odometer of the outer dims at row r0
        int64_t idx[MNN_MAX_TENSOR_DIM] = {0};
        int64_t oa = 0, ob = 0;
        int64_t rest = r0;
        for (int d = p.nd - 2; d >= 0; --d) {
            idx[d] = rest % p.dims[d];
            rest /= p.dims[d];
            oa += idx[d] * p.sa[d];
            ob += idx[d] * p.sb[d];
        }
        for (int64_t r = r0; r < r1; ++r) {
            f->binaryF32(op, a + oa, b + ob, c + r * p.inner, p.inner, p.mode);
            for (int d = p.nd - 2; d >= 0; --d) {
                ++idx[d];
                oa += p.sa[d];
                ob += p.sb[d];
                if (idx[d] < p.dims[d]) {
                    break;
                }
                oa -= p.sa[d] * p.dims[d];
                ob -= p.sb[d] * p.dims[d];
                idx[d] = 0;
            }
        }
    }
};

class CPUBinaryFast : public Execution {
public:
    CPUBinaryFast(Backend* b, VecBinaryOp op) : Execution(b), mOp(op) {
    }
    const char* algorithm() const override {
        return mName;
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mFuncs = &cpuCoreFunctions();
        mPool = static_cast<CPUBackend*>(backend())->threadPool();
        const Tensor* out = outputs[0];
        const int rank = out->dimensions();
        // right-aligned broadcast strides of both operands
        int64_t dims[MNN_MAX_TENSOR_DIM], sa[MNN_MAX_TENSOR_DIM], sb[MNN_MAX_TENSOR_DIM];
        for (int k = 0; k < 2; ++k) {
            const Tensor* in = inputs[k];
            int64_t* s = k == 0 ? sa : sb;
            const int r = in->dimensions();
            int64_t stride = 1;
            for (int d = rank - 1; d >= 0; --d) {
                const int id = d - (rank - r);
                const int64_t len = id >= 0 ? in->length(id) : 1;
                s[d] = len == 1 ? 0 : stride;
                stride *= len;
            }
        }
        for (int d = 0; d < rank; ++d) {
            dims[d] = out->length(d);
        }
        // drop size-1 dims, then merge (outer, inner) pairs whose strides stay linear for both operands
        BinaryPlan& p = mPlan;
        p.nd = 0;
        for (int d = 0; d < rank; ++d) {
            if (dims[d] == 1) {
                continue;
            }
            if (p.nd > 0) {
                const int q = p.nd - 1;
                if (p.sa[q] == sa[d] * dims[d] && p.sb[q] == sb[d] * dims[d]) {
                    p.dims[q] *= dims[d];
                    p.sa[q] = sa[d];
                    p.sb[q] = sb[d];
                    continue;
                }
            }
            p.dims[p.nd] = dims[d];
            p.sa[p.nd] = sa[d];
            p.sb[p.nd] = sb[d];
            ++p.nd;
        }
        if (p.nd == 0) {  // a single element
            p.nd = 1;
            p.dims[0] = 1;
            p.sa[0] = 1;
            p.sb[0] = 1;
        }
        p.inner = p.dims[p.nd - 1];
        p.rows = 1;
        for (int d = 0; d + 1 < p.nd; ++d) {
            p.rows *= p.dims[d];
        }
        const int64_t ia = p.sa[p.nd - 1], ib = p.sb[p.nd - 1];
        p.mode = (ia != 0 && ib != 0) ? 0 : (ia != 0 ? 1 : 2);
        if (ia == 0 && ib == 0) {
            p.mode = 0;  // inner length 1 (both broadcast is impossible otherwise)
        }
        // tasks
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t total = p.rows * p.inner;
        mTasks = 1;
        mRowsPerTask = p.rows;
        mColChunk = p.inner;
        if (threads > 1 && total >= 2 * kMinTaskElements) {
            if (p.rows == 1) {
                Chunks c;
                c.plan(p.inner, threads);
                mTasks = c.count;
                mColChunk = c.size;
            } else {
                int64_t want = std::min<int64_t>(4 * threads, total / kMinTaskElements);
                want = std::max<int64_t>(1, std::min(want, p.rows));
                mRowsPerTask = (p.rows + want - 1) / want;
                mTasks = (int)((p.rows + mRowsPerTask - 1) / mRowsPerTask);
            }
        }
        mName[0] = 0;
        strncat(mName, "binary_f32__", sizeof(mName) - 1);
        strncat(mName, cpuTierName(mFuncs->tier), sizeof(mName) - strlen(mName) - 1);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mPlan.rows * mPlan.inner == 0) {
            return NO_ERROR;
        }
        BinaryJob job{mFuncs, &mPlan, (int)mOp, inputs[0]->host<float>(), inputs[1]->host<float>(),
                      outputs[0]->host<float>(), mRowsPerTask, mColChunk};
        parallelFor(mPool, mTasks, job);
        return NO_ERROR;
    }

private:
    VecBinaryOp mOp;
    const CPUCoreFunctions* mFuncs = nullptr;
    ThreadPool* mPool = nullptr;
    BinaryPlan mPlan;
    int mTasks = 1;
    int64_t mRowsPerTask = 1, mColChunk = 1;
    char mName[32] = {0};
};

} // namespace

Execution* createFastUnary(const std::vector<Tensor*>& inputs, const Schema::UnaryParam* param, Backend* backend) {
    if (!param || inputs.size() != 1 || !allFloat(inputs) || elementwiseForcedReference()) {
        return nullptr;
    }
    VecUnaryOp op;
    float a = 0.0f, b = 0.0f;
    switch (param->type()) {
        case UnaryOpType::RELU: op = VecUnaryOp::RELU; break;
        case UnaryOpType::CLIP:
            op = VecUnaryOp::CLIP;
            a = param->alpha();
            b = param->beta();
            if (a != a || b != b) {
                return nullptr;  // NaN bounds: the reference's rules
            }
            break;
        case UnaryOpType::SIGMOID: op = VecUnaryOp::SIGMOID; break;
        case UnaryOpType::SILU: op = VecUnaryOp::SILU; break;
        case UnaryOpType::HARD_SIGMOID:
            op = VecUnaryOp::HARD_SIGMOID;
            a = param->alpha();
            b = param->beta();
            break;
        case UnaryOpType::HARD_SWISH: op = VecUnaryOp::HARD_SWISH; break;
        case UnaryOpType::TANH: op = VecUnaryOp::TANH; break;
        case UnaryOpType::EXP: op = VecUnaryOp::EXP; break;
        case UnaryOpType::GELU: op = VecUnaryOp::GELU; break;
        case UnaryOpType::GELU_TANH: op = VecUnaryOp::GELU_TANH; break;
        case UnaryOpType::LEAKY_RELU:
            op = VecUnaryOp::LEAKY_RELU;
            a = param->alpha();
            break;
        case UnaryOpType::ABS: op = VecUnaryOp::ABS; break;
        case UnaryOpType::NEG: op = VecUnaryOp::NEG; break;
        case UnaryOpType::SQUARE: op = VecUnaryOp::SQUARE; break;
        case UnaryOpType::RECIPROCAL: op = VecUnaryOp::RECIPROCAL; break;
        default: return nullptr;
    }
    return new CPUUnaryFast(backend, op, a, b);
}

Execution* createFastBinary(const std::vector<Tensor*>& inputs, BinaryOpType type, Backend* backend) {
    if (inputs.size() != 2 || !allFloat(inputs) || elementwiseForcedReference()) {
        return nullptr;
    }
    VecBinaryOp op;
    switch (type) {
        case BinaryOpType::ADD: op = VecBinaryOp::ADD; break;
        case BinaryOpType::SUB: op = VecBinaryOp::SUB; break;
        case BinaryOpType::MUL: op = VecBinaryOp::MUL; break;
        case BinaryOpType::DIV: op = VecBinaryOp::DIV; break;
        case BinaryOpType::MAXIMUM: op = VecBinaryOp::MAX; break;
        case BinaryOpType::MINIMUM: op = VecBinaryOp::MIN; break;
        default: return nullptr;
    }
    return new CPUBinaryFast(backend, op);
}

} // namespace MNN
