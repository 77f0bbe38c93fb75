// Reference Reduce. Floats accumulate in double (MAX / MIN propagate NaN); integers accumulate in
// 64 bits with wrap-around, MEAN truncates toward zero. Reducing an empty set gives the identity:
// SUM / L1 / L2 / SUM_SQUARE 0, PROD 1, MAX -inf (lowest), MIN +inf (highest), LOG_SUM and
// LOG_SUM_EXP -inf, MEAN NaN (0 for integers).
#include <math.h>
#include <string.h>
#include <limits>
#include <type_traits>
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {
using Schema::ReduceType;

/** offsets (in elements) of every index over the dims where `take` is true, row-major order */
static std::vector<int64_t> offsetsOver(const std::vector<int>& shape, const std::vector<int64_t>& strides,
                                        const std::vector<bool>& take) {
    std::vector<int> dims;
    std::vector<int64_t> st;
    int64_t count = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (take[i]) {
            dims.push_back(shape[i]);
            st.push_back(strides[i]);
            count *= shape[i];
        }
    }
    std::vector<int64_t> r((size_t)count);
    std::vector<int> idx(dims.size(), 0);
    int64_t off = 0;
    for (int64_t k = 0; k < count; ++k) {
        r[k] = off;
        for (int d = (int)dims.size() - 1; d >= 0; --d) {
            idx[d]++;
            off += st[d];
            if (idx[d] < dims[d]) {
                break;
            }
            off -= st[d] * dims[d];
            idx[d] = 0;
        }
    }
    return r;
}

template <typename T>
static T reduceFloat(ReduceType type, const T* x, const std::vector<int64_t>& offs) {
    const size_t n = offs.size();
    switch (type) {
        case ReduceType::MAXIMUM:
        case ReduceType::MINIMUM: {
            const bool isMax = type == ReduceType::MAXIMUM;
            T r = isMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
            for (size_t i = 0; i < n; ++i) {
                T v = x[offs[i]];
                if (v != v) {
                    return v;
                }
                if (isMax ? v > r : v < r) {
                    r = v;
                }
            }
            return r;
        }
        case ReduceType::LOG_SUM_EXP: {
            double m = -INFINITY;
            for (size_t i = 0; i < n; ++i) {
                double v = x[offs[i]];
                if (v != v) {
                    return (T)v;
                }
                m = v > m ? v : m;
            }
            if (std::isinf(m)) {
                return (T)m;  // empty, all -inf, or some +inf
            }
            double s = 0;
            for (size_t i = 0; i < n; ++i) {
                s += exp((double)x[offs[i]] - m);
            }
            return (T)(m + log(s));
        }
        case ReduceType::PROD: {
            double p = 1;
            for (size_t i = 0; i < n; ++i) {
                p *= (double)x[offs[i]];
            }
            return (T)p;
        }
        default:
            break;
    }
    double s = 0;
    for (size_t i = 0; i < n; ++i) {
        double v = x[offs[i]];
        switch (type) {
            case ReduceType::L1: s += fabs(v); break;
            case ReduceType::L2:
            case ReduceType::SUM_SQUARE: s += v * v; break;
            default: s += v; break;
        }
    }
    switch (type) {
        case ReduceType::MEAN: return (T)(s / (double)n);  // n == 0: NaN
        case ReduceType::L2: return (T)sqrt(s);
        case ReduceType::LOG_SUM: return (T)log(s);
        default: return (T)s;
    }
}

template <typename T>
static T reduceInt(ReduceType type, const T* x, const std::vector<int64_t>& offs) {
    typedef typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type Acc;
    const size_t n = offs.size();
    if (type == ReduceType::MAXIMUM || type == ReduceType::MINIMUM) {
        const bool isMax = type == ReduceType::MAXIMUM;
        T r = isMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
        for (size_t i = 0; i < n; ++i) {
            T v = x[offs[i]];
            if (isMax ? v > r : v < r) {
                r = v;
            }
        }
        return r;
    }
    uint64_t s = type == ReduceType::PROD ? 1 : 0;  // unsigned: wraps instead of overflowing
    for (size_t i = 0; i < n; ++i) {
        Acc v = (Acc)x[offs[i]];
        switch (type) {
            case ReduceType::PROD: s *= (uint64_t)v; break;
            case ReduceType::L1: s += (uint64_t)(v < 0 ? (Acc)0 - v : v); break;
            case ReduceType::SUM_SQUARE: s += (uint64_t)v * (uint64_t)v; break;
            default: s += (uint64_t)v; break;
        }
    }
    if (type == ReduceType::MEAN) {
        if (n == 0) {
            return 0;
        }
        return (T)((Acc)s / (Acc)n);
    }
    return (T)s;
}

