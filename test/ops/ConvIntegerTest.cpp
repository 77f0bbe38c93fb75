// ConvInteger / QLinearConv against a direct convolution written here (padding contributes
// x_zero_point - x_zero_point = 0): uint8 / int8 inputs and weights, per-tensor and per-channel
// weight zero points and scales, groups, strides, dilations, pads, auto_pad, 1-D, bias, rounding
// half to even and saturation; bad parameters fail at createSession.
#include <math.h>
#include <random>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
template <typename T>
std::vector<T> randomInts(std::mt19937& rng, size_t n) {
    std::uniform_int_distribution<int> d(std::is_signed<T>::value ? -128 : 0, std::is_signed<T>::value ? 127 : 255);
    std::vector<T> v(n);
    for (auto& x : v) {
        x = (T)d(rng);
    }
    return v;
}

struct Conv2d {
    int n = 1, c = 1, h = 1, w = 1, m = 1, kh = 1, kw = 1;
    int group = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    int padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
    int oh() const {
        return (h + padTop + padBottom - ((kh - 1) * dh + 1)) / sh + 1;
    }
    int ow() const {
        return (w + padLeft + padRight - ((kw - 1) * dw + 1)) / sw + 1;
    }
};

/** int64 sums of (x - xzp) * (w - wzp[m]) over each window; zero padding of x - xzp */
template <typename TX, typename TW>
std::vector<int64_t> referenceConv(const Conv2d& g, const std::vector<TX>& x, const std::vector<TW>& w, int xzp,
                                   const std::vector<int>& wzp) {
    const int cg = g.c / g.group, mg = g.m / g.group, oh = g.oh(), ow = g.ow();
    std::vector<int64_t> y((size_t)g.n * g.m * oh * ow, 0);
    for (int n = 0; n < g.n; ++n) {
        for (int m = 0; m < g.m; ++m) {
            const int grp = m / mg;
            const int z = wzp.empty() ? 0 : (wzp.size() == 1 ? wzp[0] : wzp[m]);
            for (int i = 0; i < oh; ++i) {
                for (int j = 0; j < ow; ++j) {
                    int64_t s = 0;
                    for (int ci = 0; ci < cg; ++ci) {
                        for (int a = 0; a < g.kh; ++a) {
                            for (int b = 0; b < g.kw; ++b) {
                                const int ih = i * g.sh - g.padTop + a * g.dh, iw = j * g.sw - g.padLeft + b * g.dw;
                                if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w) {
                                    continue;
                                }
                                const int xv = (int)x[(((size_t)n * g.c + grp * cg + ci) * g.h + ih) * g.w + iw];
                                const int wv = (int)w[(((size_t)m * cg + ci) * g.kh + a) * g.kw + b];
                                s += (int64_t)(xv - xzp) * (wv - z);
                            }
                        }
                    }
                    y[(((size_t)n * g.m + m) * oh + i) * ow + j] = s;
                }
            }
        }
    }
    return y;
}

Schema::ConvParamT convParam(const Conv2d& g, bool oneD, Schema::PadMode mode = Schema::PadMode::EXPLICIT) {
    Schema::ConvParamT p;
    p.group = g.group;
    p.padMode = mode;
    if (oneD) {
        p.kernel = {g.kw};
        p.strides = {g.sw};
        p.dilations = {g.dw};
        p.pads = {g.padLeft, g.padRight};
    } else {
        p.kernel = {g.kh, g.kw};
        p.strides = {g.sh, g.sw};
        p.dilations = {g.dh, g.dw};
        p.pads = {g.padTop, g.padLeft, g.padBottom, g.padRight};
    }
    if (mode != Schema::PadMode::EXPLICIT) {
        p.pads.clear();
    }
    return p;
}

