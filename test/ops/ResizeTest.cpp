// Resize: hand-computed cases for every coordinate transform and nearest mode, cubic with and without
// exclude_outside, antialias (by hand and against PyTorch), keep_aspect_ratio_policy, axes, N-D,
// integer types, value-dependent scales from a graph input, and invalid inputs.
// (ONNX's own Resize node tests run in OnnxNodeCasesTest.cpp.)
#include <math.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
struct ResizeSpec {
    Schema::ResizeMode mode = Schema::ResizeMode::NEAREST;
    Schema::CoordTransform coord = Schema::CoordTransform::HALF_PIXEL;
    Schema::NearestMode nearest = Schema::NearestMode::ROUND_PREFER_FLOOR;
    float cubicA = -0.75f;
    bool exclude = false;
    float extrapolation = 0.0f;
    std::vector<int> axes;
    int keepAspect = 0;
    bool antialias = false;
    std::vector<float> roi;
    std::vector<float> scales;
    std::vector<int64_t> sizes;
};

std::vector<uint8_t> resizeModel(const std::vector<int>& xDims, const ResizeSpec& s) {
    ModelBuilder mb;
    mb.input("x", xDims);
    std::vector<std::string> ins = {"x", "", "", ""};
    if (!s.roi.empty()) {
        mb.constant("roi", {(int)s.roi.size()}, s.roi);
        ins[1] = "roi";
    }
    if (!s.scales.empty()) {
        mb.constant("scales", {(int)s.scales.size()}, s.scales);
        ins[2] = "scales";
    }
    if (!s.sizes.empty()) {
        mb.constantInt64("sizes", {(int)s.sizes.size()}, s.sizes);
        ins[3] = "sizes";
    }
    auto op = mb.op(Schema::OpType::Resize, "resize", ins, {"y"});
    Schema::ResizeParamT p;
    p.mode = s.mode;
    p.coordTransform = s.coord;
    p.nearestMode = s.nearest;
    p.cubicCoeffA = s.cubicA;
    p.excludeOutside = s.exclude;
    p.extrapolationValue = s.extrapolation;
    p.axes = s.axes;
    p.keepAspectRatioPolicy = s.keepAspect;
    p.antialias = s.antialias;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

// runs X = [0, 10, 20, 30] of shape [1, 4] (or the given data) and checks shape and values
void expectResize(const ResizeSpec& s, const std::vector<int>& outDims, const std::vector<float>& want,
                  const std::vector<int>& xDims = {1, 4}, std::vector<float> x = {0, 10, 20, 30}) {
    auto model = resizeModel(xDims, s);
    auto xt = makeTensor(xDims, x);
    auto r = runModel(model, {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"];
    ASSERT_EQ(y->shape(), outDims);
    EXPECT_TRUE(tensorClose(y.get(), want, 1e-4f, 1e-5f));
}

bool failsAtCreate(const std::vector<int>& xDims, const ResizeSpec& s) {
    auto model = resizeModel(xDims, s);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        return true;
    }
    ScheduleConfig config;
    return net->createSession(config) == nullptr;
}

using CT = Schema::CoordTransform;
using RM = Schema::ResizeMode;
using NM = Schema::NearestMode;
} // namespace

// half_pixel: x = (o + 0.5) / 2 - 0.5 = -0.25, 0.25, ... 3.25; edges clamp
TEST(Resize, LinearHalfPixelUpsample) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.scales = {1, 2};
    expectResize(s, {1, 8}, {0, 2.5f, 7.5f, 12.5f, 17.5f, 22.5f, 27.5f, 30});
}

// asymmetric: x = o / 2
TEST(Resize, LinearAsymmetric) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::ASYMMETRIC;
    s.scales = {1, 2};
    expectResize(s, {1, 8}, {0, 5, 10, 15, 20, 25, 30, 30});
}

// align_corners with sizes 7: x = o * 3 / 6
TEST(Resize, LinearAlignCornersSizes) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::ALIGN_CORNERS;
    s.sizes = {1, 7};
    expectResize(s, {1, 7}, {0, 5, 10, 15, 20, 25, 30});
}

