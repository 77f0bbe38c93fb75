// RoiAlign and NonMaxSuppression: hand-computed cases (ONNX's own node tests run in
// OnnxNodeCasesTest.cpp), value errors at runSession and invalid shapes failing createSession.
#include <math.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
std::vector<uint8_t> roiModel(const std::vector<float>& rois, const std::vector<int64_t>& batch, int mode, bool half,
                              float scale, int ratio, std::vector<int> xDims = {1, 1, 4, 4}) {
    ModelBuilder mb;
    mb.input("x", xDims);
    mb.constant("rois", {(int)rois.size() / 4, 4}, rois);
    mb.constantInt64("bi", {(int)batch.size()}, batch);
    auto op = mb.op(Schema::OpType::RoiAlign, "roi", {"x", "rois", "bi"}, {"y"});
    Schema::RoiAlignParamT p;
    p.mode = mode;
    p.outputHeight = 2;
    p.outputWidth = 2;
    p.samplingRatio = ratio;
    p.spatialScale = scale;
    p.halfPixel = half;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

std::vector<float> ramp16() {  // v[r][c] = 4 r + c: bilinear sampling of it is exact
    std::vector<float> v(16);
    for (int i = 0; i < 16; ++i) {
        v[i] = (float)i;
    }
    return v;
}

bool failsAtCreate(const std::vector<uint8_t>& m) {
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(m.data(), m.size()));
    ScheduleConfig config;
    return !net || net->createSession(config) == nullptr;
}
} // namespace

// roi (0.5, 0.5, 2.5, 2.5), half_pixel: region [0, 2]^2, 2x2 bins of 1, 2x2 samples at 0.25 / 0.75:
// the average of 4y + x over a bin is 4 * centre_y + centre_x
TEST(RoiAlign, AverageByHand) {
    auto xt = makeTensor({1, 1, 4, 4}, ramp16());
    auto r = runModel(roiModel({0.5f, 0.5f, 2.5f, 2.5f}, {0}, 1, true, 1.0f, 2), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 3.5f, 6.5f, 7.5f}));
    // spatial_scale 0.5 on the doubled roi gives the same
    r = runModel(roiModel({1, 1, 5, 5}, {0}, 1, true, 0.5f, 2), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 3.5f, 6.5f, 7.5f}));
    // output_half_pixel (no -0.5 shift): region [0.5, 2.5]^2 -> bin centres 1, 2
    r = runModel(roiModel({0.5f, 0.5f, 2.5f, 2.5f}, {0}, 1, false, 1.0f, 2), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {5, 6, 9, 10}));
    // adaptive sampling (ratio 0 -> ceil(2 / 2) = 1 sample per bin, at the bin centre)
    r = runModel(roiModel({0.5f, 0.5f, 2.5f, 2.5f}, {0}, 1, true, 1.0f, 0), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 3.5f, 6.5f, 7.5f}));
}

// max mode, bin (0, 0) of the roi above: samples (y, x) in {0.25, 0.75}^2; each takes the largest of
// its four weighted corners: (.25,.25) -> .75, (.25,.75) -> .9375, (.75,.25) -> 2.25, (.75,.75) -> 2.8125
TEST(RoiAlign, MaxByHand) {
    auto xt = makeTensor({1, 1, 4, 4}, ramp16());
    auto r = runModel(roiModel({0.5f, 0.5f, 2.5f, 2.5f}, {0}, 0, true, 1.0f, 2), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[0], 2.8125f, 1e-5f);
}

