// createFromFile maps the model file and gives back a constant's pages once every op reading it
// has its Execution (and again after its resize): peak memory holds the weights once. The results
// must not change: after the pages are dropped, re-planning (resize to a new batch, which re-packs
// Gemm weights), a second session and releaseModel all read the weights again from the file.
#include <MNN/Interpreter.hpp>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>
#include "RunningOnValgrind.hpp"
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

// eight 1x1 convolutions 1024 -> 512 -> 1024 ... (2 MB of weights each) on a 4x4 plane
std::vector<uint8_t> heavyModel() {
    ModelBuilder mb;
    mb.input("x", {1, 1024, 4, 4});
    std::string in = "x";
    for (int i = 0; i < 8; ++i) {
        const std::string n = std::to_string(i);
        const int inC = i % 2 ? 512 : 1024, outC = i % 2 ? 1024 : 512;
        mb.constant("w" + n, {outC, inC, 1, 1}, randomFloats((size_t)outC * inC, 20 + i, -0.03f, 0.03f));
        mb.constant("b" + n, {outC}, randomFloats(outC, 30 + i));
        auto conv = mb.op(Schema::OpType::Convolution, "conv" + n, {in, "w" + n, "b" + n}, {"c" + n});
        Schema::ConvParamT cp;
        cp.kernel = {1, 1};
        cp.strides = {1, 1};
        cp.dilations = {1, 1};
        cp.pads = {0, 0, 0, 0};
        conv->param.Set(cp);
        in = "c" + n;
    }
    mb.output(in);
    return mb.finish();
}

/** this process's peak resident set (VmHWM) in KiB, or -1 */
long peakResidentKB() {
    FILE* f = fopen("/proc/self/status", "r");
    if (!f) {
        return -1;
    }
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = atol(line + 6);
        }
    }
    fclose(f);
    return kb;
}

}  // namespace

TEST(MappedModel, PeakHoldsTheWeightsOnce) {
    // The Executions pack the weights when they are created; the model's pages of each constant are
    // given back as soon as its last reader has its Execution, so creating the session raises the
    // peak resident set by about the weights once (packed copies plus the pages not yet given back),
    // not by the mapped file and every packed copy side by side (twice the weights: 16 MB here).
    // Measured in a child process (fork), whose peak starts at the parent's resident set.
    // (GCC says __SANITIZE_ADDRESS__; clang only answers __has_feature: the CI's ASan stage is clang,
    // where this ran and measured 1.52x on 2026-12-07, 25.0 MB for the 16.4 MB file, against 1.27x
    // in the Release build: the quarantine's share, no new copy)
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer's shadow and quarantine change the resident set";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    GTEST_SKIP() << "AddressSanitizer's shadow and quarantine change the resident set";
#endif
#endif
    if (RUNNING_ON_VALGRIND || getenv("MNN_UNDER_EMULATOR")) {
        GTEST_SKIP() << "the resident set of an emulated process is the emulator's";
    }
    auto buf = heavyModel();
    auto path = tempDir("mapped") + "/heavy.mnn";
    {
        std::ofstream f(path, std::ios::binary);
        f.write((const char*)buf.data(), (std::streamsize)buf.size());
    }
    const long fileKB = (long)(buf.size() / 1024);
    int fd[2];
    ASSERT_EQ(pipe(fd), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        long result[2] = {-1, -1};
        const long before = peakResidentKB();
        Interpreter* net = Interpreter::createFromFile(path.c_str());
        if (net) {
            ScheduleConfig config;
            config.numThread = 1;
            Session* s = net->createSession(config);
            if (s && net->runSession(s) == NO_ERROR) {
                result[0] = before;
                result[1] = peakResidentKB();
            }
            Interpreter::destroy(net);
        }
        ssize_t w = write(fd[1], result, sizeof(result));
        close(fd[1]);
        _exit(w == (ssize_t)sizeof(result) ? 0 : 1);
    }
    close(fd[1]);
    long result[2] = {-1, -1};
    const ssize_t got = read(fd[0], result, sizeof(result));
    close(fd[0]);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_EQ(got, (ssize_t)sizeof(result));
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_GE(result[0], 0) << "the child could not load and run the model";
    const long growth = result[1] - result[0];
    printf("model file %ld KiB, peak resident set grew by %ld KiB\n", fileKB, growth);
    EXPECT_LT(growth, fileKB * 3 / 2) << "the weights were held about twice at the peak";
}

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