/** zero points: 0 absent, 1 rank-0 scalar, m per channel */
template <typename TX, typename TW>
void checkConvInteger(const Conv2d& g, int xzpForm, int wzpCount, uint32_t seed, bool oneD = false,
                      Schema::PadMode mode = Schema::PadMode::EXPLICIT) {
    std::mt19937 rng(seed);
    auto x = randomInts<TX>(rng, (size_t)g.n * g.c * g.h * g.w);
    auto w = randomInts<TW>(rng, (size_t)g.m * (g.c / g.group) * g.kh * g.kw);
    auto xz = randomInts<TX>(rng, 1);
    auto wz = randomInts<TW>(rng, (size_t)std::max(wzpCount, 1));
    const std::vector<int> xDims = oneD ? std::vector<int>{g.n, g.c, g.w} : std::vector<int>{g.n, g.c, g.h, g.w};
    const std::vector<int> wDims =
        oneD ? std::vector<int>{g.m, g.c / g.group, g.kw} : std::vector<int>{g.m, g.c / g.group, g.kh, g.kw};
    ModelBuilder mb;
    mb.input("x", xDims, dataTypeOf<TX>());
    constantOf<TW>(mb, "w", wDims, w);
    std::vector<std::string> ins = {"x", "w"};
    if (xzpForm || wzpCount) {
        ins.push_back(xzpForm ? "xz" : "");
    }
    if (xzpForm) {
        constantOf<TX>(mb, "xz", {}, xz);
    }
    if (wzpCount) {
        constantOf<TW>(mb, "wz", wzpCount == 1 ? std::vector<int>{} : std::vector<int>{wzpCount}, wz);
        ins.push_back("wz");
    }
    auto op = mb.op(Schema::OpType::ConvInteger, "ci", ins, {"y"});
    op->param.Set(convParam(g, oneD, mode));
    mb.output("y");
    auto xt = makeTyped<TX>(xDims, x);
    auto r = runModel(mb.finish(), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    std::vector<int> yDims = oneD ? std::vector<int>{g.n, g.m, g.ow()} : std::vector<int>{g.n, g.m, g.oh(), g.ow()};
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), yDims);
    auto got = valuesOf<int32_t>(r.outputs["y"].get());
    std::vector<int> wzv;
    for (int i = 0; i < wzpCount; ++i) {
        wzv.push_back((int)wz[i]);
    }
    auto want = referenceConv(g, x, w, xzpForm ? (int)xz[0] : 0, wzv);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ((int64_t)got[i], want[i]) << "element " << i;
    }
}
}  // namespace

