// Tests of MNNRun, MNNInfo and MNNBenchmark: small models built here, the tool binaries run on
// them, their stdout / exit codes / written .npy files checked against hand-computed values.
// Built only with the tools (test/CMakeLists.txt passes the binaries' paths).
#if defined(MNN_TOOL_RUN) && defined(MNN_TOOL_INFO) && defined(MNN_TOOL_BENCHMARK)
#include <math.h>
#include <string.h>
#include <chrono>
#include <regex>
#include <set>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"
#include "ToolTestUtils.hpp"
#include "common/Npy.hpp"
#include "common/ToolCommon.hpp"
#include "core/SessionIntrospect.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

void setBinary(Schema::OpT* op, Schema::BinaryOpType type) {
    Schema::BinaryParamT p;
    p.type = type;
    op->param.Set(p);
}

// y = (x + c1) * c2 - c3 with x [2,3], c1 [3] = {1,2,3}, c2 [1] = {2}, c3 [2,1] = {0.5,-1};
// the first op's output is named "t/1:0" (needs a safe file name). Unused constants of other
// encodings (fp16, int64, int8 per channel) exercise MNNInfo's weight report.
std::vector<uint8_t> chainModel() {
    ModelBuilder mb;
    mb.net().bizCode = "testbiz";
    mb.net().uuid = "1234-abcd";
    mb.input("x", {2, 3});
    mb.constant("c1", {3}, {1, 2, 3});
    mb.constant("c2", {1}, {2});
    mb.constant("c3", {2, 1}, {0.5f, -1});
    setBinary(mb.op(Schema::OpType::BinaryOp, "add1", {"x", "c1"}, {"t/1:0"}), Schema::BinaryOpType::ADD);
    setBinary(mb.op(Schema::OpType::BinaryOp, "mul1", {"t/1:0", "c2"}, {"mid"}), Schema::BinaryOpType::MUL);
    setBinary(mb.op(Schema::OpType::BinaryOp, "sub1", {"mid", "c3"}, {"y"}), Schema::BinaryOpType::SUB);
    mb.output("y");
    uint16_t half[4] = {0x3C00, 0x4000, 0x4200, 0x4400};  // 1, 2, 3, 4
    mb.constantRaw("w16", {4}, Schema::DataType::DT_FLOAT16, half, sizeof(half));
    mb.constantInt64("idx", {2}, {0, 1});
    int8_t q[4] = {1, -2, 3, -4};
    mb.constantRaw("wq", {2, 2}, Schema::DataType::DT_FLOAT, q, sizeof(q));
    mb.net().constants.back()->compression = Schema::Compression::INT8_PER_CHANNEL;
    mb.net().constants.back()->scales = {0.5f, 0.25f};
    return mb.finish();
}

std::vector<float> chainReference(const std::vector<float>& x) {
    const float c1[3] = {1, 2, 3}, c3[2] = {0.5f, -1};
    std::vector<float> y(6);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            y[i * 3 + j] = (x[i * 3 + j] + c1[j]) * 2.0f - c3[i];
        }
    }
    return y;
}

// three elementwise ops over x [2,1000,1000] with [1] constants: 2e6 FLOPs each
std::vector<uint8_t> flopsModel() {
    ModelBuilder mb;
    mb.input("x", {2, 1000, 1000});
    mb.constant("a", {1}, {1});
    mb.constant("b", {1}, {3});
    setBinary(mb.op(Schema::OpType::BinaryOp, "f1", {"x", "a"}, {"f1_out"}), Schema::BinaryOpType::ADD);
    setBinary(mb.op(Schema::OpType::BinaryOp, "f2", {"f1_out", "b"}, {"f2_out"}), Schema::BinaryOpType::MUL);
    setBinary(mb.op(Schema::OpType::BinaryOp, "f3", {"f2_out", "f1_out"}, {"z"}), Schema::BinaryOpType::MAXIMUM);
    mb.output("z");
    return mb.finish();
}

// conv (3x3, pads 1, bias) -> relu -> add a per-channel constant; x [1,C,H,W], w [M,C,3,3]
const int kC = 16, kM = 32, kH = 64, kW = 64;

std::vector<uint8_t> convModel(const std::vector<float>& w, const std::vector<float>& b, const std::vector<float>& k) {
    ModelBuilder mb;
    mb.input("x", {1, kC, kH, kW});
    mb.constant("w", {kM, kC, 3, 3}, w);
    mb.constant("b", {kM}, b);
    mb.constant("k", {kM, 1, 1}, k);
    auto conv = mb.op(Schema::OpType::Convolution, "conv", {"x", "w", "b"}, {"c"});
    Schema::ConvParamT cp;
    cp.kernel = {3, 3};
    cp.strides = {1, 1};
    cp.dilations = {1, 1};
    cp.pads = {1, 1, 1, 1};
    conv->param.Set(cp);
    auto relu = mb.op(Schema::OpType::UnaryOp, "relu", {"c"}, {"r"});
    Schema::UnaryParamT up;
    up.type = Schema::UnaryOpType::RELU;
    relu->param.Set(up);
    setBinary(mb.op(Schema::OpType::BinaryOp, "add", {"r", "k"}, {"z"}), Schema::BinaryOpType::ADD);
    mb.output("z");
    return mb.finish();
}

