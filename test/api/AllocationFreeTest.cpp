// runSession allocates nothing once shapes are known: every heap allocation of the process is
// counted through malloc-family overrides (glibc), and two runs must add none.
#include <MNN/Interpreter.hpp>
#include <string.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

#define MNN_ALLOCATION_COUNTER_DEFINE 1  // this file defines the counting malloc of MNNApiTests
#include "AllocationCounter.hpp"

using namespace MNN;
using namespace MNN::Test;

TEST(AllocationFree, RunSessionAllocatesNothing) {
#ifndef MNN_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting needs glibc without sanitizers";
#else
    MNN_SKIP_UNDER_VALGRIND();
    ModelBuilder mb;
    mb.input("x", {4, 16});
    mb.constant("c", {16}, randomFloats(16, 3));
    Schema::BinaryParamT add, mul;
    mul.type = Schema::BinaryOpType::MUL;
    mb.op(Schema::OpType::BinaryOp, "a", {"x", "c"}, {"y"})->param.Set(add);
    mb.op(Schema::OpType::BinaryOp, "b", {"y", "x"}, {"z"})->param.Set(mul);
    mb.op(Schema::OpType::BinaryOp, "c", {"z", "y"}, {"w"})->param.Set(add);
    mb.output("w");
    auto buf = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(buf.data(), buf.size()));
    auto session = net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    ASSERT_EQ(net->runSession(session), NO_ERROR);  // warm
    long before = allocationCount();
    for (int i = 0; i < 5; ++i) {
        ASSERT_EQ(net->runSession(session), NO_ERROR);
    }
    long after = allocationCount();
    EXPECT_EQ(after - before, 0) << "runSession allocated " << (after - before) << " times";
    // sanity: the counter does count (a resize allocates)
    net->resizeTensor(net->getSessionInput(session, nullptr), {8, 16});
    net->resizeSession(session);
    EXPECT_GT(allocationCount(), after);
#endif
}

TEST(AllocationFree, RealNetworkRunSessionAllocatesNothing) {
#ifndef MNN_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting needs glibc without sanitizers";
#else
    MNN_SKIP_UNDER_VALGRIND();
    // the bundled example: conv, batchnorm, relu, maxpool, depthwise conv, global pool, gemm, softmax
    std::string path = std::string(MNN_SOURCE_DIR) + "/examples/models/small_cnn.mnn";
    std::unique_ptr<Interpreter> net(Interpreter::createFromFile(path.c_str()));
    ASSERT_NE(net, nullptr);
    for (auto precision : {BackendConfig::Precision_High, BackendConfig::Precision_Normal}) {
        ScheduleConfig config;
        BackendConfig bc;
        bc.precision = precision;
        config.backendConfig = &bc;
        config.numThread = 2;
        auto session = net->createSession(config);
        ASSERT_NE(session, nullptr);
        auto input = net->getSessionInput(session, nullptr);
        auto x = randomFloats(input->elementSize(), 9);
        memcpy(input->host<float>(), x.data(), x.size() * sizeof(float));
        ASSERT_EQ(net->runSession(session), NO_ERROR);
        long before = allocationCount();
        for (int i = 0; i < 3; ++i) {
            ASSERT_EQ(net->runSession(session), NO_ERROR);
        }
        EXPECT_EQ(allocationCount() - before, 0) << "precision " << (int)precision;
        net->releaseSession(session);
    }
#endif
}

// Unique, Det, QuantizeLinear / DequantizeLinear, Random, Bernoulli: their scratch is sized in onResize.
TEST(AllocationFree, ExtraOpsRunSessionAllocatesNothing) {
#ifndef MNN_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting needs glibc without sanitizers";
#else
    MNN_SKIP_UNDER_VALGRIND();
    ModelBuilder mb;
    mb.input("x", {2, 3, 3});
    mb.constant("u", {6}, {2, 1, 1, 3, 4, 3});
    mb.constant("s", {3}, {0.5f, 1, 2});
    Schema::AxisParamT up;
    mb.op(Schema::OpType::Unique, "unique", {"u"}, {"uy", "ui", "uv", "uc"})->param.Set(up);
    mb.op(Schema::OpType::Det, "det", {"x"}, {"d"});
    Schema::QuantParamT qp;
    qp.axis = -1;
    qp.outputType = Schema::DataType::DT_INT8;
    mb.op(Schema::OpType::QuantizeLinear, "q", {"x", "s"}, {"q"})->param.Set(qp);
    mb.op(Schema::OpType::DequantizeLinear, "dq", {"q", "s"}, {"dq"})->param.Set(qp);
    Schema::RandomParamT rp;
    rp.normal = true;
    rp.shape = {4, 5};
    rp.hasSeed = true;
    rp.seed = 1;
    mb.op(Schema::OpType::Random, "r", {}, {"r"})->param.Set(rp);
    Schema::RandomParamT bp;
    bp.dtype = Schema::DataType::DT_INVALID;
    mb.op(Schema::OpType::Random, "rl", {"x"}, {"p"})->param.Set(bp);
    mb.op(Schema::OpType::Bernoulli, "b", {"p"}, {"bern"})->param.Set(bp);
    for (auto n : {"uy", "ui", "uv", "uc", "d", "dq", "r", "bern"}) {
        mb.output(n);
    }
    auto buf = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(buf.data(), buf.size()));
    auto session = net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    ASSERT_EQ(net->runSession(session), NO_ERROR);  // warm
    long before = allocationCount();
    for (int i = 0; i < 5; ++i) {
        ASSERT_EQ(net->runSession(session), NO_ERROR);
    }
    EXPECT_EQ(allocationCount() - before, 0) << "runSession allocated " << (allocationCount() - before) << " times";
#endif
}

TEST(AllocationFree, ReduceAndTopKRunSessionAllocatesNothing) {
#ifndef MNN_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting needs glibc without sanitizers";
#else
    MNN_SKIP_UNDER_VALGRIND();
    ModelBuilder mb;
    mb.input("x", {3, 8});
    mb.constantInt64("axes", {1}, {1});
    mb.constantInt64("k", {1}, {3});
    Schema::ReduceParamT rp;
    rp.type = Schema::ReduceType::MEAN;
    mb.op(Schema::OpType::Reduce, "mean", {"x", "axes"}, {"m"})->param.Set(rp);
    Schema::TopKParamT tp;
    mb.op(Schema::OpType::TopK, "topk", {"x", "k"}, {"v", "i"})->param.Set(tp);
    mb.output("m");
    mb.output("v");
    mb.output("i");
    auto buf = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(buf.data(), buf.size()));
    auto session = net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    auto x = randomFloats(24, 4);
    memcpy(net->getSessionInput(session, nullptr)->host<float>(), x.data(), x.size() * sizeof(float));
    ASSERT_EQ(net->runSession(session), NO_ERROR);
    long before = allocationCount();
    ASSERT_EQ(net->runSession(session), NO_ERROR);
    EXPECT_EQ(allocationCount() - before, 0);
    // and the results are still right
    auto m = net->getSessionOutput(session, "m");
    for (int r = 0; r < 3; ++r) {
        double s = 0;
        for (int c = 0; c < 8; ++c) {
            s += x[r * 8 + c];
        }
        EXPECT_NEAR(m->host<float>()[r], s / 8, 1e-5);
    }
#endif
}
