// GridSample against PyTorch's F.grid_sample for every mode x padding x align_corners on one input,
// plus a hand-computed bilinear case and invalid shapes. ONNX's own GridSample node tests run in
// OnnxNodeCasesTest.cpp.
#include <math.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
std::vector<uint8_t> gridModel(const std::vector<int>& xd, const std::vector<int>& gd, int mode, int pad, bool align) {
    ModelBuilder mb;
    mb.input("x", xd);
    mb.input("g", gd);
    auto op = mb.op(Schema::OpType::GridSample, "gs", {"x", "g"}, {"y"});
    Schema::GridSampleParamT p;
    p.mode = mode;
    p.paddingMode = pad;
    p.alignCorners = align;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

struct TorchCase {
    const char* mode;
    const char* pad;
    bool align;
    std::vector<float> want;
};

// Generated with /usr/bin/python3 (torch 1.13):
//   x = tensor([0.5*sin(0.9*i + 0.3) + 0.1*i for i in range(24)]).reshape(1, 2, 3, 4)
//   g = tensor([1.3*sin(1.7*i + 0.2) for i in range(20)]).reshape(1, 2, 5, 2)
//   F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)
const std::vector<TorchCase> kTorch = {
    {"bilinear", "zeros", false, {0.163543f, 0.110831f, 0.420030f, 0.047444f, 0.037726f, 0.000000f, 0.000000f, 0.175813f, 0.106162f, 0.350096f, 0.413906f, 0.308333f, 1.522246f, 0.300840f, 0.089673f, 0.000000f, 0.000000f, 0.240908f, 0.564917f, 0.479718f}},
    {"bilinear", "zeros", true, {0.840688f, 0.380282f, 0.807494f, 0.097153f, 0.545912f, 0.075411f, 0.386059f, 0.663161f, 0.393083f, 1.098406f, 2.023982f, 0.837556f, 2.529688f, 1.108228f, 1.158950f, 1.114456f, 0.946599f, 1.339388f, 1.944963f, 1.649030f}},
    {"bilinear", "border", false, {1.057064f, 0.293920f, 0.750063f, 0.136471f, 0.813211f, 0.175373f, 0.568171f, 1.269000f, 0.370560f, 1.269000f, 2.675286f, 0.817688f, 2.718328f, 0.865350f, 1.932966f, 1.994947f, 1.740447f, 1.738846f, 1.971848f, 1.738846f}},
    {"bilinear", "border", true, {1.092073f, 0.414227f, 0.807494f, 0.109686f, 0.827398f, 0.135621f, 0.664038f, 0.903338f, 0.393083f, 1.290772f, 2.629197f, 0.912318f, 2.529688f, 1.251191f, 1.756534f, 2.004256f, 1.628188f, 1.824475f, 1.944963f, 1.937827f}},
    {"bilinear", "reflection", false, {1.057064f, 0.293920f, 0.750063f, 0.136471f, 0.813211f, 0.171407f, 0.564590f, 1.269000f, 0.370560f, 1.269000f, 2.675286f, 0.817688f, 2.718328f, 0.865350f, 1.932966f, 1.977463f, 1.727336f, 1.738846f, 1.971848f, 1.738846f}},
    {"bilinear", "reflection", true, {0.907057f, 0.382051f, 0.807494f, 0.135049f, 0.723713f, 0.114833f, 0.572742f, 0.909821f, 0.393083f, 1.103753f, 2.364430f, 0.989282f, 2.529688f, 1.260395f, 1.762603f, 1.908167f, 1.570917f, 1.901867f, 1.944963f, 1.935530f}},
    {"nearest", "zeros", false, {0.000000f, 0.000000f, 0.750063f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.370560f, 0.000000f, 0.000000f, 0.000000f, 2.718328f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 1.971848f, 0.000000f}},
    {"nearest", "zeros", true, {1.062227f, 0.566020f, 0.750063f, 0.147760f, 0.855771f, 0.056117f, 0.855771f, 1.269000f, 0.370560f, 1.269000f, 2.674562f, 1.031713f, 2.718328f, 0.702724f, 1.403670f, 2.022873f, 1.403670f, 1.738846f, 1.971848f, 1.738846f}},
    {"nearest", "border", false, {1.062227f, 0.147760f, 0.750063f, 0.147760f, 0.855771f, 0.056117f, 0.370560f, 1.269000f, 0.370560f, 1.269000f, 2.674562f, 0.702724f, 2.718328f, 0.702724f, 1.403670f, 2.022873f, 1.971848f, 1.738846f, 1.971848f, 1.738846f}},
    {"nearest", "border", true, {1.062227f, 0.566020f, 0.750063f, 0.147760f, 0.855771f, 0.056117f, 0.855771f, 1.269000f, 0.370560f, 1.269000f, 2.674562f, 1.031713f, 2.718328f, 0.702724f, 1.403670f, 2.022873f, 1.403670f, 1.738846f, 1.971848f, 1.738846f}},
    {"nearest", "reflection", false, {1.062227f, 0.147760f, 0.750063f, 0.147760f, 0.855771f, 0.056117f, 0.370560f, 1.269000f, 0.370560f, 1.269000f, 2.674562f, 0.702724f, 2.718328f, 0.702724f, 1.403670f, 2.022873f, 1.971848f, 1.738846f, 1.971848f, 1.738846f}},
    {"nearest", "reflection", true, {1.062227f, 0.566020f, 0.750063f, 0.147760f, 0.855771f, 0.056117f, 0.855771f, 1.269000f, 0.370560f, 1.269000f, 2.674562f, 1.031713f, 2.718328f, 0.702724f, 1.403670f, 2.022873f, 1.403670f, 1.738846f, 1.971848f, 1.738846f}},
    {"bicubic", "zeros", false, {0.150363f, 0.126729f, 0.405112f, 0.021621f, 0.033899f, -0.008903f, -0.023614f, 0.154851f, 0.060150f, 0.372142f, 0.373014f, 0.223704f, 1.737893f, 0.277715f, 0.074588f, -0.118864f, -0.072025f, 0.198178f, 0.630556f, 0.429127f}},
    {"bicubic", "zeros", true, {0.966493f, 0.417400f, 0.947282f, 0.013631f, 0.661997f, 0.074245f, 0.450465f, 0.804521f, 0.400865f, 1.378739f, 2.213490f, 0.785904f, 3.047760f, 1.203465f, 1.194158f, 1.191158f, 0.972841f, 1.533041f, 2.015199f, 1.823140f}},
    {"bicubic", "border", false, {1.066035f, 0.300390f, 0.698828f, 0.104438f, 0.867177f, 0.148283f, 0.570535f, 1.307567f, 0.287343f, 1.319206f, 2.698766f, 0.702533f, 2.867903f, 0.825974f, 1.856255f, 2.079154f, 1.649869f, 1.722035f, 2.074262f, 1.726196f}},
    {"bicubic", "border", true, {1.195097f, 0.435808f, 0.802708f, 0.004170f, 0.927543f, 0.122612f, 0.715478f, 0.923872f, 0.388326f, 1.411837f, 2.757790f, 0.805781f, 2.561179f, 1.257383f, 1.657861f, 2.090730f, 1.491484f, 1.851375f, 1.948988f, 1.900040f}},
    {"bicubic", "reflection", false, {1.125720f, 0.329359f, 0.678865f, 0.063544f, 0.876253f, 0.141106f, 0.565747f, 1.304591f, 0.204915f, 1.450841f, 2.801578f, 0.573967f, 2.929518f, 0.797180f, 1.854488f, 2.062898f, 1.639890f, 1.676921f, 2.168480f, 1.695230f}},
    {"bicubic", "reflection", true, {1.008020f, 0.375321f, 0.779008f, 0.034373f, 0.808970f, 0.071629f, 0.588147f, 1.066342f, 0.372829f, 1.239026f, 2.516932f, 0.852835f, 2.666124f, 1.119080f, 1.719771f, 2.005404f, 1.471823f, 1.890527f, 1.967505f, 1.868357f}},
};
} // namespace

