// MNNModelAllocationFree: every real model of the corpus (../shared/tools/make_models.py, see
// ModelZoo.cpp) is converted, run once, and then runSession must allocate nothing: 3 more runs are
// counted through the malloc overrides of test/AllocationCounter.hpp and must add 0 allocations and
// reproduce the first run's outputs bit for bit. Runs at Precision_High on 1 thread and at
// Precision_Normal on 2 threads (the worker pool and the fast kernels).
//
//   MNNModelAllocationFree [--dir DIR] [--only a,b]
//
// DIR defaults to $MNN_MODELS_DIR, else <build>/models-cache. Without a corpus there (it is made by
// the ModelZooCorpus ctest fixture, which needs PyTorch) the test is skipped: exit 77.
#include <sys/stat.h>
#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>
#include "MNNConverter.hpp"
#include "MiniJson.hpp"
#include "ModelFiles.hpp"
#include "Npy.hpp"
#define MNN_ALLOCATION_COUNTER_DEFINE 1
#include "AllocationCounter.hpp"

using namespace MNN;

#ifndef MNN_MODELS_DEFAULT_DIR
#define MNN_MODELS_DEFAULT_DIR "models-cache"
#endif

namespace {

using ModelFiles::readText;
using ModelFiles::split;

struct Entry {
    std::string name, file;
    std::vector<std::pair<std::string, std::string>> inputs;  // name, npy
};

struct NetDeleter {
    void operator()(Interpreter* p) const {
        Interpreter::destroy(p);
    }
};

std::vector<std::vector<uint8_t>> outputBytes(Interpreter* net, Session* session) {
    std::vector<std::vector<uint8_t>> r;
    for (auto& kv : net->getSessionOutputAll(session)) {
        const uint8_t* p = kv.second->host<uint8_t>();
        r.emplace_back(p, p + kv.second->size());
    }
    return r;
}

/** "" when runSession is allocation free after the first run, else what went wrong */
std::string checkMode(const std::vector<uint8_t>& model, const Entry& m, const std::string& dir,
                      BackendConfig::PrecisionMode precision, int threads) {
    std::unique_ptr<Interpreter, NetDeleter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        return "the interpreter rejected the converted model";
    }
    BackendConfig bc;
    bc.precision = precision;
    ScheduleConfig config;
    config.numThread = threads;
    config.backendConfig = &bc;
    const long beforeCreate = Test::allocationCount();
    Session* session = net->createSession(config);
    if (!session) {
        return "createSession failed";
    }
    if (Test::allocationCount() == beforeCreate) {
        return "the allocation counter does not count (createSession allocated nothing?)";
    }
    std::vector<Npy::Array> arrays;
    for (auto& io : m.inputs) {
        Npy::Array a;
        std::string err;
        if (!Npy::read(dir + "/" + io.second, &a, &err) || !a.is<float>()) {
            return "cannot read " + io.second + " as float32: " + err;
        }
        Tensor* t = net->getSessionInput(session, io.first.c_str());
        if (!t) {
            return "no session input '" + io.first + "'";
        }
        net->resizeTensor(t, std::vector<int>(a.shape.begin(), a.shape.end()));
        arrays.push_back(std::move(a));
    }
    net->resizeSession(session);
    for (size_t i = 0; i < m.inputs.size(); ++i) {
        Tensor* t = net->getSessionInput(session, m.inputs[i].first.c_str());
        if ((size_t)t->size() != arrays[i].raw.size()) {
            return "input '" + m.inputs[i].first + "' has a different size than its npy";
        }
        ::memcpy(t->host<uint8_t>(), arrays[i].raw.data(), arrays[i].raw.size());
    }
    if (net->runSession(session) != NO_ERROR) {
        return "the first runSession failed";
    }
    auto first = outputBytes(net.get(), session);
    const long n = Test::allocationsOfRuns(net.get(), session, 3);
    if (n < 0) {
        return "a later runSession failed";
    }
    if (n != 0) {
        return std::to_string(n) +
               " allocations in 3 runs; per op in one run: " + Test::opsThatAllocate(net.get(), session);
    }
    if (first != outputBytes(net.get(), session)) {
        return "a later run changed the outputs";
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir = std::getenv("MNN_MODELS_DIR") ? std::getenv("MNN_MODELS_DIR") : MNN_MODELS_DEFAULT_DIR;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (i + 1 < argc && a == "--dir") {
            dir = argv[++i];
        } else if (i + 1 < argc && a == "--only") {
            only = argv[++i];
        } else {
            std::cerr << "usage: MNNModelAllocationFree [--dir DIR] [--only a,b]\n";
            return 2;
        }
    }
#ifndef MNN_COUNT_ALLOCATIONS
    std::cout << "SKIP: allocation counting needs glibc without sanitizers\n";
    return 77;
#endif
    const std::string manifest = dir + "/manifest.json";
    struct stat st;
    if (::stat(manifest.c_str(), &st) != 0) {
        std::cout << "SKIP: no model corpus at " << dir
                  << " (made by ../shared/tools/make_models.py through the ModelZooCorpus test, which needs "
                     "PyTorch; or set MNN_MODELS_DIR)\n";
        return 77;
    }
    std::vector<Entry> models;
    try {
        auto root = MiniJson::parse(readText(manifest));
        for (auto& m : root["models"].arr) {
            Entry e;
            e.name = m["name"].str;
            e.file = m["onnx_file"].str;
            for (auto& i : m["inputs"].arr) {
                e.inputs.push_back({i["name"].str, i["npy"].str});
            }
            models.push_back(e);
        }
    } catch (const std::exception& e) {
        std::cout << "FAIL: " << manifest << ": " << e.what() << "\n";
        return 1;
    }
    auto wanted = split(only);
    for (auto& w : wanted) {
        if (std::none_of(models.begin(), models.end(), [&](const Entry& m) { return m.name == w; })) {
            std::cout << "SKIP: " << w << " is not in " << manifest << " (a partial corpus)\n";
            return 77;
        }
    }
    int failed = 0, checked = 0;
    for (auto& m : models) {
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), m.name) == wanted.end()) {
            continue;
        }
        Convert::Options opt;
        auto res = Convert::convertOnnxFile(dir + "/" + m.file, opt);
        if (!res.ok) {
            std::cout << "FAIL " << m.name << ": the converter failed: " << res.error << "\n";
            ++failed;
            continue;
        }
        struct Mode {
            const char* name;
            BackendConfig::PrecisionMode precision;
            int threads;
        };
        for (auto mode : {Mode{"High, 1 thread", BackendConfig::Precision_High, 1},
                          Mode{"Normal, 2 threads", BackendConfig::Precision_Normal, 2}}) {
            auto msg = checkMode(res.model, m, dir, mode.precision, mode.threads);
            ++checked;
            if (msg.empty()) {
                std::cout << "ok   " << m.name << " (" << mode.name << "): 0 allocations per runSession\n";
            } else {
                std::cout << "FAIL " << m.name << " (" << mode.name << "): " << msg << "\n";
                ++failed;
            }
        }
    }
    std::cout << checked << " model runs checked, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}
