// The fast Convolution path (packed SGEMM / 1x1 / im2col / depthwise) against the reference kernel
// (MNN_CONV_ALGO=reference), for every ISA tier this CPU has and 1, 2, 3 threads, over edge shapes:
// tile remainders, odd channels, 1x1, stride 2, dilation, groups, depthwise, padding, batch 2,
// K above the GEMM's K block, fused ReLU / Clip. Also the thread pool and the kernel table.
#include <math.h>
#include <stdlib.h>
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include "NNTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUGemm.hpp"
#include "backend/cpu/ThreadPool.hpp"
#if defined(__linux__)
#include <sched.h>
#endif
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct ConvCase {
    std::vector<int> x, w;
    bool bias;
    std::vector<int> kernel, strides, dilations, pads;
    int group;
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

size_t count(const std::vector<int>& d) {
    size_t r = 1;
    for (auto e : d) {
        r *= (size_t)e;
    }
    return r;
}

struct Output {
    std::vector<float> y;
    std::vector<int> shape;
    std::string algorithm;
};

// algo: the MNN_CONV_ALGO value for session creation ("" = the engine's choice)
Output runCaseWith(const ConvCase& c, int threads, const char* algo, unsigned seed,
                   BackendConfig::PrecisionMode precision = BackendConfig::Precision_High) {
    if (algo[0]) {
        setenv("MNN_CONV_ALGO", algo, 1);
    } else {
        unsetenv("MNN_CONV_ALGO");
    }
    ModelBuilder mb;
    mb.input("x", c.x);
    mb.constant("w", c.w, randomVec(count(c.w), seed + 1));
    if (c.bias) {
        mb.constant("b", {c.w[0]}, randomVec((size_t)c.w[0], seed + 2));
    }
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", c.bias ? "b" : ""}, {"y"});
    Schema::ConvParamT p;
    p.kernel = c.kernel;
    p.strides = c.strides;
    p.dilations = c.dilations;
    p.pads = c.pads;
    p.group = c.group;
    p.activation = c.act;
    p.clipMin = -0.5f;
    p.clipMax = 0.75f;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    Output out;
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
    auto xt = makeTensor(c.x, randomVec(count(c.x), seed));
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    if (net->runSession(session) != NO_ERROR) {
        return out;
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    out.shape = host.shape();
    out.y.assign(host.host<float>(), host.host<float>() + host.elementSize());
    const char* ran = SessionIntrospect::algorithmOf(session, "conv");
    out.algorithm = ran ? ran : "";
    return out;
}

Output runCase(const ConvCase& c, int threads, bool reference, unsigned seed) {
    return runCaseWith(c, threads, reference ? "reference" : "", seed);
}

std::vector<ConvCase> cases() {
    using A = Schema::FusedActivation;
    return {
        // 1x1 stride 1 (GEMM on the input planes), odd channels, N not a multiple of any tile width
        {{1, 13, 7, 9}, {17, 13, 1, 1}, true, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1, A::RELU},
        // 3x3 pad 1, batch 2, clip
        {{2, 5, 11, 10}, {19, 5, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 1, A::CLIP},
        // stride 2, asymmetric pads, no bias
        {{1, 3, 15, 17}, {8, 3, 3, 3}, false, {3, 3}, {2, 2}, {1, 1}, {1, 0, 0, 1}, 1, A::NONE},
        // stride 3: im2col straight from the input (padded planes cover horizontal strides 1 and 2)
        {{1, 4, 11, 13}, {6, 4, 3, 3}, true, {3, 3}, {3, 3}, {1, 1}, {1, 2, 1, 0}, 1, A::NONE},
        // stride 2 with a 7x7 kernel and pad 3 (the resnet stem), vertical stride 1 / horizontal 2
        {{1, 3, 20, 19}, {8, 3, 7, 7}, true, {7, 7}, {2, 2}, {1, 1}, {3, 3, 3, 3}, 1, A::RELU},
        {{1, 5, 9, 12}, {7, 5, 3, 3}, false, {3, 3}, {1, 2}, {1, 1}, {0, 1, 2, 1}, 1, A::NONE},
        // dilation 2
        {{1, 4, 12, 12}, {9, 4, 3, 3}, true, {3, 3}, {1, 1}, {2, 2}, {2, 2, 2, 2}, 1, A::NONE},
        // groups 2
        {{1, 6, 8, 8}, {10, 3, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 2, A::RELU},
        // K = 576 > the GEMM's K block (accumulating store), M = 33
        {{1, 64, 9, 9}, {33, 64, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 1, A::RELU},
        // 1x1 stride 2 (im2col path), 1x5 kernel with pads, single output position
        {{1, 7, 10, 9}, {6, 7, 1, 1}, false, {1, 1}, {2, 2}, {1, 1}, {0, 0, 0, 0}, 1, A::NONE},
        {{2, 3, 6, 13}, {5, 3, 1, 5}, true, {1, 5}, {1, 1}, {1, 1}, {0, 2, 0, 2}, 1, A::CLIP},
        {{1, 7, 3, 3}, {5, 7, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1, A::NONE},
        // depthwise 3x3 pad 1, stride 2, multiplier 2, dilation 2
        {{2, 8, 9, 9}, {8, 1, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 8, A::RELU},
        {{1, 5, 10, 11}, {5, 1, 3, 3}, false, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, 5, A::CLIP},
        {{1, 4, 7, 8}, {8, 1, 3, 3}, true, {3, 3}, {1, 1}, {2, 2}, {2, 1, 0, 2}, 4, A::NONE},
        {{1, 3, 2, 2}, {3, 1, 5, 5}, true, {5, 5}, {1, 1}, {1, 1}, {2, 2, 2, 2}, 3, A::NONE},
        // SiLU / HardSwish fused (the table's unary kernel over stored rows): GEMM, 1x1, depthwise
        {{1, 5, 9, 11}, {12, 5, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 1, A::SILU},
        {{1, 8, 6, 7}, {9, 8, 1, 1}, true, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1, A::HARD_SWISH},
        {{1, 6, 9, 20}, {6, 1, 3, 3}, true, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, 6, A::SILU},
        {{1, 6, 9, 20}, {6, 1, 5, 5}, true, {5, 5}, {1, 1}, {1, 1}, {2, 2, 2, 2}, 6, A::HARD_SWISH},
        {{1, 2, 9, 9}, {2, 1, 3, 3}, true, {3, 3}, {3, 3}, {1, 1}, {1, 1, 1, 1}, 2, A::SILU},
        // 1x1 over a single position (squeeze-excite after global pooling): the GEMV path, batch 2, K off 8
        {{2, 45, 1, 1}, {70, 45, 1, 1}, true, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1, A::SILU},
        {{1, 16, 1, 1}, {130, 16, 1, 1}, false, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1, A::CLIP},
        // depthwise rows wider than 4 vectors of the widest tier, 5x5 stride 2 with asymmetric pads
        {{1, 4, 9, 70}, {4, 1, 3, 3}, true, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 4, A::RELU},
        {{2, 3, 13, 67}, {3, 1, 5, 5}, true, {5, 5}, {2, 2}, {1, 1}, {2, 1, 2, 3}, 3, A::CLIP},
        // stride 3 (the direct loop), and a left pad wider than the columns any tap reads
        {{1, 2, 10, 10}, {2, 1, 3, 3}, true, {3, 3}, {3, 3}, {1, 1}, {1, 1, 1, 1}, 2, A::NONE},
        {{1, 2, 4, 1}, {2, 1, 3, 3}, true, {3, 3}, {1, 2}, {1, 1}, {1, 5, 1, 0}, 2, A::NONE},
    };
}

}  // namespace

TEST(ConvFast, MatchesReferenceOnEveryTierAndThreadCount) {
    const auto all = cases();
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < all.size(); ++ci) {
        const auto& c = all[ci];
        const unsigned seed = 100 + (unsigned)ci * 7;
        Output ref = runCase(c, 1, true, seed);
        ASSERT_FALSE(ref.y.empty()) << "case " << ci;
        EXPECT_EQ(ref.algorithm, "reference");
        const int k = c.w[1] * c.w[2] * c.w[3];
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            const auto& funcs = cpuCoreFunctionsFor((CPUTier)tier);
            const bool depthwise = c.w[1] == 1 && c.group > 1;
            // depthwise: the engine's choice, then each kernel forced (MNN_DW_ALGO)
            for (int run = 0; run < (depthwise ? 9 : 3); ++run) {
                const int threads = run % 3 + 1, dwAlgo = run / 3;  // 0 default, 1 rows, 2 channels
                const char* dwEnv[] = {nullptr, "rows", "channels"};
                if (dwAlgo) {
                    setenv("MNN_DW_ALGO", dwEnv[dwAlgo], 1);
                }
                Output fast = runCase(c, threads, false, seed);
                unsetenv("MNN_DW_ALGO");
                ASSERT_EQ(fast.shape, ref.shape) << "case " << ci;
                if (depthwise) {
                    // across channels for multiplier 1 (forced, or rows of at most one vector); else
                    // the row kernel for horizontal stride 1 / 2, the direct loop otherwise
                    const int ow = fast.shape[3];
                    const bool channels = c.w[0] == c.x[1] && (dwAlgo == 2 || (dwAlgo == 0 && ow <= funcs.dwLanes));
                    const std::string want =
                        channels            ? std::string("depthwise dwconv_channels__") + cpuTierName((CPUTier)tier)
                        : c.strides[1] <= 2 ? std::string("depthwise ") + funcs.dwconvName
                                            : std::string("depthwise-direct");
                    EXPECT_EQ(fast.algorithm, want) << "case " << ci << " dw algo " << dwAlgo;
                } else if (c.x[2] * c.x[3] == 1 && c.w[2] * c.w[3] == 1 && c.group == 1) {
                    EXPECT_EQ(fast.algorithm, "gemv-1x1") << "case " << ci;
                } else {
                    EXPECT_NE(fast.algorithm.find(funcs.sgemmName), std::string::npos)
                        << "case " << ci << " tier " << tier << ": " << fast.algorithm;
                }
                double worst = 0.0;
                for (size_t i = 0; i < ref.y.size(); ++i) {
                    // fp32 accumulation of k products of magnitude <= 1 against the reference's double
                    const double tol = 1e-5 * fabs(ref.y[i]) + 1e-6 * (k + 1);
                    const double err = fabs((double)fast.y[i] - (double)ref.y[i]);
                    worst = std::max(worst, err - tol);
                    if (!(err <= tol)) {
                        ADD_FAILURE() << "case " << ci << " tier " << cpuTierName((CPUTier)tier) << " threads "
                                      << threads << " dw algo " << dwAlgo << " [" << i << "] fast " << fast.y[i]
                                      << " ref " << ref.y[i];
                        break;
                    }
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(ConvFast, ReferenceForcedAndNonConstantWeightsUseReference) {
    // weights as a graph input: not constant, so the reference kernel runs
    ModelBuilder mb;
    mb.input("x", {1, 2, 4, 4});
    mb.input("w", {3, 2, 3, 3});
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w"}, {"y"});
    Schema::ConvParamT p;
    p.kernel = {3, 3};
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    const char* algo = SessionIntrospect::algorithmOf(session, "conv");
    ASSERT_NE(algo, nullptr);
    EXPECT_STREQ(algo, "reference");
}

// a zero batch passes every size limit while the plane stays huge: the fast path's GEMM extents
// overflowed int (found by mnn_fuzz_model under UBSan); now refused by the shape function
TEST(ConvFast, ZeroBatchWithPlaneOverIntIsRefused) {
    unsetenv("MNN_CONV_ALGO");
    ModelBuilder mb;
    mb.input("x", {0, 1, 50000, 50000});
    mb.constant("w", {1, 1, 1, 1}, {1.0f});
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w"}, {"y"});
    Schema::ConvParamT p;
    p.kernel = {1, 1};
    op->param.Set(p);
    mb.output("y");
    expectCreateFails(mb.finish(), {"conv", "Convolution", "output plane of 2500000000"});
}

TEST(ConvFast, GemmKernelsAgainstPlainLoops) {
    // every tier's packed GEMM, odd sizes, K across the block boundary, against a double loop
    const int best = (int)cpuFeatures().best;
    const int sizes[][3] = {{1, 1, 1}, {5, 7, 3}, {9, 33, 17}, {16, 64, 300}, {13, 50, 513}, {3, 2, 0}};
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        EXPECT_EQ((int)f.tier, tier);
        for (auto& s : sizes) {
            const int m = s[0], n = s[1], k = s[2];
            auto a = randomVec((size_t)m * k, 1);
            auto b = randomVec((size_t)k * n, 2);
            auto bias = randomVec((size_t)m, 3);
            std::vector<float> pa((size_t)gemmPackedASize(f, m, k) + 1), pb((size_t)gemmPackedBSize(f, n, k) + 1);
            gemmPackA(f, a.data(), k, m, k, pa.data());
            gemmPackB(f, b.data(), n, n, k, pb.data());
            std::vector<float> biasPad((size_t)((m + f.mr - 1) / f.mr * f.mr), 0.0f);
            std::copy(bias.begin(), bias.end(), biasPad.begin());
            for (int threads = 1; threads <= 3; ++threads) {
                ThreadPool pool(threads);
                std::vector<float> c((size_t)m * n + 1, 12345.0f);
                GemmPost post;
                post.act = 2;
                post.lo = -1.0f;
                post.hi = 1.5f;
                gemmRunPacked(f, m, n, k, pa.data(), pb.data(), biasPad.data(), c.data(), n, post, &pool);
                EXPECT_EQ(c[(size_t)m * n], 12345.0f) << "wrote past C";
                for (int i = 0; i < m; ++i) {
                    for (int j = 0; j < n; ++j) {
                        double acc = bias[i];
                        for (int q = 0; q < k; ++q) {
                            acc += (double)a[(size_t)i * k + q] * b[(size_t)q * n + j];
                        }
                        acc = std::min(std::max(acc, -1.0), 1.5);
                        ASSERT_NEAR(c[(size_t)i * n + j], acc, 1e-6 * (k + 1))
                            << f.sgemmName << " m" << m << " n" << n << " k" << k << " t" << threads;
                    }
                }
            }
        }
    }
}

/** a pool task that waits (yielding, up to 10 s) for another task's flag; false on the timeout */
static bool yieldUntilSet(const std::atomic<bool>& flag) {
    const auto t0 = std::chrono::steady_clock::now();
    while (!flag.load()) {
        if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(10)) {
            return false;
        }
        std::this_thread::yield();
    }
    return true;
}

TEST(ConvFast, ThreadPoolRunsEveryIndexOnce) {
    for (int threads = 1; threads <= 4; ++threads) {
        ThreadPool pool(threads);
        EXPECT_EQ(pool.threads(), threads);
        for (int n : {0, 1, 2, 3, 7, 100}) {
            std::vector<std::atomic<int>> hits(n > 0 ? n : 1);
            for (auto& h : hits) {
                h = 0;
            }
            auto f = [&](int i) { hits[i].fetch_add(1); };
            for (int rep = 0; rep < 3; ++rep) {
                pool.parallelFor(n, f);
            }
            for (int i = 0; i < n; ++i) {
                EXPECT_EQ(hits[i].load(), 3) << "threads " << threads << " n " << n << " i " << i;
            }
        }
    }
}

#if defined(__linux__)
TEST(ConvFast, ThreadPoolWakesSleepingWorkersOffTheCallersCpu) {
    // a worker asleep on the pool's condition variable used to be woken onto the caller's CPU and
    // queued behind the busy caller until the next scheduler tick. Here, after 50 ms idle and once
    // the worker is asleep (polled up to 10 s: slow on a loaded machine), the caller's task spins
    // (yielding, up to 10 s) until the worker's task has started: that task must run on another CPU
    // than the caller's, in each of 4 rounds. Without the steering this failed in 10 runs of 10 on
    // the 2-core Zen 3 VM; without the 50 ms (polling alone) in 6 of 10, and with the caller pinned
    // to its CPU (the scheduler then placed the worker differently) in 1 of 6: the idle caller of
    // an app between two inferences, unpinned, is the case the steering is for.
    if (getenv("MNN_UNDER_EMULATOR")) {
        // qemu-user: a thread pinned to CPU 0 read CPU 1 from sched_getcpu under load
        GTEST_SKIP() << "the CPU numbers are the emulator's (" << getenv("MNN_UNDER_EMULATOR") << ")";
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
    if (CPU_COUNT(&set) < 2) {
        GTEST_SKIP() << "one CPU: nothing to steer";
    }
    // the CPU numbers must mean something: a thread pinned to the last allowed CPU has to see it
    int last = -1;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
        last = CPU_ISSET(c, &set) ? c : last;
    }
    int seen = -2;
    std::thread probe([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(last, &one);
        seen = sched_setaffinity(0, sizeof(one), &one) == 0 ? sched_getcpu() : -3;
    });
    probe.join();
    if (seen != last) {
        GTEST_SKIP() << "sched_getcpu does not report the CPU a thread runs on (" << seen << ", pinned to " << last
                     << ")";
    }
    ThreadPool pool(2);
    for (int round = 0; round < 4; ++round) {
        const auto idle = std::chrono::steady_clock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        while (pool.sleepingWorkers() < 1 && std::chrono::steady_clock::now() - idle < std::chrono::seconds(10)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ASSERT_EQ(pool.sleepingWorkers(), 1) << "round " << round << ": the worker never fell asleep";
        std::atomic<int> callerCpu{-1}, workerCpu{-1};
        std::atomic<bool> started{false}, timedOut{false};
        auto f = [&](int i) {
            if (i == 1) {
                workerCpu = sched_getcpu();
                started = true;
                return;
            }
            callerCpu = sched_getcpu();
            timedOut = !yieldUntilSet(started);
        };
        pool.parallelFor(2, f);
        if (timedOut.load()) {
            continue;  // the caller ran both tasks: no CPU to compare
        }
        EXPECT_NE(callerCpu.load(), workerCpu.load()) << "round " << round;
    }
}
#endif

TEST(ConvFast, ThreadPoolRunsOwnSharesInOrderAndStealsFromTheBack) {
    // thread t owns [t n / T, (t + 1) n / T) and runs it front to back; a thread done with its own
    // share steals the others' from the back. The caller's first task waits (up to 10 s) until the
    // last task of the caller's share has run on another thread: without stealing it never would.
    for (int threads = 2; threads <= 4; ++threads) {
        ThreadPool pool(threads);
        for (int n : {threads * 2, threads * 3 + 1, 64}) {
            const int callerEnd = n / threads;  // the caller's share is [0, callerEnd)
            std::vector<std::atomic<int>> byCaller(n), seq(n);
            for (int i = 0; i < n; ++i) {
                byCaller[i] = -1;
                seq[i] = -1;
            }
            std::atomic<int> order{0};
            std::atomic<bool> stolen{false}, timedOut{false};
            const std::thread::id callerId = std::this_thread::get_id();
            auto f = [&](int i) {
                byCaller[i] = std::this_thread::get_id() == callerId ? 1 : 0;
                seq[i] = order.fetch_add(1);
                if (i == callerEnd - 1 && std::this_thread::get_id() != callerId) {
                    stolen = true;
                }
                if (i == 0 && std::this_thread::get_id() == callerId) {
                    timedOut = !yieldUntilSet(stolen);
                }
            };
            pool.parallelFor(n, f);
            EXPECT_FALSE(timedOut.load())
                << "threads " << threads << " n " << n << ": nobody stole the caller's last task";
            // the caller claims its own share from the front: it ran task 0, or (descheduled right
            // after publishing the tasks, as under qemu) the others stole its whole share
            if (byCaller[0].load() != 1) {
                for (int i = 0; i < callerEnd; ++i) {
                    EXPECT_EQ(byCaller[i].load(), 0) << "threads " << threads << " n " << n << " task " << i;
                }
            }
            EXPECT_EQ(byCaller[callerEnd - 1].load(), 0) << "the back of the caller's share was stolen";
            // the caller ran its own tasks front to back
            for (int i = 0; i + 1 < callerEnd; ++i) {
                if (byCaller[i].load() == 1 && byCaller[i + 1].load() == 1) {
                    EXPECT_LT(seq[i].load(), seq[i + 1].load()) << "threads " << threads << " n " << n << " task " << i;
                }
            }
            int workerFirst = -1;
            for (int i = 0; i < n; ++i) {
                EXPECT_GE(seq[i].load(), 0) << "task " << i << " never ran";
                if (byCaller[i].load() == 0 && (workerFirst < 0 || seq[i].load() < seq[workerFirst].load())) {
                    workerFirst = i;
                }
            }
            if (threads == 2) {
                EXPECT_EQ(workerFirst, callerEnd) << "n " << n << ": the worker starts at the front of its own share";
            }
        }
    }
}

TEST(ConvFast, ParallelForItemsRunsEveryItemOnceInTasksOfTheMinimumWork) {
    // every item exactly once at 1-4 threads; items worth less than two tasks together run inline on
    // the caller (a range short by one item, or a task per item, fails this)
    for (int threads = 1; threads <= 4; ++threads) {
        ThreadPool pool(threads);
        for (int64_t items : {0, 1, 2, 5, 80, 1000}) {
            for (double itemWork : {1.0, 256.0, 100000.0}) {
                std::vector<std::atomic<int>> hits(items > 0 ? items : 1);
                std::vector<std::thread::id> who(items > 0 ? items : 1);
                for (auto& h : hits) {
                    h = 0;
                }
                auto f = [&](int i) {
                    hits[i].fetch_add(1);
                    who[i] = std::this_thread::get_id();
                };
                const double minWork = 4096.0;
                parallelForItems(&pool, items, itemWork, minWork, f);
                for (int64_t i = 0; i < items; ++i) {
                    EXPECT_EQ(hits[i].load(), 1) << "threads " << threads << " items " << items << " i " << i;
                }
                if ((double)items * itemWork < 2.0 * minWork) {
                    for (int64_t i = 0; i < items; ++i) {
                        EXPECT_EQ(who[i], std::this_thread::get_id()) << "a task's worth of items ran off the caller";
                    }
                }
            }
        }
    }
}

TEST(ConvFast, ScratchSlotsNeverShareASlotAndStayBelowTheThreadCount) {
    // every task claims a slot, marks it busy, works a little, checks nobody else took it, releases
    for (int threads = 1; threads <= 4; ++threads) {
        ThreadPool pool(threads);
        ScratchSlots slots;
        std::vector<std::atomic<int>> busy(ScratchSlots::kMaxSlots);
        for (auto& b : busy) {
            b = 0;
        }
        std::atomic<int> clashes{0}, highest{0};
        auto f = [&](int i) {
            const int s = slots.claim();
            if (busy[s].fetch_add(1) != 0) {
                clashes.fetch_add(1);
            }
            int h = highest.load();
            while (s > h && !highest.compare_exchange_weak(h, s)) {
            }
            volatile double x = i;
            for (int k = 0; k < 2000; ++k) {
                x = x * 1.0000001 + 1.0;
            }
            busy[s].fetch_sub(1);
            slots.release(s);
        };
        for (int rep = 0; rep < 20; ++rep) {
            pool.parallelFor(64, f);
        }
        EXPECT_EQ(clashes.load(), 0) << "threads " << threads;
        EXPECT_LT(highest.load(), threads) << "threads " << threads;
        // all released: the next claim is slot 0 again
        const int s = slots.claim();
        EXPECT_EQ(s, 0);
        slots.release(s);
    }
}

TEST(ConvFast, TierEnvironmentParsing) {
    CPUTier t;
    EXPECT_TRUE(parseCPUTier("avx2", &t));
    EXPECT_EQ(t, CPUTier::AVX2);
    EXPECT_TRUE(parseCPUTier("scalar", &t));
    EXPECT_EQ(t, CPUTier::SCALAR);
    EXPECT_FALSE(parseCPUTier("avx9", &t));
    EXPECT_FALSE(parseCPUTier(nullptr, &t));
    // the active tier never exceeds what the CPU has
    EXPECT_LE((int)cpuTier(), (int)cpuFeatures().best);
    // asking for a higher tier than the CPU has clamps
    EXPECT_LE((int)cpuCoreFunctionsFor(CPUTier::AVX512).tier, (int)cpuFeatures().best);
}
