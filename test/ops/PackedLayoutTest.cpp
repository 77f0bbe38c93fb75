// The Session's packed-layout pass (NC16HW16 between ops that support it): which tensors it packs,
// and that a packed run gives the plain run's results (plain kernels and the reference
// convolution as oracles) on every ISA tier, thread count and across resizes.
#include <math.h>
#include "PackedTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

// x -> conv3x3 (20 -> 24) -> relu -> conv1x1 (24 -> 40) ----------------> add -> sigmoid -> conv3x3 s2 -> y
//                                 \-> conv1x1 (24 -> 40, fused relu) --/                 \-> conv1x1 -> softmax -> z
std::vector<uint8_t> chainModel(int n, int h, int w) {
    ModelBuilder mb;
    mb.input("x", {n, 20, h, w});
    addConv(mb, "c1", "x", "t1", 20, 24, 3, 3, 1, 1, 1, 11);
    auto relu = mb.op(Schema::OpType::UnaryOp, "relu", {"t1"}, {"t2"});
    Schema::UnaryParamT up;
    up.type = Schema::UnaryOpType::RELU;
    relu->param.Set(up);
    addConv(mb, "c2", "t2", "t3", 24, 40, 1, 1, 1, 0, 1, 21);
    addConv(mb, "c3", "t2", "t4", 24, 40, 1, 1, 1, 0, 1, 31, Schema::FusedActivation::RELU);
    auto add = mb.op(Schema::OpType::BinaryOp, "add", {"t3", "t4"}, {"t5"});
    Schema::BinaryParamT bp;
    bp.type = Schema::BinaryOpType::ADD;
    add->param.Set(bp);
    auto sig = mb.op(Schema::OpType::UnaryOp, "sigmoid", {"t5"}, {"t6"});
    Schema::UnaryParamT sp;
    sp.type = Schema::UnaryOpType::SIGMOID;
    sig->param.Set(sp);
    addConv(mb, "c4", "t6", "y", 40, 17, 3, 3, 2, 1, 1, 41);
    addConv(mb, "c5", "t6", "t7", 40, 8, 1, 1, 1, 0, 1, 51);
    auto sm = mb.op(Schema::OpType::Softmax, "softmax", {"t7"}, {"z"});
    Schema::SoftmaxParamT smp;
    smp.axis = 1;
    sm->param.Set(smp);
    mb.output("y");
    mb.output("z");
    return mb.finish();
}

}  // namespace

TEST(PackedLayout, PacksTensorsBetweenSupportingOpsOnly) {
    auto model = chainModel(1, 9, 11);
    auto x = makeTensor({1, 20, 9, 11}, randomFloats(20 * 9 * 11, 5));
    auto r = runWithLayout(model, {{"x", x.get()}}, "packed");
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.layouts["t1"], "NC16HW16");  // conv -> relu
    EXPECT_EQ(r.layouts["t2"], "NC16HW16");  // relu -> two convs
    EXPECT_EQ(r.layouts["t3"], "NC16HW16");  // conv -> add
    EXPECT_EQ(r.layouts["t5"], "NC16HW16");  // add -> sigmoid
    EXPECT_EQ(r.layouts["t6"], "NC16HW16");  // sigmoid -> two convs
    EXPECT_EQ(r.layouts["t7"], "NCHW");      // read by Softmax, which has no packed kernel
    EXPECT_EQ(r.layouts["y"], "NCHW");       // graph outputs stay plain
    auto plain = runWithLayout(model, {{"x", x.get()}}, "plain");
    ASSERT_EQ(plain.code, NO_ERROR);
    for (auto& kv : plain.layouts) {
        EXPECT_EQ(kv.second, "NCHW") << kv.first;
    }
}

