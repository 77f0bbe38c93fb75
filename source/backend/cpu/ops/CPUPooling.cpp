// Reference Pooling: MaxPool (with optional Indices), AveragePool (count_include_pad), LpPool, and the
// global variants, over any number of spatial dims, with dilation, pads, auto_pad and ceil_mode.
// A window position is "inside" when it lies in X and "in the padded area" when it lies in
// [-padBegin, in + padEnd): count_include_pad divides by the latter (positions beyond the end padding
// that ceil_mode adds never count). A window with no element inside gives the lowest value (Max, index -1),
// 0 (Average with nothing to divide by) or 0 (Lp).
#include <math.h>
#include <limits>
#include "backend/cpu/CPUOpUtils.hpp"
#include "CPUPoolingFast.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

static int64_t product(const std::vector<int>& v) {
    int64_t r = 1;
    for (auto x : v) {
        r *= x;
    }
    return r;
}

static std::vector<int> indexTable(const std::vector<int>& dims) {
    const int nd = (int)dims.size();
    const int64_t count = product(dims);
    std::vector<int> table((size_t)(count * nd));
    for (int64_t f = 0; f < count; ++f) {
        int64_t rest = f;
        for (int d = nd - 1; d >= 0; --d) {
            table[(size_t)(f * nd + d)] = (int)(rest % dims[d]);
            rest /= dims[d];
        }
    }
    return table;
}

class CPUPooling : public Execution {
public:
    CPUPooling(Backend* b, const PoolAttrs& attrs) : Execution(b), mAttrs(attrs) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        if (!resolvePool(mAttrs, TensorUtils::shape(inputs[0]), &mGeom, &err)) {
            return error(INVALID_VALUE, "Pooling: %s", err.c_str());
        }
        mKernelIndex = indexTable(mGeom.kernel);
        mOutputIndex = indexTable(mGeom.output);
        // column-major strides for storage_order 1
        const int nd = (int)mGeom.input.size();
        mColStride.assign(nd, 1);
        for (int d = 1; d < nd; ++d) {
            mColStride[d] = mColStride[d - 1] * mGeom.input[d - 1];
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = inputs[0]->getType();
        Tensor* indices = outputs.size() > 1 ? outputs[1] : nullptr;
        if (t == halide_type_of<float>()) {
            run<float>(inputs[0], outputs[0], indices);
        } else if (t == halide_type_of<double>()) {
            run<double>(inputs[0], outputs[0], indices);
        } else if (t == halide_type_of<int8_t>()) {
            run<int8_t>(inputs[0], outputs[0], indices);
        } else if (t == halide_type_of<uint8_t>()) {
            run<uint8_t>(inputs[0], outputs[0], indices);
        } else {
            return NOT_SUPPORT;
        }
        return NO_ERROR;
    }

private:
    template <typename T>
    void run(const Tensor* input, Tensor* output, Tensor* indices) {
        const T* x = input->host<T>();
        T* y = output->host<T>();
        int64_t* yi = indices ? indices->host<int64_t>() : nullptr;
        const int nd = (int)mGeom.input.size();
        const int64_t planes = (int64_t)input->length(0) * input->length(1);
        const int64_t inCount = product(mGeom.input);
        const int64_t outCount = product(mGeom.output);
        const int64_t kCount = product(mGeom.kernel);
        const int64_t* colStride = mColStride.data();
        for (int64_t plane = 0; plane < planes; ++plane) {
            const T* xp = x + plane * inCount;
            for (int64_t o = 0; o < outCount; ++o) {
                const int* oIdx = mOutputIndex.data() + o * nd;
                double best = 0.0;
                int64_t bestIndex = -1;
                double sum = 0.0;
                int64_t inside = 0, padded = 0;
                for (int64_t k = 0; k < kCount; ++k) {
                    const int* kIdx = mKernelIndex.data() + k * nd;
                    int64_t offset = 0, colOffset = 0;
                    bool isInside = true, isPadded = true;
                    for (int d = 0; d < nd; ++d) {
                        int64_t pos = (int64_t)oIdx[d] * mGeom.strides[d] - mGeom.padBegin[d] +
                                      (int64_t)kIdx[d] * mGeom.dilations[d];
                        if (pos < -(int64_t)mGeom.padBegin[d] || pos >= (int64_t)mGeom.input[d] + mGeom.padEnd[d]) {
                            isPadded = false;
                        }
                        if (pos < 0 || pos >= mGeom.input[d]) {
                            isInside = false;
                        } else {
                            offset = offset * mGeom.input[d] + pos;
                            colOffset += pos * colStride[d];
                        }
                    }
                    padded += isPadded ? 1 : 0;
                    if (!isInside) {
                        continue;
                    }
                    const double v = (double)xp[offset];
                    inside++;
                    switch (mAttrs.type) {
                        case Schema::PoolType::MAXPOOL:
                            if (bestIndex < 0 || v > best || (v != v && best == best)) {  // NaN propagates
                                best = v;
                                bestIndex = mAttrs.storageOrder == 1 ? colOffset : offset;
                            }
                            break;
                        case Schema::PoolType::AVERAGEPOOL:
                            sum += v;
                            break;
                        default:
                            sum += pow(fabs(v), (double)mAttrs.p);
                            break;
                    }
                }
                double result = 0.0;
                switch (mAttrs.type) {
                    case Schema::PoolType::MAXPOOL:
                        result = bestIndex < 0 ? (double)std::numeric_limits<T>::lowest() : best;
                        break;
                    case Schema::PoolType::AVERAGEPOOL: {
                        int64_t divisor = mAttrs.countIncludePad ? padded : inside;
                        result = divisor > 0 ? sum / (double)divisor : 0.0;
                        break;
                    }
                    default:
                        result = pow(sum, 1.0 / (double)mAttrs.p);
                        break;
                }
                y[plane * outCount + o] = (T)result;
                if (yi) {
                    yi[plane * outCount + o] = bestIndex < 0 ? -1 : plane * inCount + bestIndex;
                }
            }
        }
    }

    PoolAttrs mAttrs;
    WindowGeometry mGeom;
    std::vector<int> mKernelIndex;
    std::vector<int> mOutputIndex;
    std::vector<int64_t> mColStride;
};

Execution* createPlainPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const PoolAttrs& attrs, Backend* backend) {
    // 2-D float Max / Average without Indices: direct loops (CPUPoolingFast.cpp)
    if (auto fast = createFastPooling(inputs, outputs, attrs, backend)) {
        return fast;
    }
    return new CPUPooling(backend, attrs);
}

static Execution* createPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                const Schema::Op* op, Backend* backend) {
    PoolAttrs attrs;
    attrs.load(op->param_as_PoolParam());
    return createPlainPooling(inputs, outputs, attrs, backend);
}

} // namespace MNN

MNN_REGISTER_CPU(Pooling, createPooling)
