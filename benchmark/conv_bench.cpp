// 3x3 stride-1 convolution micro-benchmark: the im2col + packed GEMM path against Winograd F(2x2),
// F(4x4), F(6x6) (MNN_CONV_ALGO forces each) through a real session, on the 3x3 layers of
// resnet18 / resnet50 (C = M, H = W) and two inception_v3 layers, 1 and 2 threads. Reports the
// effective GFLOP/s (2 * M * C * 9 * OH * OW per run, the direct convolution's count) and, in
// the label, the algorithm the session ran. Also the engine's own choice ("auto").
// BM_ConvLayout: one convolution between two 1x1 convs (so that its input and output are packed
// with MNN_LAYOUT=packed), timed alone through the session's per-op callbacks, packed against plain;
// auto:1 rows let the engine choose (packed Winograd on the resnet 3x3 layers).
// BM_PointwiseDepthwise: the expand 1x1 + depthwise pair of an inverted residual block (packed, between
// two 1x1 convs), as two Convolutions against the fused PointwiseDepthwise op (row bands in L2).
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <chrono>
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

static void addConvOp(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out, int c,
                      int m, int k, int stride, std::mt19937& gen) {
    std::uniform_real_distribution<float> d(-0.5f, 0.5f);
    std::vector<float> w((size_t)m * c * k * k), b((size_t)m);
    for (auto& v : w)
        v = d(gen);
    for (auto& v : b)
        v = d(gen);
    mb.constant(name + "_w", {m, c, k, k}, w);
    mb.constant(name + "_b", {m}, b);
    auto op = mb.op(Schema::OpType::Convolution, name, {in, name + "_w", name + "_b"}, {out});
    Schema::ConvParamT p;
    p.kernel = {k, k};
    p.strides = {stride, stride};
    p.pads = {k / 2, k / 2, k / 2, k / 2};
    p.activation = Schema::FusedActivation::RELU;
    op->param.Set(p);
}

/**
 * Feeds x [1, c, hw, hw] = 0.25 and times, per iteration, from the start of op `first` to the end
 * of op `last` through the session's callbacks (manual time); returns the algorithm of `last`
 */
