// Fast 2-D Max / Average pooling against the reference kernel (MNN_CONV_ALGO=reference): pads,
// stride, dilation, ceil_mode, count_include_pad, global, batch 2, 1-3 threads; Max bit-exact.
#include <math.h>
#include <stdlib.h>
#include <limits>
#include <random>
#include <string>
#include "NNTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct PoolCase {
    std::vector<int> x;
    Schema::PoolType type;
    bool global;
    std::vector<int> kernel, strides, dilations, pads;
    bool ceil, includePad;
    int nanEvery = 0;  // > 0: every nanEvery-th input element is NaN
    bool mostlyPadding = false;  // a padded plane far over the input: the direct loop, no scratch
};

struct PoolOut {
    std::vector<float> y;
    std::vector<int> shape;
    std::string algo;
};

PoolOut runPool(const PoolCase& c, int threads, bool reference) {
    if (reference) {
        setenv("MNN_CONV_ALGO", "reference", 1);
    } else {
        unsetenv("MNN_CONV_ALGO");
    }
    ModelBuilder mb;
    mb.input("x", c.x);
    auto op = mb.op(Schema::OpType::Pooling, "pool", {"x"}, {"y"});
    Schema::PoolParamT p;
    p.type = c.type;
    p.global = c.global;
    p.kernel = c.kernel;
    p.strides = c.strides;
    p.dilations = c.dilations;
    p.pads = c.pads;
    p.ceilMode = c.ceil;
    p.countIncludePad = c.includePad;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    PoolOut out;
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    auto session = net->createSession(config);
    unsetenv("MNN_CONV_ALGO");
    if (!session) {
        return out;
    }
    size_t n = 1;
    for (auto d : c.x) {
        n *= (size_t)d;
    }
    std::mt19937 g(5);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    std::vector<float> xv(n);
    for (size_t i = 0; i < xv.size(); ++i) {
        xv[i] = d(g);
        if (c.nanEvery > 0 && i % (size_t)c.nanEvery == 3) {
            xv[i] = std::numeric_limits<float>::quiet_NaN();
        }
    }
    auto xt = makeTensor(c.x, xv);
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    if (net->runSession(session) != NO_ERROR) {
        return out;
    }
    auto y = net->getSessionOutput(session, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    out.shape = host.shape();
    out.y.assign(host.host<float>(), host.host<float>() + host.elementSize());
    const char* algo = SessionIntrospect::algorithmOf(session, "pool");
    out.algo = algo ? algo : "";
    return out;
}

} // namespace

