// Pad (all modes, negative pads, axes), Tile, Expand. Golden values computed by hand
// (reflect / edge / wrap agree with numpy.pad for these cases).
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static Schema::OpT* padOp(OpModel& m, const std::vector<std::string>& ins, Schema::PadType mode) {
    auto op = m.op(Schema::OpType::Pad, ins, {"y"});
    Schema::PadParamT p;
    p.mode = mode;
    op->param.Set(p);
    return op;
}

static std::vector<float> pad1D(const std::vector<float>& x, int64_t b, int64_t e, Schema::PadType mode,
                                int* code) {
    OpModel m;
    m.input<float>("x", {(int)x.size()}, x);
    m.constant<int64_t>("pads", {2}, {b, e});
    padOp(m, {"x", "pads"}, mode);
    auto r = m.run();
    *code = r.code;
    return r.code == NO_ERROR ? valuesOf<float>(r.outputs["y"].get()) : std::vector<float>{};
}

TEST(Pad, GoldenConstantWithValueInput) {
    OpModel m;
    m.input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    m.constant<int64_t>("pads", {4}, {1, 2, 0, 1});
    m.constant<float>("v", {}, {9});
    padOp(m, {"x", "pads", "v"}, Schema::PadType::CONSTANT);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{3, 6}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()),
              (std::vector<float>{9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3, 9, 9, 9, 4, 5, 6, 9}));
}

TEST(Pad, GoldenReflectEdgeWrap) {
    int code = 0;
    EXPECT_EQ(pad1D({1, 2, 3}, 2, 2, Schema::PadType::REFLECT, &code), (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
    EXPECT_EQ(code, NO_ERROR);
    EXPECT_EQ(pad1D({1, 2, 3}, 5, 5, Schema::PadType::REFLECT, &code),
              (std::vector<float>{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2}));
    EXPECT_EQ(pad1D({1, 2}, 3, 0, Schema::PadType::REFLECT, &code), (std::vector<float>{2, 1, 2, 1, 2}));
    EXPECT_EQ(pad1D({7}, 2, 1, Schema::PadType::REFLECT, &code), (std::vector<float>{7, 7, 7, 7}));
    EXPECT_EQ(pad1D({1, 2, 3}, 2, 1, Schema::PadType::EDGE, &code), (std::vector<float>{1, 1, 1, 2, 3, 3}));
    EXPECT_EQ(pad1D({1, 2, 3}, 2, 1, Schema::PadType::WRAP, &code), (std::vector<float>{2, 3, 1, 2, 3, 1}));
    EXPECT_EQ(pad1D({1, 2, 3}, 0, 4, Schema::PadType::WRAP, &code), (std::vector<float>{1, 2, 3, 1, 2, 3, 1}));
}

TEST(Pad, NegativePadsCropFirst) {
    int code = 0;
    // crop one from the front, then reflect the cropped [2,3,4] by 2 at the end
    EXPECT_EQ(pad1D({1, 2, 3, 4}, -1, 2, Schema::PadType::REFLECT, &code), (std::vector<float>{2, 3, 4, 3, 2}));
    EXPECT_EQ(code, NO_ERROR);
    EXPECT_EQ(pad1D({1, 2, 3, 4}, -1, -3, Schema::PadType::CONSTANT, &code), (std::vector<float>{}));
    EXPECT_EQ(code, NO_ERROR);
    OpModel m;
    m.input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    m.constant<int64_t>("pads", {4}, {0, -1, 0, 1});
    padOp(m, {"x", "pads"}, Schema::PadType::CONSTANT);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{2, 3, 0, 5, 6, 0}));
}

TEST(Pad, AxesInputInt32WithValue) {
    OpModel m;
    m.input<int32_t>("x", {2, 2}, {1, 2, 3, 4});
    m.constant<int64_t>("pads", {2}, {1, 0});
    m.constant<int32_t>("v", {}, {-7});
    m.constant<int64_t>("axes", {1}, {-1});
    padOp(m, {"x", "pads", "v", "axes"}, Schema::PadType::CONSTANT);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["y"].get()), (std::vector<int32_t>{-7, 1, 2, -7, 3, 4}));
}

TEST(Pad, ZeroSizeInputConstantAndRank0) {
    OpModel m;
    m.input<float>("x", {0, 2}, {});
    m.constant<int64_t>("pads", {4}, {1, 0, 1, 0});
    m.constant<float>("v", {}, {3});
    padOp(m, {"x", "pads", "v"}, Schema::PadType::CONSTANT);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{3, 3, 3, 3}));

    OpModel s;
    s.input<float>("x", {}, {5});
    s.constant<int64_t>("pads", {0}, {});
    padOp(s, {"x", "pads"}, Schema::PadType::REFLECT);
    auto q = s.run();
    ASSERT_EQ(q.code, NO_ERROR);
    EXPECT_EQ(q.outputs["y"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<float>(q.outputs["y"].get()), (std::vector<float>{5}));
}

