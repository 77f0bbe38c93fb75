// ImageProcess writes straight into a session input; the model adds a per-channel constant, so the
// output is checked against the preprocessing formula computed here.
#include <MNN/ImageProcess.hpp>
#include <MNN/Interpreter.hpp>
#include <gtest/gtest.h>
#include <memory>
#include "CvOracle.hpp"
#include "ModelBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;

TEST(SessionInput, ConvertIntoSessionInputAndRun) {
    const int iw = 12, ih = 10, ow = 6, oh = 5;
    ModelBuilder mb;
    mb.input("img", {1, 3, oh, ow});
    mb.constant("bias", {1, 3, 1, 1}, {100, 200, 300});
    auto op = mb.op(Schema::OpType::BinaryOp, "add", {"img", "bias"}, {"out"});
    Schema::BinaryParamT p;
    p.type = Schema::BinaryOpType::ADD;
    op->param.Set(p);
    mb.output("out");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    Session* session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    Tensor* input = net->getSessionInput(session, "img");
    ASSERT_NE(input, nullptr);

    auto src = CvOracle::randomImage((size_t)iw * ih * 4, 5);
    CV::ImageProcess::Config cfg;
    cfg.sourceFormat = CV::RGBA;
    cfg.destFormat   = CV::BGR;
    cfg.filterType   = CV::NEAREST;
    const float mean[3] = {1, 2, 3}, normal[3] = {0.5f, 2.0f, -1.0f};
    for (int k = 0; k < 3; ++k) {
        cfg.mean[k]   = mean[k];
        cfg.normal[k] = normal[k];
    }
    std::unique_ptr<CV::ImageProcess, void (*)(CV::ImageProcess*)> proc(CV::ImageProcess::create(cfg),
                                                                       CV::ImageProcess::destroy);
    proc->setMatrix(CV::Matrix::MakeScale(2.0f));  // output (x, y) reads source (2x, 2y)
    ASSERT_EQ(NO_ERROR, proc->convert(src.data(), iw, ih, 0, input));
    ASSERT_EQ(NO_ERROR, net->runSession(session));
    Tensor* out = net->getSessionOutput(session, "out");
    ASSERT_NE(out, nullptr);
    Tensor host(out, Tensor::CAFFE, true);
    ASSERT_TRUE(out->copyToHostTensor(&host));
    const float bias[3] = {100, 200, 300};
    for (int k = 0; k < 3; ++k) {
        for (int y = 0; y < oh; ++y) {
            for (int x = 0; x < ow; ++x) {
                float v = src[((size_t)(2 * y) * iw + 2 * x) * 4 + (2 - k)];  // B, G, R from RGBA
                float e = (v - mean[k]) * normal[k] + bias[k];
                EXPECT_FLOAT_EQ(host.host<float>()[((size_t)k * oh + y) * ow + x], e) << k << "," << y << "," << x;
            }
        }
    }
}
