// libFuzzer target: a fuzzed byte string as a model: createFromBuffer, createSession, runSession.
// Build: CC=clang CXX=clang++ cmake -DMNN_FUZZ=ON; run: ./mnn_fuzz_model -max_total_time=60 CORPUS
#include <MNN/Interpreter.hpp>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <memory>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // errors are expected on every input; keep the fuzzer's output readable
    if (!getenv("MNN_FUZZ_VERBOSE")) {
        freopen("/dev/null", "w", stderr);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::unique_ptr<MNN::Interpreter> net(MNN::Interpreter::createFromBuffer(data, size));
    if (!net) {
        return 0;
    }
    net->setSessionHint(MNN::Interpreter::TENSOR_SIZE_LIMIT_MB, 64);
    net->setSessionHint(MNN::Interpreter::ARENA_SIZE_LIMIT_MB, 256);
    MNN::ScheduleConfig config;
    config.numThread = 1;
    auto session = net->createSession(config);
    if (!session) {
        return 0;
    }
    for (auto& kv : net->getSessionInputAll(session)) {
        auto t = kv.second;
        if (t->host<uint8_t>()) {
            for (int i = 0; i < t->size(); ++i) {
                t->host<uint8_t>()[i] = (uint8_t)(i * 7);
            }
        }
    }
    net->runSession(session);
    return 0;
}
