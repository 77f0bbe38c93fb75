// A model whose inputs have symbolic dims, converted with no --inputShape: createSession succeeds
// before any resizeTensor (even where the placeholder 1s do not fit an op), and one session runs at
// several shapes (batch 2 among them) and back to the first, against a reference computed here.
#include <gtest/gtest.h>
#include <MNN/Interpreter.hpp>
#include <algorithm>
#include <memory>
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;
using onnx::TensorProto;

namespace {

// y = Reshape(MaxPool3x3(x) + 1, [Shape(x)[0], -1]): the pool rejects the placeholder 1x1 plane,
// the Reshape target comes from the input's (unknown) batch
OnnxBuilder poolReshapeModel() {
    OnnxBuilder b;
    b.input("x", {-1, 2, -1, -1}, TensorProto::FLOAT, {"batch", "", "height", "width"});
    auto pool = b.node("MaxPool", {"x"}, {"p"});
    OnnxBuilder::attr(pool, "kernel_shape", std::vector<int64_t>{3, 3});
    b.initializer("one", {1}, {1.0f});
    b.node("Add", {"p", "one"}, {"q"});
    b.node("Shape", {"x"}, {"s"});
    b.initializerInt64("zero", {1}, {0});
    b.initializerInt64("minus1", {1}, {-1});
    auto g = b.node("Gather", {"s", "zero"}, {"n"});
    OnnxBuilder::attr(g, "axis", (int64_t)0);
    auto c = b.node("Concat", {"n", "minus1"}, {"target"});
    OnnxBuilder::attr(c, "axis", (int64_t)0);
    b.node("Reshape", {"q", "target"}, {"y"});
    b.output("y");
    return b;
}

std::vector<float> reference(const std::vector<float>& x, int n, int c, int h, int w) {
    std::vector<float> y;
    for (int i = 0; i < n * c; ++i) {
        for (int r = 0; r + 3 <= h; ++r) {
            for (int q = 0; q + 3 <= w; ++q) {
                float m = -1e30f;
                for (int a = 0; a < 3; ++a) {
                    for (int b = 0; b < 3; ++b) {
                        m = std::max(m, x[((size_t)i * h + r + a) * w + q + b]);
                    }
                }
                y.push_back(m + 1.0f);
            }
        }
    }
    return y;
}

}  // namespace

TEST(ConverterDynamicShape, SessionBeforeResizeThenManyShapes) {
    auto r = convert(poolReshapeModel());
    ASSERT_TRUE(r.ok) << r.error;
    // nothing that depends on the unknown batch was folded: the Shape op is still there
    EXPECT_EQ(opCounts(r.model)["Shape"], 1);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(r.model.data(), r.model.size()));
    ASSERT_TRUE(net);
    ScheduleConfig config;
    config.numThread = 2;
    Session* session = net->createSession(config);
    ASSERT_NE(session, nullptr) << "createSession must succeed before any resizeTensor";
    Tensor* x = net->getSessionInput(session, "x");
    ASSERT_NE(x, nullptr);
    const std::vector<std::vector<int>> shapes = {
        {1, 2, 5, 7}, {2, 2, 4, 9}, {1, 2, 12, 3}, {2, 2, 6, 6}, {1, 2, 5, 7}};
    for (size_t k = 0; k < shapes.size(); ++k) {
        auto& s = shapes[k];
        net->resizeTensor(x, s);
        net->resizeSession(session);
        auto values = randomFloats((size_t)s[0] * s[1] * s[2] * s[3], 100 + (int)k);
        auto host = makeTensor(s, values);
        ASSERT_TRUE(x->copyFromHostTensor(host.get()));
        ASSERT_EQ(net->runSession(session), NO_ERROR) << "shape " << k;
        Tensor* y = net->getSessionOutput(session, "y");
        ASSERT_NE(y, nullptr);
        Tensor out(y, Tensor::CAFFE);
        ASSERT_TRUE(y->copyToHostTensor(&out));
        const int per = s[1] * (s[2] - 2) * (s[3] - 2);
        ASSERT_EQ(out.shape(), (std::vector<int>{s[0], per})) << "shape " << k;
        auto ref = reference(values, s[0], s[1], s[2], s[3]);
        ASSERT_EQ((size_t)out.elementSize(), ref.size());
        for (size_t i = 0; i < ref.size(); ++i) {
            ASSERT_FLOAT_EQ(out.host<float>()[i], ref[i]) << "shape " << k << " element " << i;
        }
    }
}

TEST(ConverterDynamicShape, RunWithoutResizeFailsWithACode) {
    auto r = convert(poolReshapeModel());
    ASSERT_TRUE(r.ok) << r.error;
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(r.model.data(), r.model.size()));
    ASSERT_TRUE(net);
    ScheduleConfig config;
    Session* session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    // the placeholder 1x2x1x1 input does not fit the 3x3 pool: an error code, not a crash
    EXPECT_NE(net->runSession(session), NO_ERROR);
    // after a real shape the same session runs
    net->resizeTensor(net->getSessionInput(session, "x"), {1, 2, 3, 3});
    net->resizeSession(session);
    EXPECT_EQ(net->runSession(session), NO_ERROR);
}

TEST(ConverterDynamicShape, InputShapeHintStillAccepted) {
    Convert::Options o;
    o.inputShapes["x"] = {1, 2, 8, 8};
    auto r = convert(poolReshapeModel(), o);
    ASSERT_TRUE(r.ok) << r.error;
    // with every dim known, the Shape chain is folded
    EXPECT_EQ(opCounts(r.model)["Shape"], 0);
    auto out = runFloat(r.model, {{"x", {{1, 2, 8, 8}, randomFloats(128, 5)}}});
    EXPECT_EQ(out["y"].size(), 72u);
}
