// Reference OneHot, NonZero, Compress.
#include "CPUDataCopy.hpp"
#include "shape/ShapeDataOps.hpp"

namespace MNN {

static int64_t product(const std::vector<int>& d, int from, int to) {
    int64_t n = 1;
    for (int i = from; i < to; ++i) {
        n *= d[i];
    }
    return n;
}

class CPUOneHot : public Execution {
public:
    CPUOneHot(Backend* b, int axis) : Execution(b), mAxis(axis) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto odims = TensorUtils::shape(outputs[0]);
        const int axis = ShapeUtils::normalizeAxis(mAxis, (int)odims.size());
        if (axis < 0) {
            return error(INVALID_VALUE, "OneHot: axis %d is out of range for output rank %d", mAxis, (int)odims.size());
        }
        mDepth = odims[axis];
        mOuter = product(odims, 0, axis);
        mInner = product(odims, axis + 1, (int)odims.size());
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto out = outputs[0];
        const int64_t depth = mDepth, outer = mOuter, inner = mInner;
        const int es = DataCopy::elementSize(out);
        const uint8_t* off = inputs[2]->host<uint8_t>();
        const uint8_t* on = off + es;
        uint8_t* dst = out->host<uint8_t>();
        const int64_t total = outer * depth * inner;
        for (int64_t i = 0; i < total; ++i) {
            ::memcpy(dst + i * es, off, es);
        }
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t i = 0; i < inner; ++i) {
                int64_t v = DataCopy::readIndex(inputs[0], o * inner + i);
                if (v < 0) {
                    v += depth;
                }
                if (v >= 0 && v < depth) {
                    ::memcpy(dst + ((o * depth + v) * inner + i) * es, on, es);
                }
            }
        }
        return NO_ERROR;
    }

private:
    int mAxis;
    int64_t mDepth = 0, mOuter = 0, mInner = 0;
};

static Execution* createOneHot(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_AxisParam();
    return new CPUOneHot(backend, p ? p->axis() : -1);
}

class CPUNonZero : public Execution {
public:
    explicit CPUNonZero(Backend* b) : Execution(b) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto x = inputs[0];
        const int64_t n = TensorUtils::elementCount(x);
        const int64_t nnz = outputs[0]->length(1);
        int64_t found = 0;
        for (int64_t i = 0; i < n; ++i) {
            found += DataOps::isNonZero(x, i) ? 1 : 0;
        }
        if (found != nnz) {
            return error(INPUT_DATA_ERROR, "NonZero: %lld non-zero values but the output was sized for %lld",
                         (long long)found, (long long)nnz);
        }
        int64_t* out = outputs[0]->host<int64_t>();
        const int rank = x->dimensions();
        int dims[MNN_MAX_TENSOR_DIM] = {0};
        for (int d = 0; d < rank; ++d) {
            dims[d] = x->length(d);
        }
        int64_t k = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (!DataOps::isNonZero(x, i)) {
                continue;
            }
            if (rank == 0) {
                out[k] = 0;
            }
            int64_t rest = i;
            for (int d = rank - 1; d >= 0; --d) {
                out[d * nnz + k] = rest % dims[d];
                rest /= dims[d];
            }
            ++k;
        }
        return NO_ERROR;
    }
};

static Execution* createNonZero(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                                Backend* backend) {
    return new CPUNonZero(backend);
}

