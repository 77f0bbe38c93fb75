// Unsupported ops are all listed at once; MNNConvert exits non-zero with the list and on bad args.
#include <stdlib.h>
#include <sys/wait.h>
#include <fstream>
#include <sstream>
#include "Npy.hpp"
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;

static OnnxBuilder modelWithUnsupported() {
    OnnxBuilder b(17);
    b.input("x", {4});
    b.node("Relu", {"x"}, {"r"}, "relu");
    b.node("FancyNewOp", {"r"}, {"f"}, "fancy_1");
    b.node("Add", {"f", "x"}, {"a"}, "add");
    auto n = b.node("Mystery", {"a"}, {"y"}, "mystery_2");
    n->set_domain("com.example");
    b.output("y");
    return b;
}

TEST(ConverterUnsupported, EveryUnsupportedOpListed) {
    auto r = convert(modelWithUnsupported());
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.model.empty());
    ASSERT_EQ(r.unsupported.size(), 2u);
    EXPECT_EQ(r.unsupported[0], std::make_pair(std::string("FancyNewOp"), std::string("fancy_1")));
    EXPECT_EQ(r.unsupported[1], std::make_pair(std::string("com.example.Mystery"), std::string("mystery_2")));
    EXPECT_NE(r.error.find("2 unsupported"), std::string::npos);
}

TEST(ConverterUnsupported, UnsupportedAttributeValueListed) {
    OnnxBuilder b(17);
    b.initializerInt64("size", {}, {8});
    auto n = b.node("HannWindow", {"size"}, {"y"}, "window_int");
    OnnxBuilder::attr(n, "output_datatype", (int64_t)onnx::TensorProto::INT32);
    b.output("y", onnx::TensorProto::INT32);
    auto r = convert(b);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.unsupported.size(), 1u);
    EXPECT_EQ(r.unsupported[0].first, "HannWindow");
    EXPECT_EQ(r.unsupported[0].second, "window_int");
    EXPECT_NE(r.error.find("output_datatype"), std::string::npos);
}

namespace {
struct Run {
    int code;
    std::string output;
};
Run runConvert(const std::string& args) {
    std::string exe = std::string(MNN_BINARY_DIR) + "/tools/converter/MNNConvert";
    auto dir = tempDir("cli");
    std::string log = dir + "/log.txt";
    int status = system((exe + " " + args + " > " + log + " 2>&1").c_str());
    std::ifstream f(log);
    std::stringstream ss;
    ss << f.rdbuf();
    if (hasSanitizerReport(ss.str())) {
        ADD_FAILURE() << "MNNConvert hit a sanitizer check:\n" << ss.str();
    }
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ss.str()};
}
}  // namespace