TEST(ConvInteger, OnnxExampleWithPadding) {
    // ONNX operator documentation: x = 2..10 (3x3), w = ones (2x2), x_zero_point 1, pads 1
    ModelBuilder mb;
    constantOf<uint8_t>(mb, "x", {1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
    constantOf<uint8_t>(mb, "w", {1, 1, 2, 2}, {1, 1, 1, 1});
    constantOf<uint8_t>(mb, "xz", {}, {1});
    auto op = mb.op(Schema::OpType::ConvInteger, "ci", {"x", "w", "xz"}, {"y"});
    Schema::ConvParamT p;
    p.pads = {1, 1, 1, 1};
    op->param.Set(p);
    mb.output("y");
    auto r = runModel(mb.finish(), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{1, 1, 4, 4}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["y"].get()),
              (std::vector<int32_t>{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}));
}

TEST(ConvInteger, TypesAndZeroPoints) {
    Conv2d g;
    g.n = 2;
    g.c = 3;
    g.h = 6;
    g.w = 7;
    g.m = 4;
    g.kh = 3;
    g.kw = 2;
    g.padTop = 1;
    g.padLeft = 0;
    g.padBottom = 2;
    g.padRight = 1;
    checkConvInteger<uint8_t, uint8_t>(g, 1, 1, 1);
    checkConvInteger<uint8_t, int8_t>(g, 0, 4, 2);
    checkConvInteger<int8_t, uint8_t>(g, 1, 0, 3);
    checkConvInteger<int8_t, int8_t>(g, 1, 4, 4);
    checkConvInteger<uint8_t, uint8_t>(g, 0, 0, 5);
}

TEST(ConvInteger, GroupsStridesDilations) {
    Conv2d g;
    g.c = 6;
    g.h = 9;
    g.w = 11;
    g.m = 4;
    g.group = 2;
    g.kh = 3;
    g.kw = 3;
    g.sh = 2;
    g.sw = 3;
    g.dh = 2;
    g.dw = 1;
    g.padTop = g.padLeft = g.padBottom = g.padRight = 2;
    checkConvInteger<uint8_t, uint8_t>(g, 1, 4, 6);
    // depthwise
    Conv2d d;
    d.c = d.m = d.group = 5;
    d.h = d.w = 6;
    d.kh = d.kw = 3;
    d.padTop = d.padLeft = d.padBottom = d.padRight = 1;
    checkConvInteger<uint8_t, int8_t>(d, 1, 5, 7);
}

TEST(ConvInteger, AutoPadAndOneD) {
    // SAME_UPPER, 5x5 input, 3x3 kernel, stride 2: output 3x3, total pad 2 -> 1 before, 1 after
    Conv2d g;
    g.c = 2;
    g.h = g.w = 5;
    g.m = 3;
    g.kh = g.kw = 3;
    g.sh = g.sw = 2;
    g.padTop = g.padLeft = g.padBottom = g.padRight = 1;
    checkConvInteger<uint8_t, uint8_t>(g, 1, 1, 8, false, Schema::PadMode::SAME_UPPER);
    // SAME_LOWER with an even kernel: 4x4 input, 2x2 kernel, stride 1, total pad 1 -> 1 before
    Conv2d l;
    l.h = l.w = 4;
    l.kh = l.kw = 2;
    l.padTop = l.padLeft = 1;
    checkConvInteger<int8_t, int8_t>(l, 1, 1, 9, false, Schema::PadMode::SAME_LOWER);
    Conv2d o;
    o.c = 3;
    o.w = 10;
    o.m = 2;
    o.kw = 4;
    o.sw = 2;
    o.padLeft = 3;
    o.padRight = 1;
    checkConvInteger<uint8_t, uint8_t>(o, 1, 2, 10, true);
}

TEST(ConvInteger, ZeroBatch) {
    Conv2d g;
    g.n = 0;
    g.c = 2;
    g.h = g.w = 4;
    g.m = 2;
    g.kh = g.kw = 3;
    checkConvInteger<uint8_t, uint8_t>(g, 1, 1, 11);
}

TEST(ConvInteger, BadParametersFailAtCreate) {
    auto model = [](const std::vector<int>& wzDims, Schema::DataType xType) {
        ModelBuilder mb;
        mb.input("x", {1, 2, 4, 4}, xType);
        constantOf<uint8_t>(mb, "w", {3, 2, 3, 3}, std::vector<uint8_t>(54, 1));
        std::vector<uint8_t> wz(wzDims.empty() ? 1 : wzDims[0], 0);
        constantOf<uint8_t>(mb, "wz", wzDims, wz);
        auto op = mb.op(Schema::OpType::ConvInteger, "ci", {"x", "w", "", "wz"}, {"y"});
        op->param.Set(Schema::ConvParamT());
        mb.output("y");
        return mb.finish();
    };
    EXPECT_TRUE(createFails(model({2}, Schema::DataType::DT_UINT8), "ci", "w_zero_point"));
    EXPECT_TRUE(createFails(model({}, Schema::DataType::DT_FLOAT), "ci", "uint8 and int8"));
    ModelBuilder mb;
    mb.input("x", {1, 2, 4, 4}, Schema::DataType::DT_UINT8);
    constantOf<uint8_t>(mb, "w", {3, 1, 3, 3}, std::vector<uint8_t>(27, 1));
    auto op = mb.op(Schema::OpType::ConvInteger, "ci", {"x", "w"}, {"y"});
    op->param.Set(Schema::ConvParamT());
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "ci"));
}

