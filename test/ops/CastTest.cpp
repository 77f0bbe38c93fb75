#include <math.h>
#include <limits>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::DataType;

namespace {
std::vector<uint8_t> castModel(DataType from, DataType to, const std::vector<int>& dims) {
    ModelBuilder mb;
    mb.input("x", dims, from);
    auto op = mb.op(Schema::OpType::Cast, "cast", {"x"}, {"y"});
    Schema::CastParamT p;
    p.to = to;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename S, typename D>
std::vector<D> runCast(const std::vector<S>& x, DataType to = dataTypeOf<D>()) {
    std::vector<int> dims = {(int)x.size()};
    auto model = castModel(dataTypeOf<S>(), to, dims);
    auto in = makeTyped<S>(dims, x);
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), dims);
    return valuesOf<D>(r.outputs["y"].get());
}
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
} // namespace

TEST(Cast, FloatToIntTruncatesTowardZero) {
    EXPECT_EQ((runCast<float, int32_t>({1.9f, -1.9f, 0.5f, -0.5f, 7.f, -7.f})),
              (std::vector<int32_t>{1, -1, 0, 0, 7, -7}));
    EXPECT_EQ((runCast<float, int64_t>({3.99f, -3.99f, 1e10f})), (std::vector<int64_t>{3, -3, 10000000000LL}));
    EXPECT_EQ((runCast<double, int8_t>({-5.5, 100.25})), (std::vector<int8_t>{-5, 100}));
}

TEST(Cast, FloatToIntOutOfRangeSaturatesAndNanIsZero) {
    EXPECT_EQ((runCast<float, int32_t>({3e9f, -3e9f, kNan, kInf, -kInf})),
              (std::vector<int32_t>{INT32_MAX, INT32_MIN, 0, INT32_MAX, INT32_MIN}));
    EXPECT_EQ((runCast<float, uint8_t>({-1.f, 255.7f, 300.f})), (std::vector<uint8_t>{0, 255, 255}));
}

TEST(Cast, ToBoolIsNonZero) {
    EXPECT_EQ((runCast<float, uint8_t>({0.f, -0.f, 2.f, -0.5f, kNan, kInf}, DataType::DT_BOOL)),
              (std::vector<uint8_t>{0, 0, 1, 1, 1, 1}));
    EXPECT_EQ((runCast<int64_t, uint8_t>({0, 256, -1}, DataType::DT_BOOL)), (std::vector<uint8_t>{0, 1, 1}));
    // uint8 -> bool: 256 would wrap to 0 as uint8, but 2 must stay true (not 2)
    EXPECT_EQ((runCast<uint8_t, uint8_t>({0, 2, 255}, DataType::DT_BOOL)), (std::vector<uint8_t>{0, 1, 1}));
}

TEST(Cast, FromBoolAndBetweenIntegers) {
    EXPECT_EQ((runCast<uint8_t, float>({0, 1})), (std::vector<float>{0.f, 1.f}));
    EXPECT_EQ((runCast<uint8_t, int64_t>({0, 1, 200})), (std::vector<int64_t>{0, 1, 200}));
    EXPECT_EQ((runCast<int64_t, int32_t>({-5, 1LL << 33, (1LL << 33) + 7})), (std::vector<int32_t>{-5, 0, 7}));
    EXPECT_EQ((runCast<int32_t, int8_t>({300, -129})), (std::vector<int8_t>{44, 127}));
    EXPECT_EQ((runCast<int32_t, uint16_t>({-1, 65537})), (std::vector<uint16_t>{65535, 1}));
}

TEST(Cast, FloatWidths) {
    // int64 -> float rounds to nearest: 2^24 + 1 is not representable
    EXPECT_EQ((runCast<int64_t, float>({16777217, -3})), (std::vector<float>{16777216.f, -3.f}));
    auto d = runCast<float, double>({0.1f, kInf});
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0], (double)0.1f);
    EXPECT_TRUE(std::isinf(d[1]));
    EXPECT_EQ((runCast<double, float>({0.1, 1e300})), (std::vector<float>{0.1f, kInf}));
    auto n = runCast<double, float>({std::nan("")});
    ASSERT_EQ(n.size(), 1u);
    EXPECT_TRUE(std::isnan(n[0]));
}

TEST(Cast, Float16RoundsToHalfPrecision) {
    const float ulp = 1.f / 1024.f;  // fp16 spacing in [1, 2)
    auto r = runCast<float, float>({1.f + ulp / 2, 1.f + 3 * ulp / 2, 65504.f, 65520.f, 1e-8f, 3e-8f, -2.5f, kNan},
                                   DataType::DT_FLOAT16);
    ASSERT_EQ(r.size(), 8u);
    EXPECT_EQ(r[0], 1.f);             // tie -> even
    EXPECT_EQ(r[1], 1.f + 2 * ulp);   // tie -> even (upwards)
    EXPECT_EQ(r[2], 65504.f);         // largest half
    EXPECT_TRUE(std::isinf(r[3]));    // rounds past the largest half
    EXPECT_EQ(r[4], 0.f);             // under half the smallest subnormal
    EXPECT_EQ(r[5], ldexpf(1.f, -24));  // smallest subnormal
    EXPECT_EQ(r[6], -2.5f);
    EXPECT_TRUE(std::isnan(r[7]));
    // from an integer type
    EXPECT_EQ((runCast<int32_t, float>({2049, 4097}, DataType::DT_FLOAT16)), (std::vector<float>{2048.f, 4096.f}));
}

TEST(Cast, BFloat16RoundsToBf16Precision) {
    const float ulp = 1.f / 128.f;  // bf16 spacing in [1, 2)
    auto r = runCast<float, float>({1.f + ulp / 2, 1.f + 3 * ulp / 2, 1.f + ulp * 0.75f, 3.f, kNan, -kInf},
                                   DataType::DT_BFLOAT16);
    ASSERT_EQ(r.size(), 6u);
    EXPECT_EQ(r[0], 1.f);
    EXPECT_EQ(r[1], 1.f + 2 * ulp);
    EXPECT_EQ(r[2], 1.f + ulp);
    EXPECT_EQ(r[3], 3.f);
    EXPECT_TRUE(std::isnan(r[4]));
    EXPECT_EQ(r[5], -kInf);
}

TEST(Cast, RankZeroAndZeroSize) {
    auto model = castModel(DataType::DT_FLOAT, DataType::DT_INT64, {});
    auto x = makeTensor({}, {-2.5f});
    auto r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{-2}));

    auto model0 = castModel(DataType::DT_FLOAT, DataType::DT_INT32, {0, 4});
    auto x0 = makeTensor({0, 4}, {});
    auto r0 = runModel(model0, {{"x", x0.get()}});
    ASSERT_EQ(r0.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r0.outputs["y"].get()), (std::vector<int>{0, 4}));
    EXPECT_EQ(r0.outputs["y"]->elementSize(), 0);
}

TEST(Cast, UnsupportedTargetFailsAtCreate) {
    EXPECT_TRUE(createFails(castModel(DataType::DT_FLOAT, DataType::DT_STRING, {3}), "cast", "target"));
    EXPECT_TRUE(createFails(castModel(DataType::DT_FLOAT, DataType::DT_INVALID, {3}), "cast", "target"));
}