TEST(GridSample, MatchesPyTorch) {
    std::vector<float> x(24), g(20);
    for (int i = 0; i < 24; ++i) {
        x[i] = (float)(0.5 * sin(0.9 * i + 0.3) + 0.1 * i);
    }
    for (int i = 0; i < 20; ++i) {
        g[i] = (float)(1.3 * sin(1.7 * i + 0.2));
    }
    auto xt = makeTensor({1, 2, 3, 4}, x);
    auto gt = makeTensor({1, 2, 5, 2}, g);
    for (auto& c : kTorch) {
        if (std::string(c.mode) == "bicubic" && std::string(c.pad) == "border") {
            continue;  // PyTorch clamps each cubic tap, ONNX the sampling coordinate: see BicubicBorder
        }
        SCOPED_TRACE(std::string(c.mode) + " " + c.pad + (c.align ? " align" : ""));
        int mode = std::string(c.mode) == "bilinear" ? 0 : (std::string(c.mode) == "nearest" ? 1 : 2);
        int pad = std::string(c.pad) == "zeros" ? 0 : (std::string(c.pad) == "border" ? 1 : 2);
        auto r = runModel(gridModel({1, 2, 3, 4}, {1, 2, 5, 2}, mode, pad, c.align), {{"x", xt.get()}, {"g", gt.get()}});
        ASSERT_EQ(r.code, NO_ERROR);
        ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 2, 5}));
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), c.want, 2e-5f, 1e-4f));
    }
}

