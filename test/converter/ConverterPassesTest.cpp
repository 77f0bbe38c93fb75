// Graph passes: op counts before / after, and both models give the same outputs in the engine.
#include <algorithm>
#include <cmath>
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using T = MNN::Schema::OpType;

namespace {
struct Both {
    std::vector<uint8_t> before, after;
};

Both convertBoth(const OnnxBuilder& b) {
    Convert::Options o;
    o.optimize = false;
    auto r0 = convert(b, o);
    o.optimize = true;
    auto r1 = convert(b, o);
    EXPECT_TRUE(r0.ok) << r0.error;
    EXPECT_TRUE(r1.ok) << r1.error;
    return {r0.model, r1.model};
}

std::vector<std::string> outputNames(const std::vector<uint8_t>& model) {
    auto net = netOf(model);
    std::vector<std::string> v;
    for (auto o : *net->outputs())
        v.push_back(net->tensorNames()->Get(o)->str());
    return v;
}

/** runs both with the same inputs; outputs must match (same names) */
void expectSameOutputs(const Both& m, const std::map<std::string, std::pair<std::vector<int>, std::vector<float>>>& in,
                       float atol = 1e-5f, float rtol = 1e-4f) {
    EXPECT_EQ(outputNames(m.before), outputNames(m.after));
    auto a = runFloat(m.before, in);
    auto b = runFloat(m.after, in);
    ASSERT_EQ(a.size(), b.size());
    for (auto& kv : a) {
        ASSERT_TRUE(b.count(kv.first)) << kv.first;
        EXPECT_TRUE(allClose(b[kv.first], kv.second, atol, rtol)) << kv.first;
    }
}
}  // namespace

