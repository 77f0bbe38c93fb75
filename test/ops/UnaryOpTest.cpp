#include <math.h>
#include <functional>
#include <limits>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::UnaryOpType;

namespace {
struct UnaryArgs {
    float alpha = 0, beta = 0, gamma = 0;
    bool detectPositive = true, detectNegative = true;
};

std::vector<uint8_t> unaryModel(UnaryOpType type, const std::vector<int>& dims, const UnaryArgs& args = {},
                                Schema::DataType dt = Schema::DataType::DT_FLOAT) {
    ModelBuilder mb;
    mb.input("x", dims, dt);
    auto op = mb.op(Schema::OpType::UnaryOp, "unary", {"x"}, {"y"});
    Schema::UnaryParamT p;
    p.type = type;
    p.alpha = args.alpha;
    p.beta = args.beta;
    p.gamma = args.gamma;
    p.detectPositive = args.detectPositive;
    p.detectNegative = args.detectNegative;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename T, typename O = T>
std::vector<O> runUnary(UnaryOpType type, const std::vector<T>& x, const UnaryArgs& args = {},
                        std::vector<int> dims = {}) {
    if (dims.empty() && x.size() != 1) {
        dims = {(int)x.size()};
    }
    auto model = unaryModel(type, dims, args, dataTypeOf<T>());
    auto in = makeTyped<T>(dims, x);
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), dims);
    return valuesOf<O>(r.outputs["y"].get());
}

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// exact equality that treats NaN == NaN and distinguishes nothing else
::testing::AssertionResult sameFloats(const std::vector<float>& a, const std::vector<float>& b, float atol = 0,
                                      float rtol = 0) {
    return allClose(a, b, atol, rtol);
}
} // namespace

// ---- golden values computed by hand ----

TEST(UnaryOp, GoldenSimpleMath) {
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ABS, {-2.5f, 0.f, 3.f}), {2.5f, 0.f, 3.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::NEG, {-2.5f, 0.f, 3.f}), {2.5f, 0.f, -3.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SQRT, {4.f, 0.25f, 0.f}), {2.f, 0.5f, 0.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::RSQRT, {4.f, 0.25f}), {0.5f, 2.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::RECIPROCAL, {4.f, -0.5f}), {0.25f, -2.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SQUARE, {-3.f, 1.5f}), {9.f, 2.25f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::FLOOR, {-1.5f, 1.5f, 2.f}), {-2.f, 1.f, 2.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::CEIL, {-1.5f, 1.5f, 2.f}), {-1.f, 2.f, 2.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::IDENTITY, {-1.5f, kNan}), {-1.5f, kNan}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::EXP, {0.f, 1.f}), {1.f, 2.7182817f}, 0, 1e-7f));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::LOG, {1.f, 2.7182817f}), {0.f, 1.f}, 1e-7f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SIN, {0.f, 1.5707964f}), {0.f, 1.f}, 1e-7f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::COS, {0.f, 3.1415927f}), {1.f, -1.f}, 1e-7f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::TAN, {0.f, 0.7853982f}), {0.f, 1.f}, 1e-6f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ATAN, {1.f}), {0.7853982f}, 1e-7f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ASIN, {1.f, 0.5f}), {1.5707964f, 0.5235988f}, 1e-7f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ACOS, {1.f, 0.5f}), {0.f, 1.0471976f}, 1e-7f, 0));
    // cosh(ln 2) = (2 + 1/2) / 2, sinh(ln 2) = (2 - 1/2) / 2
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::COSH, {0.6931472f}), {1.25f}, 1e-6f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SINH, {0.6931472f}), {0.75f}, 1e-6f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ACOSH, {1.25f}), {0.6931472f}, 1e-6f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ASINH, {0.75f}), {0.6931472f}, 1e-6f, 0));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ATANH, {0.6f}), {0.6931472f}, 1e-6f, 0));  // ln(1.6/0.4)/2
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::TANH, {0.5493061f}), {0.5f}, 1e-6f, 0));   // atanh(0.5)
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ERF, {0.f, 1.f}), {0.f, 0.8427008f}, 1e-7f, 0));
}

TEST(UnaryOp, GoldenRoundHalfToEven) {
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ROUND, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, 2.6f,
                                                                 -2.6f, 0.f, kInf, -kInf, kNan}),
                           {0.f, 2.f, 2.f, -0.f, -2.f, -2.f, 2.f, 3.f, -3.f, 0.f, kInf, -kInf, kNan}));
    auto r = runUnary<float>(UnaryOpType::ROUND, {-0.4f});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0], 0.f);
}

