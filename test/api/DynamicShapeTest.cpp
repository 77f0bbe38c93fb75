// The engine's value-dependent shape path: shapes decided by graph-input values are resolved at
// runSession (again when the values change); shapes decided by values computed from constants
// and input shapes (Shape -> Gather -> Concat -> Reshape) are resolved at createSession.
#include <MNN/Interpreter.hpp>
#include <gtest/gtest.h>
#include <string.h>
#include <memory>
#include "ModelBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
struct Net {
    std::unique_ptr<Interpreter> net;
    Session* session = nullptr;
    explicit Net(const std::vector<uint8_t>& model) {
        net.reset(Interpreter::createFromBuffer(model.data(), model.size()));
        if (net) {
            ScheduleConfig config;
            session = net->createSession(config);
        }
    }
    template <typename T>
    void set(const char* name, const std::vector<int>& dims, const std::vector<T>& values) {
        auto t = net->getSessionInput(session, name);
        ASSERT_NE(t, nullptr);
        if (t->shape() != dims) {
            net->resizeTensor(t, dims);
            net->resizeSession(session);
        }
        std::unique_ptr<Tensor> host(Tensor::create(dims, halide_type_of<T>(), nullptr, Tensor::CAFFE));
        if (!values.empty()) {
            ::memcpy(host->host<void>(), values.data(), values.size() * sizeof(T));
        }
        ASSERT_TRUE(t->copyFromHostTensor(host.get()));
    }
    template <typename T>
    std::vector<T> get(const char* name, std::vector<int>* dims) {
        auto t = net->getSessionOutput(session, name);
        EXPECT_NE(t, nullptr);
        if (!t) {
            return {};
        }
        *dims = t->shape();
        std::unique_ptr<Tensor> host(new Tensor(t, Tensor::CAFFE, true));
        t->copyToHostTensor(host.get());
        int64_t n = 1;
        for (auto d : *dims) {
            n *= d;
        }
        return std::vector<T>(host->host<T>(), host->host<T>() + n);
    }
};

std::vector<float> iota(int n) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) {
        v[i] = (float)i;
    }
    return v;
}
} // namespace

TEST(DynamicShape, ReshapeTargetFromGraphInputResolvesAtRun) {
    ModelBuilder mb;
    mb.input("x", {2, 6});
    mb.input("s", {2}, Schema::DataType::DT_INT64);
    mb.op(Schema::OpType::Reshape, "reshape", {"x", "s"}, {"y"});
    mb.output("y");
    Net n(mb.finish());
    ASSERT_NE(n.net, nullptr);
    ASSERT_NE(n.session, nullptr) << "a session must exist before the shape values are known";

    n.set<float>("x", {2, 6}, iota(12));
    n.set<int64_t>("s", {2}, {3, 4});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    std::vector<int> dims;
    auto y = n.get<float>("y", &dims);
    EXPECT_EQ(dims, (std::vector<int>{3, 4}));
    EXPECT_EQ(y, iota(12));

    // new values, same input shapes: the session re-resolves the output shape
    n.set<int64_t>("s", {2}, {-1, 2});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    y = n.get<float>("y", &dims);
    EXPECT_EQ(dims, (std::vector<int>{6, 2}));
    EXPECT_EQ(y, iota(12));

    // a different rank of shape values
    n.set<int64_t>("s", {3}, {2, 3, 2});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    n.get<float>("y", &dims);
    EXPECT_EQ(dims, (std::vector<int>{2, 3, 2}));

    // invalid values: runSession reports an error (logged), no crash
    n.set<int64_t>("s", {2}, {5, 5});
    ::testing::internal::CaptureStderr();
    EXPECT_NE(n.net->runSession(n.session), NO_ERROR);
    auto log = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("reshape"), std::string::npos) << log;

    // and recovers with valid values again
    n.set<int64_t>("s", {2}, {12, 1});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    n.get<float>("y", &dims);
    EXPECT_EQ(dims, (std::vector<int>{12, 1}));
}