TEST(ConverterPasses, ConstantFoldingOfConstantSubexpressions) {
    OnnxBuilder b;
    b.input("x", {2, 2});
    b.initializer("a", {2}, {1, 2});
    b.initializer("c", {2}, {3, 4});
    b.node("Mul", {"a", "c"}, {"ac"});  // constant
    b.node("Sub", {"ac", "a"}, {"k"});  // constant
    b.node("Add", {"x", "k"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 3);
    EXPECT_EQ(totalOps(m.after), 1);
    auto in = std::map<std::string, std::pair<std::vector<int>, std::vector<float>>>{{"x", {{2, 2}, {1, 2, 3, 4}}}};
    expectSameOutputs(m, in);
    EXPECT_TRUE(allClose(runFloat(m.after, in)["y"], {3, 8, 5, 10}));
}

TEST(ConverterPasses, ShapeChainFoldsWhenInputShapeStatic) {
    REQUIRE_ENGINE_OPS(T::Shape, T::Gather, T::Concat, T::Reshape, T::Unsqueeze);
    OnnxBuilder b(13);
    b.input("x", {2, 3, 4});
    b.initializerInt64("zero", {}, {0});
    b.initializerInt64("axes0", {1}, {0});
    b.initializerInt64("minus1", {1}, {-1});
    b.node("Shape", {"x"}, {"s"});
    b.node("Gather", {"s", "zero"}, {"n"});
    b.node("Unsqueeze", {"n", "axes0"}, {"n1"});
    OnnxBuilder::attr(b.node("Concat", {"n1", "minus1"}, {"shape"}), "axis", (int64_t)0);
    b.node("Reshape", {"x", "shape"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 5);
    EXPECT_EQ(totalOps(m.after), 1);
    EXPECT_EQ(opCounts(m.after)["Reshape"], 1);
    std::vector<float> x(24);
    for (int i = 0; i < 24; ++i)
        x[i] = (float)i;
    expectSameOutputs(m, {{"x", {{2, 3, 4}, x}}});
    // with a dynamic batch the chain stays
    OnnxBuilder d = b;
    d.graph().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param(
        "N");
    auto md = convertBoth(d);
    EXPECT_EQ(totalOps(md.after), 5);
}

TEST(ConverterPasses, IdentityAndDropoutRemovedOutputNameKept) {
    OnnxBuilder b(13);
    b.input("x", {3});
    b.node("Identity", {"x"}, {"i"});
    b.node("Add", {"i", "i"}, {"a"});
    b.node("Dropout", {"a"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(opCounts(m.before)["Identity"], 2);
    EXPECT_EQ(opCounts(m.after).count("Identity"), 0u);
    EXPECT_EQ(totalOps(m.after), 1);
    EXPECT_EQ(outputNames(m.after), std::vector<std::string>({"y"}));
    EXPECT_TRUE(allClose(runFloat(m.after, {{"x", {{3}, {1, 2, 3}}}})["y"], {2, 4, 6}));
    REQUIRE_ENGINE_OPS(T::Identity);
    expectSameOutputs(m, {{"x", {{3}, {1, 2, 3}}}});
}

TEST(ConverterPasses, DeadNodesRemoved) {
    OnnxBuilder b;
    b.input("x", {2});
    b.initializer("unused_w", {2}, {1, 1});
    b.node("Mul", {"x", "unused_w"}, {"dead"});
    b.node("Add", {"x", "x"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 2);
    EXPECT_EQ(totalOps(m.after), 1);
    auto net = netOf(m.after);
    EXPECT_EQ(net->constants() ? net->constants()->size() : 0u, 0u);
    expectSameOutputs(m, {{"x", {{2}, {1, -2}}}});
}

TEST(ConverterPasses, BatchNormFoldedIntoConvAndGemm) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::BatchNorm, T::Gemm);
    OnnxBuilder b(13);
    b.input("x", {1, 2, 4, 4});
    b.initializer("w", {3, 2, 3, 3}, randomFloats(54, 1));
    b.initializer("bias", {3}, {0.1f, -0.2f, 0.3f});
    b.initializer("s", {3}, {1.5f, 0.5f, -1.0f});
    b.initializer("t", {3}, {0.2f, 0.0f, -0.3f});
    b.initializer("mu", {3}, {0.1f, -0.1f, 0.5f});
    b.initializer("var", {3}, {0.9f, 1.1f, 0.3f});
    auto c = b.node("Conv", {"x", "w", "bias"}, {"c"});
    OnnxBuilder::attr(c, "pads", std::vector<int64_t>{1, 1, 1, 1});
    b.node("BatchNormalization", {"c", "s", "t", "mu", "var"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(opCounts(m.before)["BatchNorm"], 1);
    EXPECT_EQ(opCounts(m.after).count("BatchNorm"), 0u);
    EXPECT_EQ(totalOps(m.after), 1);
    expectSameOutputs(m, {{"x", {{1, 2, 4, 4}, randomFloats(32, 2)}}});

    OnnxBuilder g(13);
    g.input("a", {2, 4});
    g.initializer("B", {3, 4}, randomFloats(12, 3));
    g.initializer("C", {3}, {1, 2, 3});
    g.initializer("s", {3}, {1.5f, 0.5f, -1.0f});
    g.initializer("t", {3}, {0.2f, 0.0f, -0.3f});
    g.initializer("mu", {3}, {0.1f, -0.1f, 0.5f});
    g.initializer("var", {3}, {0.9f, 1.1f, 0.3f});
    auto gm = g.node("Gemm", {"a", "B", "C"}, {"c"});
    OnnxBuilder::attr(gm, "transB", (int64_t)1);
    OnnxBuilder::attr(gm, "beta", 0.5f);
    g.node("BatchNormalization", {"c", "s", "t", "mu", "var"}, {"y"});
    g.output("y");
    auto mg = convertBoth(g);
    EXPECT_EQ(totalOps(mg.after), 1);
    expectSameOutputs(mg, {{"a", {{2, 4}, randomFloats(8, 4)}}});
}

TEST(ConverterPasses, ActivationFusedIntoConvAndGemm) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::Gemm);
    OnnxBuilder b(13);
    b.input("x", {1, 2, 3, 3});
    b.initializer("w", {2, 2, 1, 1}, {1, -1, 0.5f, 2});
    b.node("Conv", {"x", "w"}, {"c"});
    b.node("Relu", {"c"}, {"y"});
    b.input("a", {2, 2});
    b.initializer("B", {2, 2}, {3, -1, 2, 4});
    b.initializer("lo", {}, {0.0f});
    b.initializer("hi", {}, {6.0f});
    b.node("Gemm", {"a", "B"}, {"g"});
    b.node("Clip", {"g", "lo", "hi"}, {"z"});
    b.output("y");
    b.output("z");
    auto m = convertBoth(b);
    EXPECT_EQ(opCounts(m.before)["UnaryOp"], 2);
    EXPECT_EQ(opCounts(m.after).count("UnaryOp"), 0u);
    auto net = netOf(m.after);
    for (auto op : *net->ops()) {
        if (op->type() == T::Convolution)
            EXPECT_EQ(op->param_as_ConvParam()->activation(), Schema::FusedActivation::RELU);
        if (op->type() == T::Gemm) {
            EXPECT_EQ(op->param_as_GemmParam()->activation(), Schema::FusedActivation::CLIP);
            EXPECT_EQ(op->param_as_GemmParam()->clipMax(), 6.0f);
        }
    }
    expectSameOutputs(m, {{"x", {{1, 2, 3, 3}, randomFloats(18, 5, -3, 3)}}, {"a", {{2, 2}, {1, 2, -3, 0.5f}}}});
}

TEST(ConverterPasses, SiluAndHardSwishFusedIntoConvNotGemm) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::Gemm);
    OnnxBuilder b(14);
    b.input("x", {1, 3, 5, 5});
    b.initializer("w", {4, 3, 3, 3}, randomFloats(108, 21, -1, 1));
    b.initializer("wd", {4, 1, 3, 3}, randomFloats(36, 22, -1, 1));
    auto c1 = b.node("Conv", {"x", "w"}, {"c"});
    OnnxBuilder::attr(c1, "pads", std::vector<int64_t>{1, 1, 1, 1});
    b.node("Sigmoid", {"c"}, {"s"});
    b.node("Mul", {"c", "s"}, {"h"});  // SiLU
    auto c2 = b.node("Conv", {"h", "wd"}, {"d"});
    OnnxBuilder::attr(c2, "group", (int64_t)4);
    b.node("HardSwish", {"d"}, {"y"});
    b.input("a", {2, 3});
    b.initializer("B", {3, 2}, {1, -2, 0.5f, 2, -1, 3});
    b.node("Gemm", {"a", "B"}, {"g"});
    b.node("Sigmoid", {"g"}, {"gs"});
    b.node("Mul", {"g", "gs"}, {"z"});
    b.output("y");
    b.output("z");
    auto m = convertBoth(b);
    auto counts = opCounts(m.after);
    EXPECT_EQ(counts["Convolution"], 2);
    EXPECT_EQ(counts["UnaryOp"], 1);  // the Gemm's SiLU stays a separate op
    std::vector<Schema::FusedActivation> acts;
    for (auto op : *netOf(m.after)->ops()) {
        if (op->type() == T::Convolution)
            acts.push_back(op->param_as_ConvParam()->activation());
        if (op->type() == T::Gemm)
            EXPECT_EQ(op->param_as_GemmParam()->activation(), Schema::FusedActivation::NONE);
    }
    ASSERT_EQ(acts.size(), 2u);
    EXPECT_TRUE((acts[0] == Schema::FusedActivation::SILU && acts[1] == Schema::FusedActivation::HARD_SWISH) ||
                (acts[1] == Schema::FusedActivation::SILU && acts[0] == Schema::FusedActivation::HARD_SWISH));
    expectSameOutputs(m,
                      {{"x", {{1, 3, 5, 5}, randomFloats(75, 23, -3, 3)}}, {"a", {{2, 3}, {1, 2, -3, 0.5f, 4, -1}}}});
}

TEST(ConverterPasses, TransposePairsCancelAndMerge) {
    REQUIRE_ENGINE_OPS(T::Transpose);
    OnnxBuilder b(13);
    b.input("x", {2, 3, 4});
    auto t1 = b.node("Transpose", {"x"}, {"t1"});
    OnnxBuilder::attr(t1, "perm", std::vector<int64_t>{0, 2, 1});
    auto t2 = b.node("Transpose", {"t1"}, {"t2"});
    OnnxBuilder::attr(t2, "perm", std::vector<int64_t>{0, 2, 1});
    b.node("Add", {"t2", "x"}, {"y"});
    auto t3 = b.node("Transpose", {"x"}, {"t3"});
    OnnxBuilder::attr(t3, "perm", std::vector<int64_t>{1, 0, 2});
    auto t4 = b.node("Transpose", {"t3"}, {"z"});
    OnnxBuilder::attr(t4, "perm", std::vector<int64_t>{0, 2, 1});
    b.output("y");
    b.output("z");
    auto m = convertBoth(b);
    EXPECT_EQ(opCounts(m.before)["Transpose"], 4);
    EXPECT_EQ(opCounts(m.after)["Transpose"], 1);
    std::vector<float> x(24);
    for (int i = 0; i < 24; ++i)
        x[i] = (float)i;
    expectSameOutputs(m, {{"x", {{2, 3, 4}, x}}});
}

TEST(ConverterPasses, LayerNormChainFused) {
    REQUIRE_ENGINE_OPS(T::Reduce, T::UnaryOp, T::LayerNorm);
    OnnxBuilder b(13);
    b.input("x", {2, 3, 8});
    b.initializer("two", {}, {2.0f});
    b.initializer("eps", {}, {1e-5f});
    b.initializer("gamma", {8}, randomFloats(8, 7, 0.5f, 1.5f));
    b.initializer("beta", {8}, randomFloats(8, 8));
    auto r1 = b.node("ReduceMean", {"x"}, {"m"});
    OnnxBuilder::attr(r1, "axes", std::vector<int64_t>{-1});
    b.node("Sub", {"x", "m"}, {"d"});
    b.node("Pow", {"d", "two"}, {"d2"});
    auto r2 = b.node("ReduceMean", {"d2"}, {"v"});
    OnnxBuilder::attr(r2, "axes", std::vector<int64_t>{-1});
    b.node("Add", {"v", "eps"}, {"ve"});
    b.node("Sqrt", {"ve"}, {"sd"});
    b.node("Div", {"d", "sd"}, {"n"});
    b.node("Mul", {"n", "gamma"}, {"ng"});
    b.node("Add", {"ng", "beta"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 9);
    EXPECT_EQ(totalOps(m.after), 1);
    EXPECT_EQ(opCounts(m.after)["LayerNorm"], 1);
    expectSameOutputs(m, {{"x", {{2, 3, 8}, randomFloats(48, 9, -2, 2)}}}, 1e-4f, 1e-4f);
}

TEST(ConverterPasses, GeluErfChainFused) {
    REQUIRE_ENGINE_OPS(T::UnaryOp);
    OnnxBuilder b(13);
    b.input("x", {16});
    b.initializer("sqrt2", {}, {1.41421356f});
    b.initializer("one", {}, {1.0f});
    b.initializer("half", {}, {0.5f});
    b.node("Div", {"x", "sqrt2"}, {"a"});
    b.node("Erf", {"a"}, {"e"});
    b.node("Add", {"e", "one"}, {"e1"});
    b.node("Mul", {"x", "e1"}, {"xe"});
    b.node("Mul", {"xe", "half"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 5);
    EXPECT_EQ(totalOps(m.after), 1);
    auto net = netOf(m.after);
    EXPECT_EQ(net->ops()->Get(0)->param_as_UnaryParam()->type(), Schema::UnaryOpType::GELU);
    auto x = randomFloats(16, 10, -4, 4);
    expectSameOutputs(m, {{"x", {{16}, x}}});
    std::vector<float> ref(16);
    for (int i = 0; i < 16; ++i)
        ref[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] / std::sqrt(2.0f)));
    EXPECT_TRUE(allClose(runFloat(m.after, {{"x", {{16}, x}}})["y"], ref));
}

TEST(ConverterPasses, HardSwishPatternsFused) {
    REQUIRE_ENGINE_OPS(T::UnaryOp);
    OnnxBuilder b(13);
    b.input("x", {12});
    b.initializer("three", {}, {3.0f});
    b.initializer("six", {}, {6.0f});
    b.initializer("zero", {}, {0.0f});
    b.node("Add", {"x", "three"}, {"a"});
    b.node("Clip", {"a", "zero", "six"}, {"c"});
    b.node("Mul", {"x", "c"}, {"m"});
    b.node("Div", {"m", "six"}, {"y"});
    auto hs = b.node("HardSigmoid", {"x"}, {"h"});
    OnnxBuilder::attr(hs, "alpha", 1.0f / 6.0f);
    b.node("Mul", {"x", "h"}, {"z"});
    b.output("y");
    b.output("z");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 6);
    EXPECT_EQ(totalOps(m.after), 2);
    for (auto op : *netOf(m.after)->ops()) {
        EXPECT_EQ(op->param_as_UnaryParam()->type(), Schema::UnaryOpType::HARD_SWISH);
    }
    auto x = randomFloats(12, 11, -5, 5);
    expectSameOutputs(m, {{"x", {{12}, x}}});
    std::vector<float> ref(12);
    for (int i = 0; i < 12; ++i)
        ref[i] = x[i] * std::min(6.0f, std::max(0.0f, x[i] + 3.0f)) / 6.0f;
    EXPECT_TRUE(allClose(runFloat(m.after, {{"x", {{12}, x}}})["y"], ref));
}

TEST(ConverterPasses, SiluPatternFused) {
    REQUIRE_ENGINE_OPS(T::UnaryOp);
    OnnxBuilder b(13);
    b.input("x", {20});
    b.node("Sigmoid", {"x"}, {"s"});
    b.node("Mul", {"s", "x"}, {"y"});
    // a sigmoid whose output is also read elsewhere stays
    b.node("Sigmoid", {"y"}, {"s2"});
    b.node("Mul", {"y", "s2"}, {"z"});
    b.output("z");
    b.output("s2");
    auto m = convertBoth(b);
    EXPECT_EQ(totalOps(m.before), 4);
    EXPECT_EQ(totalOps(m.after), 3);
    int silu = 0;
    for (auto op : *netOf(m.after)->ops()) {
        silu += op->param_as_UnaryParam() && op->param_as_UnaryParam()->type() == Schema::UnaryOpType::SILU;
    }
    EXPECT_EQ(silu, 1);
    auto x = randomFloats(20, 12, -8, 8);
    expectSameOutputs(m, {{"x", {{20}, x}}});
    std::vector<float> ref(20);
    for (int i = 0; i < 20; ++i) {
        const double y = x[i] / (1.0 + std::exp(-(double)x[i]));
        ref[i] = (float)(y / (1.0 + std::exp(-y)));
    }
    EXPECT_TRUE(allClose(runFloat(m.after, {{"x", {{20}, x}}})["z"], ref));
}

