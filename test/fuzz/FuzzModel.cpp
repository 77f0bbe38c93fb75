// libFuzzer target: a fuzzed byte string as a model: createFromBuffer, createSession, runSession.
// Build: CC=clang CXX=clang++ cmake -DMNN_FUZZ=ON; run: ./mnn_fuzz_model -max_total_time=60 -close_fd_mask=3 CORPUS
// (-close_fd_mask=3 silences the engine's log lines on every rejected input; libFuzzer keeps its own
// output and the sanitizer reports on a private copy of stderr. Do not redirect stderr in here:
// that also swallows the sanitizer report of a crash.)
#include <MNN/Interpreter.hpp>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <memory>


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::unique_ptr<MNN::Interpreter> net(MNN::Interpreter::createFromBuffer(data, size));
    if (!net) {
        return 0;
    }
    // small limits keep every input fast: the reference kernels of big windows over big tensors
    // otherwise run for minutes under ASan (a 3-D MaxPool over 8 MB took 47 s), which libFuzzer
    // reports as a timeout; memory-safety bugs show at small sizes as well
    net->setSessionHint(MNN::Interpreter::TENSOR_SIZE_LIMIT_MB, 4);
    net->setSessionHint(MNN::Interpreter::ARENA_SIZE_LIMIT_MB, 32);
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