// a single output column: pytorch_half_pixel samples x = 0; half_pixel samples (0.5) * 4 - 0.5 = 1.5
TEST(Resize, PytorchHalfPixelSingleOutput) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::PYTORCH_HALF_PIXEL;
    s.sizes = {1, 1};
    expectResize(s, {1, 1}, {0});
    s.coord = CT::HALF_PIXEL;
    expectResize(s, {1, 1}, {15});
    // with 3 outputs the two agree: x = (o + 0.5) * 4 / 3 - 0.5 = 1/6, 3/2, 17/6
    s.sizes = {1, 3};
    expectResize(s, {1, 3}, {10.0f / 6, 15, 170.0f / 6});
    s.coord = CT::PYTORCH_HALF_PIXEL;
    expectResize(s, {1, 3}, {10.0f / 6, 15, 170.0f / 6});
}

// nearest modes at asymmetric scale 0.75 (out 3): x = 0, 4/3, 8/3
TEST(Resize, NearestModes) {
    ResizeSpec s;
    s.coord = CT::ASYMMETRIC;
    s.scales = {1, 0.75f};
    s.nearest = NM::ROUND_PREFER_FLOOR;
    expectResize(s, {1, 3}, {0, 10, 30});
    s.nearest = NM::ROUND_PREFER_CEIL;
    expectResize(s, {1, 3}, {0, 10, 30});
    s.nearest = NM::FLOOR;
    expectResize(s, {1, 3}, {0, 10, 20});
    s.nearest = NM::CEIL;
    expectResize(s, {1, 3}, {0, 20, 30});
}

// ties: half_pixel scale 0.5 gives x = 0.5, 2.5; tf_half_pixel_for_nn gives x = 1, 3
TEST(Resize, NearestTiesAndTfHalfPixel) {
    ResizeSpec s;
    s.scales = {1, 0.5f};
    s.nearest = NM::ROUND_PREFER_FLOOR;
    expectResize(s, {1, 2}, {0, 20});
    s.nearest = NM::ROUND_PREFER_CEIL;
    expectResize(s, {1, 2}, {10, 30});
    s.coord = CT::TF_HALF_PIXEL_FOR_NN;
    s.nearest = NM::ROUND_PREFER_FLOOR;
    expectResize(s, {1, 2}, {10, 30});
    // upsample x2, tf_half_pixel_for_nn: x = (o + 0.5) / 2 = 0.25, 0.75, 1.25 ... 3.75 (clamped to 3)
    s.scales = {1, 2};
    expectResize(s, {1, 8}, {0, 10, 10, 20, 20, 30, 30, 30});
}

// tf_crop_and_resize: roi starts (0, 0.2), ends (1, 1.2); W: x = 0.6 + o, the last one outside
TEST(Resize, TfCropAndResizeExtrapolation) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::TF_CROP_AND_RESIZE;
    s.extrapolation = 99;
    s.roi = {0, 0.2f, 1, 1.2f};
    s.sizes = {1, 4};
    expectResize(s, {1, 4}, {6, 16, 26, 99});
    s.mode = RM::NEAREST;
    expectResize(s, {1, 4}, {10, 20, 30, 99});
    // with scales: output = floor(4 * (1.2 - 0.2) * 0.75) = 3; length_resized 3: x = 0.6 + 1.5 o
    s.sizes.clear();
    s.scales = {1, 0.75f};
    s.mode = RM::LINEAR;
    expectResize(s, {1, 3}, {6, 21, 99});
}