// 2x2 image [[1, 2], [3, 4]], align_corners = 1: grid (0, 0) is the centre -> 2.5; (-1, -1) -> 1;
// (0.5, -1) -> x = 0.75 on the top row -> 1.75; with align_corners = 0, (-1, -1) is the outer corner
// (-0.5, -0.5): zeros padding gives 0.25 * 1 = 0.25, border gives 1
TEST(GridSample, BilinearByHand) {
    auto xt = makeTensor({1, 1, 2, 2}, {1, 2, 3, 4});
    auto gt = makeTensor({1, 1, 3, 2}, {0, 0, -1, -1, 0.5f, -1});
    auto r = runModel(gridModel({1, 1, 2, 2}, {1, 1, 3, 2}, 0, 0, true), {{"x", xt.get()}, {"g", gt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 1, 1.75f}));
    r = runModel(gridModel({1, 1, 2, 2}, {1, 1, 3, 2}, 0, 0, false), {{"x", xt.get()}, {"g", gt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    // (0.5, -1): x = ((1.5) * 2 - 1) / 2 = 1, y = -0.5 -> half of pixel (0, 1) = 1
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 0.25f, 1.0f}));
    r = runModel(gridModel({1, 1, 2, 2}, {1, 1, 3, 2}, 0, 1, false), {{"x", xt.get()}, {"g", gt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 1, 2}));
}

TEST(GridSample, InvalidShapesFailAtCreate) {
    auto fails = [](const std::vector<int>& xd, const std::vector<int>& gd, int mode) {
        auto m = gridModel(xd, gd, mode, 0, false);
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(m.data(), m.size()));
        ScheduleConfig config;
        return !net || net->createSession(config) == nullptr;
    };
    EXPECT_FALSE(fails({1, 1, 2, 2}, {1, 3, 3, 2}, 0));
    EXPECT_TRUE(fails({1, 1, 2, 2}, {2, 3, 3, 2}, 0));  // batch mismatch
    EXPECT_TRUE(fails({1, 1, 2, 2}, {1, 3, 3, 3}, 0));  // last grid dim not 2
    EXPECT_TRUE(fails({1, 2, 2}, {1, 3, 3, 2}, 0));     // grid rank does not match X
    EXPECT_TRUE(fails({1, 1, 2, 2}, {1, 3, 3, 2}, 5));  // unknown mode
}

// ONNX bicubic + border clamps the coordinate itself: a grid point far outside lands exactly on the
// corner pixel (integral coordinate: cubic weights 0, 1, 0, 0), PyTorch would blend the taps instead.
TEST(GridSample, BicubicBorderClampsCoordinate) {
    std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // 3x4
    auto xt = makeTensor({1, 1, 3, 4}, x);
    auto gt = makeTensor({1, 1, 4, 2}, {-5, -5, 5, -5, 5, 5, -5, 0});
    for (bool align : {true, false}) {
        auto r = runModel(gridModel({1, 1, 3, 4}, {1, 1, 4, 2}, 2, 1, align), {{"x", xt.get()}, {"g", gt.get()}});
        ASSERT_EQ(r.code, NO_ERROR);
        // corners 1, 4, 12; (-5, 0) -> x = 0, y = centre row (1 with either alignment) -> 5
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 4, 12, 5}, 1e-5f));
    }
}

