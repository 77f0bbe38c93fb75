// Window (Hann / Hamming / Blackman), DFT, STFT, MelWeightMatrix: hand-computed golden values
// (closed-form windows, DFTs of short integer signals, one mel filter) and bad inputs failing at
// createSession.
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::DataType;

namespace {
std::vector<uint8_t> windowModel(Schema::WindowType type, bool periodic, int64_t size,
                                 DataType out = DataType::DT_FLOAT) {
    ModelBuilder mb;
    mb.constantInt64("size", {}, {size});
    auto op = mb.op(Schema::OpType::Window, "win", {"size"}, {"y"});
    Schema::SignalParamT p;
    p.window = type;
    p.periodic = periodic;
    p.outputType = out;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

std::shared_ptr<Tensor> runWindow(Schema::WindowType type, bool periodic, int64_t size) {
    auto r = runModel(windowModel(type, periodic, size), {});
    EXPECT_EQ(r.code, NO_ERROR);
    return r.outputs["y"];
}

Schema::SignalParamT dftParam(int axis, bool inverse, bool onesided) {
    Schema::SignalParamT p;
    p.axis = axis;
    p.inverse = inverse;
    p.onesided = onesided;
    return p;
}

std::vector<uint8_t> dftModel(const std::vector<int>& dims, const Schema::SignalParamT& p, int64_t length = -1) {
    ModelBuilder mb;
    mb.input("x", dims);
    std::vector<std::string> ins = {"x"};
    if (length >= 0) {
        mb.constantInt64("len", {}, {length});
        ins.push_back("len");
    }
    auto op = mb.op(Schema::OpType::DFT, "dft", ins, {"y"});
    op->param.Set(Schema::SignalParamT(p));
    mb.output("y");
    return mb.finish();
}

RunResult runDft(const std::vector<int>& dims, const std::vector<float>& x, const Schema::SignalParamT& p,
                 int64_t length = -1) {
    auto xt = makeTensor(dims, x);
    return runModel(dftModel(dims, p, length), {{"x", xt.get()}});
}

std::vector<uint8_t> stftModel(const std::vector<int>& dims, int64_t step, const std::vector<float>& window,
                               int64_t frameLength, bool onesided = true) {
    ModelBuilder mb;
    mb.input("s", dims);
    mb.constantInt64("step", {}, {step});
    std::vector<std::string> ins = {"s", "step", "", ""};
    if (!window.empty()) {
        mb.constant("w", {(int)window.size()}, window);
        ins[2] = "w";
    }
    if (frameLength >= 0) {
        mb.constantInt64("fl", {}, {frameLength});
        ins[3] = "fl";
    }
    auto op = mb.op(Schema::OpType::STFT, "stft", ins, {"y"});
    Schema::SignalParamT p;
    p.onesided = onesided;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

std::vector<uint8_t> melModel(int64_t mels, int64_t dft, int64_t rate, float low, float high) {
    ModelBuilder mb;
    mb.constantInt64("m", {}, {mels});
    mb.constantInt64("d", {}, {dft});
    mb.constantInt64("r", {}, {rate});
    mb.constant("lo", {}, {low});
    mb.constant("hi", {}, {high});
    auto op = mb.op(Schema::OpType::MelWeightMatrix, "mel", {"m", "d", "r", "lo", "hi"}, {"y"});
    op->param.Set(Schema::SignalParamT());
    mb.output("y");
    return mb.finish();
}
}  // namespace

TEST(Window, ClosedForms) {
    using W = Schema::WindowType;
    EXPECT_TRUE(tensorClose(runWindow(W::HANN, true, 4).get(), {0.0f, 0.5f, 1.0f, 0.5f}));
    EXPECT_TRUE(tensorClose(runWindow(W::HANN, false, 5).get(), {0.0f, 0.5f, 1.0f, 0.5f, 0.0f}));
    // Hamming: 25/46 - 21/46 cos(2 pi n / 4)
    EXPECT_TRUE(tensorClose(runWindow(W::HAMMING, true, 4).get(), {4.0f / 46, 25.0f / 46, 1.0f, 25.0f / 46}));
    // Blackman: 0.42 - 0.5 cos(2 pi n / 4) + 0.08 cos(4 pi n / 4)
    EXPECT_TRUE(tensorClose(runWindow(W::BLACKMAN, true, 4).get(), {0.0f, 0.34f, 1.0f, 0.34f}));
    EXPECT_TRUE(tensorClose(runWindow(W::HANN, false, 1).get(), {1.0f}));
    auto empty = runWindow(W::HANN, true, 0);
    EXPECT_EQ(shapeOf(empty.get()), (std::vector<int>{0}));
    auto r = runModel(windowModel(W::HANN, true, 2, DataType::DT_DOUBLE), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<double>(r.outputs["y"].get()), (std::vector<double>{0.0, 1.0}));
}

TEST(Window, BadSize) {
    EXPECT_TRUE(createFails(windowModel(Schema::WindowType::HANN, true, -1), "win", "size"));
    EXPECT_TRUE(createFails(windowModel(Schema::WindowType::HANN, true, 4, DataType::DT_INT32), "win", "type"));
    ModelBuilder mb;
    mb.constant("size", {}, {4.0f});
    mb.op(Schema::OpType::Window, "win", {"size"}, {"y"})->param.Set(Schema::SignalParamT());
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "win", "integer"));
}

