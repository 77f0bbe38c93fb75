// Winograd convolution: the generated transform matrices against direct 1-D correlation, and
// F(2x2), F(4x4), F(6x6) (forced with MNN_CONV_ALGO=winogradN) against the reference kernel on every
// ISA tier and 1-3 threads, over edge shapes: outputs not a multiple of the tile, asymmetric and zero
// padding, batch 2, channel counts off the register tile and above the GEMM's K block, a single
// output pixel, fused activations. Also which algorithm the cost model may pick per precision.
#include <math.h>
#include <stdlib.h>
#include <random>
#include <string>
#include "NNTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/WinogradConstTables.hpp"
#include "backend/cpu/WinogradMatrices.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct Case {
    std::vector<int> x;  // N, C, H, W
    int outC;
    std::vector<int> pads;  // top, left, bottom, right
    bool bias;
    Schema::FusedActivation act;
};

std::vector<float> randomVec(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& e : v) {
        e = d(gen);
    }
    return v;
}

struct Result {
    std::vector<float> y;
    std::string algorithm;
};

Result run(const Case& c, int threads, const char* algo, BackendConfig::PrecisionMode precision, unsigned seed) {
    if (algo[0]) {
        setenv("MNN_CONV_ALGO", algo, 1);
    } else {
        unsetenv("MNN_CONV_ALGO");
    }
    const int cin = c.x[1];
    ModelBuilder mb;
    mb.input("x", c.x);
    mb.constant("w", {c.outC, cin, 3, 3}, randomVec((size_t)c.outC * cin * 9, seed + 1));
    if (c.bias) {
        mb.constant("b", {c.outC}, randomVec((size_t)c.outC, seed + 2));
    }
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", c.bias ? "b" : ""}, {"y"});
    Schema::ConvParamT p;
    p.kernel = {3, 3};
    p.strides = {1, 1};
    p.dilations = {1, 1};
    p.pads = c.pads;
    p.group = 1;
    p.activation = c.act;
    p.clipMin = -0.5f;
    p.clipMax = 0.75f;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    Result out;
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    BackendConfig bc;
    bc.precision = precision;
    config.backendConfig = &bc;
    auto session = net->createSession(config);
    unsetenv("MNN_CONV_ALGO");
    if (!session) {
        return out;
    }
    size_t n = 1;
    for (auto d : c.x) {
        n *= (size_t)d;
    }
    auto xt = makeTensor(c.x, randomVec(n, seed));
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    if (net->runSession(session) != NO_ERROR) {
        return out;
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    out.y.assign(host.host<float>(), host.host<float>() + host.elementSize());
    const char* a = SessionIntrospect::algorithmOf(session, "conv");
    out.algorithm = a ? a : "";
    return out;
}

std::vector<Case> cases() {
    using A = Schema::FusedActivation;
    return {
        {{1, 5, 11, 10}, 19, {1, 1, 1, 1}, true, A::NONE},     // outputs not a multiple of any tile
        {{2, 3, 16, 16}, 8, {1, 1, 1, 1}, true, A::RELU},      // batch 2, whole tiles for F(2), F(4)
        {{1, 4, 9, 13}, 7, {0, 2, 1, 0}, false, A::CLIP},      // asymmetric padding, no bias
        {{1, 6, 7, 8}, 9, {0, 0, 0, 0}, true, A::SILU},        // no padding
        {{1, 3, 3, 3}, 5, {0, 0, 0, 0}, true, A::HARD_SWISH},  // a single output pixel
        {{1, 300, 6, 7}, 17, {1, 1, 1, 1}, true, A::RELU},     // K above the GEMM's 256 block
        {{1, 16, 30, 29}, 33, {1, 1, 1, 1}, true, A::NONE},    // several tile panels, M off the tile
    };
}

// 1-D correlation of d (alpha) with g (r) through the generated matrices vs directly, in double
void checkMatrices(int m, int r) {
    WinogradMatrices w;
    ASSERT_TRUE(makeWinogradMatrices(m, r, &w)) << "F(" << m << "," << r << ")";
    const int alpha = m + r - 1;
    ASSERT_EQ(w.alpha, alpha);
    std::mt19937 gen(m * 31 + r);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int rep = 0; rep < 20; ++rep) {
        std::vector<double> d(alpha), g(r), gd(alpha), bd(alpha);
        for (auto& e : d)
            e = u(gen);
        for (auto& e : g)
            e = u(gen);
        for (int j = 0; j < alpha; ++j) {
            gd[j] = 0.0;
            bd[j] = 0.0;
            for (int k = 0; k < r; ++k)
                gd[j] += w.g[j * r + k] * g[k];
            for (int i = 0; i < alpha; ++i)
                bd[j] += w.bt[j * alpha + i] * d[i];
        }
        for (int i = 0; i < m; ++i) {
            double y = 0.0, ref = 0.0;
            for (int j = 0; j < alpha; ++j)
                y += w.at[i * alpha + j] * gd[j] * bd[j];
            for (int k = 0; k < r; ++k)
                ref += g[k] * d[i + k];
            ASSERT_NEAR(y, ref, 1e-9) << "F(" << m << "," << r << ") output " << i;
        }
    }
}

}  // namespace

