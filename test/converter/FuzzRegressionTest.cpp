// Every input under test/fuzz/regressions/mnn_fuzz_onnx (crashes found by the ONNX fuzzer) goes
// the fuzzer's way in every build, not only the libFuzzer one: convert, load, create a session,
// run with zero-filled and with patterned inputs. Each must end in a result or an error code;
// the sanitizer builds (scripts/test.sh stage 4) turn any out-of-bounds access or undefined
// behaviour on the way into a failure.
#include <MNN/Interpreter.hpp>
#include <dirent.h>
#include <string.h>
#include <algorithm>
#include <fstream>
#include <iterator>
#include "OnnxTestBuilder.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<std::string> regressionFiles(const std::string& dir) {
    std::vector<std::string> files;
    DIR* d = opendir(dir.c_str());
    if (!d) {
        return files;
    }
    while (auto e = readdir(d)) {
        if (e->d_name[0] != '.') {
            files.push_back(dir + "/" + e->d_name);
        }
    }
    closedir(d);
    std::sort(files.begin(), files.end());
    return files;
}

static void runWithInputs(const std::vector<uint8_t>& model, int pattern) {
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        return;
    }
    net->setSessionHint(Interpreter::TENSOR_SIZE_LIMIT_MB, 4);
    net->setSessionHint(Interpreter::ARENA_SIZE_LIMIT_MB, 32);
    ScheduleConfig config;
    config.numThread = 1;
    auto session = net->createSession(config);
    if (!session) {
        return;
    }
    for (auto& kv : net->getSessionInputAll(session)) {
        auto t = kv.second;
        if (t->host<uint8_t>()) {
            for (int i = 0; i < t->size(); ++i) {
                t->host<uint8_t>()[i] = (uint8_t)(i * pattern);
            }
        }
    }
    net->runSession(session);  // an error code is fine; a crash or a sanitizer report is not
}

TEST(FuzzRegression, OnnxInputsConvertLoadAndRunWithoutCrashing) {
    auto files = regressionFiles(std::string(MNN_SOURCE_DIR) + "/test/fuzz/regressions/mnn_fuzz_onnx");
    ASSERT_FALSE(files.empty()) << "no regression inputs found";
    for (auto& path : files) {
        SCOPED_TRACE(path);
        std::ifstream f(path, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        ASSERT_FALSE(bytes.empty());
        Convert::Options options;
        auto result = Convert::convertOnnxBuffer(bytes.data(), bytes.size(), options);
        if (!result.ok) {
            EXPECT_FALSE(result.error.empty()) << "a refused model must say why";
            continue;
        }
        runWithInputs(result.model, 0);
        runWithInputs(result.model, 7);
    }
}
