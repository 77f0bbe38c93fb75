// ConvTranspose: ONNX's documented goldens, randomized comparison with a gather-form loop written here
// (y[o] collects x[i] where i*stride + k*dilation - padBegin == o), output_shape / auto_pad pads,
// zero-size batch, FLOPs and invalid shapes.
#include <algorithm>
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<uint8_t> deconvModel(const std::vector<int>& xDims, const std::vector<int>& wDims,
                                        const std::vector<float>& w, const std::vector<float>* bias,
                                        const Schema::ConvParamT& param) {
    ModelBuilder mb;
    mb.input("x", xDims);
    mb.constant("w", wDims, w);
    if (bias) {
        mb.constant("b", {(int)bias->size()}, *bias);
    }
    auto op = mb.op(Schema::OpType::ConvTranspose, "deconv", {"x", "w", bias ? "b" : ""}, {"y"});
    Schema::ConvParamT copy = param;
    op->param.Set(copy);
    mb.output("y");
    return mb.finish();
}

static RunResult runDeconv(const std::vector<int>& xDims, const std::vector<float>& x, const std::vector<int>& wDims,
                           const std::vector<float>& w, const std::vector<float>* bias, const Schema::ConvParamT& p) {
    auto model = deconvModel(xDims, wDims, w, bias, p);
    auto xt = makeTensor(xDims, x);
    return runModel(model, {{"x", xt.get()}});
}

static std::vector<float> iota(int n) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) {
        v[i] = (float)i;
    }
    return v;
}

TEST(ConvTranspose, GoldenOnnxBasic) {
    Schema::ConvParamT p;
    auto r = runDeconv({1, 1, 3, 3}, iota(9), {1, 2, 3, 3}, std::vector<float>(18, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 5, 5}));
    std::vector<float> plane = {0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8};
    std::vector<float> expect = plane;
    expect.insert(expect.end(), plane.begin(), plane.end());
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
}

// strides [3, 2]: output_shape [10, 8] and output_padding [1, 1] give the same 10x8 result; pads
// [1, 2, 1, 2] crop it to rows 1..7, cols 2..4.
TEST(ConvTranspose, GoldenOutputShapeOutputPaddingAndPads) {
    std::vector<float> rows[4] = {{0, 0, 1, 1, 3, 2, 2, 0}, {3, 3, 7, 4, 9, 5, 5, 0}, {6, 6, 13, 7, 15, 8, 8, 0},
                                  {0, 0, 0, 0, 0, 0, 0, 0}};
    std::vector<float> plane;
    for (int i = 0; i < 10; ++i) {
        auto& row = rows[i < 9 ? i / 3 : 3];
        plane.insert(plane.end(), row.begin(), row.end());
    }
    std::vector<float> expect = plane;
    expect.insert(expect.end(), plane.begin(), plane.end());
    Schema::ConvParamT p;
    p.strides = {3, 2};
    p.outputShape = {10, 8};
    auto r = runDeconv({1, 1, 3, 3}, iota(9), {1, 2, 3, 3}, std::vector<float>(18, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 10, 8}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
    p.outputShape.clear();
    p.outputPadding = {1, 1};
    r = runDeconv({1, 1, 3, 3}, iota(9), {1, 2, 3, 3}, std::vector<float>(18, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
    p.outputPadding.clear();
    p.pads = {1, 2, 1, 2};
    r = runDeconv({1, 1, 3, 3}, iota(9), {1, 2, 3, 3}, std::vector<float>(18, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 7, 3}));
    std::vector<float> cropped = {1, 1, 3, 1, 1, 3, 7, 4, 9, 7, 4, 9, 7, 4, 9, 13, 7, 15, 13, 7, 15};
    expect = cropped;
    expect.insert(expect.end(), cropped.begin(), cropped.end());
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
}

TEST(ConvTranspose, GoldenOneDimensionalWithBias) {
    // x = [1, 2, 3], w = [1, 10] (1 -> 1 channel), stride 2: y = [1, 10, 2, 20, 3, 30] + 0.5
    Schema::ConvParamT p;
    p.strides = {2};
    std::vector<float> b = {0.5f};
    auto r = runDeconv({1, 1, 3}, {1, 2, 3}, {1, 1, 2}, {1, 10}, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.5f, 10.5f, 2.5f, 20.5f, 3.5f, 30.5f}));
}

