// Fast MatMul / Gemm (constant 2-D weights, packed SGEMM) against the reference kernels
// (MNN_CONV_ALGO=reference), every ISA tier this CPU has, 1-3 threads: batched A, GEMV (M < 4), odd sizes,
// K over the GEMM's K block, Gemm transB / alpha / beta / row bias, fused ReLU / Clip. At
// Precision_High the float paths; at Precision_Normal the GEMV with half weights where a tier has it,
// within the half rounding of the weights.
#include <math.h>
#include <stdlib.h>
#include <random>
#include <string>
#include "NNTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUGemm.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "backend/cpu/ThreadPool.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct LinCase {
    bool gemm;
    std::vector<int> a, b, c;  // c empty: no C
    bool transB;
    float alpha, beta;
    Schema::FusedActivation act;
};

std::vector<float> rnd(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& e : v) {
        e = d(g);
    }
    return v;
}

size_t cnt(const std::vector<int>& d) {
    size_t r = 1;
    for (auto e : d) {
        r *= (size_t)e;
    }
    return r;
}

struct Out {
    std::vector<float> y;
    std::vector<int> shape;
    std::string algo;
};

Out runLin(const LinCase& t, int threads, bool reference, unsigned seed,
           BackendConfig::PrecisionMode precision = BackendConfig::Precision_High) {
    if (reference) {
        setenv("MNN_CONV_ALGO", "reference", 1);
    } else {
        unsetenv("MNN_CONV_ALGO");
    }
    ModelBuilder mb;
    mb.input("a", t.a);
    mb.constant("b", t.b, rnd(cnt(t.b), seed + 1));
    if (!t.c.empty()) {
        mb.constant("c", t.c, rnd(cnt(t.c), seed + 2));
    }
    auto op =
        mb.op(t.gemm ? Schema::OpType::Gemm : Schema::OpType::MatMul, "mm", {"a", "b", t.c.empty() ? "" : "c"}, {"y"});
    Schema::GemmParamT p;
    p.alpha = t.alpha;
    p.beta = t.beta;
    p.transB = t.transB;
    p.activation = t.act;
    p.clipMin = -0.25f;
    p.clipMax = 0.5f;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    Out out;
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
    auto at = makeTensor(t.a, rnd(cnt(t.a), seed));
    net->getSessionInput(session, "a")->copyFromHostTensor(at.get());
    if (net->runSession(session) != NO_ERROR) {
        return out;
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    out.shape = host.shape();
    out.y.assign(host.host<float>(), host.host<float>() + host.elementSize());
    const char* algo = SessionIntrospect::algorithmOf(session, "mm");
    out.algo = algo ? algo : "";
    return out;
}

}  // namespace

