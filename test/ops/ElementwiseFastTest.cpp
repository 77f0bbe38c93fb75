// The fast float32 elementwise path: every tier's unary kernel against double-precision libm on
// random values and special values (NaN, +-inf, +-0, extremes, denormal results); the BinaryOp fast
// path against the reference kernel (MNN_ELEMENTWISE=reference, same float arithmetic, so results
// must be bit-identical) over broadcast shapes, every tier and 1-3 threads.
#include <math.h>
#include <stdlib.h>
#include <limits>
#include <random>
#include <string>
#include "NNTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

double refUnary(VecUnaryOp op, double v, double a, double b) {
    switch (op) {
        case VecUnaryOp::RELU:
            return v < 0 ? 0.0 : v;
        case VecUnaryOp::CLIP:
            return v != v ? v : std::min(std::max(v, a), b);
        case VecUnaryOp::SIGMOID:
            return 1.0 / (1.0 + exp(-v));
        case VecUnaryOp::SILU:
        case VecUnaryOp::SILU_FAST:
            return v / (1.0 + exp(-v));
        case VecUnaryOp::HARD_SIGMOID:
            return v != v ? v : std::max(0.0, std::min(1.0, a * v + b));
        case VecUnaryOp::HARD_SWISH:
            return v != v ? v : v * std::max(0.0, std::min(1.0, v / 6.0 + 0.5));
        case VecUnaryOp::TANH:
            return tanh(v);
        case VecUnaryOp::EXP:
            return exp(v);
        case VecUnaryOp::GELU:
            return 0.5 * v * (1.0 + erf(v / sqrt(2.0)));
        case VecUnaryOp::GELU_TANH:
            return 0.5 * v * (1.0 + tanh(0.79788456080286535588 * (v + 0.044715 * v * v * v)));
        case VecUnaryOp::LEAKY_RELU:
            return v < 0 ? a * v : v;
        case VecUnaryOp::ABS:
            return fabs(v);
        case VecUnaryOp::NEG:
            return -v;
        case VecUnaryOp::SQUARE:
            return v * v;
        case VecUnaryOp::RECIPROCAL:
            return 1.0 / v;
    }
    return 0;
}

// the error bound of each kernel: relative (ulps of the result) plus an absolute floor where the
// formula is only absolutely accurate (erf-based GELU, tanh-based forms near their zero crossings)
void tolerance(VecUnaryOp op, double* rel, double* abs) {
    *rel = 4e-7;
    *abs = 0.0;
    switch (op) {
        case VecUnaryOp::GELU:
            *rel = 2e-6;
            *abs = 3e-7;
            break;
        case VecUnaryOp::GELU_TANH:
            *rel = 2e-6;
            *abs = 1e-7;
            break;
        case VecUnaryOp::TANH:
            *rel = 2e-6;
            *abs = 0.0;
            break;
        case VecUnaryOp::SIGMOID:
        case VecUnaryOp::EXP:
            *rel = 1e-6;
            break;
        // the AVX2 tier's x / (1 + exp(-x)) gives -0 below x = -88.4, where exp(-x) overflows (as
        // PyTorch's float SiLU does below -88.7): results under 4e-37 in magnitude may be flushed
        case VecUnaryOp::SILU:
            *rel = 1e-6;
            *abs = 4e-37;
            break;
        // the degree-4 exp fit of the convolutions' SiLU below Precision_High (AVX-512; 2.6e-6)
        case VecUnaryOp::SILU_FAST:
            *rel = 3e-6;
            *abs = 4e-37;
            break;
        // a * x + b rounds a * x first (no FMA below AVX2): half an ulp of |b| absolute
        case VecUnaryOp::HARD_SIGMOID:
            *abs = 6e-8;
            break;
        default:
            break;
    }
}

