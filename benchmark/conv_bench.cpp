// 3x3 stride-1 convolution micro-benchmark: the im2col + packed GEMM path against Winograd F(2x2),
// F(4x4), F(6x6) (MNN_CONV_ALGO forces each) through a real session, on the 3x3 layers of
// resnet18 / resnet50 (C = M, H = W) and two inception_v3 layers, 1 and 2 threads. Reports the
// effective GFLOP/s (2 * M * C * 9 * OH * OW per run, the direct convolution's count) and, in
// the label, the algorithm the session ran. Also the engine's own choice ("auto").
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <memory>
#include <random>
#include <string>
#include <vector>
#include "../test/ModelBuilder.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

static const char* kAlgos[] = {"gemm", "winograd2", "winograd4", "winograd6", ""};

static void BM_Conv3x3(benchmark::State& state) {
    const int algo = (int)state.range(0);
    const int c = (int)state.range(1), m = (int)state.range(2), hw = (int)state.range(3);
    const int threads = (int)state.range(4);
    std::mt19937 gen(1);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> w((size_t)m * c * 9), b((size_t)m), x((size_t)c * hw * hw);
    for (auto& v : w)
        v = d(gen);
    for (auto& v : b)
        v = d(gen);
    for (auto& v : x)
        v = d(gen);
    ModelBuilder mb;
    mb.input("x", {1, c, hw, hw});
    mb.constant("w", {m, c, 3, 3}, w);
    mb.constant("b", {m}, b);
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", "b"}, {"y"});
    Schema::ConvParamT p;
    p.kernel = {3, 3};
    p.pads = {1, 1, 1, 1};
    p.activation = Schema::FusedActivation::RELU;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_Normal;
    config.backendConfig = &bc;
    if (kAlgos[algo][0]) {
        setenv("MNN_CONV_ALGO", kAlgos[algo], 1);
    }
    auto session = net->createSession(config);
    unsetenv("MNN_CONV_ALGO");
    if (!session) {
        state.SkipWithError("createSession failed");
        return;
    }
    auto xt = makeTensor({1, c, hw, hw}, x);
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    for (auto _ : state) {
        net->runSession(session);
    }
    const char* a = SessionIntrospect::algorithmOf(session, "conv");
    state.SetLabel(std::string(kAlgos[algo][0] ? kAlgos[algo] : "auto") + ": " + (a ? a : "?"));
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * m * c * 9 * hw * hw * state.iterations(),
                                                   benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

static void shapes(benchmark::internal::Benchmark* bm) {
    const int s[][3] = {{64, 64, 56}, {128, 128, 28}, {256, 256, 14}, {512, 512, 7}, {64, 96, 35}, {96, 96, 35}};
    for (int algo = 0; algo < 5; ++algo) {
        for (auto& e : s) {
            for (int t : {1, 2}) {
                bm->Args({algo, e[0], e[1], e[2], t});
            }
        }
    }
    bm->ArgNames({"algo", "C", "M", "HW", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_Conv3x3)->Apply(shapes);
BENCHMARK_MAIN();
