// Winograd F(m x m, 3 x 3) on the packed layout (CPUConvolutionPackedWinograd.cpp), reached only
// through graphs whose 3x3 convolution reads and / or writes NC16HW16 tensors: F(2), F(3), F(4), F(6)
// forced with MNN_CONV_ALGO and the engine's own choice, against the plain reference kernel, on
// every ISA tier and 1-3 threads, over tile remainders, padded and valid windows, channel counts off
// the 16-lane block, batch 2 and each fused activation. Also the choice per precision.
#include <math.h>
#include "PackedTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

enum class Chain {
    PACKED_BOTH,  // x -> 1x1 -> a -> 3x3 -> b -> 1x1 -> y (a, b packed)
    PLAIN_IN,     // x -> 3x3 -> b -> 1x1 -> y (reads the plain graph input, writes packed b)
    PLAIN_OUT,    // x -> 1x1 -> a -> 3x3 -> b (packed a, writes the plain graph output b)
};

struct Case {
    Chain chain;
    int n, cin, cout, h, w;
    std::vector<int> pads;  // top, left, bottom, right
    Schema::FusedActivation act;
    int k = 3;   // the window: 3x3 or 5x5 (k x kw when kw is set)
    int kw = 0;  // a 1-D window: 1 x kw (k 1) or k x 1 (kw 1)
    int stride = 1;
};

int windowW(const Case& c) {
    return c.kw ? c.kw : c.k;
}

constexpr int kX = 8;  // channels of x in chains that start with the 1x1

std::vector<uint8_t> buildModel(const Case& c) {
    ModelBuilder mb;
    const bool pre = c.chain != Chain::PLAIN_IN;
    mb.input("x", {c.n, pre ? kX : c.cin, c.h, c.w});
    if (pre) {
        addConv(mb, "c1", "x", "a", kX, c.cin, 1, 1, 1, 0, 1, 11);
    }
    auto op = addConv(mb, "c2", pre ? "a" : "x", "b", c.cin, c.cout, c.k, windowW(c), c.stride, 0, 1, 21, c.act);
    op->param.AsConvParam()->pads = {c.pads[0], c.pads[1], c.pads[2], c.pads[3]};
    if (c.chain != Chain::PLAIN_OUT) {
        addConv(mb, "c3", "b", "y", c.cout, 8, 1, 1, 1, 0, 1, 31);
        mb.output("y");
    } else {
        mb.output("b");
    }
    return mb.finish();
}

struct PwRun {
    ErrorCode code = NO_ERROR;
    std::string algorithm;  // of c2
    std::string layoutA, layoutB;
    std::vector<float> a, b, y;  // NCHW host copies
};

PwRun runCase(const std::vector<uint8_t>& model, const Tensor* x, const char* layout, int threads, const char* algo,
              BackendConfig::PrecisionMode precision = BackendConfig::Precision_High,
              BackendConfig::MemoryMode memory = BackendConfig::Memory_Normal) {
    PwRun r;
    setenv("MNN_LAYOUT", layout, 1);
    setenv("MNN_CONV_ALGO", algo, 1);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    BackendConfig bc;
    bc.precision = precision;
    bc.memory = memory;
    config.backendConfig = &bc;
    Session* session = net ? net->createSession(config) : nullptr;
    if (!session) {
        unsetenv("MNN_LAYOUT");
        unsetenv("MNN_CONV_ALGO");
        r.code = INVALID_VALUE;
        return r;
    }
    auto in = net->getSessionInput(session, "x");
    if (in->shape() != x->shape()) {
        net->resizeTensor(in, x->shape());
        net->resizeSession(session);
    }
    in->copyFromHostTensor(x);
    auto grab = [](const Tensor* t, std::vector<float>* dst) {
        Tensor host(t, Tensor::CAFFE, true);
        t->copyToHostTensor(&host);
        dst->assign(host.host<float>(), host.host<float>() + host.elementSize());
    };
    TensorCallBackWithInfo before = [](const std::vector<Tensor*>&, const OperatorInfo*) { return true; };
    TensorCallBackWithInfo after = [&](const std::vector<Tensor*>& outs, const OperatorInfo* info) {
        if (info->name() == "c1") {
            grab(outs[0], &r.a);
        } else if (info->name() == "c2") {
            grab(outs[0], &r.b);
        } else if (info->name() == "c3") {
            grab(outs[0], &r.y);
        }
        return true;
    };
    r.code = net->runSessionWithCallBackInfo(session, before, after);
    unsetenv("MNN_LAYOUT");
    unsetenv("MNN_CONV_ALGO");
    for (auto& op : SessionIntrospect::ops(session)) {
        if (op.name == "c2") {
            r.algorithm = op.algorithm;
        }
        for (size_t i = 0; i < op.outputs.size(); ++i) {
            if (op.outputs[i] == "a") {
                r.layoutA = op.outputLayouts[i];
            } else if (op.outputs[i] == "b") {
                r.layoutB = op.outputLayouts[i];
            }
        }
    }
    return r;
}

double maxAbs(const std::vector<float>& v) {
    double m = 0.0;
    for (float e : v) {
        m = std::max(m, (double)fabsf(e));
    }
    return m;
}

// WinogradTest's tolerance per m on b (scaled by the input's magnitude), and a relative bound on y
::testing::AssertionResult close(const PwRun& r, const PwRun& ref, const Case& c, int m) {
    const int alpha = m + std::max(c.k, windowW(c)) - 1;  // the tolerance grows with the transform's size
    const double scale = alpha == 4 ? 1.0 : alpha == 5 ? 2.0 : alpha == 6 ? 4.0 : 16.0;
    const double in = std::max(1.0, maxAbs(c.chain == Chain::PLAIN_IN ? std::vector<float>() : ref.a));
    const int k = c.cin * c.k * windowW(c);
    if (r.b.size() != ref.b.size() || r.y.size() != ref.y.size()) {
        return ::testing::AssertionFailure() << "sizes differ";
    }
    for (size_t i = 0; i < ref.b.size(); ++i) {
        const double tol = scale * (1e-5 * fabs(ref.b[i]) + 1e-6 * (k + 1) * in);
        if (!(fabs((double)r.b[i] - ref.b[i]) <= tol)) {
            return ::testing::AssertionFailure() << "b[" << i << "] " << r.b[i] << " ref " << ref.b[i];
        }
    }
    const double ys = std::max(1.0, maxAbs(ref.y));
    for (size_t i = 0; i < ref.y.size(); ++i) {
        if (!(fabs((double)r.y[i] - ref.y[i]) <= scale * 1e-4 * ys)) {
            return ::testing::AssertionFailure() << "y[" << i << "] " << r.y[i] << " ref " << ref.y[i];
        }
    }
    return ::testing::AssertionSuccess();
}

