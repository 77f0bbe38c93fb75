// MNNModelZoo: real architectures (../shared/tools/make_models.py: torchvision CNNs, a transformer
// encoder, an LSTM, an MLP, random weights) converted from ONNX and run on the CPU backend, checked
// against PyTorch's outputs: max|ours - torch| / max|torch| <= 1e-4 at Precision_High, <= 1e-3 at
// Precision_Normal, <= 1e-2 with fp16 weights (converter Options::fp16, Precision_Normal).
//
//   MNNModelZoo [--dir DIR] [--only a,b] [--shared DIR] [--python PY] [--timeout SECONDS]
//
// --only defaults to $MNN_MODELS_ONLY (all models when unset).
// DIR (default $MNN_MODELS_DIR, else <build>/models-cache) holds manifest.json and the models; when
// it has no manifest the corpus is generated there with `PY SHARED/tools/make_models.py --out DIR`
// (PY: /usr/bin/python3 with python3-torch, python3-torchvision, python3-onnx). Without PyTorch the
// test is skipped (exit 77). Each model runs in a child process, so a crash fails only that model.
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
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

using namespace MNN;

#ifndef MNN_MODELS_DEFAULT_DIR
#define MNN_MODELS_DEFAULT_DIR "models-cache"
#endif
#ifndef MNN_SHARED_DIR
#define MNN_SHARED_DIR "../shared"
#endif

