// MNNRealModels: real pretrained ONNX models shipped inside public PyPI wheels (OCR detection and
// recognition, captcha OCR with a BiLSTM, a YOLO-style detector, layout detection, orientation
// classifiers, voice-activity detectors with If + LSTM), converted with no flags (no --inputShape)
// and run through the classic session API at every input shape of test/models/real/real_models.py,
// one session per precision resized from shape to shape and back to the first one. The reference is
// ONNX Runtime's output for the same inputs: max|ours - ort| / max|ort| <= 1e-3 per output at
// Precision_High and Precision_Normal.
//
//   MNNRealModels [--refs DIR | --cache DIR] [--only a,b] [--python PY] [--threads N]
//
// --refs DIR also runs the dynamic-axes models of real/make_dynamic_models.py (PyTorch reference).
//
// Without --refs the reference folder comes from `PY real_models.py --cache DIR` (which downloads the
// pinned wheels and ORT into DIR once); a SKIP line and exit 77 when it cannot be filled.
#include <sys/wait.h>
#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

#ifndef MNN_REAL_MODELS_SCRIPT
#define MNN_REAL_MODELS_SCRIPT "real_models.py"
#endif

namespace {

using ModelFiles::InterpreterDeleter;
using ModelFiles::readText;
using ModelFiles::split;
using ModelFiles::TensorDeleter;

const double kLimit = 1e-3;

struct IO {
    std::string name, npy;
};
struct Case {
    std::vector<IO> inputs, outputs;
};
struct ModelEntry {
    std::string name, kind, file, source;
    std::vector<Case> cases;
    double limit = kLimit;
    bool argmax = false;  // also every position's argmax over the last axis equal to the reference's
};

using TensorPtr = std::unique_ptr<Tensor, TensorDeleter>;

std::string shapeText(const std::vector<int64_t>& s) {
    std::string t;
    for (size_t i = 0; i < s.size(); ++i) {
        t += (i ? "x" : "") + std::to_string(s[i]);
    }
    return t.empty() ? "scalar" : t;
}

std::string caseText(const Case& c, const std::string& dir) {
    std::string t;
    for (auto& io : c.inputs) {
        Npy::Array a;
        std::string err;
        if (Npy::read(dir + "/" + io.npy, &a, &err)) {
            t += (t.empty() ? "" : ",") + io.name + ":" + shapeText(a.shape);
        }
    }
    return t;
}

// a host tensor of the session input's element type holding the .npy values
TensorPtr hostInput(const Npy::Array& a, halide_type_t type, std::string* err) {
    std::vector<int> dims(a.shape.begin(), a.shape.end());
    TensorPtr host(Tensor::create(dims, type, nullptr, Tensor::CAFFE));
    if (!host) {
        *err = "cannot make a host tensor";
        return host;
    }
    auto v = a.toDouble();
    if ((int64_t)v.size() != (int64_t)host->elementSize()) {
        *err = "element count mismatch";
        return TensorPtr();
    }
    for (size_t i = 0; i < v.size(); ++i) {
        if (type == halide_type_of<float>()) {
            host->host<float>()[i] = (float)v[i];
        } else if (type == halide_type_of<int32_t>()) {
            host->host<int32_t>()[i] = (int32_t)v[i];
        } else if (type == halide_type_of<int64_t>()) {
            host->host<int64_t>()[i] = (int64_t)v[i];
        } else {
            *err = "unsupported input element type";
            return TensorPtr();
        }
    }
    return host;
}

// runs one case on a session resized to its shapes; returns the worst relative error, or -1 and *msg
// positions (over the last axis) whose argmax differs between ours and the reference
size_t argmaxMismatches(const std::vector<double>& ours, const std::vector<double>& ref, int64_t last) {
    size_t bad = 0;
    for (size_t row = 0; last > 0 && row + (size_t)last <= ref.size(); row += (size_t)last) {
        auto a = std::max_element(ours.begin() + row, ours.begin() + row + last) - (ours.begin() + row);
        auto b = std::max_element(ref.begin() + row, ref.begin() + row + last) - (ref.begin() + row);
        bad += a != b ? 1 : 0;
    }
    return bad;
}

double runCase(Interpreter* net, Session* session, const Case& c, const std::string& dir, bool argmax,
               std::string* msg) {
    std::vector<Npy::Array> inputs(c.inputs.size());
    for (size_t i = 0; i < c.inputs.size(); ++i) {
        std::string err;
        if (!Npy::read(dir + "/" + c.inputs[i].npy, &inputs[i], &err)) {
            *msg = err;
            return -1;
        }
        Tensor* t = net->getSessionInput(session, c.inputs[i].name.c_str());
        if (!t) {
            *msg = "no session input '" + c.inputs[i].name + "'";
            return -1;
        }
        net->resizeTensor(t, std::vector<int>(inputs[i].shape.begin(), inputs[i].shape.end()));
    }
    net->resizeSession(session);
    for (size_t i = 0; i < c.inputs.size(); ++i) {
        Tensor* t = net->getSessionInput(session, c.inputs[i].name.c_str());
        std::string err;
        auto host = hostInput(inputs[i], t->getType(), &err);
        if (!host || !t->copyFromHostTensor(host.get())) {
            *msg = "cannot set input '" + c.inputs[i].name + "': " + err;
            return -1;
        }
    }
    if (net->runSession(session) != NO_ERROR) {
        *msg = "runSession failed";
        return -1;
    }
    double worst = 0;
    for (auto& io : c.outputs) {
        Npy::Array ref;
        std::string err;
        if (!Npy::read(dir + "/" + io.npy, &ref, &err)) {
            *msg = err;
            return -1;
        }
        Tensor* t = net->getSessionOutput(session, io.name.c_str());
        if (!t) {
            *msg = "no session output '" + io.name + "'";
            return -1;
        }
        TensorPtr host(Tensor::createHostTensorFromDevice(t, true));
        std::vector<int64_t> dims;
        for (int d = 0; d < host->dimensions(); ++d) {
            dims.push_back(host->length(d));
        }
        if (dims != ref.shape) {
            *msg = "output '" + io.name + "' is " + shapeText(dims) + ", ONNX Runtime's is " + shapeText(ref.shape);
            return -1;
        }
        auto refv = ref.toDouble();
        std::vector<double> ours(refv.size());
        auto type = host->getType();
        for (size_t k = 0; k < refv.size(); ++k) {
            if (type == halide_type_of<float>()) {
                ours[k] = host->host<float>()[k];
            } else if (type == halide_type_of<int32_t>()) {
                ours[k] = host->host<int32_t>()[k];
            } else if (type == halide_type_of<int64_t>()) {
                ours[k] = (double)host->host<int64_t>()[k];
            } else {
                *msg = "output '" + io.name + "' has an unexpected element type";
                return -1;
            }
        }
        double maxRef = 0, maxDiff = 0;
        for (size_t k = 0; k < refv.size(); ++k) {
            maxRef = std::max(maxRef, std::fabs(refv[k]));
            double d = std::fabs(ours[k] - refv[k]);
            maxDiff = std::max(maxDiff, std::isnan(d) ? INFINITY : d);
        }
        worst = std::max(worst, maxDiff / std::max(maxRef, 1e-30));
        if (argmax && !ref.shape.empty()) {
            size_t bad = argmaxMismatches(ours, refv, ref.shape.back());
            if (bad) {
                *msg = "output '" + io.name + "': the argmax differs at " + std::to_string(bad) + " positions";
                return -1;
            }
        }
    }
    return worst;
}

// one model: converted once with no flags, one session per precision through every case and back
bool runModel(const ModelEntry& m, const std::string& dir, int threads) {
    auto conv = Convert::convertOnnxFile(dir + "/" + m.file, Convert::Options());
    if (!conv.ok) {
        std::string u;
        for (auto& p : conv.unsupported) {
            u += (u.empty() ? "" : ",") + p.first;
        }
        std::cout << m.name << ": FAIL converter: " << (u.empty() ? conv.error : "unsupported ops " + u) << "\n";
        return false;
    }
    bool pass = true;
    const BackendConfig::PrecisionMode precisions[2] = {BackendConfig::Precision_High, BackendConfig::Precision_Normal};
    for (int p = 0; p < 2; ++p) {
        std::unique_ptr<Interpreter, InterpreterDeleter> net(
            Interpreter::createFromBuffer(conv.model.data(), conv.model.size()));
        if (!net) {
            std::cout << m.name << ": FAIL the interpreter rejected the converted model\n";
            return false;
        }
        BackendConfig bc;
        bc.precision = precisions[p];
        ScheduleConfig config;
        config.type = MNN_FORWARD_CPU;
        config.numThread = threads;
        config.backendConfig = &bc;
        // created before any resizeTensor: unknown dims are planned as 1
        Session* session = net->createSession(config);
        if (!session) {
            std::cout << m.name << ": FAIL createSession before any resizeTensor\n";
            return false;
        }
        std::vector<size_t> order;
        for (size_t i = 0; i < m.cases.size(); ++i) {
            order.push_back(i);
        }
        if (m.cases.size() > 1) {
            order.push_back(0);  // back to the first shape on the same session
        }
        for (size_t k = 0; k < order.size(); ++k) {
            const Case& c = m.cases[order[k]];
            std::string msg;
            double err = runCase(net.get(), session, c, dir, m.argmax, &msg);
            bool ok = err >= 0 && err <= m.limit;
            char line[512];
            std::snprintf(line, sizeof(line), "%-18s %-6s %-44s %s", m.name.c_str(), p == 0 ? "High" : "Normal",
                          caseText(c, dir).c_str(), err < 0 ? "error" : "");
            std::cout << line;
            if (err >= 0) {
                std::printf("%.2e", err);
                std::fflush(stdout);
            }
            std::cout << (ok ? "  ok" : "  FAIL") << (msg.empty() ? "" : "  " + msg) << "\n" << std::flush;
            pass = pass && ok;
        }
    }
    return pass;
}

std::vector<ModelEntry> readManifest(const std::string& path) {
    auto root = MiniJson::parse(readText(path));
    std::vector<ModelEntry> out;
    for (auto& m : root["models"].arr) {
        ModelEntry e;
        e.name = m["name"].str;
        e.kind = m["kind"].str;
        e.file = m["onnx_file"].str;
        e.source = m["source"].str;
        if (m.has("limit")) {
            e.limit = m["limit"].num;
        }
        e.argmax = m.has("argmax_axis");
        for (auto& c : m["cases"].arr) {
            Case cs;
            for (auto& i : c["inputs"].arr) {
                cs.inputs.push_back({i["name"].str, i["npy"].str});
            }
            for (auto& o : c["outputs"].arr) {
                cs.outputs.push_back({o["name"].str, o["npy"].str});
            }
            e.cases.push_back(cs);
        }
        out.push_back(e);
    }
    return out;
}

// runs the reference script; its last line is the folder, or a SKIP / FAIL line
int fillRefs(const std::string& python, const std::string& cache, std::string* refs) {
    std::string cmd = "'" + python + "' '" MNN_REAL_MODELS_SCRIPT "'";
    if (!cache.empty()) {
        cmd += " --cache '" + cache + "'";
    }
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) {
        std::cout << "SKIP: cannot run " << cmd << "\n";
        return 77;
    }
    std::string last;
    char buf[4096];
    while (std::fgets(buf, sizeof(buf), p)) {
        last = buf;
        while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) {
            last.pop_back();
        }
        if (last.rfind("SKIP", 0) != 0 && last.rfind("FAIL", 0) != 0 && last.find('/') != 0) {
            std::cout << "  " << last << "\n";
        }
    }
    int status = ::pclose(p);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (rc == 77) {
        std::cout << last << "\n";
        return 77;
    }
    if (rc != 0) {
        std::cout << "FAIL: " << cmd << " exited with " << rc << ": " << last << "\n";
        return 1;
    }
    *refs = last;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string refs, cache, only, python = "python3";
    int threads = 1;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (i + 1 < argc && a == "--refs") {
            refs = argv[++i];
        } else if (i + 1 < argc && a == "--cache") {
            cache = argv[++i];
        } else if (i + 1 < argc && a == "--only") {
            only = argv[++i];
        } else if (i + 1 < argc && a == "--python") {
            python = argv[++i];
        } else if (i + 1 < argc && a == "--threads") {
            threads = std::max(1, std::atoi(argv[++i]));
        } else {
            std::cerr << "usage: MNNRealModels [--refs DIR | --cache DIR] [--only a,b] [--python PY] [--threads N]\n";
            return 2;
        }
    }
    if (refs.empty()) {
        int rc = fillRefs(python, cache, &refs);
        if (rc != 0) {
            return rc;
        }
    }
    std::vector<ModelEntry> models;
    try {
        models = readManifest(refs + "/manifest.json");
    } catch (const std::exception& e) {
        std::cout << "FAIL: " << refs << "/manifest.json: " << e.what() << "\n";
        return 1;
    }
    auto wanted = split(only);
    for (auto& w : wanted) {
        if (std::none_of(models.begin(), models.end(), [&](const ModelEntry& m) { return m.name == w; })) {
            std::cout << "FAIL: " << w << " is not in " << refs << "/manifest.json\n";
            return 1;
        }
    }
    std::cout << "limit: max|ours - reference| / max|reference| <= " << kLimit << " per output\n";
    int passed = 0, failed = 0;
    for (auto& m : models) {
        if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), m.name) == wanted.end()) {
            continue;
        }
        std::cout << "== " << m.name << " (" << m.kind << "; " << m.source << ")";
        if (m.limit != kLimit || m.argmax) {
            std::cout << "  [limit " << m.limit << (m.argmax ? ", every position's argmax equal" : "") << "]";
        }
        std::cout << "\n" << std::flush;
        (runModel(m, refs, threads) ? passed : failed)++;
    }
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed ? 1 : 0;
}