TEST(UnaryOp, GoldenSignAndLogic) {
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SIGN, {-3.f, 0.f, 2.f, kNan, -kInf}), {-1.f, 0.f, 1.f, kNan, -1.f}));
    EXPECT_EQ((runUnary<uint8_t>(UnaryOpType::NOT, {0, 1, 1, 0})), (std::vector<uint8_t>{1, 0, 0, 1}));
    EXPECT_EQ((runUnary<int32_t>(UnaryOpType::BITWISE_NOT, {0, 5, -1})), (std::vector<int32_t>{-1, -6, 0}));
    EXPECT_EQ((runUnary<uint8_t>(UnaryOpType::BITWISE_NOT, {0, 5, 255})), (std::vector<uint8_t>{255, 250, 0}));
    EXPECT_EQ((runUnary<int64_t>(UnaryOpType::BITWISE_NOT, {7})), (std::vector<int64_t>{-8}));
}

TEST(UnaryOp, GoldenIsNanIsInf) {
    std::vector<float> x = {1.f, kNan, kInf, -kInf, 0.f, -2.f};
    EXPECT_EQ((runUnary<float, uint8_t>(UnaryOpType::ISNAN, x)), (std::vector<uint8_t>{0, 1, 0, 0, 0, 0}));
    EXPECT_EQ((runUnary<float, uint8_t>(UnaryOpType::ISINF, x)), (std::vector<uint8_t>{0, 0, 1, 1, 0, 0}));
    UnaryArgs onlyNeg;
    onlyNeg.detectPositive = false;
    EXPECT_EQ((runUnary<float, uint8_t>(UnaryOpType::ISINF, x, onlyNeg)), (std::vector<uint8_t>{0, 0, 0, 1, 0, 0}));
    UnaryArgs onlyPos;
    onlyPos.detectNegative = false;
    EXPECT_EQ((runUnary<float, uint8_t>(UnaryOpType::ISINF, x, onlyPos)), (std::vector<uint8_t>{0, 0, 1, 0, 0, 0}));
    EXPECT_EQ((runUnary<double, uint8_t>(UnaryOpType::ISNAN, {1.0, (double)kNan})), (std::vector<uint8_t>{0, 1}));
}

TEST(UnaryOp, GoldenActivations) {
    std::vector<float> x = {-3.f, -1.f, 0.f, 1.f, 3.f};
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::RELU, {-3.f, 0.f, 2.f, kNan}), {0.f, 0.f, 2.f, kNan}));
    UnaryArgs leaky;
    leaky.alpha = 0.1f;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::LEAKY_RELU, x, leaky), {-0.3f, -0.1f, 0.f, 1.f, 3.f}, 1e-7f));
    UnaryArgs hs;  // ONNX defaults 0.2, 0.5
    hs.alpha = 0.2f;
    hs.beta = 0.5f;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::HARD_SIGMOID, x, hs), {0.f, 0.3f, 0.5f, 0.7f, 1.f}, 1e-7f));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::HARD_SWISH, {-4.f, -3.f, 0.f, 1.f, 3.f, 4.f}),
                           {0.f, 0.f, 0.f, 2.f / 3.f, 3.f, 4.f}, 1e-7f));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SIGMOID, {0.f, kInf, -kInf, -100.f}), {0.5f, 1.f, 0.f, 0.f},
                           1e-7f));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SOFTSIGN, x), {-0.75f, -0.5f, 0.f, 0.5f, 0.75f}));
    // softplus(0) = ln 2; large inputs do not overflow
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SOFTPLUS, {0.f, 1000.f, -1000.f}), {0.6931472f, 1000.f, 0.f},
                           1e-7f));
    UnaryArgs thr;
    thr.alpha = 1.f;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::THRESHOLDED_RELU, {0.5f, 1.f, 2.f, -3.f}, thr),
                           {0.f, 0.f, 2.f, 0.f}));
    UnaryArgs shrink;  // bias 0.5, lambd 1
    shrink.alpha = 0.5f;
    shrink.beta = 1.f;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SHRINK, {-2.f, -1.f, 0.f, 1.f, 2.f}, shrink),
                           {-1.5f, 0.f, 0.f, 0.f, 1.5f}));
    UnaryArgs elu;
    elu.alpha = 2.f;
    // 2 * (e^-1 - 1) = -1.2642411
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ELU, {-1.f, 0.f, 2.f}, elu), {-1.2642411f, 0.f, 2.f}, 1e-6f));
    UnaryArgs celu;
    celu.alpha = 2.f;
    // 2 * (e^-0.5 - 1) = -0.7869387
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::CELU, {-1.f, 0.f, 2.f}, celu), {-0.7869387f, 0.f, 2.f}, 1e-6f));
    UnaryArgs selu;
    selu.alpha = 2.f;
    selu.gamma = 3.f;
    // 3 * 2 * (e^-1 - 1) = -3.7927234, 3 * 2 = 6
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SELU, {-1.f, 0.f, 2.f}, selu), {-3.7927234f, 0.f, 6.f}, 1e-6f));
    // gelu(1) = 0.5 * (1 + erf(1/sqrt 2)) = 0.8413447; gelu(-1) = -0.1586553
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::GELU, {1.f, -1.f, 0.f}), {0.8413447f, -0.1586553f, 0.f}, 1e-6f));
    // tanh form: 0.5 * (1 + tanh(0.7978846 * 1.044715)) = 0.8411920
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::GELU_TANH, {1.f, 0.f}), {0.8411920f, 0.f}, 1e-6f));
    // silu(1) = 1 / (1 + e^-1) = 0.7310586
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SILU, {1.f, 0.f}), {0.7310586f, 0.f}, 1e-6f));
    // mish(1) = tanh(ln(1 + e)) = tanh(1.3132616) = 0.8650984
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::MISH, {1.f, 0.f}), {0.8650984f, 0.f}, 1e-6f));
}

