// Every call of the classic session API (../shared/docs/API.md), on small BinaryOp graphs whose
// results are computed by hand in the test.
#include <MNN/Interpreter.hpp>
#include <stdio.h>
#include <string.h>
#include <fstream>
#include "ModelBuilder.hpp"
#include "core/SessionIntrospect.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
void setBinary(Schema::OpT* op, Schema::BinaryOpType type) {
    Schema::BinaryParamT p;
    p.type = type;
    op->param.Set(p);
}

// y = (x + c) * x ; z = y - x    (c = [1, 2, 3] broadcast on the last axis)
std::vector<uint8_t> chainModel(std::vector<int> dims = {2, 3}) {
    ModelBuilder mb;
    mb.input("x", dims);
    mb.constant("c", {3}, {1, 2, 3});
    setBinary(mb.op(Schema::OpType::BinaryOp, "add", {"x", "c"}, {"s"}), Schema::BinaryOpType::ADD);
    setBinary(mb.op(Schema::OpType::BinaryOp, "mul", {"s", "x"}, {"y"}), Schema::BinaryOpType::MUL);
    setBinary(mb.op(Schema::OpType::BinaryOp, "sub", {"y", "x"}, {"z"}), Schema::BinaryOpType::SUB);
    mb.output("z");
    mb.net().bizCode = "ApiTestBiz";
    mb.net().uuid = "0123-uuid";
    mb.net().version = "test-1";
    return mb.finish();
}

std::vector<float> expectChain(const std::vector<float>& x) {
    std::vector<float> z(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        float c = (float)(i % 3 + 1);
        z[i] = (x[i] + c) * x[i] - x[i];
    }
    return z;
}

void fill(Tensor* t, const std::vector<float>& v) {
    ASSERT_EQ((size_t)t->elementSize(), v.size());
    memcpy(t->host<float>(), v.data(), v.size() * sizeof(float));
}

struct Net {
    std::unique_ptr<Interpreter> net;
    explicit Net(const std::vector<uint8_t>& buf) : net(Interpreter::createFromBuffer(buf.data(), buf.size())) {}
};
}  // namespace

TEST(Api, CreateFromFileRunAndInfo) {
    auto buf = chainModel();
    auto dir = tempDir("api");
    auto path = dir + "/chain.mnn";
    {
        std::ofstream f(path, std::ios::binary);
        f.write((const char*)buf.data(), (std::streamsize)buf.size());
    }
    std::unique_ptr<Interpreter> net(Interpreter::createFromFile(path.c_str()));
    ASSERT_NE(net, nullptr);
    EXPECT_STREQ(net->bizCode(), "ApiTestBiz");
    EXPECT_STREQ(net->uuid(), "0123-uuid");
    EXPECT_STREQ(net->getModelVersion(), "test-1");
    EXPECT_STREQ(getVersion(), MNN_VERSION);
    auto mb = net->getModelBuffer();
    ASSERT_EQ(mb.second, buf.size());
    EXPECT_EQ(0, memcmp(mb.first, buf.data(), buf.size()));

    ScheduleConfig config;
    config.numThread = 2;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    auto input = net->getSessionInput(session, nullptr);
    ASSERT_EQ(input, net->getSessionInput(session, "x"));
    EXPECT_EQ(net->getSessionInput(session, "nope"), nullptr);
    EXPECT_EQ(input->getDimensionType(), Tensor::CAFFE);
    std::vector<float> x = {1, -2, 3, 0.5f, 5, -6};
    fill(input, x);
    ASSERT_EQ(net->runSession(session), NO_ERROR);
    auto out = net->getSessionOutput(session, nullptr);
    ASSERT_EQ(out, net->getSessionOutput(session, "z"));
    EXPECT_TRUE(tensorClose(out, expectChain(x)));
    EXPECT_EQ(net->getSessionInputAll(session).size(), 1u);
    EXPECT_EQ(net->getSessionOutputAll(session).count("z"), 1u);

    float mem = -1, flops = -1;
    int threads = 0, status = -1;
    int backends[4] = {-1, -1, -1, -1};
    EXPECT_TRUE(net->getSessionInfo(session, Interpreter::MEMORY, &mem));
    EXPECT_GT(mem, 0.0f);
    EXPECT_TRUE(net->getSessionInfo(session, Interpreter::FLOPS, &flops));
    EXPECT_FLOAT_EQ(flops, 18.0f / 1e6f);  // 3 elementwise ops x 6 elements
    EXPECT_TRUE(net->getSessionInfo(session, Interpreter::BACKENDS, backends));
    EXPECT_EQ(backends[0], MNN_FORWARD_CPU);
    EXPECT_TRUE(net->getSessionInfo(session, Interpreter::THREAD_NUMBER, &threads));
    EXPECT_EQ(threads, 2);
    EXPECT_TRUE(net->getSessionInfo(session, Interpreter::RESIZE_STATUS, &status));
    EXPECT_EQ(status, 0);
    EXPECT_NE(net->getBackend(session, out), nullptr);
    EXPECT_TRUE(net->releaseSession(session));
    EXPECT_FALSE(net->releaseSession(session));
}

