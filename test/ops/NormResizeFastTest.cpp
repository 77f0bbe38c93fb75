// The fast LayerNorm / RMSNorm and 2-D float Resize paths against the reference kernels
// (MNN_NORM_ALGO=reference / MNN_RESIZE_ALGO=reference) on every tier, 1-3 threads, both precision
// modes, edge shapes (rows shorter than a vector, odd sizes, long rows), scale / bias present or
// absent, every coordinate transform and nearest rounding mode, up- and downsampling. Nearest
// resizes copy values, so they must match bit for bit (NaN and inf included).
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

struct OpRun {
    ErrorCode code = INVALID_VALUE;
    std::map<std::string, std::vector<float>> y;
    std::map<std::string, std::vector<int>> shape;
    std::string algorithm;
};

// runs `model` (one op named "op") with x fed, returns the named outputs and the op's algorithm
OpRun runOnce(const std::vector<uint8_t>& model, const std::vector<int>& xDims, const std::vector<float>& x,
              const std::vector<std::string>& outs, int threads, BackendConfig::PrecisionMode precision,
              const char* envName, bool reference, const std::map<std::string, std::vector<float>>& extra = {}) {
    OpRun r;
    if (reference) {
        setenv(envName, "reference", 1);
    }
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    BackendConfig bc;
    bc.precision = precision;
    config.backendConfig = &bc;
    auto session = net ? net->createSession(config) : nullptr;
    if (!session) {
        unsetenv(envName);
        return r;
    }
    auto xt = makeTensor(xDims, x);
    net->getSessionInput(session, "x")->copyFromHostTensor(xt.get());
    for (auto& kv : extra) {
        auto t = net->getSessionInput(session, kv.first.c_str());
        auto h = makeTensor(t->shape(), kv.second);
        t->copyFromHostTensor(h.get());
    }
    r.code = net->runSession(session);
    unsetenv(envName);
    if (r.code != NO_ERROR) {
        return r;
    }
    for (auto& name : outs) {
        auto y = net->getSessionOutput(session, name.c_str());
        Tensor host(y, Tensor::CAFFE, true);
        y->copyToHostTensor(&host);
        r.shape[name] = host.shape();
        r.y[name].assign(host.host<float>(), host.host<float>() + host.elementSize());
    }
    const char* algo = SessionIntrospect::algorithmOf(session, "op");
    r.algorithm = algo ? algo : "";
    return r;
}

// |a - b| <= atol + rtol * |b|, NaN only where NaN, inf equal; reports the first mismatch
::testing::AssertionResult close(const std::vector<float>& got, const std::vector<float>& want, double atol,
                                 double rtol) {
    if (got.size() != want.size()) {
        return ::testing::AssertionFailure() << "size " << got.size() << " vs " << want.size();
    }
    for (size_t i = 0; i < want.size(); ++i) {
        const float g = got[i], w = want[i];
        bool ok;
        if (w != w) {
            ok = g != g;
        } else if (std::isinf(w)) {
            ok = g == w;
        } else {
            ok = fabs((double)g - w) <= atol + rtol * fabs((double)w);
        }
        if (!ok) {
            return ::testing::AssertionFailure() << "[" << i << "] got " << g << " want " << w;
        }
    }
    return ::testing::AssertionSuccess();
}

std::vector<float> values(size_t n, unsigned seed, float offset) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& e : v) {
        e = d(gen) + offset;
    }
    return v;
}

struct NormCase {
    std::vector<int> dims;
    int axis;
    int scaleBias;                    // 0 none, 1 scale, 2 scale + bias over the whole normalised shape
    bool fast;                        // the fast path is expected
    std::vector<int> scaleDims = {};  // overrides the normalised shape (broadcast: reference)
};

std::vector<uint8_t> normModel(Schema::OpType type, const NormCase& c, std::vector<int>* sDims) {
    ModelBuilder mb;
    mb.input("x", c.dims);
    const int rank = (int)c.dims.size();
    const int a = c.axis < 0 ? c.axis + rank : c.axis;
    std::vector<int> norm(c.dims.begin() + a, c.dims.end());
    *sDims = c.scaleDims.empty() ? norm : c.scaleDims;
    size_t n = 1;
    for (int d : *sDims) {
        n *= (size_t)d;
    }
    std::vector<std::string> ins = {"x"};
    const bool rms = type == Schema::OpType::RMSNorm;
    if (c.scaleBias >= 1) {
        mb.constant("s", *sDims, values(n, 5, 0.5f));
        ins.push_back("s");
    }
    if (c.scaleBias == 2 && !rms) {  // RMSNorm has no bias
        mb.constant("b", *sDims, values(n, 6, 0.0f));
        ins.push_back("b");
    }
    std::vector<std::string> outs = {"y"};
    if (!rms) {
        outs.push_back("mean");
        outs.push_back("inv");
    }
    auto op = mb.op(type, "op", ins, outs);
    Schema::NormParamT p;
    p.epsilon = 1e-5f;
    p.axis = c.axis;
    op->param.Set(p);
    for (auto& o : outs) {
        mb.output(o);
    }
    return mb.finish();
}

}  // namespace

