// DynamicQuantizeLinear: ONNX's documented example, the all-zero range (scale 1, as ONNX Runtime),
// saturation of the zero point, and random tensors against the spec formulas written out here.
#include <math.h>
#include <random>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
struct Quantized {
    std::vector<uint8_t> y;
    float scale = 0.0f;
    uint8_t zeroPoint = 0;
};

Quantized runDql(const std::vector<int>& dims, const std::vector<float>& x) {
    ModelBuilder mb;
    mb.input("x", dims);
    mb.op(Schema::OpType::DynamicQuantizeLinear, "dql", {"x"}, {"y", "s", "z"});
    mb.output("y");
    mb.output("s");
    mb.output("z");
    auto in = makeTensor(dims, x);
    auto r = runModel(mb.finish(), {{"x", in.get()}});
    Quantized q;
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return q;
    }
    q.y = valuesOf<uint8_t>(r.outputs["y"].get());
    EXPECT_EQ(r.outputs["s"]->dimensions(), 0);
    EXPECT_EQ(r.outputs["z"]->dimensions(), 0);
    q.scale = valuesOf<float>(r.outputs["s"].get()).at(0);
    q.zeroPoint = valuesOf<uint8_t>(r.outputs["z"].get()).at(0);
    return q;
}

/** the ONNX formulas, float32 arithmetic, std::nearbyint (half to even) */
Quantized reference(const std::vector<float>& x) {
    float lo = 0.0f, hi = 0.0f;
    for (float v : x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    Quantized q;
    q.scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
    const float zp = std::min(255.0f, std::max(0.0f, 0.0f - lo / q.scale));
    q.zeroPoint = (uint8_t)std::nearbyint(zp);
    for (float v : x) {
        const float y = std::nearbyint(v / q.scale) + (float)q.zeroPoint;
        q.y.push_back((uint8_t)std::min(255.0f, std::max(0.0f, y)));
    }
    return q;
}
}  // namespace

TEST(DynamicQuantizeLinear, OnnxExample) {
    // ONNX operator documentation: x = [0, 2, -3, -2.5, 1.34, 0.5]
    auto q = runDql({6}, {0.0f, 2.0f, -3.0f, -2.5f, 1.34f, 0.5f});
    EXPECT_FLOAT_EQ(q.scale, 5.0f / 255.0f);
    EXPECT_EQ(q.zeroPoint, 153);
    EXPECT_EQ(q.y, (std::vector<uint8_t>{153, 255, 0, 26, 221, 179}));
}

TEST(DynamicQuantizeLinear, RangeIncludesZero) {
    // all positive: min is taken as 0, zero point 0; all negative: max 0, zero point 255.
    // 2 / float(4 / 255) is 127.49999..., so it rounds down
    auto p = runDql({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
    EXPECT_FLOAT_EQ(p.scale, 4.0f / 255.0f);
    EXPECT_EQ(p.zeroPoint, 0);
    EXPECT_EQ(p.y, (std::vector<uint8_t>{64, 127, 191, 255}));
    auto n = runDql({3}, {-1.0f, -2.0f, -4.0f});
    EXPECT_FLOAT_EQ(n.scale, 4.0f / 255.0f);
    EXPECT_EQ(n.zeroPoint, 255);
    EXPECT_EQ(n.y, (std::vector<uint8_t>{191, 128, 0}));
}

TEST(DynamicQuantizeLinear, AllZeroGivesScaleOne) {
    auto q = runDql({3}, {0.0f, 0.0f, 0.0f});
    EXPECT_EQ(q.scale, 1.0f);
    EXPECT_EQ(q.zeroPoint, 0);
    EXPECT_EQ(q.y, (std::vector<uint8_t>{0, 0, 0}));
}

TEST(DynamicQuantizeLinear, EmptyAndRankZero) {
    auto e = runDql({0, 3}, {});
    EXPECT_TRUE(e.y.empty());
    EXPECT_EQ(e.scale, 1.0f);
    auto s = runDql({}, {-2.0f});
    EXPECT_EQ(s.y, (std::vector<uint8_t>{0}));
    EXPECT_EQ(s.zeroPoint, 255);
}

TEST(DynamicQuantizeLinear, RandomMatchesFormulas) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        std::uniform_real_distribution<float> spread(0.1f, 20.0f), shift(-5.0f, 5.0f);
        const float a = spread(rng), b = shift(rng);
        std::normal_distribution<float> nd(b, a);
        std::vector<float> x(257);
        for (auto& v : x) {
            v = nd(rng);
        }
        auto got = runDql({257}, x);
        auto want = reference(x);
        EXPECT_EQ(got.scale, want.scale);
        EXPECT_EQ(got.zeroPoint, want.zeroPoint);
        EXPECT_EQ(got.y, want.y) << "trial " << trial;
    }
}

TEST(DynamicQuantizeLinear, NonFloatInputFailsAtCreate) {
    ModelBuilder mb;
    mb.input("x", {4}, Schema::DataType::DT_INT32);
    mb.op(Schema::OpType::DynamicQuantizeLinear, "dql", {"x"}, {"y", "s", "z"});
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "dql", "float32"));
}
