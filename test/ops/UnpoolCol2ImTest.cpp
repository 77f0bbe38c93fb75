// MaxUnpool and Col2Im: hand-computed cases, Col2Im against PyTorch's F.fold, invalid inputs.
// (ONNX's own MaxUnpool node tests run in OnnxNodeCasesTest.cpp.)
#include <math.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
std::vector<uint8_t> unpoolModel(const std::vector<int>& xd, const std::vector<int64_t>& idx, std::vector<int> k,
                                 std::vector<int> s, std::vector<int> pads, const std::vector<int64_t>& outShape) {
    ModelBuilder mb;
    mb.input("x", xd);
    mb.constantInt64("i", xd, idx);
    std::vector<std::string> ins = {"x", "i"};
    if (!outShape.empty()) {
        mb.constantInt64("os", {(int)outShape.size()}, outShape);
        ins.push_back("os");
    }
    auto op = mb.op(Schema::OpType::MaxUnpool, "unpool", ins, {"y"});
    Schema::PoolParamT p;
    p.kernel = k;
    p.strides = s;
    p.pads = pads;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

std::vector<uint8_t> col2imModel(const std::vector<int>& xd, const std::vector<int64_t>& image,
                                 const std::vector<int64_t>& block, std::vector<int> dil, std::vector<int> pads,
                                 std::vector<int> strides) {
    ModelBuilder mb;
    mb.input("x", xd);
    mb.constantInt64("image", {(int)image.size()}, image);
    mb.constantInt64("block", {(int)block.size()}, block);
    auto op = mb.op(Schema::OpType::Col2Im, "c2i", {"x", "image", "block"}, {"y"});
    Schema::ConvParamT p;
    p.dilations = dil;
    p.pads = pads;
    p.strides = strides;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

bool failsAtCreate(const std::vector<uint8_t>& m) {
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(m.data(), m.size()));
    ScheduleConfig config;
    return !net || net->createSession(config) == nullptr;
}
} // namespace

// 1-D, kernel 2 stride 2, two channels: default length (3 - 1) * 2 + 2 = 6 per channel; indices are
// flat over [1, 2, 6]
TEST(MaxUnpool, OneDimensionalByHand) {
    auto xt = makeTensor({1, 2, 3}, {1, 2, 3, 4, 5, 6});
    auto r = runModel(unpoolModel({1, 2, 3}, {1, 2, 5, 6, 9, 11}, {2}, {2}, {}, {}), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 6}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 0, 6}));
    // pads (1, 1) shrink the default to 4; output_shape [1, 2, 7] pads the end of each row
    r = runModel(unpoolModel({1, 2, 3}, {0, 1, 3, 4, 6, 7}, {2}, {2}, {1, 1}, {1, 2, 7}), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 7}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 2, 0, 3, 0, 0, 0, 4, 0, 5, 6, 0, 0, 0}));
}

TEST(MaxUnpool, InvalidInputs) {
    auto xt = makeTensor({1, 1, 2}, {1, 2});
    // index past the default shape (4 elements): error at run
    EXPECT_NE(runModel(unpoolModel({1, 1, 2}, {0, 4}, {2}, {2}, {}, {}), {{"x", xt.get()}}).code, NO_ERROR);
    EXPECT_TRUE(failsAtCreate(unpoolModel({1, 1, 2}, {0, 1}, {2, 2}, {2}, {}, {})));      // kernel rank
    EXPECT_TRUE(failsAtCreate(unpoolModel({1, 1, 2}, {0, 1}, {2}, {2}, {}, {1, 1, 3})));  // smaller than 4
    EXPECT_TRUE(failsAtCreate(unpoolModel({1, 1, 2}, {0, 1}, {2}, {0}, {}, {})));         // stride 0
}

