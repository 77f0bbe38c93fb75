// ONNX op mappings: older-opset attributes become constant inputs, op families map to one engine op
// with the right parameters. Checked on the written model (and run where the engine has the op).
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using T = MNN::Schema::OpType;

namespace {
struct Mapped {
    Convert::Result result;
    const Schema::Net* net = nullptr;
    const Schema::Op* op(int i = 0) const {
        return net->ops()->Get(i);
    }
    /** the int values of a constant tensor */
    std::vector<int64_t> ints(int tensor) const {
        for (auto c : *net->constants()) {
            if (c->tensorIndex() == tensor) {
                std::vector<int64_t> v;
                if (c->dataType() == Schema::DataType::DT_INT64) {
                    auto p = (const int64_t*)c->raw()->data();
                    v.assign(p, p + c->raw()->size() / 8);
                } else if (c->dataType() == Schema::DataType::DT_INT32) {
                    auto p = (const int32_t*)c->raw()->data();
                    v.assign(p, p + c->raw()->size() / 4);
                }
                return v;
            }
        }
        return {};
    }
    std::vector<float> floats(int tensor) const {
        for (auto c : *net->constants()) {
            if (c->tensorIndex() == tensor && c->dataType() == Schema::DataType::DT_FLOAT) {
                auto p = (const float*)c->raw()->data();
                return std::vector<float>(p, p + c->raw()->size() / 4);
            }
        }
        return {};
    }
};

/** one node "n" with inputs x (+ extra), output y; no passes */
Mapped mapOne(int opset, const std::string& type, const std::vector<std::string>& inputs,
              void (*setup)(OnnxBuilder&, onnx::NodeProto*), int outputs = 1) {
    OnnxBuilder b(opset);
    b.input("x", {2, 3, 4, 4});
    std::vector<std::string> outs = {"y"};
    for (int i = 1; i < outputs; ++i)
        outs.push_back("y" + std::to_string(i));
    auto n = b.node(type, inputs, outs, "n");
    if (setup)
        setup(b, n);
    for (auto& o : outs)
        b.output(o);
    Convert::Options o;
    o.optimize = false;
    Mapped m;
    m.result = convert(b, o);
    EXPECT_TRUE(m.result.ok) << type << ": " << m.result.error;
    if (m.result.ok)
        m.net = netOf(m.result.model);
    return m;
}
}  // namespace

TEST(ConverterMapping, SqueezeAxesAttributeBecomesInput) {
    auto m = mapOne(11, "Squeeze", {"x"},
                    [](OnnxBuilder&, onnx::NodeProto* n) { OnnxBuilder::attr(n, "axes", std::vector<int64_t>{0}); });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::Squeeze);
    ASSERT_EQ(m.op()->inputs()->size(), 2u);
    EXPECT_EQ(m.ints(m.op()->inputs()->Get(1)), std::vector<int64_t>({0}));
}

TEST(ConverterMapping, SliceOpset9AttributesBecomeInputs) {
    auto m = mapOne(9, "Slice", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attr(n, "starts", std::vector<int64_t>{1, 0});
        OnnxBuilder::attr(n, "ends", std::vector<int64_t>{3, 2});
        OnnxBuilder::attr(n, "axes", std::vector<int64_t>{1, 3});
    });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::Slice);
    ASSERT_EQ(m.op()->inputs()->size(), 4u);
    EXPECT_EQ(m.ints(m.op()->inputs()->Get(1)), std::vector<int64_t>({1, 0}));
    EXPECT_EQ(m.ints(m.op()->inputs()->Get(2)), std::vector<int64_t>({3, 2}));
    EXPECT_EQ(m.ints(m.op()->inputs()->Get(3)), std::vector<int64_t>({1, 3}));
}