TEST(NormFast, MatchesReferenceOnEveryTierThreadsAndPrecision) {
    const std::vector<NormCase> cases = {
        {{3, 1}, -1, 0, true},
        {{2, 3}, -1, 2, true},
        {{4, 7}, -1, 1, true},
        {{5, 17}, -1, 2, true},
        {{2, 64}, -1, 0, true},
        {{3, 100}, -1, 0, true},
        {{40, 768}, -1, 2, true},
        {{2, 5000}, -1, 2, true},
        {{2, 3, 4, 5}, 1, 2, true},
        {{2, 3, 4, 5}, 2, 1, true},
        {{7, 33}, -1, 2, true},
        // scale broadcast over part of the normalised shape: the reference
        {{2, 3, 4, 5}, 2, 1, false, {5}},
    };
    const int best = (int)cpuFeatures().best;
    unsigned seed = 100;
    for (auto type : {Schema::OpType::LayerNorm, Schema::OpType::RMSNorm}) {
        for (auto& c : cases) {
            std::vector<int> sDims;
            auto model = normModel(type, c, &sDims);
            size_t n = 1;
            for (int d : c.dims) {
                n *= (size_t)d;
            }
            // an offset of 3 makes the mean large against the spread (cancellation in x - mean)
            auto x = values(n, ++seed, (seed % 2) ? 3.0f : 0.0f);
            const std::vector<std::string> outs = type == Schema::OpType::RMSNorm
                                                      ? std::vector<std::string>{"y"}
                                                      : std::vector<std::string>{"y", "mean", "inv"};
            OpRun ref = runOnce(model, c.dims, x, outs, 1, BackendConfig::Precision_High, "MNN_NORM_ALGO", true);
            ASSERT_EQ(ref.code, NO_ERROR);
            ASSERT_EQ(ref.algorithm, "reference");
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                for (int threads = 1; threads <= 3; ++threads) {
                    for (auto prec : {BackendConfig::Precision_High, BackendConfig::Precision_Normal}) {
                        SCOPED_TRACE(::testing::Message()
                                     << Schema::EnumNameOpType(type) << " dims[-1] " << c.dims.back() << " axis "
                                     << c.axis << " scaleBias " << c.scaleBias << " tier " << tier << " threads "
                                     << threads << " precision " << (int)prec);
                        OpRun fast = runOnce(model, c.dims, x, outs, threads, prec, "MNN_NORM_ALGO", false);
                        ASSERT_EQ(fast.code, NO_ERROR);
                        EXPECT_EQ(fast.algorithm, c.fast ? std::string("layernorm__") + cpuTierName((CPUTier)tier)
                                                         : std::string("reference"));
                        const bool high = prec == BackendConfig::Precision_High;
                        for (auto& o : outs) {
                            ASSERT_EQ(fast.shape[o], ref.shape[o]);
                            EXPECT_TRUE(close(fast.y[o], ref.y[o], high ? 2e-6 : 2e-5, high ? 2e-6 : 2e-5)) << o;
                        }
                    }
                }
            }
            cpuSetTierOverride(-1);
        }
    }
}

