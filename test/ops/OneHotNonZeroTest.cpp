// OneHot, NonZero, Compress.
#include <math.h>
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static void setAxis(Schema::OpT* op, int axis) {
    Schema::AxisParamT p;
    p.axis = axis;
    op->param.Set(p);
}

// Compress: AxisParam.axes = [axis] when there is an axis (as the converter writes it)
static void setCompressAxis(Schema::OpT* op, bool hasAxis, int axis) {
    Schema::AxisParamT p;
    if (hasAxis) {
        p.axis = axis;
        p.axes = {axis};
    }
    op->param.Set(p);
}

TEST(OneHot, GoldenLastAndFirstAxis) {
    OpModel m;
    m.input<int64_t>("i", {4}, {0, 2, -1, 3});
    m.constant<int64_t>("depth", {}, {3});
    m.constant<float>("v", {2}, {0, 1});
    setAxis(m.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"y"}), -1);
    setAxis(m.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"z"}), 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{4, 3}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{3, 4}));
    EXPECT_EQ(valuesOf<float>(r.outputs["z"].get()), (std::vector<float>{1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0}));
}

TEST(OneHot, FloatIndicesFloatDepthInt32ValuesMiddleAxis) {
    OpModel m;
    m.input<float>("i", {2, 2}, {1.7f, 0.0f, -2.0f, 1.0f});
    m.constant<float>("depth", {1}, {2.0f});
    m.constant<int32_t>("v", {2}, {5, 9});
    setAxis(m.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"y"}), 1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    // y[a][d][b] = on if trunc(i[a][b]) (+2 if negative) == d
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 2, 2}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["y"].get()), (std::vector<int32_t>{5, 9, 9, 5, 9, 5, 5, 9}));
}

// NaN and float indices past int64 (found by mnn_fuzz_onnx: an undefined float -> int64
// conversion under UBSan) select nothing; in-range ones truncate toward zero
TEST(OneHot, NaNAndHugeFloatIndicesSelectNothing) {
    OpModel m;
    m.input<float>("i", {6}, {NAN, 1.7e25f, -1.7e25f, 1.7f, -1.0f, INFINITY});
    m.constant<int64_t>("depth", {}, {3});
    m.constant<float>("v", {2}, {0, 1});
    setAxis(m.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"y"}), -1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()),
              (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(OneHot, Rank0IndexAndErrors) {
    OpModel m;
    m.input<int32_t>("i", {}, {1});
    m.constant<int32_t>("depth", {}, {3});
    m.constant<uint8_t>("v", {2}, {0, 1});
    setAxis(m.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"y"}), -1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["y"].get()), (std::vector<uint8_t>{0, 1, 0}));

    OpModel v;
    v.input<int32_t>("i", {2}, {1, 0});
    v.constant<int32_t>("depth", {}, {3});
    v.constant<float>("v", {3}, {0, 1, 2});
    setAxis(v.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"y"}), -1);
    EXPECT_TRUE(v.createFails("[off, on]"));

    OpModel a;
    a.input<int32_t>("i", {2}, {1, 0});
    a.constant<int32_t>("depth", {}, {3});
    a.constant<float>("v", {2}, {0, 1});
    setAxis(a.op(Schema::OpType::OneHot, {"i", "depth", "v"}, {"y"}), 2);
    EXPECT_TRUE(a.createFails("axis 2 out of range"));
}

TEST(NonZero, GoldenCoordinates) {
    OpModel m;
    m.input<int32_t>("x", {2, 2}, {1, 0, 1, 1});
    m.op(Schema::OpType::NonZero, {"x"}, {"y"});
    m.input<float>("f", {4}, {-0.0f, NAN, 0.0f, 2.0f});
    m.op(Schema::OpType::NonZero, {"f"}, {"z"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->getType(), halide_type_of<int64_t>());
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{0, 1, 1, 0, 0, 1}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{1, 2}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["z"].get()), (std::vector<int64_t>{1, 3}));
}

TEST(NonZero, Rank0ZeroSizeAndConstantInput) {
    OpModel m;
    m.input<float>("s", {}, {5});
    m.op(Schema::OpType::NonZero, {"s"}, {"a"});
    m.input<uint8_t>("e", {0, 3}, {});
    m.op(Schema::OpType::NonZero, {"e"}, {"b"});
    m.constant<int64_t>("c", {3}, {0, 7, 0});
    m.op(Schema::OpType::NonZero, {"c"}, {"d"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["a"].get()), (std::vector<int>{1, 1}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["a"].get()), (std::vector<int64_t>{0}));
    EXPECT_EQ(dimsOf(r.outputs["b"].get()), (std::vector<int>{2, 0}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["d"].get()), (std::vector<int64_t>{1}));
}

static RunResult compress(const std::vector<uint8_t>& cond, bool hasAxis, int axis) {
    OpModel m;
    m.input<float>("x", {3, 2}, {1, 2, 3, 4, 5, 6});
    m.constant<uint8_t>("c", {(int)cond.size()}, cond);
    setCompressAxis(m.op(Schema::OpType::Compress, {"x", "c"}, {"y"}), hasAxis, axis);
    return m.run();
}

TEST(Compress, GoldenAxesAndFlattened) {
    auto a = compress({0, 1, 1}, true, 0);
    ASSERT_EQ(a.code, NO_ERROR);
    EXPECT_EQ(dimsOf(a.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<float>(a.outputs["y"].get()), (std::vector<float>{3, 4, 5, 6}));
    auto b = compress({0, 1}, true, -1);
    ASSERT_EQ(b.code, NO_ERROR);
    EXPECT_EQ(dimsOf(b.outputs["y"].get()), (std::vector<int>{3, 1}));
    EXPECT_EQ(valuesOf<float>(b.outputs["y"].get()), (std::vector<float>{2, 4, 6}));
    auto c = compress({0, 1, 0, 0, 1}, false, 0);
    ASSERT_EQ(c.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(c.outputs["y"].get()), (std::vector<float>{2, 5}));
    auto d = compress({1}, true, 0);
    ASSERT_EQ(d.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(d.outputs["y"].get()), (std::vector<float>{1, 2}));
    auto e = compress({0, 1, 0, 0}, true, 0);
    ASSERT_EQ(e.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(e.outputs["y"].get()), (std::vector<float>{3, 4}));
    auto f = compress({0, 0, 0}, true, 0);
    ASSERT_EQ(f.code, NO_ERROR);
    EXPECT_EQ(dimsOf(f.outputs["y"].get()), (std::vector<int>{0, 2}));
}

TEST(Compress, ConditionFromGraphInputAndErrors) {
    OpModel m;
    m.input<int64_t>("x", {4}, {10, 20, 30, 40});
    m.input<uint8_t>("c", {4}, {1, 0, 0, 1});
    setCompressAxis(m.op(Schema::OpType::Compress, {"x", "c"}, {"y"}), true, 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{10, 40}));

    OpModel b;
    b.input<float>("x", {2}, {1, 2});
    b.constant<uint8_t>("c", {3}, {0, 0, 1});
    setCompressAxis(b.op(Schema::OpType::Compress, {"x", "c"}, {"y"}), true, 0);
    EXPECT_TRUE(b.createFails("beyond"));

    OpModel c;
    c.input<float>("x", {2}, {1, 2});
    c.constant<uint8_t>("c", {1, 2}, {0, 1});
    setCompressAxis(c.op(Schema::OpType::Compress, {"x", "c"}, {"y"}), true, 0);
    EXPECT_TRUE(c.createFails("1-D"));
}