// the same computation written directly
std::vector<float> convReference(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b,
                                 const std::vector<float>& k) {
    std::vector<float> z((size_t)kM * kH * kW);
    for (int m = 0; m < kM; ++m) {
        for (int i = 0; i < kH; ++i) {
            for (int j = 0; j < kW; ++j) {
                double acc = b[m];
                for (int c = 0; c < kC; ++c) {
                    for (int di = 0; di < 3; ++di) {
                        for (int dj = 0; dj < 3; ++dj) {
                            int y = i + di - 1, xx = j + dj - 1;
                            if (y >= 0 && y < kH && xx >= 0 && xx < kW) {
                                acc += (double)x[((size_t)c * kH + y) * kW + xx] * w[((m * kC + c) * 3 + di) * 3 + dj];
                            }
                        }
                    }
                }
                z[((size_t)m * kH + i) * kW + j] = (float)(acc > 0 ? acc : 0) + k[m];
            }
        }
    }
    return z;
}

class ToolsTest : public ::testing::Test {
protected:
    void SetUp() override {
        mDir = tempDir("tools");
        mModel = mDir + "/chain.mnn";
        ASSERT_TRUE(writeFileBytes(mModel, chainModel()));
    }
    std::string path(const std::string& name) const {
        return mDir + "/" + name;
    }
    void writeArray(const std::string& file, const Npy::Array& a) {
        std::string error;
        ASSERT_TRUE(Npy::write(file, a, &error)) << error;
    }
    Npy::Array readArray(const std::string& file) {
        Npy::Array a;
        std::string error;
        EXPECT_TRUE(Npy::read(file, &a, &error)) << error;
        return a;
    }
    ToolResult run(const std::vector<std::string>& args) {
        return runTool(MNN_TOOL_RUN, args, mDir);
    }
    ToolResult info(const std::vector<std::string>& args) {
        return runTool(MNN_TOOL_INFO, args, mDir);
    }
    ToolResult bench(const std::vector<std::string>& args) {
        return runTool(MNN_TOOL_BENCHMARK, args, mDir);
    }
    std::string mDir;
    std::string mModel;
    const std::vector<float> mX = {1, 2, 3, 4, 5, 6};
};

}  // namespace

// ---------------- the introspection accessor ----------------

TEST(SessionIntrospect, AlgorithmsOpsAndActivationBytes) {
    auto model = chainModel();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    config.numThread = 1;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    ASSERT_NE(SessionIntrospect::algorithmOf(session, "mul1"), nullptr);
    // float32 binary ops take the table's vector kernel
    EXPECT_EQ(std::string(SessionIntrospect::algorithmOf(session, "mul1")).rfind("binary_f32__", 0), 0u);
    EXPECT_EQ(SessionIntrospect::algorithmOf(session, "nosuch"), nullptr);
    EXPECT_EQ(SessionIntrospect::algorithmOf(nullptr, "mul1"), nullptr);
    auto ops = SessionIntrospect::ops(session);
    ASSERT_EQ(ops.size(), 3u);
    EXPECT_EQ(ops[0].name, "add1");
    EXPECT_EQ(ops[1].name, "mul1");
    EXPECT_EQ(ops[2].name, "sub1");
    EXPECT_EQ(ops[1].type, "BinaryOp");
    EXPECT_EQ(ops[0].outputs, std::vector<std::string>{"t/1:0"});
    EXPECT_EQ(ops[1].inputs, (std::vector<std::string>{"t/1:0", "c2"}));
    EXPECT_EQ(ops[2].outputShapes[0], (std::vector<int>{2, 3}));
    EXPECT_EQ(ops[2].outputTypes[0], "float32");
    EXPECT_EQ(ops[0].flops, 6.0);
    EXPECT_EQ(ops[0].forwardType, (int)MNN_FORWARD_CPU);
    // t/1:0 (24 bytes) and mid are live together, then y: at least two 24-byte tensors
    EXPECT_GE(SessionIntrospect::activationBytes(session), 48);
    EXPECT_EQ(SessionIntrospect::activationBytes(nullptr), 0);
}

// ---------------- MNNRun ----------------