TEST(ConverterPasses, ZeroPadFoldedIntoConvAndAveragePool) {
    REQUIRE_ENGINE_OPS(T::Pad, T::Pooling, T::Convolution);
    OnnxBuilder b(13);
    b.input("x", {1, 3, 6, 7});
    b.initializer("w", {4, 3, 3, 3}, randomFloats(108, 31, -1, 1));
    b.initializerInt64("hw1", {8}, {0, 0, 1, 1, 0, 0, 1, 1});
    b.initializerInt64("hw2", {8}, {0, 0, 2, 0, 0, 0, 1, 3});
    b.initializerInt64("ch", {8}, {0, 1, 1, 1, 0, 0, 1, 1});
    b.initializer("half", {}, {0.5f});
    // folded: Pad + AveragePool (inception's form) and Pad + padded Conv
    b.node("Pad", {"x", "hw1"}, {"p1"});
    auto a1 = b.node("AveragePool", {"p1"}, {"y1"});
    OnnxBuilder::attr(a1, "kernel_shape", std::vector<int64_t>{3, 3});
    b.node("Pad", {"x", "hw2"}, {"p2"});
    auto c2 = b.node("Conv", {"p2", "w"}, {"y2"});
    OnnxBuilder::attr(c2, "pads", std::vector<int64_t>{1, 0, 1, 2});
    // kept: a nonzero pad value, MaxPool (its padding is -inf), a channel pad, an AveragePool that
    // leaves its own pads out of the count, and a Pad read twice
    b.node("Pad", {"x", "hw1", "half"}, {"p3"});
    auto a3 = b.node("AveragePool", {"p3"}, {"y3"});
    OnnxBuilder::attr(a3, "kernel_shape", std::vector<int64_t>{3, 3});
    b.node("Pad", {"x", "hw1"}, {"p4"});
    auto m4 = b.node("MaxPool", {"p4"}, {"y4"});
    OnnxBuilder::attr(m4, "kernel_shape", std::vector<int64_t>{2, 2});
    b.node("Pad", {"x", "ch"}, {"p5"});
    auto a5 = b.node("AveragePool", {"p5"}, {"y5"});
    OnnxBuilder::attr(a5, "kernel_shape", std::vector<int64_t>{3, 3});
    b.node("Pad", {"x", "hw2"}, {"p6"});
    auto a6 = b.node("AveragePool", {"p6"}, {"y6"});
    OnnxBuilder::attr(a6, "kernel_shape", std::vector<int64_t>{3, 3});
    OnnxBuilder::attr(a6, "pads", std::vector<int64_t>{1, 1, 1, 1});
    b.node("Pad", {"x", "hw1"}, {"p7"});
    auto a7 = b.node("AveragePool", {"p7"}, {"y7"});
    OnnxBuilder::attr(a7, "kernel_shape", std::vector<int64_t>{2, 2});
    b.node("Relu", {"p7"}, {"y8"});
    for (const char* y : {"y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8"}) {
        b.output(y);
    }
    auto m = convertBoth(b);
    EXPECT_EQ(opCounts(m.before)["Pad"], 7);
    EXPECT_EQ(opCounts(m.after)["Pad"], 5);
    for (auto op : *netOf(m.after)->ops()) {
        if (op->type() == T::Pooling && op->name()->str() == "y1") {
            auto p = op->param_as_PoolParam();
            EXPECT_TRUE(p->countIncludePad());
        }
    }
    expectSameOutputs(m, {{"x", {{1, 3, 6, 7}, randomFloats(126, 32, -3, 3)}}});
}

namespace {
// x [n, c, h, w] -> Conv 1x1 (c -> c) -> a -> Reshape s5 -> Transpose perm -> Reshape s4 -> y
OnnxBuilder shuffleChain(int n, int c, int h, int w, const std::vector<int64_t>& s5, const std::vector<int64_t>& perm,
                         const std::vector<int64_t>& s4, bool midIsOutput = false) {
    OnnxBuilder b(13);
    b.input("x", {n, c, h, w});
    std::vector<float> wv((size_t)c * c);
    for (size_t i = 0; i < wv.size(); ++i) {
        wv[i] = (float)((i * 7) % 11) / 11.0f - 0.4f;
    }
    b.initializer("w", {c, c, 1, 1}, wv);
    b.node("Conv", {"x", "w"}, {"a"});
    b.initializerInt64("s5", {(int64_t)s5.size()}, s5);
    b.initializerInt64("s4", {(int64_t)s4.size()}, s4);
    b.node("Reshape", {"a", "s5"}, {"r"});
    OnnxBuilder::attr(b.node("Transpose", {"r"}, {"t"}), "perm", perm);
    b.node("Reshape", {"t", "s4"}, {"y"});
    b.output("y");
    if (midIsOutput) {
        b.output("t");
    }
    return b;
}

std::vector<float> ramp(size_t n) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) {
        v[i] = (float)((i * 13) % 17) - 8.0f;
    }
    return v;
}
}  // namespace

TEST(ConverterPasses, ChannelShuffleChainFused) {
    REQUIRE_ENGINE_OPS(T::Reshape, T::Transpose, T::ChannelShuffle);
    struct Case {
        int n, c, h, w, g;
        bool inferC;
    };
    for (auto k : std::vector<Case>{{1, 6, 2, 3, 2, true}, {2, 12, 3, 2, 3, false}, {1, 116, 2, 2, 2, true}}) {
        SCOPED_TRACE(testing::Message() << "c " << k.c << " g " << k.g);
        auto b = shuffleChain(k.n, k.c, k.h, k.w, {k.n, k.g, k.c / k.g, k.h, k.w}, {0, 2, 1, 3, 4},
                              {k.n, k.inferC ? -1 : k.c, k.h, k.w});
        auto m = convertBoth(b);
        EXPECT_EQ(opCounts(m.before)["Transpose"], 1);
        auto after = opCounts(m.after);
        EXPECT_EQ(after["ChannelShuffle"], 1);
        EXPECT_EQ(after["Transpose"], 0);
        EXPECT_EQ(after["Reshape"], 0);
        const size_t count = (size_t)k.n * k.c * k.h * k.w;
        expectSameOutputs(m, {{"x", {{k.n, k.c, k.h, k.w}, ramp(count)}}});
    }
}

TEST(ConverterPasses, ChannelShuffleNotFusedWhenChainDiffers) {
    REQUIRE_ENGINE_OPS(T::Reshape, T::Transpose, T::ChannelShuffle);
    const std::vector<float> x = ramp(1 * 6 * 2 * 3);
    std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> in{{"x", {{1, 6, 2, 3}, x}}};
    // another permutation
    auto m1 = convertBoth(shuffleChain(1, 6, 2, 3, {1, 2, 3, 2, 3}, {0, 1, 2, 4, 3}, {1, 6, 2, 3}));
    EXPECT_EQ(opCounts(m1.after)["ChannelShuffle"], 0);
    expectSameOutputs(m1, in);
    // the final shape is not the input's
    auto m2 = convertBoth(shuffleChain(1, 6, 2, 3, {1, 2, 3, 2, 3}, {0, 2, 1, 3, 4}, {1, 6, 3, 2}));
    EXPECT_EQ(opCounts(m2.after)["ChannelShuffle"], 0);
    expectSameOutputs(m2, in);
    // the 5-D split does not follow the channels ([1, 2, 3, 3, 2] of a [1, 6, 2, 3] tensor)
    auto m3 = convertBoth(shuffleChain(1, 6, 2, 3, {1, 2, 3, 3, 2}, {0, 2, 1, 3, 4}, {1, 6, 3, 2}));
    EXPECT_EQ(opCounts(m3.after)["ChannelShuffle"], 0);
    expectSameOutputs(m3, in);
    // the transposed tensor is also a graph output
    auto m4 = convertBoth(shuffleChain(1, 6, 2, 3, {1, 2, 3, 2, 3}, {0, 2, 1, 3, 4}, {1, 6, 2, 3}, true));
    EXPECT_EQ(opCounts(m4.after)["ChannelShuffle"], 0);
    expectSameOutputs(m4, in);
}