struct DeconvSpec {
    int n, c, h, w, m, kh, kw;
    int sh = 1, sw = 1, dh = 1, dw = 1;
    int pads[4] = {0, 0, 0, 0}; // top, left, bottom, right
    int oph = 0, opw = 0;
    int group = 1;
    std::vector<int> outputShape;
    Schema::PadMode mode = Schema::PadMode::EXPLICIT;
};

static int floorDiv2(int v) {
    return v >= 0 ? v / 2 : -((-v + 1) / 2);
}

static std::vector<float> naiveDeconv2D(const DeconvSpec& s, const std::vector<float>& x, const std::vector<float>& w,
                                        const std::vector<float>& b, int* outH, int* outW) {
    int fullH = s.sh * (s.h - 1) + s.oph + (s.kh - 1) * s.dh + 1;
    int fullW = s.sw * (s.w - 1) + s.opw + (s.kw - 1) * s.dw + 1;
    int top = s.pads[0], left = s.pads[1], oh = fullH - s.pads[0] - s.pads[2], ow = fullW - s.pads[1] - s.pads[3];
    bool same = s.mode == Schema::PadMode::SAME_UPPER || s.mode == Schema::PadMode::SAME_LOWER;
    if (!s.outputShape.empty() || same) {
        oh = s.outputShape.empty() ? s.h * s.sh : s.outputShape[0];
        ow = s.outputShape.empty() ? s.w * s.sw : s.outputShape[1];
        int th = fullH - oh, tw = fullW - ow;
        if (s.mode == Schema::PadMode::SAME_UPPER) {
            top = floorDiv2(th);
            left = floorDiv2(tw);
        } else {
            top = th - floorDiv2(th);
            left = tw - floorDiv2(tw);
        }
    }
    const int cg = s.c / s.group, mg = s.m / s.group;
    std::vector<float> y((size_t)s.n * s.m * oh * ow);
    for (int n = 0; n < s.n; ++n)
        for (int m = 0; m < s.m; ++m)
            for (int i = 0; i < oh; ++i)
                for (int j = 0; j < ow; ++j) {
                    double acc = b[m];
                    for (int ci = 0; ci < cg; ++ci)
                        for (int ki = 0; ki < s.kh; ++ki)
                            for (int kj = 0; kj < s.kw; ++kj) {
                                int nh = i + top - ki * s.dh, nw = j + left - kj * s.dw;
                                if (nh < 0 || nw < 0 || nh % s.sh != 0 || nw % s.sw != 0) {
                                    continue;
                                }
                                int hi = nh / s.sh, wj = nw / s.sw;
                                if (hi >= s.h || wj >= s.w) {
                                    continue;
                                }
                                int c = (m / mg) * cg + ci;
                                acc += (double)x[((n * s.c + c) * s.h + hi) * s.w + wj] *
                                       w[((c * mg + m % mg) * s.kh + ki) * s.kw + kj];
                            }
                    y[((n * s.m + m) * oh + i) * ow + j] = (float)acc;
                }
    *outH = oh;
    *outW = ow;
    return y;
}