// half_pixel_symmetric at scale 1.7: out = floor(6.8) = 6, adjustment 6 / 6.8, center 2,
// offset = 2 * (1 - 6 / 6.8); x = offset + (o + 0.5) / 1.7 - 0.5, linear with edge clamping.
TEST(Resize, HalfPixelSymmetric) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::HALF_PIXEL_SYMMETRIC;
    s.scales = {1, 1.7f};
    std::vector<float> want;
    const double scale = (double)1.7f;
    const double offset = 2.0 * (1.0 - 6.0 / (4.0 * scale));
    for (int o = 0; o < 6; ++o) {
        double x = offset + (o + 0.5) / scale - 0.5;
        x = x < 0 ? 0 : (x > 3 ? 3 : x);
        want.push_back((float)(10.0 * x));  // X is linear in its index: value = 10 * coordinate
    }
    // by hand: offset = 0.235294..., o = 0: 0.235294 + 0.294118 - 0.5 = 0.029412 -> 0.294
    EXPECT_NEAR(want[0], 0.294118f, 1e-5f);
    expectResize(s, {1, 6}, want);
}

// cubic asymmetric x2, A = -0.75: at x = 0.5 the taps (-1, 0, 1, 2) weigh (-0.09375, 0.59375, 0.59375,
// -0.09375) -> 0.59375*10 - 0.09375*20 = 4.0625; exclude_outside drops tap -1 and renormalises
// by 1.09375 -> 3.7142857
TEST(Resize, CubicExcludeOutside) {
    ResizeSpec s;
    s.mode = RM::CUBIC;
    s.coord = CT::ASYMMETRIC;
    s.scales = {1, 2};
    auto model = resizeModel({1, 4}, s);
    auto xt = makeTensor({1, 4}, {0, 10, 20, 30});
    auto r = runModel(model, {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[0], 0.0f, 1e-5f);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[1], 4.0625f, 1e-5f);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[2], 10.0f, 1e-5f);
    s.exclude = true;
    model = resizeModel({1, 4}, s);
    r = runModel(model, {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[1], 4.0625f / 1.09375f, 1e-5f);
}

// antialias linear, scale 0.5: the triangle filter is stretched to 4 taps with weights (1, 3, 3, 1) / 8.
// o = 0 (x = 0.5): taps -1(->0), 0, 1, 2 -> 0 + 0 + 3.75 + 2.5 = 6.25; o = 1: 1.25 + 7.5 + 11.25 + 3.75
TEST(Resize, AntialiasLinearByHand) {
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.antialias = true;
    s.scales = {1, 0.5f};
    expectResize(s, {1, 2}, {6.25f, 23.75f});
    // upsampling is unaffected by antialias
    s.scales = {1, 2};
    expectResize(s, {1, 8}, {0, 2.5f, 7.5f, 12.5f, 17.5f, 22.5f, 27.5f, 30});
}

// PyTorch's antialiased interpolate equals ONNX antialias with exclude_outside = 1 (bicubic uses
// A = -0.5). Expected values from /usr/bin/python3 with torch 1.13:
//   x = (torch.arange(48.).reshape(1,1,6,8) * 0.37) % 5.0
//   F.interpolate(x, size=(3,3), mode='bilinear', align_corners=False, antialias=True)
//   F.interpolate(x, size=(2,3), mode='bicubic', align_corners=False, antialias=True)
TEST(Resize, AntialiasMatchesPyTorch) {
    std::vector<float> x(48);
    for (int i = 0; i < 48; ++i) {
        x[i] = fmodf((float)i * 0.37f, 5.0f);
    }
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.antialias = true;
    s.exclude = true;
    s.sizes = {3, 3};
    s.axes = {2, 3};
    expectResize(s, {1, 1, 3, 3},
                 {1.808947f, 2.64398f, 2.114887f, 2.808948f, 2.742619f, 2.278421f, 2.286391f, 2.195f, 2.72391f},
                 {1, 1, 6, 8}, x);
    s.mode = RM::CUBIC;
    s.cubicA = -0.5f;
    s.sizes = {2, 3};
    expectResize(s, {1, 1, 2, 3}, {2.089043f, 2.795951f, 2.122818f, 2.624073f, 2.346249f, 2.590608f}, {1, 1, 6, 8},
                 x);
}