TEST(Winograd, GeneratedMatricesComputeCorrelation) {
    for (int m : {2, 3, 4, 5, 6}) {
        checkMatrices(m, 3);
    }
    checkMatrices(2, 5);
    checkMatrices(4, 5);
    checkMatrices(3, 2);
    // F(2,3) from the points 0, 1, -1: the classic B^T up to the sign of the rows
    WinogradMatrices w;
    ASSERT_TRUE(makeWinogradMatrices(2, 3, &w));
    const double bt[16] = {-1, 0, 1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, -1, 0, 1};
    for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(w.bt[i], bt[i]) << i;
    }
    EXPECT_FALSE(makeWinogradMatrices(0, 3, &w));
    EXPECT_FALSE(makeWinogradMatrices(11, 3, &w));
}

// the packed transform kernels' compile-time B^T / A^T are the generator's
TEST(Winograd, CompileTimeTablesEqualTheGeneratedMatrices) {
    // F(2,3), F(4,3), F(6,3), F(2,5), F(4,5), F(4,4) (the space-to-depth stem), F(3,3), F(5,3); 1-D
    // only: F(2,7), F(4,7), F(6,7), F(6,5)
    const wino::Tables* tables[] = {
        &wino::ConstTables<4>::value,     &wino::ConstTables<6>::value,     &wino::ConstTables<8>::value,
        &wino::ConstTables<6, 2>::value,  &wino::ConstTables<8, 4>::value,  &wino::ConstTables<8, 2>::value,
        &wino::ConstTables<10, 4>::value, &wino::ConstTables<12, 6>::value, &wino::ConstTables<10, 6>::value,
        &wino::ConstTables<7, 4>::value,  &wino::ConstTables<5>::value,     &wino::ConstTables<7, 5>::value};
    const int alphas[] = {4, 6, 8, 6, 8, 8, 10, 12, 10, 7, 5, 7}, ms[] = {2, 4, 6, 2, 4, 2, 4, 6, 6, 4, 3, 5};
    for (int k = 0; k < 12; ++k) {
        const int alpha = alphas[k], m = ms[k], r = alpha + 1 - m;
        WinogradMatrices w;
        ASSERT_TRUE(makeWinogradMatrices(m, r, &w));
        for (int i = 0; i < alpha * alpha; ++i) {
            EXPECT_EQ((float)w.bt[i], tables[k]->bt[i]) << "B^T of F(" << m << "," << r << "), entry " << i;
        }
        for (int i = 0; i < m * alpha; ++i) {
            EXPECT_EQ((float)w.at[i], tables[k]->at[i]) << "A^T of F(" << m << "," << r << "), entry " << i;
        }
    }
}

TEST(Winograd, StrideTwoMatricesComputeStrideTwoCorrelation) {
    // y_i = w0 x(2i) + w1 x(2i+1) + w2 x(2i+2) = A^T [(G w) .* (B^T x)] in double, for every m the
    // generator takes (alpha 2m + 1 <= 12); the packed kernels' compile-time pairs (5, 2), (7, 3)
    // equal the generated B^T and A^T
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int m = 1; m <= 5; ++m) {
        WinogradMatrices w;
        ASSERT_TRUE(makeStride2WinogradMatrices(m, &w)) << m;
        const int alpha = 2 * m + 1;
        ASSERT_EQ(w.alpha, alpha);
        ASSERT_EQ(w.r, 3);
        for (int trial = 0; trial < 4; ++trial) {
            std::vector<double> x(alpha), g(3), gw(alpha, 0.0), bx(alpha, 0.0);
            for (auto& v : x) {
                v = u(rng);
            }
            for (auto& v : g) {
                v = u(rng);
            }
            for (int a = 0; a < alpha; ++a) {
                for (int k = 0; k < 3; ++k) {
                    gw[a] += w.g[(size_t)a * 3 + k] * g[k];
                }
                for (int k = 0; k < alpha; ++k) {
                    bx[a] += w.bt[(size_t)a * alpha + k] * x[k];
                }
            }
            for (int i = 0; i < m; ++i) {
                double y = 0.0;
                for (int a = 0; a < alpha; ++a) {
                    y += w.at[(size_t)i * alpha + a] * gw[a] * bx[a];
                }
                const double want = g[0] * x[2 * i] + g[1] * x[2 * i + 1] + g[2] * x[2 * i + 2];
                EXPECT_NEAR(y, want, 1e-9) << "m " << m << " output " << i;
            }
        }
    }
    WinogradMatrices w;
    EXPECT_FALSE(makeStride2WinogradMatrices(0, &w));
    EXPECT_FALSE(makeStride2WinogradMatrices(6, &w));
    const wino::Tables* tables[] = {&wino::Stride2Tables<2>::value, &wino::Stride2Tables<3>::value};
    for (int m = 2; m <= 3; ++m) {
        ASSERT_TRUE(makeStride2WinogradMatrices(m, &w));
        const int alpha = 2 * m + 1;
        for (int i = 0; i < alpha * alpha; ++i) {
            EXPECT_EQ((float)w.bt[i], tables[m - 2]->bt[i]) << "stride-2 B^T, m " << m << ", entry " << i;
        }
        for (int i = 0; i < m * alpha; ++i) {
            EXPECT_EQ((float)w.at[i], tables[m - 2]->at[i]) << "stride-2 A^T, m " << m << ", entry " << i;
        }
    }
}