TEST(Api, ResizeToNewShapeAndRunAgain) {
    Net n(chainModel());
    ScheduleConfig config;
    auto session = n.net->createSession(config);
    ASSERT_NE(session, nullptr);
    auto input = n.net->getSessionInput(session, nullptr);
    n.net->resizeTensor(input, {4, 3});
    int status = 0;
    n.net->getSessionInfo(session, Interpreter::RESIZE_STATUS, &status);
    EXPECT_EQ(status, 1);
    n.net->resizeSession(session);
    auto x = randomFloats(12, 1);
    fill(input, x);
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    auto out = n.net->getSessionOutput(session, nullptr);
    EXPECT_EQ(out->shape(), (std::vector<int>{4, 3}));
    EXPECT_TRUE(tensorClose(out, expectChain(x)));
    // the 4-argument overload (NCHW order for CAFFE tensors)
    n.net->resizeTensor(input, 1, 2, 2, 3);
    n.net->resizeSession(session);
    EXPECT_EQ(input->shape(), (std::vector<int>{1, 2, 2, 3}));
    auto x2 = randomFloats(12, 2);
    fill(input, x2);
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(session, nullptr), expectChain(x2)));
    // a shape that cannot broadcast: resize fails, run reports it, no crash
    n.net->resizeTensor(input, {2, 4});
    n.net->resizeSession(session);
    EXPECT_NE(n.net->runSession(session), NO_ERROR);
}

TEST(Api, DeferredResizeRunsAtRunSession) {
    Net n(chainModel());
    n.net->setSessionMode(Interpreter::Session_Resize_Defer);
    auto session = n.net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    auto input = n.net->getSessionInput(session, nullptr);
    n.net->resizeTensor(input, {1, 3});
    n.net->resizeSession(session);
    int status = 0;
    n.net->getSessionInfo(session, Interpreter::RESIZE_STATUS, &status);
    EXPECT_EQ(status, 1);
    fill(input, {1, 2, 3});
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(session, nullptr), expectChain({1, 2, 3})));
}

