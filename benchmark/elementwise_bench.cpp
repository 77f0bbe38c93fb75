// Elementwise micro-benchmark: the table's float32 unary kernels (every op) and binary kernels on
// every ISA tier this CPU has, over an L2-sized buffer (16 x 56 x 56 floats: one packed block of a
// mid-network activation). Reports ns per element: a kernel the compiler left scalar shows up here
// (2026-11-25: GCC kept the selects of the plain-loop kernels as branches without
// -fno-trapping-math; AVX2 HardSwish took 3.5 ns per element instead of 0.2).
#include <benchmark/benchmark.h>
#include <random>
#include <vector>
#include "backend/cpu/CPUCoreFunctions.hpp"

using namespace MNN;

namespace {

constexpr int64_t kElements = 16 * 56 * 56;

const char* unaryName(int op) {
    static const char* names[kVecUnaryOpCount] = {
        "relu", "clip",      "sigmoid",    "silu", "hard_sigmoid", "hard_swish", "tanh",       "exp",
        "gelu", "gelu_tanh", "leaky_relu", "abs",  "neg",          "square",     "reciprocal", "silu_fast"};
    return op >= 0 && op < kVecUnaryOpCount ? names[op] : "?";
}

std::vector<float> inputs(float lo, float hi) {
    std::mt19937 gen(3);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> x((size_t)kElements);
    for (auto& v : x) {
        v = d(gen);
    }
    return x;
}

void perElement(benchmark::State& state) {
    state.counters["ns/elem"] =
        benchmark::Counter((double)kElements * state.iterations(),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

}  // namespace

static void BM_Unary(benchmark::State& state) {
    const int tier = (int)state.range(0), op = (int)state.range(1);
    if (tier > (int)cpuFeatures().best) {
        state.SkipWithError("tier not available on this CPU");
        return;
    }
    const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
    const auto x = inputs(-8.0f, 8.0f);  // activations' range: every branch of the piecewise ops
    std::vector<float> y(x.size());
    const float a = op == (int)VecUnaryOp::CLIP ? 0.0f : 0.2f, b = op == (int)VecUnaryOp::CLIP ? 6.0f : 0.5f;
    for (auto _ : state) {
        f.unaryF32(op, x.data(), y.data(), kElements, a, b);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel(std::string(unaryName(op)) + " unary_f32__" + cpuTierName(f.tier));
    perElement(state);
}

static void BM_Binary(benchmark::State& state) {
    const int tier = (int)state.range(0), op = (int)state.range(1), mode = (int)state.range(2);
    if (tier > (int)cpuFeatures().best) {
        state.SkipWithError("tier not available on this CPU");
        return;
    }
    const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
    const auto a = inputs(-4.0f, 4.0f), b = inputs(0.5f, 4.0f);
    std::vector<float> c(a.size());
    for (auto _ : state) {
        f.binaryF32(op, a.data(), b.data(), c.data(), kElements, mode);
        benchmark::DoNotOptimize(c.data());
    }
    static const char* names[] = {"add", "sub", "mul", "div", "max", "min"};
    state.SetLabel(std::string(names[op]) + (mode ? " scalar-operand" : "") + " binary_f32__" + cpuTierName(f.tier));
    perElement(state);
}

static void unaryArgs(benchmark::internal::Benchmark* b) {
    for (int tier = 0; tier < kCPUTierCount; ++tier) {
        for (int op = 0; op < kVecUnaryOpCount; ++op) {
            b->Args({tier, op});
        }
    }
    b->ArgNames({"tier", "op"});
}
static void binaryArgs(benchmark::internal::Benchmark* b) {
    for (int tier = 0; tier < kCPUTierCount; ++tier) {
        for (int op = 0; op <= (int)VecBinaryOp::MIN; ++op) {
            for (int mode : {0, 1}) {
                b->Args({tier, op, mode});
            }
        }
    }
    b->ArgNames({"tier", "op", "mode"});
}
BENCHMARK(BM_Unary)->Apply(unaryArgs);
BENCHMARK(BM_Binary)->Apply(binaryArgs);

BENCHMARK_MAIN();
