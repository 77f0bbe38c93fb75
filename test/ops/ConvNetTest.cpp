// A small CNN built with ModelBuilder (conv + batchnorm + relu + maxpool, depthwise conv with fused ReLU,
// 1x1 conv with fused Clip, global average pool, flatten, gemm, softmax) against a plain C++ forward pass
// written here, at batch sizes 2, 1 and 3 (each run resizes the session).
#include <math.h>
#include <algorithm>
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct Feature {
    int n = 0, c = 0, h = 0, w = 0;
    std::vector<float> v;
    float& at(int a, int b, int i, int j) {
        return v[((size_t)(a * c + b) * h + i) * w + j];
    }
    float at(int a, int b, int i, int j) const {
        return v[((size_t)(a * c + b) * h + i) * w + j];
    }
};

Feature makeFeature(int n, int c, int h, int w) {
    Feature f;
    f.n = n;
    f.c = c;
    f.h = h;
    f.w = w;
    f.v.assign((size_t)n * c * h * w, 0.0f);
    return f;
}

// symmetric padding, square kernel
Feature conv(const Feature& x, const std::vector<float>& wt, const std::vector<float>& bias, int m, int k, int stride,
             int pad, int group) {
    int oh = (x.h + 2 * pad - k) / stride + 1, ow = (x.w + 2 * pad - k) / stride + 1;
    Feature y = makeFeature(x.n, m, oh, ow);
    int cg = x.c / group, mg = m / group;
    for (int n = 0; n < x.n; ++n)
        for (int o = 0; o < m; ++o)
            for (int i = 0; i < oh; ++i)
                for (int j = 0; j < ow; ++j) {
                    double s = bias[o];
                    for (int ci = 0; ci < cg; ++ci)
                        for (int a = 0; a < k; ++a)
                            for (int b = 0; b < k; ++b) {
                                int r = i * stride - pad + a, q = j * stride - pad + b;
                                if (r >= 0 && r < x.h && q >= 0 && q < x.w) {
                                    s += (double)x.at(n, (o / mg) * cg + ci, r, q) * wt[((o * cg + ci) * k + a) * k + b];
                                }
                            }
                    y.at(n, o, i, j) = (float)s;
                }
    return y;
}

}  // namespace

struct ConvNetWeights {
    std::vector<float> w1, b1, scale, shift, mean, var, w2, b2, w3, b3, fc, fcb;
    ConvNetWeights() {
        w1 = randomFloats(8 * 3 * 9, 1, -0.5f, 0.5f);
        b1 = randomFloats(8, 2);
        scale = randomFloats(8, 3, 0.5f, 1.5f);
        shift = randomFloats(8, 4);
        mean = randomFloats(8, 5);
        var = randomFloats(8, 6, 0.2f, 2.0f);
        w2 = randomFloats(8 * 9, 7);
        b2 = randomFloats(8, 8);
        w3 = randomFloats(16 * 8, 9);
        b3 = randomFloats(16, 10);
        fc = randomFloats(10 * 16, 11);
        fcb = randomFloats(10, 12);
    }
};

static std::vector<uint8_t> buildConvNet(const ConvNetWeights& wt) {
    ModelBuilder mb;
    mb.input("x", {2, 3, 12, 12});
    mb.constant("w1", {8, 3, 3, 3}, wt.w1);
    mb.constant("b1", {8}, wt.b1);
    mb.constant("bn_s", {8}, wt.scale);
    mb.constant("bn_b", {8}, wt.shift);
    mb.constant("bn_m", {8}, wt.mean);
    mb.constant("bn_v", {8}, wt.var);
    mb.constant("w2", {8, 1, 3, 3}, wt.w2);
    mb.constant("b2", {8}, wt.b2);
    mb.constant("w3", {16, 8, 1, 1}, wt.w3);
    mb.constant("b3", {16}, wt.b3);
    mb.constant("fc", {10, 16}, wt.fc);
    mb.constant("fcb", {10}, wt.fcb);

    Schema::ConvParamT c1;
    c1.pads = {1, 1, 1, 1};
    mb.op(Schema::OpType::Convolution, "conv1", {"x", "w1", "b1"}, {"c1"})->param.Set(c1);
    Schema::NormParamT bn;
    bn.epsilon = 1e-5f;
    mb.op(Schema::OpType::BatchNorm, "bn1", {"c1", "bn_s", "bn_b", "bn_m", "bn_v"}, {"n1"})->param.Set(bn);
    Schema::UnaryParamT relu;
    relu.type = Schema::UnaryOpType::RELU;
    mb.op(Schema::OpType::UnaryOp, "relu1", {"n1"}, {"r1"})->param.Set(relu);
    Schema::PoolParamT mp;
    mp.type = Schema::PoolType::MAXPOOL;
    mp.kernel = {2, 2};
    mp.strides = {2, 2};
    mb.op(Schema::OpType::Pooling, "pool1", {"r1"}, {"p1"})->param.Set(mp);
    Schema::ConvParamT c2;
    c2.group = 8;
    c2.strides = {2, 2};
    c2.pads = {1, 1, 1, 1};
    c2.activation = Schema::FusedActivation::RELU;
    mb.op(Schema::OpType::Convolution, "dw2", {"p1", "w2", "b2"}, {"c2"})->param.Set(c2);
    Schema::ConvParamT c3;
    c3.activation = Schema::FusedActivation::CLIP;
    c3.clipMin = 0.0f;
    c3.clipMax = 6.0f;
    mb.op(Schema::OpType::Convolution, "pw3", {"c2", "w3", "b3"}, {"c3"})->param.Set(c3);
    Schema::PoolParamT gap;
    gap.type = Schema::PoolType::AVERAGEPOOL;
    gap.global = true;
    mb.op(Schema::OpType::Pooling, "gap", {"c3"}, {"g"})->param.Set(gap);
    Schema::AxisParamT flat;
    flat.axis = 1;
    mb.op(Schema::OpType::Flatten, "flatten", {"g"}, {"f"})->param.Set(flat);
    Schema::GemmParamT gemm;
    gemm.transB = true;
    mb.op(Schema::OpType::Gemm, "fc", {"f", "fc", "fcb"}, {"logits"})->param.Set(gemm);
    Schema::SoftmaxParamT sm;
    sm.axis = -1;
    mb.op(Schema::OpType::Softmax, "softmax", {"logits"}, {"prob"})->param.Set(sm);
    mb.output("prob");
    return mb.finish();
}