// two images, two channels: the roi reads the batch it names
TEST(RoiAlign, BatchIndexSelectsImage) {
    std::vector<float> x(64);
    for (int i = 0; i < 64; ++i) {
        x[i] = (float)(i % 16) + 100.0f * (float)(i / 16);  // image n, channel c: + 100 (2n + c)
    }
    auto xt = makeTensor({2, 2, 4, 4}, x);
    auto r = runModel(roiModel({0.5f, 0.5f, 2.5f, 2.5f, 0.5f, 0.5f, 2.5f, 2.5f}, {1, 0}, 1, true, 1.0f, 2, {2, 2, 4, 4}),
                      {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2, 2, 2, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {202.5f, 203.5f, 206.5f, 207.5f, 302.5f, 303.5f, 306.5f, 307.5f,
                                                   2.5f, 3.5f, 6.5f, 7.5f, 102.5f, 103.5f, 106.5f, 107.5f}));
}

TEST(RoiAlign, BadBatchIndexFailsAtRun) {
    auto xt = makeTensor({1, 1, 4, 4}, ramp16());
    auto r = runModel(roiModel({0, 0, 1, 1}, {3}, 1, true, 1.0f, 2), {{"x", xt.get()}});
    EXPECT_NE(r.code, NO_ERROR);
}

TEST(RoiAlign, InvalidShapesFailAtCreate) {
    EXPECT_FALSE(failsAtCreate(roiModel({0, 0, 1, 1}, {0}, 1, true, 1.0f, 2)));
    EXPECT_TRUE(failsAtCreate(roiModel({0, 0, 1, 1}, {0, 0}, 1, true, 1.0f, 2)));     // 2 indices for 1 roi
    EXPECT_TRUE(failsAtCreate(roiModel({0, 0, 1, 1}, {0}, 3, true, 1.0f, 2)));        // bad mode
    EXPECT_TRUE(failsAtCreate(roiModel({0, 0, 1, 1}, {0}, 1, true, 1.0f, -1)));       // bad sampling ratio
    EXPECT_TRUE(failsAtCreate(roiModel({0, 0, 1, 1}, {0}, 1, true, 1.0f, 2, {1, 4, 4})));  // X not 4-D
}

namespace {
// boxes: b0 = [0,0,1,1]; b1 = [0,0.1,1,1.1] (IoU(b0, b1) = 0.9 / 1.1 = 0.818); b2 = [0,2,1,3] (disjoint);
// b3 = [1,1,0,0] (b0 with flipped corners, IoU 1 with b0)
const std::vector<float> kBoxes = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 2, 1, 3, 1, 1, 0, 0};
const std::vector<float> kScores = {0.9f, 0.95f, 0.5f, 0.3f,   // class 0
                                    0.1f, 0.2f, 0.3f, 0.4f};   // class 1

struct NmsArgs {
    int64_t maxOut = 10;  // < 0: left out
    float iou = 0.5f;     // < 0: left out
    float score = -1;     // < 0: left out
    int center = 0;
    std::vector<float> boxes = kBoxes;
    std::vector<int> boxDims = {1, 4, 4};
    std::vector<float> scores = kScores;
    std::vector<int> scoreDims = {1, 2, 4};
};

std::vector<uint8_t> nmsModel(const NmsArgs& a) {
    ModelBuilder mb;
    mb.input("boxes", a.boxDims);
    mb.constant("scores", a.scoreDims, a.scores);
    std::vector<std::string> ins = {"boxes", "scores", "", "", ""};
    if (a.maxOut >= 0) {
        mb.constantInt64("max", {1}, {a.maxOut});
        ins[2] = "max";
    }
    if (a.iou >= 0) {
        mb.constant("iou", {1}, {a.iou});
        ins[3] = "iou";
    }
    if (a.score >= 0) {
        mb.constant("score", {}, {a.score});
        ins[4] = "score";
    }
    auto op = mb.op(Schema::OpType::NonMaxSuppression, "nms", ins, {"sel"});
    Schema::NmsParamT p;
    p.centerPointBox = a.center;
    op->param.Set(p);
    mb.output("sel");
    return mb.finish();
}