TEST(PoolingFast, MatchesReference) {
    using T = Schema::PoolType;
    const std::vector<PoolCase> cases = {
        {{2, 3, 11, 12}, T::MAXPOOL, false, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, false, false},  // resnet stem
        {{1, 4, 10, 9}, T::MAXPOOL, false, {3, 2}, {2, 2}, {2, 1}, {1, 0, 2, 1}, true, false},
        {{1, 2, 7, 7}, T::MAXPOOL, false, {2, 2}, {1, 1}, {1, 1}, {0, 0, 0, 0}, false, false},
        {{2, 3, 9, 10}, T::AVERAGEPOOL, false, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, false, false},
        {{2, 3, 9, 10}, T::AVERAGEPOOL, false, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, false, true},
        {{1, 5, 8, 11}, T::AVERAGEPOOL, false, {3, 4}, {3, 2}, {1, 1}, {0, 1, 1, 2}, true, true},
        {{1, 5, 8, 11}, T::AVERAGEPOOL, false, {2, 2}, {2, 2}, {2, 2}, {1, 1, 1, 1}, true, false},
        {{2, 6, 7, 5}, T::AVERAGEPOOL, true, {}, {}, {}, {}, false, false},
        {{2, 6, 7, 5}, T::MAXPOOL, true, {}, {}, {}, {}, false, false},
        // windows entirely in the padding (left pad wider than the kernel), wide rows, stride 3 (direct loop)
        {{1, 2, 5, 3}, T::MAXPOOL, false, {2, 2}, {2, 2}, {1, 1}, {0, 3, 0, 0}, false, false},
        {{1, 2, 5, 3}, T::AVERAGEPOOL, false, {2, 2}, {2, 2}, {1, 1}, {0, 3, 0, 0}, false, true},
        {{1, 3, 6, 75}, T::MAXPOOL, false, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, false, false},
        {{1, 3, 6, 75}, T::AVERAGEPOOL, false, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, false, false},
        {{1, 3, 10, 10}, T::MAXPOOL, false, {3, 3}, {3, 3}, {1, 1}, {1, 1, 1, 1}, false, false},
        // NaN inputs: any NaN in a max window gives NaN (vector, direct and reference alike)
        {{1, 2, 9, 11}, T::MAXPOOL, false, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, false, false, 29},
        {{1, 2, 9, 11}, T::MAXPOOL, false, {3, 3}, {3, 3}, {1, 1}, {1, 1, 1, 1}, false, false, 29},
        // whole-plane averages (the vector sum): large plane, and a window equal to the input
        {{1, 4, 56, 57}, T::AVERAGEPOOL, true, {}, {}, {}, {}, false, false},
        {{2, 3, 9, 10}, T::AVERAGEPOOL, false, {9, 10}, {1, 1}, {1, 1}, {0, 0, 0, 0}, false, false},
        // windows and pads far over a tiny input (a 2003 x 2003 padded plane for 4 x 4 / 5 x 5): the
        // direct loop (a padded plane would have taken 16 MB of scratch and 9 MB of tap offsets)
        {{1, 2, 4, 4}, T::MAXPOOL, false, {1500, 1500}, {1, 1}, {1, 1}, {750, 750, 750, 750}, false, false, 0, true},
        {{1, 2, 5, 5},
         T::AVERAGEPOOL,
         false,
         {3, 3},
         {1, 1},
         {1000, 1000},
         {1000, 1000, 1000, 1000},
         false,
         true,
         0,
         true},
        {{1, 2, 5, 5},
         T::MAXPOOL,
         false,
         {3, 3},
         {2, 2},
         {1000, 1000},
         {1000, 1000, 1000, 1000},
         false,
         false,
         0,
         true},
    };
    for (size_t ci = 0; ci < cases.size(); ++ci) {
        PoolOut ref = runPool(cases[ci], 1, true);
        ASSERT_FALSE(ref.y.empty()) << "case " << ci;
        EXPECT_EQ(ref.algo, "reference");
        const auto& c = cases[ci];
        const bool whole = c.type == T::AVERAGEPOOL && (c.global || (c.kernel[0] == c.x[2] && c.kernel[1] == c.x[3]));
        for (int run = 0; run < 3 * kCPUTierCount; ++run) {
            const int threads = 1 + run % 3, tier = run / 3;
            if (tier > (int)cpuFeatures().best) {
                break;
            }
            cpuSetTierOverride(tier);
            PoolOut fast = runPool(cases[ci], threads, false);
            cpuSetTierOverride(-1);
            ASSERT_EQ(fast.shape, ref.shape) << "case " << ci;
            const std::string vec = std::string("pool_rows__") + cpuTierName((CPUTier)tier) +
                                    (c.type == T::MAXPOOL ? " max" : " avg");
            const bool direct = !whole && !c.global && (c.strides[1] > 2 || c.mostlyPadding);
            EXPECT_EQ(fast.algo, whole ? std::string("global-average-vector") : (direct ? std::string("pool2d-direct") : vec))
                << "case " << ci;
            for (size_t i = 0; i < ref.y.size(); ++i) {
                if (cases[ci].type == T::MAXPOOL) {
                    if (ref.y[i] != ref.y[i]) {
                        ASSERT_TRUE(fast.y[i] != fast.y[i]) << "case " << ci << " [" << i << "]";
                        continue;
                    }
                    ASSERT_EQ(fast.y[i], ref.y[i]) << "case " << ci << " [" << i << "]";
                } else {
                    ASSERT_NEAR(fast.y[i], ref.y[i], 1e-6 * (1.0 + fabs(ref.y[i]))) << "case " << ci << " [" << i << "]";
                }
            }
        }
    }
}