TEST(ConverterMapping, PadOpset2AndReduceOpset11AndTopKOpset1) {
    auto pad = mapOne(2, "Pad", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attr(n, "pads", std::vector<int64_t>{0, 0, 1, 1, 0, 0, 1, 1});
        OnnxBuilder::attr(n, "value", 1.5f);
        OnnxBuilder::attr(n, "mode", std::string("constant"));
    });
    ASSERT_TRUE(pad.net);
    ASSERT_EQ(pad.op()->inputs()->size(), 3u);
    EXPECT_EQ(pad.ints(pad.op()->inputs()->Get(1)), std::vector<int64_t>({0, 0, 1, 1, 0, 0, 1, 1}));
    EXPECT_EQ(pad.floats(pad.op()->inputs()->Get(2)), std::vector<float>({1.5f}));

    auto red = mapOne(11, "ReduceSum", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attr(n, "axes", std::vector<int64_t>{1, -1});
        OnnxBuilder::attr(n, "keepdims", (int64_t)0);
    });
    ASSERT_TRUE(red.net);
    EXPECT_EQ(red.op()->type(), Schema::OpType::Reduce);
    EXPECT_EQ(red.op()->param_as_ReduceParam()->type(), Schema::ReduceType::SUM);
    EXPECT_FALSE(red.op()->param_as_ReduceParam()->keepDims());
    EXPECT_EQ(red.ints(red.op()->inputs()->Get(1)), std::vector<int64_t>({1, -1}));

    auto l1 = mapOne(18, "ReduceL1", {"x"}, nullptr);
    ASSERT_TRUE(l1.net);
    EXPECT_EQ(l1.op()->param_as_ReduceParam()->type(), Schema::ReduceType::L1);
    EXPECT_EQ(l1.op()->inputs()->size(), 1u);

    auto topk = mapOne(
        1, "TopK", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) { OnnxBuilder::attr(n, "k", (int64_t)2); }, 2);
    ASSERT_TRUE(topk.net);
    EXPECT_EQ(topk.op()->type(), Schema::OpType::TopK);
    EXPECT_EQ(topk.ints(topk.op()->inputs()->Get(1)), std::vector<int64_t>({2}));
    EXPECT_EQ(topk.op()->outputs()->size(), 2u);
}

TEST(ConverterMapping, UpsampleBecomesResizeWithScalesInput) {
    auto m = mapOne(7, "Upsample", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attrFloats(n, "scales", {1, 1, 2, 2});
        OnnxBuilder::attr(n, "mode", std::string("nearest"));
    });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::Resize);
    ASSERT_EQ(m.op()->inputs()->size(), 3u);
    EXPECT_EQ(m.op()->inputs()->Get(1), -1);
    EXPECT_EQ(m.floats(m.op()->inputs()->Get(2)), std::vector<float>({1, 1, 2, 2}));
    auto p = m.op()->param_as_ResizeParam();
    EXPECT_EQ(p->coordTransform(), Schema::CoordTransform::ASYMMETRIC);
    EXPECT_EQ(p->nearestMode(), Schema::NearestMode::FLOOR);
}

TEST(ConverterMapping, ClipForms) {
    auto c6 = mapOne(6, "Clip", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attr(n, "min", -1.0f);
        OnnxBuilder::attr(n, "max", 2.0f);
    });
    ASSERT_TRUE(c6.net);
    EXPECT_EQ(c6.op()->type(), Schema::OpType::UnaryOp);
    EXPECT_EQ(c6.op()->param_as_UnaryParam()->type(), Schema::UnaryOpType::CLIP);
    EXPECT_EQ(c6.op()->param_as_UnaryParam()->alpha(), -1.0f);
    EXPECT_EQ(c6.op()->param_as_UnaryParam()->beta(), 2.0f);
    // min from a graph input: MAXIMUM then MINIMUM
    OnnxBuilder b(13);
    b.input("x", {4});
    b.input("lo", {});
    b.initializer("hi", {}, {2.0f});
    b.node("Clip", {"x", "lo", "hi"}, {"y"});
    b.output("y");
    Convert::Options o;
    o.optimize = false;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto counts = opCounts(r.model);
    EXPECT_EQ(counts["BinaryOp"], 2);
    auto out = runFloat(r.model, {{"x", {{4}, {-3, 0.5f, 1, 5}}}, {"lo", {{}, {0.0f}}}});
    EXPECT_TRUE(allClose(out["y"], {0, 0.5f, 1, 2}));
}

TEST(ConverterMapping, VariadicSumMeanMaxMin) {
    OnnxBuilder b(13);
    b.input("a", {3});
    b.input("b", {3});
    b.input("c", {3});
    b.node("Sum", {"a", "b", "c"}, {"s"});
    b.node("Mean", {"a", "b", "c"}, {"m"});
    b.node("Max", {"a", "b", "c"}, {"mx"});
    b.node("Min", {"a", "b", "c"}, {"mn"});
    b.node("Mean", {"a", "b"}, {"m2"});
    for (auto n : {"s", "m", "mx", "mn", "m2"})
        b.output(n);
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto out = runFloat(r.model, {{"a", {{3}, {1, -2, 3}}}, {"b", {{3}, {4, 5, -6}}}, {"c", {{3}, {-7, 8, 9}}}});
    EXPECT_TRUE(allClose(out["s"], {-2, 11, 6}));
    EXPECT_TRUE(allClose(out["m"], {-2.0f / 3, 11.0f / 3, 2}));
    EXPECT_TRUE(allClose(out["mx"], {4, 8, 9}));
    EXPECT_TRUE(allClose(out["mn"], {-7, -2, -6}));
    EXPECT_TRUE(allClose(out["m2"], {2.5f, 1.5f, -1.5f}));
}