TEST(ConverterCli, UnsupportedListAndExitCode) {
    auto dir = tempDir("cli_model");
    auto b = modelWithUnsupported();
    {
        std::ofstream f(dir + "/m.onnx", std::ios::binary);
        auto s = b.bytes();
        f.write(s.data(), (std::streamsize)s.size());
    }
    auto r = runConvert("-f ONNX --modelFile " + dir + "/m.onnx --MNNModel " + dir + "/m.mnn");
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.output.find("FancyNewOp"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("fancy_1"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("mystery_2"), std::string::npos) << r.output;
    std::ifstream written(dir + "/m.mnn");
    EXPECT_FALSE(written.good());
}

TEST(ConverterCli, ConvertsAndReportsInfo) {
    auto dir = tempDir("cli_ok");
    OnnxBuilder b(13);
    b.input("x", {-1, 4}, onnx::TensorProto::FLOAT, {"batch", ""});
    b.initializer("w", {4}, {1, 2, 3, 4});
    b.node("Mul", {"x", "w"}, {"y"});
    b.output("y");
    {
        std::ofstream f(dir + "/m.onnx", std::ios::binary);
        auto s = b.bytes();
        f.write(s.data(), (std::streamsize)s.size());
    }
    auto r = runConvert("-f ONNX --modelFile " + dir + "/m.onnx --MNNModel " + dir +
                        "/m.mnn --bizCode TestBiz --info "
                        "--inputShape x:2x4");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("TestBiz"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("x DT_FLOAT [2,4]"), std::string::npos) << r.output;
    std::unique_ptr<Interpreter> net(Interpreter::createFromFile((dir + "/m.mnn").c_str()));
    ASSERT_NE(net, nullptr);
    EXPECT_STREQ(net->bizCode(), "TestBiz");
}

TEST(ConverterCli, BadArgumentsFail) {
    EXPECT_NE(runConvert("").code, 0);
    EXPECT_EQ(runConvert("--help").code, 0);
    auto missing = runConvert("-f ONNX --modelFile /nonexistent/x.onnx --MNNModel /tmp/x.mnn");
    EXPECT_NE(missing.code, 0);
    EXPECT_NE(missing.output.find("/nonexistent/x.onnx"), std::string::npos);
    EXPECT_NE(runConvert("-f TF --modelFile a --MNNModel b").code, 0);
    EXPECT_NE(runConvert("-f ONNX --modelFile a").code, 0);
    EXPECT_NE(runConvert("-f ONNX --modelFile a --MNNModel b --weightQuantBits 4").code, 0);
    EXPECT_NE(runConvert("-f ONNX --modelFile a --MNNModel b --inputShape x:1xq").code, 0);
    EXPECT_NE(runConvert("-f ONNX --modelFile a --MNNModel b --bogus").code, 0);
    EXPECT_NE(runConvert("-f ONNX --modelFile").code, 0);
}

TEST(ConverterCli, Fp16LogsWhatStaysFloat) {
    auto dir = tempDir("cli_fp16");
    OnnxBuilder b(13);
    b.input("x", {2, 64});
    b.initializer("w", {64, 64}, randomFloats(64 * 64, 61));
    b.node("MatMul", {"x", "w"}, {"y"});
    b.output("y");
    {
        std::ofstream f(dir + "/m.onnx", std::ios::binary);
        auto s = b.bytes();
        f.write(s.data(), (std::streamsize)s.size());
    }
    auto base = "-f ONNX --modelFile " + dir + "/m.onnx --MNNModel " + dir + "/m.mnn --fp16 --info";
    auto r = runConvert(base);
    EXPECT_EQ(r.code, 0) << r.output;
    // one MatMul: fp16 rounding moves y by ~2e-4, under the default 2e-3 target
    EXPECT_NE(r.output.find("fp16: 0 of 1 weights kept float (0 bytes), 1 fp16 (8192 bytes)"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("weights (rank >= 2): 1 fp16 (8192 bytes), 0 float (0 bytes)"), std::string::npos)
        << r.output;
    // a target below the rounding error keeps it float
    r = runConvert(base + " --fp16Target 1e-9");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("fp16: 1 of 1 weights kept float (16384 bytes)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("0 fp16 (0 bytes), 1 float (16384 bytes)"), std::string::npos) << r.output;
    r = runConvert(base + " --fp16Target 0");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("none measured: fp16Target is 0"), std::string::npos) << r.output;
    // with an all-zero calibration input the rounding cannot show, even at that target
    std::vector<float> zeros(2 * 64, 0.0f);
    std::string err;
    ASSERT_TRUE(Npy::write(dir + "/zeros.npy", Npy::Array::of<float>({2, 64}, zeros.data()), &err)) << err;
    r = runConvert(base + " --fp16Target 1e-9 --fp16Input x=" + dir + "/zeros.npy");
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("fp16: 0 of 1 weights kept float"), std::string::npos) << r.output;
    r = runConvert(base + " --fp16Input y=" + dir + "/zeros.npy");  // not an input
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.output.find("calibration input y is not an input of the model"), std::string::npos) << r.output;
    EXPECT_NE(runConvert(base + " --fp16Target x").code, 0);
    EXPECT_NE(runConvert(base + " --fp16Target -1").code, 0);
    EXPECT_NE(runConvert(base + " --fp16Input x").code, 0);
    EXPECT_NE(runConvert(base + " --fp16Input x=" + dir + "/missing.npy").code, 0);
}