TEST_F(ToolsTest, RunWritesOutputEqualToHandComputedValue) {
    writeArray(path("x.npy"), floatArray({2, 3}, mX));
    auto r = run({mModel, "--input", "x=" + path("x.npy"), "--output-dir", path("out")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Output y: 2x3 float32"), std::string::npos) << r.out;
    auto y = readArray(path("out/y.npy"));
    EXPECT_TRUE(y.is<float>());
    EXPECT_EQ(y.shape, (std::vector<int64_t>{2, 3}));
    // (x + [1,2,3]) * 2 - [[0.5],[-1]]
    EXPECT_TRUE(allClose(floatsOf(y), {3.5f, 7.5f, 11.5f, 11, 15, 19}, 0, 0));
}

TEST_F(ToolsTest, RunSingleInputWithoutNameAndResizesToTheArray) {
    std::vector<float> x = {0, -1, 2, 0.5f, 1, -3, 7, 8, 9, 10, 11, 12};
    // [2,2,3] broadcasts against c3 [2,1]: each [2,3] block is the chain applied to it
    writeArray(path("x3.npy"), floatArray({2, 2, 3}, x));
    auto r = run({mModel, "--input", path("x3.npy"), "--output-dir", path("o3")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    auto y = readArray(path("o3/y.npy"));
    ASSERT_EQ(y.shape, (std::vector<int64_t>{2, 2, 3}));
    std::vector<float> expect;
    for (int b = 0; b < 2; ++b) {
        auto part = chainReference(std::vector<float>(x.begin() + 6 * b, x.begin() + 6 * b + 6));
        expect.insert(expect.end(), part.begin(), part.end());
    }
    EXPECT_TRUE(allClose(floatsOf(y), expect, 0, 0));
}

TEST_F(ToolsTest, RunRandomInputsAreSeededAndConsistentWithDump) {
    auto r1 = run({mModel, "--dump-all", path("d1")});
    ASSERT_EQ(r1.exitCode, 0) << r1.out << r1.err;
    auto r2 = run({mModel, "--dump-all", path("d2")});
    ASSERT_EQ(r2.exitCode, 0) << r2.out << r2.err;
    auto x1 = readArray(path("d1/x.npy")), x2 = readArray(path("d2/x.npy"));
    EXPECT_EQ(x1.raw, x2.raw);
    // the random values are not all equal, and y is the model applied to them
    auto xs = floatsOf(x1);
    ASSERT_EQ(xs.size(), 6u);
    EXPECT_NE(xs[0], xs[1]);
    for (float v : xs) {
        EXPECT_TRUE(v >= -1.0f && v < 1.0f) << v;
    }
    EXPECT_TRUE(allClose(floatsOf(readArray(path("d1/y.npy"))), chainReference(xs), 1e-6f, 1e-6f));
    auto r3 = run({mModel, "--seed", "7", "--dump-all", path("d3")});
    ASSERT_EQ(r3.exitCode, 0);
    EXPECT_NE(readArray(path("d3/x.npy")).raw, x1.raw);
}

TEST_F(ToolsTest, RunDumpAllWritesEveryIntermediateUnderSafeNames) {
    writeArray(path("x.npy"), floatArray({2, 3}, mX));
    auto r = run({mModel, "--input", "x=" + path("x.npy"), "--dump-all", path("dump")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // "t/1:0" -> t%2F1%3A0.npy
    EXPECT_TRUE(allClose(floatsOf(readArray(path("dump/t%2F1%3A0.npy"))), {2, 4, 6, 5, 7, 9}, 0, 0));
    EXPECT_TRUE(allClose(floatsOf(readArray(path("dump/mid.npy"))), {4, 8, 12, 10, 14, 18}, 0, 0));
    EXPECT_TRUE(allClose(floatsOf(readArray(path("dump/y.npy"))), {3.5f, 7.5f, 11.5f, 11, 15, 19}, 0, 0));
    EXPECT_TRUE(allClose(floatsOf(readArray(path("dump/x.npy"))), mX, 0, 0));
}

TEST_F(ToolsTest, RunCompareAgainstCorrectReferencePasses) {
    writeArray(path("x.npy"), floatArray({2, 3}, mX));
    Tools::makeDirs(path("ref"));
    writeArray(path("ref/y.npy"), floatArray({2, 3}, {3.5f, 7.5f, 11.5f, 11, 15, 19.00001f}));
    writeArray(path("ref/t%2F1%3A0.npy"), floatArray({2, 3}, {2, 4, 6, 5, 7, 9}));
    auto r = run({mModel, "--input", "x=" + path("x.npy"), "--compare", path("ref")});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("y: PASS"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Intermediates: all 2 op outputs with references match"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Result: PASS"), std::string::npos) << r.out;
    // the same reference fails with a tolerance tighter than its 1e-5 error
    auto tight = run({mModel, "--input", "x=" + path("x.npy"), "--compare", path("ref"), "--rtol", "0", "--atol", "0"});
    EXPECT_EQ(tight.exitCode, 1) << tight.out;
    EXPECT_NE(tight.out.find("y: FAIL"), std::string::npos) << tight.out;
}

TEST_F(ToolsTest, RunCompareNamesFirstDivergingOp) {
    writeArray(path("x.npy"), floatArray({2, 3}, mX));
    Tools::makeDirs(path("ref"));
    // correct first intermediate, wrong second one, wrong output
    writeArray(path("ref/t%2F1%3A0.npy"), floatArray({2, 3}, {2, 4, 6, 5, 7, 9}));
    writeArray(path("ref/mid.npy"), floatArray({2, 3}, {4, 8, 12, 10, 15, 18}));
    writeArray(path("ref/y.npy"), floatArray({2, 3}, {3.5f, 7.5f, 11.5f, 11, 16, 19}));
    auto r = run({mModel, "--input", "x=" + path("x.npy"), "--compare", path("ref")});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("y: FAIL"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("First diverging op: mul1 (BinaryOp), output mid"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("max abs err 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Result: FAIL"), std::string::npos) << r.out;
}

TEST_F(ToolsTest, RunCompareOnlyOutputReferenceWrong) {
    writeArray(path("x.npy"), floatArray({2, 3}, mX));
    Tools::makeDirs(path("ref"));
    writeArray(path("ref/y.npy"), floatArray({2, 3}, {3.5f, 7.5f, 11.5f, 11, 15, -19}));
    auto r = run({mModel, "--input", "x=" + path("x.npy"), "--compare", path("ref")});
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("First diverging op: sub1 (BinaryOp), output y"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("max abs err 38"), std::string::npos) << r.out;
    // a reference of another shape fails too
    writeArray(path("ref/y.npy"), floatArray({3, 2}, {3.5f, 7.5f, 11.5f, 11, 15, 19}));
    auto s = run({mModel, "--input", "x=" + path("x.npy"), "--compare", path("ref")});
    EXPECT_EQ(s.exitCode, 1) << s.out;
    EXPECT_NE(s.out.find("vs reference 3x2"), std::string::npos) << s.out;
}

TEST_F(ToolsTest, RunCompareMissingReferenceFails) {
    Tools::makeDirs(path("empty"));
    auto r = run({mModel, "--compare", path("empty")});
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("no reference"), std::string::npos) << r.out;
}

TEST_F(ToolsTest, RunProfilePrintsPerOpTable) {
    auto r = run({mModel, "--profile", "--loop", "3"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Per-op profile (3 runs"), std::string::npos) << r.out;
    for (auto op : {"add1", "mul1", "sub1"}) {
        EXPECT_NE(r.out.find(op), std::string::npos) << op;
    }
    EXPECT_NE(r.out.find("binary_f32__"), std::string::npos) << r.out;  // the algorithm column
    EXPECT_NE(r.out.find("Per-type summary"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\nBinaryOp +3 +[0-9.]+ +100\\.00%"))) << r.out;
}

TEST_F(ToolsTest, RunZeroSizeInput) {
    ASSERT_TRUE(writeFileBytes(path("flops.mnn"), flopsModel()));
    auto r = run({path("flops.mnn"), "--input-shape", "x:2x0x5", "--output-dir", path("oz")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    auto z = readArray(path("oz/z.npy"));
    EXPECT_EQ(z.shape, (std::vector<int64_t>{2, 0, 5}));
    EXPECT_EQ(z.count(), 0);
    EXPECT_TRUE(z.raw.empty());
}

TEST_F(ToolsTest, ConvReluAddRunInfoAndProfile) {
    auto w = randomFloats((size_t)kM * kC * 9, 11, -0.3f, 0.3f);
    auto b = randomFloats(kM, 12);
    auto k = randomFloats(kM, 13);
    auto x = randomFloats((size_t)kC * kH * kW, 14);
    ASSERT_TRUE(writeFileBytes(path("conv.mnn"), convModel(w, b, k)));
    writeArray(path("cx.npy"), floatArray({1, kC, kH, kW}, x));
    auto r = run({path("conv.mnn"), "--input", "x=" + path("cx.npy"), "--output-dir", path("co"), "--threads", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    auto z = readArray(path("co/z.npy"));
    ASSERT_EQ(z.shape, (std::vector<int64_t>{1, kM, kH, kW}));
    EXPECT_TRUE(allClose(floatsOf(z), convReference(x, w, b, k), 1e-4f, 1e-4f));

    // conv: 2 * (M*H*W outputs) * (C*3*3) multiply-adds; relu and add: one per element
    double outputs = (double)kM * kH * kW;
    double convFlops = 2.0 * outputs * kC * 9;
    double total = convFlops + 2 * outputs;
    char line[64];
    snprintf(line, sizeof(line), "Total FLOPs: %.3f GFLOPs\n", total / 1e9);
    auto i = info({path("conv.mnn")});
    ASSERT_EQ(i.exitCode, 0) << i.out << i.err;
    EXPECT_NE(i.out.find(line), std::string::npos) << line << i.out;
    EXPECT_EQ(std::string(line), "Total FLOPs: 0.038 GFLOPs\n");
    char convLine[64];
    snprintf(convLine, sizeof(convLine), "%.6f", convFlops / 1e6);
    EXPECT_TRUE(std::regex_search(i.out, std::regex(std::string("\\n  conv +Convolution +") + convLine)))
        << convLine << i.out;
    EXPECT_NE(i.out.find("Parameters: " + std::to_string(kM * kC * 9 + 2 * kM) + "\n"), std::string::npos) << i.out;
    EXPECT_NE(i.out.find("Weights: fp32 " + std::to_string(4 * (kM * kC * 9 + 2 * kM)) + " bytes"), std::string::npos);
    EXPECT_TRUE(std::regex_search(i.out, std::regex("\\n  Convolution +1\\n"))) << i.out;
    EXPECT_TRUE(std::regex_search(i.out, std::regex("\\n  UnaryOp +1\\n"))) << i.out;

    auto p = run({path("conv.mnn"), "--profile", "--loop", "2"});
    ASSERT_EQ(p.exitCode, 0) << p.out << p.err;
    // every op has a row, with its type, and the rows are sorted by time (longest first); which op is
    // slowest is not asserted: a busy machine can stall any of them
    auto at = p.out.find("Per-op profile");
    ASSERT_NE(at, std::string::npos) << p.out;
    auto table = p.out.substr(at);
    std::regex row("\n(conv|relu|add) +(Convolution|UnaryOp|BinaryOp) +.*? +([0-9.]+) +([0-9.]+)%");
    std::vector<std::string> names;
    std::vector<double> times;
    for (std::sregex_iterator it(table.begin(), table.end(), row), end; it != end; ++it) {
        names.push_back((*it)[1]);
        times.push_back(std::stod((*it)[3]));
    }
    ASSERT_EQ(names.size(), 3u) << table;
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), (std::set<std::string>{"conv", "relu", "add"}))
        << table;
    EXPECT_GE(times[0], times[1]) << table;
    EXPECT_GE(times[1], times[2]) << table;
}

// The bundled example (a small CNN converted from ONNX) against PyTorch's output.
TEST_F(ToolsTest, BundledSmallCnnMatchesPyTorch) {
    std::string models = std::string(MNN_SOURCE_DIR) + "/examples/models";
    if (!Tools::fileExists(models + "/small_cnn.mnn")) {
        GTEST_SKIP() << "examples/models/small_cnn.mnn is not there";
    }
    Tools::makeDirs(path("torch"));
    ASSERT_TRUE(writeFileBytes(path("torch/probabilities.npy"), readFileBytes(models + "/small_cnn_output.npy")));
    auto r = run({models + "/small_cnn.mnn", "--input", "input=" + models + "/small_cnn_input.npy", "--compare",
                  path("torch"), "--rtol", "1e-4", "--atol", "1e-5"});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("probabilities: PASS"), std::string::npos) << r.out;
    auto i = info({models + "/small_cnn.mnn"});
    ASSERT_EQ(i.exitCode, 0) << i.err;
    // first conv: 16x32x32 outputs x 2*3*3*3; second: 32x8x8 outputs x 2*16*3*3
    EXPECT_TRUE(std::regex_search(i.out, std::regex("Convolution +0\\.884736 "))) << i.out;
    EXPECT_TRUE(std::regex_search(i.out, std::regex("Convolution +0\\.589824 "))) << i.out;
    EXPECT_TRUE(std::regex_search(i.out, std::regex("\\n  Convolution +3\\n"))) << i.out;
    EXPECT_NE(i.out.find("bizCode: example\n"), std::string::npos);
}

TEST_F(ToolsTest, RunBadArguments) {
    auto help = run({"--help"});
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_NE(help.out.find("Usage: MNNRun"), std::string::npos);
    auto none = run({});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("no model file"), std::string::npos) << none.err;
    auto unknown = run({mModel, "--bogus"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("unknown option --bogus"), std::string::npos) << unknown.err;
    auto badNumber = run({mModel, "--rtol", "abc"});
    EXPECT_EQ(badNumber.exitCode, 2) << badNumber.err;
    auto badForward = run({mModel, "--forward", "tpu"});
    EXPECT_EQ(badForward.exitCode, 2) << badForward.err;
    auto missingValue = run({mModel, "--output-dir"});
    EXPECT_EQ(missingValue.exitCode, 2) << missingValue.err;
    auto missing = run({path("nope.mnn")});
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_NE(missing.err.find("model file not found"), std::string::npos) << missing.err;
    auto missingInput = run({mModel, "--input", "x=" + path("nope.npy")});
    EXPECT_EQ(missingInput.exitCode, 3);
    EXPECT_NE(missingInput.err.find("cannot open"), std::string::npos) << missingInput.err;
    writeArray(path("x.npy"), floatArray({2, 3}, mX));
    auto wrongName = run({mModel, "--input", "q=" + path("x.npy")});
    EXPECT_EQ(wrongName.exitCode, 3);
    EXPECT_NE(wrongName.err.find("no input 'q'"), std::string::npos) << wrongName.err;
    ASSERT_TRUE(writeFileBytes(path("junk.mnn"), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
    auto junk = run({path("junk.mnn")});
    EXPECT_EQ(junk.exitCode, 3);
    EXPECT_NE(junk.err.find("could not load model"), std::string::npos) << junk.err;
    auto noCompareDir = run({mModel, "--compare", path("nodir")});
    EXPECT_EQ(noCompareDir.exitCode, 3) << noCompareDir.err;
}

// ---------------- MNNInfo ----------------

TEST_F(ToolsTest, InfoSummaryCountsWeightsAndMetadata) {
    auto r = info({mModel});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Version: test\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bizCode: testbiz\n"), std::string::npos);
    EXPECT_NE(r.out.find("uuid: 1234-abcd\n"), std::string::npos);
    EXPECT_NE(r.out.find("Ops: 3 (1 types)"), std::string::npos) << r.out;
    // float constants: c1 3 + c2 1 + c3 2 + w16 4 + wq 4 (int8-encoded floats)
    EXPECT_NE(r.out.find("Parameters: 14\n"), std::string::npos) << r.out;
    // 18 elementwise FLOPs
    EXPECT_NE(r.out.find("Total FLOPs: 0.000 GFLOPs\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Weights: fp32 24 bytes, fp16 8 bytes, int8 4 bytes (+8 bytes of scales), other 16 bytes"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  x: 2x3 float32"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  y: 2x3 float32"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n  BinaryOp +3\\n"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n  add1 +BinaryOp +0\\.000006 "))) << r.out;
    // the summary comes first
    EXPECT_LT(r.out.find("Total FLOPs"), r.out.find("Inputs:"));
}

TEST_F(ToolsTest, InfoFlopsAndInputShape) {
    ASSERT_TRUE(writeFileBytes(path("flops.mnn"), flopsModel()));
    auto r = info({path("flops.mnn")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // 3 ops x 2,000,000 elements
    EXPECT_NE(r.out.find("Total FLOPs: 0.006 GFLOPs\n"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n  f2 +BinaryOp +2\\.000000 +33\\.33%"))) << r.out;
    // activations: at least two 8,000,000-byte tensors live at once, at most all three
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("Activation memory: ([0-9.]+) MB")));
    double mbytes = std::stod(m[1]) * 1024 * 1024;
    EXPECT_GE(mbytes, 16e6 - 1e4);
    EXPECT_LE(mbytes, 24e6 + 1e5);
    // 3 x 1234 x 1000 = 3,702,000 elements per op
    auto s = info({path("flops.mnn"), "--input-shape", "x:3x1234x1000"});
    ASSERT_EQ(s.exitCode, 0) << s.out << s.err;
    EXPECT_NE(s.out.find("Total FLOPs: 0.011 GFLOPs\n"), std::string::npos) << s.out;
    EXPECT_TRUE(std::regex_search(s.out, std::regex("\\n  f3 +BinaryOp +3\\.702000 "))) << s.out;
    EXPECT_NE(s.out.find("(session: 3x1234x1000)"), std::string::npos) << s.out;
}

TEST_F(ToolsTest, InfoGraphDot) {
    auto r = info({mModel, "--graph", "dot"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.compare(0, 8, "digraph "), 0) << r.out;
    EXPECT_EQ(r.out.find("Total FLOPs"), std::string::npos);  // stdout holds only the graph
    EXPECT_NE(r.out.find("\"op0\" -> \"op1\" [label=\"t/1:0\\n2x3 float32\"]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"op1\" -> \"op2\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("-> \"op0\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"op2\" -> \"out"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.substr(r.out.size() - 2), "}\n");
    auto f = info({mModel, "--graph", "dot", "--out", path("g.dot")});
    ASSERT_EQ(f.exitCode, 0) << f.err;
    EXPECT_NE(f.out.find("Total FLOPs"), std::string::npos);
    auto bytes = readFileBytes(path("g.dot"));
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), r.out);
}

TEST_F(ToolsTest, InfoBadArguments) {
    EXPECT_EQ(info({"--help"}).exitCode, 0);
    auto svg = info({mModel, "--graph", "svg"});
    EXPECT_EQ(svg.exitCode, 2);
    EXPECT_NE(svg.err.find("--graph supports only 'dot'"), std::string::npos) << svg.err;
    EXPECT_EQ(info({mModel, "--verbose"}).exitCode, 2);
    EXPECT_EQ(info({}).exitCode, 2);
    auto missing = info({path("missing.mnn")});
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_NE(missing.err.find("not found"), std::string::npos);
    auto shape = info({mModel, "--input-shape", "nosuch:1x2"});
    EXPECT_EQ(shape.exitCode, 3);
    EXPECT_NE(shape.err.find("no input 'nosuch'"), std::string::npos) << shape.err;
    // [4,3] does not broadcast with c3 [2,1]
    auto notRunnable = info({mModel, "--input-shape", "x:4x3"});
    EXPECT_EQ(notRunnable.exitCode, 3);
    EXPECT_NE(notRunnable.err.find("does not run at the --input-shape shapes"), std::string::npos) << notRunnable.err;
    auto badShape = info({mModel, "--input-shape", "x:2xq"});
    EXPECT_EQ(badShape.exitCode, 2) << badShape.err;
}

// ---------------- MNNBenchmark ----------------

TEST_F(ToolsTest, BenchmarkFolderJson) {
    Tools::makeDirs(path("models"));
    ASSERT_TRUE(writeFileBytes(path("models/a_chain.mnn"), chainModel()));
    ASSERT_TRUE(writeFileBytes(path("models/b_flops.mnn"), flopsModel()));
    auto r = bench(
        {"--model", path("models"), "--loop", "3", "--warmup", "1", "--threads", "2", "--json", path("bench.json")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("forward: cpu  threads: 2"), std::string::npos) << r.out;
    auto bytes = readFileBytes(path("bench.json"));
    std::string json(bytes.begin(), bytes.end());
    std::regex object(
        "\\{\"model\": \"([^\"]*)\", \"forward\": \"cpu\", \"threads\": 2, \"precision\": \"normal\", "
        "\"loop\": 3, \"warmup\": 1, \"pause_ms\": 0, \"min_ms\": ([0-9.]+), \"max_ms\": ([0-9.]+), \"avg_ms\": "
        "([0-9.]+), "
        "\"median_ms\": ([0-9.]+), \"p90_ms\": ([0-9.]+), \"load_ms\": [0-9.]+, \"session_ms\": [0-9.]+, "
        "\"memory_mb\": ([0-9.]+), \"mflops\": ([0-9.]+)\\}");
    std::vector<std::string> models;
    std::vector<double> mflops;
    for (auto it = std::sregex_iterator(json.begin(), json.end(), object); it != std::sregex_iterator(); ++it) {
        auto& m = *it;
        models.push_back(m[1]);
        double mn = std::stod(m[2]), mx = std::stod(m[3]), avg = std::stod(m[4]), med = std::stod(m[5]);
        EXPECT_LE(mn, med);
        EXPECT_LE(med, mx);
        EXPECT_LE(mn, avg);
        EXPECT_LE(avg, mx);
        EXPECT_GT(std::stod(m[7]), 0);
        mflops.push_back(std::stod(m[8]));
    }
    ASSERT_EQ(models.size(), 2u) << json;
    EXPECT_EQ(models[0], path("models/a_chain.mnn"));
    EXPECT_EQ(models[1], path("models/b_flops.mnn"));
    EXPECT_NEAR(mflops[0], 18e-6, 1e-7);
    EXPECT_NEAR(mflops[1], 6.0, 1e-4);
    EXPECT_EQ(json.front(), '[');
}

TEST_F(ToolsTest, BenchmarkUnavailableForwardFallsBackToCpu) {
    auto r =
        bench({"--model", mModel, "--loop", "2", "--warmup", "0", "--forward", "vulkan", "--json", path("v.json")});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("warning: forward vulkan is not available; running on cpu"), std::string::npos) << r.err;
    auto bytes = readFileBytes(path("v.json"));
    EXPECT_NE(std::string(bytes.begin(), bytes.end()).find("\"forward\": \"cpu\""), std::string::npos);
}

TEST_F(ToolsTest, BenchmarkPausesBeforeEachTimedRun) {
    // 3 timed runs after pauses of 40 ms: the tool takes at least 120 ms, reports the pause, and the
    // pauses are not in the times (were they, no run would take under 40 ms; this model's take
    // microseconds)
    const auto t0 = std::chrono::steady_clock::now();
    auto r = bench({"--model", mModel, "--loop", "3", "--warmup", "1", "--threads", "2", "--pause-ms", "40", "--json",
                    path("p.json")});
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_GE(ms, 120.0);
    EXPECT_NE(r.out.find("3 runs after 1 warmup, each after a pause of 40 ms"), std::string::npos) << r.out;
    auto bytes = readFileBytes(path("p.json"));
    std::string json(bytes.begin(), bytes.end());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(json, m, std::regex("\"pause_ms\": 40, \"min_ms\": ([0-9.]+)"))) << json;
    EXPECT_LT(std::stod(m[1]), 40.0) << json;
    EXPECT_EQ(bench({"--model", mModel, "--pause-ms", "-1"}).exitCode, 2);
}

TEST_F(ToolsTest, BenchmarkProfile) {
    auto r = bench({"--model", mModel, "--loop", "2", "--warmup", "0", "--profile"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("Per-op profile (2 runs"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("mul1"), std::string::npos);
    EXPECT_NE(r.out.find("Per-type summary"), std::string::npos);
}

TEST_F(ToolsTest, BenchmarkBadArguments) {
    EXPECT_EQ(bench({"--help"}).exitCode, 0);
    auto none = bench({});
    EXPECT_EQ(none.exitCode, 2);
    EXPECT_NE(none.err.find("--model"), std::string::npos);
    EXPECT_EQ(bench({"--model", mModel, "--loop", "0"}).exitCode, 2);
    EXPECT_EQ(bench({"--model", mModel, "--loop", "ten"}).exitCode, 2);
    EXPECT_EQ(bench({"--model", mModel, "--precision", "ultra"}).exitCode, 2);
    EXPECT_EQ(bench({"--model", mModel, "--nope"}).exitCode, 2);
    auto missing = bench({"--model", path("missing")});
    EXPECT_EQ(missing.exitCode, 3);
    EXPECT_NE(missing.err.find("no such file or folder"), std::string::npos) << missing.err;
    Tools::makeDirs(path("emptydir"));
    auto empty = bench({"--model", path("emptydir")});
    EXPECT_EQ(empty.exitCode, 3);
    EXPECT_NE(empty.err.find("no *.mnn files"), std::string::npos) << empty.err;
}

// ---------------- library pieces (no binaries needed) ----------------

// The .npy reader itself is tested in test/models/NpyTest.cpp; this checks that no corrupted or
// truncated file makes it read out of bounds (run under ASan) or accept a short file.
TEST(ToolNpy, TruncatedAndCorruptedFilesNeverReadOutOfBounds) {
    std::vector<int64_t> values = {7, 7, 7, 7, 7, 7};
    auto good = Npy::serialize(Npy::Array::of<int64_t>({3, 2}, values.data()));
    int accepted = 0;
    for (size_t n = 0; n < good.size(); ++n) {
        Npy::Array b;
        std::string error;
        // every strict prefix lacks data bytes: must be rejected with a message
        EXPECT_FALSE(Npy::readBuffer(good.data(), n, &b, &error)) << n;
        EXPECT_FALSE(error.empty());
    }
    for (size_t i = 6; i < 74 && i < good.size(); ++i) {
        for (uint8_t v : {(uint8_t)0, (uint8_t)0xff, (uint8_t)'(', (uint8_t)')', (uint8_t)'9', (uint8_t)'\''}) {
            auto bad = good;
            bad[i] = v;
            Npy::Array b;
            std::string error;
            if (Npy::readBuffer(bad.data(), bad.size(), &b, &error)) {
                accepted++;
                EXPECT_EQ(b.raw.size(), (size_t)b.count() * b.bytes);
                EXPECT_LE(b.raw.size(), bad.size());
            } else {
                EXPECT_FALSE(error.empty());
            }
        }
    }
    EXPECT_GT(accepted, 0);  // padding bytes may change freely
}

TEST(ToolNames, TensorFileNameRule) {
    EXPECT_EQ(Tools::tensorFileName("conv1/out:0"), "conv1%2Fout%3A0");
    EXPECT_EQ(Tools::tensorFileName("a b%c"), "a%20b%25c");
    EXPECT_EQ(Tools::tensorFileName("ok_name-1.2~x"), "ok_name-1.2~x");
    EXPECT_EQ(Tools::tensorFileName("\xC3\xBC"), "%C3%BC");
    EXPECT_EQ(Tools::tensorFileName("."), "%2E");
    EXPECT_EQ(Tools::tensorFileName(".."), "%2E%2E");
    EXPECT_EQ(Tools::tensorFileName(""), "%");
}

TEST(ToolArgs, ParserRejectsUnknownAndParsesValues) {
    Tools::ArgParser p;
    p.option("loop");
    p.flag("profile");
    const char* argv[] = {"tool", "model.mnn", "--loop=5", "--profile"};
    ASSERT_TRUE(p.parse(4, (char**)argv));
    EXPECT_EQ(p.getInt("loop", 1, 1), 5);
    EXPECT_TRUE(p.has("profile"));
    EXPECT_EQ(p.positional(), std::vector<std::string>{"model.mnn"});
    Tools::ArgParser q;
    q.flag("profile");
    const char* bad[] = {"tool", "--profile=1"};
    EXPECT_THROW(q.parse(2, (char**)bad), Tools::UsageError);
    const char* unknown[] = {"tool", "-x"};
    Tools::ArgParser r;
    EXPECT_THROW(r.parse(2, (char**)unknown), Tools::UsageError);
    auto spec = Tools::parseShapeSpec("in:put:1x3x224x224");
    EXPECT_EQ(spec.first, "in:put");
    EXPECT_EQ(spec.second, (std::vector<int>{1, 3, 224, 224}));
    EXPECT_THROW(Tools::parseShapeSpec("data"), Tools::UsageError);
    EXPECT_THROW(Tools::parseShapeSpec("data:1x-3"), Tools::UsageError);
}

#endif  // MNN_TOOL_RUN && MNN_TOOL_INFO && MNN_TOOL_BENCHMARK