std::vector<Case> cases() {
    using A = Schema::FusedActivation;
    return {
        {Chain::PACKED_BOTH, 2, 17, 24, 7, 9, {1, 1, 1, 1}, A::RELU},
        {Chain::PACKED_BOTH, 1, 3, 17, 13, 13, {1, 1, 1, 1}, A::NONE},
        {Chain::PACKED_BOTH, 2, 24, 40, 1, 1, {1, 1, 1, 1}, A::CLIP},
        {Chain::PACKED_BOTH, 1, 40, 3, 2, 5, {1, 1, 1, 1}, A::SILU},
        {Chain::PACKED_BOTH, 1, 64, 64, 13, 13, {0, 0, 0, 0}, A::HARD_SWISH},
        {Chain::PACKED_BOTH, 2, 17, 40, 9, 7, {0, 0, 0, 0}, A::NONE},
        {Chain::PACKED_BOTH, 1, 40, 17, 11, 6, {0, 1, 2, 1}, A::RELU},
        {Chain::PLAIN_IN, 2, 3, 24, 7, 9, {1, 1, 1, 1}, A::CLIP},
        {Chain::PLAIN_OUT, 2, 24, 17, 13, 13, {1, 1, 1, 1}, A::HARD_SWISH},
        {Chain::PLAIN_OUT, 1, 64, 40, 2, 5, {1, 0, 1, 0}, A::SILU},
    };
}

/** a case's model, its input x (seeded) and the plain reference run */
struct Prepared {
    std::vector<uint8_t> model;
    std::unique_ptr<Tensor> x;
    PwRun ref;
};

Prepared prepare(const Case& c, unsigned seed) {
    Prepared p;
    p.model = buildModel(c);
    const int xc = c.chain == Chain::PLAIN_IN ? c.cin : kX;
    p.x = makeTensor({c.n, xc, c.h, c.w}, randomFloats((size_t)c.n * xc * c.h * c.w, seed));
    p.ref = runCase(p.model, p.x.get(), "plain", 1, "reference");
    return p;
}

/**
 * a window's case on every tier at 1-2 threads: each forced m at Precision_Normal runs F(m, r) where
 * alpha = m + r - 1 <= 8 (1-D windows: 12; named with the window) and direct otherwise; the choice at
 * Precision_Normal stays within F(alpha 8)'s tolerance; Precision_High takes alpha 4 only (windows
 * of more than 3 taps run direct)
 */
void checkWindowOnEveryTier(const Case& c, unsigned seed, const std::string& name) {
    const int r = std::max(c.k, windowW(c));
    const std::string window = c.kw ? " " + std::to_string(c.k) + "x" + std::to_string(c.kw) + " " : std::string(" ");
    const Prepared p = prepare(c, seed);
    ASSERT_EQ(p.ref.code, NO_ERROR) << name;
    ASSERT_FALSE(p.ref.b.empty()) << name;
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        for (int threads = 1; threads <= 2; ++threads) {
            for (int m : {2, 4, 6}) {
                const std::string algo = "winograd" + std::to_string(m);
                const PwRun run =
                    runCase(p.model, p.x.get(), "packed", threads, algo.c_str(), BackendConfig::Precision_Normal);
                const std::string where =
                    name + " " + algo + " tier " + cpuTierName((CPUTier)tier) + " threads " + std::to_string(threads);
                ASSERT_EQ(run.code, NO_ERROR) << where;
                const bool oneD = c.kw != 0 && c.k != c.kw;
                if (m + r - 1 <= (oneD ? 12 : 8)) {
                    EXPECT_EQ(run.algorithm, "packed-winograd F(" + std::to_string(m) + "," + std::to_string(r) + ")" +
                                                 window + f.pwinoName + " " + f.packedConvName)
                        << where;
                    EXPECT_TRUE(close(run, p.ref, c, m)) << where;
                } else {
                    EXPECT_EQ(run.algorithm.rfind("packed-winograd", 0), std::string::npos)
                        << where << " " << run.algorithm;
                    EXPECT_TRUE(close(run, p.ref, c, 2)) << where;
                }
            }
            const PwRun normal = runCase(p.model, p.x.get(), "packed", threads, "", BackendConfig::Precision_Normal);
            ASSERT_EQ(normal.code, NO_ERROR);
            EXPECT_TRUE(close(normal, p.ref, c, 8 - r + 1)) << name << " normal " << normal.algorithm;
            const PwRun high = runCase(p.model, p.x.get(), "packed", threads, "", BackendConfig::Precision_High);
            ASSERT_EQ(high.code, NO_ERROR);
            if (r > 3) {
                EXPECT_EQ(high.algorithm.rfind("packed-winograd", 0), std::string::npos) << high.algorithm;
            }
            EXPECT_TRUE(close(high, p.ref, c, 2)) << name << " high " << high.algorithm;
        }
    }
    cpuSetTierOverride(-1);
}

}  // namespace