// the row kernels directly: rows shorter than a vector, odd lengths, y == x, RMS, constant rows
TEST(NormFast, RowKernelAgainstDoubleFormula) {
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        ASSERT_NE(f.layerNormRow, nullptr);
        for (int n : {1, 2, 3, 5, 8, 15, 16, 17, 31, 33, 64, 65, 1023, 1025, 4099}) {
            for (int flags = 0; flags < 4; ++flags) {
                auto x = values((size_t)n, (unsigned)(n * 7 + flags), flags & 1 ? 0.0f : 10.0f);
                auto s = values((size_t)n, 3, 1.0f), b = values((size_t)n, 4, 0.0f);
                double sum = 0, sq = 0;
                for (float v : x) {
                    sum += v;
                }
                const bool rms = (flags & kNormRms) != 0;
                const double mean = rms ? 0.0 : sum / n;
                for (float v : x) {
                    sq += (v - mean) * (v - mean);
                }
                const double inv = 1.0 / sqrt(sq / n + 1e-5);
                std::vector<float> y(x);  // in place
                y.push_back(777.0f);
                float stats[2];
                f.layerNormRow(y.data(), y.data(), n, s.data(), flags & 2 ? b.data() : nullptr, 1e-5f, flags, stats);
                EXPECT_EQ(y[(size_t)n], 777.0f) << "wrote past the end";
                EXPECT_NEAR(stats[0], mean, 1e-6 * (1 + fabs(mean)));
                EXPECT_NEAR(stats[1], inv, 1e-5 * inv);
                const double tol = (flags & kNormHigh) ? 1e-6 : 2e-5;
                for (int i = 0; i < n; ++i) {
                    const double want = (x[i] - mean) * inv * s[i] + ((flags & 2) ? b[i] : 0.0);
                    if (!(fabs(y[i] - want) <= tol * (1 + fabs(want)))) {
                        ADD_FAILURE() << cpuTierName(f.tier) << " n " << n << " flags " << flags << " [" << i << "] "
                                      << y[i] << " want " << want;
                        break;
                    }
                }
            }
        }
        // a constant row: variance 0, every output equals the bias
        std::vector<float> c(37, 2.5f), y(37);
        float stats[2];
        f.layerNormRow(c.data(), y.data(), 37, nullptr, nullptr, 1e-5f, 0, stats);
        EXPECT_EQ(stats[0], 2.5f);
        for (float v : y) {
            EXPECT_EQ(v, 0.0f);
        }
    }
}

namespace {

using CT = Schema::CoordTransform;
using RM = Schema::ResizeMode;
using NM = Schema::NearestMode;

struct RzCase {
    std::vector<int> in;
    std::vector<float> scales;  // or
    std::vector<int64_t> sizes;
};

std::vector<uint8_t> resizeModel(const std::vector<int>& in, const RzCase& c, RM mode, CT coord, NM nearest,
                                 bool exclude, bool antialias, bool scalesAsInput) {
    ModelBuilder mb;
    mb.input("x", in);
    std::vector<std::string> ins = {"x", "", "", ""};
    if (!c.scales.empty()) {
        if (scalesAsInput) {
            mb.input("scales", {(int)c.scales.size()});
        } else {
            mb.constant("scales", {(int)c.scales.size()}, c.scales);
        }
        ins[2] = "scales";
    } else {
        mb.constantInt64("sizes", {(int)c.sizes.size()}, c.sizes);
        ins[3] = "sizes";
    }
    if (coord == CT::TF_CROP_AND_RESIZE) {
        std::vector<float> roi(in.size() * 2, 0.0f);
        for (size_t d = 0; d < in.size(); ++d) {
            roi[in.size() + d] = 1.0f;
        }
        roi[in.size() - 1] = 0.2f;
        mb.constant("roi", {(int)roi.size()}, roi);
        ins[1] = "roi";
    }
    auto op = mb.op(Schema::OpType::Resize, "op", ins, {"y"});
    Schema::ResizeParamT p;
    p.mode = mode;
    p.coordTransform = coord;
    p.nearestMode = nearest;
    p.excludeOutside = exclude;
    p.antialias = antialias;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

void compareResize(const RzCase& c, RM mode, CT coord, NM nearest, bool exclude, bool antialias, bool expectFast,
                   bool scalesAsInput = false) {
    auto model = resizeModel(c.in, c, mode, coord, nearest, exclude, antialias, scalesAsInput);
    size_t n = 1;
    for (int d : c.in) {
        n *= (size_t)d;
    }
    auto x = values(n, (unsigned)n, 0.0f);
    x[n / 3] = std::numeric_limits<float>::quiet_NaN();
    if (n > 5) {
        x[n - 2] = std::numeric_limits<float>::infinity();
    }
    std::map<std::string, std::vector<float>> extra;
    if (scalesAsInput) {
        extra["scales"] = c.scales;
    }
    OpRun ref = runOnce(model, c.in, x, {"y"}, 1, BackendConfig::Precision_High, "MNN_RESIZE_ALGO", true, extra);
    ASSERT_EQ(ref.code, NO_ERROR);
    ASSERT_EQ(ref.algorithm, "reference");
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        for (int threads = 1; threads <= 3; ++threads) {
            SCOPED_TRACE(::testing::Message()
                         << "in[-1] " << c.in.back() << " mode " << (int)mode << " coord " << (int)coord << " nearest "
                         << (int)nearest << " tier " << tier << " threads " << threads);
            OpRun fast = runOnce(model, c.in, x, {"y"}, threads, BackendConfig::Precision_Normal, "MNN_RESIZE_ALGO",
                                 false, extra);
            ASSERT_EQ(fast.code, NO_ERROR);
            EXPECT_EQ(fast.algorithm,
                      expectFast ? std::string("resize__") + cpuTierName((CPUTier)tier) : std::string("reference"));
            ASSERT_EQ(fast.shape["y"], ref.shape["y"]);
            const double tol = mode == RM::NEAREST ? 0.0 : 2e-6;
            EXPECT_TRUE(close(fast.y["y"], ref.y["y"], tol, tol));
        }
    }
    cpuSetTierOverride(-1);
}

const std::vector<RzCase>& resizeCases() {
    static const std::vector<RzCase> cases = {
        {{2, 3, 5, 7}, {1, 1, 2, 2}, {}},        // upsample x2
        {{1, 2, 9, 13}, {}, {1, 2, 4, 5}},       // downsample to odd sizes
        {{1, 1, 1, 1}, {}, {1, 1, 3, 5}},        // one pixel
        {{1, 1, 4, 3}, {1, 1, 0.6f, 2.7f}, {}},  // fractional scales, up and down at once
        {{2, 7, 11}, {1, 2.5f, 1.5f}, {}},       // 3-D
        {{1, 3, 24, 40}, {}, {1, 3, 49, 81}},    // long rows, enough work for the thread pool
        {{1, 2, 6, 6}, {1, 1, 1, 1}, {}},        // identity
    };
    return cases;
}

}  // namespace

