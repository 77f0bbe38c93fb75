// Packed SGEMM micro-benchmark: every ISA tier this CPU has, conv-like shapes (M = output channels,
// N = output positions, K = Cin * kh * kw), 1 and 2 threads. Reports GFLOP/s (2*M*N*K per run).
#include <benchmark/benchmark.h>
#include <random>
#include <vector>
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUGemm.hpp"
#include "backend/cpu/ThreadPool.hpp"

using namespace MNN;

static void BM_Sgemm(benchmark::State& state) {
    const int tier = (int)state.range(0);
    const int m = (int)state.range(1), n = (int)state.range(2), k = (int)state.range(3);
    const int threads = (int)state.range(4);
    if (tier > (int)cpuFeatures().best) {
        state.SkipWithError("tier not available on this CPU");
        return;
    }
    const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
    std::mt19937 gen(1);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> a((size_t)m * k), b((size_t)k * n), c((size_t)m * n);
    for (auto& v : a) v = d(gen);
    for (auto& v : b) v = d(gen);
    std::vector<float> pa((size_t)gemmPackedASize(f, m, k)), pb((size_t)gemmPackedBSize(f, n, k));
    std::vector<float> bias((size_t)((m + f.mr - 1) / f.mr * f.mr), 0.5f);
    gemmPackA(f, a.data(), k, m, k, pa.data());
    ThreadPool pool(threads);
    GemmPost post;
    post.act = 1;
    for (auto _ : state) {
        gemmPackB(f, b.data(), n, n, k, pb.data());  // the per-run input packing is part of the cost
        gemmRunPacked(f, m, n, k, pa.data(), pb.data(), bias.data(), c.data(), n, post, &pool);
        benchmark::DoNotOptimize(c.data());
    }
    state.SetLabel(f.sgemmName);
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * m * n * k * state.iterations(), benchmark::Counter::kIsRate,
                                                   benchmark::Counter::kIs1000);
}

static void shapes(benchmark::internal::Benchmark* b) {
    // resnet18-like: layer1 3x3 (64x3136x576), layer4 3x3 (512x49x4608), 1x1 (128x784x64), square 256
    // mobilenet_v2 1x1 layers: expand 16->96 at 112x112, project 144->24 at 56x56, 384->64 at 14x14, 320->1280 at 7x7
    const int s[][3] = {{64, 3136, 576}, {512, 49, 4608}, {128, 784, 64}, {256, 256, 256},
                        {96, 12544, 16}, {24, 3136, 144}, {64, 196, 384}, {1280, 49, 320}};
    for (int tier = 0; tier < kCPUTierCount; ++tier) {
        for (auto& e : s) {
            for (int t : {1, 2}) {
                b->Args({tier, e[0], e[1], e[2], t});
            }
        }
    }
    b->ArgNames({"tier", "M", "N", "K", "threads"});
    b->UseRealTime();
}
BENCHMARK(BM_Sgemm)->Apply(shapes);

BENCHMARK_MAIN();
