// Slice: negative indices, negative steps, clamping, INT64 sentinels, zero-size and rank-0.
#include <limits>
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static const int64_t kMax = std::numeric_limits<int64_t>::max();
static const int64_t kMin = std::numeric_limits<int64_t>::min();

static std::vector<float> iota(int n) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) {
        v[i] = (float)i;
    }
    return v;
}

// runs Slice on x (float, dims) with constant starts/ends/axes/steps (empty axes/steps = absent)
static RunResult slice(const std::vector<int>& dims, const std::vector<int64_t>& starts,
                       const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
                       const std::vector<int64_t>& steps) {
    OpModel m;
    int n = 1;
    for (auto d : dims) {
        n *= d;
    }
    m.input<float>("x", dims, iota(n));
    m.constant<int64_t>("starts", {(int)starts.size()}, starts);
    m.constant<int64_t>("ends", {(int)ends.size()}, ends);
    std::vector<std::string> ins{"x", "starts", "ends"};
    if (!axes.empty() || !steps.empty()) {
        m.constant<int64_t>("axes", {(int)axes.size()}, axes);
        ins.push_back(axes.empty() ? "" : "axes");
    }
    if (!steps.empty()) {
        m.constant<int64_t>("steps", {(int)steps.size()}, steps);
        ins.push_back("steps");
    }
    m.op(Schema::OpType::Slice, ins, {"y"});
    return m.run();
}

TEST(Slice, GoldenNegativeEndDefaultAxes) {
    auto r = slice({3, 4}, {1, 0}, {3, -1}, {}, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{4, 5, 6, 8, 9, 10}));
}

TEST(Slice, GoldenNegativeStepToInt64Min) {
    auto r = slice({5}, {-1}, {kMin}, {0}, {-2});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{4, 2, 0}));
}

TEST(Slice, GoldenReverseFromInt64Max) {
    auto r = slice({2, 3}, {kMax}, {kMin}, {-1}, {-1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{2, 1, 0, 5, 4, 3}));
}

TEST(Slice, GoldenInt64MaxEndAndNegativeAxis) {
    auto r = slice({2, 3}, {1}, {kMax}, {-1}, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 2, 4, 5}));
}

TEST(Slice, GoldenClampingAndStep3) {
    auto r = slice({7}, {-100}, {100}, {0}, {3});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{0, 3, 6}));
    // negative step with start past the end clamps to the last element
    auto b = slice({4}, {10}, {0}, {0}, {-1});
    ASSERT_EQ(b.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(b.outputs["y"].get()), (std::vector<float>{3, 2, 1}));
}

TEST(Slice, EmptyWhenStartAfterEnd) {
    auto r = slice({2, 5}, {4}, {2}, {1}, {1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 0}));
}

TEST(Slice, GoldenTwoAxesWithSteps) {
    // x[0:3:2, ::-2] on a 3x4
    auto r = slice({3, 4}, {0, -1}, {3, kMin}, {0, 1}, {2, -2});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{3, 1, 11, 9}));
}

TEST(Slice, ZeroSizeInputAndInt8) {
    OpModel m;
    m.input<int8_t>("x", {0, 3}, {});
    m.constant<int32_t>("s", {1}, {1});
    m.constant<int32_t>("e", {1}, {3});
    m.constant<int32_t>("a", {1}, {1});
    m.op(Schema::OpType::Slice, {"x", "s", "e", "a"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{0, 2}));

    OpModel k;
    k.input<int8_t>("x", {2, 3}, {1, -2, 3, -4, 5, -6});
    k.constant<int32_t>("s", {1}, {-2});
    k.constant<int32_t>("e", {1}, {3});
    k.constant<int32_t>("a", {1}, {1});
    k.op(Schema::OpType::Slice, {"x", "s", "e", "a"}, {"y"});
    auto q = k.run();
    ASSERT_EQ(q.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int8_t>(q.outputs["y"].get()), (std::vector<int8_t>{-2, 3, 5, -6}));
}

TEST(Slice, Rank0WithNoAxes) {
    OpModel m;
    m.input<float>("x", {}, {7});
    m.constant<int64_t>("s", {0}, {});
    m.constant<int64_t>("e", {0}, {});
    m.op(Schema::OpType::Slice, {"x", "s", "e"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{7}));
}

TEST(Slice, StartsFromGraphInputResolveAtRun) {
    OpModel m;
    m.input<float>("x", {6}, iota(6));
    m.input<int64_t>("s", {1}, {-4});
    m.constant<int64_t>("e", {1}, {kMax});
    m.op(Schema::OpType::Slice, {"x", "s", "e"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{2, 3, 4, 5}));
}

TEST(Slice, InvalidParametersFailAtCreate) {
    OpModel z;
    z.input<float>("x", {4}, iota(4));
    z.constant<int64_t>("s", {1}, {0});
    z.constant<int64_t>("e", {1}, {4});
    z.constant<int64_t>("a", {1}, {0});
    z.constant<int64_t>("st", {1}, {0});
    z.op(Schema::OpType::Slice, {"x", "s", "e", "a", "st"}, {"y"});
    EXPECT_TRUE(z.createFails("step of axis 0 is 0"));

    OpModel d;
    d.input<float>("x", {4, 4}, iota(16));
    d.constant<int64_t>("s", {2}, {0, 0});
    d.constant<int64_t>("e", {2}, {1, 1});
    d.constant<int64_t>("a", {2}, {1, -1});
    d.op(Schema::OpType::Slice, {"x", "s", "e", "a"}, {"y"});
    EXPECT_TRUE(d.createFails("repeated"));

    OpModel f;
    f.input<float>("x", {4}, iota(4));
    f.constant<float>("s", {1}, {0});
    f.constant<float>("e", {1}, {1});
    f.op(Schema::OpType::Slice, {"x", "s", "e"}, {"y"});
    EXPECT_TRUE(f.createFails("int32/int64"));

    OpModel l;
    l.input<float>("x", {4}, iota(4));
    l.constant<int64_t>("s", {1}, {0});
    l.constant<int64_t>("e", {2}, {1, 2});
    l.op(Schema::OpType::Slice, {"x", "s", "e"}, {"y"});
    EXPECT_TRUE(l.createFails("ends has 2"));
}
