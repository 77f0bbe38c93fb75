// --fp16 and --weightQuantBits 8: what is stored, and how close the results stay.
#include <cmath>
#include <cstring>
#include "Graph.hpp"
#include "ModelInfo.hpp"
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using T = MNN::Schema::OpType;

namespace {
const Schema::Blob* blobNamed(const Schema::Net* net, const std::string& name) {
    for (auto c : *net->constants()) {
        if (net->tensorNames()->Get(c->tensorIndex())->str() == name)
            return c;
    }
    return nullptr;
}

/** the stored values decoded the way the engine's loader does */
std::vector<float> decode(const Schema::Blob* b) {
    std::vector<int> dims(b->dims()->begin(), b->dims()->end());
    size_t n = 1;
    for (auto d : dims)
        n *= d;
    std::vector<float> v(n);
    auto raw = b->raw()->data();
    if (b->compression() == Schema::Compression::FP16) {
        for (size_t i = 0; i < n; ++i) {
            uint16_t h;
            memcpy(&h, raw + 2 * i, 2);
            v[i] = Convert::halfToFloat(h);
        }
    } else if (b->compression() == Schema::Compression::INT8_PER_CHANNEL) {
        int axis = b->quantAxis();
        size_t inner = 1;
        for (size_t i = axis + 1; i < dims.size(); ++i)
            inner *= dims[i];
        for (size_t i = 0; i < n; ++i)
            v[i] = (int8_t)raw[i] * b->scales()->Get((i / inner) % dims[axis]);
    } else {
        memcpy(v.data(), raw, n * 4);
    }
    return v;
}

OnnxBuilder weightModel(std::vector<float>* wm, std::vector<float>* wc) {
    OnnxBuilder b(13);
    b.input("x", {4, 16});
    *wm = randomFloats(16 * 8, 21);
    for (size_t i = 0; i < wm->size(); ++i)
        (*wm)[i] *= (float)(1 + i % 8);  // channels of different ranges
    b.initializer("wm", {16, 8}, *wm);
    b.node("MatMul", {"x", "wm"}, {"y"});
    b.input("img", {1, 4, 5, 5});
    *wc = randomFloats(8 * 4 * 9, 22, -0.3f, 0.3f);
    b.initializer("wc", {8, 4, 3, 3}, *wc);
    b.initializer("bc", {8}, randomFloats(8, 23));
    b.node("Conv", {"img", "wc", "bc"}, {"z"});
    b.output("y");
    b.output("z");
    return b;
}
}  // namespace

TEST(ConverterWeights, HalfConversionRoundsToNearest) {
    EXPECT_EQ(Convert::floatToHalf(1.0f), 0x3c00);
    EXPECT_EQ(Convert::floatToHalf(-2.0f), 0xc000);
    EXPECT_EQ(Convert::floatToHalf(65504.0f), 0x7bff);
    EXPECT_EQ(Convert::floatToHalf(1e6f), 0x7c00);
    EXPECT_EQ(Convert::floatToHalf(5.9604645e-8f), 0x0001);       // smallest subnormal
    EXPECT_EQ(Convert::floatToHalf(1.0f + 1.0f / 2048), 0x3c00);  // tie -> even
    EXPECT_EQ(Convert::floatToHalf(1.0f + 3.0f / 2048), 0x3c02);
    for (float f : {0.1f, -3.14159f, 1000.5f, 6.1e-5f}) {
        EXPECT_NEAR(Convert::halfToFloat(Convert::floatToHalf(f)), f, std::fabs(f) * (1.0f / 2048));
    }
}

TEST(ConverterWeights, Fp16StoresHalvesWithinHalfPrecision) {
    std::vector<float> wm, wc;
    auto b = weightModel(&wm, &wc);
    Convert::Options o;
    o.fp16 = true;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto plain = convert(b);
    // 16*8 + 8*4*9 = 416 weights: 832 bytes saved (less flatbuffer alignment)
    EXPECT_LE(r.model.size() + 780, plain.model.size())
        << Convert::describeModel(r.model) << Convert::describeModel(plain.model);
    auto net = netOf(r.model);
    for (auto name : {"wm", "wc"}) {
        auto blob = blobNamed(net, name);
        ASSERT_NE(blob, nullptr) << name;
        EXPECT_EQ(blob->compression(), Schema::Compression::FP16) << name;
        EXPECT_EQ(blob->dataType(), Schema::DataType::DT_FLOAT) << name;
    }
    // the bias (1-D) stays float
    EXPECT_EQ(blobNamed(net, "bc")->compression(), Schema::Compression::NONE);
    auto d = decode(blobNamed(net, "wm"));
    for (size_t i = 0; i < wm.size(); ++i) {
        EXPECT_LE(std::fabs(d[i] - wm[i]), std::fabs(wm[i]) / 2048 + 1e-7f) << i;
    }
}