class CPUCompress : public Execution {
public:
    CPUCompress(Backend* b, bool hasAxis, int axis) : Execution(b), mHasAxis(hasAxis), mAxis(axis) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        auto cond = inputs[1];
        const int es = DataCopy::elementSize(x);
        int64_t outer = 1, length = TensorUtils::elementCount(x), inner = es;
        int axis = -1;
        if (mHasAxis) {
            const int rank = x->dimensions();
            axis = ShapeUtils::normalizeAxis(mAxis, rank);
            for (int d = 0; d < axis; ++d) {
                outer *= x->length(d);
            }
            length = x->length(axis);
            for (int d = axis + 1; d < rank; ++d) {
                inner *= x->length(d);
            }
        }
        const int64_t n = TensorUtils::elementCount(cond);
        const int64_t limit = n < length ? n : length;
        int64_t kept = 0;
        for (int64_t i = 0; i < n; ++i) {
            if (DataOps::isNonZero(cond, i)) {
                if (i >= length) {
                    kept = -1;
                    break;
                }
                ++kept;
            }
        }
        const int64_t want = mHasAxis ? outputs[0]->length(axis) : outputs[0]->length(0);
        if (kept != want) {
            return error(INPUT_DATA_ERROR,
                         "Compress: the condition keeps %lld slices but the output was sized for %lld", (long long)kept,
                         (long long)want);
        }
        if (inner == 0) {
            return NO_ERROR;
        }
        const uint8_t* src = inputs[0]->host<uint8_t>();
        uint8_t* dst = outputs[0]->host<uint8_t>();
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t i = 0; i < limit; ++i) {
                if (DataOps::isNonZero(cond, i)) {
                    ::memcpy(dst, src + (o * length + i) * inner, (size_t)inner);
                    dst += inner;
                }
            }
        }
        return NO_ERROR;
    }

private:
    bool mHasAxis;
    int mAxis;
};

static Execution* createCompress(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                 Backend* backend) {
    auto p = op->param_as_AxisParam();
    const bool hasAxis = p && p->axes() && p->axes()->size() > 0;
    return new CPUCompress(backend, hasAxis, hasAxis ? p->axes()->Get(0) : 0);
}
/** ReverseSequence: time axis / batch axis are 0 and 1 (AxisParam.axis / batchDims) */
class CPUReverseSequence : public Execution {
public:
    CPUReverseSequence(Backend* b, const std::string& name, int timeAxis, int batchAxis)
        : Execution(b), mName(name), mTime(timeAxis), mBatch(batchAxis) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const int64_t dims[2] = {x->length(0), x->length(1)};
        const int64_t T = dims[mTime];
        const int64_t B = dims[mBatch];
        for (int64_t b = 0; b < B; ++b) {
            int64_t len = DataCopy::readIndex(inputs[1], b);
            if (len < 0 || len > T) {
                return error(INPUT_DATA_ERROR, "op %s (ReverseSequence): sequence length %lld out of range [0, %lld]",
                             mName.c_str(), (long long)len, (long long)T);
            }
        }
        // dims[0] x dims[1] blocks of `inner` elements (axes 0 and 1 are time and batch)
        const int es = DataCopy::elementSize(inputs[0]);
        int64_t inner = es;
        for (int d = 2; d < x->dimensions(); ++d) {
            inner *= x->length(d);
        }
        if (inner == 0) {
            return NO_ERROR;
        }
        const uint8_t* src = inputs[0]->host<uint8_t>();
        uint8_t* dst = outputs[0]->host<uint8_t>();
        for (int64_t i0 = 0; i0 < dims[0]; ++i0) {
            for (int64_t i1 = 0; i1 < dims[1]; ++i1) {
                const int64_t t = mTime == 0 ? i0 : i1;
                const int64_t b = mTime == 0 ? i1 : i0;
                const int64_t len = DataCopy::readIndex(inputs[1], b);
                const int64_t st = t < len ? len - 1 - t : t;
                const int64_t s0 = mTime == 0 ? st : i0;
                const int64_t s1 = mTime == 0 ? i1 : st;
                ::memcpy(dst + (i0 * dims[1] + i1) * inner, src + (s0 * dims[1] + s1) * inner, (size_t)inner);
            }
        }
        return NO_ERROR;
    }

private:
    std::string mName;
    int mTime, mBatch;
};

static Execution* createReverseSequence(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                        const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_AxisParam();
    return new CPUReverseSequence(backend, CPUUtils::opName(op), p ? p->axis() : 0, p ? p->batchDims() : 1);
}
} // namespace MNN

MNN_REGISTER_CPU(ReverseSequence, createReverseSequence)
MNN_REGISTER_CPU(OneHot, createOneHot)
MNN_REGISTER_CPU(NonZero, createNonZero)
MNN_REGISTER_CPU(Compress, createCompress)