// keep_aspect_ratio_policy on a 2x4 input with sizes (4, 4): not_larger -> scale min(2, 1) = 1 -> 2x4;
// not_smaller -> scale 2 -> 4x8
TEST(Resize, KeepAspectRatio) {
    std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
    ResizeSpec s;
    s.sizes = {4, 4};
    s.keepAspect = 1;
    expectResize(s, {2, 4}, x, {2, 4}, x);
    s.keepAspect = 2;
    s.coord = CT::ASYMMETRIC;
    std::vector<float> want;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 8; ++j) {
            want.push_back(x[(i / 2) * 4 + j / 2]);
        }
    }
    expectResize(s, {4, 8}, want, {2, 4}, x);
    // not_larger with a non-integral scale: sizes (3, 3) -> scale min(1.5, 0.75) = 0.75 ->
    // out = round(1.5) = 2, round(3) = 3
    s.keepAspect = 1;
    s.sizes = {3, 3};
    // asymmetric nearest: rows x = o / 0.75 = 0, 1.33 -> 0, 1; cols 0, 1.33, 2.67 -> 0, 1, 3
    expectResize(s, {2, 3}, {0, 1, 3, 4, 5, 7}, {2, 4}, x);
}

// axes: only the last axis of a 3-D tensor, negative axis form; other axes untouched
TEST(Resize, AxesSubset) {
    std::vector<float> x = {0, 10, 20, 30, 1, 11, 21, 31};
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::ALIGN_CORNERS;
    s.axes = {-1};
    s.sizes = {7};
    expectResize(s, {2, 1, 7}, {0, 5, 10, 15, 20, 25, 30, 1, 6, 11, 16, 21, 26, 31}, {2, 1, 4}, x);
}

// trilinear over 3 spatial axes of a 5-D tensor: X = i + 10 j + 100 k is linear, so align_corners
// sampling reproduces the linear function exactly at the sampled coordinates
TEST(Resize, TrilinearAlignCorners5D) {
    std::vector<float> x;
    for (int k = 0; k < 2; ++k) {
        for (int j = 0; j < 3; ++j) {
            for (int i = 0; i < 2; ++i) {
                x.push_back((float)(i + 10 * j + 100 * k));
            }
        }
    }
    ResizeSpec s;
    s.mode = RM::LINEAR;
    s.coord = CT::ALIGN_CORNERS;
    s.sizes = {1, 1, 3, 5, 3};
    std::vector<float> want;
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 5; ++j) {
            for (int i = 0; i < 3; ++i) {
                want.push_back((float)(i * 0.5 + 10 * j * 0.5 + 100 * k * 0.5));
            }
        }
    }
    expectResize(s, {1, 1, 3, 5, 3}, want, {1, 1, 2, 3, 2}, x);
}

TEST(Resize, Uint8NearestAndLinearRounding) {
    ModelBuilder mb;
    mb.input("x", {1, 4}, Schema::DataType::DT_UINT8);
    mb.constant("scales", {2}, {1, 2});
    auto op = mb.op(Schema::OpType::Resize, "resize", {"x", "", "scales"}, {"y"});
    Schema::ResizeParamT p;
    p.mode = RM::LINEAR;
    p.coordTransform = CT::ASYMMETRIC;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Tensor> xt(Tensor::create<uint8_t>({1, 4}, nullptr, Tensor::CAFFE));
    uint8_t vals[4] = {0, 11, 200, 255};
    memcpy(xt->host<uint8_t>(), vals, 4);
    auto r = runModel(model, {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"];
    ASSERT_EQ(y->getType(), halide_type_of<uint8_t>());
    // x = o / 2: 0, 5.5 -> 6 (round half to even of 5.5 is 6), 11, 105.5 -> 106, 200, 227.5 -> 228, 255, 255
    std::vector<uint8_t> want = {0, 6, 11, 106, 200, 228, 255, 255};
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(y->host<uint8_t>()[i], want[i]) << i;
    }
}

// scales computed from a graph input's values: the shape is resolved at runSession
TEST(Resize, ScalesFromGraphInput) {
    ModelBuilder mb;
    mb.input("x", {1, 4});
    mb.input("scales", {2});
    auto op = mb.op(Schema::OpType::Resize, "resize", {"x", "", "scales"}, {"y"});
    Schema::ResizeParamT p;
    p.coordTransform = CT::ASYMMETRIC;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    auto xt = makeTensor({1, 4}, {0, 10, 20, 30});
    auto st = makeTensor({2}, {1, 1.5f});
    auto r = runModel(model, {{"x", xt.get()}, {"scales", st.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 6}));
    // x = o / 1.5 = 0, 0.67, 1.33, 2, 2.67, 3.33 -> round_prefer_floor: 0, 1, 1, 2, 3, 3
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 10, 10, 20, 30, 30}));
}