namespace {
// x [n, c, h, w] -> Conv (pointwise, e outputs) -> act1 -> m -> Conv (depthwise) -> act2 -> y
struct PwDw {
    int n = 1, c = 4, h = 6, w = 7, e = 8;
    int k = 3, stride = 1, dilation = 1;
    std::vector<int64_t> pads = {1, 1, 1, 1};
    std::string act1 = "Clip", act2 = "Clip";  // Clip (0, 6), Relu, HardSwish, Silu or ""
    bool bias1 = true, bias2 = true;
    int pwK = 1, pwStride = 1, pwPad = 0;  // the first convolution
    int group = 0;                         // of the second convolution; 0: e (depthwise)
    bool midIsOutput = false, midReadTwice = false;
    std::string squeeze;  // "": none; else a global pool (GlobalAveragePool / GlobalMaxPool) of Y, output "s"
};

std::string activation(OnnxBuilder& b, const std::string& act, const std::string& in, const std::string& out) {
    if (act.empty()) {
        return in;
    }
    if (act == "Clip") {
        b.node("Clip", {in, "lo", "hi"}, {out});
    } else if (act == "Silu") {
        b.node("Sigmoid", {in}, {out + "_sig"});
        b.node("Mul", {in, out + "_sig"}, {out});
    } else {
        b.node(act, {in}, {out});
    }
    return out;
}

OnnxBuilder pwdwBlock(const PwDw& k, unsigned seed = 50) {
    OnnxBuilder b(14);
    b.input("x", {k.n, k.c, k.h, k.w});
    b.initializer("lo", {}, {0.0f});
    b.initializer("hi", {}, {6.0f});
    b.initializer("w1", {k.e, k.c, k.pwK, k.pwK}, randomFloats((size_t)k.e * k.c * k.pwK * k.pwK, seed, -1, 1));
    std::vector<std::string> in1 = {"x", "w1"};
    if (k.bias1) {
        b.initializer("b1", {k.e}, randomFloats((size_t)k.e, seed + 1, -0.5f, 1));
        in1.push_back("b1");
    }
    auto c1 = b.node("Conv", in1, {"m0"});
    OnnxBuilder::attr(c1, "strides", std::vector<int64_t>{k.pwStride, k.pwStride});
    OnnxBuilder::attr(c1, "pads", std::vector<int64_t>{k.pwPad, k.pwPad, k.pwPad, k.pwPad});
    auto m = activation(b, k.act1, "m0", "m");
    const int group = k.group ? k.group : k.e;
    b.initializer("w2", {k.e, k.e / group, k.k, k.k}, randomFloats((size_t)k.e * (k.e / group) * k.k * k.k, seed + 2));
    std::vector<std::string> in2 = {m, "w2"};
    if (k.bias2) {
        b.initializer("b2", {k.e}, randomFloats((size_t)k.e, seed + 3));
        in2.push_back("b2");
    }
    auto c2 = b.node("Conv", in2, {"d0"});
    OnnxBuilder::attr(c2, "group", (int64_t)group);
    OnnxBuilder::attr(c2, "strides", std::vector<int64_t>{k.stride, k.stride});
    OnnxBuilder::attr(c2, "dilations", std::vector<int64_t>{k.dilation, k.dilation});
    OnnxBuilder::attr(c2, "pads", k.pads);
    const auto y = activation(b, k.act2, "d0", "y");
    b.output(y);
    if (!k.squeeze.empty()) {
        b.node(k.squeeze, {y}, {"s"});
        b.output("s");
    }
    if (k.midIsOutput) {
        b.output(m);
    }
    if (k.midReadTwice) {
        b.node("Relu", {m}, {"z"});
        b.output("z");
    }
    return b;
}

std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> pwdwInput(const PwDw& k, unsigned seed = 60) {
    const size_t count = (size_t)k.n * k.c * k.h * k.w;
    return {{"x", {{k.n, k.c, k.h, k.w}, randomFloats(count, seed, -2, 2)}}};
}

const Schema::Op* firstOp(const Schema::Net* net, T type) {
    for (auto op : *net->ops()) {
        if (op->type() == type)
            return op;
    }
    return nullptr;
}

std::string tensorName(const Schema::Net* net, int t) {
    return t < 0 ? "-" : net->tensorNames()->Get(t)->str();
}
}  // namespace

TEST(ConverterPasses, PointwiseDepthwiseFusedWithBothActivations) {
    PwDw k;  // Conv 1x1 + Clip (0, 6) -> depthwise 3x3 stride 1 pad 1 + Clip (0, 6)
    auto m = convertBoth(pwdwBlock(k));
    EXPECT_EQ(opCounts(m.before)["Convolution"], 2);
    auto after = opCounts(m.after);
    EXPECT_EQ(after["PointwiseDepthwise"], 1);
    EXPECT_EQ(after.count("Convolution"), 0u);
    EXPECT_EQ(totalOps(m.after), 1);
    auto net = netOf(m.after);
    auto op = firstOp(net, T::PointwiseDepthwise);
    ASSERT_NE(op, nullptr);
    std::vector<std::string> in;
    for (auto t : *op->inputs())
        in.push_back(tensorName(net, t));
    EXPECT_EQ(in, (std::vector<std::string>{"x", "w1", "b1", "w2", "b2"}));
    ASSERT_EQ(op->outputs()->size(), 1u);
    EXPECT_EQ(tensorName(net, op->outputs()->Get(0)), "y");
    EXPECT_EQ(outputNames(m.after), std::vector<std::string>{"y"});
    auto p = op->param_as_PointwiseDepthwiseParam();
    ASSERT_TRUE(p && p->pointwise() && p->depthwise());
    for (auto cp : {p->pointwise(), p->depthwise()}) {
        EXPECT_EQ(cp->activation(), Schema::FusedActivation::CLIP);
        EXPECT_EQ(cp->clipMin(), 0.0f);
        EXPECT_EQ(cp->clipMax(), 6.0f);
    }
    EXPECT_EQ(p->pointwise()->group(), 1);
    EXPECT_EQ(p->depthwise()->group(), 8);
    ASSERT_EQ(p->depthwise()->pads()->size(), 4u);
    EXPECT_EQ(p->depthwise()->pads()->Get(0), 1);
}

TEST(ConverterPasses, PointwiseDepthwiseFusesStrideTwoAndFiveByFive) {
    PwDw s2;
    s2.stride = 2;
    s2.act1 = "Relu";
    s2.act2 = "HardSwish";
    s2.bias1 = false;
    PwDw k5;
    k5.k = 5;
    k5.pads = {2, 2, 2, 2};
    k5.act2 = "";
    k5.bias2 = false;
    PwDw asym;  // TF-style SAME of a stride-2 3x3: padded at the end only
    asym.stride = 2;
    asym.pads = {0, 0, 1, 1};
    asym.act1 = "Silu";
    for (auto& k : {s2, k5, asym}) {
        SCOPED_TRACE(testing::Message() << "k " << k.k << " stride " << k.stride);
        auto m = convertBoth(pwdwBlock(k));
        auto after = opCounts(m.after);
        EXPECT_EQ(after["PointwiseDepthwise"], 1);
        EXPECT_EQ(after.count("Convolution"), 0u);
        EXPECT_EQ(after.count("UnaryOp"), 0u);
        EXPECT_EQ(after.count("BinaryOp"), 0u);
        auto net = netOf(m.after);
        auto op = firstOp(net, T::PointwiseDepthwise);
        ASSERT_NE(op, nullptr);
        ASSERT_EQ(op->inputs()->size(), 5u);
        EXPECT_EQ(op->inputs()->Get(2) < 0, !k.bias1);
        EXPECT_EQ(op->inputs()->Get(4) < 0, !k.bias2);
        auto p = op->param_as_PointwiseDepthwiseParam();
        auto dw = p->depthwise();
        EXPECT_EQ(dw->kernel()->Get(0), k.k);
        EXPECT_EQ(dw->strides()->Get(1), k.stride);
        std::vector<int> pads(dw->pads()->begin(), dw->pads()->end());
        EXPECT_EQ(pads, std::vector<int>(k.pads.begin(), k.pads.end()));
        auto fa = [](const std::string& a) {
            if (a == "Clip")
                return Schema::FusedActivation::CLIP;
            if (a == "Relu")
                return Schema::FusedActivation::RELU;
            if (a == "HardSwish")
                return Schema::FusedActivation::HARD_SWISH;
            if (a == "Silu")
                return Schema::FusedActivation::SILU;
            return Schema::FusedActivation::NONE;
        };
        EXPECT_EQ(p->pointwise()->activation(), fa(k.act1));
        EXPECT_EQ(dw->activation(), fa(k.act2));
    }
}

TEST(ConverterPasses, PointwiseDepthwiseNotFusedOtherwise) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp);
    std::vector<std::pair<std::string, PwDw>> cases;
    PwDw k;
    k.midReadTwice = true;
    cases.push_back({"pointwise output read twice", k});
    k = PwDw();
    k.midIsOutput = true;
    cases.push_back({"pointwise output is a graph output", k});
    k = PwDw();
    k.pwStride = 2;
    cases.push_back({"pointwise stride 2", k});
    k = PwDw();
    k.pwPad = 1;
    cases.push_back({"pointwise padded", k});
    k = PwDw();
    k.pwK = 3;
    k.pwPad = 1;
    cases.push_back({"first convolution 3x3", k});
    k = PwDw();
    k.group = 2;
    cases.push_back({"second convolution grouped, not depthwise", k});
    k = PwDw();
    k.group = 1;
    cases.push_back({"second convolution not grouped", k});
    for (auto& kv : cases) {
        SCOPED_TRACE(kv.first);
        auto m = convertBoth(pwdwBlock(kv.second));
        auto after = opCounts(m.after);
        EXPECT_EQ(after.count("PointwiseDepthwise"), 0u);
        EXPECT_EQ(after["Convolution"], 2);
        expectSameOutputs(m, pwdwInput(kv.second), 1e-4f, 1e-4f);
    }
}