static std::vector<float> plainForward(const ConvNetWeights& wt, int batch, const std::vector<float>& input) {
    Feature x = makeFeature(batch, 3, 12, 12);
    x.v = input;
    // conv1 + batchnorm + relu
    Feature a = conv(x, wt.w1, wt.b1, 8, 3, 1, 1, 1);
    for (int n = 0; n < a.n; ++n)
        for (int c = 0; c < 8; ++c)
            for (int i = 0; i < a.h; ++i)
                for (int j = 0; j < a.w; ++j) {
                    float& v = a.at(n, c, i, j);
                    v = (float)((v - wt.mean[c]) / sqrt((double)wt.var[c] + 1e-5) * wt.scale[c] + wt.shift[c]);
                    v = std::max(v, 0.0f);
                }
    // 2x2 max pool, stride 2
    Feature p = makeFeature(batch, 8, 6, 6);
    for (int n = 0; n < batch; ++n)
        for (int c = 0; c < 8; ++c)
            for (int i = 0; i < 6; ++i)
                for (int j = 0; j < 6; ++j) {
                    p.at(n, c, i, j) = std::max(std::max(a.at(n, c, 2 * i, 2 * j), a.at(n, c, 2 * i, 2 * j + 1)),
                                                std::max(a.at(n, c, 2 * i + 1, 2 * j), a.at(n, c, 2 * i + 1, 2 * j + 1)));
                }
    // depthwise 3x3 stride 2 + relu, then 1x1 to 16 channels + clip(0, 6)
    Feature d = conv(p, wt.w2, wt.b2, 8, 3, 2, 1, 8);
    for (auto& v : d.v) {
        v = std::max(v, 0.0f);
    }
    Feature e = conv(d, wt.w3, wt.b3, 16, 1, 1, 0, 1);
    for (auto& v : e.v) {
        v = std::min(std::max(v, 0.0f), 6.0f);
    }
    // global average pool, fully connected (W stored [10, 16]), softmax
    std::vector<float> prob((size_t)batch * 10);
    for (int n = 0; n < batch; ++n) {
        double feat[16];
        for (int c = 0; c < 16; ++c) {
            double s = 0;
            for (int i = 0; i < e.h; ++i)
                for (int j = 0; j < e.w; ++j) {
                    s += e.at(n, c, i, j);
                }
            feat[c] = s / (e.h * e.w);
        }
        double logits[10], mx = -1e300, sum = 0;
        for (int o = 0; o < 10; ++o) {
            logits[o] = wt.fcb[o];
            for (int c = 0; c < 16; ++c) {
                logits[o] += feat[c] * wt.fc[o * 16 + c];
            }
            mx = std::max(mx, logits[o]);
        }
        for (int o = 0; o < 10; ++o) {
            sum += exp(logits[o] - mx);
        }
        for (int o = 0; o < 10; ++o) {
            prob[n * 10 + o] = (float)(exp(logits[o] - mx) / sum);
        }
    }
    return prob;
}

TEST(ConvNet, MatchesPlainForwardAcrossBatchSizes) {
    ConvNetWeights wt;
    auto model = buildConvNet(wt);
    for (int batch : {2, 1, 3}) {
        SCOPED_TRACE(batch);
        auto input = randomFloats((size_t)batch * 3 * 12 * 12, 100 + batch, -2.0f, 2.0f);
        auto expect = plainForward(wt, batch, input);
        auto x = makeTensor({batch, 3, 12, 12}, input);
        auto r = runModel(model, {{"x", x.get()}});
        ASSERT_EQ(r.code, NO_ERROR);
        ASSERT_EQ(r.outputs["prob"]->shape(), (std::vector<int>{batch, 10}));
        EXPECT_TRUE(tensorClose(r.outputs["prob"].get(), expect, 1e-6f, 1e-4f));
        // the probabilities are not degenerate (the comparison would be weak otherwise)
        float mx = *std::max_element(expect.begin(), expect.end());
        EXPECT_LT(mx, 0.99f);
    }
}

TEST(ConvNet, SessionFlopsAddUpTheLayers) {
    ConvNetWeights wt;
    auto model = buildConvNet(wt);
    // multiply-adds of conv1, dw2, pw3 and fc at batch 2; other layers count one flop per output element
    double macs = 2.0 * (8 * 12 * 12 * 27 + 8 * 3 * 3 * 9 + 16 * 3 * 3 * 8 + 10 * 16);
    double elementwise = 2.0 * (8 * 144 /*bn*/ + 8 * 144 /*relu*/ + 8 * 36 /*pool*/ + 16 /*gap*/ + 16 /*flatten*/ +
                                10 /*softmax*/);
    float mflops = sessionMFlops(model);
    EXPECT_GE(mflops, (float)(2.0 * macs / 1e6 * 0.999));
    EXPECT_NEAR(mflops, (float)((2.0 * macs + elementwise) / 1e6), 1e-3);
}