TEST(ConvTranspose, RandomizedAgainstGatherLoops) {
    std::vector<DeconvSpec> specs;
    DeconvSpec a{1, 3, 4, 5, 2, 3, 3};
    specs.push_back(a);
    a.sh = 2;
    a.sw = 3;
    specs.push_back(a);
    a.pads[0] = 1;
    a.pads[1] = 2;
    a.pads[2] = 0;
    a.pads[3] = 1;
    a.oph = 1;
    a.opw = 2;
    specs.push_back(a);
    a.dh = 2;
    a.dw = 2;
    specs.push_back(a);
    DeconvSpec g{2, 4, 3, 3, 6, 2, 3};
    g.group = 2;
    g.sh = 2;
    g.sw = 2;
    specs.push_back(g);
    DeconvSpec dw{1, 4, 5, 4, 4, 3, 3};
    dw.group = 4;
    dw.sh = dw.sw = 2;
    dw.pads[0] = dw.pads[1] = dw.pads[2] = dw.pads[3] = 1;
    dw.oph = dw.opw = 1;
    specs.push_back(dw);
    for (auto mode : {Schema::PadMode::SAME_UPPER, Schema::PadMode::SAME_LOWER}) {
        DeconvSpec s{1, 2, 4, 3, 3, 3, 4};
        s.mode = mode;
        s.sh = 2;
        s.sw = 3;
        specs.push_back(s);
    }
    DeconvSpec os{1, 2, 3, 4, 2, 3, 3};
    os.sh = os.sw = 2;
    os.outputShape = {8, 8}; // natural 7x9: one extra row at the end, one column cropped
    specs.push_back(os);
    unsigned seed = 100;
    for (auto& s : specs) {
        SCOPED_TRACE(::testing::Message() << "seed " << seed);
        auto x = randomFloats((size_t)s.n * s.c * s.h * s.w, seed);
        auto w = randomFloats((size_t)s.c * (s.m / s.group) * s.kh * s.kw, seed + 1);
        auto b = randomFloats(s.m, seed + 2);
        int oh = 0, ow = 0;
        auto expect = naiveDeconv2D(s, x, w, b, &oh, &ow);
        Schema::ConvParamT p;
        p.strides = {s.sh, s.sw};
        p.dilations = {s.dh, s.dw};
        p.pads = {s.pads[0], s.pads[1], s.pads[2], s.pads[3]};
        p.outputPadding = {s.oph, s.opw};
        p.outputShape = s.outputShape;
        p.group = s.group;
        p.padMode = s.mode;
        auto r = runDeconv({s.n, s.c, s.h, s.w}, x, {s.c, s.m / s.group, s.kh, s.kw}, w, &b, p);
        ASSERT_EQ(r.code, NO_ERROR);
        EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{s.n, s.m, oh, ow}));
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-5f));
        seed += 5;
    }
}

TEST(ConvTranspose, FusedReluZeroBatchAndFlops) {
    Schema::ConvParamT p;
    p.activation = Schema::FusedActivation::RELU;
    std::vector<float> b = {-1.0f};
    auto r = runDeconv({1, 1, 3}, {1, -2, 3}, {1, 1, 1}, {1}, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 0, 2}));

    Schema::ConvParamT q;
    q.strides = {2, 2};
    auto model = deconvModel({0, 2, 3, 3}, {2, 3, 2, 2}, randomFloats(24, 1), nullptr, q);
    auto x = makeTensor({0, 2, 3, 3}, {});
    r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 3, 6, 6}));

    // every input element (1*2*3*3) scatters through M/group * kernel = 3 * 4 multiply-adds
    model = deconvModel({1, 2, 3, 3}, {2, 3, 2, 2}, randomFloats(24, 1), nullptr, q);
    EXPECT_NEAR(sessionMFlops(model), 2.0 * 18 * 12 / 1e6, 1e-8);
}

TEST(ConvTranspose, InvalidShapesFailAtCreate) {
    Schema::ConvParamT p;
    expectCreateFails(deconvModel({1, 3, 4, 4}, {2, 2, 3, 3}, randomFloats(36, 1), nullptr, p),
                      {"deconv", "ConvTranspose", "3 channels"});
    p.group = 2;
    expectCreateFails(deconvModel({1, 3, 4, 4}, {3, 2, 3, 3}, randomFloats(54, 1), nullptr, p),
                      {"deconv", "not divisible by group 2"});
    p.group = 1;
    std::vector<float> b(5, 0.0f);
    expectCreateFails(deconvModel({1, 3, 4, 4}, {3, 2, 3, 3}, randomFloats(54, 1), &b, p), {"deconv", "B has shape"});
    p.outputShape = {5};
    expectCreateFails(deconvModel({1, 3, 4, 4}, {3, 2, 3, 3}, randomFloats(54, 1), nullptr, p),
                      {"deconv", "output_shape"});
    p.outputShape.clear();
    p.pads = {4, 4, 4, 4}; // crops more than the 6x6 full output
    expectCreateFails(deconvModel({1, 3, 4, 4}, {3, 2, 3, 3}, randomFloats(54, 1), nullptr, p),
                      {"deconv", "output extent"});
    p.pads.clear();
    p.padMode = (Schema::PadMode)9;  // outside the enum: refused, not taken for EXPLICIT
    expectCreateFails(deconvModel({1, 3, 4, 4}, {3, 2, 3, 3}, randomFloats(54, 1), nullptr, p),
                      {"deconv", "pad mode 9 is unknown"});
}