// the fused op against the two convolutions and activations it replaces (kept apart with the
// passes off): needs the PointwiseDepthwise CPU kernel, skipped in a build without one
TEST(ConverterPasses, PointwiseDepthwiseFusedMatchesUnfused) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp, T::PointwiseDepthwise);
    std::vector<PwDw> cases(7);
    cases[1].n = 2;
    cases[1].c = 3;
    cases[1].e = 6;
    cases[1].stride = 2;
    cases[1].act1 = "Relu";
    cases[1].act2 = "";
    cases[1].bias1 = false;
    cases[2].k = 5;
    cases[2].pads = {2, 2, 2, 2};
    cases[2].act1 = "HardSwish";
    cases[2].bias2 = false;
    cases[3].h = 7;
    cases[3].w = 9;
    cases[3].stride = 2;
    cases[3].pads = {0, 0, 1, 1};
    cases[3].act1 = "Silu";
    cases[3].act2 = "Relu";
    cases[4].dilation = 2;
    cases[4].pads = {2, 2, 2, 2};
    cases[4].act2 = "HardSwish";
    cases[5].c = 16;  // several row bands of a wider expansion
    cases[5].e = 40;
    cases[5].h = 29;
    cases[5].w = 23;
    cases[5].pads = {0, 1, 2, 0};
    cases[6].c = 24;
    cases[6].e = 96;
    cases[6].h = 17;
    cases[6].w = 19;
    cases[6].stride = 2;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "case " << i);
        auto m = convertBoth(pwdwBlock(cases[i], 70 + (unsigned)i));
        EXPECT_EQ(opCounts(m.after)["PointwiseDepthwise"], 1);
        expectSameOutputs(m, pwdwInput(cases[i], 80 + (unsigned)i), 1e-4f, 1e-4f);
    }
}

// a global average pool of the fused op's output becomes its second output (the pool goes); a
// global max pool stays a Pooling op
TEST(ConverterPasses, PointwiseDepthwiseTakesTheGlobalAveragePool) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp, T::PointwiseDepthwise, T::Pooling);
    std::vector<PwDw> cases(3);
    cases[0].squeeze = "GlobalAveragePool";
    cases[0].act2 = "Silu";
    cases[1].squeeze = "GlobalAveragePool";
    cases[1].n = 2;
    cases[1].c = 24;
    cases[1].e = 40;
    cases[1].h = 17;
    cases[1].w = 19;
    cases[1].stride = 2;
    cases[1].act2 = "";
    cases[2].squeeze = "GlobalMaxPool";
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "case " << i);
        const bool average = cases[i].squeeze == "GlobalAveragePool";
        auto m = convertBoth(pwdwBlock(cases[i], 90 + (unsigned)i));
        auto after = opCounts(m.after);
        EXPECT_EQ(after["PointwiseDepthwise"], 1);
        EXPECT_EQ(after.count("Pooling"), average ? 0u : 1u);
        auto net = netOf(m.after);
        auto op = firstOp(net, T::PointwiseDepthwise);
        ASSERT_NE(op, nullptr);
        ASSERT_EQ(op->outputs()->size(), average ? 2u : 1u);
        if (average) {
            EXPECT_EQ(tensorName(net, op->outputs()->Get(1)), "s");
        }
        expectSameOutputs(m, pwdwInput(cases[i], 95 + (unsigned)i), 1e-4f, 1e-4f);
    }
}

namespace {
const Schema::Blob* constantNamed(const Schema::Net* net, const std::string& name) {
    for (auto c : *net->constants()) {
        if (tensorName(net, c->tensorIndex()) == name)
            return c;
    }
    return nullptr;
}
}  // namespace

// --fp16 / --weightQuantBits 8 store the fused op's weights as they store the two convolutions':
// W1 fp16 (W2, a depthwise weight, and the biases stay float), int8 per output channel for W1 and W2
TEST(ConverterPasses, PointwiseDepthwiseWeightsCompressedLikeConvolutions) {
    PwDw k;
    k.c = 8;
    k.e = 16;
    auto b = pwdwBlock(k);
    Convert::Options o16;
    o16.fp16 = true;
    o16.fp16Target = 0;  // every candidate fp16, nothing measured
    Convert::Options o8;
    o8.weightQuantBits = 8;
    for (auto* o : {&o16, &o8}) {
        SCOPED_TRACE(o->fp16 ? "fp16" : "int8");
        o->optimize = false;
        auto plain = convert(b, *o);
        o->optimize = true;
        auto fused = convert(b, *o);
        ASSERT_TRUE(plain.ok && fused.ok) << plain.error << fused.error;
        ASSERT_EQ(opCounts(fused.model)["PointwiseDepthwise"], 1);
        auto n0 = netOf(plain.model), n1 = netOf(fused.model);
        for (auto name : {"w1", "b1", "w2", "b2"}) {
            auto c0 = constantNamed(n0, name), c1 = constantNamed(n1, name);
            ASSERT_TRUE(c0 && c1) << name;
            EXPECT_EQ(c1->compression(), c0->compression()) << name;
            EXPECT_EQ(c1->quantAxis(), c0->quantAxis()) << name;
            ASSERT_EQ(c1->raw()->size(), c0->raw()->size()) << name;
            EXPECT_TRUE(std::equal(c1->raw()->begin(), c1->raw()->end(), c0->raw()->begin())) << name;
        }
        auto w1 = constantNamed(n1, "w1"), w2 = constantNamed(n1, "w2");
        if (o->fp16) {
            EXPECT_EQ(w1->compression(), Schema::Compression::FP16);
            EXPECT_EQ(w2->compression(), Schema::Compression::NONE);
        } else {
            for (auto w : {w1, w2}) {
                EXPECT_EQ(w->compression(), Schema::Compression::INT8_PER_CHANNEL);
                EXPECT_EQ(w->quantAxis(), 0);
                ASSERT_TRUE(w->scales());
                EXPECT_EQ(w->scales()->size(), 16u);
            }
        }
        EXPECT_EQ(constantNamed(n1, "b1")->compression(), Schema::Compression::NONE);
        EXPECT_EQ(constantNamed(n1, "b2")->compression(), Schema::Compression::NONE);
    }
}

// the compressed fused model runs (--fp16 measures it with the engine) and stays close to float
TEST(ConverterPasses, PointwiseDepthwiseCompressedModelsStayClose) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::PointwiseDepthwise);
    PwDw k;
    k.c = 8;
    k.e = 16;
    k.h = 12;
    k.w = 10;
    auto b = pwdwBlock(k, 90);
    Convert::Options plainOptions;
    plainOptions.optimize = false;
    auto plain = convert(b, plainOptions);
    Convert::Options o16;
    o16.fp16 = true;
    Convert::Options o8;
    o8.weightQuantBits = 8;
    auto in = pwdwInput(k, 91);
    auto ref = runFloat(plain.model, in)["y"];
    float maxRef = 0;
    for (float v : ref)
        maxRef = std::max(maxRef, std::fabs(v));
    ASSERT_GT(maxRef, 0.0f);
    for (auto* o : {&o16, &o8}) {
        SCOPED_TRACE(o->fp16 ? "fp16" : "int8");
        auto r = convert(b, *o);
        ASSERT_TRUE(r.ok) << r.error;
        EXPECT_EQ(opCounts(r.model)["PointwiseDepthwise"], 1);
        auto out = runFloat(r.model, in)["y"];
        ASSERT_EQ(out.size(), ref.size());
        float err = 0;
        for (size_t i = 0; i < ref.size(); ++i)
            err = std::max(err, std::fabs(out[i] - ref[i]));
        // relative to the output range: fp16 ~1e-3, int8 per channel ~1e-2 (docs/converter.md)
        EXPECT_LT(err / maxRef, o->fp16 ? 2e-3f : 2e-2f);
    }
}

