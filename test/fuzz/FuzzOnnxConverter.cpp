// libFuzzer target: the converter's ONNX loading and mapping on a fuzzed protobuf, and when a
// model comes out, loading and running it.
#include <MNN/Interpreter.hpp>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <memory>
#include "MNNConverter.hpp"


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    MNN::Convert::Options options;
    auto result = MNN::Convert::convertOnnxBuffer(data, size, options);
    if (!result.ok) {
        return 0;
    }
    std::unique_ptr<MNN::Interpreter> net(MNN::Interpreter::createFromBuffer(result.model.data(), result.model.size()));
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
    // deterministic input values (fresh arena memory is whatever the allocator left there)
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
