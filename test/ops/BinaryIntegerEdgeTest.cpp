// Integer BinaryOp edge cases that are undefined behaviour (or a SIGFPE trap) when computed with
// plain C++ operators: overflow wraps modulo 2^bits, lowest / -1 and lowest % -1 do not trap, a
// negative shift gives 0, integer results of NaN / infinite / out-of-range doubles are 0 / the
// saturated value (as Cast does). Found by mnn_fuzz_onnx under UBSan (a uint32 / uint8 Div whose
// 0 / 0 became NaN -> unsigned); the expected values come from 64-bit or hand arithmetic.
#include <limits>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::BinaryOpType;

namespace {
template <typename A, typename B>
RunResult runConstBinary(BinaryOpType type, const std::vector<A>& a, const std::vector<B>& b) {
    ModelBuilder mb;
    constantOf<A>(mb, "a", {(int)a.size()}, a);
    constantOf<B>(mb, "b", {(int)b.size()}, b);
    Schema::BinaryParamT p;
    p.type = type;
    mb.op(Schema::OpType::BinaryOp, "bin", {"a", "b"}, {"c"})->param.Set(p);
    mb.output("c");
    return runModel(mb.finish(), {});
}

template <typename T>
std::vector<T> binaryValues(BinaryOpType type, const std::vector<T>& a, const std::vector<T>& b) {
    auto r = runConstBinary<T, T>(type, a, b);
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR || !r.outputs.count("c")) {
        return {};
    }
    return valuesOf<T>(r.outputs["c"].get());
}

// the 64-bit result reduced modulo 2^32 into int32's range: an oracle independent of the kernel
int32_t wrap32(int64_t v) {
    int64_t m = ((v % 4294967296LL) + 4294967296LL) % 4294967296LL;
    return m >= 2147483648LL ? (int32_t)(m - 4294967296LL) : (int32_t)m;
}
}  // namespace

TEST(BinaryIntegerEdge, Int32AddSubMulWrap) {
    const int32_t hi = std::numeric_limits<int32_t>::max(), lo = std::numeric_limits<int32_t>::lowest();
    std::vector<int32_t> a = {hi, lo, 123456789, -7, hi};
    std::vector<int32_t> b = {1, -1, 1000, 3, hi};
    auto add = binaryValues<int32_t>(BinaryOpType::ADD, a, b);
    auto sub = binaryValues<int32_t>(BinaryOpType::SUB, a, b);
    auto mul = binaryValues<int32_t>(BinaryOpType::MUL, a, b);
    ASSERT_EQ(add.size(), a.size());
    ASSERT_EQ(sub.size(), a.size());
    ASSERT_EQ(mul.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(add[i], wrap32((int64_t)a[i] + b[i])) << i;
        EXPECT_EQ(sub[i], wrap32((int64_t)a[i] - b[i])) << i;
        EXPECT_EQ(mul[i], wrap32((int64_t)a[i] * b[i])) << i;
    }
    EXPECT_EQ(add[0], lo);
    EXPECT_EQ(mul[4], 1);  // (2^31 - 1)^2 = 2^62 - 2^32 + 1 = 1 mod 2^32
}

TEST(BinaryIntegerEdge, Int64AddMulWrap) {
    const int64_t hi = std::numeric_limits<int64_t>::max(), lo = std::numeric_limits<int64_t>::lowest();
    EXPECT_EQ(binaryValues<int64_t>(BinaryOpType::ADD, {hi, lo}, {1, -1}), (std::vector<int64_t>{lo, hi}));
    EXPECT_EQ(binaryValues<int64_t>(BinaryOpType::MUL, {hi, lo}, {2, -1}), (std::vector<int64_t>{-2, lo}));
}

TEST(BinaryIntegerEdge, LowestDividedOrModuloMinusOneDoesNotTrap) {
    const int32_t lo = std::numeric_limits<int32_t>::lowest();
    EXPECT_EQ(binaryValues<int32_t>(BinaryOpType::DIV, {lo, 7, 7, -9}, {-1, -1, 0, 2}),
              (std::vector<int32_t>{lo, -7, 0, -4}));
    EXPECT_EQ(binaryValues<int32_t>(BinaryOpType::MOD, {lo, -7, 7, -7}, {-1, -1, -3, 3}),
              (std::vector<int32_t>{0, 0, -2, 2}));
    EXPECT_EQ(binaryValues<int32_t>(BinaryOpType::FMOD, {lo, -7, 7, -7}, {-1, -1, -3, 3}),
              (std::vector<int32_t>{0, 0, 1, -1}));
    const int64_t lo64 = std::numeric_limits<int64_t>::lowest();
    EXPECT_EQ(binaryValues<int64_t>(BinaryOpType::DIV, {lo64}, {-1}), (std::vector<int64_t>{lo64}));
    EXPECT_EQ(binaryValues<int64_t>(BinaryOpType::MOD, {lo64}, {-1}), (std::vector<int64_t>{0}));
    const int8_t lo8 = std::numeric_limits<int8_t>::lowest();
    EXPECT_EQ(binaryValues<int8_t>(BinaryOpType::DIV, {lo8}, {-1}), (std::vector<int8_t>{lo8}));
}