TEST(UnaryOp, GoldenClip) {
    UnaryArgs c;
    c.alpha = -1.f;
    c.beta = 2.f;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::CLIP, {-3.f, -1.f, 0.f, 2.f, 5.f, kNan, kInf}, c),
                           {-1.f, -1.f, 0.f, 2.f, 2.f, kNan, 2.f}));
    // no bounds: the converter writes -inf / +inf
    UnaryArgs none;
    none.alpha = -kInf;
    none.beta = kInf;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::CLIP, {-1e30f, 3.f}, none), {-1e30f, 3.f}));
    // min > max: everything becomes max
    UnaryArgs inverted;
    inverted.alpha = 3.f;
    inverted.beta = 1.f;
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::CLIP, {-5.f, 2.f, 9.f}, inverted), {1.f, 1.f, 1.f}));
    EXPECT_EQ((runUnary<int32_t>(UnaryOpType::CLIP, {-7, 0, 4, 100}, c)), (std::vector<int32_t>{-1, 0, 2, 2}));
    EXPECT_EQ((runUnary<int64_t>(UnaryOpType::CLIP, {INT64_MIN, 9, INT64_MAX}, none)),
              (std::vector<int64_t>{INT64_MIN, 9, INT64_MAX}));
    EXPECT_EQ((runUnary<int8_t>(UnaryOpType::CLIP, {-128, 0, 127}, c)), (std::vector<int8_t>{-1, 0, 2}));
}

TEST(UnaryOp, GoldenIntegerTypes) {
    EXPECT_EQ((runUnary<int32_t>(UnaryOpType::ABS, {-5, 0, 7, INT32_MIN})), (std::vector<int32_t>{5, 0, 7, INT32_MIN}));
    EXPECT_EQ((runUnary<int64_t>(UnaryOpType::NEG, {-5, 0, 7})), (std::vector<int64_t>{5, 0, -7}));
    EXPECT_EQ((runUnary<int8_t>(UnaryOpType::NEG, {-128, 1})), (std::vector<int8_t>{-128, -1}));
    EXPECT_EQ((runUnary<int64_t>(UnaryOpType::SIGN, {-5, 0, 7})), (std::vector<int64_t>{-1, 0, 1}));
    EXPECT_EQ((runUnary<int8_t>(UnaryOpType::RELU, {-5, 0, 7})), (std::vector<int8_t>{0, 0, 7}));
    EXPECT_EQ((runUnary<uint8_t>(UnaryOpType::ABS, {200, 0})), (std::vector<uint8_t>{200, 0}));
    EXPECT_EQ((runUnary<int16_t>(UnaryOpType::SQUARE, {-12, 3})), (std::vector<int16_t>{144, 9}));
    // wraps modulo 2^16 (a uint16 / int16 square once multiplied as int and overflowed: UBSan)
    EXPECT_EQ((runUnary<uint16_t>(UnaryOpType::SQUARE, {65535, 300})), (std::vector<uint16_t>{1, 24464}));
    EXPECT_EQ((runUnary<int16_t>(UnaryOpType::SQUARE, {-300, -32768})), (std::vector<int16_t>{24464, 0}));
    EXPECT_EQ((runUnary<int32_t>(UnaryOpType::IDENTITY, {-12, 3})), (std::vector<int32_t>{-12, 3}));
}

