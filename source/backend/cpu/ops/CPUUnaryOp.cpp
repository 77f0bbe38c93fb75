// Reference UnaryOp: every UnaryOpType with ONNX semantics. Floating point math is done in double
// and rounded once to the output type. Integer ABS / NEG / SQUARE wrap like two's complement
// (no signed overflow). Parameters are used as given: the converter writes ONNX's defaults.
#include <math.h>
#include <limits>
#include <type_traits>
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "CPUElementwiseFast.hpp"

namespace MNN {
using Schema::UnaryOpType;

struct UnaryParams {
    UnaryOpType type = UnaryOpType::ABS;
    float alpha = 0;
    float beta = 0;
    float gamma = 0;
    bool detectPositive = true;
    bool detectNegative = true;
};

static double roundHalfEven(double x) {
    double r = floor(x);
    double d = x - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0)) {
        r += 1.0;
    }
    return r == 0.0 ? copysign(0.0, x) : r;
}

static double sigmoidD(double x) {
    if (x >= 0) {
        return 1.0 / (1.0 + exp(-x));
    }
    double e = exp(x);
    return e / (1.0 + e);
}

static double softplusD(double x) {
    // log(1 + exp(x)) without overflow
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

static const double kSqrt2 = 1.41421356237309504880;
static const double kSqrt2OverPi = 0.79788456080286535588;

template <typename T, typename F>
static void mapLoop(const T* x, T* y, int64_t n, F f) {
    for (int64_t i = 0; i < n; ++i) {
        y[i] = (T)f((double)x[i]);
    }
}

template <typename T>
static void runFloatUnary(const UnaryParams& p, const Tensor* in, Tensor* out) {
    const int64_t n = TensorUtils::elementCount(in);
    const T* x = in->host<T>();
    const double a = p.alpha, b = p.beta, g = p.gamma;
    if (p.type == UnaryOpType::ISNAN || p.type == UnaryOpType::ISINF) {
        uint8_t* y = out->host<uint8_t>();
        for (int64_t i = 0; i < n; ++i) {
            T v = x[i];
            if (p.type == UnaryOpType::ISNAN) {
                y[i] = v != v ? 1 : 0;
            } else {
                bool inf = std::isinf(v);
                y[i] = (inf && ((v > 0 && p.detectPositive) || (v < 0 && p.detectNegative))) ? 1 : 0;
            }
        }
        return;
    }
    T* y = out->host<T>();
#define MNN_UNARY(NAME, EXPR)                              \
    case UnaryOpType::NAME:                                \
        mapLoop(x, y, n, [&](double v) { return (EXPR); }); \
        return;
    switch (p.type) {
        MNN_UNARY(ABS, fabs(v))
        MNN_UNARY(NEG, -v)
        MNN_UNARY(EXP, exp(v))
        MNN_UNARY(LOG, log(v))
        MNN_UNARY(SQRT, sqrt(v))
        MNN_UNARY(RECIPROCAL, 1.0 / v)
        MNN_UNARY(SIN, sin(v))
        MNN_UNARY(COS, cos(v))
        MNN_UNARY(TAN, tan(v))
        MNN_UNARY(ASIN, asin(v))
        MNN_UNARY(ACOS, acos(v))
        MNN_UNARY(ATAN, atan(v))
        MNN_UNARY(SINH, sinh(v))
        MNN_UNARY(COSH, cosh(v))
        MNN_UNARY(ASINH, asinh(v))
        MNN_UNARY(ACOSH, acosh(v))
        MNN_UNARY(ATANH, atanh(v))
        MNN_UNARY(ERF, erf(v))
        MNN_UNARY(FLOOR, floor(v))
        MNN_UNARY(CEIL, ceil(v))
        MNN_UNARY(ROUND, roundHalfEven(v))
        MNN_UNARY(SIGN, v > 0 ? 1.0 : (v < 0 ? -1.0 : v))
        MNN_UNARY(SQUARE, v * v)
        MNN_UNARY(RSQRT, 1.0 / sqrt(v))
        MNN_UNARY(IDENTITY, v)
        MNN_UNARY(RELU, v < 0 ? 0.0 : v)
        MNN_UNARY(LEAKY_RELU, v < 0 ? a * v : v)
        MNN_UNARY(SIGMOID, sigmoidD(v))
        MNN_UNARY(HARD_SIGMOID, fmax(0.0, fmin(1.0, a * v + b)))
        MNN_UNARY(HARD_SWISH, v * fmax(0.0, fmin(1.0, v / 6.0 + 0.5)))
        MNN_UNARY(TANH, tanh(v))
        MNN_UNARY(GELU, 0.5 * v * (1.0 + erf(v / kSqrt2)))
        MNN_UNARY(GELU_TANH, 0.5 * v * (1.0 + tanh(kSqrt2OverPi * (v + 0.044715 * v * v * v))))
        MNN_UNARY(SILU, v * sigmoidD(v))
        MNN_UNARY(ELU, v < 0 ? a * expm1(v) : v)
        MNN_UNARY(SELU, v <= 0 ? g * (a * exp(v) - a) : g * v)
        MNN_UNARY(SOFTPLUS, softplusD(v))
        MNN_UNARY(SOFTSIGN, v / (1.0 + fabs(v)))
        MNN_UNARY(MISH, v * tanh(softplusD(v)))
        MNN_UNARY(CELU, fmax(0.0, v) + fmin(0.0, a * expm1(v / a)))
        MNN_UNARY(THRESHOLDED_RELU, v > a ? v : 0.0)
        MNN_UNARY(SHRINK, v < -b ? v + a : (v > b ? v - a : 0.0))
        case UnaryOpType::CLIP: {
            // NaN passes through; min > max gives max (ONNX)
            const T lo = (T)p.alpha, hi = (T)p.beta;
            T* yy = y;
            for (int64_t i = 0; i < n; ++i) {
                T r = x[i] < lo ? lo : x[i];
                yy[i] = r > hi ? hi : r;
            }
            return;
        }
        default:
            return;
    }
#undef MNN_UNARY
}

/** a float bound converted to T, saturating; NaN or out of range gives `fallback` side */
template <typename T>
static T boundOf(double v, bool lower) {
    const double lowest = (double)std::numeric_limits<T>::lowest();
    const double highest = (double)std::numeric_limits<T>::max();
    if (v != v) {
        return lower ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    }
    v = lower ? ceil(v) : floor(v);
    if (v <= lowest) {
        return std::numeric_limits<T>::lowest();
    }
    if (v >= highest) {
        return std::numeric_limits<T>::max();
    }
    return (T)v;
}

template <typename T>
static void runIntUnary(const UnaryParams& p, const Tensor* in, Tensor* out) {
    typedef typename std::make_unsigned<T>::type U;
    const int64_t n = TensorUtils::elementCount(in);
    const T* x = in->host<T>();
    T* y = out->host<T>();
    switch (p.type) {
        case UnaryOpType::ABS:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = (std::is_signed<T>::value && x[i] < 0) ? (T)((U)0 - (U)x[i]) : x[i];
            }
            return;
        case UnaryOpType::NEG:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = (T)((U)0 - (U)x[i]);
            }
            return;
        case UnaryOpType::SIGN:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = x[i] > 0 ? (T)1 : (x[i] < 0 ? (T)-1 : (T)0);
            }
            return;
        case UnaryOpType::SQUARE: {
            // unsigned types narrower than int promote to (signed) int, where 65535^2 overflows
            typedef typename std::conditional<(sizeof(U) < sizeof(unsigned)), unsigned, U>::type W;
            for (int64_t i = 0; i < n; ++i) {
                y[i] = (T)((W)(U)x[i] * (W)(U)x[i]);
            }
            return;
        }
        case UnaryOpType::RELU:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = x[i] < 0 ? (T)0 : x[i];
            }
            return;
        case UnaryOpType::CLIP: {
            const T lo = boundOf<T>(p.alpha, true), hi = boundOf<T>(p.beta, false);
            for (int64_t i = 0; i < n; ++i) {
                T r = x[i] < lo ? lo : x[i];
                y[i] = r > hi ? hi : r;
            }
            return;
        }
        case UnaryOpType::BITWISE_NOT:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = (T)(~(U)x[i]);
            }
            return;
        case UnaryOpType::NOT:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = x[i] == 0 ? (T)1 : (T)0;
            }
            return;
        case UnaryOpType::IDENTITY:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = x[i];
            }
            return;
        default:
            return;
    }
}

