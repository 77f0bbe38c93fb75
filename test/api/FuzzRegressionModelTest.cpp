// Every input under test/fuzz/regressions/mnn_fuzz_model (crashes found by the model fuzzer) goes
// the fuzzer's way in every build: load, create a session, run on patterned inputs. Each must end
// in a result or an error code; the sanitizer builds (scripts/test.sh stage 4) turn any
// out-of-bounds access or undefined behaviour on the way into a failure.
#include <MNN/Interpreter.hpp>
#include <dirent.h>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include "TestUtils.hpp"

using namespace MNN;

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

TEST(FuzzRegression, ModelInputsLoadAndRunWithoutCrashing) {
    auto files = regressionFiles(std::string(MNN_SOURCE_DIR) + "/test/fuzz/regressions/mnn_fuzz_model");
    ASSERT_FALSE(files.empty()) << "no regression inputs found";
    for (auto& path : files) {
        SCOPED_TRACE(path);
        std::ifstream f(path, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        ASSERT_FALSE(bytes.empty());
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(bytes.data(), bytes.size()));
        if (!net) {
            continue;
        }
        net->setSessionHint(Interpreter::TENSOR_SIZE_LIMIT_MB, 4);
        net->setSessionHint(Interpreter::ARENA_SIZE_LIMIT_MB, 32);
        ScheduleConfig config;
        config.numThread = 1;
        auto session = net->createSession(config);
        if (!session) {
            continue;  // refused with a log line: what these inputs should get
        }
        for (auto& kv : net->getSessionInputAll(session)) {
            auto t = kv.second;
            if (t->host<uint8_t>()) {
                for (int i = 0; i < t->size(); ++i) {
                    t->host<uint8_t>()[i] = (uint8_t)(i * 7);
                }
            }
        }
        net->runSession(session);  // an error code is fine; a crash or a sanitizer report is not
    }
}