TEST(UnaryOp, NanAndInfinityFollowIeee) {
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::LOG, {0.f, -1.f, kInf}), {-kInf, kNan, kInf}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SQRT, {-1.f, kInf}), {kNan, kInf}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::EXP, {-kInf, kInf, kNan}), {0.f, kInf, kNan}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::RECIPROCAL, {0.f, -0.f, kInf}), {kInf, -kInf, 0.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::TANH, {kInf, -kInf, kNan}), {1.f, -1.f, kNan}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ACOS, {2.f}), {kNan}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ATANH, {1.f, -1.f}), {kInf, -kInf}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::ABS, {-kInf, kNan}), {kInf, kNan}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::SOFTPLUS, {kInf, -kInf}), {kInf, 0.f}));
    EXPECT_TRUE(sameFloats(runUnary<float>(UnaryOpType::EXP, {100.f}), {kInf}));  // overflows float32
}

// ---- every float op against a std:: formula written here, float32 and float64 ----

namespace {
struct FormulaCase {
    UnaryOpType type;
    UnaryArgs args;
    float lo, hi;  // input domain
    std::function<double(double)> f;
};

std::vector<FormulaCase> formulaCases() {
    const double a = 0.3, b = 0.6, g = 1.5;
    UnaryArgs p;
    p.alpha = (float)a;
    p.beta = (float)b;
    p.gamma = (float)g;
    double fa = (float)a, fb = (float)b, fg = (float)g;
    auto sig = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
    auto sp = [](double x) { return std::log(1.0 + std::exp(x)); };
    return {
        {UnaryOpType::ABS, p, -5, 5, [](double x) { return std::fabs(x); }},
        {UnaryOpType::NEG, p, -5, 5, [](double x) { return -x; }},
        {UnaryOpType::EXP, p, -5, 5, [](double x) { return std::exp(x); }},
        {UnaryOpType::LOG, p, 0.01f, 10, [](double x) { return std::log(x); }},
        {UnaryOpType::SQRT, p, 0, 10, [](double x) { return std::sqrt(x); }},
        {UnaryOpType::RECIPROCAL, p, 0.1f, 10, [](double x) { return 1.0 / x; }},
        {UnaryOpType::SIN, p, -5, 5, [](double x) { return std::sin(x); }},
        {UnaryOpType::COS, p, -5, 5, [](double x) { return std::cos(x); }},
        {UnaryOpType::TAN, p, -1.4f, 1.4f, [](double x) { return std::tan(x); }},
        {UnaryOpType::ASIN, p, -1, 1, [](double x) { return std::asin(x); }},
        {UnaryOpType::ACOS, p, -1, 1, [](double x) { return std::acos(x); }},
        {UnaryOpType::ATAN, p, -5, 5, [](double x) { return std::atan(x); }},
        {UnaryOpType::SINH, p, -5, 5, [](double x) { return std::sinh(x); }},
        {UnaryOpType::COSH, p, -5, 5, [](double x) { return std::cosh(x); }},
        {UnaryOpType::ASINH, p, -5, 5, [](double x) { return std::asinh(x); }},
        {UnaryOpType::ACOSH, p, 1, 10, [](double x) { return std::acosh(x); }},
        {UnaryOpType::ATANH, p, -0.99f, 0.99f, [](double x) { return std::atanh(x); }},
        {UnaryOpType::ERF, p, -3, 3, [](double x) { return std::erf(x); }},
        {UnaryOpType::FLOOR, p, -5, 5, [](double x) { return std::floor(x); }},
        {UnaryOpType::CEIL, p, -5, 5, [](double x) { return std::ceil(x); }},
        {UnaryOpType::ROUND, p, -5, 5, [](double x) { return std::nearbyint(x); }},
        {UnaryOpType::SIGN, p, -5, 5, [](double x) { return (double)((x > 0) - (x < 0)); }},
        {UnaryOpType::SQUARE, p, -5, 5, [](double x) { return x * x; }},
        {UnaryOpType::RSQRT, p, 0.1f, 10, [](double x) { return 1.0 / std::sqrt(x); }},
        {UnaryOpType::IDENTITY, p, -5, 5, [](double x) { return x; }},
        {UnaryOpType::RELU, p, -5, 5, [](double x) { return std::max(x, 0.0); }},
        {UnaryOpType::CLIP, p, -5, 5, [=](double x) { return std::min(std::max(x, fa), fb); }},
        {UnaryOpType::LEAKY_RELU, p, -5, 5, [=](double x) { return x >= 0 ? x : fa * x; }},
        {UnaryOpType::SIGMOID, p, -8, 8, sig},
        {UnaryOpType::HARD_SIGMOID, p, -5, 5, [=](double x) { return std::max(0.0, std::min(1.0, fa * x + fb)); }},
        {UnaryOpType::HARD_SWISH, p, -5, 5, [](double x) { return x * std::max(0.0, std::min(1.0, x / 6 + 0.5)); }},
        {UnaryOpType::TANH, p, -5, 5, [](double x) { return std::tanh(x); }},
        {UnaryOpType::GELU, p, -5, 5, [](double x) { return x * 0.5 * (1 + std::erf(x / std::sqrt(2.0))); }},
        {UnaryOpType::GELU_TANH, p, -5, 5,
         [](double x) {
             return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * std::pow(x, 3))));
         }},
        {UnaryOpType::SILU, p, -8, 8, [=](double x) { return x * sig(x); }},
        {UnaryOpType::ELU, p, -5, 5, [=](double x) { return x >= 0 ? x : fa * (std::exp(x) - 1); }},
        {UnaryOpType::SELU, p, -5, 5, [=](double x) { return x > 0 ? fg * x : fg * fa * (std::exp(x) - 1); }},
        {UnaryOpType::SOFTPLUS, p, -8, 8, sp},
        {UnaryOpType::SOFTSIGN, p, -5, 5, [](double x) { return x / (1 + std::fabs(x)); }},
        {UnaryOpType::MISH, p, -8, 8, [=](double x) { return x * std::tanh(sp(x)); }},
        {UnaryOpType::CELU, p, -5, 5,
         [=](double x) { return std::max(0.0, x) + std::min(0.0, fa * (std::exp(x / fa) - 1)); }},
        {UnaryOpType::THRESHOLDED_RELU, p, -5, 5, [=](double x) { return x > fa ? x : 0.0; }},
        {UnaryOpType::SHRINK, p, -5, 5,
         [=](double x) { return x < -fb ? x + fa : (x > fb ? x - fa : 0.0); }},
    };
}
} // namespace