TEST(ConverterMapping, SoftmaxArgAndActivations) {
    auto ls = mapOne(11, "LogSoftmax", {"x"}, nullptr);
    ASSERT_TRUE(ls.net);
    EXPECT_EQ(ls.op()->param_as_SoftmaxParam()->mode(), Schema::SoftmaxMode::LOG_SOFTMAX);
    EXPECT_TRUE(ls.op()->param_as_SoftmaxParam()->coerce2D());
    EXPECT_EQ(ls.op()->param_as_SoftmaxParam()->axis(), 1);
    auto hm = mapOne(13, "Hardmax", {"x"}, nullptr);
    ASSERT_TRUE(hm.net);
    EXPECT_EQ(hm.op()->param_as_SoftmaxParam()->mode(), Schema::SoftmaxMode::HARDMAX);
    EXPECT_EQ(hm.op()->param_as_SoftmaxParam()->axis(), -1);
    auto am =
        mapOne(13, "ArgMin", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) { OnnxBuilder::attr(n, "axis", (int64_t)2); });
    ASSERT_TRUE(am.net);
    EXPECT_EQ(am.op()->type(), Schema::OpType::ArgMax);
    EXPECT_TRUE(am.op()->param_as_ArgParam()->isMin());
    EXPECT_EQ(am.op()->param_as_ArgParam()->axis(), 2);
    auto gelu = mapOne(20, "Gelu", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attr(n, "approximate", std::string("tanh"));
    });
    ASSERT_TRUE(gelu.net);
    EXPECT_EQ(gelu.op()->param_as_UnaryParam()->type(), Schema::UnaryOpType::GELU_TANH);
    auto lr = mapOne(13, "LeakyRelu", {"x"}, nullptr);
    ASSERT_TRUE(lr.net);
    EXPECT_FLOAT_EQ(lr.op()->param_as_UnaryParam()->alpha(), 0.01f);
    auto hs = mapOne(14, "HardSwish", {"x"}, nullptr);
    ASSERT_TRUE(hs.net);
    EXPECT_EQ(hs.op()->param_as_UnaryParam()->type(), Schema::UnaryOpType::HARD_SWISH);
}

TEST(ConverterMapping, ConvAttributesAndSplitOpset11) {
    OnnxBuilder b(11);
    b.input("x", {1, 4, 5, 5});
    b.initializer("w", {6, 2, 3, 3}, std::vector<float>(6 * 2 * 9, 0.1f));
    auto n = b.node("Conv", {"x", "w"}, {"c"}, "conv");
    OnnxBuilder::attr(n, "group", (int64_t)2);
    OnnxBuilder::attr(n, "pads", std::vector<int64_t>{1, 1, 1, 1});
    OnnxBuilder::attr(n, "strides", std::vector<int64_t>{2, 2});
    auto s = b.node("Split", {"c"}, {"s0", "s1"}, "split");
    OnnxBuilder::attr(s, "axis", (int64_t)1);
    OnnxBuilder::attr(s, "split", std::vector<int64_t>{2, 4});
    b.output("s0");
    b.output("s1");
    Convert::Options o;
    o.optimize = false;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    auto conv = net->ops()->Get(0);
    auto p = conv->param_as_ConvParam();
    EXPECT_EQ(p->group(), 2);
    EXPECT_EQ(std::vector<int>(p->kernel()->begin(), p->kernel()->end()), std::vector<int>({3, 3}));
    EXPECT_EQ(p->outputCount(), 6);
    EXPECT_EQ(p->inputCount(), 4);
    auto split = net->ops()->Get(1);
    EXPECT_EQ(split->type(), Schema::OpType::Split);
    EXPECT_EQ(split->inputs()->size(), 2u);
    EXPECT_EQ(split->outputs()->size(), 2u);
}

TEST(ConverterMapping, DropoutAndIdentityBecomeIdentity) {
    OnnxBuilder b(13);
    b.input("x", {3});
    b.node("Dropout", {"x"}, {"d"});
    b.node("Identity", {"d"}, {"i"});
    b.node("Add", {"i", "i"}, {"y"});
    b.output("y");
    Convert::Options o;
    o.optimize = false;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(opCounts(r.model)["Identity"], 2);
}