// 5-D (3 spatial axes, GridSample-20), compared with PyTorch (torch 1.13, /usr/bin/python3):
//   x = tensor([0.5*sin(0.9*i + 0.3) + 0.1*i for i in range(48)]).reshape(1, 2, 2, 3, 4)
//   g = tensor([1.2*sin(1.3*i + 0.5) for i in range(36)]).reshape(1, 2, 2, 3, 3)
//   F.grid_sample(x, g, mode=mode, padding_mode=pad, align_corners=ac)  (bilinear = trilinear)
TEST(GridSample, Volumetric5DMatchesPyTorch) {
    const std::vector<TorchCase> cases = {
        {"bilinear", "zeros", false, {0.462791f, 0.109873f, 0.071948f, 0.637555f, 0.117940f, 0.160762f, 0.152306f, 0.154684f, 0.471727f, 0.196868f, 0.049527f, 0.625786f, 0.961746f, 0.626748f, 0.298656f, 1.416855f, 0.608566f, 0.790315f, 0.280652f, 0.750142f, 0.806620f, 1.142898f, 0.185572f, 1.621024f}},
        {"bilinear", "zeros", true, {1.548977f, 0.819469f, 0.596536f, 2.155702f, 0.554516f, 0.883472f, 1.463218f, 0.535999f, 1.691757f, 0.688260f, 0.590558f, 1.902786f, 3.162306f, 2.953497f, 2.366760f, 4.488591f, 2.409549f, 3.153688f, 2.642560f, 2.322256f, 3.081456f, 3.484895f, 2.196692f, 4.271493f}},
        {"bilinear", "border", false, {1.873087f, 0.714296f, 0.703517f, 2.079978f, 0.553155f, 0.750063f, 1.988513f, 0.475972f, 2.356766f, 0.702724f, 0.848028f, 1.834823f, 3.892539f, 4.074572f, 2.920280f, 4.622386f, 2.854264f, 3.687350f, 3.664211f, 2.308234f, 4.029903f, 4.079588f, 3.177435f, 4.752893f}},
        {"bilinear", "border", true, {1.863133f, 1.041103f, 0.754268f, 2.155702f, 0.685596f, 1.031252f, 1.999967f, 0.541403f, 2.114417f, 0.727997f, 0.850609f, 1.984287f, 3.803671f, 3.752301f, 2.992564f, 4.488591f, 2.979134f, 3.681211f, 3.611924f, 2.345669f, 3.851311f, 3.686094f, 3.164001f, 4.454451f}},
        {"bilinear", "reflection", false, {1.873087f, 0.714296f, 0.703517f, 2.079978f, 0.553155f, 0.750063f, 1.988513f, 0.475972f, 2.356766f, 0.702724f, 0.848028f, 1.834823f, 3.892539f, 4.074572f, 2.920280f, 4.622386f, 2.854264f, 3.687350f, 3.664211f, 2.308234f, 4.029903f, 4.079588f, 3.177435f, 4.752893f}},
        {"bilinear", "reflection", true, {1.716951f, 1.070932f, 0.787474f, 2.155702f, 0.697528f, 1.044478f, 1.800508f, 0.552609f, 1.902876f, 0.742623f, 0.780226f, 1.945131f, 3.829169f, 3.777263f, 3.154612f, 4.488591f, 3.079570f, 3.637882f, 3.616369f, 2.360430f, 3.892041f, 3.686892f, 3.326074f, 4.390423f}},
        {"nearest", "zeros", false, {0.000000f, 0.000000f, 0.000000f, 2.271657f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 4.520347f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f, 0.000000f}},
        {"nearest", "zeros", true, {2.674562f, 0.702724f, 0.855771f, 2.271657f, 0.566020f, 0.750063f, 2.022873f, 0.631605f, 2.674562f, 0.702724f, 0.855771f, 2.271657f, 4.221309f, 4.079588f, 3.137133f, 4.520347f, 2.138253f, 3.687350f, 3.507351f, 2.104757f, 4.221309f, 4.079588f, 3.137133f, 4.520347f}},
        {"nearest", "border", false, {2.718328f, 0.702724f, 0.855771f, 2.271657f, 0.566020f, 0.750063f, 2.022873f, 0.370560f, 2.674562f, 0.702724f, 0.855771f, 1.738846f, 4.208857f, 4.079588f, 3.137133f, 4.520347f, 2.138253f, 3.687350f, 3.507351f, 2.446052f, 4.221309f, 4.079588f, 3.137133f, 4.803987f}},
        {"nearest", "border", true, {2.674562f, 0.702724f, 0.855771f, 2.271657f, 0.566020f, 0.750063f, 2.022873f, 0.631605f, 2.674562f, 0.702724f, 0.855771f, 2.271657f, 4.221309f, 4.079588f, 3.137133f, 4.520347f, 2.138253f, 3.687350f, 3.507351f, 2.104757f, 4.221309f, 4.079588f, 3.137133f, 4.520347f}},
        {"nearest", "reflection", false, {2.718328f, 0.702724f, 0.855771f, 2.271657f, 0.566020f, 0.750063f, 2.022873f, 0.370560f, 2.674562f, 0.702724f, 0.855771f, 1.738846f, 4.208857f, 4.079588f, 3.137133f, 4.520347f, 2.138253f, 3.687350f, 3.507351f, 2.446052f, 4.221309f, 4.079588f, 3.137133f, 4.803987f}},
        {"nearest", "reflection", true, {2.674562f, 0.702724f, 0.855771f, 2.271657f, 0.566020f, 0.750063f, 2.022873f, 0.631605f, 2.674562f, 0.702724f, 0.855771f, 2.271657f, 4.221309f, 4.079588f, 3.137133f, 4.520347f, 2.138253f, 3.687350f, 3.507351f, 2.104757f, 4.221309f, 4.079588f, 3.137133f, 4.520347f}},
    };
    std::vector<float> x(48), g(36);
    for (int i = 0; i < 48; ++i) {
        x[i] = (float)(0.5 * sin(0.9 * i + 0.3) + 0.1 * i);
    }
    for (int i = 0; i < 36; ++i) {
        g[i] = (float)(1.2 * sin(1.3 * i + 0.5));
    }
    auto xt = makeTensor({1, 2, 2, 3, 4}, x);
    auto gt = makeTensor({1, 2, 2, 3, 3}, g);
    for (auto& c : cases) {
        SCOPED_TRACE(std::string(c.mode) + " " + c.pad + (c.align ? " align" : ""));
        int mode = std::string(c.mode) == "bilinear" ? 0 : 1;
        int pad = std::string(c.pad) == "zeros" ? 0 : (std::string(c.pad) == "border" ? 1 : 2);
        auto r = runModel(gridModel({1, 2, 2, 3, 4}, {1, 2, 2, 3, 3}, mode, pad, c.align),
                          {{"x", xt.get()}, {"g", gt.get()}});
        ASSERT_EQ(r.code, NO_ERROR);
        ASSERT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 2, 2, 3}));
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), c.want, 2e-5f, 1e-4f));
    }
    // cubic needs exactly 2 spatial axes
    auto m = gridModel({1, 2, 2, 3, 4}, {1, 2, 2, 3, 3}, 2, 0, false);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(m.data(), m.size()));
    ScheduleConfig config;
    EXPECT_EQ(net->createSession(config), nullptr);
}

