// A C entry point to one session, for benchmark/paired/paired_ort.py: Python loads this library with
// ctypes beside ONNX Runtime and alternates single runs of the two engines in one process, so that
// the shared machine's load phases hit both alike (process-level rounds cannot pair runs this closely).
#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <memory>

namespace {
struct PairedSession {
    std::unique_ptr<MNN::Interpreter, void (*)(MNN::Interpreter*)> net{nullptr, MNN::Interpreter::destroy};
    MNN::Session* session = nullptr;
};
}  // namespace

extern "C" {

/** a session of the model at path on the CPU; precision 0 normal, 1 high, 2 low; null on failure */
__attribute__((visibility("default"))) void* pairedOpen(const char* path, int threads, int precision) {
    auto s = new PairedSession;
    s->net.reset(MNN::Interpreter::createFromFile(path));
    if (!s->net) {
        delete s;
        return nullptr;
    }
    MNN::ScheduleConfig config;
    config.numThread = threads;
    MNN::BackendConfig backend;
    backend.precision = precision == 1   ? MNN::BackendConfig::Precision_High
                        : precision == 2 ? MNN::BackendConfig::Precision_Low
                                         : MNN::BackendConfig::Precision_Normal;
    config.backendConfig = &backend;
    s->session = s->net->createSession(config);
    if (!s->session) {
        delete s;
        return nullptr;
    }
    // every input: the same deterministic pattern as ../shared/bench/ort_bench.py
    for (auto& in : s->net->getSessionInputAll(s->session)) {
        if (in.second->getType() != halide_type_of<float>()) {
            continue;  // the corpus feeds float images; other inputs keep their zeros
        }
        MNN::Tensor host(in.second, MNN::Tensor::CAFFE);
        float* d = host.host<float>();
        for (int i = 0; i < host.elementSize(); ++i) {
            d[i] = (float)(((int64_t)i * 7919) % 255) / 255.0f - 0.5f;
        }
        in.second->copyFromHostTensor(&host);
    }
    return s;
}

/** one run; 0 on success */
__attribute__((visibility("default"))) int pairedRun(void* handle) {
    auto s = static_cast<PairedSession*>(handle);
    return (int)s->net->runSession(s->session);
}

__attribute__((visibility("default"))) void pairedClose(void* handle) {
    delete static_cast<PairedSession*>(handle);
}
}