// 3-D: y[n, m, o] = b[m] + sum x[n, c, i] * w[c, m % Mg, k] over i * s + k * d - padBegin == o
TEST(ConvTranspose, RandomizedThreeDimensional) {
    const int n = 2, c = 4, m = 6, group = 2;
    const int in[3] = {3, 2, 4}, k[3] = {2, 3, 2}, s[3] = {2, 1, 3}, d[3] = {1, 2, 1};
    const int pb[3] = {1, 0, 2}, pe[3] = {0, 1, 1}, op[3] = {1, 0, 2};
    int out[3];
    for (int i = 0; i < 3; ++i) {
        out[i] = s[i] * (in[i] - 1) + op[i] + (k[i] - 1) * d[i] + 1 - pb[i] - pe[i];
    }
    const int cg = c / group, mg = m / group;
    auto x = randomFloats((size_t)n * c * in[0] * in[1] * in[2], 300);
    auto w = randomFloats((size_t)c * mg * k[0] * k[1] * k[2], 301);
    auto b = randomFloats(m, 302);
    std::vector<float> expect((size_t)n * m * out[0] * out[1] * out[2]);
    for (int bn = 0; bn < n; ++bn)
        for (int oc = 0; oc < m; ++oc)
            for (int o0 = 0; o0 < out[0]; ++o0)
                for (int o1 = 0; o1 < out[1]; ++o1)
                    for (int o2 = 0; o2 < out[2]; ++o2) {
                        double acc = b[oc];
                        for (int ci = 0; ci < cg; ++ci)
                            for (int k0 = 0; k0 < k[0]; ++k0)
                                for (int k1 = 0; k1 < k[1]; ++k1)
                                    for (int k2 = 0; k2 < k[2]; ++k2) {
                                        int o[3] = {o0, o1, o2}, kk[3] = {k0, k1, k2}, i[3];
                                        bool ok = true;
                                        for (int a = 0; a < 3 && ok; ++a) {
                                            int num = o[a] + pb[a] - kk[a] * d[a];
                                            ok = num >= 0 && num % s[a] == 0 && num / s[a] < in[a];
                                            i[a] = ok ? num / s[a] : 0;
                                        }
                                        if (!ok) {
                                            continue;
                                        }
                                        int ch = (oc / mg) * cg + ci;
                                        acc += (double)x[(((size_t)(bn * c + ch) * in[0] + i[0]) * in[1] + i[1]) * in[2] + i[2]] *
                                               w[(((size_t)(ch * mg + oc % mg) * k[0] + k0) * k[1] + k1) * k[2] + k2];
                                    }
                        expect[(((size_t)(bn * m + oc) * out[0] + o0) * out[1] + o1) * out[2] + o2] = (float)acc;
                    }
    Schema::ConvParamT p;
    p.group = group;
    p.strides = {s[0], s[1], s[2]};
    p.dilations = {d[0], d[1], d[2]};
    p.pads = {pb[0], pb[1], pb[2], pe[0], pe[1], pe[2]};
    p.outputPadding = {op[0], op[1], op[2]};
    auto r = runDeconv({n, c, in[0], in[1], in[2]}, x, {c, mg, k[0], k[1], k[2]}, w, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{n, m, out[0], out[1], out[2]}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-5f));
}
