// Reference Gather, GatherElements, GatherND, ScatterND, ScatterElements. Every index is checked
// before anything is written: an index out of range returns INPUT_DATA_ERROR (one log line).
#include <algorithm>
#include <type_traits>
#include "CPUDataCopy.hpp"

namespace MNN {

static int64_t product(const std::vector<int>& d, int from, int to) {
    int64_t n = 1;
    for (int i = from; i < to; ++i) {
        n *= d[i];
    }
    return n;
}

class CPUIndexOp : public Execution {
public:
    CPUIndexOp(Backend* b, const Schema::Op* op) : Execution(b) {
        mName = CPUUtils::opName(op);
        mType = op->type();
        if (auto p = op->param_as_AxisParam()) {
            mAxis = p->axis();
            mBatchDims = p->batchDims();
            mReduction = p->reduction();
        }
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const bool scatter = mType == Schema::OpType::ScatterND || mType == Schema::OpType::ScatterElements;
        if (scatter && mReduction != 0) {
            bool ok = DataCopy::dispatchNumeric(inputs[0]->getType(), [](auto*) {});
            if (!ok) {
                return error(NOT_SUPPORT, "op %s (%s): reduction on type %s is not supported", mName.c_str(),
                             Schema::EnumNameOpType(mType), TensorUtils::typeName(inputs[0]->getType()));
            }
        }
        int rank = inputs[0]->dimensions();
        mNormAxis = rank > 0 ? ShapeUtils::normalizeAxis(mAxis, rank) : 0;
        // shapes and strides for onExecute, which allocates nothing
        mData = TensorUtils::shape(inputs[0]);
        mIShape = TensorUtils::shape(inputs[1]);
        mDStride = CPUUtils::strides(mData);
        mPos.assign(mIShape.size(), 0);
        return mNormAxis < 0 ? INVALID_VALUE : NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        switch (mType) {
            case Schema::OpType::Gather: return gather(inputs, outputs[0]);
            case Schema::OpType::GatherElements:
            case Schema::OpType::ScatterElements: return elements(inputs, outputs[0]);
            default: return nd(inputs, outputs[0]);
        }
    }

private:
    ErrorCode badIndex(int64_t v, int64_t n) const {
        return error(INPUT_DATA_ERROR, "op %s (%s): index %lld out of range [-%lld, %lld)", mName.c_str(),
                     Schema::EnumNameOpType(mType), (long long)v, (long long)n, (long long)n);
    }
    static int64_t norm(int64_t v, int64_t n) {
        return v < 0 ? v + n : v;
    }
    ErrorCode gather(const std::vector<Tensor*>& inputs, Tensor* out) const {
        const std::vector<int>& data = mData;
        const Tensor* idx = inputs[1];
        const int64_t n = data[mNormAxis];
        const int64_t count = TensorUtils::elementCount(idx);
        for (int64_t j = 0; j < count; ++j) {
            int64_t v = DataCopy::readIndex(idx, j);
            if (v < -n || v >= n) {
                return badIndex(v, n);
            }
        }
        const int64_t outer = product(data, 0, mNormAxis);
        const int64_t inner = product(data, mNormAxis + 1, (int)data.size()) * DataCopy::elementSize(inputs[0]);
        if (inner == 0) {
            return NO_ERROR;
        }
        const uint8_t* src = inputs[0]->host<uint8_t>();
        uint8_t* dst = out->host<uint8_t>();
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t j = 0; j < count; ++j) {
                int64_t v = norm(DataCopy::readIndex(idx, j), n);
                ::memcpy(dst, src + (o * n + v) * inner, (size_t)inner);
                dst += inner;
            }
        }
        return NO_ERROR;
    }
    // GatherElements / ScatterElements: walk the indices tensor
    ErrorCode elements(const std::vector<Tensor*>& inputs, Tensor* out) {
        const std::vector<int>& data = mData;
        const Tensor* idx = inputs[1];
        const std::vector<int>& ishape = mIShape;
        const int64_t count = TensorUtils::elementCount(idx);
        const int64_t n = data[mNormAxis];
        for (int64_t j = 0; j < count; ++j) {
            int64_t v = DataCopy::readIndex(idx, j);
            if (v < -n || v >= n) {
                return badIndex(v, n);
            }
        }
        const bool scatter = mType == Schema::OpType::ScatterElements;
        const int es = DataCopy::elementSize(inputs[0]);
        if (scatter) {
            copyData(inputs[0], out);
        }
        if (count == 0) {
            return NO_ERROR;
        }
        const std::vector<int64_t>& dstride = mDStride;
        const int rank = (int)ishape.size();
        std::vector<int>& pos = mPos;
        std::fill(pos.begin(), pos.end(), 0);
        for (int64_t j = 0; j < count; ++j) {
            int64_t off = 0;
            for (int d = 0; d < rank; ++d) {
                off += (d == mNormAxis ? norm(DataCopy::readIndex(idx, j), n) : pos[d]) * dstride[d];
            }
            if (scatter) {
                apply(out, off, inputs[2], j, 1);
            } else {
                ::memcpy(out->host<uint8_t>() + j * es, inputs[0]->host<uint8_t>() + off * es, es);
            }
            for (int d = rank - 1; d >= 0; --d) {
                if (++pos[d] < ishape[d]) {
                    break;
                }
                pos[d] = 0;
            }
        }
        return NO_ERROR;
    }
    // GatherND (batchDims) / ScatterND
    ErrorCode nd(const std::vector<Tensor*>& inputs, Tensor* out) {
        const std::vector<int>& data = mData;
        const Tensor* idx = inputs[1];
        const std::vector<int>& ishape = mIShape;
        const bool scatter = mType == Schema::OpType::ScatterND;
        const int b = scatter ? 0 : mBatchDims;
        const int q = (int)ishape.size();
        const int last = ishape[q - 1];
        const int64_t batches = product(ishape, 0, b);
        const int64_t tuples = product(ishape, b, q - 1);
        const int64_t sliceElems = product(data, b + last, (int)data.size());
        const int64_t batchStride = product(data, b, (int)data.size());
        const std::vector<int64_t>& dstride = mDStride;
        for (int64_t j = 0; j < batches * tuples * last; ++j) {
            const int64_t dim = data[b + j % last];
            int64_t v = DataCopy::readIndex(idx, j);
            if (v < -dim || v >= dim) {
                return badIndex(v, dim);
            }
        }
        const int es = DataCopy::elementSize(inputs[0]);
        if (scatter) {
            copyData(inputs[0], out);
        }
        int64_t k = 0;  // running tuple number
        for (int64_t bi = 0; bi < batches; ++bi) {
            for (int64_t t = 0; t < tuples; ++t, ++k) {
                int64_t off = bi * batchStride;
                for (int e = 0; e < last; ++e) {
                    off += norm(DataCopy::readIndex(idx, k * last + e), data[b + e]) * dstride[b + e];
                }
                if (scatter) {
                    apply(out, off, inputs[2], k * sliceElems, sliceElems);
                } else if (sliceElems > 0) {
                    ::memcpy(out->host<uint8_t>() + k * sliceElems * es, inputs[0]->host<uint8_t>() + off * es,
                             (size_t)(sliceElems * es));
                }
            }
        }
        return NO_ERROR;
    }
    static void copyData(const Tensor* data, Tensor* out) {
        int64_t bytes = TensorUtils::elementCount(data) * DataCopy::elementSize(data);
        if (bytes > 0) {
            ::memcpy(out->host<void>(), data->host<void>(), (size_t)bytes);
        }
    }
    // out[off + i] (op)= upd[from + i] for i < n
    void apply(Tensor* out, int64_t off, const Tensor* upd, int64_t from, int64_t n) const {
        if (n <= 0) {
            return;
        }
        const int es = DataCopy::elementSize(out);
        if (mReduction == 0) {
            ::memcpy(out->host<uint8_t>() + off * es, upd->host<uint8_t>() + from * es, (size_t)(n * es));
            return;
        }
        const int red = mReduction;
        DataCopy::dispatchNumeric(out->getType(), [&](auto* tag) {
            using T = typename std::remove_pointer<decltype(tag)>::type;
            T* o = out->host<T>() + off;
            const T* u = upd->host<T>() + from;
            for (int64_t i = 0; i < n; ++i) {
                switch (red) {
                    case 1: o[i] = (T)(o[i] + u[i]); break;
                    case 2: o[i] = (T)(o[i] * u[i]); break;
                    case 3: o[i] = o[i] > u[i] ? o[i] : u[i]; break;
                    default: o[i] = o[i] < u[i] ? o[i] : u[i]; break;
                }
            }
        });
    }

    std::string mName;
    Schema::OpType mType;
    int mAxis = 0;
    int mBatchDims = 0;
    int mReduction = 0;
    int mNormAxis = 0;
    // sized in onResize
    std::vector<int> mData, mIShape, mPos;
    std::vector<int64_t> mDStride;
};

static Execution* createIndexOp(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    return new CPUIndexOp(backend, op);
}
} // namespace MNN

MNN_REGISTER_CPU(Gather, createIndexOp)
MNN_REGISTER_CPU(GatherElements, createIndexOp)
MNN_REGISTER_CPU(GatherND, createIndexOp)
MNN_REGISTER_CPU(ScatterND, createIndexOp)
MNN_REGISTER_CPU(ScatterElements, createIndexOp)