void expectNms(const NmsArgs& a, const std::vector<int64_t>& want) {
    auto bt = makeTensor(a.boxDims, a.boxes);
    auto r = runModel(nmsModel(a), {{"boxes", bt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto s = r.outputs["sel"];
    ASSERT_EQ(s->getType(), halide_type_of<int64_t>());
    ASSERT_EQ(s->shape(), (std::vector<int>{(int)want.size() / 3, 3}));
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(s->host<int64_t>()[i], want[i]) << i;
    }
}
} // namespace

// class 0 order b1, b0, b2, b3: b0 and b3 overlap b1 by 0.818 > 0.5; class 1 order b3, b2, b1, b0
TEST(NonMaxSuppression, TwoClassesByHand) {
    NmsArgs a;
    expectNms(a, {0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 2});
}

TEST(NonMaxSuppression, ThresholdsAndLimits) {
    NmsArgs a;
    a.score = 0.5f;  // strictly greater: class 0 keeps b1 (b2's 0.5 is dropped); class 1 nothing
    expectNms(a, {0, 0, 1});
    a = NmsArgs();
    a.maxOut = 1;
    expectNms(a, {0, 0, 1, 0, 1, 3});
    a = NmsArgs();
    a.iou = 0.9f;  // b0 survives b1 (0.818); b3 is b0
    expectNms(a, {0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 1, 3, 0, 1, 2, 0, 1, 1});
    a = NmsArgs();
    a.maxOut = -1;  // left out: 0 boxes per class
    expectNms(a, {});
    a = NmsArgs();
    a.iou = -1;  // left out: threshold 0, any overlap suppresses
    expectNms(a, {0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 2});
}

// the same boxes as centres: b0 -> (0.5, 0.5, 1, 1), b1 -> (0.6, 0.5, 1, 1) [x shifted 0.1],
// b2 -> (2.5, 0.5, 1, 1), b3 -> (0.5, 0.5, 1, 1)
TEST(NonMaxSuppression, CenterPointBox) {
    NmsArgs a;
    a.center = 1;
    a.boxes = {0.5f, 0.5f, 1, 1, 0.6f, 0.5f, 1, 1, 2.5f, 0.5f, 1, 1, 0.5f, 0.5f, 1, 1};
    expectNms(a, {0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 2});
}

TEST(NonMaxSuppression, TwoBatchesAndEmpty) {
    NmsArgs a;
    a.boxDims = {2, 4, 4};
    a.boxes = kBoxes;
    a.boxes.insert(a.boxes.end(), kBoxes.begin(), kBoxes.end());
    a.scoreDims = {2, 1, 4};
    a.scores = kScores;  // batch 0 class 0 = class-0 scores, batch 1 class 0 = class-1 scores
    expectNms(a, {0, 0, 1, 0, 0, 2, 1, 0, 3, 1, 0, 2});
    NmsArgs e;
    e.boxDims = {1, 0, 4};
    e.boxes = {};
    e.scoreDims = {1, 2, 0};
    e.scores = {};
    expectNms(e, {});
}

// boxes are a graph input here, so the shape pass (which needs every value) runs at runSession:
// invalid inputs fail there with an error code instead of at createSession
TEST(NonMaxSuppression, InvalidInputsFail) {
    auto fails = [](const NmsArgs& a) {
        auto bt = makeTensor(a.boxDims, a.boxes);
        return runModel(nmsModel(a), {{"boxes", bt.get()}}).code != NO_ERROR;
    };
    NmsArgs a;
    a.boxDims = {1, 4, 3};
    a.boxes.resize(12);
    EXPECT_TRUE(fails(a));
    a = NmsArgs();
    a.scoreDims = {1, 1, 8};
    EXPECT_TRUE(fails(a));  // scores count differs from boxes
    a = NmsArgs();
    a.iou = 1.5f;
    EXPECT_TRUE(fails(a));
    a = NmsArgs();
    a.center = 2;
    EXPECT_TRUE(fails(a));
}

// with every input constant the selection runs at createSession, which fails on bad input
TEST(NonMaxSuppression, ConstantInputsSelectAtCreate) {
    auto build = [](const std::vector<int>& boxDims, const std::vector<float>& boxes) {
        ModelBuilder mb;
        mb.constant("boxes", boxDims, boxes);
        mb.constant("scores", {1, 2, 4}, kScores);
        mb.constantInt64("max", {1}, {10});
        mb.constant("iou", {1}, {0.5f});
        auto op = mb.op(Schema::OpType::NonMaxSuppression, "nms", {"boxes", "scores", "max", "iou"}, {"sel"});
        op->param.Set(Schema::NmsParamT());
        mb.output("sel");
        return mb.finish();
    };
    auto r = runModel(build({1, 4, 4}, kBoxes), {});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["sel"]->shape(), (std::vector<int>{4, 3}));
    EXPECT_TRUE(failsAtCreate(build({1, 2, 8}, kBoxes)));
}

