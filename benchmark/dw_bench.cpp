// Depthwise convolution micro-benchmark through a real session: the row kernel (dwconv_rows__<isa>
// over a padded plane) against the across-channels kernel (dwconv_channels__<isa>), forced with
// MNN_DW_ALGO, and the engine's own choice, on the depthwise layers of mobilenet_v2 (3x3) and
// efficientnet_b0 (5x5), 1 and 2 threads. Reports GFLOP/s (2 * C * taps * OH * OW per run) and,
// in the label, the algorithm the session ran. BM_PackedDepthwiseRows: the packed layout's row
// kernel (dwpack__<isa>, what models run: their depthwise layers sit between packed layers) on
// every tier of this CPU, over the planes of C / 16 blocks, one thread.
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include "../test/ModelBuilder.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUFeatures.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

static const char* kAlgos[] = {"rows", "channels", ""};

static void BM_Depthwise(benchmark::State& state) {
    const int algo = (int)state.range(0);
    const int c = (int)state.range(1), hw = (int)state.range(2), stride = (int)state.range(3);
    const int k = (int)state.range(4), threads = (int)state.range(5);
    std::mt19937 gen(1);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> w((size_t)c * k * k), b((size_t)c), x((size_t)c * hw * hw);
    for (auto& v : w)
        v = d(gen);
    for (auto& v : b)
        v = d(gen);
    for (auto& v : x)
        v = d(gen);
    ModelBuilder mb;
    mb.input("x", {1, c, hw, hw});
    mb.constant("w", {c, 1, k, k}, w);
    mb.constant("b", {c}, b);
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", "b"}, {"y"});
    Schema::ConvParamT p;
    p.kernel = {k, k};
    p.strides = {stride, stride};
    p.pads = {k / 2, k / 2, k / 2, k / 2};
    p.group = c;
    p.activation = Schema::FusedActivation::CLIP;
    p.clipMin = 0.0f;
    p.clipMax = 6.0f;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    if (kAlgos[algo][0]) {
        setenv("MNN_DW_ALGO", kAlgos[algo], 1);
    }
    auto session = net->createSession(config);
    unsetenv("MNN_DW_ALGO");
    if (!session) {
        state.SkipWithError("createSession failed");
        return;
    }
    auto xt = makeTensor({1, c, hw, hw}, x);
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    for (auto _ : state) {
        net->runSession(session);
    }
    const int o = (hw + stride - 1) / stride;
    const char* a = SessionIntrospect::algorithmOf(session, "conv");
    state.SetLabel(std::string(kAlgos[algo][0] ? kAlgos[algo] : "auto") + ": " + (a ? a : "?"));
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * c * k * k * o * o * state.iterations(),
                                                   benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

static void shapes(benchmark::internal::Benchmark* bm) {
    // C, HW, stride, kernel
    const int s[][4] = {{96, 112, 2, 3}, {144, 56, 1, 3}, {192, 28, 1, 3}, {384, 14, 1, 3},
                        {960, 7, 1, 3},  {240, 28, 1, 5}, {672, 14, 1, 5}, {1152, 7, 1, 5}};
    for (int algo = 0; algo < 3; ++algo) {
        for (auto& e : s) {
            for (int t : {1, 2}) {
                bm->Args({algo, e[0], e[1], e[2], e[3], t});
            }
        }
    }
    bm->ArgNames({"algo", "C", "HW", "stride", "k", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_Depthwise)->Apply(shapes);

static void BM_PackedDepthwiseRows(benchmark::State& state) {
    const int tier = (int)state.range(0);
    const int c = (int)state.range(1), hw = (int)state.range(2), stride = (int)state.range(3);
    const int k = (int)state.range(4);
    if (tier > (int)cpuFeatures().best) {
        state.SkipWithError("tier not available on this CPU");
        return;
    }
    const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
    const int blocks = (c + 15) / 16, pad = k / 2, o = (hw + 2 * pad - k) / stride + 1;
    std::mt19937 gen(1);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> x((size_t)blocks * hw * hw * 16), w((size_t)blocks * k * k * 16), b((size_t)blocks * 16);
    std::vector<float> y((size_t)blocks * o * o * 16);
    for (auto& v : x)
        v = d(gen);
    for (auto& v : w)
        v = d(gen);
    for (auto& v : b)
        v = d(gen);
    GemmPost post;
    post.act = 2;
    post.lo = 0.0f;
    post.hi = 6.0f;
    // output columns whose whole window lies inside the row
    int in0 = 0;
    while (in0 < o && in0 * stride - pad < 0) {
        ++in0;
    }
    int in1 = in0;
    while (in1 < o && in1 * stride - pad + k - 1 < hw) {
        ++in1;
    }
    for (auto _ : state) {
        for (int bk = 0; bk < blocks; ++bk) {
            for (int oy = 0; oy < o; ++oy) {
                const int i0 = oy * stride - pad, k0 = i0 < 0 ? -i0 : 0, k1 = std::min(k, hw - i0);
                PackedDwRow r;
                r.x = x.data() + ((size_t)bk * hw + (size_t)(i0 + k0)) * hw * 16;
                r.xRowStep = (int64_t)hw * 16;
                r.rows = k1 - k0;
                r.w = w.data() + ((size_t)bk * k + (size_t)k0) * k * 16;
                r.bias = b.data() + bk * 16;
                r.y = y.data() + ((size_t)bk * o + oy) * o * 16;
                r.iw = hw;
                r.ow = o;
                r.kw = k;
                r.sw = stride;
                r.dw = 1;
                r.pl = pad;
                r.in0 = in0;
                r.in1 = in1;
                r.post = &post;
                f.packedDw(&r);
            }
        }
        benchmark::DoNotOptimize(y.data());
    }
    state.SetLabel(f.packedDwName);
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * blocks * 16 * k * k * o * o * state.iterations(),
                                                   benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

static void packedShapes(benchmark::internal::Benchmark* bm) {
    // C, HW, stride, kernel: the layers above plus mobilenet_v2's first (32 channels at 112)
    const int s[][4] = {{32, 112, 1, 3}, {96, 112, 2, 3}, {144, 56, 1, 3}, {192, 28, 1, 3}, {384, 14, 1, 3},
                        {960, 7, 1, 3},  {240, 28, 1, 5}, {672, 14, 1, 5}, {1152, 7, 1, 5}};
    for (int tier = 0; tier <= (int)CPUTier::AVX512; ++tier) {
        for (auto& e : s) {
            bm->Args({tier, e[0], e[1], e[2], e[3]});
        }
    }
    bm->ArgNames({"tier", "C", "HW", "stride", "k"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_PackedDepthwiseRows)->Apply(packedShapes);
BENCHMARK_MAIN();