class CPUUnaryOp : public Execution {
public:
    CPUUnaryOp(Backend* b, const UnaryParams& p) : Execution(b), mParam(p) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!CPUUtils::isNumericType(inputs[0]->getType())) {
            return error(NOT_SUPPORT, "UnaryOp %s: unsupported input type %s", Schema::EnumNameUnaryOpType(mParam.type),
                         TensorUtils::typeName(inputs[0]->getType()));
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        Tensor* out = outputs[0];
        const UnaryParams& p = mParam;
        CPUUtils::dispatchType(in->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            if constexpr (std::is_floating_point<T>::value) {
                runFloatUnary<T>(p, in, out);
            } else {
                runIntUnary<T>(p, in, out);
            }
        });
        return NO_ERROR;
    }

private:
    UnaryParams mParam;
};

static Execution* createUnaryOp(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&,
                                const Schema::Op* op, Backend* backend) {
    auto src = op->param_as_UnaryParam();
    if (!src) {
        return nullptr;
    }
    if (auto fast = createFastUnary(inputs, src, backend)) {
        return fast;
    }
    UnaryParams p;
    p.type = src->type();
    p.alpha = src->alpha();
    p.beta = src->beta();
    p.gamma = src->gamma();
    p.detectPositive = src->detectPositive();
    p.detectNegative = src->detectNegative();
    return new CPUUnaryOp(backend, p);
}
} // namespace MNN

MNN_REGISTER_CPU(UnaryOp, createUnaryOp)