// the selected count follows the boxes fed at each run (shape resolved again when values change)
TEST(NonMaxSuppression, OutputRowsFollowEachRun) {
    NmsArgs a;
    auto model = nmsModel(a);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    auto feed = [&](const std::vector<float>& boxes) {
        auto host = makeTensor({1, 4, 4}, boxes);
        net->getSessionInput(session, "boxes")->copyFromHostTensor(host.get());
        EXPECT_EQ(net->runSession(session), NO_ERROR);
        auto out = net->getSessionOutput(session, "sel");
        std::unique_ptr<Tensor> h(new Tensor(out, Tensor::CAFFE, true));
        out->copyToHostTensor(h.get());
        return std::vector<int64_t>(h->host<int64_t>(), h->host<int64_t>() + h->elementSize());
    };
    EXPECT_EQ(feed(kBoxes), (std::vector<int64_t>{0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 2}));
    // four disjoint boxes: every box survives in both classes, in score order
    std::vector<float> apart = {0, 0, 1, 1, 0, 2, 1, 3, 0, 4, 1, 5, 0, 6, 1, 7};
    EXPECT_EQ(feed(apart), (std::vector<int64_t>{0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 3, 0, 1, 3, 0, 1, 2, 0, 1, 1, 0, 1, 0}));
    EXPECT_EQ(feed(kBoxes), (std::vector<int64_t>{0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 2}));
}

TEST(RoiAlign, NoRois) {
    auto xt = makeTensor({1, 1, 4, 4}, ramp16());
    ModelBuilder mb;
    mb.input("x", {1, 1, 4, 4});
    mb.constant("rois", {0, 4}, {});
    mb.constantInt64("bi", {0}, {});
    auto op = mb.op(Schema::OpType::RoiAlign, "roi", {"x", "rois", "bi"}, {"y"});
    Schema::RoiAlignParamT p;
    p.outputHeight = 2;
    p.outputWidth = 3;
    op->param.Set(p);
    mb.output("y");
    auto r = runModel(mb.finish(), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 1, 2, 3}));
}

TEST(RoiAlign, HugeOrNonFiniteRoiFailsAtRun) {
    auto xt = makeTensor({1, 1, 4, 4}, ramp16());
    EXPECT_NE(runModel(roiModel({0, 0, 1e20f, 1e20f}, {0}, 1, true, 1.0f, 0), {{"x", xt.get()}}).code, NO_ERROR);
    EXPECT_NE(runModel(roiModel({0, 0, NAN, 1}, {0}, 1, true, 1.0f, 2), {{"x", xt.get()}}).code, NO_ERROR);
}

// a NaN score never passes, also without a score threshold
TEST(NonMaxSuppression, NaNScoresAreSkipped) {
    NmsArgs a;
    a.scores = {NAN, 0.95f, 0.5f, NAN, 0.1f, NAN, 0.3f, 0.4f};
    expectNms(a, {0, 0, 1, 0, 0, 2, 0, 1, 3, 0, 1, 2});
}