TEST(ConverterMapping, LegacyBroadcastWithAxis) {
    OnnxBuilder b(6);
    b.input("a", {2, 3, 2});
    b.input("c", {3});
    auto n = b.node("Add", {"a", "c"}, {"y"});
    OnnxBuilder::attr(n, "broadcast", (int64_t)1);
    OnnxBuilder::attr(n, "axis", (int64_t)1);
    b.output("y");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(opCounts(r.model)["Unsqueeze"], 1);
    REQUIRE_ENGINE_OPS(T::Unsqueeze);
    std::vector<float> a(12), ref(12);
    std::vector<float> c = {10, 20, 30};
    for (int i = 0; i < 12; ++i) {
        a[i] = (float)i;
        ref[i] = a[i] + c[(i / 2) % 3];  // c lines up with a's axis 1
    }
    auto out = runFloat(r.model, {{"a", {{2, 3, 2}, a}}, {"c", {{3}, c}}});
    EXPECT_TRUE(allClose(out["y"], ref));
}

// ---- losses, training Dropout, signal ops, TfIdfVectorizer ----

TEST(ConverterMapping, SoftmaxCrossEntropyLossIsLogSoftmaxThenNll) {
    OnnxBuilder b(13);
    b.input("scores", {2, 3});
    b.initializerInt64("labels", {2}, {1, 1});
    auto n = b.node("SoftmaxCrossEntropyLoss", {"scores", "labels"}, {"loss", "log_prob"}, "sce");
    OnnxBuilder::attr(n, "reduction", std::string("mean"));
    b.output("loss");
    b.output("log_prob");
    Convert::Options o;
    o.optimize = false;
    auto r = convert(b, o);
    ASSERT_TRUE(r.ok) << r.error;
    auto counts = opCounts(r.model);
    EXPECT_EQ(counts["Softmax"], 1);
    EXPECT_EQ(counts["NegativeLogLikelihoodLoss"], 1);
    auto net = netOf(r.model);
    auto sm = net->ops()->Get(0)->param_as_SoftmaxParam();
    ASSERT_TRUE(sm);
    EXPECT_EQ(sm->mode(), Schema::SoftmaxMode::LOG_SOFTMAX);
    EXPECT_EQ(sm->axis(), 1);
    auto lp = net->ops()->Get(1)->param_as_LossParam();
    ASSERT_TRUE(lp);
    EXPECT_EQ(lp->reduction(), Schema::LossReduction::MEAN);
    EXPECT_FALSE(lp->hasIgnoreIndex());
    REQUIRE_ENGINE_OPS(T::Softmax, T::NegativeLogLikelihoodLoss);
    // row 0 uniform: log p = -ln 3; row 1 [0, ln 2, 0]: p = (1/4, 1/2, 1/4); both labels are 1
    const float ln2 = 0.69314718f, ln3 = 1.09861229f, ln4 = 1.38629436f;
    auto out = runFloat(r.model, {{"scores", {{2, 3}, {0, 0, 0, 0, ln2, 0}}}});
    EXPECT_TRUE(allClose(out["loss"], {(ln3 + ln2) / 2}));
    EXPECT_TRUE(allClose(out["log_prob"], {-ln3, -ln3, -ln3, -ln4, -ln2, -ln4}));
}

TEST(ConverterMapping, NegativeLogLikelihoodLossAttributes) {
    auto m = mapOne(13, "NegativeLogLikelihoodLoss", {"x", "t"}, [](OnnxBuilder& b, onnx::NodeProto* n) {
        b.initializerInt64("t", {2, 4, 4}, std::vector<int64_t>(32, 1));
        OnnxBuilder::attr(n, "reduction", std::string("none"));
        OnnxBuilder::attr(n, "ignore_index", (int64_t)-5);
    });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::NegativeLogLikelihoodLoss);
    auto p = m.op()->param_as_LossParam();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->reduction(), Schema::LossReduction::NONE);
    EXPECT_TRUE(p->hasIgnoreIndex());
    EXPECT_EQ(p->ignoreIndex(), -5);
    OnnxBuilder b(13);
    b.input("x", {2, 3});
    b.initializerInt64("t", {2}, {0, 1});
    OnnxBuilder::attr(b.node("NegativeLogLikelihoodLoss", {"x", "t"}, {"y"}), "reduction", std::string("avg"));
    b.output("y");
    auto r = convert(b);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("reduction"), std::string::npos) << r.error;
}

