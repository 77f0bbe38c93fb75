// Fast float32 Softmax / LogSoftmax over the kernel table: per reduced block, the maximum (the
// reference's first-greater scan, so NaN handling matches), x - max and exp through the table's
// vector kernels, the sum of the exponentials in vector partial sums combined in double, then one
// scale (Softmax) or one shift by max + log(sum) (LogSoftmax). Contiguous blocks (inner == 1: the
// last axis, or coerce2D) are rows; otherwise the block is strided by `inner` and the same steps
// run over whole rows of `inner` values at a time. Rows are split over the thread pool.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include "CPUElementwiseFast.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace MNN {

namespace {

struct SoftmaxJob {
    const CPUCoreFunctions* f;
    const float* x;
    float* y;
    float* scratch;  // per task: 2 * inner floats (strided layout only)
    int64_t outer, len, inner;
    int tasks;
    bool log;

    // y[k] (k < len, contiguous) from x[k]
    void row(const float* xr, float* yr) const {
        float m = xr[0];
        for (int64_t k = 1; k < len; ++k) {
            if (xr[k] > m) {
                m = xr[k];
            }
        }
        f->binaryF32((int)VecBinaryOp::SUB, xr, &m, yr, len, 1);
        if (log) {
            // the exponentials go through y, then y = (x - max) - log(sum): subtracting max first
            // keeps the small results exact where x and max are large
            f->unaryF32((int)VecUnaryOp::EXP, yr, yr, len, 0.0f, 0.0f);
            const float logSum = (float)::log(f->planeSum(yr, len));
            f->binaryF32((int)VecBinaryOp::SUB, xr, &m, yr, len, 1);
            f->binaryF32((int)VecBinaryOp::SUB, yr, &logSum, yr, len, 1);
            return;
        }
        f->unaryF32((int)VecUnaryOp::EXP, yr, yr, len, 0.0f, 0.0f);
        const float inv = (float)(1.0 / f->planeSum(yr, len));
        f->binaryF32((int)VecBinaryOp::MUL, yr, &inv, yr, len, 1);
    }

    // the block of rows x[k * inner + i] (k < len, i < inner)
    void strided(const float* xb, float* yb, float* m, float* s) const {
        memcpy(m, xb, sizeof(float) * (size_t)inner);
        for (int64_t k = 1; k < len; ++k) {
            const float* xr = xb + k * inner;
            for (int64_t i = 0; i < inner; ++i) {
                if (xr[i] > m[i]) {
                    m[i] = xr[i];
                }
            }
        }
        memset(s, 0, sizeof(float) * (size_t)inner);
        for (int64_t k = 0; k < len; ++k) {
            float* yr = yb + k * inner;
            f->binaryF32((int)VecBinaryOp::SUB, xb + k * inner, m, yr, inner, 0);
            f->unaryF32((int)VecUnaryOp::EXP, yr, yr, inner, 0.0f, 0.0f);
            f->binaryF32((int)VecBinaryOp::ADD, s, yr, s, inner, 0);
        }
        if (log) {
            for (int64_t i = 0; i < inner; ++i) {
                s[i] = (float)::log((double)s[i]);
            }
            for (int64_t k = 0; k < len; ++k) {
                f->binaryF32((int)VecBinaryOp::SUB, xb + k * inner, m, yb + k * inner, inner, 0);
                f->binaryF32((int)VecBinaryOp::SUB, yb + k * inner, s, yb + k * inner, inner, 0);
            }
            return;
        }
        for (int64_t k = 0; k < len; ++k) {
            f->binaryF32((int)VecBinaryOp::DIV, yb + k * inner, s, yb + k * inner, inner, 0);
        }
    }

    void operator()(int t) const {
        const int64_t o0 = outer * t / tasks, o1 = outer * (t + 1) / tasks;
        for (int64_t o = o0; o < o1; ++o) {
            if (inner == 1) {
                row(x + o * len, y + o * len);
            } else {
                strided(x + o * len * inner, y + o * len * inner, scratch + 2 * inner * t,
                        scratch + 2 * inner * t + inner);
            }
        }
    }
};

class CPUSoftmaxFast : public Execution {
public:
    CPUSoftmaxFast(Backend* b, int axis, bool log, bool coerce2D)
        : Execution(b), mAxis(axis), mLog(log), mCoerce2D(coerce2D) {
        mPool = static_cast<CPUBackend*>(b)->threadPool();
    }
    const char* algorithm() const override {
        return "softmax-vector";
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!softmaxExtents(TensorUtils::shape(inputs[0]), mAxis, mCoerce2D, &mOuter, &mLen, &mInner)) {
            return error(INVALID_VALUE, "axis %d is out of range for rank %d", mAxis, inputs[0]->dimensions());
        }
        mFuncs = &cpuCoreFunctions();
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t work = mOuter * mLen * mInner;
        mTasks = (int)std::max<int64_t>(1, std::min<int64_t>(mOuter, work >= 16384 ? 4 * threads : 1));
        mScratch.assign(mInner > 1 ? (size_t)(2 * mInner * mTasks) : 0, 0.0f);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mOuter * mLen * mInner == 0) {
            return NO_ERROR;
        }
        SoftmaxJob job;
        job.f = mFuncs;
        job.x = inputs[0]->host<float>();
        job.y = outputs[0]->host<float>();
        job.scratch = mScratch.data();
        job.outer = mOuter;
        job.len = mLen;
        job.inner = mInner;
        job.tasks = mTasks;
        job.log = mLog;
        parallelFor(mPool, mTasks, job);
        return NO_ERROR;
    }

private:
    int mAxis;
    bool mLog, mCoerce2D;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    int64_t mOuter = 0, mLen = 0, mInner = 0;
    int mTasks = 1;
    std::vector<float> mScratch;
};

}  // namespace

bool softmaxExtents(const std::vector<int>& shape, int axisIn, bool coerce2D, int64_t* outer, int64_t* len,
                    int64_t* inner) {
    const int rank = (int)shape.size();
    const int axis = axisIn < 0 ? axisIn + rank : axisIn;
    if (axis < 0 || axis >= rank) {
        return false;  // reported by the caller's onResize (Execution::error)
    }
    *outer = 1;
    *len = 1;
    *inner = 1;
    for (int d = 0; d < rank; ++d) {
        if (d < axis) {
            *outer *= shape[d];
        } else if (d == axis || coerce2D) {
            *len *= shape[d];
        } else {
            *inner *= shape[d];
        }
    }
    return true;
}

Execution* createFastSoftmax(const std::vector<Tensor*>& inputs, int axis, int mode, bool coerce2D, Backend* backend) {
    const char* env = getenv("MNN_ELEMENTWISE");
    if ((env && strcmp(env, "reference") == 0) || inputs.empty() || !inputs[0] ||
        inputs[0]->getType() != halide_type_of<float>() ||
        (mode != (int)Schema::SoftmaxMode::SOFTMAX && mode != (int)Schema::SoftmaxMode::LOG_SOFTMAX)) {
        return nullptr;
    }
    return new CPUSoftmaxFast(backend, axis, mode == (int)Schema::SoftmaxMode::LOG_SOFTMAX, coerce2D);
}

}  // namespace MNN