namespace {
// ShuffleNet v2 basic block: x [1, 2c, h, w] -> Slice halves a, b; b -> Conv 1x1 -> Relu -> bb;
// Concat(a, bb) [1, C, H, w] -> Reshape [1, 2, C / 2, H, w] -> Transpose 0,2,1,3,4 -> Reshape -> s
// (C = 2c, H = h on axis 1; C = c, H = 2h on axis 2);
// each cut of s -> Conv 1x1 (cut channels -> 3) -> y<i> (or Relu -> y<i> where the cut is no
// channel range)
struct ShuffleBlock {
    int c = 4, h = 3, w = 5;
    bool concat = true;  // false: s shuffles Conv(x) directly
    int64_t concatAxis = 1;
    bool concatAlsoRead = false;  // the concat's output also feeds a Relu -> z
    bool shuffleIsOutput = false;
    struct Cut {
        int64_t start, end, axis, step;  // step 0: no steps input
    };
    std::vector<Cut> cuts = {{0, 4, 1, 0}, {4, INT64_MAX, 1, 1}};
};

OnnxBuilder shuffleBlock(const ShuffleBlock& k) {
    OnnxBuilder b(13);
    const int64_t c2 = 2 * k.c;
    b.input("x", {1, c2, k.h, k.w});
    auto slice = [&b](const std::string& in, const std::string& out, const ShuffleBlock::Cut& cut) {
        b.initializerInt64(out + "_s", {1}, {cut.start});
        b.initializerInt64(out + "_e", {1}, {cut.end});
        b.initializerInt64(out + "_a", {1}, {cut.axis});
        std::vector<std::string> ins = {in, out + "_s", out + "_e", out + "_a"};
        if (cut.step != 0) {
            b.initializerInt64(out + "_st", {1}, {cut.step});
            ins.push_back(out + "_st");
        }
        b.node("Slice", ins, {out});
    };
    unsigned seed = 90;
    auto conv = [&b, &seed](const std::string& in, const std::string& out, int64_t cin, int64_t cout) {
        b.initializer(out + "_w", {cout, cin, 1, 1}, randomFloats((size_t)(cin * cout), seed++, -1, 1));
        b.initializer(out + "_b", {cout}, randomFloats((size_t)cout, seed++, -1, 1));
        b.node("Conv", {in, out + "_w", out + "_b"}, {out});
    };
    std::string cat = "cat";
    if (k.concat) {
        slice("x", "a", {0, k.c, 1, 0});
        slice("x", "b", {k.c, c2, 1, 0});
        conv("b", "bc", k.c, k.c);
        b.node("Relu", {"bc"}, {"bb"});
        OnnxBuilder::attr(b.node("Concat", {"a", "bb"}, {"cat"}), "axis", k.concatAxis);
        if (k.concatAlsoRead) {
            b.node("Relu", {"cat"}, {"z"});
            b.output("z");
        }
    } else {
        conv("x", "cat", c2, c2);
    }
    const int64_t cc = k.concatAxis == 2 ? k.c : c2, hh = k.concatAxis == 2 ? 2 * k.h : k.h;
    b.initializerInt64("s5", {5}, {1, 2, cc / 2, hh, k.w});
    b.initializerInt64("s4", {4}, {1, cc, hh, k.w});
    b.node("Reshape", {cat, "s5"}, {"r"});
    OnnxBuilder::attr(b.node("Transpose", {"r"}, {"t"}), "perm", std::vector<int64_t>{0, 2, 1, 3, 4});
    b.node("Reshape", {"t", "s4"}, {"s"});
    if (k.shuffleIsOutput || k.cuts.empty()) {
        b.output("s");
    }
    for (size_t i = 0; i < k.cuts.size(); ++i) {
        auto cut = k.cuts[i];
        const std::string p = "p" + std::to_string(i), y = "y" + std::to_string(i);
        slice("s", p, cut);
        auto clamp = [cc](int64_t v) { return std::min(std::max(v < 0 ? v + cc : v, (int64_t)0), cc); };
        const int64_t n = clamp(cut.end) - clamp(cut.start);
        if ((cut.axis == 1 || cut.axis == -3) && (cut.step == 0 || cut.step == 1) && n > 0) {
            conv(p, y, n, 3);
        } else {
            b.node("Relu", {p}, {y});
        }
        b.output(y);
    }
    return b;
}

std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> shuffleBlockInput(const ShuffleBlock& k) {
    return {{"x", {{1, 2 * k.c, k.h, k.w}, randomFloats((size_t)(2 * k.c * k.h * k.w), 95, -2, 2)}}};
}
}  // namespace

// the whole block: one ChannelShuffle with the Concat's inputs and the Slices' outputs, same numbers
// as the unfused Concat / Reshape / Transpose / Reshape / Slice run
TEST(ConverterPasses, ShuffleBlockConcatAndSlicesFoldedIntoChannelShuffle) {
    REQUIRE_ENGINE_OPS(T::Slice, T::Concat, T::Reshape, T::Transpose, T::Convolution, T::ChannelShuffle);
    std::vector<ShuffleBlock> cases(4);
    cases[1].concatAxis = -3;
    cases[1].cuts = {{4, 1LL << 40, -3, 1}, {0, -4, 1, 0}};  // listed out of order, -4 = 4, huge end
    cases[2].c = 6;
    cases[2].cuts = {{-12, 6, 1, 0}, {6, 12, 1, 0}};
    cases[3].c = 6;
    cases[3].cuts = {{0, 3, 1, 0}, {9, 100, 1, 0}, {3, 6, 1, 0}, {6, 9, 1, 1}};  // 4 parts
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "case " << i);
        auto& k = cases[i];
        auto m = convertBoth(shuffleBlock(k));
        auto before = opCounts(m.before), after = opCounts(m.after);
        EXPECT_EQ(before["Slice"], 2 + (int)k.cuts.size());
        EXPECT_EQ(after["ChannelShuffle"], 1);
        EXPECT_EQ(after["Concat"], 0);
        EXPECT_EQ(after["Slice"], 2);  // the block's input split stays
        auto net = netOf(m.after);
        auto op = firstOp(net, T::ChannelShuffle);
        ASSERT_NE(op, nullptr);
        ASSERT_EQ(op->inputs()->size(), 2u);
        EXPECT_EQ(tensorName(net, op->inputs()->Get(0)), "a");
        EXPECT_EQ(tensorName(net, op->inputs()->Get(1)), "bb");
        ASSERT_EQ(op->outputs()->size(), k.cuts.size());
        // outputs in channel order: the cut starting at part j * C / m
        std::vector<std::pair<int64_t, std::string>> order;
        for (size_t j = 0; j < k.cuts.size(); ++j) {
            order.push_back({(k.cuts[j].start + 2 * k.c) % (2 * k.c), "p" + std::to_string(j)});
        }
        std::sort(order.begin(), order.end());
        for (size_t j = 0; j < order.size(); ++j) {
            EXPECT_EQ(tensorName(net, op->outputs()->Get((int)j)), order[j].second);
        }
        expectSameOutputs(m, shuffleBlockInput(k), 1e-4f, 1e-4f);
    }
}

// either half alone: the Concat folded with the shuffled tensor a graph output; the Slices taken with
// no Concat before the shuffle
TEST(ConverterPasses, ShuffleConcatOrSlicesFoldedAlone) {
    REQUIRE_ENGINE_OPS(T::Slice, T::Concat, T::Reshape, T::Transpose, T::Convolution, T::ChannelShuffle);
    ShuffleBlock onlyConcat;
    onlyConcat.cuts.clear();
    auto m1 = convertBoth(shuffleBlock(onlyConcat));
    auto a1 = opCounts(m1.after);
    EXPECT_EQ(a1["ChannelShuffle"], 1);
    EXPECT_EQ(a1["Concat"], 0);
    auto op1 = firstOp(netOf(m1.after), T::ChannelShuffle);
    ASSERT_NE(op1, nullptr);
    EXPECT_EQ(op1->inputs()->size(), 2u);
    EXPECT_EQ(op1->outputs()->size(), 1u);
    expectSameOutputs(m1, shuffleBlockInput(onlyConcat), 1e-4f, 1e-4f);

    ShuffleBlock onlySlices;
    onlySlices.concat = false;
    auto m2 = convertBoth(shuffleBlock(onlySlices));
    auto a2 = opCounts(m2.after);
    EXPECT_EQ(a2["ChannelShuffle"], 1);
    EXPECT_EQ(a2["Slice"], 0);
    auto op2 = firstOp(netOf(m2.after), T::ChannelShuffle);
    ASSERT_NE(op2, nullptr);
    EXPECT_EQ(op2->inputs()->size(), 1u);
    EXPECT_EQ(op2->outputs()->size(), 2u);
    expectSameOutputs(m2, shuffleBlockInput(onlySlices), 1e-4f, 1e-4f);
}

TEST(ConverterPasses, ShuffleConcatAndSlicesNotFoldedOtherwise) {
    REQUIRE_ENGINE_OPS(T::Slice, T::Concat, T::Reshape, T::Transpose, T::Convolution, T::ChannelShuffle);
    struct Case {
        const char* what;
        ShuffleBlock k;
        bool concatFolds, slicesFold;
    };
    std::vector<Case> cases;
    auto add = [&cases](const char* what, bool concatFolds, bool slicesFold) -> ShuffleBlock& {
        cases.push_back({what, ShuffleBlock(), concatFolds, slicesFold});
        return cases.back().k;
    };
    {
        auto& k = add("concat on axis 2", false, true);  // shuffles [1, c, 2h, w]
        k.concatAxis = 2;
        k.cuts = {{0, 2, 1, 0}, {2, 4, 1, 0}};
    }
    add("concat also read by a Relu", false, true).concatAlsoRead = true;
    add("shuffled tensor also a graph output", true, false).shuffleIsOutput = true;
    add("slices miss channels", true, false).cuts = {{0, 4, 1, 0}, {5, 8, 1, 0}};
    add("unequal parts", true, false).cuts = {{0, 3, 1, 0}, {3, 8, 1, 0}};
    add("overlapping slices", true, false).cuts = {{0, 4, 1, 0}, {4, 8, 1, 0}, {2, 6, 1, 0}};
    add("overlapping halves", true, false).cuts = {{0, 4, 1, 0}, {2, 6, 1, 0}};
    add("one half twice", true, false).cuts = {{0, 4, 1, 0}, {0, 4, 1, 0}};
    add("step 2", true, false).cuts = {{0, 4, 1, 2}, {4, 8, 1, 0}};
    add("a slice on axis 2", true, false).cuts = {{0, 4, 1, 0}, {0, 2, 2, 0}};
    add("one slice of all channels", true, false).cuts = {{0, 8, 1, 0}};
    for (auto& cs : cases) {
        SCOPED_TRACE(cs.what);
        auto m = convertBoth(shuffleBlock(cs.k));
        auto before = opCounts(m.before), after = opCounts(m.after);
        EXPECT_EQ(after["Concat"], cs.concatFolds ? 0 : 1);
        EXPECT_EQ(after["Slice"], before["Slice"] - (cs.slicesFold ? (int)cs.k.cuts.size() : 0));
        auto op = firstOp(netOf(m.after), T::ChannelShuffle);
        if (cs.concatFolds || cs.slicesFold) {
            ASSERT_NE(op, nullptr);
            EXPECT_EQ(op->inputs()->size(), cs.concatFolds ? 2u : 1u);
            EXPECT_EQ(op->outputs()->size(), cs.slicesFold ? cs.k.cuts.size() : 1u);
        }
        expectSameOutputs(m, shuffleBlockInput(cs.k), 1e-4f, 1e-4f);
    }
}