TEST(Resize, ZeroSizeAndDownToZero) {
    ResizeSpec s;
    s.scales = {1, 0.2f};  // floor(4 * 0.2) = 0
    expectResize(s, {1, 0}, {});
    s.scales = {2, 2};
    expectResize(s, {0, 8}, {}, {0, 4}, {});
}

TEST(Resize, InvalidInputsFailAtCreate) {
    ResizeSpec s;
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // neither scales nor sizes
    s.scales = {1, 2};
    s.sizes = {1, 8};
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // both
    s.sizes.clear();
    s.scales = {2};
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // wrong count
    s.scales = {1, -2};
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // negative scale
    s.scales = {1, 2};
    s.axes = {5};
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // bad axis
    s.axes = {1, 1};
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // repeated axis
    s.axes.clear();
    s.coord = CT::TF_CROP_AND_RESIZE;
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // crop without roi
    s.roi = {0, 0, 1};
    EXPECT_TRUE(failsAtCreate({1, 4}, s));  // roi of the wrong length
    ResizeSpec k;
    k.sizes = {3, 3};
    k.keepAspect = 7;
    EXPECT_TRUE(failsAtCreate({2, 4}, k));
    ResizeSpec n;
    n.sizes = {-1, 3};
    EXPECT_TRUE(failsAtCreate({2, 4}, n));
    ResizeSpec z;
    z.sizes = {2, 3};
    EXPECT_TRUE(failsAtCreate({0, 4}, z));  // sampling from an empty axis
}

// rank 0: nothing to resize (scales / sizes of length 0 count as absent); the scalar is copied
TEST(Resize, RankZeroCopies) {
    ModelBuilder mb;
    mb.input("x", {});
    auto op = mb.op(Schema::OpType::Resize, "resize", {"x"}, {"y"});
    op->param.Set(Schema::ResizeParamT());
    mb.output("y");
    auto xt = makeTensor({}, {4.5f});
    auto r = runModel(mb.finish(), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4.5f}));
}

// absurd but finite rois / scales: defined results or a clean error, never undefined behaviour
TEST(Resize, ExtremeRoiAndAntialiasWidth) {
    ResizeSpec s;
    s.mode = RM::NEAREST;
    s.coord = CT::TF_CROP_AND_RESIZE;
    s.extrapolation = -1;
    s.roi = {0, 1e30f, 1, 2e30f};  // every W coordinate far outside
    s.sizes = {1, 3};
    expectResize(s, {1, 3}, {-1, -1, -1});
    ResizeSpec a;
    a.mode = RM::LINEAR;
    a.antialias = true;
    a.coord = CT::TF_CROP_AND_RESIZE;
    a.roi = {0, 0, 1, 1e6f};
    a.scales = {1, 1e-6f};  // 4 outputs from a filter 2e6 taps wide
    EXPECT_TRUE(failsAtCreate({1, 4}, a));
    ResizeSpec n;
    n.coord = CT::TF_CROP_AND_RESIZE;
    n.roi = {0, 0, 1, NAN};
    n.sizes = {1, 3};
    EXPECT_TRUE(failsAtCreate({1, 4}, n));
}