namespace {

using ModelFiles::InterpreterDeleter;
using ModelFiles::readText;
using ModelFiles::split;
using ModelFiles::TensorDeleter;

struct Mode {
    const char* name;
    BackendConfig::PrecisionMode precision;
    bool fp16Weights;
    double limit;
};
const Mode kModes[] = {
    {"High", BackendConfig::Precision_High, false, 1e-4},
    {"Normal", BackendConfig::Precision_Normal, false, 1e-3},
    {"fp16w", BackendConfig::Precision_Normal, true, 1e-2},
};
const int kModeCount = 3;

struct ModeResult {
    bool ran = false;
    double err = 0;   // max over outputs of max|ours - ref| / max|ref|
    double ms = 0;    // one runSession
    std::string msg;  // why it did not run
};

struct IO {
    std::string name;
    std::string npy;
};
struct ModelEntry {
    std::string name, kind, file;
    std::vector<IO> inputs, outputs;
};

bool isFile(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string oneLine(std::string s) {
    for (auto& c : s) {
        if (c == '\n' || c == '\t' || c == '\r' || c == '|') {
            c = ' ';
        }
    }
    return s;
}

ModeResult runMode(const std::vector<uint8_t>& model, const ModelEntry& m, const std::string& dir,
                   const Mode& mode) {
    ModeResult r;
    std::unique_ptr<Interpreter, InterpreterDeleter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        r.msg = "the interpreter rejected the converted model";
        return r;
    }
    BackendConfig bc;
    bc.precision = mode.precision;
    ScheduleConfig config;
    config.type = MNN_FORWARD_CPU;
    config.numThread = 1;
    config.backendConfig = &bc;
    Session* session = net->createSession(config);
    if (!session) {
        r.msg = "createSession failed";
        return r;
    }
    std::vector<Npy::Array> inputs;
    for (auto& io : m.inputs) {
        Npy::Array a;
        std::string err;
        if (!Npy::read(dir + "/" + io.npy, &a, &err)) {
            r.msg = err;
            return r;
        }
        if (!a.is<float>()) {
            r.msg = io.npy + " is not float32";
            return r;
        }
        Tensor* t = net->getSessionInput(session, io.name.c_str());
        if (!t) {
            r.msg = "no session input '" + io.name + "'";
            return r;
        }
        net->resizeTensor(t, std::vector<int>(a.shape.begin(), a.shape.end()));
        inputs.push_back(std::move(a));
    }
    net->resizeSession(session);
    for (size_t i = 0; i < m.inputs.size(); ++i) {
        Tensor* t = net->getSessionInput(session, m.inputs[i].name.c_str());
        std::unique_ptr<Tensor, TensorDeleter> host(Tensor::create(
            std::vector<int>(inputs[i].shape.begin(), inputs[i].shape.end()), halide_type_of<float>(),
            inputs[i].raw.data(), Tensor::CAFFE));
        if (!host || !t->copyFromHostTensor(host.get())) {
            r.msg = "cannot set input '" + m.inputs[i].name + "' (resize failed?)";
            return r;
        }
    }
    auto t0 = std::chrono::steady_clock::now();
    auto code = net->runSession(session);
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (code != NO_ERROR) {
        r.msg = "runSession returned " + std::to_string((int)code);
        return r;
    }
    double worst = 0;
    for (auto& io : m.outputs) {
        Npy::Array ref;
        std::string err;
        if (!Npy::read(dir + "/" + io.npy, &ref, &err)) {
            r.msg = err;
            return r;
        }
        Tensor* t = net->getSessionOutput(session, io.name.c_str());
        if (!t) {
            r.msg = "no session output '" + io.name + "'";
            return r;
        }
        std::unique_ptr<Tensor, TensorDeleter> host(Tensor::createHostTensorFromDevice(t, true));
        std::vector<int64_t> dims;
        for (int d = 0; d < host->dimensions(); ++d) {
            dims.push_back(host->length(d));
        }
        if (dims != ref.shape) {
            r.msg = "output '" + io.name + "' has a different shape than the reference";
            return r;
        }
        if (host->getType() != halide_type_of<float>()) {
            r.msg = "output '" + io.name + "' is not float32";
            return r;
        }
        auto refv = ref.toDouble();
        const float* o = host->host<float>();
        double maxRef = 0, maxDiff = 0;
        for (size_t k = 0; k < refv.size(); ++k) {
            maxRef = std::max(maxRef, std::fabs(refv[k]));
            double d = std::fabs((double)o[k] - refv[k]);
            if (std::isnan(d)) {
                d = INFINITY;
            }
            maxDiff = std::max(maxDiff, d);
        }
        double rel = maxDiff / std::max(maxRef, 1e-30);
        worst = std::max(worst, rel);
    }
    r.ran = true;
    r.err = worst;
    return r;
}

// in the child: converts twice (fp32, fp16 weights) and runs every mode
std::string runModel(const ModelEntry& m, const std::string& dir) {
    std::string line;
    std::vector<uint8_t> fp32, fp16;
    std::string convErr[2];
    for (int w = 0; w < 2; ++w) {
        Convert::Options opt;
        opt.fp16 = w == 1;
        auto res = Convert::convertOnnxFile(dir + "/" + m.file, opt);
        if (res.ok) {
            (w ? fp16 : fp32) = std::move(res.model);
        } else {
            std::string u;
            for (auto& p : res.unsupported) {
                if (u.find(p.first) == std::string::npos) {
                    u += (u.empty() ? "" : ",") + p.first;
                }
            }
            convErr[w] = "converter: " + (u.empty() ? res.error : "unsupported ops " + u);
        }
    }
    for (int k = 0; k < kModeCount; ++k) {
        const Mode& mode = kModes[k];
        ModeResult r;
        int w = mode.fp16Weights ? 1 : 0;
        if (!convErr[w].empty()) {
            r.msg = convErr[w];
        } else {
            r = runMode(w ? fp16 : fp32, m, dir, mode);
        }
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%d|%.6g|%.3f|", r.ran ? 1 : 0, r.err, r.ms);
        line += buf + oneLine(r.msg) + "\t";
    }
    return line + "\n";
}

bool runChild(const ModelEntry& m, const std::string& dir, int timeoutSeconds, ModeResult out[kModeCount],
              std::string* crash) {
    int fd[2];
    if (::pipe(fd) != 0) {
        *crash = "pipe() failed";
        return false;
    }
    std::fflush(stdout);
    std::cout.flush();
    pid_t pid = ::fork();
    if (pid < 0) {
        *crash = "fork() failed";
        return false;
    }
    if (pid == 0) {
        ::close(fd[0]);
        struct rlimit lim;
        lim.rlim_cur = lim.rlim_max = (rlim_t)12 << 30;
        ::setrlimit(RLIMIT_AS, &lim);
        std::string s = runModel(m, dir);
        std::fflush(stdout);
        std::fflush(stderr);
        size_t off = 0;
        while (off < s.size()) {
            ssize_t w = ::write(fd[1], s.data() + off, s.size() - off);
            if (w <= 0) {
                break;
            }
            off += (size_t)w;
        }
        ::_exit(0);
    }
    ::close(fd[1]);
    std::string text;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
    bool timedOut = false;
    char buf[4096];
    while (true) {
        auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
            timedOut = true;
            break;
        }
        struct pollfd p = {fd[0], POLLIN, 0};
        int ms = (int)std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        int n = ::poll(&p, 1, std::max(1, std::min(ms, 1000)));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n > 0) {
            ssize_t r = ::read(fd[0], buf, sizeof(buf));
            if (r <= 0) {
                break;
            }
            text.append(buf, (size_t)r);
        }
    }
    if (timedOut) {
        ::kill(pid, SIGKILL);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(fd[0]);
    if (timedOut) {
        *crash = "timeout after " + std::to_string(timeoutSeconds) + " s";
        return false;
    }
    if (WIFSIGNALED(status)) {
        *crash = std::string("crashed: signal ") + std::to_string(WTERMSIG(status)) + " (" +
                 strsignal(WTERMSIG(status)) + ")";
        return false;
    }
    std::stringstream ss(text);
    for (int k = 0; k < kModeCount; ++k) {
        std::string field;
        if (!std::getline(ss, field, '\t')) {
            *crash = "the child exited without a result";
            return false;
        }
        std::stringstream fs(field);
        std::string ran, err, ms, msg;
        std::getline(fs, ran, '|');
        std::getline(fs, err, '|');
        std::getline(fs, ms, '|');
        std::getline(fs, msg);
        out[k].ran = ran == "1";
        out[k].err = std::strtod(err.c_str(), nullptr);
        out[k].ms = std::strtod(ms.c_str(), nullptr);
        out[k].msg = msg;
    }
    return true;
}