TEST(LinearFast, MatchesReferenceOnEveryTierAndThreadCount) {
    using A = Schema::FusedActivation;
    const std::vector<LinCase> cases = {
        {false, {2, 3, 7, 13}, {13, 9}, {}, false, 1.0f, 1.0f, A::NONE},  // batched A
        {false, {1, 300}, {300, 37}, {}, false, 1.0f, 1.0f, A::RELU},     // M = 1, K > block
        {false, {33, 5}, {5, 50}, {}, false, 1.0f, 1.0f, A::CLIP},
        {true, {4, 20}, {11, 20}, {11}, true, 0.5f, 2.0f, A::NONE},  // FC: transB, bias [N]
        {true, {1, 64}, {64, 10}, {1, 10}, false, 1.0f, 1.0f, A::RELU},
        {true, {9, 17}, {17, 3}, {}, false, 1.5f, 1.0f, A::CLIP},
        {true, {5, 6}, {6, 4}, {1}, false, 1.0f, -1.0f, A::NONE},           // scalar C
        {true, {3, 13}, {70, 13}, {70}, true, 1.0f, 1.0f, A::CLIP},         // GEMV, K % 8 != 0
        {false, {2, 1, 1029}, {1029, 65}, {}, false, 1.0f, 1.0f, A::RELU},  // GEMV, 2 rows
        {true, {1, 1280}, {1000, 1280}, {1000}, true, 1.0f, 1.0f, A::NONE}, // classifier head, many groups
        {true, {3, 16}, {33, 16}, {33}, true, 1.0f, 1.0f, A::RELU},         // GEMV, 3 rows, K one block
    };
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < cases.size(); ++ci) {
        const auto& t = cases[ci];
        const unsigned seed = 7 + (unsigned)ci * 11;
        Out ref = runLin(t, 1, true, seed);
        ASSERT_FALSE(ref.y.empty()) << "case " << ci;
        EXPECT_EQ(ref.algo, "reference");
        const int k = t.a.back();
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                Out fast = runLin(t, threads, false, seed);
                ASSERT_EQ(fast.shape, ref.shape) << "case " << ci;
                size_t rows = 1;
                for (size_t d = 0; d + 1 < t.a.size(); ++d) {
                    rows *= (size_t)t.a[d];
                }
                if (rows < 4) {
                    EXPECT_EQ(fast.algo, std::string("gemv ") + cpuCoreFunctionsFor((CPUTier)tier).packedConvName)
                        << "case " << ci;
                } else {
                    EXPECT_NE(fast.algo.find(cpuCoreFunctionsFor((CPUTier)tier).sgemmName), std::string::npos)
                        << "case " << ci << ": " << fast.algo;
                }
                for (size_t i = 0; i < ref.y.size(); ++i) {
                    const double tol = 1e-5 * fabs(ref.y[i]) + 2e-6 * (k + 2);
                    if (!(fabs((double)fast.y[i] - ref.y[i]) <= tol)) {
                        ADD_FAILURE() << "case " << ci << " tier " << tier << " threads " << threads << " [" << i
                                      << "] fast " << fast.y[i] << " ref " << ref.y[i];
                        break;
                    }
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

// Precision_Normal: GEMVs keep their weights as IEEE half on tiers whose tile kernel takes them
// (pcHalfMaxP) when the weights are at least CPUUtils::kHalfWeightsMinBytes (4 MB; smaller ones
// stay float: squeeze-excite gates scale whole feature maps); each weight is rounded by at most
// 2^-11 of itself, so |fast - ref| stays within 2^-11 * |alpha| * max|B| * sum|A row| (plus the
// float path's own tolerance). Precision_Low keeps every GEMV's weights half.
TEST(LinearFast, GemvHalfWeightsWithinHalfRoundingAtPrecisionNormal) {
    using A = Schema::FusedActivation;
    const std::vector<LinCase> cases = {
        {true, {1, 1280}, {1000, 1280}, {1000}, true, 1.0f, 1.0f, A::NONE},  // classifier head: 5.1 MB
        {true, {2, 1024}, {1000, 1024}, {1000}, true, 1.0f, 1.0f, A::NONE},  // 4.13 MB packed: under 4 MiB
        {true, {3, 13}, {70, 13}, {70}, true, 0.5f, 1.0f, A::CLIP},          // 3 rows, K % 16 != 0
        {false, {2, 1, 1029}, {1029, 65}, {}, false, 1.0f, 1.0f, A::RELU},   // 2 rows, N % 16 != 0
        {true, {1, 16}, {17, 16}, {17}, true, 1.0f, 1.0f, A::NONE},          // one input block
    };
    const int best = (int)cpuFeatures().best;
    int halfRuns = 0;
    for (size_t ci = 0; ci < cases.size(); ++ci) {
        const auto& t = cases[ci];
        const unsigned seed = 5 + (unsigned)ci * 13;
        Out ref = runLin(t, 1, true, seed);
        ASSERT_FALSE(ref.y.empty()) << "case " << ci;
        const int k = t.a.back();
        const size_t rows = cnt(t.a) / (size_t)k;
        double maxB = 0.0;
        for (float v : rnd(cnt(t.b), seed + 1)) {
            maxB = std::max(maxB, (double)fabs(v));
        }
        const auto a = rnd(cnt(t.a), seed);
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            const auto& funcs = cpuCoreFunctionsFor((CPUTier)tier);
            // the packed weights: N x K, each rounded up to whole 16-lane blocks
            const size_t n16 = (size_t)((t.transB ? t.b[0] : t.b[1]) + 15) / 16 * 16;
            const size_t wBytes = n16 * (size_t)((k + 15) / 16 * 16) * sizeof(float);
            for (int run = 0; run < 4; ++run) {
                // threads 1, 2 at Precision_Normal, then at Precision_Low (every GEMV's weights half)
                const int threads = 1 + run % 2;
                const bool low = run >= 2;
                const bool half = funcs.pcHalfMaxP >= (int)rows && (low || wBytes >= CPUUtils::kHalfWeightsMinBytes);
                Out fast = runLin(t, threads, false, seed,
                                  low ? BackendConfig::Precision_Low : BackendConfig::Precision_Normal);
                ASSERT_EQ(fast.shape, ref.shape) << "case " << ci;
                EXPECT_EQ(fast.algo, std::string(half ? "gemv-f16 " : "gemv ") + funcs.packedConvName) << "case " << ci;
                halfRuns += half ? 1 : 0;
                const size_t n = ref.y.size() / rows;
                for (size_t i = 0; i < ref.y.size(); ++i) {
                    double rowSum = 0.0;
                    for (int q = 0; q < k; ++q) {
                        rowSum += fabs(a[(i / n) * (size_t)k + (size_t)q]);
                    }
                    const double tol = (half ? ldexp(1.0, -11) * fabs(t.alpha) * maxB * rowSum : 0.0) +
                                       1e-5 * fabs(ref.y[i]) + 2e-6 * (k + 2);
                    if (!(fabs((double)fast.y[i] - ref.y[i]) <= tol)) {
                        ADD_FAILURE() << "case " << ci << " tier " << tier << " threads " << threads
                                      << (low ? " Low" : "") << " [" << i << "] fast " << fast.y[i] << " ref "
                                      << ref.y[i] << " tol " << tol;
                        break;
                    }
                }
            }
        }
        cpuSetTierOverride(-1);
    }
    if (cpuFeatures().best >= CPUTier::AVX512) {
        EXPECT_GT(halfRuns, 0);
    }
}

namespace {
Out runMatMul2(const std::vector<int>& as, const std::vector<int>& bs, int threads, bool reference) {
    if (reference) {
        setenv("MNN_CONV_ALGO", "reference", 1);
    } else {
        unsetenv("MNN_CONV_ALGO");
    }
    ModelBuilder mb;
    mb.input("a", as);
    mb.input("b", bs);
    mb.op(Schema::OpType::MatMul, "mm", {"a", "b"}, {"y"});
    mb.output("y");
    auto model = mb.finish();
    Out out;
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    auto session = net->createSession(config);
    unsetenv("MNN_CONV_ALGO");
    if (!session) {
        return out;
    }
    auto at = makeTensor(as, rnd(cnt(as), 3));
    auto bt = makeTensor(bs, rnd(cnt(bs), 4));
    net->getSessionInput(session, "a")->copyFromHostTensor(at.get());
    net->getSessionInput(session, "b")->copyFromHostTensor(bt.get());
    if (net->runSession(session) != NO_ERROR) {
        return out;
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    out.shape = host.shape();
    out.y.assign(host.host<float>(), host.host<float>() + host.elementSize());
    const char* algo = SessionIntrospect::algorithmOf(session, "mm");
    out.algo = algo ? algo : "";
    return out;
}
}  // namespace

TEST(LinearFast, BatchedMatMulOfTwoInputsMatchesReference) {
    // attention-like products of two activations, with batch broadcast and K over the GEMM's K block
    const std::vector<std::pair<std::vector<int>, std::vector<int>>> cases = {
        {{2, 3, 5, 7}, {3, 7, 4}}, {{4, 6}, {1, 6, 9}}, {{2, 9, 300}, {2, 300, 33}}, {{1, 1, 8}, {3, 8, 1}}};
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < cases.size(); ++ci) {
        Out ref = runMatMul2(cases[ci].first, cases[ci].second, 1, true);
        ASSERT_FALSE(ref.y.empty()) << "case " << ci;
        EXPECT_EQ(ref.algo, "reference");
        const int k = cases[ci].first.back();
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                Out fast = runMatMul2(cases[ci].first, cases[ci].second, threads, false);
                ASSERT_EQ(fast.shape, ref.shape) << "case " << ci;
                EXPECT_NE(fast.algo.find("batched-gemm"), std::string::npos) << fast.algo;
                for (size_t i = 0; i < ref.y.size(); ++i) {
                    ASSERT_NEAR(fast.y[i], ref.y[i], 1e-5 * fabs(ref.y[i]) + 2e-6 * (k + 2))
                        << "case " << ci << " tier " << tier << " threads " << threads << " [" << i << "]";
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(LinearFast, StrassenMatchesPlainLoopsOnEveryTier) {
    // one and two Strassen-Winograd levels over the packed GEMM against a double loop; strided
    // operands (a sub-block of a wider matrix) and K across the GEMM's K block
    const int best = (int)cpuFeatures().best;
    const int sizes[][4] = {{64, 48, 80, 1}, {32, 96, 64, 2}, {24, 8, 600, 1}, {16, 16, 16, 2}};
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        for (auto& s : sizes) {
            const int m = s[0], n = s[1], k = s[2], levels = s[3];
            const int lda = k + 3, ldb = n + 5, ldc = n + 1;
            auto a = rnd((size_t)m * lda, 11);
            auto b = rnd((size_t)k * ldb, 12);
            std::vector<float> scratch((size_t)gemmStrassenScratchFloats(f, m, n, k, levels));
            for (int threads : {1, 3}) {
                ThreadPool pool(threads);
                std::vector<float> c((size_t)m * ldc, 777.0f);
                gemmStrassen(f, m, n, k, a.data(), lda, b.data(), ldb, c.data(), ldc, levels, scratch.data(), &pool);
                for (int i = 0; i < m; ++i) {
                    for (int j = 0; j < n; ++j) {
                        double acc = 0.0, mag = 0.0;
                        for (int q = 0; q < k; ++q) {
                            acc += (double)a[(size_t)i * lda + q] * b[(size_t)q * ldb + j];
                            mag += fabs((double)a[(size_t)i * lda + q] * b[(size_t)q * ldb + j]);
                        }
                        // Strassen's bound: the error grows with the levels (about 4x per level here)
                        ASSERT_NEAR(c[(size_t)i * ldc + j], acc, 1e-6 * mag * (1 << (2 * levels)) + 1e-6)
                            << f.sgemmName << " m" << m << " n" << n << " k" << k << " levels " << levels;
                    }
                    EXPECT_EQ(c[(size_t)i * ldc + n], 777.0f) << "wrote past the block";
                }
            }
        }
    }
    // the cost model: only large even products take levels
    EXPECT_EQ(gemmStrassenLevels(512, 512, 512, 3), 0);
    EXPECT_GE(gemmStrassenLevels(2048, 2048, 2048, 3), 1);
    EXPECT_EQ(gemmStrassenLevels(2047, 2048, 2048, 3), 0);
    EXPECT_EQ(gemmStrassenLevels(4096, 4096, 4096, 1), 1);
}

TEST(LinearFast, BatchedMatMulThroughStrassenMatchesReference) {
    const std::vector<int> as = {2, 64, 96}, bs = {96, 48};
    Out ref = runMatMul2(as, bs, 1, true);
    ASSERT_FALSE(ref.y.empty());
    setenv("MNN_MATMUL_ALGO", "strassen", 1);
    Out fast = runMatMul2(as, bs, 2, false);
    unsetenv("MNN_MATMUL_ALGO");
    ASSERT_EQ(fast.shape, ref.shape);
    EXPECT_EQ(fast.algo.rfind("strassen-1 ", 0), 0u) << fast.algo;
    for (size_t i = 0; i < ref.y.size(); ++i) {
        ASSERT_NEAR(fast.y[i], ref.y[i], 1e-5 * fabs(ref.y[i]) + 4e-6 * 96) << i;
    }
    // odd sizes cannot take a level: the plain GEMM
    setenv("MNN_MATMUL_ALGO", "strassen", 1);
    Out odd = runMatMul2({3, 5, 7}, {7, 4}, 1, false);
    unsetenv("MNN_MATMUL_ALGO");
    EXPECT_NE(odd.algo.find("batched-gemm"), std::string::npos) << odd.algo;
}