std::vector<float> unaryInputs() {
    std::vector<float> v = {0.0f,
                            -0.0f,
                            1.0f,
                            -1.0f,
                            1e-30f,
                            -1e-30f,
                            1e-6f,
                            0.1f,
                            0.124f,
                            0.126f,
                            -0.126f,
                            0.5f,
                            3.0f,
                            -3.0f,
                            6.0f,
                            9.0f,
                            15.0f,
                            20.0f,
                            -20.0f,
                            80.0f,
                            88.5f,
                            88.8f,
                            89.5f,
                            -87.0f,
                            -90.0f,
                            -100.0f,
                            -103.5f,
                            -110.0f,
                            1e30f,
                            -1e30f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> wide(-30.0f, 30.0f), narrow(-2.0f, 2.0f);
    for (int i = 0; i < 4000; ++i) {
        v.push_back(i % 2 ? wide(gen) : narrow(gen));
    }
    return v;
}

}  // namespace

TEST(ElementwiseFast, UnaryKernelsAgainstDoubleOnEveryTier) {
    const int best = (int)cpuFeatures().best;
    const auto x = unaryInputs();
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        ASSERT_NE(f.unaryF32, nullptr);
        for (int o = 0; o < kVecUnaryOpCount; ++o) {
            const VecUnaryOp op = (VecUnaryOp)o;
            float a = 0.0f, b = 0.0f;
            if (op == VecUnaryOp::CLIP) {
                a = -0.5f;
                b = 2.5f;
            } else if (op == VecUnaryOp::HARD_SIGMOID) {
                a = 0.2f;
                b = 0.5f;
            } else if (op == VecUnaryOp::LEAKY_RELU) {
                a = 0.01f;
            }
            // odd lengths and offsets exercise the vector remainders
            for (int len : {1, 7, 17, (int)x.size()}) {
                std::vector<float> y((size_t)len + 1, 777.0f);
                f.unaryF32(o, x.data(), y.data(), len, a, b);
                EXPECT_EQ(y[(size_t)len], 777.0f) << "wrote past the end";
                double rel, abs;
                tolerance(op, &rel, &abs);
                for (int i = 0; i < len; ++i) {
                    const double r = refUnary(op, (double)x[i], (double)a, (double)b);
                    const float rf = (float)r;
                    const float got = y[(size_t)i];
                    if (rf != rf) {
                        EXPECT_TRUE(got != got)
                            << cpuTierName(f.tier) << " op " << o << " x " << x[i] << " got " << got;
                        continue;
                    }
                    if (std::isinf(rf)) {
                        EXPECT_EQ(got, rf) << cpuTierName(f.tier) << " op " << o << " x " << x[i];
                        continue;
                    }
                    const double err = fabs((double)got - r);
                    // results in the denormal range (below 2^-126) carry few significant bits
                    const double tol = rel * fabs(r) + abs + 2.4e-38;
                    if (!(err <= tol)) {
                        ADD_FAILURE() << cpuTierName(f.tier) << " op " << o << " x " << x[i] << " got " << got
                                      << " ref " << r << " err " << err;
                        break;
                    }
                }
            }
        }
    }
}

