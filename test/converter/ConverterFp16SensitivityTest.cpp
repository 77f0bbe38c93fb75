// --fp16 sensitivity pass (tools/converter/source/Fp16Sensitivity.hpp): weights whose fp16
// rounding is amplified stay float, the others go fp16, and the outputs stay within the target
// against a plain double-precision oracle.
#include <cmath>
#include "Fp16Sensitivity.hpp"
#include "Graph.hpp"
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using T = MNN::Schema::OpType;

namespace {
const int kIn = 32, kOut = 16, kWide = 64, kRows = 4;

struct Weights {
    std::vector<float> w1, w2, w3;  // [kIn, kOut], [kIn, kOut], [kIn, kWide]
};

// d = x W1 - x W2 with W2 = W1 + 1e-3 noise: the fp16 rounding of W1 and W2 (~1e-4 absolute) is
// of the order of the difference, so it shows at the output ~1000x amplified. z = x W3 is plain.
// W1 and W2 read only the first half of x's features.
OnnxBuilder cancellingModel(Weights* w) {
    OnnxBuilder b(13);
    b.input("x", {kRows, kIn});
    w->w1 = randomFloats(kIn * kOut, 51);
    auto noise = randomFloats(kIn * kOut, 52);
    w->w2.resize(w->w1.size());
    for (int k = 0; k < kIn; ++k) {
        for (int n = 0; n < kOut; ++n) {
            int i = k * kOut + n;
            if (k >= kIn / 2) {
                w->w1[i] = 0;
            }
            w->w2[i] = w->w1[i] + (k < kIn / 2 ? 1e-3f * noise[i] : 0.0f);
        }
    }
    w->w3 = randomFloats(kIn * kWide, 53);
    b.initializer("w1", {kIn, kOut}, w->w1);
    b.initializer("w2", {kIn, kOut}, w->w2);
    b.initializer("w3", {kIn, kWide}, w->w3);
    b.node("MatMul", {"x", "w1"}, {"a"});
    b.node("MatMul", {"x", "w2"}, {"b"});
    b.node("Sub", {"a", "b"}, {"d"});
    b.node("MatMul", {"x", "w3"}, {"z"});
    b.output("d");
    b.output("z");
    return b;
}

/** x [kRows, kIn] times w [kIn, n] in double */
std::vector<double> matmul(const std::vector<float>& x, const std::vector<float>& w, int n) {
    std::vector<double> y(kRows * n, 0.0);
    for (int r = 0; r < kRows; ++r)
        for (int k = 0; k < kIn; ++k)
            for (int j = 0; j < n; ++j)
                y[r * n + j] += (double)x[r * kIn + k] * w[k * n + j];
    return y;
}

double relTo(const std::vector<float>& out, const std::vector<double>& ref) {
    double maxRef = 0, maxDiff = 0;
    EXPECT_EQ(out.size(), ref.size());
    for (size_t i = 0; i < ref.size() && i < out.size(); ++i) {
        maxRef = std::max(maxRef, std::fabs(ref[i]));
        maxDiff = std::max(maxDiff, std::fabs(out[i] - ref[i]));
    }
    return maxDiff / maxRef;
}

Schema::Compression compressionOf(const std::vector<uint8_t>& model, const std::string& name) {
    auto net = netOf(model);
    for (auto c : *net->constants()) {
        if (net->tensorNames()->Get(c->tensorIndex())->str() == name)
            return c->compression();
    }
    ADD_FAILURE() << "no constant " << name;
    return Schema::Compression::NONE;
}

/** the oracle's errors of (d, z) for a converted model on a test input */
std::pair<double, double> errors(const std::vector<uint8_t>& model, const Weights& w) {
    auto x = randomFloats(kRows * kIn, 54);
    auto out = runFloat(model, {{"x", {{kRows, kIn}, x}}});
    auto a = matmul(x, w.w1, kOut), b = matmul(x, w.w2, kOut);
    std::vector<double> d(a.size());
    for (size_t i = 0; i < d.size(); ++i)
        d[i] = a[i] - b[i];
    return {relTo(out["d"], d), relTo(out["z"], matmul(x, w.w3, kWide))};
}
}  // namespace

TEST(ConverterFp16Sensitivity, RelativeError) {
    EXPECT_DOUBLE_EQ(Convert::relativeError({{1, 2}}, {{1, 4}}), 0.5);
    EXPECT_DOUBLE_EQ(Convert::relativeError({{1, 2}, {0, 0}}, {{1, 2}, {0, 0.25f}}), 1.0);  // worst output
    EXPECT_DOUBLE_EQ(Convert::relativeError({{0.5f}}, {{0}}), 0.5);                         // zero ref: absolute
    EXPECT_TRUE(std::isinf(Convert::relativeError({{NAN}}, {{1}})));
}