namespace {
// x -> Conv 3x3 + Relu -> t ; squeeze-excite on t: GlobalAveragePool -> Conv 1x1 + Relu -> Conv 1x1
// -> Sigmoid -> s ; Mul(t, s) (or Mul(s, t)) -> Conv 1x1 (the projection) -> y
struct SeBlock {
    int n = 1, c = 16, h = 10, w = 12, m = 8;
    bool scaleFirst = false;  // Mul(s, t)
    bool mulReadTwice = false;
    bool consumerIsPool = false;  // the Mul read by an AveragePool, not a convolution
    bool yIsOutput = true;        // false: the caller reads y
};

OnnxBuilder seBlock(const SeBlock& k, unsigned seed = 90) {
    OnnxBuilder b(14);
    b.input("x", {k.n, k.c, k.h, k.w});
    b.initializer("w0", {k.c, k.c, 3, 3}, randomFloats((size_t)k.c * k.c * 9, seed, -0.3f, 0.3f));
    auto c0 = b.node("Conv", {"x", "w0"}, {"t0"});
    OnnxBuilder::attr(c0, "pads", std::vector<int64_t>{1, 1, 1, 1});
    b.node("Relu", {"t0"}, {"t"});
    b.node("GlobalAveragePool", {"t"}, {"p"});
    b.initializer("w1", {4, k.c, 1, 1}, randomFloats((size_t)4 * k.c, seed + 1, -0.5f, 0.5f));
    b.initializer("b1", {4}, randomFloats(4, seed + 2));
    b.node("Conv", {"p", "w1", "b1"}, {"r0"});
    b.node("Relu", {"r0"}, {"r"});
    b.initializer("w2", {k.c, 4, 1, 1}, randomFloats((size_t)4 * k.c, seed + 3, -0.5f, 0.5f));
    b.initializer("b2", {k.c}, randomFloats((size_t)k.c, seed + 4));
    b.node("Conv", {"r", "w2", "b2"}, {"e"});
    b.node("Sigmoid", {"e"}, {"s"});
    b.node("Mul", {k.scaleFirst ? "s" : "t", k.scaleFirst ? "t" : "s"}, {"u"});
    if (k.consumerIsPool) {
        auto pool = b.node("AveragePool", {"u"}, {"y"});
        OnnxBuilder::attr(pool, "kernel_shape", std::vector<int64_t>{2, 2});
    } else {
        b.initializer("w3", {k.m, k.c, 1, 1}, randomFloats((size_t)k.m * k.c, seed + 5, -0.5f, 0.5f));
        b.initializer("b3", {k.m}, randomFloats((size_t)k.m, seed + 6));
        b.node("Conv", {"u", "w3", "b3"}, {"y"});
    }
    if (k.yIsOutput) {
        b.output("y");
    }
    if (k.mulReadTwice) {
        b.node("Relu", {"u"}, {"z"});
        b.output("z");
    }
    return b;
}

std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> seInput(const SeBlock& k, unsigned seed = 95) {
    return {{"x", {{k.n, k.c, k.h, k.w}, randomFloats((size_t)k.n * k.c * k.h * k.w, seed, -2, 2)}}};
}
}  // namespace

TEST(ConverterPasses, SqueezeExciteMulFoldedIntoTheProjection) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp, T::Pooling);
    SeBlock k;
    auto m = convertBoth(seBlock(k));
    EXPECT_EQ(opCounts(m.before)["BinaryOp"], 1);
    EXPECT_EQ(opCounts(m.after).count("BinaryOp"), 0u);
    auto net = netOf(m.after);
    const Schema::Op* projection = nullptr;
    for (auto op : *net->ops()) {
        if (op->type() == T::Convolution && op->outputs()->size() == 1 &&
            tensorName(net, op->outputs()->Get(0)) == "y") {
            projection = op;
        }
    }
    ASSERT_NE(projection, nullptr);
    std::vector<std::string> in;
    for (auto t : *projection->inputs())
        in.push_back(tensorName(net, t));
    ASSERT_EQ(in.size(), 4u);
    EXPECT_EQ(in[0], "t");
    EXPECT_EQ(in[1], "w3");
    EXPECT_EQ(in[2], "b3");
    EXPECT_EQ(in[3], "s");
    expectSameOutputs(m, seInput(k));
}

TEST(ConverterPasses, SqueezeExciteFoldedMatchesTheMul) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp, T::Pooling);
    std::vector<SeBlock> cases(4);
    cases[1].scaleFirst = true;
    cases[2].n = 2;  // one scale per image
    cases[2].m = 40;
    cases[3].c = 35;  // channel tails; more projection weights than positions (X scaled instead)
    cases[3].h = 5;
    cases[3].w = 3;
    cases[3].m = 24;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "case " << i);
        auto m = convertBoth(seBlock(cases[i], 100 + (unsigned)i));
        EXPECT_EQ(opCounts(m.after).count("BinaryOp"), 0u);
        expectSameOutputs(m, seInput(cases[i], 110 + (unsigned)i));
    }
}

TEST(ConverterPasses, SqueezeExciteMulKeptOtherwise) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp, T::Pooling);
    SeBlock twice;
    twice.mulReadTwice = true;  // the product is needed itself
    SeBlock pool;
    pool.consumerIsPool = true;  // no convolution to take it
    for (const auto& k : {twice, pool}) {
        auto m = convertBoth(seBlock(k));
        EXPECT_EQ(opCounts(m.after)["BinaryOp"], 1);
        expectSameOutputs(m, seInput(k));
    }
    // a scale over more than channels ([1, C, H, 1]) is no input scale
    OnnxBuilder b(14);
    b.input("x", {1, 8, 6, 5});
    b.input("g", {1, 8, 6, 1});
    b.node("Mul", {"x", "g"}, {"u"});
    b.initializer("w", {4, 8, 1, 1}, randomFloats(32, 7));
    b.node("Conv", {"u", "w"}, {"y"});
    b.output("y");
    auto m = convertBoth(b);
    EXPECT_EQ(opCounts(m.after)["BinaryOp"], 1);
    expectSameOutputs(m, {{"x", {{1, 8, 6, 5}, randomFloats(240, 8)}}, {"g", {{1, 8, 6, 1}, randomFloats(48, 9)}}});
}

namespace {
// x -> Conv 3x3 + Relu -> Conv 3x3 -> Add(., R) [-> Relu] -> y (a ResNet basic block when R is x);
// variants: the Add's other operand another convolution of x (a downsample branch), a broadcast R,
// an activation before the Add, the second convolution's output read twice
struct ResBlock {
    int c = 8, h = 7, w = 6;
    bool reluAfter = true;
    bool branch = false;      // R = Conv 1x1 (x), computed before the block's second convolution
    bool branchLast = false;  // ... or after it (the branch convolution then takes the block's as R)
    bool broadcastR = false;  // R [1, c, 1, 1] (a graph input): no residual
    bool reluBefore = false;  // the second convolution has an activation: no residual
    bool readTwice = false;
};

OnnxBuilder resBlock(const ResBlock& k, unsigned seed = 120) {
    OnnxBuilder b(14);
    b.input("x", {1, k.c, k.h, k.w});
    const size_t wc = (size_t)k.c * k.c * 9;
    b.initializer("w1", {k.c, k.c, 3, 3}, randomFloats(wc, seed, -0.3f, 0.3f));
    b.initializer("w2", {k.c, k.c, 3, 3}, randomFloats(wc, seed + 1, -0.3f, 0.3f));
    b.initializer("b2", {k.c}, randomFloats((size_t)k.c, seed + 2));
    b.initializer("wd", {k.c, k.c, 1, 1}, randomFloats((size_t)k.c * k.c, seed + 3, -0.5f, 0.5f));
    std::string r = "x";
    auto branch = [&]() { b.node("Conv", {"x", "wd"}, {"d"}); };
    if (k.branch && !k.branchLast) {
        branch();
        r = "d";
    }
    auto c1 = b.node("Conv", {"x", "w1"}, {"a0"});
    OnnxBuilder::attr(c1, "pads", std::vector<int64_t>{1, 1, 1, 1});
    b.node("Relu", {"a0"}, {"a"});
    auto c2 = b.node("Conv", {"a", "w2", "b2"}, {"v0"});
    OnnxBuilder::attr(c2, "pads", std::vector<int64_t>{1, 1, 1, 1});
    std::string v = "v0";
    if (k.reluBefore) {
        b.node("Relu", {"v0"}, {"v"});
        v = "v";
    }
    if (k.branch && k.branchLast) {
        branch();
        r = "d";
    }
    if (k.broadcastR) {
        b.input("g", {1, k.c, 1, 1});
        r = "g";
    }
    b.node("Add", {v, r}, {k.reluAfter ? "s" : "y"});
    if (k.reluAfter) {
        b.node("Relu", {"s"}, {"y"});
    }
    b.output("y");
    if (k.readTwice) {
        b.output(v);
    }
    return b;
}

std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> resInput(const ResBlock& k,
                                                                                unsigned seed = 130) {
    std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> in = {
        {"x", {{1, k.c, k.h, k.w}, randomFloats((size_t)k.c * k.h * k.w, seed, -2, 2)}}};
    if (k.broadcastR) {
        in["g"] = {{1, k.c, 1, 1}, randomFloats((size_t)k.c, seed + 1)};
    }
    return in;
}
}  // namespace