TEST(WinogradPacked, EveryTileSizeMatchesReferenceOnEveryTierAndThreadCount) {
    const auto all = cases();
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < all.size(); ++ci) {
        const Case& c = all[ci];
        const Prepared p = prepare(c, 100 + (unsigned)ci);
        const auto& model = p.model;
        const auto& x = p.x;
        const PwRun& ref = p.ref;
        ASSERT_EQ(ref.code, NO_ERROR) << "case " << ci;
        ASSERT_FALSE(ref.b.empty()) << "case " << ci;
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            for (int threads = 1; threads <= 3; ++threads) {
                for (int m : {2, 3, 4, 5, 6, 0}) {
                    const std::string algo = m ? "winograd" + std::to_string(m) : "";
                    const PwRun r = runCase(model, x.get(), "packed", threads, algo.c_str());
                    const std::string where = "case " + std::to_string(ci) + " " + (m ? algo : "auto") + " tier " +
                                              cpuTierName((CPUTier)tier) + " threads " + std::to_string(threads);
                    ASSERT_EQ(r.code, NO_ERROR) << where;
                    if (c.chain != Chain::PLAIN_IN) {
                        EXPECT_EQ(r.layoutA, "NC16HW16") << where;
                    }
                    EXPECT_EQ(r.layoutB, c.chain == Chain::PLAIN_OUT ? "NCHW" : "NC16HW16") << where;
                    int used = m;
                    if (m) {
                        EXPECT_EQ(r.algorithm, "packed-winograd F(" + std::to_string(m) + ",3) " + f.pwinoName + " " +
                                                   f.packedConvName)
                            << where;
                    } else if (r.algorithm.rfind("packed-winograd", 0) == 0) {
                        // Precision_High: F(2) only
                        EXPECT_EQ(r.algorithm.rfind("packed-winograd F(2,3) ", 0), 0u) << where << " " << r.algorithm;
                        used = 2;
                    }
                    EXPECT_TRUE(close(r, ref, c, used ? used : 2)) << where;
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(WinogradPacked, ChunksAndOutputBlockGroupsMatchReference) {
    // 324 F(2) tiles of 6 KB of V and M each: four chunks of 81 (512 KB each, U is small), batch 2
    // doubles them; F(4): 81 tiles in three chunks. Two or three threads then also split the chunks into
    // groups of output blocks (80 channels: five blocks, an odd count) wherever whole chunks alone
    // would leave a thread idle or the threads unevenly loaded.
    using A = Schema::FusedActivation;
    const Case c{Chain::PACKED_BOTH, 2, 16, 80, 36, 36, {1, 1, 1, 1}, A::RELU};
    const auto model = buildModel(c);
    for (int n : {1, 2}) {
        auto x = makeTensor({n, kX, c.h, c.w}, randomFloats((size_t)n * kX * c.h * c.w, 70 + (unsigned)n));
        const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        const int best = (int)cpuFeatures().best;
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (auto memory : {BackendConfig::Memory_Normal, BackendConfig::Memory_Low}) {
                for (int threads = 1; threads <= 3; ++threads) {
                    for (int m : {2, 4}) {
                        const std::string algo = "winograd" + std::to_string(m);
                        const PwRun r = runCase(model, x.get(), "packed", threads, algo.c_str(),
                                                BackendConfig::Precision_High, memory);
                        const std::string where = "batch " + std::to_string(n) + " " + algo + " tier " +
                                                  cpuTierName((CPUTier)tier) + " threads " + std::to_string(threads) +
                                                  (memory == BackendConfig::Memory_Low ? " low" : " normal");
                        ASSERT_EQ(r.code, NO_ERROR) << where;
                        EXPECT_EQ(r.algorithm.rfind("packed-winograd F(" + std::to_string(m) + ",3) ", 0), 0u)
                            << where << " " << r.algorithm;
                        EXPECT_TRUE(close(r, ref, c, m)) << where;
                    }
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(WinogradPacked, FiveByFiveWindowsMatchReference) {
    // F(2,5) and F(4,5) (alpha 6 and 8; F(6,5) would need alpha 10: the direct kernel runs), forced
    // and chosen (Precision_Normal; Precision_High keeps 5x5 windows direct), on every tier
    using A = Schema::FusedActivation;
    const std::vector<Case> all = {
        {Chain::PACKED_BOTH, 2, 17, 24, 11, 9, {2, 2, 2, 2}, A::RELU, 5},
        {Chain::PACKED_BOTH, 1, 48, 40, 13, 13, {2, 1, 2, 3}, A::NONE, 5},
        {Chain::PLAIN_OUT, 1, 24, 17, 5, 7, {0, 0, 0, 0}, A::SILU, 5},
        {Chain::PLAIN_IN, 1, 3, 16, 9, 9, {2, 2, 2, 2}, A::CLIP, 5},
    };
    for (size_t ci = 0; ci < all.size(); ++ci) {
        checkWindowOnEveryTier(all[ci], 300 + (unsigned)ci, "case " + std::to_string(ci));
    }
    // inception's branch5x5_2 shape: Winograd pays at Precision_Normal on every tier
    const Case big{Chain::PACKED_BOTH, 1, 64, 48, 35, 35, {2, 2, 2, 2}, A::RELU, 5};
    auto x = makeTensor({1, kX, big.h, big.w}, randomFloats((size_t)kX * big.h * big.w, 9));
    const auto model = buildModel(big);
    const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
    for (int tier = 0; tier <= (int)cpuFeatures().best; ++tier) {
        cpuSetTierOverride(tier);
        const PwRun normal = runCase(model, x.get(), "packed", 1, "", BackendConfig::Precision_Normal);
        ASSERT_EQ(normal.code, NO_ERROR);
        EXPECT_EQ(normal.algorithm.rfind("packed-winograd F(", 0), 0u) << "tier " << tier << " " << normal.algorithm;
        EXPECT_TRUE(close(normal, ref, big, 4)) << "tier " << tier << " " << normal.algorithm;
    }
    cpuSetTierOverride(-1);
}

TEST(WinogradPacked, OneDimensionalWindowsMatchReference) {
    // 1 x r and r x 1 windows (r = 3, 5, 7) as 1-D F(m, r), forced for every m = 2, 4, 6 (alpha <= 12:
    // F(4,7), F(6,7) and F(6,5) take the points 3, -3, 1/3, -1/3) and chosen at Precision_Normal, on every tier and 1-2
    // threads: tile remainders along and across the axis, asymmetric and one-sided pads, a pad wider than half the
    // window, planes a single tile wide, batch 2, plain inputs and outputs, each activation
    using A = Schema::FusedActivation;
    const std::vector<Case> all = {
        {Chain::PACKED_BOTH, 2, 17, 24, 9, 11, {0, 3, 0, 3}, A::RELU, 1, 7},
        {Chain::PACKED_BOTH, 1, 40, 17, 13, 6, {3, 0, 3, 0}, A::NONE, 7, 1},
        {Chain::PLAIN_OUT, 1, 24, 40, 5, 8, {0, 1, 0, 1}, A::SILU, 1, 3},
        {Chain::PLAIN_IN, 2, 3, 16, 8, 5, {1, 0, 1, 0}, A::CLIP, 3, 1},
        {Chain::PACKED_BOTH, 1, 16, 16, 6, 13, {0, 2, 0, 1}, A::HARD_SWISH, 1, 5},
        {Chain::PACKED_BOTH, 1, 20, 33, 10, 3, {5, 0, 1, 0}, A::RELU, 7, 1},
        {Chain::PACKED_BOTH, 1, 8, 16, 4, 7, {0, 0, 0, 0}, A::NONE, 1, 7},
    };
    for (size_t ci = 0; ci < all.size(); ++ci) {
        checkWindowOnEveryTier(all[ci], 700 + (unsigned)ci, "case " + std::to_string(ci));
    }
    // inception_v3's Mixed_6 shape (17x17, 1x7 and 7x1): the 1-D F(6,7) pays at Precision_Normal (three
    // tiles of 6 per row: 36 products for 17 outputs against F(2,7)'s 72 and the direct 119)
    for (int vertical = 0; vertical < 2; ++vertical) {
        const Case big{Chain::PACKED_BOTH,
                       1,
                       64,
                       64,
                       17,
                       17,
                       {3 * vertical, 3 * (1 - vertical), 3 * vertical, 3 * (1 - vertical)},
                       A::RELU,
                       vertical ? 7 : 1,
                       vertical ? 1 : 7};
        const Prepared p = prepare(big, 790 + (unsigned)vertical);
        for (int tier = 0; tier <= (int)cpuFeatures().best; ++tier) {
            cpuSetTierOverride(tier);
            const PwRun normal = runCase(p.model, p.x.get(), "packed", 1, "", BackendConfig::Precision_Normal);
            ASSERT_EQ(normal.code, NO_ERROR);
            EXPECT_EQ(normal.algorithm.rfind(std::string("packed-winograd F(6,7) ") + (vertical ? "7x1" : "1x7"), 0),
                      0u)
                << "tier " << tier << " " << normal.algorithm;
            EXPECT_TRUE(close(normal, p.ref, big, 2)) << "tier " << tier << " " << normal.algorithm;
        }
        cpuSetTierOverride(-1);
    }
}

TEST(WinogradPacked, CostModelChoicePerPrecision) {
    // a resnet-like 3x3 layer between packed tensors: Winograd pays; Precision_High takes F(2) only
    const Case big{Chain::PACKED_BOTH, 1, 64, 64, 28, 28, {1, 1, 1, 1}, Schema::FusedActivation::RELU};
    const auto model = buildModel(big);
    auto x = makeTensor({1, kX, 28, 28}, randomFloats((size_t)kX * 28 * 28, 3));
    const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    // on every tier this CPU has (each tier has its own cost constants)
    for (int tier = 0; tier <= (int)cpuFeatures().best; ++tier) {
        cpuSetTierOverride(tier);
        const std::string where = cpuTierName((CPUTier)tier);
        const PwRun high = runCase(model, x.get(), "packed", 1, "", BackendConfig::Precision_High);
        ASSERT_EQ(high.code, NO_ERROR);
        EXPECT_EQ(high.algorithm.rfind("packed-winograd F(2,3) ", 0), 0u) << where << " " << high.algorithm;
        EXPECT_TRUE(close(high, ref, big, 2)) << where;
        const PwRun normal = runCase(model, x.get(), "packed", 1, "", BackendConfig::Precision_Normal);
        ASSERT_EQ(normal.code, NO_ERROR);
        EXPECT_EQ(normal.algorithm.rfind("packed-winograd F(", 0), 0u) << where << " " << normal.algorithm;
        EXPECT_NE(normal.algorithm.rfind("packed-winograd F(2,3) ", 0), 0u) << where << " " << normal.algorithm;
        EXPECT_TRUE(close(normal, ref, big, 6)) << where;
    }
    cpuSetTierOverride(-1);
    // MNN_CONV_ALGO=gemm / reference keep the Winograd out
    const PwRun gemm = runCase(model, x.get(), "packed", 1, "gemm", BackendConfig::Precision_Normal);
    ASSERT_EQ(gemm.code, NO_ERROR);
    EXPECT_EQ(gemm.algorithm.find("winograd"), std::string::npos) << gemm.algorithm;
    // a tiny layer: a single tile would be mostly padding, the direct convolution is cheaper
    const Case tiny{Chain::PACKED_BOTH, 1, 8, 8, 3, 3, {0, 0, 0, 0}, Schema::FusedActivation::NONE};
    const auto tinyModel = buildModel(tiny);
    auto tx = makeTensor({1, kX, 3, 3}, randomFloats((size_t)kX * 9, 4));
    for (int tier = 0; tier <= (int)cpuFeatures().best; ++tier) {
        cpuSetTierOverride(tier);
        const PwRun t = runCase(tinyModel, tx.get(), "packed", 1, "", BackendConfig::Precision_Normal);
        ASSERT_EQ(t.code, NO_ERROR);
        EXPECT_EQ(t.algorithm.find("packed-winograd"), std::string::npos) << "tier " << tier << " " << t.algorithm;
    }
    cpuSetTierOverride(-1);
}

TEST(WinogradPacked, ResizeReplansWithTheSameWeights) {
    const Case c{Chain::PACKED_BOTH, 1, 17, 24, 9, 9, {1, 1, 1, 1}, Schema::FusedActivation::RELU};
    const auto model = buildModel(c);
    setenv("MNN_LAYOUT", "packed", 1);
    setenv("MNN_CONV_ALGO", "winograd4", 1);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = 2;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_High;
    config.backendConfig = &bc;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    for (int h : {9, 14, 3}) {
        Case ch = c;
        ch.h = h;
        ch.w = h + 2;
        auto x = makeTensor({1, kX, h, h + 2}, randomFloats((size_t)kX * h * (h + 2), 60 + h));
        auto in = net->getSessionInput(session, "x");
        net->resizeTensor(in, {1, kX, h, h + 2});
        setenv("MNN_CONV_ALGO", "winograd4", 1);
        net->resizeSession(session);
        in->copyFromHostTensor(x.get());
        ASSERT_EQ(net->runSession(session), NO_ERROR);
        auto y = net->getSessionOutput(session, "y");
        Tensor yh(y, Tensor::CAFFE, true);
        y->copyToHostTensor(&yh);
        EXPECT_EQ(std::string(SessionIntrospect::algorithmOf(session, "c2")).rfind("packed-winograd F(4,3) ", 0), 0u);
        const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        ASSERT_EQ((size_t)yh.elementSize(), ref.y.size());
        const double ys = std::max(1.0, maxAbs(ref.y));
        for (size_t i = 0; i < ref.y.size(); ++i) {
            ASSERT_NEAR(yh.host<float>()[i], ref.y[i], 4e-4 * ys) << "h " << h << " [" << i << "]";
        }
        setenv("MNN_LAYOUT", "packed", 1);
    }
    unsetenv("MNN_LAYOUT");
    unsetenv("MNN_CONV_ALGO");
}

TEST(WinogradPacked, MemoryLowKeepsTransformedWeightsSmall) {
    // a 3x3 on a 7x7 plane whose F(4) weights stay under the Memory_Normal cap: Memory_High (speed
    // first, multiply-adds and transforms only) takes the large tile (F(4): 36 / 9 = 4x the weights);
    // Memory_Normal counts the streamed weights too and takes F(2) (16 / 9). Memory_Low counts the
    // weights and whole register-tile passes (tiles rounded up to the tier's pcPMax), so its tile is
    // tier-dependent: F(2)'s 16 tiles against F(3)'s 9 (25 / 9 of the weights) round differently for
    // P = 3, 4, 6, 14 (sse41 and avx512 take F(3), scalar and avx2 F(2)). What holds on every tier:
    // Memory_Low and Memory_Normal keep U smaller than Memory_High's F(4). Checked on every tier this
    // CPU has (the override), so the result does not depend on the host or on MNN_CPU_ISA.
    ModelBuilder mb;
    mb.input("x", {1, 8, 7, 7});
    addConv(mb, "a", "x", "t1", 8, 128, 1, 1, 1, 0, 1, 5);
    addConv(mb, "c", "t1", "t2", 128, 128, 3, 3, 1, 1, 1, 6);
    addConv(mb, "b", "t2", "y", 128, 8, 1, 1, 1, 0, 1, 7);
    mb.output("y");
    auto model = mb.finish();
    auto x = makeTensor({1, 8, 7, 7}, randomFloats(8 * 49, 9));
    auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    // the output tile m of "packed-winograd F(m,3) ...", 0 when the name is not that
    auto unitOf = [](const std::string& algo) {
        const std::string prefix = "packed-winograd F(";
        if (algo.rfind(prefix, 0) != 0 || algo.size() < prefix.size() + 4 ||
            algo.compare(prefix.size() + 1, 3, ",3)") != 0) {
            return 0;
        }
        return algo[prefix.size()] - '0';
    };
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        const std::string where = cpuTierName((CPUTier)tier);
        auto high = runWithLayout(model, {{"x", x.get()}}, "packed", 1, nullptr, BackendConfig::Precision_Normal,
                                  BackendConfig::Memory_High);
        auto normal = runWithLayout(model, {{"x", x.get()}}, "packed", 1, nullptr, BackendConfig::Precision_Normal);
        auto low = runWithLayout(model, {{"x", x.get()}}, "packed", 1, nullptr, BackendConfig::Precision_Normal,
                                 BackendConfig::Memory_Low);
        ASSERT_EQ(high.code, NO_ERROR) << where;
        ASSERT_EQ(normal.code, NO_ERROR) << where;
        ASSERT_EQ(low.code, NO_ERROR) << where;
        EXPECT_EQ(unitOf(high.algorithms["c"]), 4) << where << " " << high.algorithms["c"];
        EXPECT_EQ(unitOf(normal.algorithms["c"]), 2) << where << " " << normal.algorithms["c"];
        const int lowUnit = unitOf(low.algorithms["c"]);
        EXPECT_TRUE(lowUnit == 2 || lowUnit == 3) << where << " " << low.algorithms["c"];
        EXPECT_LT(maxRelativeDiff(high, ref), 1e-4) << where;
        EXPECT_LT(maxRelativeDiff(normal, ref), 1e-4) << where;
        EXPECT_LT(maxRelativeDiff(low, ref), 1e-4) << where;
    }
    cpuSetTierOverride(-1);
}

TEST(WinogradPacked, StreamedWeightsAsHalfBelowPrecisionHigh) {
    // 384 -> 384 channels on a 7x7 plane: F(2)'s U is 16 x 384 x 384 floats = 9.4 MB, at least
    // kStreamedWeightBytes: below Precision_High, tiers whose tile kernel takes half weights on every
    // tile (pcHalfTileP >= pcPMax) keep U as IEEE half ("packed-winograd-f16"); each U value is then
    // rounded by at most 2^-11 of itself. Precision_High and the other tiers keep float U.
    const Case c{Chain::PACKED_BOTH, 1, 384, 384, 7, 7, {1, 1, 1, 1}, Schema::FusedActivation::RELU};
    const auto model = buildModel(c);
    auto x = makeTensor({1, kX, 7, 7}, randomFloats((size_t)kX * 49, 17));
    const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    const double bs = std::max(1.0, maxAbs(ref.b));
    const int best = (int)cpuFeatures().best;
    int halfRuns = 0;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        const bool halfTier = f.pcHalfTileP >= f.pcPMax;
        for (auto precision : {BackendConfig::Precision_Normal, BackendConfig::Precision_High}) {
            const bool half = halfTier && precision != BackendConfig::Precision_High;
            for (int threads : {1, 2}) {
                const PwRun r = runCase(model, x.get(), "packed", threads, "winograd2", precision);
                const std::string where = std::string(cpuTierName(f.tier)) + " precision " +
                                          std::to_string((int)precision) + " threads " + std::to_string(threads);
                ASSERT_EQ(r.code, NO_ERROR) << where;
                EXPECT_EQ(r.algorithm.rfind(half ? "packed-winograd-f16 F(2,3) " : "packed-winograd F(2,3) ", 0), 0u)
                    << where << " " << r.algorithm;
                halfRuns += half ? 1 : 0;
                if (!half) {
                    EXPECT_TRUE(close(r, ref, c, 2)) << where;
                    continue;
                }
                ASSERT_EQ(r.b.size(), ref.b.size());
                for (size_t i = 0; i < ref.b.size(); ++i) {
                    if (!(fabs((double)r.b[i] - ref.b[i]) <= 3e-3 * bs)) {
                        ADD_FAILURE() << where << " b[" << i << "] " << r.b[i] << " ref " << ref.b[i];
                        break;
                    }
                }
            }
        }
    }
    cpuSetTierOverride(-1);
    if (cpuFeatures().best >= CPUTier::AVX2) {
        EXPECT_GT(halfRuns, 0);  // the AVX2 and AVX-512 tiles take half weights on every tile
    }
}

/** max |b - ref| / scale (NaN counts as infinite) */
static double maxError(const std::vector<float>& b, const std::vector<float>& ref, double scale) {
    double err = 0;
    for (size_t i = 0; i < ref.size() && i < b.size(); ++i) {
        const double d = fabs((double)b[i] - ref[i]) / scale;
        err = d == d ? std::max(err, d) : INFINITY;
    }
    return err;
}

TEST(WinogradPacked, F4KeepsHalfUOnlyOnPlanesOfFourTiles) {
    // F(4,3)'s U of 384 -> 384 channels is 36 x 384 x 384 floats = 21 MB: below Precision_High, on
    // tiers whose tile takes half weights and that keep a half F(4) U (pwHalfF4: AVX2), it is kept
    // as IEEE half on a 7x7 plane (2 x 2 tiles, at most kHalfF4MaxTiles) and as float on a 14x14
    // plane (16 tiles: F(4)'s larger transform coefficients amplify the rounding there over many
    // layers). Forced F(4) against the reference.
    const int best = (int)cpuFeatures().best;
    int halfRuns = 0;
    for (int side : {7, 14}) {
        // the choice is made for the plane the layer is created for (the model's input shape)
        const Case c{Chain::PACKED_BOTH, 1, 384, 384, side, side, {1, 1, 1, 1}, Schema::FusedActivation::RELU};
        const auto model = buildModel(c);
        auto x = makeTensor({1, kX, side, side}, randomFloats((size_t)kX * side * side, 23 + (unsigned)side));
        const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        const double bs = std::max(1.0, maxAbs(ref.b));
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            for (auto precision : {BackendConfig::Precision_Normal, BackendConfig::Precision_High}) {
                const bool half =
                    f.pwHalfF4 && f.pcHalfTileP >= f.pcPMax && precision != BackendConfig::Precision_High && side == 7;
                const PwRun r = runCase(model, x.get(), "packed", 1, "winograd4", precision);
                const std::string where = std::string(cpuTierName(f.tier)) + " " + std::to_string(side) + "x" +
                                          std::to_string(side) + " precision " + std::to_string((int)precision);
                ASSERT_EQ(r.code, NO_ERROR) << where;
                EXPECT_EQ(r.algorithm.rfind(half ? "packed-winograd-f16 F(4,3) " : "packed-winograd F(4,3) ", 0), 0u)
                    << where << " " << r.algorithm;
                halfRuns += half ? 1 : 0;
                ASSERT_EQ(r.b.size(), ref.b.size());
                const double err = maxError(r.b, ref.b, bs);
                printf("%s: %s, max error %.2e of max |b|\n", where.c_str(), r.algorithm.c_str(), err);
                // half U: each U value within 2^-11 of itself, amplified by F(4)'s transforms (4.2e-3
                // on these random weights and inputs on Zen 3; resnet18 / resnet50 end within 6e-4 of
                // PyTorch); float U: F(4)'s own rounding (~1e-5)
                EXPECT_LT(err, half ? 8e-3 : 1e-4) << where;
            }
        }
    }
    cpuSetTierOverride(-1);
    if (cpuFeatures().best >= CPUTier::AVX2) {
        EXPECT_GT(halfRuns, 0);
    }
}

TEST(WinogradPacked, HalfF4AdmittedUnderTheMemoryNormalCap) {
    // 512 -> 512 channels on a 7x7 plane (resnet18's / resnet50's layer4): F(4)'s float U (37.7 MB)
    // is over kWinogradWeightCapBytes, its half U (18.9 MB) within kWinogradHalfCapBytes, so at
    // Memory_Normal / Precision_Normal the cost model weighs it against F(2)'s half U; on the AVX2
    // tier (constants fitted on Zen 3) it wins (2.0 -> 1.3 ms per layer there). Precision_High keeps
    // alpha 4.
    if (cpuFeatures().best < CPUTier::AVX2) {
        GTEST_SKIP() << "the AVX2 tier's cost constants";
    }
    const Case c{Chain::PACKED_BOTH, 1, 512, 512, 7, 7, {1, 1, 1, 1}, Schema::FusedActivation::RELU};
    const auto model = buildModel(c);
    auto x = makeTensor({1, kX, 7, 7}, randomFloats((size_t)kX * 49, 29));
    const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    const double bs = std::max(1.0, maxAbs(ref.b));
    cpuSetTierOverride((int)CPUTier::AVX2);
    const PwRun normal = runCase(model, x.get(), "packed", 1, "", BackendConfig::Precision_Normal);
    const PwRun high = runCase(model, x.get(), "packed", 1, "", BackendConfig::Precision_High);
    cpuSetTierOverride(-1);
    ASSERT_EQ(normal.code, NO_ERROR);
    ASSERT_EQ(high.code, NO_ERROR);
    EXPECT_EQ(normal.algorithm.rfind("packed-winograd-f16 F(4,3) ", 0), 0u) << normal.algorithm;
    EXPECT_EQ(high.algorithm.find("F(4,3)"), std::string::npos) << high.algorithm;
    ASSERT_EQ(normal.b.size(), ref.b.size());
    EXPECT_LT(maxError(normal.b, ref.b, bs), 8e-3);
}

TEST(WinogradPacked, WideTilesForSixteenTileLayers) {
    // F(2)'s streamed half U on a 7x7 plane (16 tiles per image) on a tier with a wide tile
    // (pcWideP 16, Q = 1): U grouped per output block, each image's 16 tiles in one pass ("wide");
    // at 2-3 threads one chunk of 16 tiles in groups of output blocks (each thread streams its share
    // of U). Batch 2 (a chunk per image) and a resize to 9x9 (25 tiles: the usual tiles over the same
    // U, one block at a time), against the reference kernels
    const Case c{Chain::PACKED_BOTH, 1, 384, 384, 7, 7, {1, 1, 1, 1}, Schema::FusedActivation::RELU};
    const auto model = buildModel(c);
    const int best = (int)cpuFeatures().best;
    int wideRuns = 0;
    for (const std::vector<int>& dims : std::vector<std::vector<int>>{{1, kX, 7, 7}, {2, kX, 7, 7}, {1, kX, 9, 9}}) {
        const size_t count = (size_t)dims[0] * dims[1] * dims[2] * dims[3];
        auto x = makeTensor(dims, randomFloats(count, 19 + (unsigned)dims[0] + (unsigned)dims[2]));
        const PwRun ref = runCase(model, x.get(), "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        const double bs = std::max(1.0, maxAbs(ref.b));
        for (int tier = 0; tier <= best; ++tier) {
            const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            if (f.pcWideP == 0) {
                continue;
            }
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                const PwRun r =
                    runCase(model, x.get(), "packed", threads, "winograd2", BackendConfig::Precision_Normal);
                const std::string where = std::string(cpuTierName(f.tier)) + " " + std::to_string(dims[0]) + "x" +
                                          std::to_string(dims[2]) + " threads " + std::to_string(threads);
                ASSERT_EQ(r.code, NO_ERROR) << where;
                const char* want = "packed-winograd-f16 F(2,3) wide ";
                EXPECT_EQ(r.algorithm.rfind(want, 0), 0u) << where << " " << r.algorithm;
                ASSERT_EQ(r.b.size(), ref.b.size()) << where;
                for (size_t i = 0; i < ref.b.size(); ++i) {
                    if (!(fabs((double)r.b[i] - ref.b[i]) <= 3e-3 * bs)) {
                        ADD_FAILURE() << where << " b[" << i << "] " << r.b[i] << " ref " << ref.b[i];
                        break;
                    }
                }
                ++wideRuns;
            }
        }
    }
    cpuSetTierOverride(-1);
    if (cpuFeatures().best >= CPUTier::AVX512) {
        EXPECT_EQ(wideRuns, 9);
    }
}

TEST(WinogradPacked, StrideTwoWindowsMatchReference) {
    // 3x3 windows at stride 2 as one transform of alpha 2m + 1 (makeStride2WinogradMatrices), forced
    // for m = 2, 3 (m = 4, 6 are not offered: the direct kernel runs), on every tier and 1-2 threads:
    // odd and even planes, valid and padded windows (asymmetric, one-sided), channel counts off the
    // 16-lane block, planes of one tile, batch 2, plain inputs and outputs, each activation
    using A = Schema::FusedActivation;
    const std::vector<Case> all = {
        {Chain::PACKED_BOTH, 2, 17, 24, 13, 11, {1, 1, 1, 1}, A::RELU, 3, 0, 2},
        {Chain::PACKED_BOTH, 1, 40, 17, 17, 17, {0, 0, 0, 0}, A::NONE, 3, 0, 2},
        {Chain::PACKED_BOTH, 1, 16, 33, 14, 9, {0, 1, 1, 0}, A::HARD_SWISH, 3, 0, 2},
        {Chain::PLAIN_IN, 2, 3, 16, 10, 12, {1, 1, 1, 1}, A::CLIP, 3, 0, 2},
        {Chain::PLAIN_OUT, 1, 24, 40, 7, 8, {1, 0, 0, 1}, A::SILU, 3, 0, 2},
        {Chain::PACKED_BOTH, 1, 8, 16, 3, 3, {0, 0, 0, 0}, A::NONE, 3, 0, 2},
        {Chain::PACKED_BOTH, 1, 20, 20, 4, 21, {1, 1, 0, 0}, A::RELU, 3, 0, 2},
    };
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < all.size(); ++ci) {
        const Case& c = all[ci];
        const Prepared p = prepare(c, 900 + (unsigned)ci);
        ASSERT_EQ(p.ref.code, NO_ERROR) << "case " << ci;
        ASSERT_FALSE(p.ref.b.empty()) << "case " << ci;
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            for (int threads = 1; threads <= 2; ++threads) {
                for (int m : {2, 3, 4, 6}) {
                    const std::string algo = "winograd" + std::to_string(m);
                    const std::string where = "case " + std::to_string(ci) + " " + algo + " tier " +
                                              cpuTierName((CPUTier)tier) + " threads " + std::to_string(threads);
                    // Precision_High: the direct kernel's few-position tiles keep float weights
                    const PwRun run = runCase(p.model, p.x.get(), "packed", threads, algo.c_str());
                    ASSERT_EQ(run.code, NO_ERROR) << where;
                    if (m <= 3) {
                        EXPECT_EQ(run.algorithm, "packed-winograd F(" + std::to_string(m) + ",3) s2 " +
                                                     std::string(f.pwinoName) + " " + f.packedConvName)
                            << where;
                    } else {
                        EXPECT_EQ(run.algorithm.find("winograd"), std::string::npos) << where << " " << run.algorithm;
                    }
                    // the tolerance of alpha m + 2 (the F(m, 2) part's coefficients, like F(m, 3)'s)
                    EXPECT_TRUE(close(run, p.ref, c, m <= 3 ? m : 2)) << where;
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(WinogradPacked, StrideTwoChoiceByPlaneAndPrecision) {
    using A = Schema::FusedActivation;
    // inception_v3's Mixed_6a branch3x3dbl_3 (96 -> 96, 35x35 -> 17x17, valid): 81 tiles of 2x2, 36 of 3x3, Winograd
    // pays at both precisions (F(2, 2) / F(3, 2) round like F(2, 3))
    const Case big{Chain::PACKED_BOTH, 1, 96, 96, 35, 35, {0, 0, 0, 0}, A::RELU, 3, 0, 2};
    const Prepared p = prepare(big, 950);
    // a 14x14 -> 7x7 layer (resnet's layer4.0): 16 tiles, under kStride2MinTiles: direct
    const Case small{Chain::PACKED_BOTH, 1, 96, 96, 14, 14, {1, 1, 1, 1}, A::RELU, 3, 0, 2};
    const Prepared q = prepare(small, 951);
    // on every tier this CPU has
    for (int tier = 0; tier <= (int)cpuFeatures().best; ++tier) {
        cpuSetTierOverride(tier);
        const std::string where = cpuTierName((CPUTier)tier);
        for (auto precision : {BackendConfig::Precision_Normal, BackendConfig::Precision_High}) {
            const PwRun run = runCase(p.model, p.x.get(), "packed", 1, "", precision);
            ASSERT_EQ(run.code, NO_ERROR);
            EXPECT_EQ(run.algorithm.rfind("packed-winograd F(", 0), 0u) << where << " " << run.algorithm;
            EXPECT_NE(run.algorithm.find(",3) s2 "), std::string::npos) << where << " " << run.algorithm;
            EXPECT_TRUE(close(run, p.ref, big, 3)) << where << " " << run.algorithm;
        }
        const PwRun direct = runCase(q.model, q.x.get(), "packed", 1, "", BackendConfig::Precision_Normal);
        ASSERT_EQ(direct.code, NO_ERROR);
        EXPECT_EQ(direct.algorithm.find("winograd"), std::string::npos) << where << " " << direct.algorithm;
        EXPECT_TRUE(close(direct, q.ref, small, 2)) << where << " " << direct.algorithm;
    }
    cpuSetTierOverride(-1);
}

TEST(WinogradPacked, SpaceToDepthStemsMatchReference) {
    // 7x7 / 8x8 windows at stride 2 over 1-4 channels as F(4x4, 4x4) on the 2x2 space-to-depth input
    // (createSpaceToDepthWinograd): forced (winograd4) and chosen at Precision_Normal, on every tier
    // and 1-2 threads, from plain and packed inputs, odd and even planes, symmetric, asymmetric and
    // no pads, batch 2, each activation; Precision_High and forced F(2) / F(6) keep the direct kernel
    using A = Schema::FusedActivation;
    const std::vector<Case> all = {
        {Chain::PLAIN_IN, 1, 3, 64, 64, 64, {3, 3, 3, 3}, A::RELU, 7, 0, 2},  // resnet's stem, 32x32 out
        {Chain::PLAIN_IN, 2, 3, 17, 61, 59, {3, 2, 1, 3}, A::CLIP, 7, 0, 2},
        {Chain::PLAIN_IN, 1, 1, 24, 50, 47, {0, 0, 0, 0}, A::NONE, 7, 0, 2},
        {Chain::PACKED_BOTH, 1, 4, 16, 45, 52, {3, 3, 3, 3}, A::HARD_SWISH, 7, 0, 2},
        {Chain::PACKED_BOTH, 2, 2, 33, 48, 48, {4, 3, 3, 4}, A::SILU, 8, 0, 2},
        {Chain::PLAIN_OUT, 1, 3, 40, 57, 66, {2, 3, 3, 2}, A::RELU, 7, 0, 2},
    };
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < all.size(); ++ci) {
        const Case& c = all[ci];
        const Prepared p = prepare(c, 1200 + (unsigned)ci);
        ASSERT_EQ(p.ref.code, NO_ERROR) << "case " << ci;
        ASSERT_FALSE(p.ref.b.empty()) << "case " << ci;
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            const std::string s2d = "packed-winograd F(4,4) s2d " + std::string(f.pwinoName) + " " + f.packedConvName;
            for (int threads = 1; threads <= 2; ++threads) {
                const std::string where = "case " + std::to_string(ci) + " tier " + cpuTierName((CPUTier)tier) +
                                          " threads " + std::to_string(threads);
                for (int m : {2, 4, 6}) {
                    const std::string algo = "winograd" + std::to_string(m);
                    const PwRun run =
                        runCase(p.model, p.x.get(), "packed", threads, algo.c_str(), BackendConfig::Precision_Normal);
                    ASSERT_EQ(run.code, NO_ERROR) << where << " " << algo;
                    if (m == 4) {
                        EXPECT_EQ(run.algorithm, s2d) << where;
                    } else {
                        EXPECT_EQ(run.algorithm.find("winograd"), std::string::npos) << where << " " << run.algorithm;
                    }
                    EXPECT_TRUE(close(run, p.ref, c, m == 4 ? 4 : 2)) << where << " " << algo;
                }
                const PwRun normal =
                    runCase(p.model, p.x.get(), "packed", threads, "", BackendConfig::Precision_Normal);
                ASSERT_EQ(normal.code, NO_ERROR) << where;
                EXPECT_EQ(normal.algorithm, s2d) << where;
                EXPECT_TRUE(close(normal, p.ref, c, 4)) << where << " normal";
                const PwRun high = runCase(p.model, p.x.get(), "packed", threads, "", BackendConfig::Precision_High);
                ASSERT_EQ(high.code, NO_ERROR) << where;
                EXPECT_EQ(high.algorithm.find("winograd"), std::string::npos) << where << " " << high.algorithm;
                EXPECT_TRUE(close(high, p.ref, c, 2)) << where << " high";
            }
        }
        cpuSetTierOverride(-1);
    }
    // a 7x7 stride-2 window over 5 channels (20 > 16 lanes) or with 31 tiles stays direct
    for (const Case& c : {Case{Chain::PLAIN_IN, 1, 5, 16, 40, 40, {3, 3, 3, 3}, A::NONE, 7, 0, 2},
                          Case{Chain::PLAIN_IN, 1, 3, 16, 44, 30, {3, 3, 3, 3}, A::NONE, 7, 0, 2}}) {
        const Prepared p = prepare(c, 1250);
        const PwRun run = runCase(p.model, p.x.get(), "packed", 1, "", BackendConfig::Precision_Normal);
        ASSERT_EQ(run.code, NO_ERROR);
        EXPECT_EQ(run.algorithm.find("winograd"), std::string::npos) << run.algorithm;
        EXPECT_TRUE(close(run, p.ref, c, 2)) << run.algorithm;
    }
}