// Col2Im by hand: one channel, image 1x4, block 1x2, stride 1, pads (0, 1, 0, 1) on W:
// 5 block positions at w = -1..3; column row k = 0 adds to w, row k = 1 to w + 1
TEST(Col2Im, PaddedByHand) {
    auto xt = makeTensor({1, 2, 5}, {1, 2, 3, 4, 5, 10, 20, 30, 40, 50});
    auto r = runModel(col2imModel({1, 2, 5}, {1, 4}, {1, 2}, {}, {0, 1, 0, 1}, {}), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 1, 1, 4}));
    // w0: k0 from pos 1 (2) + k1 from pos 0 (10); w1: 3 + 20; w2: 4 + 30; w3: 5 + 40
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {12, 23, 34, 45}));
    // asymmetric pads (0, 0, 0, 1): 4 positions at w = 0..3
    auto x2 = makeTensor({1, 2, 4}, {1, 2, 3, 4, 10, 20, 30, 40});
    r = runModel(col2imModel({1, 2, 4}, {1, 4}, {1, 2}, {}, {0, 0, 0, 1}, {}), {{"x", x2.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 12, 23, 34}));
}

// /usr/bin/python3, torch 1.13: x = tensor([sin(0.3 i) for i in range(180)]).reshape(1, 12, 15);
// F.fold(x, output_size=(5, 6), kernel_size=(2, 3), dilation=(2, 1), padding=(1, 1), stride=(1, 2))
TEST(Col2Im, MatchesPyTorchFold) {
    std::vector<float> x(180);
    for (int i = 0; i < 180; ++i) {
        x[i] = (float)sin(0.3 * i);
    }
    auto xt = makeTensor({1, 12, 15}, x);
    auto r = runModel(col2imModel({1, 12, 15}, {5, 6}, {2, 3}, {2, 1}, {1, 1, 1, 1}, {1, 2}), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 5, 6}));
    EXPECT_TRUE(tensorClose(
        r.outputs["y"].get(),
        {-0.772765f, 0.474503f, -0.550686f, 0.297620f, -0.279415f, -0.879696f, -0.734173f, 0.338794f, -0.210767f,
         -0.043275f, 0.331466f, -1.814516f, 0.844091f, -0.762032f, 1.281315f, -1.034516f, 1.604083f, -1.168810f,
         1.783564f, -1.286168f, 1.803723f, -1.242857f, 1.662762f, 0.361428f, 0.961153f, -0.644577f, 0.836656f,
         -0.528509f, 0.637423f, 0.618835f, 0.832759f, -0.642472f, 0.959176f, -0.702402f, 0.999912f, -0.197799f,
         1.802232f, -1.286474f, 1.785909f, -1.217572f, 1.610055f, 0.480169f, 1.290380f, -0.769352f, 0.855440f,
         -0.430072f, 0.344085f, 1.669776f, -0.198006f, 0.330001f, -0.722409f, 0.682898f, -1.182282f, 1.595731f,
         -0.544766f, 0.470764f, -0.768255f, 0.606416f, -0.923117f, 0.570468f},
        2e-5f));
}

TEST(Col2Im, InvalidInputsFailAtCreate) {
    EXPECT_FALSE(failsAtCreate(col2imModel({1, 2, 4}, {1, 4}, {1, 2}, {}, {0, 0, 0, 1}, {})));
    EXPECT_TRUE(failsAtCreate(col2imModel({1, 2, 5}, {1, 4}, {1, 2}, {}, {0, 0, 0, 1}, {})));  // L mismatch
    EXPECT_TRUE(failsAtCreate(col2imModel({1, 3, 4}, {1, 4}, {1, 2}, {}, {0, 0, 0, 1}, {})));  // 3 % 2 != 0
    EXPECT_TRUE(failsAtCreate(col2imModel({1, 2, 4}, {1, 4}, {1, 2, 1}, {}, {}, {})));         // rank mismatch
    EXPECT_TRUE(failsAtCreate(col2imModel({1, 2, 4}, {1, 4}, {1, 2}, {}, {0, 0}, {})));        // pads count
    EXPECT_TRUE(failsAtCreate(col2imModel({1, 2, 4}, {1, 1}, {1, 2}, {}, {}, {})));            // block too big
    EXPECT_TRUE(failsAtCreate(col2imModel({2, 4}, {1, 4}, {1, 2}, {}, {}, {})));               // input rank
}