TEST(ResizeFast, NearestEveryModeMatchesReferenceBitForBit) {
    for (auto& c : resizeCases()) {
        for (CT coord : {CT::HALF_PIXEL, CT::ASYMMETRIC, CT::ALIGN_CORNERS, CT::PYTORCH_HALF_PIXEL,
                         CT::TF_HALF_PIXEL_FOR_NN, CT::HALF_PIXEL_SYMMETRIC}) {
            for (NM nm : {NM::ROUND_PREFER_FLOOR, NM::ROUND_PREFER_CEIL, NM::FLOOR, NM::CEIL}) {
                // tf_half_pixel_for_nn samples o + 0.5 on the unscaled leading axes too: rounding up
                // moves them by one (where longer than 1), which only the reference handles
                bool shifted = false;
                for (size_t d = 0; d + 2 < c.in.size(); ++d) {
                    shifted = shifted || c.in[d] > 1;
                }
                shifted =
                    shifted && coord == CT::TF_HALF_PIXEL_FOR_NN && (nm == NM::ROUND_PREFER_CEIL || nm == NM::CEIL);
                compareResize(c, RM::NEAREST, coord, nm, false, false, !shifted);
            }
        }
    }
}

TEST(ResizeFast, LinearEveryTransformMatchesReference) {
    for (auto& c : resizeCases()) {
        for (CT coord :
             {CT::HALF_PIXEL, CT::ASYMMETRIC, CT::ALIGN_CORNERS, CT::PYTORCH_HALF_PIXEL, CT::HALF_PIXEL_SYMMETRIC}) {
            compareResize(c, RM::LINEAR, coord, NM::ROUND_PREFER_FLOOR, false, false, true);
        }
        compareResize(c, RM::LINEAR, CT::HALF_PIXEL, NM::ROUND_PREFER_FLOOR, true, false, true);
    }
}

TEST(ResizeFast, OtherCasesKeepTheReference) {
    const RzCase down = {{1, 2, 9, 13}, {}, {1, 2, 4, 5}};
    compareResize(down, RM::CUBIC, CT::HALF_PIXEL, NM::ROUND_PREFER_FLOOR, false, false, false);
    compareResize(down, RM::LINEAR, CT::HALF_PIXEL, NM::ROUND_PREFER_FLOOR, false, true, false);  // antialias
    compareResize({{1, 2, 5, 6}, {1, 1, 2, 2}, {}}, RM::LINEAR, CT::TF_CROP_AND_RESIZE, NM::ROUND_PREFER_FLOOR, false,
                  false, false);
    compareResize({{2, 3, 4, 5}, {1, 2, 1, 2}, {}}, RM::LINEAR, CT::HALF_PIXEL, NM::ROUND_PREFER_FLOOR, false, false,
                  false);  // a channel axis resized
    // antialias on an upsample is plain linear: fast
    compareResize({{1, 2, 5, 6}, {1, 1, 2, 2}, {}}, RM::LINEAR, CT::HALF_PIXEL, NM::ROUND_PREFER_FLOOR, false, true,
                  true);
}

TEST(ResizeFast, ScalesFromAGraphInputPlanAtFirstRun) {
    compareResize({{1, 3, 6, 10}, {1, 1, 1.5f, 0.7f}, {}}, RM::LINEAR, CT::HALF_PIXEL, NM::ROUND_PREFER_FLOOR, false,
                  false, true, true);
}
