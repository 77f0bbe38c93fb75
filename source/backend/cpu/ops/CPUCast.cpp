// Reference Cast. float -> integer truncates toward zero and saturates at the target's range
// (NaN gives 0: ONNX leaves out-of-range results undefined, we avoid C++ undefined behaviour);
// anything -> bool is (x != 0), so NaN -> true; float16 / bfloat16 targets round the value to
// that precision (round to nearest even) and keep it as float32.
#include <math.h>
#include <string.h>
#include <limits>
#include <type_traits>
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

static float roundToBf16(float f) {
    uint32_t bits;
    ::memcpy(&bits, &f, 4);
    if ((bits & 0x7fffffffu) > 0x7f800000u) {
        bits = (bits | 0x00400000u) & 0xffff0000u;  // quiet NaN
    } else {
        bits += 0x7fffu + ((bits >> 16) & 1u);
        bits &= 0xffff0000u;
    }
    float r;
    ::memcpy(&r, &bits, 4);
    return r;
}

template <typename S, typename D>
static D convertValue(S v) {
    if constexpr (std::is_floating_point<S>::value && std::is_integral<D>::value) {
        if (v != v) {
            return 0;
        }
        const double t = trunc((double)v);
        if (t <= (double)std::numeric_limits<D>::lowest()) {
            return std::numeric_limits<D>::lowest();
        }
        if (t >= (double)std::numeric_limits<D>::max()) {
            return std::numeric_limits<D>::max();
        }
        return (D)t;
    } else {
        return (D)v;
    }
}

template <typename S, typename D>
static void castLoop(const S* x, D* y, int64_t n, Schema::DataType to) {
    switch (to) {
        case Schema::DataType::DT_BOOL:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = x[i] != 0 ? (D)1 : (D)0;
            }
            return;
        case Schema::DataType::DT_FLOAT16:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = (D)TensorUtils::fp16ToFloat(TensorUtils::floatToFp16((float)x[i]));
            }
            return;
        case Schema::DataType::DT_BFLOAT16:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = (D)roundToBf16((float)x[i]);
            }
            return;
        default:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = convertValue<S, D>(x[i]);
            }
            return;
    }
}

class CPUCast : public Execution {
public:
    CPUCast(Backend* b, Schema::DataType to) : Execution(b), mTo(to) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        Tensor* out = outputs[0];
        const int64_t n = TensorUtils::elementCount(in);
        const Schema::DataType to = mTo;
        bool ok = CPUUtils::dispatchType(in->getType(), [&](auto st) {
            typedef typename decltype(st)::type S;
            CPUUtils::dispatchType(out->getType(), [&](auto dt) {
                typedef typename decltype(dt)::type D;
                castLoop<S, D>(in->host<S>(), out->host<D>(), n, to);
            });
        });
        return ok ? NO_ERROR : NOT_SUPPORT;
    }

private:
    Schema::DataType mTo;
};

static Execution* createCast(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                             Backend* backend) {
    auto p = op->param_as_CastParam();
    if (!p) {
        return nullptr;
    }
    return new CPUCast(backend, p->to());
}
} // namespace MNN

MNN_REGISTER_CPU(Cast, createCast)