TEST(ConverterFp16Sensitivity, KeepsAmplifiedWeightsFloat) {
    REQUIRE_ENGINE_OPS(T::MatMul, T::BinaryOp);
    Weights w;
    auto b = cancellingModel(&w);
    auto plain = convert(b);
    Convert::Options every;
    every.fp16 = true;
    every.fp16Target = 0;  // before the pass: every weight fp16
    auto before = convert(b, every);
    Convert::Options o;
    o.fp16 = true;  // default target 2e-3
    auto after = convert(b, o);
    ASSERT_TRUE(plain.ok && before.ok && after.ok) << before.error << after.error;

    EXPECT_FALSE(before.fp16.measured);
    for (auto n : {"w1", "w2", "w3"})
        EXPECT_EQ(compressionOf(before.model, n), Schema::Compression::FP16) << n;
    auto eBefore = errors(before.model, w);
    EXPECT_GT(eBefore.first, 1e-2);  // the cancellation shows the fp16 rounding
    EXPECT_LT(eBefore.second, 2e-3);

    const auto& r = after.fp16;
    EXPECT_TRUE(r.measured) << r.note;
    EXPECT_EQ(r.candidates, 3);
    EXPECT_EQ(r.keptFloat, 2);
    EXPECT_EQ(r.keptBytes, (size_t)2 * kIn * kOut * 4);
    EXPECT_EQ(r.halfBytes, (size_t)kIn * kWide * 2);
    EXPECT_GT(r.errorAll, 1e-2);
    EXPECT_LE(r.error, 2e-3);
    EXPECT_GE(r.runs, 2 + 3 + 1);  // float, all fp16, each alone, the chosen set
    EXPECT_EQ(compressionOf(after.model, "w1"), Schema::Compression::NONE);
    EXPECT_EQ(compressionOf(after.model, "w2"), Schema::Compression::NONE);
    EXPECT_EQ(compressionOf(after.model, "w3"), Schema::Compression::FP16);
    auto eAfter = errors(after.model, w);
    EXPECT_LE(eAfter.first, 2e-3);
    EXPECT_LE(eAfter.second, 2e-3);
    // w3 still saves its half: 64*32*2 bytes
    EXPECT_LE(after.model.size() + kIn * kWide * 2 - 64, plain.model.size());
    EXPECT_GT(after.model.size(), before.model.size());
    EXPECT_NE(r.line().find("2 of 3 weights kept float"), std::string::npos) << r.line();
}

TEST(ConverterFp16Sensitivity, UsesTheCalibrationInput) {
    REQUIRE_ENGINE_OPS(T::MatMul, T::BinaryOp);
    Weights w;
    auto b = cancellingModel(&w);
    Convert::Options o;
    o.fp16 = true;
    // features 0..15 zero: d is 0 with float and fp16 weights alike, so nothing needs to stay float
    auto x = randomFloats(kRows * kIn, 55);
    for (int r = 0; r < kRows; ++r)
        for (int k = 0; k < kIn / 2; ++k)
            x[r * kIn + k] = 0;
    o.calibrationInputs["x"] = {{kRows, kIn}, x};
    auto res = convert(b, o);
    ASSERT_TRUE(res.ok) << res.error;
    EXPECT_TRUE(res.fp16.measured) << res.fp16.note;
    EXPECT_EQ(res.fp16.keptFloat, 0);
    EXPECT_LE(res.fp16.errorAll, 2e-3);
    EXPECT_EQ(res.fp16.runs, 2);
    EXPECT_EQ(compressionOf(res.model, "w1"), Schema::Compression::FP16);
}

TEST(ConverterFp16Sensitivity, BadCalibrationInputFailsTheConversion) {
    REQUIRE_ENGINE_OPS(T::MatMul, T::BinaryOp);
    Weights w;
    auto b = cancellingModel(&w);
    Convert::Options o;
    o.fp16 = true;
    o.calibrationInputs["nope"] = {{kRows, kIn}, std::vector<float>(kRows * kIn, 1.0f)};
    auto r = convert(b, o);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("nope"), std::string::npos) << r.error;
    o.calibrationInputs.clear();
    o.calibrationInputs["x"] = {{kRows, kIn}, std::vector<float>(7, 1.0f)};
    r = convert(b, o);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("calibration input x"), std::string::npos) << r.error;
}

TEST(ConverterFp16Sensitivity, NothingToMeasure) {
    // only a bias-like vector: no fp16 candidate, no run
    OnnxBuilder b(13);
    b.input("x", {2, 4});
    b.initializer("v", {4}, {1, 2, 3, 4});
    b.node("Mul", {"x", "v"}, {"y"});
    b.output("y");
    Convert::Options o;
    o.fp16 = true;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FALSE(r.fp16.measured);
    EXPECT_EQ(r.fp16.candidates, 0);
    EXPECT_EQ(r.fp16.runs, 0);
    EXPECT_NE(r.fp16.line().find("none measured"), std::string::npos);
}

TEST(ConverterFp16Sensitivity, WeightsOverHalfRangeStayFloat) {
    REQUIRE_ENGINE_OPS(T::MatMul);
    // one weight of 1e5 overflows fp16 (max 65504): stored fp16 it makes the outputs inf
    OnnxBuilder b(13);
    b.input("x", {kRows, kIn});
    auto w = randomFloats(kIn * kOut, 71);
    w[5] = 1e5f;
    b.initializer("w", {kIn, kOut}, w);
    b.node("MatMul", {"x", "w"}, {"y"});
    b.output("y");
    Convert::Options every;
    every.fp16 = true;
    every.fp16Target = 0;
    auto before = convert(b, every);
    Convert::Options o;
    o.fp16 = true;
    auto after = convert(b, o);
    ASSERT_TRUE(before.ok && after.ok) << before.error << after.error;
    auto x = randomFloats(kRows * kIn, 72);
    auto ref = matmul(x, w, kOut);
    auto yBefore = runFloat(before.model, {{"x", {{kRows, kIn}, x}}})["y"];
    ASSERT_EQ(yBefore.size(), ref.size());
    EXPECT_TRUE(std::isinf(yBefore[5]) || std::isnan(yBefore[5]));
    EXPECT_TRUE(after.fp16.measured) << after.fp16.note;
    EXPECT_EQ(after.fp16.keptFloat, 1);
    EXPECT_EQ(after.fp16.errorAll, 1e3);  // capped
    EXPECT_EQ(after.fp16.error, 0.0);
    EXPECT_EQ(compressionOf(after.model, "w"), Schema::Compression::NONE);
    EXPECT_LE(relTo(runFloat(after.model, {{"x", {{kRows, kIn}, x}}})["y"], ref), 1e-5);
}