namespace {

struct BinOut {
    std::vector<float> y;
    std::vector<int> shape;
    std::string algorithm;
};

BinOut runBinary(Schema::BinaryOpType type, const std::vector<int>& sa, const std::vector<int>& sb, int threads,
                 bool reference, unsigned seed) {
    if (reference) {
        setenv("MNN_ELEMENTWISE", "reference", 1);
    } else {
        unsetenv("MNN_ELEMENTWISE");
    }
    ModelBuilder mb;
    mb.input("a", sa);
    mb.input("b", sb);
    auto op = mb.op(Schema::OpType::BinaryOp, "bin", {"a", "b"}, {"y"});
    Schema::BinaryParamT p;
    p.type = type;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    BinOut out;
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    auto session = net->createSession(config);
    unsetenv("MNN_ELEMENTWISE");
    if (!session) {
        return out;
    }
    auto fill = [&](const char* name, const std::vector<int>& dims, unsigned s) {
        size_t n = 1;
        for (auto d : dims) {
            n *= (size_t)d;
        }
        std::mt19937 gen(s);
        std::uniform_real_distribution<float> d(-2.0f, 2.0f);
        std::vector<float> v(n);
        for (size_t i = 0; i < n; ++i) {
            v[i] = d(gen);
            if (i % 97 == 5) {
                v[i] = std::numeric_limits<float>::quiet_NaN();
            }
        }
        auto t = makeTensor(dims, v);
        net->getSessionInput(session, name)->copyFromHostTensor(t.get());
    };
    fill("a", sa, seed);
    fill("b", sb, seed + 1);
    if (net->runSession(session) != NO_ERROR) {
        return out;
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    out.shape = host.shape();
    out.y.assign(host.host<float>(), host.host<float>() + host.elementSize());
    const char* algo = SessionIntrospect::algorithmOf(session, "bin");
    out.algorithm = algo ? algo : "";
    return out;
}

}  // namespace

TEST(ElementwiseFast, BinaryMatchesReferenceBitForBit) {
    using B = Schema::BinaryOpType;
    const std::vector<std::pair<std::vector<int>, std::vector<int>>> shapes = {
        {{1, 32, 56, 56}, {1, 32, 56, 56}},  // same shape, split over threads
        {{2, 24, 9, 7}, {1, 24, 1, 1}},      // per-channel scale (squeeze-excite)
        {{1, 24, 1, 1}, {2, 24, 9, 7}},      // the other way round
        {{3, 1, 5}, {4, 1}},                 // both broadcast: outer product
        {{1, 70000}, {1}},                   // scalar, one long run split over threads
        {{1}, {70000}},
        {{5, 1, 3}, {1, 6, 3}},  // inner run of 3 with outer broadcast
        {{2, 3, 4}, {4}},
        {{1}, {1}},
        {{0, 3}, {3}},  // empty
    };
    const B types[] = {B::ADD, B::SUB, B::MUL, B::DIV, B::MAXIMUM, B::MINIMUM};
    const int best = (int)cpuFeatures().best;
    unsigned seed = 11;
    for (auto& s : shapes) {
        for (auto t : types) {
            ++seed;
            BinOut ref = runBinary(t, s.first, s.second, 1, true, seed);
            ASSERT_EQ(ref.algorithm, "reference");
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                for (int threads = 1; threads <= 3; threads += 2) {
                    BinOut fast = runBinary(t, s.first, s.second, threads, false, seed);
                    ASSERT_EQ(fast.shape, ref.shape);
                    EXPECT_EQ(fast.algorithm, std::string("binary_f32__") + cpuTierName((CPUTier)tier));
                    for (size_t i = 0; i < ref.y.size(); ++i) {
                        const bool same = (ref.y[i] != ref.y[i]) ? (fast.y[i] != fast.y[i]) : fast.y[i] == ref.y[i];
                        if (!same) {
                            ADD_FAILURE() << Schema::EnumNameBinaryOpType(t) << " tier " << tier << " threads "
                                          << threads << " [" << i << "] fast " << fast.y[i] << " ref " << ref.y[i];
                            break;
                        }
                    }
                }
            }
            cpuSetTierOverride(-1);
        }
    }
}

TEST(ElementwiseFast, UnaryOpUsesTheTableAndCanBeForcedToReference) {
    for (int reference = 0; reference < 2; ++reference) {
        if (reference) {
            setenv("MNN_ELEMENTWISE", "reference", 1);
        }
        ModelBuilder mb;
        mb.input("x", {2, 1000});
        auto op = mb.op(Schema::OpType::UnaryOp, "u", {"x"}, {"y"});
        Schema::UnaryParamT p;
        p.type = Schema::UnaryOpType::SILU;
        op->param.Set(p);
        mb.output("y");
        auto model = mb.finish();
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
        ScheduleConfig config;
        auto session = net->createSession(config);
        unsetenv("MNN_ELEMENTWISE");
        ASSERT_NE(session, nullptr);
        const char* algo = SessionIntrospect::algorithmOf(session, "u");
        ASSERT_NE(algo, nullptr);
        if (reference) {
            EXPECT_STREQ(algo, "reference");
        } else {
            EXPECT_EQ(std::string(algo).rfind("unary_f32__", 0), 0u) << algo;
        }
    }
}