TEST(PackedLayout, MatchesPlainAndReferenceOnEveryTierThreadCountAndBatch) {
    const int best = (int)cpuFeatures().best;
    for (int n : {1, 3}) {
        auto model = chainModel(n, 10, 13);
        auto x = makeTensor({n, 20, 10, 13}, randomFloats((size_t)n * 20 * 10 * 13, 7 + n));
        auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                auto packed = runWithLayout(model, {{"x", x.get()}}, "packed", threads);
                ASSERT_EQ(packed.code, NO_ERROR);
                EXPECT_EQ(packed.layouts["t2"], "NC16HW16");
                EXPECT_LT(maxRelativeDiff(packed, ref), 1e-5) << "tier " << tier << " threads " << threads;
                EXPECT_EQ(packed.shapes["y"], ref.shapes["y"]);
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(PackedLayout, ResizeKeepsResultsAndCallbacksSeeLogicalValues) {
    auto model = chainModel(2, 8, 8);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_High;
    config.backendConfig = &bc;
    setenv("MNN_LAYOUT", "packed", 1);
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    for (int h : {8, 15, 6}) {
        auto x = makeTensor({2, 20, h, h + 1}, randomFloats((size_t)2 * 20 * h * (h + 1), 50 + h));
        auto in = net->getSessionInput(session, "x");
        net->resizeTensor(in, {2, 20, h, h + 1});
        net->resizeSession(session);
        in->copyFromHostTensor(x.get());
        // t5 (packed) seen by a callback, converted by copyToHostTensor
        std::vector<float> t5;
        TensorCallBackWithInfo before = [](const std::vector<Tensor*>&, const OperatorInfo*) { return true; };
        TensorCallBackWithInfo after = [&](const std::vector<Tensor*>& outs, const OperatorInfo* info) {
            if (info->name() == "add") {
                Tensor host(outs[0], Tensor::CAFFE, true);
                outs[0]->copyToHostTensor(&host);
                t5.assign(host.host<float>(), host.host<float>() + host.elementSize());
            }
            return true;
        };
        ASSERT_EQ(net->runSessionWithCallBackInfo(session, before, after), NO_ERROR);
        auto y = net->getSessionOutput(session, "y");
        Tensor yh(y, Tensor::CAFFE, true);
        y->copyToHostTensor(&yh);
        // oracle: a plain session of the same model that also saves t5
        unsetenv("MNN_LAYOUT");
        setenv("MNN_LAYOUT", "plain", 1);
        std::unique_ptr<Interpreter> net2(Interpreter::createFromBuffer(model.data(), model.size()));
        net2->setSessionMode(Interpreter::Session_Debug);
        auto s2 = net2->createSession(config);
        auto in2 = net2->getSessionInput(s2, "x");
        net2->resizeTensor(in2, {2, 20, h, h + 1});
        net2->resizeSession(s2);
        in2->copyFromHostTensor(x.get());
        std::vector<float> t5plain;
        TensorCallBackWithInfo after2 = [&](const std::vector<Tensor*>& outs, const OperatorInfo* info) {
            if (info->name() == "add") {
                t5plain.assign(outs[0]->host<float>(), outs[0]->host<float>() + outs[0]->elementSize());
            }
            return true;
        };
        ASSERT_EQ(net2->runSessionWithCallBackInfo(s2, before, after2), NO_ERROR);
        setenv("MNN_LAYOUT", "packed", 1);
        auto y2 = net2->getSessionOutput(s2, "y");
        ASSERT_EQ(yh.elementSize(), y2->elementSize());
        for (int i = 0; i < yh.elementSize(); ++i) {
            ASSERT_NEAR(yh.host<float>()[i], y2->host<float>()[i], 1e-5f * (1.0f + fabsf(y2->host<float>()[i])))
                << "h " << h << " [" << i << "]";
        }
        ASSERT_EQ(t5.size(), t5plain.size());
        for (size_t i = 0; i < t5.size(); ++i) {
            ASSERT_NEAR(t5[i], t5plain[i], 1e-5f * (1.0f + fabsf(t5plain[i]))) << "t5 [" << i << "]";
        }
    }
    unsetenv("MNN_LAYOUT");
}

TEST(PackedLayout, UniformOpsConvertPlainTensorsAtTheirEdges) {
    // x (plain graph input) + conv(x) (packed) -> a -> relu -> r (plain graph output); a -> conv -> y
    ModelBuilder mb;
    mb.input("x", {2, 20, 7, 9});
    addConv(mb, "c1", "x", "t1", 20, 20, 3, 3, 1, 1, 1, 61);
    auto add = mb.op(Schema::OpType::BinaryOp, "add", {"x", "t1"}, {"a"});
    Schema::BinaryParamT bp;
    bp.type = Schema::BinaryOpType::SUB;
    add->param.Set(bp);
    auto relu = mb.op(Schema::OpType::UnaryOp, "relu", {"a"}, {"r"});
    Schema::UnaryParamT up;
    up.type = Schema::UnaryOpType::RELU;
    relu->param.Set(up);
    addConv(mb, "c2", "a", "y", 20, 5, 1, 1, 1, 0, 1, 71);
    mb.output("r");
    mb.output("y");
    auto model = mb.finish();
    auto x = makeTensor({2, 20, 7, 9}, randomFloats(2 * 20 * 7 * 9, 81));
    auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        for (int threads = 1; threads <= 2; ++threads) {
            auto r = runWithLayout(model, {{"x", x.get()}}, "packed", threads);
            ASSERT_EQ(r.code, NO_ERROR);
            EXPECT_EQ(r.layouts["t1"], "NC16HW16");
            EXPECT_EQ(r.layouts["a"], "NC16HW16");
            EXPECT_EQ(r.layouts["r"], "NCHW");
            EXPECT_LT(maxRelativeDiff(r, ref), 1e-5) << "tier " << tier << " threads " << threads;
        }
    }
    cpuSetTierOverride(-1);
}
