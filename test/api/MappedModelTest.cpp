// createFromFile maps the model file and gives back a constant's pages once every op reading it
// is resized (peak memory holds the weights once). The results must not change: after the pages
// are dropped, re-planning (resize to a new batch, which re-packs Gemm weights), a second session
// and releaseModel all read the weights again from the file.
#include <MNN/Interpreter.hpp>
#include <fstream>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

// conv 3x3 (32 -> 64, 147 KB of weights) -> relu -> global pool -> flatten -> gemm (64 -> 500, 128 KB)
std::vector<uint8_t> weightyModel() {
    ModelBuilder mb;
    mb.input("x", {-1, 32, 9, 9});
    mb.constant("w", {64, 32, 3, 3}, randomFloats(64 * 32 * 9, 1, -0.2f, 0.2f));
    mb.constant("b", {64}, randomFloats(64, 2));
    auto conv = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", "b"}, {"c"});
    Schema::ConvParamT cp;
    cp.kernel = {3, 3};
    cp.strides = {1, 1};
    cp.dilations = {1, 1};
    cp.pads = {1, 1, 1, 1};
    cp.activation = Schema::FusedActivation::RELU;
    conv->param.Set(cp);
    auto pool = mb.op(Schema::OpType::Pooling, "pool", {"c"}, {"p"});
    Schema::PoolParamT pp;
    pp.type = Schema::PoolType::AVERAGEPOOL;
    pp.global = true;
    pool->param.Set(pp);
    auto flat = mb.op(Schema::OpType::Flatten, "flat", {"p"}, {"f"});
    Schema::AxisParamT ap;
    ap.axis = 1;
    flat->param.Set(ap);
    mb.constant("fw", {500, 64}, randomFloats(500 * 64, 3, -0.3f, 0.3f));
    mb.constant("fb", {500}, randomFloats(500, 4));
    auto gemm = mb.op(Schema::OpType::Gemm, "fc", {"f", "fw", "fb"}, {"y"});
    Schema::GemmParamT gp;
    gp.transB = true;
    gemm->param.Set(gp);
    mb.output("y");
    return mb.finish();
}

std::vector<float> runOnce(Interpreter* net, Session* s, int batch) {
    auto in = net->getSessionInput(s, "x");
    if (in->length(0) != batch) {
        net->resizeTensor(in, {batch, 32, 9, 9});
        net->resizeSession(s);
    }
    auto x = makeTensor({batch, 32, 9, 9}, randomFloats((size_t)batch * 32 * 81, 9));
    in->copyFromHostTensor(x.get());
    EXPECT_EQ(net->runSession(s), NO_ERROR);
    auto y = net->getSessionOutput(s, "y");
    Tensor host(y, Tensor::CAFFE, true);
    y->copyToHostTensor(&host);
    return std::vector<float>(host.host<float>(), host.host<float>() + host.elementSize());
}

}  // namespace

TEST(MappedModel, DroppedWeightPagesReadBackOnResizeSecondSessionAndRelease) {
    auto buf = weightyModel();
    auto path = tempDir("mapped") + "/weighty.mnn";
    {
        std::ofstream f(path, std::ios::binary);
        f.write((const char*)buf.data(), (std::streamsize)buf.size());
    }
    std::unique_ptr<Interpreter> fromBuffer(Interpreter::createFromBuffer(buf.data(), buf.size()));
    std::unique_ptr<Interpreter> fromFile(Interpreter::createFromFile(path.c_str()));
    ASSERT_NE(fromBuffer, nullptr);
    ASSERT_NE(fromFile, nullptr);
    ScheduleConfig config;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_High;
    config.backendConfig = &bc;
    auto sb = fromBuffer->createSession(config);
    auto sf = fromFile->createSession(config);
    ASSERT_NE(sb, nullptr);
    ASSERT_NE(sf, nullptr);
    for (int batch : {1, 3, 1}) {
        EXPECT_EQ(runOnce(fromFile.get(), sf, batch), runOnce(fromBuffer.get(), sb, batch)) << "batch " << batch;
    }
    // a second session of the mapped model packs the weights again from the file
    auto sf2 = fromFile->createSession(config);
    ASSERT_NE(sf2, nullptr);
    EXPECT_EQ(runOnce(fromFile.get(), sf2, 2), runOnce(fromBuffer.get(), sb, 2));
    // releaseModel copies what the sessions read in place, then unmaps the file
    fromFile->releaseModel();
    EXPECT_EQ(fromFile->getModelBuffer().first, nullptr);
    for (int batch : {2, 4}) {
        EXPECT_EQ(runOnce(fromFile.get(), sf, batch), runOnce(fromBuffer.get(), sb, batch)) << "batch " << batch;
    }
}