TEST(Winograd, EveryTileSizeMatchesReferenceOnEveryTierAndThreadCount) {
    const auto all = cases();
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < all.size(); ++ci) {
        const auto& c = all[ci];
        const unsigned seed = 500 + (unsigned)ci * 11;
        Result ref = run(c, 1, "reference", BackendConfig::Precision_High, seed);
        ASSERT_FALSE(ref.y.empty()) << "case " << ci;
        const int k = c.x[1] * 9;
        for (int m : {2, 4, 6}) {
            // transform round-off grows with the tile: |B^T|, |A^T| entries up to ~5 for F(6)
            const double scale = m == 2 ? 1.0 : m == 4 ? 4.0 : 16.0;
            const std::string algo = "winograd" + std::to_string(m);
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
                for (int threads = 1; threads <= 3; ++threads) {
                    Result r = run(c, threads, algo.c_str(), BackendConfig::Precision_High, seed);
                    ASSERT_EQ(r.y.size(), ref.y.size()) << "case " << ci << " " << algo;
                    EXPECT_EQ(r.algorithm, "winograd-f" + std::to_string(m) + " " + f.winoName + " " + f.sgemmName);
                    for (size_t i = 0; i < ref.y.size(); ++i) {
                        const double tol = scale * (1e-5 * fabs(ref.y[i]) + 1e-6 * (k + 1));
                        if (!(fabs((double)r.y[i] - ref.y[i]) <= tol)) {
                            ADD_FAILURE()
                                << "case " << ci << " " << algo << " tier " << cpuTierName((CPUTier)tier) << " threads "
                                << threads << " [" << i << "] " << r.y[i] << " ref " << ref.y[i];
                            break;
                        }
                    }
                }
            }
            cpuSetTierOverride(-1);
        }
    }
}

TEST(Winograd, CostModelChoicePerPrecision) {
    // a resnet-like 3x3 layer: Winograd pays; Precision_High takes only F(2x2)
    // (on every tier this CPU has)
    Case big{{1, 64, 28, 28}, 64, {1, 1, 1, 1}, true, Schema::FusedActivation::RELU};
    // a tiny layer: a single tile would be mostly padding, the GEMM is cheaper
    Case tiny{{1, 8, 3, 3}, 8, {0, 0, 0, 0}, true, Schema::FusedActivation::NONE};
    for (int tier = 0; tier <= (int)cpuFeatures().best; ++tier) {
        cpuSetTierOverride(tier);
        const std::string where = cpuTierName((CPUTier)tier);
        Result high = run(big, 1, "", BackendConfig::Precision_High, 7);
        EXPECT_EQ(high.algorithm.rfind("winograd-f2 ", 0), 0u) << where << " " << high.algorithm;
        Result normal = run(big, 1, "", BackendConfig::Precision_Normal, 7);
        EXPECT_EQ(normal.algorithm.rfind("winograd-f", 0), 0u) << where << " " << normal.algorithm;
        // forcing the GEMM path
        Result gemm = run(big, 1, "gemm", BackendConfig::Precision_Normal, 7);
        EXPECT_EQ(gemm.algorithm.rfind("im2col-gemm", 0), 0u) << where << " " << gemm.algorithm;
        Result t = run(tiny, 1, "", BackendConfig::Precision_Normal, 9);
        EXPECT_EQ(t.algorithm.rfind("im2col-gemm", 0), 0u) << where << " " << t.algorithm;
    }
    cpuSetTierOverride(-1);
}