namespace {

std::vector<float> runSoftmax(const std::vector<int>& shape, int axis, Schema::SoftmaxMode mode, bool coerce2D,
                              int threads, bool reference, std::string* algorithm) {
    if (reference) {
        setenv("MNN_ELEMENTWISE", "reference", 1);
    }
    ModelBuilder mb;
    mb.input("x", shape);
    auto op = mb.op(Schema::OpType::Softmax, "sm", {"x"}, {"y"});
    Schema::SoftmaxParamT p;
    p.axis = axis;
    p.mode = mode;
    p.coerce2D = coerce2D;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    auto session = net->createSession(config);
    unsetenv("MNN_ELEMENTWISE");
    if (!session) {
        return {};
    }
    size_t n = 1;
    for (auto d : shape) {
        n *= (size_t)d;
    }
    std::mt19937 gen(n * 13 + axis);
    std::uniform_real_distribution<float> d(-30.0f, 30.0f);
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) {
        v[i] = d(gen);
        if (i % 211 == 7) {
            v[i] = -std::numeric_limits<float>::infinity();  // a zero probability
        }
    }
    auto t = makeTensor(shape, v);
    net->getSessionInput(session, "x")->copyFromHostTensor(t.get());
    if (net->runSession(session) != NO_ERROR) {
        return {};
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    const char* a = SessionIntrospect::algorithmOf(session, "sm");
    *algorithm = a ? a : "";
    return std::vector<float>(host.host<float>(), host.host<float>() + host.elementSize());
}

}  // namespace

TEST(ElementwiseFast, SoftmaxAndLogSoftmaxMatchReference) {
    using M = Schema::SoftmaxMode;
    struct Case {
        std::vector<int> shape;
        int axis;
        bool coerce2D;
    };
    const std::vector<Case> cases = {
        {{2, 3, 37}, -1, false},   // contiguous rows
        {{4, 1000}, 1, false},     // a classifier
        {{2, 5, 7, 9}, 1, false},  // strided: the channel axis of NCHW
        {{3, 4, 6}, 1, true},      // coerce2D (opset < 13): the flattened trailing dims
        {{64, 300}, -1, false},    // enough rows to split over threads
        {{2, 1, 5}, 1, false},     // a block of one: all ones / zeros
    };
    const int best = (int)cpuFeatures().best;
    for (const auto& c : cases) {
        for (M mode : {M::SOFTMAX, M::LOG_SOFTMAX}) {
            std::string refAlgo, algo;
            auto ref = runSoftmax(c.shape, c.axis, mode, c.coerce2D, 1, true, &refAlgo);
            ASSERT_FALSE(ref.empty());
            EXPECT_EQ(refAlgo, "reference");
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                for (int threads : {1, 3}) {
                    auto got = runSoftmax(c.shape, c.axis, mode, c.coerce2D, threads, false, &algo);
                    ASSERT_EQ(got.size(), ref.size());
                    EXPECT_EQ(algo, "softmax-vector");
                    for (size_t i = 0; i < ref.size(); ++i) {
                        if (std::isinf(ref[i])) {
                            EXPECT_EQ(got[i], ref[i]) << i;
                            continue;
                        }
                        if (ref[i] != ref[i]) {  // a block of one -inf: -inf - max is NaN in both
                            EXPECT_TRUE(got[i] != got[i]) << i;
                            continue;
                        }
                        const double tol = 2e-6 * fabs(ref[i]) + 1e-7;
                        if (!(fabs((double)got[i] - ref[i]) <= tol)) {
                            ADD_FAILURE() << "tier " << tier << " mode " << (int)mode << " axis " << c.axis << " [" << i
                                          << "] " << got[i] << " ref " << ref[i];
                            break;
                        }
                    }
                }
            }
            cpuSetTierOverride(-1);
        }
    }
}