TEST(UnaryOp, EveryFloatOpMatchesStdFormula) {
    auto cases = formulaCases();
    for (auto& c : cases) {
        auto x = randomFloats(64, 7 + (unsigned)c.type, c.lo, c.hi);
        x[0] = c.lo;
        std::vector<float> expect;
        std::vector<double> xd, expectD;
        for (auto v : x) {
            expect.push_back((float)c.f(v));
            xd.push_back(v);
            expectD.push_back(c.f(v));
        }
        SCOPED_TRACE(Schema::EnumNameUnaryOpType(c.type));
        EXPECT_TRUE(allClose(runUnary<float>(c.type, x, c.args, {4, 16}), expect, 1e-6f, 1e-6f));
        auto got = runUnary<double>(c.type, xd, c.args, {64});
        ASSERT_EQ(got.size(), expectD.size());
        for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_NEAR(got[i], expectD[i], 1e-12 + 1e-12 * std::fabs(expectD[i])) << "element " << i;
        }
    }
}

TEST(UnaryOp, RankZeroAndZeroSize) {
    auto model = unaryModel(UnaryOpType::EXP, {});
    auto x = makeTensor({}, {1.f});
    auto r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.7182817f}));

    auto model0 = unaryModel(UnaryOpType::SIGMOID, {2, 0, 3});
    auto x0 = makeTensor({2, 0, 3}, {});
    auto r0 = runModel(model0, {{"x", x0.get()}});
    ASSERT_EQ(r0.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r0.outputs["y"].get()), (std::vector<int>{2, 0, 3}));
    EXPECT_EQ(r0.outputs["y"]->elementSize(), 0);
}

TEST(UnaryOp, WrongTypesFailAtCreate) {
    EXPECT_TRUE(createFails(unaryModel(UnaryOpType::SIN, {3}, {}, Schema::DataType::DT_INT32), "unary", "SIN"));
    EXPECT_TRUE(createFails(unaryModel(UnaryOpType::NOT, {3}, {}, Schema::DataType::DT_FLOAT), "unary", "NOT"));
    EXPECT_TRUE(createFails(unaryModel(UnaryOpType::BITWISE_NOT, {3}, {}, Schema::DataType::DT_FLOAT), "unary"));
    EXPECT_TRUE(createFails(unaryModel(UnaryOpType::NEG, {3}, {}, Schema::DataType::DT_UINT8), "unary", "NEG"));
    EXPECT_TRUE(createFails(unaryModel(UnaryOpType::ISNAN, {3}, {}, Schema::DataType::DT_INT64), "unary"));
    EXPECT_TRUE(createFails(unaryModel((UnaryOpType)999, {3}), "unary", "unknown"));
}