class CPUReduce : public Execution {
public:
    CPUReduce(Backend* b, ReduceType type, const std::vector<int64_t>& axes, bool noop)
        : Execution(b), mType(type), mAxes(axes), mNoop(noop) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        // Axes from the parameter or a constant input are known now: plan once. Axes computed by the
        // graph are read at execute (their values exist only then).
        // (and the plan is kept while they stay the same, so runs allocate nothing).
        mPlanned = !axesFromInput(inputs) || TensorUtils::describe(inputs[1])->usage ==
                                                 Tensor::InsideDescribe::CONSTANT;
        if (!mPlanned) {
            mAxesBytes.prepare(inputs, 1);
        }
        return mPlanned ? plan(inputs, outputs) : NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!mPlanned && mAxesBytes.changed(inputs)) {
            auto code = plan(inputs, outputs);
            if (code != NO_ERROR) {
                mAxesBytes.prepare(inputs, 1);  // plan again next time
                return code;
            }
        }
        const Tensor* in = inputs[0];
        Tensor* out = outputs[0];
        if (mCopy) {
            if (TensorUtils::byteSize(in) > 0) {
                ::memcpy(out->host<void>(), in->host<void>(), (size_t)TensorUtils::byteSize(in));
            }
            return NO_ERROR;
        }
        const ReduceType type = mType;
        const auto& outerOffs = mOuterOffs;
        const auto& innerOffs = mInnerOffs;
        CPUUtils::dispatchType(in->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            const T* x = in->host<T>();
            T* y = out->host<T>();
            for (size_t o = 0; o < outerOffs.size(); ++o) {
                if constexpr (std::is_floating_point<T>::value) {
                    y[o] = reduceFloat<T>(type, x + outerOffs[o], innerOffs);
                } else {
                    y[o] = reduceInt<T>(type, x + outerOffs[o], innerOffs);
                }
            }
        });
        return NO_ERROR;
    }

private:
    static bool axesFromInput(const std::vector<Tensor*>& inputs) {
        return inputs.size() > 1 && inputs[1];
    }
    // Element offsets of every output position and of every reduced element within one position.
    ErrorCode plan(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
        const Tensor* in = inputs[0];
        std::vector<int64_t> axes = mAxes;
        if (axesFromInput(inputs)) {
            axes.clear();
            const Tensor* a = inputs[1];
            for (int64_t i = 0; i < TensorUtils::elementCount(a); ++i) {
                axes.push_back(a->getType().bits == 64 ? a->host<int64_t>()[i] : a->host<int32_t>()[i]);
            }
        }
        mCopy = axes.empty() && mNoop;
        if (mCopy) {
            return NO_ERROR;
        }
        auto shape = TensorUtils::shape(in);
        const int rank = (int)shape.size();
        std::vector<bool> reduced(rank, axes.empty());
        for (auto a : axes) {
            if (a < -rank || a >= rank) {
                return error(INPUT_DATA_ERROR, "Reduce: axis %lld out of range for rank %d", (long long)a, rank);
            }
            reduced[a < 0 ? a + rank : a] = true;
        }
        std::vector<bool> kept(rank);
        for (int i = 0; i < rank; ++i) {
            kept[i] = !reduced[i];
        }
        auto st = CPUUtils::strides(shape);
        mOuterOffs = offsetsOver(shape, st, kept);
        mInnerOffs = offsetsOver(shape, st, reduced);
        if ((int64_t)mOuterOffs.size() != TensorUtils::elementCount(outputs[0])) {
            return error(INPUT_DATA_ERROR, "axes keep %lld elements but the output %s has %lld",
                         (long long)mOuterOffs.size(), TensorUtils::shapeString(outputs[0]).c_str(),
                         (long long)TensorUtils::elementCount(outputs[0]));
        }
        return NO_ERROR;
    }

    ReduceType mType;
    std::vector<int64_t> mAxes;
    bool mNoop;
    bool mPlanned = false;
    CPUUtils::ParamBytes mAxesBytes;
    bool mCopy = false;
    std::vector<int64_t> mOuterOffs;
    std::vector<int64_t> mInnerOffs;
};

static Execution* createReduce(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_ReduceParam();
    if (!p) {
        return nullptr;
    }
    std::vector<int64_t> axes;
    if (p->axes()) {
        for (auto v : *p->axes()) {
            axes.push_back(v);
        }
    }
    return new CPUReduce(backend, p->type(), axes, p->noopWithEmptyAxes());
}
} // namespace MNN

MNN_REGISTER_CPU(Reduce, createReduce)