TEST(BinaryIntegerEdge, NegativeOrWideShiftGivesZero) {
    EXPECT_EQ(binaryValues<int32_t>(BinaryOpType::BITSHIFT_LEFT, {1, 1, 3, 5}, {-1, 32, 2, 0}),
              (std::vector<int32_t>{0, 0, 12, 5}));
    EXPECT_EQ(binaryValues<int32_t>(BinaryOpType::BITSHIFT_RIGHT, {8, 8, 12}, {-3, 40, 2}),
              (std::vector<int32_t>{0, 0, 3}));
}

TEST(BinaryIntegerEdge, MeanDoesNotOverflowAndTruncatesTowardZero) {
    const int32_t hi = std::numeric_limits<int32_t>::max(), lo = std::numeric_limits<int32_t>::lowest();
    std::vector<int32_t> a = {hi, lo, 3, -3, 3, -4, lo, 1};
    std::vector<int32_t> b = {hi, lo, -4, -4, 4, 3, hi, 0};
    auto m = binaryValues<int32_t>(BinaryOpType::MEAN, a, b);
    ASSERT_EQ(m.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(m[i], (int32_t)(((int64_t)a[i] + b[i]) / 2)) << a[i] << " " << b[i];
    }
}

TEST(BinaryIntegerEdge, IntegerPowSaturatesLikeCast) {
    const int32_t hi = std::numeric_limits<int32_t>::max(), lo = std::numeric_limits<int32_t>::lowest();
    // 2^40 over the range, 0^-1 = inf, (-2)^31 exactly lowest, (-2)^33 under the range, 3^4
    EXPECT_EQ(binaryValues<int32_t>(BinaryOpType::POW, {2, 0, -2, -2, 3}, {40, -1, 31, 33, 4}),
              (std::vector<int32_t>{hi, hi, lo, lo, 81}));
    EXPECT_EQ(binaryValues<uint8_t>(BinaryOpType::POW, {2, 16, 0}, {9, 2, 0}), (std::vector<uint8_t>{255, 255, 1}));
}

TEST(BinaryIntegerEdge, MixedTypesIntegerResultOfNaNInfAndDivByZero) {
    // the fuzzer's case: uint32 / uint8 with zero divisors (0 / 0 was NaN -> uint32)
    auto div = runConstBinary<uint32_t, uint8_t>(BinaryOpType::DIV, {0, 5, 7, 4000000000u}, {0, 0, 2, 1});
    ASSERT_EQ(div.code, NO_ERROR);
    EXPECT_EQ(valuesOf<uint32_t>(div.outputs["c"].get()), (std::vector<uint32_t>{0, 0, 3, 4000000000u}));
    // int32 ** float: inf saturates, NaN ((-2) ** 0.5) gives 0, negative -> unsigned saturates at 0
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto pw = runConstBinary<int32_t, float>(BinaryOpType::POW, {2, 0, -2, 9}, {40.0f, -1.0f, 0.5f, 0.5f});
    ASSERT_EQ(pw.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(pw.outputs["c"].get()),
              (std::vector<int32_t>{std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max(), 0, 3}));
    auto sub = runConstBinary<uint16_t, float>(BinaryOpType::SUB, {1, 5, 5}, {3.0f, nan, 1e9f});
    ASSERT_EQ(sub.code, NO_ERROR);
    EXPECT_EQ(valuesOf<uint16_t>(sub.outputs["c"].get()), (std::vector<uint16_t>{0, 0, 0}));
    auto add = runConstBinary<int8_t, float>(BinaryOpType::ADD, {100, -100, 1}, {100.0f, -100.0f, 1.5f});
    ASSERT_EQ(add.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int8_t>(add.outputs["c"].get()), (std::vector<int8_t>{127, -128, 2}));
}