static const char* timeOps(benchmark::State& state, Interpreter* net, Session* session, int c, int hw,
                           const std::string& first, const std::string& last) {
    std::vector<float> x((size_t)c * hw * hw, 0.25f);
    auto xt = makeTensor({1, c, hw, hw}, x);
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    std::chrono::steady_clock::time_point t0;
    double seconds = 0.0;
    TensorCallBackWithInfo before = [&](const std::vector<Tensor*>&, const OperatorInfo* info) {
        if (info->name() == first) {
            t0 = std::chrono::steady_clock::now();
        }
        return true;
    };
    TensorCallBackWithInfo after = [&](const std::vector<Tensor*>&, const OperatorInfo* info) {
        if (info->name() == last) {
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        return true;
    };
    for (auto _ : state) {
        net->runSessionWithCallBackInfo(session, before, after);
        state.SetIterationTime(seconds);
    }
    return SessionIntrospect::algorithmOf(session, last.c_str());
}

static void BM_ConvLayout(benchmark::State& state) {
    const bool packed = state.range(0) != 0;
    const int c = (int)state.range(1), m = (int)state.range(2), hw = (int)state.range(3);
    const int k = (int)state.range(4), stride = (int)state.range(5), threads = (int)state.range(6);
    const bool autoAlgo = state.range(7) != 0;  // the engine's choice (Winograd too) instead of direct
    std::mt19937 gen(3);
    ModelBuilder mb;
    mb.input("x", {1, c, hw, hw});
    addConvOp(mb, "a", "x", "t1", c, c, 1, 1, gen);
    addConvOp(mb, "conv", "t1", "t2", c, m, k, stride, gen);
    addConvOp(mb, "b", "t2", "y", m, 8, 1, 1, gen);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_Normal;
    config.backendConfig = &bc;
    setenv("MNN_LAYOUT", packed ? "packed" : "plain", 1);
    if (!autoAlgo) {
        setenv("MNN_CONV_ALGO", "gemm", 1);  // the direct / im2col kernels, no Winograd
    }
    auto session = net->createSession(config);
    unsetenv("MNN_LAYOUT");
    unsetenv("MNN_CONV_ALGO");
    if (!session) {
        state.SkipWithError("createSession failed");
        return;
    }
    const char* a = timeOps(state, net.get(), session, c, hw, "conv", "conv");
    state.SetLabel(std::string(packed ? "packed" : "plain") + ": " + (a ? a : "?"));
    const double oh = (hw + stride - 1) / stride;
    state.counters["GFLOP/s"] = benchmark::Counter(2.0 * m * c * k * k * oh * oh * state.iterations(),
                                                   benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

static void layoutShapes(benchmark::internal::Benchmark* bm) {
    // C, M, HW, k, stride: resnet 1x1 / 3x3 layers, a stride-2 3x3, a mobilenet-like 1x1
    // (mobilenet_v3's 672 -> 112 projection: 7 output blocks, the last group of one; 672 -> 128 beside it)
    const int s[][5] = {{64, 64, 56, 3, 1},   {128, 128, 28, 3, 1}, {256, 256, 14, 3, 1}, {64, 256, 56, 1, 1},
                        {256, 64, 56, 1, 1},  {128, 128, 56, 3, 2}, {96, 24, 56, 1, 1},   {672, 112, 14, 1, 1},
                        {672, 128, 14, 1, 1}, {256, 512, 14, 3, 2}, {512, 512, 7, 3, 1}};
    for (int packed : {0, 1}) {
        for (auto& e : s) {
            for (int t : {1, 2}) {
                bm->Args({packed, e[0], e[1], e[2], e[3], e[4], t, 0});
            }
        }
    }
    // the packed 3x3 layers of resnet with the engine's own choice (packed Winograd)
    const int w[][3] = {{64, 64, 56}, {128, 128, 28}, {256, 256, 14}, {512, 512, 7}};
    for (auto& e : w) {
        for (int t : {1, 2}) {
            bm->Args({1, e[0], e[1], e[2], 3, 1, t, 1});
        }
    }
    bm->ArgNames({"packed", "C", "M", "HW", "k", "s", "threads", "auto"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_ConvLayout)->Apply(layoutShapes);
static void BM_PointwiseDepthwise(benchmark::State& state) {
    const bool fused = state.range(0) != 0;
    const int c = (int)state.range(1), e = (int)state.range(2), hw = (int)state.range(3);
    const int k = (int)state.range(4), stride = (int)state.range(5), threads = (int)state.range(6);
    std::mt19937 gen(5);
    std::uniform_real_distribution<float> d(-0.5f, 0.5f);
    auto rnd = [&](size_t n) {
        std::vector<float> v(n);
        for (auto& x : v) {
            x = d(gen);
        }
        return v;
    };
    ModelBuilder mb;
    mb.input("x", {1, c, hw, hw});
    addConvOp(mb, "a", "x", "t1", c, c, 1, 1, gen);
    mb.constant("w1", {e, c, 1, 1}, rnd((size_t)e * c));
    mb.constant("b1", {e}, rnd((size_t)e));
    mb.constant("w2", {e, 1, k, k}, rnd((size_t)e * k * k));
    mb.constant("b2", {e}, rnd((size_t)e));
    Schema::ConvParamT pw;
    pw.kernel = {1, 1};
    pw.activation = Schema::FusedActivation::CLIP;
    Schema::ConvParamT dw;
    dw.kernel = {k, k};
    dw.strides = {stride, stride};
    dw.pads = {k / 2, k / 2, k / 2, k / 2};
    dw.group = e;
    dw.activation = Schema::FusedActivation::CLIP;
    if (fused) {
        Schema::PointwiseDepthwiseParamT p;
        p.pointwise.reset(new Schema::ConvParamT(pw));
        p.depthwise.reset(new Schema::ConvParamT(dw));
        mb.op(Schema::OpType::PointwiseDepthwise, "last", {"t1", "w1", "b1", "w2", "b2"}, {"t2"})->param.Set(p);
    } else {
        mb.op(Schema::OpType::Convolution, "first", {"t1", "w1", "b1"}, {"mid"})->param.Set(pw);
        mb.op(Schema::OpType::Convolution, "last", {"mid", "w2", "b2"}, {"t2"})->param.Set(dw);
    }
    addConvOp(mb, "b", "t2", "y", e, 8, 1, 1, gen);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    auto session = net->createSession(config);
    if (!session) {
        state.SkipWithError("createSession failed");
        return;
    }
    const char* a = timeOps(state, net.get(), session, c, hw, fused ? "last" : "first", "last");
    state.SetLabel(a ? a : "?");
    const double oh = (hw + stride - 1) / stride;
    const double flops = 2.0 * e * c * hw * hw + 2.0 * e * k * k * oh * oh;
    state.counters["GFLOP/s"] =
        benchmark::Counter(flops * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

static void pairShapes(benchmark::internal::Benchmark* bm) {
    // C, E, HW, k, stride: mobilenet_v2 / efficientnet_b0 blocks at 112 and 56, a 5x5 stride-2 one
    const int s[][5] = {{16, 96, 112, 3, 2}, {24, 144, 56, 3, 1}, {24, 144, 56, 3, 2}, {16, 64, 112, 3, 2},
                        {24, 144, 56, 5, 2}, {32, 192, 28, 3, 1}, {64, 384, 14, 3, 1}, {160, 960, 7, 3, 1}};
    for (auto& e : s) {
        for (int t : {1, 2}) {
            for (int fused : {0, 1}) {
                bm->Args({fused, e[0], e[1], e[2], e[3], e[4], t});
            }
        }
    }
    bm->ArgNames({"fused", "C", "E", "HW", "k", "s", "threads"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_PointwiseDepthwise)->Apply(pairShapes);
BENCHMARK_MAIN();
