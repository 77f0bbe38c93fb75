#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<uint8_t> binaryModel(Schema::BinaryOpType type, const std::vector<int>& a, const std::vector<int>& b) {
    ModelBuilder mb;
    mb.input("a", a);
    mb.input("b", b);
    auto op = mb.op(Schema::OpType::BinaryOp, "bin", {"a", "b"}, {"c"});
    Schema::BinaryParamT p;
    p.type = type;
    op->param.Set(p);
    mb.output("c");
    return mb.finish();
}

TEST(BinaryOp, GoldenBroadcastAdd) {
    auto model = binaryModel(Schema::BinaryOpType::ADD, {2, 3}, {3});
    auto a = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
    auto b = makeTensor({3}, {10, 20, 30});
    auto r = runModel(model, {{"a", a.get()}, {"b", b.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["c"].get(), {11, 22, 33, 14, 25, 36}));
}

TEST(BinaryOp, GoldenModSignFollowsDivisor) {
    auto model = binaryModel(Schema::BinaryOpType::MOD, {4}, {4});
    auto a = makeTensor({4}, {5, -5, 5, -5});
    auto b = makeTensor({4}, {3, 3, -3, -3});
    auto r = runModel(model, {{"a", a.get()}, {"b", b.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["c"].get(), {2, 1, -1, -2}));
}

TEST(BinaryOp, IncompatibleShapesFailAtCreate) {
    auto model = binaryModel(Schema::BinaryOpType::ADD, {2, 3}, {4});
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    EXPECT_EQ(net->createSession(config), nullptr);
}