TEST(Api, CallbackSkipsAnOpAndStopsTheRun) {
    Net n(chainModel());
    auto session = n.net->createSession(ScheduleConfig());
    auto input = n.net->getSessionInput(session, nullptr);
    std::vector<float> x = {1, 2, 3, 4, 5, 6};
    fill(input, x);
    std::vector<std::string> seen;
    // skip "sub": z keeps whatever it held; run it once normally first so z is known
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    auto out = n.net->getSessionOutput(session, nullptr);
    memset(out->host<float>(), 0, out->size());
    TensorCallBack before = [&](const std::vector<Tensor*>& ins, const std::string& name) {
        seen.push_back(name);
        EXPECT_FALSE(ins.empty());
        return name != "sub";
    };
    std::vector<std::string> afterSeen;
    TensorCallBack after = [&](const std::vector<Tensor*>&, const std::string& name) {
        afterSeen.push_back(name);
        return true;
    };
    ASSERT_EQ(n.net->runSessionWithCallBack(session, before, after), NO_ERROR);
    EXPECT_EQ(seen, (std::vector<std::string>{"add", "mul", "sub"}));
    EXPECT_EQ(afterSeen, (std::vector<std::string>{"add", "mul"}));  // sub was skipped
    EXPECT_FALSE(tensorClose(out, expectChain(x)));
    // stop after "add"
    int afterCalls = 0;
    TensorCallBack stopper = [&](const std::vector<Tensor*>& outs, const std::string& name) {
        afterCalls++;
        EXPECT_EQ(outs.size(), 1u);
        return name != "add";
    };
    TensorCallBack all = [](const std::vector<Tensor*>&, const std::string&) { return true; };
    EXPECT_EQ(n.net->runSessionWithCallBack(session, all, stopper), CALL_BACK_STOP);
    EXPECT_EQ(afterCalls, 1);
    // with info: type and flops
    std::vector<std::string> types;
    float totalFlops = 0;
    TensorCallBackWithInfo b2 = [&](const std::vector<Tensor*>&, const OperatorInfo* info) {
        types.push_back(info->type());
        totalFlops += info->flops();
        return true;
    };
    TensorCallBackWithInfo a2 = [](const std::vector<Tensor*>&, const OperatorInfo*) { return true; };
    ASSERT_EQ(n.net->runSessionWithCallBackInfo(session, b2, a2), NO_ERROR);
    EXPECT_EQ(types, (std::vector<std::string>{"BinaryOp", "BinaryOp", "BinaryOp"}));
    EXPECT_FLOAT_EQ(totalFlops, 18.0f / 1e6f);
    EXPECT_TRUE(tensorClose(out, expectChain(x)));
    // Session_Release ignores callbacks (sessions created after the call)
    n.net->setSessionMode(Interpreter::Session_Release);
    auto s2 = n.net->createSession(ScheduleConfig());
    fill(n.net->getSessionInput(s2, nullptr), x);
    int calls = 0;
    TensorCallBack counting = [&](const std::vector<Tensor*>&, const std::string&) {
        calls++;
        return false;
    };
    EXPECT_EQ(n.net->runSessionWithCallBack(s2, counting, counting), NO_ERROR);
    EXPECT_EQ(calls, 0);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(s2, nullptr), expectChain(x)));
}

TEST(Api, SaveTensorsKeepsIntermediates) {
    Net n(chainModel());
    ScheduleConfig config;
    config.saveTensors = {"s", "y"};
    auto session = n.net->createSession(config);
    ASSERT_NE(session, nullptr);
    std::vector<float> x = {1, 2, 3, 4, 5, 6};
    fill(n.net->getSessionInput(session, nullptr), x);
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    auto s = n.net->getSessionOutput(session, "s");
    auto y = n.net->getSessionOutput(session, "y");
    ASSERT_NE(s, nullptr);
    ASSERT_NE(y, nullptr);
    EXPECT_TRUE(tensorClose(s, {2, 4, 6, 5, 7, 9}));
    EXPECT_TRUE(tensorClose(y, {2, 8, 18, 20, 35, 54}));
    // an intermediate that was not saved is not handed out
    auto other = n.net->createSession(ScheduleConfig());
    EXPECT_EQ(n.net->getSessionOutput(other, "s"), nullptr);
}

TEST(Api, TwoSessionsFromOneInterpreterAreIndependent) {
    Net n(chainModel());
    auto a = n.net->createSession(ScheduleConfig());
    auto b = n.net->createSession(ScheduleConfig());
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    n.net->resizeTensor(n.net->getSessionInput(b, nullptr), {1, 3});
    n.net->resizeSession(b);
    std::vector<float> xa = {1, 2, 3, 4, 5, 6}, xb = {-1, -2, -3};
    fill(n.net->getSessionInput(a, nullptr), xa);
    fill(n.net->getSessionInput(b, nullptr), xb);
    ASSERT_EQ(n.net->runSession(a), NO_ERROR);
    ASSERT_EQ(n.net->runSession(b), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(a, nullptr), expectChain(xa)));
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(b, nullptr), expectChain(xb)));
    EXPECT_EQ(n.net->getSessionInput(a, nullptr)->shape(), (std::vector<int>{2, 3}));
}

TEST(Api, ReleaseModelThenRunAndResize) {
    Net n(chainModel());
    auto session = n.net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    n.net->releaseModel();
    EXPECT_EQ(n.net->getModelBuffer().first, nullptr);
    EXPECT_EQ(n.net->createSession(ScheduleConfig()), nullptr);  // needs the model
    std::vector<float> x = {1, 2, 3, 4, 5, 6};
    fill(n.net->getSessionInput(session, nullptr), x);
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(session, nullptr), expectChain(x)));
    auto input = n.net->getSessionInput(session, nullptr);
    n.net->resizeTensor(input, {3, 3});
    n.net->resizeSession(session);
    auto x2 = randomFloats(9, 7);
    fill(input, x2);
    ASSERT_EQ(n.net->runSession(session), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(session, nullptr), expectChain(x2)));
}