TEST(GridSample, ZeroSizeGridAndImage) {
    auto xt = makeTensor({1, 1, 2, 2}, {1, 2, 3, 4});
    auto gt = makeTensor({1, 0, 3, 2}, {});
    auto r = runModel(gridModel({1, 1, 2, 2}, {1, 0, 3, 2}, 0, 0, false), {{"x", xt.get()}, {"g", gt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 1, 0, 3}));
    // an empty image samples zeros
    auto x0 = makeTensor({1, 1, 0, 2}, {});
    auto g1 = makeTensor({1, 1, 1, 2}, {0, 0});
    r = runModel(gridModel({1, 1, 0, 2}, {1, 1, 1, 2}, 0, 1, false), {{"x", x0.get()}, {"g", g1.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0}));
}

// grid values far outside (and non-finite) read the padding, never out of bounds
TEST(GridSample, FarAndNonFiniteGrid) {
    auto xt = makeTensor({1, 1, 2, 2}, {1, 2, 3, 4});
    auto gt = makeTensor({1, 1, 3, 2}, {1e30f, 0, -1e30f, 1e30f, NAN, 0});
    for (int mode = 0; mode < 3; ++mode) {
        auto r = runModel(gridModel({1, 1, 2, 2}, {1, 1, 3, 2}, mode, 0, false), {{"x", xt.get()}, {"g", gt.get()}});
        ASSERT_EQ(r.code, NO_ERROR);
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 0, 0})) << "mode " << mode;
    }
    // border: far right of row 0.5 -> x = 1: (2 + 4) / 2 = 3; far left/bottom -> pixel (1, 0) = 3
    auto r = runModel(gridModel({1, 1, 2, 2}, {1, 1, 3, 2}, 0, 1, false), {{"x", xt.get()}, {"g", gt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[0], 3.0f, 1e-5f);
    EXPECT_NEAR(r.outputs["y"]->host<float>()[1], 3.0f, 1e-5f);
}
