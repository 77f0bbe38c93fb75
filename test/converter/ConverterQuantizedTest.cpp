// Integer-quantized ONNX ops through the converter: the DynamicQuantizeLinear -> ConvInteger /
// MatMulInteger -> Cast -> Mul chains that ONNX Runtime's dynamic quantizer writes (run against a
// reference computed here), QLinearConv / QLinearMatMul parameters, and the com.microsoft domain:
// DynamicQuantizeLSTM is mapped, other contrib ops stay unsupported under their domain name.
#include <math.h>
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using T = MNN::Schema::OpType;

namespace {
void initializerBytes(OnnxBuilder& b, const std::string& name, int type, const std::vector<int64_t>& dims,
                      const void* data, size_t bytes) {
    auto t = b.graph().add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    for (auto d : dims) {
        t->add_dims(d);
    }
    t->set_raw_data(std::string((const char*)data, bytes));
}
void initializerU8(OnnxBuilder& b, const std::string& name, const std::vector<int64_t>& dims,
                   const std::vector<uint8_t>& v) {
    initializerBytes(b, name, onnx::TensorProto::UINT8, dims, v.data(), v.size());
}
void initializerI8(OnnxBuilder& b, const std::string& name, const std::vector<int64_t>& dims,
                   const std::vector<int8_t>& v) {
    initializerBytes(b, name, onnx::TensorProto::INT8, dims, v.data(), v.size());
}

/** DynamicQuantizeLinear of x (the ONNX formulas) */
void quantize(const std::vector<float>& x, std::vector<int>* q, float* scale, int* zp) {
    float lo = 0.0f, hi = 0.0f;
    for (float v : x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    *scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
    *zp = (int)std::nearbyint(std::min(255.0f, std::max(0.0f, 0.0f - lo / *scale)));
    q->clear();
    for (float v : x) {
        q->push_back((int)std::min(255.0f, std::max(0.0f, std::nearbyint(v / *scale) + (float)*zp)));
    }
}
}  // namespace

TEST(ConverterQuantized, DynamicQuantizeMatMulIntegerChainRuns) {
    // y = Cast(MatMulInteger(q(x), Wq, zx, zw)) * (sx * sw), as written by ONNX Runtime's quantizer
    const int M = 3, K = 5, N = 4;
    std::vector<uint8_t> w(K * N);
    for (int i = 0; i < K * N; ++i) {
        w[i] = (uint8_t)(i * 37 % 251);
    }
    OnnxBuilder b(13);
    b.input("x", {M, K});
    initializerU8(b, "w", {K, N}, w);
    initializerU8(b, "wz", {}, {119});
    b.initializer("ws", {}, {0.02f});
    b.node("DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"}, "dql");
    b.node("MatMulInteger", {"xq", "w", "xz", "wz"}, {"acc"}, "mmi");
    auto c = b.node("Cast", {"acc"}, {"accf"}, "cast");
    OnnxBuilder::attr(c, "to", (int64_t)onnx::TensorProto::FLOAT);
    b.node("Mul", {"xs", "ws"}, {"s"}, "scales");
    b.node("Mul", {"accf", "s"}, {"y"}, "dequant");
    b.output("y");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto counts = opCounts(r.model);
    EXPECT_EQ(counts["DynamicQuantizeLinear"], 1);
    EXPECT_EQ(counts["MatMulInteger"], 1);
    std::vector<float> x = {0.5f,  -1.25f, 2.0f, 0.0f, 3.5f,  -0.75f, 1.0f, 0.25f,
                            -2.0f, 1.5f,   0.1f, 0.9f, -0.3f, 2.2f,   0.7f};
    auto out = runFloat(r.model, {{"x", {{M, K}, x}}});
    std::vector<int> q;
    float sx;
    int zx;
    quantize(x, &q, &sx, &zx);
    const float s = sx * 0.02f;
    ASSERT_EQ(out["y"].size(), (size_t)(M * N));
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            int64_t acc = 0;
            for (int k = 0; k < K; ++k) {
                acc += (int64_t)(q[i * K + k] - zx) * ((int)w[k * N + j] - 119);
            }
            EXPECT_EQ(out["y"][i * N + j], (float)acc * s) << i << "," << j;
        }
    }
}

