// Reference BinaryOp: every ONNX elementwise binary op with numpy broadcasting.
#include <math.h>
#include <type_traits>
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/SaturateCast.hpp"
#include "CPUElementwiseFast.hpp"

namespace MNN {
using Schema::BinaryOpType;

// Integer arithmetic wraps modulo 2^bits (as numpy and ONNX Runtime do) instead of being C++
// signed overflow, which is undefined behaviour: the arithmetic is done on the unsigned type.
template <typename T>
using WideUnsigned = typename std::make_unsigned<
    typename std::conditional<std::is_integral<T>::value, typename std::conditional<(sizeof(T) < 4), int, T>::type,
                              int>::type>::type;

template <typename T>
static T addT(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        return (T)((WideUnsigned<T>)a + (WideUnsigned<T>)b);
    } else {
        return a + b;
    }
}
template <typename T>
static T subT(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        return (T)((WideUnsigned<T>)a - (WideUnsigned<T>)b);
    } else {
        return a - b;
    }
}
template <typename T>
static T mulT(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        return (T)((WideUnsigned<T>)a * (WideUnsigned<T>)b);
    } else {
        return a * b;
    }
}
template <typename T>
static T meanT(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        // (a + b) / 2 truncated toward zero without overflowing: the floor of the mean is
        // (a & b) + ((a ^ b) >> 1); a negative odd sum then rounds up by one
        T f = (T)((a & b) + ((a ^ b) >> 1));
        if (f < 0 && ((a ^ b) & 1)) {
            f = (T)(f + 1);
        }
        return f;
    } else {
        return (a + b) / (T)2;
    }
}

template <typename T>
static T modPython(T a, T b) {
    if constexpr (std::is_floating_point<T>::value) {
        T r = (T)fmod((double)a, (double)b);
        if (r != 0 && ((r < 0) != (b < 0))) {
            r += b;
        }
        return r;
    } else {
        if (b == 0) {
            return 0;
        }
        if (std::is_signed<T>::value && b == (T)-1) {
            return 0;  // also for the lowest value, where a % b overflows (SIGFPE on x86)
        }
        T r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) {
            r += b;
        }
        return r;
    }
}

template <typename T>
static T fmodC(T a, T b) {
    if constexpr (std::is_floating_point<T>::value) {
        return (T)fmod((double)a, (double)b);
    } else {
        // b == -1: the lowest value % -1 overflows (SIGFPE on x86); the remainder is 0 anyway
        return (b == 0 || (std::is_signed<T>::value && b == (T)-1)) ? 0 : (T)(a % b);
    }
}

template <typename T>
static T divide(T a, T b) {
    if constexpr (std::is_floating_point<T>::value) {
        return a / b;
    } else {
        if (std::is_signed<T>::value && b == (T)-1) {
            return subT<T>(0, a);  // lowest / -1 overflows (SIGFPE on x86): wraps to lowest
        }
        return b == 0 ? 0 : (T)(a / b);
    }
}

template <typename T>
static T shiftLeft(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        using U = typename std::make_unsigned<typename std::conditional<std::is_integral<T>::value, T, int>::type>::type;
        return (b < 0 || b >= (T)(sizeof(T) * 8)) ? 0 : (T)((U)a << (U)b);
    }
    return a;
}

template <typename T>
static T shiftRight(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        using U = typename std::make_unsigned<typename std::conditional<std::is_integral<T>::value, T, int>::type>::type;
        return (b < 0 || b >= (T)(sizeof(T) * 8)) ? 0 : (T)((U)a >> (U)b);
    }
    return a;
}

template <typename T>
static T bitAnd(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        using I = typename std::conditional<std::is_integral<T>::value, T, int>::type;
        return (T)((I)a & (I)b);
    }
    return a;
}
template <typename T>
static T bitOr(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        using I = typename std::conditional<std::is_integral<T>::value, T, int>::type;
        return (T)((I)a | (I)b);
    }
    return a;
}
template <typename T>
static T bitXor(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        using I = typename std::conditional<std::is_integral<T>::value, T, int>::type;
        return (T)((I)a ^ (I)b);
    }
    return a;
}

