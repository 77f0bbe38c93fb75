// Reference Concat / Split (any type: elements are moved as bytes) and the pure copies
// Reshape / Flatten / Squeeze / Unsqueeze, plus Shape / Size / ConstantOfShape / Range.
#include <math.h>
#include <type_traits>
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

class CPUConcat : public Execution {
public:
    CPUConcat(Backend* b, int axis, bool split) : Execution(b), mAxis(axis), mSplit(split) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto big = mSplit ? inputs[0] : outputs[0];
        int rank = big->dimensions();
        mNormAxis = ShapeUtils::normalizeAxis(mAxis, rank);
        if (mNormAxis < 0) {
            return INVALID_VALUE;
        }
        // bytes each part contributes per outer index, computed once per shape
        const int es = DataCopy::elementSize(big);
        mOuter = product(TensorUtils::shape(big), 0, mNormAxis);
        auto& parts = mSplit ? outputs : inputs;
        mPartBytes.clear();
        for (auto t : parts) {
            auto d = TensorUtils::shape(t);
            mPartBytes.push_back(product(d, mNormAxis, (int)d.size()) * es);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto big = mSplit ? inputs[0] : outputs[0];
        auto& parts = mSplit ? outputs : inputs;
        uint8_t* whole = big->host<uint8_t>();
        int64_t pos = 0;
        for (int64_t o = 0; o < mOuter; ++o) {
            for (size_t k = 0; k < parts.size(); ++k) {
                const int64_t bytes = mPartBytes[k];
                if (bytes == 0) {
                    continue;
                }
                uint8_t* part = parts[k]->host<uint8_t>() + o * bytes;
                if (mSplit) {
                    ::memcpy(part, whole + pos, (size_t)bytes);
                } else {
                    ::memcpy(whole + pos, part, (size_t)bytes);
                }
                pos += bytes;
            }
        }
        return NO_ERROR;
    }

private:
    int mAxis;
    bool mSplit;
    int mNormAxis = 0;
    int64_t mOuter = 0;
    std::vector<int64_t> mPartBytes;
};

static Execution* createConcat(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_AxisParam();
    return new CPUConcat(backend, p ? p->axis() : 0, op->type() == Schema::OpType::Split);
}

/** Reshape, Flatten, Squeeze, Unsqueeze: same bytes, new dims */
class CPUCopy : public Execution {
public:
    explicit CPUCopy(Backend* b) : Execution(b) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        int64_t bytes = TensorUtils::elementCount(inputs[0]) * DataCopy::elementSize(inputs[0]);
        if (bytes > 0 && inputs[0]->host<void>() != outputs[0]->host<void>()) {
            ::memcpy(outputs[0]->host<void>(), inputs[0]->host<void>(), (size_t)bytes);
        }
        return NO_ERROR;
    }
};

static Execution* createCopy(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                             Backend* backend) {
    return new CPUCopy(backend);
}

class CPUShapeOp : public Execution {
public:
    CPUShapeOp(Backend* b, bool size, int start, int end) : Execution(b), mSize(size), mStart(start), mEnd(end) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto out = outputs[0]->host<int64_t>();
        if (mSize) {
            out[0] = TensorUtils::elementCount(inputs[0]);
            return NO_ERROR;
        }
        const int rank = inputs[0]->dimensions();
        int64_t s = mStart < 0 ? mStart + rank : mStart;
        int64_t e = mEnd < 0 ? (int64_t)mEnd + rank : mEnd;
        s = s < 0 ? 0 : (s > rank ? rank : s);
        e = e < 0 ? 0 : (e > rank ? rank : e);
        for (int64_t i = s; i < e; ++i) {
            out[i - s] = inputs[0]->length((int)i);
        }
        return NO_ERROR;
    }

private:
    bool mSize;
    int mStart, mEnd;
};

static Execution* createShape(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                              Backend* backend) {
    auto p = op->param_as_ShapeParam();
    return new CPUShapeOp(backend, op->type() == Schema::OpType::Size, p ? p->start() : 0,
                          p ? p->end() : 0x7fffffff);
}

class CPUConstantOfShape : public Execution {
public:
    CPUConstantOfShape(Backend* b, const uint8_t* value, int bytes) : Execution(b) {
        ::memset(mValue, 0, sizeof(mValue));
        if (value && bytes > 0) {
            ::memcpy(mValue, value, bytes > 8 ? 8 : bytes);
        }
    }
    ErrorCode onExecute(const std::vector<Tensor*>&, const std::vector<Tensor*>& outputs) override {
        const int es = DataCopy::elementSize(outputs[0]);
        const int64_t n = TensorUtils::elementCount(outputs[0]);
        uint8_t* dst = outputs[0]->host<uint8_t>();
        for (int64_t i = 0; i < n; ++i) {
            ::memcpy(dst + i * es, mValue, es);
        }
        return NO_ERROR;
    }

private:
    uint8_t mValue[8];
};

static Execution* createConstantOfShape(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                        const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_ConstantParam();
    if (p && p->value() && p->value()->raw()) {
        return new CPUConstantOfShape(backend, p->value()->raw()->data(), (int)p->value()->raw()->size());
    }
    return new CPUConstantOfShape(backend, nullptr, 0);
}

class CPURange : public Execution {
public:
    explicit CPURange(Backend* b) : Execution(b) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        int64_t n = 0;
        if (!DataOps::rangeCount(inputs[0], inputs[1], inputs[2], &n).empty() ||
            n != TensorUtils::elementCount(outputs[0])) {
            return error(INPUT_DATA_ERROR, "Range: the start/limit/delta values no longer match the output size");
        }
        auto out = outputs[0];
        DataCopy::dispatchNumeric(out->getType(), [&](auto* tag) {
            using T = typename std::remove_pointer<decltype(tag)>::type;
            const T s = inputs[0]->host<T>()[0];
            const T d = inputs[2]->host<T>()[0];
            T* o = out->host<T>();
            for (int64_t i = 0; i < n; ++i) {
                if constexpr (std::is_floating_point<T>::value) {
                    o[i] = (T)((double)s + (double)i * (double)d);
                } else {
                    o[i] = (T)(s + (T)i * d);
                }
            }
        });
        return NO_ERROR;
    }
};

static Execution* createRange(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                              Backend* backend) {
    return new CPURange(backend);
}
} // namespace MNN

MNN_REGISTER_CPU(Concat, createConcat)
MNN_REGISTER_CPU(Split, createConcat)
MNN_REGISTER_CPU(Reshape, createCopy)
MNN_REGISTER_CPU(Flatten, createCopy)
MNN_REGISTER_CPU(Squeeze, createCopy)
MNN_REGISTER_CPU(Unsqueeze, createCopy)
MNN_REGISTER_CPU(Shape, createShape)
MNN_REGISTER_CPU(Size, createShape)
MNN_REGISTER_CPU(ConstantOfShape, createConstantOfShape)
MNN_REGISTER_CPU(Range, createRange)