TEST(Pad, InvalidFailAtCreate) {
    OpModel a;
    a.input<float>("x", {0}, {});
    a.constant<int64_t>("pads", {2}, {1, 1});
    padOp(a, {"x", "pads"}, Schema::PadType::REFLECT);
    EXPECT_TRUE(a.createFails("only constant mode"));

    OpModel b;
    b.input<float>("x", {3}, {1, 2, 3});
    b.constant<int64_t>("pads", {2}, {-2, -2});
    padOp(b, {"x", "pads"}, Schema::PadType::CONSTANT);
    EXPECT_TRUE(b.createFails("crop more"));

    OpModel c;
    c.input<float>("x", {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    c.constant<int64_t>("pads", {2}, {1, 1});
    padOp(c, {"x", "pads"}, Schema::PadType::CONSTANT);
    EXPECT_TRUE(c.createFails("expected 4"));

    OpModel d;
    d.input<float>("x", {3}, {1, 2, 3});
    d.constant<int64_t>("pads", {2}, {1, 1});
    d.constant<int32_t>("v", {}, {1});
    padOp(d, {"x", "pads", "v"}, Schema::PadType::CONSTANT);
    EXPECT_TRUE(d.createFails("constant_value"));
}

TEST(Tile, GoldenInt64) {
    OpModel m;
    m.input<int64_t>("x", {2, 2}, {1, 2, 3, 4});
    m.constant<int64_t>("r", {2}, {2, 3});
    m.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{4, 6}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()),
              (std::vector<int64_t>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
}

TEST(Tile, ZeroRepeatsRank0AndErrors) {
    OpModel m;
    m.input<float>("x", {2}, {1, 2});
    m.constant<int64_t>("r", {1}, {0});
    m.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{0}));

    OpModel s;
    s.input<float>("x", {}, {4});
    s.constant<int64_t>("r", {0}, {});
    s.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    auto q = s.run();
    ASSERT_EQ(q.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(q.outputs["y"].get()), (std::vector<float>{4}));

    OpModel e;
    e.input<float>("x", {2}, {1, 2});
    e.constant<int64_t>("r", {2}, {1, 1});
    e.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    EXPECT_TRUE(e.createFails("repeats has 2 values"));

    OpModel n;
    n.input<float>("x", {2}, {1, 2});
    n.constant<int64_t>("r", {1}, {-1});
    n.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    EXPECT_TRUE(n.createFails("repeat -1"));

    // found by mnn_fuzz_onnx: a huge repeat was multiplied by the dim before its range check
    // (int64 overflow, undefined behaviour)
    OpModel h;
    h.input<float>("x", {127}, std::vector<float>(127, 1.0f));
    h.constant<int64_t>("r", {1}, {3542682660399613696LL});
    h.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    EXPECT_TRUE(h.createFails("repeat 3542682660399613696"));
    OpModel w;
    w.input<float>("x", {3}, {1, 2, 3});
    w.constant<int64_t>("r", {1}, {0x40000000});
    w.op(Schema::OpType::Tile, {"x", "r"}, {"y"});
    EXPECT_TRUE(w.createFails("repeat 1073741824"));
}

TEST(Expand, GoldenBidirectional) {
    OpModel m;
    m.input<float>("x", {3, 1}, {1, 2, 3});
    m.constant<int64_t>("s", {3}, {2, 1, 2});
    m.op(Schema::OpType::Expand, {"x", "s"}, {"y"});
    m.input<int32_t>("w", {1, 3}, {7, 8, 9});
    m.constant<int64_t>("s2", {2}, {2, 1});
    m.op(Schema::OpType::Expand, {"w", "s2"}, {"z"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 3, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()),
              (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["z"].get()), (std::vector<int32_t>{7, 8, 9, 7, 8, 9}));
}

TEST(Expand, SmallerShapeZeroAndRank0) {
    OpModel m;
    m.input<float>("x", {3}, {1, 2, 3});
    m.constant<int64_t>("s", {1}, {1});
    m.op(Schema::OpType::Expand, {"x", "s"}, {"y"});
    m.input<float>("o", {1}, {5});
    m.constant<int64_t>("s0", {2}, {2, 0});
    m.op(Schema::OpType::Expand, {"o", "s0"}, {"z"});
    m.input<float>("c", {}, {6});
    m.constant<int64_t>("s2", {2}, {2, 2});
    m.op(Schema::OpType::Expand, {"c", "s2"}, {"w"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{2, 0}));
    EXPECT_EQ(valuesOf<float>(r.outputs["w"].get()), (std::vector<float>{6, 6, 6, 6}));

    OpModel e;
    e.input<float>("x", {3}, {1, 2, 3});
    e.constant<int64_t>("s", {1}, {2});
    e.op(Schema::OpType::Expand, {"x", "s"}, {"y"});
    EXPECT_TRUE(e.createFails("does not broadcast"));
}