namespace {
template <typename TX, typename TW, typename TY>
void checkQLinearConv(const Conv2d& g, bool perChannel, bool bias, uint32_t seed) {
    std::mt19937 rng(seed);
    auto x = randomInts<TX>(rng, (size_t)g.n * g.c * g.h * g.w);
    auto w = randomInts<TW>(rng, (size_t)g.m * (g.c / g.group) * g.kh * g.kw);
    const int pc = perChannel ? g.m : 1;
    std::uniform_real_distribution<float> sd(0.002f, 0.02f);
    std::vector<float> ws(pc);
    for (auto& v : ws) {
        v = sd(rng);
    }
    const float xs = sd(rng), ys = sd(rng) * 2.0f;
    auto xz = randomInts<TX>(rng, 1);
    auto wz = randomInts<TW>(rng, pc);
    auto yz = randomInts<TY>(rng, 1);
    std::uniform_int_distribution<int> bd(-20000, 20000);
    std::vector<int32_t> b(g.m);
    for (auto& v : b) {
        v = bd(rng);
    }
    ModelBuilder mb;
    mb.input("x", {g.n, g.c, g.h, g.w}, dataTypeOf<TX>());
    mb.constant("xs", {}, {xs});
    constantOf<TX>(mb, "xz", {}, xz);
    constantOf<TW>(mb, "w", {g.m, g.c / g.group, g.kh, g.kw}, w);
    mb.constant("ws", {pc}, ws);
    constantOf<TW>(mb, "wz", {pc}, wz);
    mb.constant("ys", {}, {ys});
    constantOf<TY>(mb, "yz", {}, yz);
    std::vector<std::string> ins = {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"};
    if (bias) {
        mb.constantInt32("b", {g.m}, b);
        ins.push_back("b");
    }
    auto op = mb.op(Schema::OpType::QLinearConv, "qc", ins, {"y"});
    op->param.Set(convParam(g, false));
    mb.output("y");
    auto xt = makeTyped<TX>({g.n, g.c, g.h, g.w}, x);
    auto r = runModel(mb.finish(), {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto got = valuesOf<TY>(r.outputs["y"].get());
    std::vector<int> wzv(wz.begin(), wz.end());
    auto acc = referenceConv(g, x, w, (int)xz[0], wzv);
    ASSERT_EQ(got.size(), acc.size());
    const int plane = g.oh() * g.ow();
    const double lo = std::is_signed<TY>::value ? -128 : 0, hi = std::is_signed<TY>::value ? 127 : 255;
    int saturated = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const int m = (int)(i / plane) % g.m;
        const float mult = xs * ws[perChannel ? m : 0] / ys;
        double v = std::nearbyint((double)(acc[i] + (bias ? b[m] : 0)) * (double)mult) + (double)yz[0];
        saturated += v < lo || v > hi;
        v = std::min(hi, std::max(lo, v));
        ASSERT_EQ((double)got[i], v) << "element " << i;
    }
    EXPECT_GT(saturated, 0);
}
}  // namespace

TEST(QLinearConv, PerTensorAndPerChannel) {
    Conv2d g;
    g.n = 2;
    g.c = 4;
    g.h = 7;
    g.w = 6;
    g.m = 6;
    g.group = 2;
    g.kh = g.kw = 3;
    g.sh = 2;
    g.padTop = g.padLeft = g.padBottom = g.padRight = 1;
    checkQLinearConv<uint8_t, uint8_t, uint8_t>(g, false, false, 21);
    checkQLinearConv<uint8_t, int8_t, uint8_t>(g, true, true, 22);
    checkQLinearConv<int8_t, int8_t, int8_t>(g, true, true, 23);
}

TEST(QLinearConv, RoundsHalfToEven) {
    // 1x1 convolution of x = [5, 7, -5] by w = 1, scale 0.5: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2
    ModelBuilder mb;
    constantOf<int8_t>(mb, "x", {1, 1, 1, 3}, {5, 7, -5});
    mb.constant("xs", {}, {0.5f});
    constantOf<int8_t>(mb, "xz", {}, {0});
    constantOf<int8_t>(mb, "w", {1, 1, 1, 1}, {1});
    mb.constant("ws", {1}, {1.0f});
    constantOf<int8_t>(mb, "wz", {1}, {0});
    mb.constant("ys", {}, {1.0f});
    constantOf<int8_t>(mb, "yz", {}, {0});
    auto op = mb.op(Schema::OpType::QLinearConv, "qc", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"});
    op->param.Set(Schema::ConvParamT());
    mb.output("y");
    auto r = runModel(mb.finish(), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int8_t>(r.outputs["y"].get()), (std::vector<int8_t>{2, 4, -2}));
}

TEST(QLinearConv, BadBiasFailsAtCreate) {
    ModelBuilder mb;
    mb.input("x", {1, 1, 3, 3}, Schema::DataType::DT_UINT8);
    mb.constant("xs", {}, {0.5f});
    constantOf<uint8_t>(mb, "xz", {}, {0});
    constantOf<uint8_t>(mb, "w", {2, 1, 1, 1}, {1, 2});
    mb.constant("ws", {2}, {1.0f, 1.0f});
    constantOf<uint8_t>(mb, "wz", {2}, {0, 0});
    mb.constant("ys", {}, {1.0f});
    constantOf<uint8_t>(mb, "yz", {}, {0});
    mb.constant("b", {2}, {1.0f, 2.0f});
    auto op = mb.op(Schema::OpType::QLinearConv, "qc", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"}, {"y"});
    op->param.Set(Schema::ConvParamT());
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "qc", "int32"));
}