template <typename T>
static T powT(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        return CPUUtils::saturateFromDouble<T>(pow((double)a, (double)b));
    } else {
        return (T)pow((double)a, (double)b);
    }
}

struct BroadcastPlan {
    std::vector<int> out;
    std::vector<int64_t> sa, sb;
};

template <typename T>
static void runBinary(BinaryOpType type, const Tensor* A, const Tensor* B, Tensor* C, const BroadcastPlan& plan) {
    const auto& out = plan.out;
    const auto& sa = plan.sa;
    const auto& sb = plan.sb;
    const T* a = A->host<T>();
    const T* b = B->host<T>();
#define MNN_BIN(EXPR, OT)                                                                         \
    {                                                                                             \
        OT* c = C->host<OT>();                                                                    \
        CPUUtils::forEachBroadcast2(out, sa, sb, [&](int64_t o, int64_t ia, int64_t ib) {        \
            T x = a[ia];                                                                          \
            T y = b[ib];                                                                          \
            c[o] = (OT)(EXPR);                                                                    \
        });                                                                                       \
        return;                                                                                   \
    }
    switch (type) {
        case BinaryOpType::ADD: MNN_BIN(addT<T>(x, y), T)
        case BinaryOpType::SUB: MNN_BIN(subT<T>(x, y), T)
        case BinaryOpType::MUL: MNN_BIN(mulT<T>(x, y), T)
        case BinaryOpType::DIV: MNN_BIN(divide<T>(x, y), T)
        case BinaryOpType::POW: MNN_BIN(powT<T>(x, y), T)
        case BinaryOpType::MAXIMUM: MNN_BIN((x != x || y != y) ? (x != x ? x : y) : (x > y ? x : y), T)
        case BinaryOpType::MINIMUM: MNN_BIN((x != x || y != y) ? (x != x ? x : y) : (x < y ? x : y), T)
        case BinaryOpType::MEAN: MNN_BIN(meanT<T>(x, y), T)
        case BinaryOpType::MOD: MNN_BIN(modPython<T>(x, y), T)
        case BinaryOpType::FMOD: MNN_BIN(fmodC<T>(x, y), T)
        case BinaryOpType::EQUAL: MNN_BIN(x == y, uint8_t)
        case BinaryOpType::LESS: MNN_BIN(x < y, uint8_t)
        case BinaryOpType::LESS_EQUAL: MNN_BIN(x <= y, uint8_t)
        case BinaryOpType::GREATER: MNN_BIN(x > y, uint8_t)
        case BinaryOpType::GREATER_EQUAL: MNN_BIN(x >= y, uint8_t)
        case BinaryOpType::AND: MNN_BIN((x != 0) && (y != 0), uint8_t)
        case BinaryOpType::OR: MNN_BIN((x != 0) || (y != 0), uint8_t)
        case BinaryOpType::XOR: MNN_BIN((x != 0) != (y != 0), uint8_t)
        case BinaryOpType::BITSHIFT_LEFT: MNN_BIN(shiftLeft<T>(x, y), T)
        case BinaryOpType::BITSHIFT_RIGHT: MNN_BIN(shiftRight<T>(x, y), T)
        case BinaryOpType::BITWISE_AND: MNN_BIN(bitAnd<T>(x, y), T)
        case BinaryOpType::BITWISE_OR: MNN_BIN(bitOr<T>(x, y), T)
        case BinaryOpType::BITWISE_XOR: MNN_BIN(bitXor<T>(x, y), T)
        default:
            return;
    }
#undef MNN_BIN
}