std::vector<ModelEntry> readManifest(const std::string& path) {
    auto root = MiniJson::parse(readText(path));
    std::vector<ModelEntry> out;
    for (auto& m : root["models"].arr) {
        ModelEntry e;
        e.name = m["name"].str;
        e.kind = m["kind"].str;
        e.file = m["onnx_file"].str;
        for (auto& i : m["inputs"].arr) {
            e.inputs.push_back({i["name"].str, i["npy"].str});
        }
        for (auto& o : m["outputs"].arr) {
            e.outputs.push_back({o["name"].str, o["npy"].str});
        }
        out.push_back(e);
    }
    for (auto& f : root["failed"].arr) {
        std::cout << "note: make_models.py could not export " << f["name"].str << ": " << f["error"].str << "\n";
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::string dir = std::getenv("MNN_MODELS_DIR") ? std::getenv("MNN_MODELS_DIR") : MNN_MODELS_DEFAULT_DIR;
    std::string shared = MNN_SHARED_DIR, python = "/usr/bin/python3";
    std::string only = std::getenv("MNN_MODELS_ONLY") ? std::getenv("MNN_MODELS_ONLY") : "";
    int timeoutSeconds = 1800;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (i + 1 < argc && a == "--dir") {
            dir = argv[++i];
        } else if (i + 1 < argc && a == "--only") {
            only = argv[++i];
        } else if (i + 1 < argc && a == "--shared") {
            shared = argv[++i];
        } else if (i + 1 < argc && a == "--python") {
            python = argv[++i];
        } else if (i + 1 < argc && a == "--timeout") {
            timeoutSeconds = std::max(1, std::atoi(argv[++i]));
        } else {
            std::cerr << "usage: MNNModelZoo [--dir DIR] [--only a,b] [--shared DIR] [--python PY] [--timeout S]\n";
            return 2;
        }
    }
    const std::string manifest = dir + "/manifest.json";
    if (!isFile(manifest)) {
        std::string script = shared + "/tools/make_models.py";
        if (!isFile(script)) {
            std::cout << "SKIP: no model corpus at " << dir << " and no generator at " << script
                      << " (set MNN_MODELS_DIR to a corpus made by make_models.py)\n";
            return 77;
        }
        std::string probe = "'" + python + "' -c 'import torch, torchvision, onnx' >/dev/null 2>&1";
        if (std::system(probe.c_str()) != 0) {
            std::cout << "SKIP: PyTorch is not available to " << python
                      << " (needs python3-torch, python3-torchvision, python3-onnx) and " << dir
                      << " has no manifest.json; set MNN_MODELS_DIR to a generated corpus\n";
            return 77;
        }
        std::string cmd = "'" + python + "' '" + script + "' --out '" + dir + "'";
        if (!only.empty()) {
            cmd += " --only '" + only + "'";
        }
        std::cout << "generating the model corpus: " << cmd << "\n" << std::flush;
        int rc = std::system(cmd.c_str());
        if (rc != 0 || !isFile(manifest)) {
            std::cout << "FAIL: make_models.py failed (status " << rc << ")\n";
            return 1;
        }
    }
    std::vector<ModelEntry> models;
    try {
        models = readManifest(manifest);
    } catch (const std::exception& e) {
        std::cout << "FAIL: " << manifest << ": " << e.what() << "\n";
        return 1;
    }
    auto wanted = split(only);
    for (auto& w : wanted) {
        if (std::none_of(models.begin(), models.end(), [&](const ModelEntry& m) { return m.name == w; })) {
            std::cout << "FAIL: " << w << " is not in " << manifest << "\n";
            return 1;
        }
    }
    char line[512];
    std::snprintf(line, sizeof(line), "%-26s %-12s %11s %11s %11s %10s  %s", "model", "kind", "err High",
                  "err Normal", "err fp16w", "ms High", "status");
    std::cout << "limits: max|ours - torch| / max|torch| <= 1e-4 (High), 1e-3 (Normal), 1e-2 (fp16 weights)\n"
              << line << "\n";
    int passed = 0, failed = 0;
    std::vector<std::string> notes;
    for (auto& m : models) {
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), m.name) == wanted.end()) {
            continue;
        }
        ModeResult r[kModeCount];
        std::string crash;
        bool ok = runChild(m, dir, timeoutSeconds, r, &crash);
        std::string cells[kModeCount];
        bool pass = ok;
        for (int k = 0; k < kModeCount; ++k) {
            char buf[32];
            if (!ok) {
                cells[k] = "-";
            } else if (!r[k].ran) {
                cells[k] = "error";
                pass = false;
                notes.push_back(m.name + " (" + kModes[k].name + "): " + r[k].msg);
            } else {
                std::snprintf(buf, sizeof(buf), "%.2e%s", r[k].err, r[k].err <= kModes[k].limit ? "" : "!");
                cells[k] = buf;
                pass = pass && r[k].err <= kModes[k].limit;
            }
        }
        if (!ok) {
            notes.push_back(m.name + ": " + crash);
        }
        std::snprintf(line, sizeof(line), "%-26s %-12s %11s %11s %11s %10.1f  %s", m.name.c_str(), m.kind.c_str(),
                      cells[0].c_str(), cells[1].c_str(), cells[2].c_str(), ok ? r[0].ms : 0.0,
                      pass ? "ok" : (ok ? "FAIL" : "CRASH"));
        std::cout << line << "\n" << std::flush;
        (pass ? passed : failed)++;
    }
    if (!notes.empty()) {
        std::cout << "\n";
        for (auto& n : notes) {
            std::cout << "  " << n << "\n";
        }
    }
    std::cout << "('!' marks an error over its limit)\n" << passed << " passed, " << failed << " failed\n";
    return failed ? 1 : 0;
}