TEST(ConverterQuantized, ConvIntegerAttributesAndRun) {
    // 1x1x4x4 input, 2 output channels, 3x3 kernel, pads 1, stride 2 (kernel_shape left to W)
    OnnxBuilder b(13);
    b.input("x", {1, 1, 4, 4});
    initializerI8(b, "w", {2, 1, 3, 3}, {1, -2, 3, -4, 5, -6, 7, -8, 9, 0, 1, 0, 1, 0, 1, 0, 1, 0});
    initializerI8(b, "wz", {2}, {0, 1});
    b.node("DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"}, "dql");
    auto n = b.node("ConvInteger", {"xq", "w", "xz", "wz"}, {"acc"}, "conv");
    OnnxBuilder::attr(n, "pads", std::vector<int64_t>{1, 1, 1, 1});
    OnnxBuilder::attr(n, "strides", std::vector<int64_t>{2, 2});
    auto c = b.node("Cast", {"acc"}, {"y"}, "cast");
    OnnxBuilder::attr(c, "to", (int64_t)onnx::TensorProto::FLOAT);
    b.output("y");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    ASSERT_NE(net, nullptr);
    const Schema::Op* conv = nullptr;
    for (auto op : *net->ops()) {
        if (op->type() == T::ConvInteger) {
            conv = op;
        }
    }
    ASSERT_NE(conv, nullptr);
    auto p = conv->param_as_ConvParam();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(std::vector<int>(p->kernel()->begin(), p->kernel()->end()), (std::vector<int>{3, 3}));
    EXPECT_EQ(std::vector<int>(p->strides()->begin(), p->strides()->end()), (std::vector<int>{2, 2}));
    EXPECT_EQ(p->outputCount(), 2);
    std::vector<float> x(16);
    for (int i = 0; i < 16; ++i) {
        x[i] = (float)(i % 5) - 1.5f;
    }
    auto out = runFloat(r.model, {{"x", {{1, 1, 4, 4}, x}}});
    std::vector<int> q;
    float sx;
    int zx;
    quantize(x, &q, &sx, &zx);
    const int8_t w[18] = {1, -2, 3, -4, 5, -6, 7, -8, 9, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    ASSERT_EQ(out["y"].size(), 8u);
    for (int m = 0; m < 2; ++m) {
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
                int64_t acc = 0;
                for (int a = 0; a < 3; ++a) {
                    for (int c2 = 0; c2 < 3; ++c2) {
                        const int ih = i * 2 - 1 + a, iw = j * 2 - 1 + c2;
                        if (ih >= 0 && ih < 4 && iw >= 0 && iw < 4) {
                            acc += (int64_t)(q[ih * 4 + iw] - zx) * (w[m * 9 + a * 3 + c2] - m);
                        }
                    }
                }
                EXPECT_EQ(out["y"][(m * 2 + i) * 2 + j], (float)acc);
            }
        }
    }
}