TEST(DynamicShape, ShapeGatherConcatReshapeResolvesAtCreate) {
    ModelBuilder mb;
    mb.input("x", {2, 3, 4});
    mb.constantInt64("idx", {1}, {0});
    mb.constantInt64("rest", {1}, {-1});
    mb.op(Schema::OpType::Shape, "shape", {"x"}, {"s"});
    auto g = mb.op(Schema::OpType::Gather, "gather", {"s", "idx"}, {"g"});
    Schema::AxisParamT ga;
    ga.axis = 0;
    g->param.Set(ga);
    auto c = mb.op(Schema::OpType::Concat, "concat", {"g", "rest"}, {"t"});
    Schema::AxisParamT ca;
    ca.axis = 0;
    c->param.Set(ca);
    mb.op(Schema::OpType::Reshape, "reshape", {"x", "t"}, {"y"});
    mb.output("y");
    Net n(mb.finish());
    ASSERT_NE(n.session, nullptr);

    // resolved at createSession: no input values were given yet
    auto out = n.net->getSessionOutput(n.session, "y");
    ASSERT_NE(out, nullptr);
    EXPECT_EQ(out->shape(), (std::vector<int>{2, 12}));
    int needResize = -1;
    ASSERT_TRUE(n.net->getSessionInfo(n.session, Interpreter::RESIZE_STATUS, &needResize));
    EXPECT_EQ(needResize, 0);

    n.set<float>("x", {2, 3, 4}, iota(24));
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    std::vector<int> dims;
    EXPECT_EQ(n.get<float>("y", &dims), iota(24));
    EXPECT_EQ(dims, (std::vector<int>{2, 12}));

    // a new input shape re-resolves at resizeSession, still without values
    auto x = n.net->getSessionInput(n.session, "x");
    n.net->resizeTensor(x, {3, 2, 2});
    n.net->resizeSession(n.session);
    EXPECT_EQ(n.net->getSessionOutput(n.session, "y")->shape(), (std::vector<int>{3, 4}));
    n.set<float>("x", {3, 2, 2}, iota(12));
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    EXPECT_EQ(n.get<float>("y", &dims), iota(12));
    EXPECT_EQ(dims, (std::vector<int>{3, 4}));
}

TEST(DynamicShape, NonZeroOutputFollowsInputValues) {
    ModelBuilder mb;
    mb.input("x", {5});
    mb.op(Schema::OpType::NonZero, "nz", {"x"}, {"y"});
    mb.output("y");
    Net n(mb.finish());
    ASSERT_NE(n.session, nullptr);
    n.set<float>("x", {5}, {0, 1, 0, 2, 3});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    std::vector<int> dims;
    EXPECT_EQ(n.get<int64_t>("y", &dims), (std::vector<int64_t>{1, 3, 4}));
    EXPECT_EQ(dims, (std::vector<int>{1, 3}));
    n.set<float>("x", {5}, {7, 0, 0, 0, 0});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    EXPECT_EQ(n.get<int64_t>("y", &dims), (std::vector<int64_t>{0}));
    EXPECT_EQ(dims, (std::vector<int>{1, 1}));
}

TEST(DynamicShape, TileRepeatsComputedFromGraphInput) {
    // repeats = Concat(r, [1]) where r is a graph input: evaluated on the CPU at runSession
    ModelBuilder mb;
    mb.input("x", {1, 2});
    mb.input("r", {1}, Schema::DataType::DT_INT64);
    mb.constantInt64("one", {1}, {1});
    auto c = mb.op(Schema::OpType::Concat, "concat", {"r", "one"}, {"reps"});
    Schema::AxisParamT ca;
    ca.axis = 0;
    c->param.Set(ca);
    mb.op(Schema::OpType::Tile, "tile", {"x", "reps"}, {"y"});
    mb.output("y");
    Net n(mb.finish());
    ASSERT_NE(n.session, nullptr);
    n.set<float>("x", {1, 2}, {4, 5});
    n.set<int64_t>("r", {1}, {3});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    std::vector<int> dims;
    EXPECT_EQ(n.get<float>("y", &dims), (std::vector<float>{4, 5, 4, 5, 4, 5}));
    EXPECT_EQ(dims, (std::vector<int>{3, 2}));
    n.set<int64_t>("r", {1}, {1});
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    EXPECT_EQ(n.get<float>("y", &dims), (std::vector<float>{4, 5}));
    EXPECT_EQ(dims, (std::vector<int>{1, 2}));
}

TEST(DynamicShape, SliceEndsComputedFromShapeChain) {
    // ends = Gather(Shape(x), [1]): resolved at createSession; the Slice kernel reads the computed
    // ends at execute time (they exist in memory only after Gather ran)
    ModelBuilder mb;
    mb.input("x", {2, 5});
    mb.constantInt64("one", {1}, {1});
    mb.constantInt64("starts", {1}, {-3});
    mb.constantInt64("axes", {1}, {1});
    mb.op(Schema::OpType::Shape, "shape", {"x"}, {"s"});
    auto g = mb.op(Schema::OpType::Gather, "gather", {"s", "one"}, {"ends"});
    Schema::AxisParamT ga;
    g->param.Set(ga);
    mb.op(Schema::OpType::Slice, "slice", {"x", "starts", "ends", "axes"}, {"y"});
    mb.output("y");
    Net n(mb.finish());
    ASSERT_NE(n.session, nullptr);
    EXPECT_EQ(n.net->getSessionOutput(n.session, "y")->shape(), (std::vector<int>{2, 3}));
    n.set<float>("x", {2, 5}, iota(10));
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    std::vector<int> dims;
    EXPECT_EQ(n.get<float>("y", &dims), (std::vector<float>{2, 3, 4, 7, 8, 9}));
    // a wider input: the chain and the kernel follow
    n.set<float>("x", {2, 6}, iota(12));
    ASSERT_EQ(n.net->runSession(n.session), NO_ERROR);
    EXPECT_EQ(n.get<float>("y", &dims), (std::vector<float>{3, 4, 5, 9, 10, 11}));
    EXPECT_EQ(dims, (std::vector<int>{2, 3}));
}