TEST(ConverterWeights, Fp16ConstantRunsThroughEngine) {
    OnnxBuilder b(13);
    b.input("x", {8, 8});
    auto c = randomFloats(64, 31, -100, 100);
    b.initializer("c", {8, 8}, c);
    b.node("Add", {"x", "c"}, {"y"});
    b.output("y");
    Convert::Options o;
    o.fp16 = true;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(blobNamed(netOf(r.model), "c")->compression(), Schema::Compression::FP16);
    auto x = randomFloats(64, 32);
    auto out = runFloat(r.model, {{"x", {{8, 8}, x}}});
    std::vector<float> ref(64);
    for (int i = 0; i < 64; ++i)
        ref[i] = x[i] + c[i];
    EXPECT_TRUE(allClose(out["y"], ref, 0.0f, 1e-3f));
}

TEST(ConverterWeights, Int8PerChannelScalesAndError) {
    std::vector<float> wm, wc;
    auto b = weightModel(&wm, &wc);
    Convert::Options o;
    o.weightQuantBits = 8;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    auto bm = blobNamed(net, "wm");
    ASSERT_NE(bm, nullptr);
    EXPECT_EQ(bm->compression(), Schema::Compression::INT8_PER_CHANNEL);
    EXPECT_EQ(bm->quantAxis(), 1);  // MatMul B [K, N]: N is the output channel
    ASSERT_EQ(bm->scales()->size(), 8u);
    for (int ch = 0; ch < 8; ++ch) {
        float maxAbs = 0;
        for (int k = 0; k < 16; ++k)
            maxAbs = std::max(maxAbs, std::fabs(wm[k * 8 + ch]));
        EXPECT_FLOAT_EQ(bm->scales()->Get(ch), maxAbs / 127.0f);
    }
    auto d = decode(bm);
    for (size_t i = 0; i < wm.size(); ++i) {
        EXPECT_LE(std::fabs(d[i] - wm[i]), bm->scales()->Get(i % 8) * 0.5f + 1e-6f) << i;
    }
    auto bc = blobNamed(net, "wc");
    EXPECT_EQ(bc->compression(), Schema::Compression::INT8_PER_CHANNEL);
    EXPECT_EQ(bc->quantAxis(), 0);
    EXPECT_EQ(bc->scales()->size(), 8u);
    // the bias is not a quantised weight
    EXPECT_EQ(blobNamed(net, "bc")->compression(), Schema::Compression::NONE);
}

TEST(ConverterWeights, CompressedModelsStayCloseInEngine) {
    REQUIRE_ENGINE_OPS(T::MatMul, T::Convolution);
    std::vector<float> wm, wc;
    auto b = weightModel(&wm, &wc);
    auto plain = convert(b);
    Convert::Options o16;
    o16.fp16 = true;
    auto h = convert(b, o16);
    Convert::Options o8;
    o8.weightQuantBits = 8;
    auto q = convert(b, o8);
    ASSERT_TRUE(plain.ok && h.ok && q.ok);
    std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> in = {
        {"x", {{4, 16}, randomFloats(64, 41)}}, {"img", {{1, 4, 5, 5}, randomFloats(100, 42)}}};
    auto ref = runFloat(plain.model, in);
    auto outH = runFloat(h.model, in);
    auto outQ = runFloat(q.model, in);
    for (auto name : {"y", "z"}) {
        float maxRef = 0, errH = 0, errQ = 0;
        for (size_t i = 0; i < ref[name].size(); ++i) {
            maxRef = std::max(maxRef, std::fabs(ref[name][i]));
            errH = std::max(errH, std::fabs(outH[name][i] - ref[name][i]));
            errQ = std::max(errQ, std::fabs(outQ[name][i] - ref[name][i]));
        }
        // relative to the output range: fp16 ~1e-3, int8 per channel ~1e-2 (docs/converter.md)
        EXPECT_LT(errH / maxRef, 2e-3f) << name;
        EXPECT_LT(errQ / maxRef, 2e-2f) << name;
        EXPECT_GT(errQ, 0.0f) << name;  // int8 really changed the weights
    }
}
