// Outputs planned over an input's buffer (Execution::inPlaceInput, Session::planInPlaceOutputs): a
// packed convolution with a residual R writes its output into R's buffer when nothing reads R
// later, chains of them share one buffer, and R read later keeps its own. Checked against the plain
// reference kernels on every ISA tier at 1-3 threads and batch 1 / 2, for the 1x1 kernel (K-sliced,
// R added with the first slice, on tiers that slice 1x1 layers: pcKSlices) and the windowed direct
// kernel's column tiles (R added before the copy out of the column buffer), and with
// MNN_INPLACE_OUTPUTS=0.
#include "PackedTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

using Act = Schema::FusedActivation;

/** conv(in, W [cout, cin, k, k], B, -, R = res) with act; dilation 2 for k = 3 (the direct kernel) */
void addResidualConv(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& res,
                     const std::string& out, int cin, int cout, int k, unsigned seed, Act act) {
    mb.constant(name + "_w", {cout, cin, k, k}, randomFloats((size_t)cout * cin * k * k, seed, -0.1f, 0.1f));
    mb.constant(name + "_b", {cout}, randomFloats((size_t)cout, seed + 1));
    Schema::ConvParamT p;
    p.kernel = {k, k};
    p.strides = {1, 1};
    p.dilations = {k == 3 ? 2 : 1, k == 3 ? 2 : 1};
    const int pad = k == 3 ? 2 : 0;
    p.pads = {pad, pad, pad, pad};
    p.group = 1;
    p.activation = act;
    mb.op(Schema::OpType::Convolution, name, {in, name + "_w", name + "_b", "", res}, {out})->param.Set(p);
}

/**
 * x -> a (520 ch), b, c (40 ch); r1 = conv(a) + b (K-sliced, over b); r2 = conv3x3(c) + y1 (columns,
 * over y1: the chain's root b); r3 = conv(d = c5(y2)) + y2 (y2's last reader: over it); r4 = conv(f)
 * + y3, y3 read again by the final Add (keeps its buffer)
 */
std::vector<uint8_t> chainModel(int n) {
    ModelBuilder mb;
    mb.input("x", {n, 24, 9, 11});
    addConv(mb, "c0", "x", "a", 24, 520, 1, 1, 1, 0, 1, 61);
    addConv(mb, "c1", "x", "b", 24, 40, 1, 1, 1, 0, 1, 63);
    addResidualConv(mb, "r1", "a", "b", "y1", 520, 40, 1, 65, Act::RELU);
    addConv(mb, "c3", "x", "c", 24, 40, 1, 1, 1, 0, 1, 67);
    addResidualConv(mb, "r2", "c", "y1", "y2", 40, 40, 3, 69, Act::NONE);
    addConv(mb, "c5", "y2", "d", 40, 40, 1, 1, 1, 0, 1, 71);
    addResidualConv(mb, "r3", "d", "y2", "y3", 40, 40, 1, 73, Act::SILU);
    addConv(mb, "c7", "y3", "f", 40, 40, 1, 1, 1, 0, 1, 75);
    addResidualConv(mb, "r4", "f", "y3", "y4", 40, 40, 1, 77, Act::RELU);
    Schema::BinaryParamT bp;
    bp.type = Schema::BinaryOpType::ADD;
    mb.op(Schema::OpType::BinaryOp, "sum", {"y4", "y3"}, {"z"})->param.Set(bp);
    mb.output("z");
    return mb.finish();
}

struct PlanRun {
    ErrorCode code = NO_ERROR;
    std::vector<float> z;
    std::map<std::string, std::string> inPlaceOf, algorithm;
    int64_t activationBytes = 0;
};

PlanRun runPlan(const std::vector<uint8_t>& model, const Tensor* x, const char* layout, int threads) {
    PlanRun r;
    setenv("MNN_LAYOUT", layout, 1);
    if (strcmp(layout, "plain") == 0) {
        setenv("MNN_CONV_ALGO", "reference", 1);
    }
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = threads;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_High;
    config.backendConfig = &bc;
    Session* session = net ? net->createSession(config) : nullptr;
    unsetenv("MNN_LAYOUT");
    unsetenv("MNN_CONV_ALGO");
    if (!session) {
        r.code = INVALID_VALUE;
        return r;
    }
    net->getSessionInput(session, "x")->copyFromHostTensor(x);
    r.code = net->runSession(session);
    for (auto& op : SessionIntrospect::ops(session)) {
        r.inPlaceOf[op.name] = op.inPlaceOf;
        r.algorithm[op.name] = op.algorithm;
    }
    r.activationBytes = SessionIntrospect::activationBytes(session);
    auto z = net->getSessionOutput(session, "z");
    Tensor host(z, Tensor::CAFFE, true);
    z->copyToHostTensor(&host);
    r.z.assign(host.host<float>(), host.host<float>() + host.elementSize());
    return r;
}

double maxDiff(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size() || a.empty()) {
        return INFINITY;
    }
    double scale = 1.0, worst = 0.0;
    for (float v : b) {
        scale = std::max(scale, (double)std::fabs(v));
    }
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = std::fabs((double)a[i] - (double)b[i]) / scale;
        worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
    return worst;
}

}  // namespace

TEST(InPlaceOutput, ResidualChainsTakeTheirInputsBuffers) {
    for (int n : {1, 2}) {
        SCOPED_TRACE(testing::Message() << "batch " << n);
        const auto model = chainModel(n);
        auto x = makeTensor({n, 24, 9, 11}, randomFloats((size_t)n * 24 * 9 * 11, 80 + (unsigned)n));
        const auto ref = runPlan(model, x.get(), "plain", 1);
        ASSERT_EQ(ref.code, NO_ERROR);
        const int best = (int)cpuFeatures().best;
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                SCOPED_TRACE(testing::Message() << "tier " << tier << " threads " << threads);
                const auto r = runPlan(model, x.get(), "packed", threads);
                ASSERT_EQ(r.code, NO_ERROR);
                // K in slices where the tier slices 1x1 layers (pcKSlices), else whole
                const bool sliced = cpuCoreFunctionsFor((CPUTier)tier).pcKSlices;
                EXPECT_EQ(r.algorithm.at("r1").rfind(sliced ? "packed-residual-ksliced" : "packed-residual", 0), 0u)
                    << r.algorithm.at("r1");
                EXPECT_EQ(r.algorithm.at("r2").rfind("packed-residual", 0), 0u) << r.algorithm.at("r2");
                EXPECT_EQ(r.inPlaceOf.at("r1"), "b");
                EXPECT_EQ(r.inPlaceOf.at("r2"), "y1");
                EXPECT_EQ(r.inPlaceOf.at("r3"), "y2");
                EXPECT_EQ(r.inPlaceOf.at("r4"), "");  // y3 is read by "sum" after r4
                EXPECT_LT(maxDiff(r.z, ref.z), 1e-5);
                setenv("MNN_INPLACE_OUTPUTS", "0", 1);
                const auto own = runPlan(model, x.get(), "packed", threads);
                unsetenv("MNN_INPLACE_OUTPUTS");
                ASSERT_EQ(own.code, NO_ERROR);
                for (const char* op : {"r1", "r2", "r3", "r4"}) {
                    EXPECT_EQ(own.inPlaceOf.at(op), "") << op;
                }
                EXPECT_LT(maxDiff(own.z, ref.z), 1e-5);
                EXPECT_LT(r.activationBytes, own.activationBytes);
            }
        }
        cpuSetTierOverride(-1);
    }
}
