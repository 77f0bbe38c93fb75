// Helpers for tests of the CPU's packed activation layout (NC16HW16): build graphs whose
// intermediate tensors the Session keeps packed, and run a model with the layout on or off.
#ifndef MNN_TEST_OPS_PACKEDTESTUTILS_HPP
#define MNN_TEST_OPS_PACKEDTESTUTILS_HPP

#include <gtest/gtest.h>
#include <MNN/Interpreter.hpp>
#include <math.h>
#include <stdlib.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "core/SessionIntrospect.hpp"

namespace MNN {
namespace Test {

/** a 2-D convolution with constant random weights (and bias) named `name` */
inline Schema::OpT* addConv(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out,
                            int cin, int cout, int kh, int kw, int stride, int pad, int group, unsigned seed,
                            Schema::FusedActivation act = Schema::FusedActivation::NONE, int dilation = 1) {
    const int cg = cin / group;
    mb.constant(name + "_w", {cout, cg, kh, kw}, randomFloats((size_t)cout * cg * kh * kw, seed, -0.5f, 0.5f));
    mb.constant(name + "_b", {cout}, randomFloats((size_t)cout, seed + 1));
    auto op = mb.op(Schema::OpType::Convolution, name, {in, name + "_w", name + "_b"}, {out});
    Schema::ConvParamT p;
    p.kernel = {kh, kw};
    p.strides = {stride, stride};
    p.dilations = {dilation, dilation};
    p.pads = {pad, pad, pad, pad};
    p.group = group;
    p.activation = act;
    p.clipMin = 0.0f;
    p.clipMax = 6.0f;
    op->param.Set(p);
    return op;
}

struct LayoutRun {
    ErrorCode code = NO_ERROR;
    std::map<std::string, std::vector<float>> outputs;
    std::map<std::string, std::vector<int>> shapes;
    /** tensor name -> layout of every op output ("NCHW", "NC16HW16") */
    std::map<std::string, std::string> layouts;
    /** op name -> algorithm */
    std::map<std::string, std::string> algorithms;
};

/**
 * Runs `model` once with MNN_LAYOUT=layout ("packed" / "plain") and, when convAlgo is set,
 * MNN_CONV_ALGO=convAlgo; every graph output is returned as NCHW floats.
 */
inline LayoutRun runWithLayout(const std::vector<uint8_t>& model, const std::map<std::string, const Tensor*>& inputs,
                               const char* layout, int threads = 1, const char* convAlgo = nullptr,
                               BackendConfig::PrecisionMode precision = BackendConfig::Precision_High,
                               BackendConfig::MemoryMode memory = BackendConfig::Memory_Normal, int arenaLimitMB = 0) {
    LayoutRun r;
    setenv("MNN_LAYOUT", layout, 1);
    if (convAlgo) {
        setenv("MNN_CONV_ALGO", convAlgo, 1);
    }
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (net && arenaLimitMB > 0) {
        net->setSessionHint(Interpreter::ARENA_SIZE_LIMIT_MB, arenaLimitMB);
    }
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
    for (auto& kv : inputs) {
        auto t = net->getSessionInput(session, kv.first.c_str());
        if (t->shape() != kv.second->shape()) {
            net->resizeTensor(t, kv.second->shape());
            net->resizeSession(session);
        }
        t->copyFromHostTensor(kv.second);
    }
    r.code = net->runSession(session);
    unsetenv("MNN_LAYOUT");
    unsetenv("MNN_CONV_ALGO");
    for (auto& op : SessionIntrospect::ops(session)) {
        r.algorithms[op.name] = op.algorithm;
        for (size_t i = 0; i < op.outputs.size(); ++i) {
            r.layouts[op.outputs[i]] = op.outputLayouts[i];
        }
    }
    for (auto& kv : net->getSessionOutputAll(session)) {
        Tensor host(kv.second, Tensor::CAFFE, true);
        kv.second->copyToHostTensor(&host);
        r.shapes[kv.first] = host.shape();
        r.outputs[kv.first].assign(host.host<float>(), host.host<float>() + host.elementSize());
    }
    return r;
}

/** max |a - b| / max(1, max |b|) over every output; adds a failure when the outputs differ in shape */
inline double maxRelativeDiff(const LayoutRun& a, const LayoutRun& b) {
    double worst = 0.0;
    for (auto& kv : b.outputs) {
        auto it = a.outputs.find(kv.first);
        if (it == a.outputs.end() || it->second.size() != kv.second.size()) {
            ADD_FAILURE() << "output " << kv.first << " missing or of another size";
            return 1e30;
        }
        double scale = 1.0;
        for (auto v : kv.second) {
            scale = std::max(scale, (double)std::fabs(v));
        }
        for (size_t i = 0; i < kv.second.size(); ++i) {
            double d = std::fabs((double)it->second[i] - (double)kv.second[i]) / scale;
            if (std::isnan(d)) {
                return INFINITY;
            }
            worst = std::max(worst, d);
        }
    }
    return worst;
}

/**
 * like maxRelativeDiff (scale max(floor, max |b|) over b's non-NaN values), but NaN must appear at
 * the same places in both (then it counts as equal)
 */
inline double nanAwareDiff(const LayoutRun& a, const LayoutRun& b, double floor = 1.0) {
    double worst = 0.0;
    for (auto& kv : b.outputs) {
        auto it = a.outputs.find(kv.first);
        if (it == a.outputs.end() || it->second.size() != kv.second.size()) {
            ADD_FAILURE() << "output " << kv.first << " missing or of another size";
            return 1e30;
        }
        double scale = floor;
        for (auto v : kv.second) {
            scale = std::isnan(v) ? scale : std::max(scale, (double)std::fabs(v));
        }
        for (size_t i = 0; i < kv.second.size(); ++i) {
            const float x = it->second[i], y = kv.second[i];
            if (std::isnan(x) || std::isnan(y)) {
                worst = std::isnan(x) && std::isnan(y) ? worst : INFINITY;
                continue;
            }
            worst = std::max(worst, std::fabs((double)x - (double)y) / scale);
        }
    }
    return worst;
}

/**
 * Runs `model` on random x (seeded) with the layout off (reference kernels) and then packed on every
 * ISA tier at 1-3 threads: the `packed` tensors must be NC16HW16, op's algorithm must start with
 * `algorithm` (a prefix: unaligned concats add their gather kernel, "packed-concat pgather__avx512"),
 * and the outputs must match the reference. layout "plain" runs the fast plain kernels instead of
 * the packed ones (MNN_LAYOUT, as runWithLayout).
 */
inline void expectPackedMatchesReference(const std::vector<uint8_t>& model, const std::vector<int>& xDims,
                                         const std::vector<std::string>& packed, const std::string& op,
                                         const std::string& algorithm, unsigned seed, const char* layout = "packed") {
    size_t count = 1;
    for (auto d : xDims) {
        count *= (size_t)d;
    }
    auto x = makeTensor(xDims, randomFloats(count, seed));
    auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        for (int threads = 1; threads <= 3; ++threads) {
            auto r = runWithLayout(model, {{"x", x.get()}}, layout, threads);
            ASSERT_EQ(r.code, NO_ERROR);
            for (auto& t : packed) {
                EXPECT_EQ(r.layouts[t], "NC16HW16") << t;
            }
            EXPECT_EQ(r.algorithms[op].rfind(algorithm, 0), 0u) << r.algorithms[op];
            EXPECT_LT(maxRelativeDiff(r, ref), 1e-5) << "tier " << tier << " threads " << threads;
        }
    }
    cpuSetTierOverride(-1);
}

}  // namespace Test
}  // namespace MNN
#endif