TEST(DFT, RealComplexInverse) {
    // [1, 2, 3, 4] -> [10, -2 + 2i, -2, -2 - 2i]
    auto r = runDft({1, 4, 1}, {1, 2, 3, 4}, dftParam(1, false, false));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{1, 4, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {10, 0, -2, 2, -2, 0, -2, -2}));
    r = runDft({1, 4, 1}, {1, 2, 3, 4}, dftParam(1, false, true));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{1, 3, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {10, 0, -2, 2, -2, 0}));
    // the inverse of that spectrum is the signal again
    r = runDft({1, 4, 2}, {10, 0, -2, 2, -2, 0, -2, -2}, dftParam(-2, true, false));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 0, 2, 0, 3, 0, 4, 0}));
}

TEST(DFT, LengthAndAxis) {
    // dft_length 2 truncates: [1 + 2, 1 - 2]
    auto r = runDft({1, 4, 1}, {1, 2, 3, 4}, dftParam(1, false, false), 2);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3, 0, -1, 0}));
    // dft_length 6 pads with zeros: X[0] = 10, X[3] = 1 - 2 + 3 - 4
    r = runDft({1, 4, 1}, {1, 2, 3, 4}, dftParam(1, false, false), 6);
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"];
    ASSERT_EQ(shapeOf(y.get()), (std::vector<int>{1, 6, 2}));
    EXPECT_NEAR(y->host<float>()[0], 10.0f, 1e-5f);
    EXPECT_NEAR(y->host<float>()[6], -2.0f, 1e-5f);
    EXPECT_NEAR(y->host<float>()[7], 0.0f, 1e-5f);
    // x = [[1, 2], [3, 4]]: along axis 1 (columns) -> k0 = (4, 6), k1 = (-2, -2)
    r = runDft({1, 2, 2, 1}, {1, 2, 3, 4}, dftParam(1, false, false));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4, 0, 6, 0, -2, 0, -2, 0}));
    // along axis 2 (rows) -> (3, -1), (7, -1)
    r = runDft({1, 2, 2, 1}, {1, 2, 3, 4}, dftParam(2, false, false));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3, 0, -1, 0, 7, 0, -1, 0}));
}

TEST(DFT, BadInputs) {
    EXPECT_TRUE(createFails(dftModel({1, 4, 1}, dftParam(2, false, false)), "dft", "axis"));
    EXPECT_TRUE(createFails(dftModel({1, 4, 3}, dftParam(1, false, false)), "dft", "1 or 2"));
    EXPECT_TRUE(createFails(dftModel({1, 4, 1}, dftParam(1, false, false), 0), "dft", "length"));
    EXPECT_TRUE(createFails(dftModel({1, 4, 2}, dftParam(1, true, true)), "dft", "onesided"));
}

TEST(STFT, FramesWindowAndErrors) {
    auto s = makeTensor({1, 6, 1}, {1, 2, 3, 4, 5, 6});
    // frames [1, 2, 3, 4] and [3, 4, 5, 6]: [10, -2 + 2i, -2] and [18, -2 + 2i, -2]
    auto r = runModel(stftModel({1, 6, 1}, 2, {}, 4), {{"s", s.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{1, 2, 3, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {10, 0, -2, 2, -2, 0, 18, 0, -2, 2, -2, 0}));
    // window [0, 1, 1, 0]: frame 0 is [0, 2, 3, 0] -> [5, -3 - 2i, 1]
    r = runModel(stftModel({1, 6, 1}, 2, {0, 1, 1, 0}, -1), {{"s", s.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"];
    ASSERT_EQ(shapeOf(y.get()), (std::vector<int>{1, 2, 3, 2}));
    std::vector<float> first(y->host<float>(), y->host<float>() + 6);
    EXPECT_TRUE(allClose(first, {5, 0, -3, -2, 1, 0}));
    // two-sided: 4 bins
    r = runModel(stftModel({1, 6, 1}, 2, {}, 4, false), {{"s", s.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{1, 2, 4, 2}));

    EXPECT_TRUE(createFails(stftModel({1, 6, 1}, 2, {}, 7), "stft", "frame"));
    EXPECT_TRUE(createFails(stftModel({1, 6, 1}, 0, {}, 4), "stft", "frame_step"));
    EXPECT_TRUE(createFails(stftModel({1, 6, 1}, 2, {1, 1, 1}, 4), "stft", "window"));
    EXPECT_TRUE(createFails(stftModel({1, 6, 1}, 2, {}, -1), "stft", "frame_length"));
    EXPECT_TRUE(createFails(stftModel({6}, 2, {}, 4), "stft", "signal"));
}

TEST(MelWeightMatrix, OneFilterAndErrors) {
    // 1 filter, dft 8, 8 kHz, 0..4 kHz: mel points 0, 715.35, 1430.7 -> 0, 620.7, 1791.7 Hz -> bins
    // floor(9 f / 8000) = 0, 0, 2: the rising edge is one bin (1), the falling edge (2 - j) / 2
    auto r = runModel(melModel(1, 8, 8000, 0.0f, 4000.0f), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{5, 1}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.0f, 0.5f, 0.0f, 0.0f, 0.0f}));
    EXPECT_TRUE(createFails(melModel(0, 8, 8000, 0.0f, 4000.0f), "mel", "num_mel_bins"));
    EXPECT_TRUE(createFails(melModel(1, 8, 8000, 100.0f, 100.0f), "mel", "edges"));
}