TEST(ConverterQuantized, QLinearOpsMapped) {
    OnnxBuilder b(13);
    b.input("x", {1, 2, 5, 5}, onnx::TensorProto::UINT8);
    b.initializer("xs", {}, {0.1f});
    initializerU8(b, "xz", {}, {128});
    initializerU8(b, "w", {4, 1, 3, 3}, std::vector<uint8_t>(36, 130));
    b.initializer("ws", {4}, {0.01f, 0.02f, 0.03f, 0.04f});
    initializerU8(b, "wz", {4}, {128, 128, 128, 128});
    b.initializer("ys", {}, {0.2f});
    initializerU8(b, "yz", {}, {100});
    auto n = b.node("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"}, {"y"}, "qconv");
    OnnxBuilder::attr(n, "group", (int64_t)2);
    OnnxBuilder::attr(n, "auto_pad", std::string("SAME_UPPER"));
    b.input("a", {2, 3}, onnx::TensorProto::UINT8);
    initializerU8(b, "bm", {3, 2}, {1, 2, 3, 4, 5, 6});
    b.node("QLinearMatMul", {"a", "xs", "xz", "bm", "xs", "xz", "ys", "yz"}, {"z"}, "qmm");
    b.output("y", onnx::TensorProto::UINT8);
    b.output("z", onnx::TensorProto::UINT8);
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto counts = opCounts(r.model);
    EXPECT_EQ(counts["QLinearConv"], 1);
    EXPECT_EQ(counts["QLinearMatMul"], 1);
    auto net = netOf(r.model);
    for (auto op : *net->ops()) {
        if (op->type() == T::QLinearConv) {
            auto p = op->param_as_ConvParam();
            ASSERT_NE(p, nullptr);
            EXPECT_EQ(p->group(), 2);
            EXPECT_EQ(p->padMode(), Schema::PadMode::SAME_UPPER);
            EXPECT_EQ(op->inputs()->size(), 8u);
        }
    }
}

TEST(ConverterQuantized, MicrosoftDynamicQuantizeLstmMapped) {
    const int T_ = 3, I = 4, H = 2, D = 2;
    OnnxBuilder b(13);
    auto imp = b.model().add_opset_import();
    imp->set_domain("com.microsoft");
    imp->set_version(1);
    b.input("x", {T_, 1, I});
    initializerI8(b, "w", {D, I, 4 * H}, std::vector<int8_t>(D * I * 4 * H, 3));
    initializerI8(b, "r", {D, H, 4 * H}, std::vector<int8_t>(D * H * 4 * H, -2));
    b.initializer("bias", {D, 8 * H}, std::vector<float>(D * 8 * H, 0.1f));
    b.initializer("ws", {D}, {0.01f, 0.02f});
    initializerI8(b, "wz", {D}, {0, 0});
    b.initializer("rs", {D}, {0.03f, 0.04f});
    initializerI8(b, "rz", {D}, {0, 0});
    auto n = b.node("DynamicQuantizeLSTM", {"x", "w", "r", "bias", "", "", "", "", "ws", "wz", "rs", "rz"},
                    {"y", "yh", "yc"}, "qlstm");
    n->set_domain("com.microsoft");
    OnnxBuilder::attr(n, "hidden_size", (int64_t)H);
    OnnxBuilder::attr(n, "direction", std::string("bidirectional"));
    b.output("y");
    b.output("yh");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    ASSERT_NE(net, nullptr);
    const Schema::Op* lstm = nullptr;
    for (auto op : *net->ops()) {
        if (op->type() == T::DynamicQuantizeLSTM) {
            lstm = op;
        }
    }
    ASSERT_NE(lstm, nullptr);
    ASSERT_EQ(lstm->inputs()->size(), 12u);
    EXPECT_EQ(lstm->inputs()->Get(4), -1);
    EXPECT_GE(lstm->inputs()->Get(11), 0);
    auto p = lstm->param_as_RnnParam();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->hiddenSize(), H);
    EXPECT_EQ(p->direction(), Schema::RnnDirection::BIDIRECTIONAL);
    auto out = runFloat(r.model, {{"x", {{T_, 1, I}, std::vector<float>(T_ * I, 0.5f)}}});
    EXPECT_EQ(out["y"].size(), (size_t)(T_ * D * H));
    EXPECT_EQ(out["yh"].size(), (size_t)(D * H));
}

TEST(ConverterQuantized, OtherMicrosoftOpsStayUnsupported) {
    OnnxBuilder b(13);
    b.input("x", {2, 2});
    auto n = b.node("FusedMatMul", {"x", "x"}, {"y"}, "fmm");
    n->set_domain("com.microsoft");
    b.output("y");
    auto r = convert(b);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.unsupported.size(), 1u);
    EXPECT_EQ(r.unsupported[0], std::make_pair(std::string("com.microsoft.FusedMatMul"), std::string("fmm")));
}