// Mixed input types (Pow with an integer exponent): compute in double.
static void runBinaryMixed(BinaryOpType type, const Tensor* A, const Tensor* B, Tensor* C, const BroadcastPlan& plan) {
    const auto& out = plan.out;
    const auto& sa = plan.sa;
    const auto& sb = plan.sb;
    // an integer result of x / 0 is 0, as on the same-type path (writeFromDouble turns other
    // NaN / infinite / out-of-range results into 0 / the saturated value)
    const bool integerOut = C->getType().code != halide_type_float;
    CPUUtils::forEachBroadcast2(out, sa, sb, [&](int64_t o, int64_t ia, int64_t ib) {
        double x = CPUUtils::readAsDouble(A, ia);
        double y = CPUUtils::readAsDouble(B, ib);
        double r = 0;
        switch (type) {
            case BinaryOpType::POW: r = pow(x, y); break;
            case BinaryOpType::ADD: r = x + y; break;
            case BinaryOpType::SUB: r = x - y; break;
            case BinaryOpType::MUL: r = x * y; break;
            case BinaryOpType::DIV: r = (integerOut && y == 0) ? 0 : x / y; break;
            default: r = 0; break;
        }
        CPUUtils::writeFromDouble(C, o, r);
    });
}

class CPUBinaryOp : public Execution {
public:
    CPUBinaryOp(Backend* b, BinaryOpType type) : Execution(b), mType(type) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto ta = inputs[0]->getType();
        auto tb = inputs[1]->getType();
        if (ta != tb && !(mType == BinaryOpType::POW || mType == BinaryOpType::ADD || mType == BinaryOpType::SUB ||
                          mType == BinaryOpType::MUL || mType == BinaryOpType::DIV)) {
            return error(NOT_SUPPORT, "BinaryOp %s: input types differ (%s vs %s)", Schema::EnumNameBinaryOpType(mType),
                         TensorUtils::typeName(ta), TensorUtils::typeName(tb));
        }
        mPlan.out = TensorUtils::shape(outputs[0]);
        mPlan.sa = CPUUtils::broadcastStrides(TensorUtils::shape(inputs[0]), mPlan.out);
        mPlan.sb = CPUUtils::broadcastStrides(TensorUtils::shape(inputs[1]), mPlan.out);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto A = inputs[0];
        auto B = inputs[1];
        auto C = outputs[0];
        auto t = A->getType();
        if (t != B->getType()) {
            runBinaryMixed(mType, A, B, C, mPlan);
            return NO_ERROR;
        }
        if (t.code == halide_type_float) {
            if (t.bits == 64) {
                runBinary<double>(mType, A, B, C, mPlan);
            } else {
                runBinary<float>(mType, A, B, C, mPlan);
            }
        } else if (t.code == halide_type_int) {
            switch (t.bits) {
                case 8: runBinary<int8_t>(mType, A, B, C, mPlan); break;
                case 16: runBinary<int16_t>(mType, A, B, C, mPlan); break;
                case 32: runBinary<int32_t>(mType, A, B, C, mPlan); break;
                default: runBinary<int64_t>(mType, A, B, C, mPlan); break;
            }
        } else {
            switch (t.bits) {
                case 8: runBinary<uint8_t>(mType, A, B, C, mPlan); break;
                case 16: runBinary<uint16_t>(mType, A, B, C, mPlan); break;
                case 32: runBinary<uint32_t>(mType, A, B, C, mPlan); break;
                default: runBinary<uint64_t>(mType, A, B, C, mPlan); break;
            }
        }
        return NO_ERROR;
    }

private:
    BinaryOpType mType;
    BroadcastPlan mPlan;
};

static Execution* createBinaryOp(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&,
                                 const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_BinaryParam();
    if (!p) {
        return nullptr;
    }
    if (auto fast = createFastBinary(inputs, p->type(), backend)) {
        return fast;
    }
    return new CPUBinaryOp(backend, p->type());
}
} // namespace MNN

MNN_REGISTER_CPU(BinaryOp, createBinaryOp)