TEST(ConverterPasses, ResidualAddAndReluFoldedIntoTheConvolution) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp);
    ResBlock k;
    auto m = convertBoth(resBlock(k));
    auto before = opCounts(m.before), after = opCounts(m.after);
    EXPECT_EQ(before["BinaryOp"], 1);
    EXPECT_EQ(after.count("BinaryOp"), 0u);
    EXPECT_EQ(after.count("UnaryOp"), 0u);
    EXPECT_EQ(after["Convolution"], 2);
    auto net = netOf(m.after);
    const Schema::Op* last = nullptr;
    for (auto op : *net->ops()) {
        if (op->type() == T::Convolution && tensorName(net, op->outputs()->Get(0)) == "y") {
            last = op;
        }
    }
    ASSERT_NE(last, nullptr);
    std::vector<std::string> in;
    for (auto t : *last->inputs())
        in.push_back(tensorName(net, t));
    EXPECT_EQ(in, (std::vector<std::string>{"a", "w2", "b2", "-", "x"}));
    EXPECT_EQ(last->param_as_ConvParam()->activation(), Schema::FusedActivation::RELU);
    expectSameOutputs(m, resInput(k));
}

TEST(ConverterPasses, ResidualFoldedMatchesTheAdd) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp);
    std::vector<ResBlock> cases(4);
    cases[1].reluAfter = false;  // mobilenet_v2: a linear block
    cases[2].branch = true;      // the downsample branch first: the block's convolution takes it
    cases[3].branch = true;      // the branch after: the branch's convolution takes the block's
    cases[3].branchLast = true;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "case " << i);
        auto m = convertBoth(resBlock(cases[i], 140 + (unsigned)i));
        EXPECT_EQ(opCounts(m.after).count("BinaryOp"), 0u);
        expectSameOutputs(m, resInput(cases[i], 150 + (unsigned)i));
    }
}

TEST(ConverterPasses, ResidualAddKeptOtherwise) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp);
    std::vector<ResBlock> cases(3);
    cases[0].broadcastR = true;
    cases[1].reluBefore = true;
    cases[2].readTwice = true;
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "case " << i);
        auto m = convertBoth(resBlock(cases[i], 160 + (unsigned)i));
        EXPECT_EQ(opCounts(m.after)["BinaryOp"], 1);
        expectSameOutputs(m, resInput(cases[i], 170 + (unsigned)i));
    }
}

TEST(ConverterPasses, SqueezeExciteBlockWithResidualTakesBoth) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::UnaryOp, T::BinaryOp, T::Pooling);
    // the squeeze-excite block's projection back to x's channels, plus x
    SeBlock k;
    k.m = 16;
    k.yIsOutput = false;
    OnnxBuilder b = seBlock(k);
    b.node("Add", {"y", "x"}, {"out"});
    b.output("out");
    auto m = convertBoth(b);
    auto net = netOf(m.after);
    bool found = false;
    for (auto op : *net->ops()) {
        if (op->type() == T::Convolution && tensorName(net, op->outputs()->Get(0)) == "out") {
            ASSERT_EQ(op->inputs()->size(), 5u);
            EXPECT_EQ(tensorName(net, op->inputs()->Get(3)), "s");
            EXPECT_EQ(tensorName(net, op->inputs()->Get(4)), "x");
            found = true;
        }
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(opCounts(m.after).count("BinaryOp"), 0u);
    expectSameOutputs(m, seInput(k));
}

namespace {
// x -> Conv (group, k x k, stride 2, pad k/2) -> [Relu] -> MaxPool / AveragePool (3 x 3 stride 2
// pad 1) -> y; convOut: the convolution's output is also read by a Relu (z) or is a graph output
struct ConvPoolCase {
    int c = 3, m = 16, k = 3, group = 1;
    std::string pool = "MaxPool";
    bool relu = true, indices = false, convReadTwice = false, convIsOutput = false;
};

OnnxBuilder convPoolBlock(const ConvPoolCase& k, unsigned seed = 90) {
    OnnxBuilder b(14);
    b.input("x", {1, k.c, 23, 21});
    b.initializer("w", {k.m, k.c / k.group, k.k, k.k},
                  randomFloats((size_t)k.m * (k.c / k.group) * k.k * k.k, seed, -1, 1));
    b.initializer("b", {k.m}, randomFloats((size_t)k.m, seed + 1));
    auto c = b.node("Conv", {"x", "w", "b"}, {"c0"});
    OnnxBuilder::attr(c, "group", (int64_t)k.group);
    OnnxBuilder::attr(c, "strides", std::vector<int64_t>{2, 2});
    OnnxBuilder::attr(c, "pads", std::vector<int64_t>{k.k / 2, k.k / 2, k.k / 2, k.k / 2});
    std::string mid = "c0";
    if (k.relu) {
        b.node("Relu", {"c0"}, {"c1"});
        mid = "c1";
    }
    std::vector<std::string> outs = {"y"};
    if (k.indices) {
        outs.push_back("idx");
    }
    auto p = b.node(k.pool, {mid}, outs);
    OnnxBuilder::attr(p, "kernel_shape", std::vector<int64_t>{3, 3});
    OnnxBuilder::attr(p, "strides", std::vector<int64_t>{2, 2});
    OnnxBuilder::attr(p, "pads", std::vector<int64_t>{1, 1, 1, 1});
    b.output("y");
    if (k.indices) {
        b.output("idx");
    }
    if (k.convReadTwice) {
        b.node("Sigmoid", {mid}, {"z"});
        b.output("z");
    }
    if (k.convIsOutput) {
        b.output(mid);
    }
    return b;
}

std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> convPoolInput(const ConvPoolCase& k) {
    return {{"x", {{1, k.c, 23, 21}, randomFloats((size_t)k.c * 23 * 21, 91, -2, 2)}}};
}
}  // namespace

TEST(ConverterPasses, ConvolutionAndPoolFusedIntoConvolutionPool) {
    for (const char* pool : {"MaxPool", "AveragePool"}) {
        SCOPED_TRACE(pool);
        ConvPoolCase k;
        k.pool = pool;
        auto m = convertBoth(convPoolBlock(k));
        auto after = opCounts(m.after);
        EXPECT_EQ(after["ConvolutionPool"], 1);
        EXPECT_EQ(totalOps(m.after), 1);
        auto net = netOf(m.after);
        auto op = firstOp(net, T::ConvolutionPool);
        ASSERT_NE(op, nullptr);
        std::vector<std::string> in;
        for (auto t : *op->inputs())
            in.push_back(tensorName(net, t));
        EXPECT_EQ(in, (std::vector<std::string>{"x", "w", "b"}));
        EXPECT_EQ(tensorName(net, op->outputs()->Get(0)), "y");
        auto p = op->param_as_ConvolutionPoolParam();
        ASSERT_TRUE(p && p->conv() && p->pool());
        EXPECT_EQ(p->conv()->activation(), Schema::FusedActivation::RELU);
        EXPECT_EQ(p->conv()->strides()->Get(0), 2);
        EXPECT_EQ(p->pool()->type(),
                  std::string(pool) == "MaxPool" ? Schema::PoolType::MAXPOOL : Schema::PoolType::AVERAGEPOOL);
        EXPECT_EQ(p->pool()->kernel()->Get(1), 3);
        if (::MNN::Test::engineHas({T::Convolution, T::Pooling, T::UnaryOp, T::ConvolutionPool})) {
            expectSameOutputs(m, convPoolInput(k), 1e-4f, 1e-4f);
        }
    }
}

TEST(ConverterPasses, ConvolutionPoolNotFusedOtherwise) {
    REQUIRE_ENGINE_OPS(T::Convolution, T::Pooling, T::UnaryOp);
    std::vector<std::pair<std::string, ConvPoolCase>> cases;
    ConvPoolCase k;
    k.convReadTwice = true;
    cases.push_back({"convolution output read twice", k});
    k = ConvPoolCase();
    k.convIsOutput = true;
    cases.push_back({"convolution output is a graph output", k});
    k = ConvPoolCase();
    k.indices = true;
    cases.push_back({"MaxPool with Indices", k});
    k = ConvPoolCase();
    k.c = 8;
    k.m = 8;
    k.group = 8;
    cases.push_back({"depthwise convolution", k});
    k = ConvPoolCase();
    k.pool = "LpPool";
    cases.push_back({"LpPool", k});
    for (auto& kv : cases) {
        SCOPED_TRACE(kv.first);
        auto m = convertBoth(convPoolBlock(kv.second));
        auto after = opCounts(m.after);
        EXPECT_EQ(after.count("ConvolutionPool"), 0u);
        EXPECT_EQ(after["Convolution"], 1);
        EXPECT_EQ(after["Pooling"], 1);
        if (!kv.second.indices) {
            expectSameOutputs(m, convPoolInput(kv.second), 1e-4f, 1e-4f);
        }
    }
}