// Sessions read plain weights in place from the interpreter's model buffer; releaseModel gives them
// their own copies first, so a resize after it (which re-packs the convolution's weights from the
// constant) computes the same as a fresh interpreter. (Under ASan a dangling constant would fault.)
TEST(Api, WeightsReadInPlaceSurviveReleaseModelAndResize) {
    ModelBuilder mb;
    mb.input("x", {1, 3, 6, 6});
    std::vector<float> w(4 * 3 * 9), b(4);
    for (size_t i = 0; i < w.size(); ++i) {
        w[i] = 0.01f * (float)((i * 37) % 23) - 0.1f;
    }
    for (size_t i = 0; i < b.size(); ++i) {
        b[i] = 0.5f - 0.25f * (float)i;
    }
    mb.constant("w", {4, 3, 3, 3}, w);
    mb.constant("b", {4}, b);
    auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", "b"}, {"y"});
    Schema::ConvParamT p;
    p.kernel = {3, 3};
    p.pads = {1, 1, 1, 1};
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    auto run = [&](Interpreter* net, Session* s, const std::vector<int>& shape) {
        auto in = net->getSessionInput(s, "x");
        if (in->shape() != shape) {
            net->resizeTensor(in, shape);
            net->resizeSession(s);
        }
        std::vector<float> xv((size_t)shape[0] * shape[1] * shape[2] * shape[3]);
        for (size_t i = 0; i < xv.size(); ++i) {
            xv[i] = (float)((i * 13) % 17) * 0.125f - 1.0f;
        }
        auto xt = makeTensor(shape, xv);
        in->copyFromHostTensor(xt.get());
        EXPECT_EQ(net->runSession(s), NO_ERROR);
        auto y = net->getSessionOutput(s, "y");
        Tensor host(y, Tensor::CAFFE, true);
        y->copyToHostTensor(&host);
        return std::vector<float>(host.host<float>(), host.host<float>() + host.elementSize());
    };
    std::unique_ptr<Interpreter> fresh(Interpreter::createFromBuffer(model.data(), model.size()));
    auto fs = fresh->createSession(ScheduleConfig());
    ASSERT_NE(fs, nullptr);
    const auto want = run(fresh.get(), fs, {2, 3, 9, 7});

    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    auto s1 = net->createSession(ScheduleConfig());
    auto s2 = net->createSession(ScheduleConfig());
    ASSERT_NE(s1, nullptr);
    ASSERT_NE(s2, nullptr);
    run(net.get(), s1, {1, 3, 6, 6});
    net->releaseModel();
    EXPECT_EQ(net->getModelBuffer().first, nullptr);
    EXPECT_EQ(run(net.get(), s1, {2, 3, 9, 7}), want);
    EXPECT_EQ(run(net.get(), s2, {2, 3, 9, 7}), want);
}

TEST(Api, MultiPathSessionAndPaths) {
    Net n(chainModel());
    // path by tensors: compute y from x only
    ScheduleConfig first;
    first.path.mode = ScheduleConfig::Path::Tensor;
    first.path.inputs = {"x"};
    first.path.outputs = {"y"};
    auto s = n.net->createSession(first);
    ASSERT_NE(s, nullptr);
    std::vector<float> x = {1, 2, 3, 4, 5, 6};
    fill(n.net->getSessionInput(s, nullptr), x);
    ASSERT_EQ(n.net->runSession(s), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(s, "y"), {2, 8, 18, 20, 35, 54}));
    EXPECT_EQ(n.net->getSessionOutputAll(s).count("z"), 0u);
    // path by ops: start at "mul" (its inputs s and x become session inputs), end at "sub"
    ScheduleConfig byOp;
    byOp.path.inputs = {"mul"};
    byOp.path.outputs = {"sub"};
    auto s2 = n.net->createSession(byOp);
    ASSERT_NE(s2, nullptr);
    auto sIn = n.net->getSessionInput(s2, "s");
    ASSERT_NE(sIn, nullptr);
    // an intermediate tensor used as a path input has no declared shape: the app sets it
    n.net->resizeTensor(sIn, {2, 3});
    n.net->resizeSession(s2);
    fill(sIn, {1, 1, 1, 1, 1, 1});
    fill(n.net->getSessionInput(s2, "x"), x);
    ASSERT_EQ(n.net->runSession(s2), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(s2, "z"), {0, 0, 0, 0, 0, 0}));
    // two configs in one session: [x -> y] then [y -> z]
    ScheduleConfig second;
    second.path.mode = ScheduleConfig::Path::Tensor;
    second.path.inputs = {"y"};
    second.path.outputs = {"z"};
    auto multi = n.net->createMultiPathSession({first, second});
    ASSERT_NE(multi, nullptr);
    fill(n.net->getSessionInput(multi, "x"), x);
    ASSERT_EQ(n.net->runSession(multi), NO_ERROR);
    EXPECT_TRUE(tensorClose(n.net->getSessionOutput(multi, "z"), expectChain(x)));
    // an unknown path name fails cleanly
    ScheduleConfig bad;
    bad.path.outputs = {"no_such_op"};
    EXPECT_EQ(n.net->createSession(bad), nullptr);
}