TEST(ConverterMapping, TrainingDropoutKeepsItsInputsAndSeed) {
    OnnxBuilder b(13);
    b.input("x", {3});
    b.input("ratio", {}, onnx::TensorProto::FLOAT);
    b.input("train", {}, onnx::TensorProto::BOOL);
    auto n = b.node("Dropout", {"x", "ratio", "train"}, {"y", "mask"}, "drop");
    OnnxBuilder::attr(n, "seed", (int64_t)7);
    b.output("y");
    b.output("mask", onnx::TensorProto::BOOL);
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    ASSERT_EQ(net->ops()->size(), 1u);
    auto op = net->ops()->Get(0);
    EXPECT_EQ(op->type(), Schema::OpType::Dropout);
    EXPECT_EQ(op->inputs()->size(), 3u);
    EXPECT_EQ(op->outputs()->size(), 2u);
    auto p = op->param_as_DropoutParam();
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->hasSeed());
    EXPECT_EQ(p->seed(), 7);
}

TEST(ConverterMapping, SignalOps) {
    auto m = mapOne(17, "BlackmanWindow", {"x"}, [](OnnxBuilder& b, onnx::NodeProto* n) {
        n->set_input(0, "size");
        b.initializerInt64("size", {}, {8});
        OnnxBuilder::attr(n, "periodic", (int64_t)0);
        OnnxBuilder::attr(n, "output_datatype", (int64_t)onnx::TensorProto::DOUBLE);
    });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::Window);
    auto wp = m.op()->param_as_SignalParam();
    ASSERT_TRUE(wp);
    EXPECT_EQ(wp->window(), Schema::WindowType::BLACKMAN);
    EXPECT_FALSE(wp->periodic());
    EXPECT_EQ(wp->outputType(), Schema::DataType::DT_DOUBLE);

    m = mapOne(17, "DFT", {"x"}, [](OnnxBuilder&, onnx::NodeProto* n) {
        OnnxBuilder::attr(n, "axis", (int64_t)2);
        OnnxBuilder::attr(n, "inverse", (int64_t)1);
    });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::DFT);
    auto dp = m.op()->param_as_SignalParam();
    ASSERT_TRUE(dp);
    EXPECT_EQ(dp->axis(), 2);
    EXPECT_TRUE(dp->inverse());
    EXPECT_FALSE(dp->onesided());

    // opset 20: the axis is a constant input (default -2)
    m = mapOne(20, "DFT", {"x", "", "axis"},
               [](OnnxBuilder& b, onnx::NodeProto*) { b.initializerInt64("axis", {}, {-3}); });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->param_as_SignalParam()->axis(), -3);

    m = mapOne(17, "STFT", {"x", "step", "", "len"}, [](OnnxBuilder& b, onnx::NodeProto*) {
        b.initializerInt64("step", {}, {2});
        b.initializerInt64("len", {}, {4});
    });
    ASSERT_TRUE(m.net);
    EXPECT_EQ(m.op()->type(), Schema::OpType::STFT);
    EXPECT_TRUE(m.op()->param_as_SignalParam()->onesided());
    EXPECT_EQ(m.op()->inputs()->size(), 4u);
    EXPECT_EQ(m.op()->inputs()->Get(2), -1);
}

TEST(ConverterMapping, TfIdfVectorizerAttributes) {
    OnnxBuilder b(9);
    b.input("x", {6}, onnx::TensorProto::INT64);
    auto n = b.node("TfIdfVectorizer", {"x"}, {"y"}, "tfidf");
    OnnxBuilder::attr(n, "mode", std::string("TFIDF"));
    OnnxBuilder::attr(n, "min_gram_length", (int64_t)1);
    OnnxBuilder::attr(n, "max_gram_length", (int64_t)2);
    OnnxBuilder::attr(n, "max_skip_count", (int64_t)0);
    OnnxBuilder::attr(n, "ngram_counts", std::vector<int64_t>{0, 2});
    OnnxBuilder::attr(n, "ngram_indexes", std::vector<int64_t>{2, 1, 0});
    OnnxBuilder::attr(n, "pool_int64s", std::vector<int64_t>{4, 5, 4, 5});
    OnnxBuilder::attrFloats(n, "weights", {0.5f, 2.0f, 3.0f});
    b.output("y");
    auto r = convert(b);
    ASSERT_TRUE(r.ok) << r.error;
    auto net = netOf(r.model);
    auto p = net->ops()->Get(0)->param_as_TfIdfParam();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->mode(), Schema::TfIdfMode::TFIDF);
    EXPECT_EQ(p->maxGramLength(), 2);
    EXPECT_EQ(std::vector<int64_t>(p->pool()->begin(), p->pool()->end()), (std::vector<int64_t>{4, 5, 4, 5}));
    EXPECT_EQ(p->weights()->size(), 3u);
}