TEST(Api, MissingBackendFallsBackToCPU) {
    Net n(chainModel());
    ScheduleConfig config;
    config.type = MNN_FORWARD_USER_3;  // nothing registers it
    config.backupType = MNN_FORWARD_CPU;
    auto session = n.net->createSession(config);
    ASSERT_NE(session, nullptr);
    int backends[2] = {-1, -1};
    n.net->getSessionInfo(session, Interpreter::BACKENDS, backends);
    EXPECT_EQ(backends[0], MNN_FORWARD_CPU);
    n.net->setCacheFile("/nonexistent/cache.bin");
    EXPECT_EQ(n.net->updateCacheFile(session), NO_ERROR);
}

TEST(Api, SessionHintLimitsTensorSize) {
    Net n(chainModel({1, 3}));
    n.net->setSessionHint(Interpreter::TENSOR_SIZE_LIMIT_MB, 1);
    auto session = n.net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    auto input = n.net->getSessionInput(session, nullptr);
    // 1M x 3 floats = 12 MB > 1 MB: refused without allocating
    n.net->resizeTensor(input, {1000000, 3});
    EXPECT_EQ(input->shape(), (std::vector<int>{1, 3}));
    n.net->resizeTensor(input, {-5, 3});
    EXPECT_EQ(input->shape(), (std::vector<int>{1, 3}));
}

TEST(Api, SessionHintArenaLimitCoversKernelScratch) {
    // a 5x5 convolution (dilation 2: no Winograd) of 16 channels to 1 over 64 x 64: its tensors
    // take about 0.3 MB, its kernel scratch (the im2col panel) several MB; a 1 MB arena limit
    // refuses the scratch too
    auto model = [] {
        ModelBuilder mb;
        mb.input("x", {1, 16, 64, 64});
        mb.constant("w", {1, 16, 5, 5}, std::vector<float>(16 * 25, 0.125f));
        auto op = mb.op(Schema::OpType::Convolution, "conv", {"x", "w"}, {"y"});
        Schema::ConvParamT p;
        p.kernel = {5, 5};
        p.strides = {1, 1};
        p.dilations = {2, 2};
        p.pads = {4, 4, 4, 4};
        p.group = 1;
        op->param.Set(p);
        mb.output("y");
        return mb.finish();
    }();
    for (int limitMB : {0, 1}) {
        SCOPED_TRACE(limitMB);
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
        ASSERT_NE(net, nullptr);
        if (limitMB > 0) {
            net->setSessionHint(Interpreter::ARENA_SIZE_LIMIT_MB, limitMB);
        }
        ::testing::internal::CaptureStderr();
        auto session = net->createSession(ScheduleConfig());
        std::string log = ::testing::internal::GetCapturedStderr();
        if (limitMB == 0) {
            ASSERT_NE(session, nullptr) << log;
            const char* algo = SessionIntrospect::algorithmOf(session, "conv");
            EXPECT_EQ(std::string(algo ? algo : "").rfind("im2col", 0), 0u) << (algo ? algo : "");
            EXPECT_EQ(net->runSession(session), NO_ERROR);
        } else {
            EXPECT_EQ(session, nullptr);
            EXPECT_NE(log.find("kernel scratch of"), std::string::npos) << log;
            EXPECT_NE(log.find("arena limit of 1 MiB"), std::string::npos) << log;
            EXPECT_NE(log.find("op conv"), std::string::npos) << log;
        }
    }
}
