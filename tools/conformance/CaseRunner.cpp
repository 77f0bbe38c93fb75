// CaseRunner: see CaseRunner.hpp.
#include "CaseRunner.hpp"

#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <onnx/onnx_pb.h>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <vector>
#include "MNNConverter.hpp"
#include "OnnxTensorData.hpp"
#define MNN_ALLOCATION_COUNTER_DEFINE 1  // the counting malloc of MNNOnnxSuite (--check-allocations)
#include "AllocationCounter.hpp"

namespace MNN {
namespace Conformance {

const char* outcomeName(Outcome o) {
    switch (o) {
        case Outcome::Pass: return "pass";
        case Outcome::Wrong: return "wrong";
        case Outcome::Unsupported: return "unsupported";
        case Outcome::Crash: return "crash";
        case Outcome::NotTensor: return "not-tensor";
    }
    return "?";
}

static bool exists(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0;
}

static CaseResult make(Outcome o, const std::string& reason) {
    CaseResult r;
    r.outcome = o;
    r.reason = reason;
    return r;
}

static std::string shapeString(const std::vector<int64_t>& d) {
    std::string s = "[";
    for (size_t i = 0; i < d.size(); ++i) {
        s += (i ? "," : "") + std::to_string(d[i]);
    }
    return s + "]";
}

static std::string fmt(double v) {
    char b[64];
    std::snprintf(b, sizeof(b), "%.9g", v);
    return b;
}

namespace {
struct InterpreterDeleter {
    void operator()(Interpreter* p) const {
        Interpreter::destroy(p);
    }
};
struct TensorDeleter {
    void operator()(Tensor* p) const {
        Tensor::destroy(p);
    }
};
} // namespace

// compares one output; empty string = match
static std::string compare(const std::string& name, const HostData& ref, const Tensor* host, const Tolerance& tol) {
    std::vector<int64_t> dims;
    for (int i = 0; i < host->dimensions(); ++i) {
        dims.push_back(host->length(i));
    }
    if (dims != ref.dims) {
        return "output '" + name + "': shape " + shapeString(dims) + ", expected " + shapeString(ref.dims);
    }
    halide_type_t want;
    int bytes = 0;
    engineType(ref.onnxType, &want, &bytes);
    halide_type_t got = host->getType();
    if (got.code != want.code || got.bits != want.bits) {
        return "output '" + name + "': element type code " + std::to_string((int)got.code) + " bits " +
               std::to_string(got.bits) + ", expected " + onnxTypeName(ref.onnxType);
    }
    int64_t n = ref.count();
    const uint8_t* o = host->host<uint8_t>();
    if (n > 0 && !o) {
        return "output '" + name + "' has no host memory";
    }
    bool isFloat = ref.onnxType == onnx::TensorProto::FLOAT || ref.onnxType == onnx::TensorProto::DOUBLE;
    int64_t bad = 0, firstBad = -1;
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (isFloat) {
            double r = elementAsDouble(ref, i);
            double v;
            if (bytes == 4) {
                float f;
                std::memcpy(&f, o + i * 4, 4);
                v = f;
            } else {
                std::memcpy(&v, o + i * 8, 8);
            }
            bool ok;
            if (std::isnan(r)) {
                ok = std::isnan(v);
            } else if (std::isinf(r)) {
                ok = v == r;
            } else {
                double err = std::fabs(v - r);
                ok = err <= tol.atol + tol.rtol * std::fabs(r);  // false for NaN / inf v
                if (!std::isnan(err) && err > worst) {
                    worst = err;
                }
            }
            if (!ok) {
                if (firstBad < 0) {
                    firstBad = i;
                }
                bad++;
            }
        } else {
            bool ok;
            if (ref.onnxType == onnx::TensorProto::BOOL) {
                ok = (o[i] != 0) == (ref.bytes[(size_t)i] != 0) && o[i] <= 1;
            } else {
                ok = std::memcmp(o + i * bytes, ref.bytes.data() + i * bytes, (size_t)bytes) == 0;
            }
            if (!ok) {
                if (firstBad < 0) {
                    firstBad = i;
                }
                bad++;
            }
        }
    }
    if (bad == 0) {
        return "";
    }
    double gotV;
    if (isFloat) {
        if (bytes == 4) {
            float f;
            std::memcpy(&f, o + firstBad * 4, 4);
            gotV = f;
        } else {
            std::memcpy(&gotV, o + firstBad * 8, 8);
        }
    } else {
        HostData tmp;
        tmp.onnxType = ref.onnxType;
        tmp.bytes.assign(o + firstBad * bytes, o + (firstBad + 1) * bytes);
        gotV = elementAsDouble(tmp, 0);
    }
    std::string s = "output '" + name + "': " + std::to_string(bad) + " of " + std::to_string(n) +
                    " elements differ; first at " + std::to_string(firstBad) + ": got " + fmt(gotV) +
                    ", expected " + fmt(elementAsDouble(ref, firstBad));
    if (isFloat) {
        s += "; max abs error " + fmt(worst);
    }
    return s;
}

CaseResult runCase(const std::string& dir, const Tolerance& tol, bool checkAllocations) {
    const std::string modelPath = dir + "/model.onnx";
    const std::string dataDir = dir + "/test_data_set_0";
    onnx::ModelProto model;
    {
        std::ifstream f(modelPath, std::ios::binary);
        if (!f) {
            return make(Outcome::Wrong, "cannot open " + modelPath);
        }
        std::stringstream ss;
        ss << f.rdbuf();
        if (!model.ParseFromString(ss.str())) {
            return make(Outcome::Unsupported, "model.onnx is not a ModelProto this protobuf can parse");
        }
    }
    const auto& graph = model.graph();
    std::set<std::string> initNames;
    for (const auto& init : graph.initializer()) {
        initNames.insert(init.name());
    }
    std::vector<const onnx::ValueInfoProto*> inputs, outputs;
    for (const auto& vi : graph.input()) {
        if (!initNames.count(vi.name())) {
            inputs.push_back(&vi);
        }
    }
    for (const auto& vi : graph.output()) {
        outputs.push_back(&vi);
    }
    for (auto* vi : inputs) {
        auto why = notTensorReason(vi->type());
        if (!why.empty()) {
            return make(Outcome::NotTensor, "input '" + vi->name() + "' has type " + why);
        }
    }
    for (auto* vi : outputs) {
        auto why = notTensorReason(vi->type());
        if (!why.empty()) {
            return make(Outcome::NotTensor, "output '" + vi->name() + "' has type " + why);
        }
    }

    // reference data
    std::vector<HostData> inData, refData;
    for (size_t i = 0;; ++i) {
        std::string p = dataDir + "/input_" + std::to_string(i) + ".pb";
        if (!exists(p)) {
            break;
        }
        HostData d;
        std::string err;
        if (!readTensorFile(p, &d, &err)) {
            return make(Outcome::NotTensor, "input_" + std::to_string(i) + ".pb: " + err);
        }
        inData.push_back(std::move(d));
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
        std::string p = dataDir + "/output_" + std::to_string(i) + ".pb";
        HostData d;
        std::string err;
        if (!readTensorFile(p, &d, &err)) {
            return make(Outcome::NotTensor, "output_" + std::to_string(i) + ".pb: " + err);
        }
        refData.push_back(std::move(d));
    }
    if (inData.size() > inputs.size()) {
        return make(Outcome::Wrong, "test data has " + std::to_string(inData.size()) + " inputs, the graph " +
                                        std::to_string(inputs.size()));
    }

    // convert
    Convert::Options options;
    auto converted = Convert::convertOnnxFile(modelPath, options);
    if (!converted.ok) {
        std::string why;
        for (auto& u : converted.unsupported) {
            why += (why.empty() ? "" : ", ") + u.first + (u.second.empty() ? "" : " (" + u.second + ")");
        }
        if (!why.empty()) {
            return make(Outcome::Unsupported, "converter: unsupported: " + why);
        }
        return make(Outcome::Unsupported, "converter: " + converted.error);
    }
    std::unique_ptr<Interpreter, InterpreterDeleter> net(
        Interpreter::createFromBuffer(converted.model.data(), converted.model.size()));
    if (!net) {
        return make(Outcome::Unsupported, "the interpreter rejected the converted model");
    }
    BackendConfig backendConfig;
    backendConfig.precision = BackendConfig::Precision_High;
    ScheduleConfig config;
    config.type = MNN_FORWARD_CPU;
    config.numThread = 1;
    config.backendConfig = &backendConfig;
    Session* session = net->createSession(config);
    if (!session) {
        return make(Outcome::Unsupported, "createSession failed");
    }

    // feed inputs
    std::vector<Tensor*> sessionInputs;
    for (size_t i = 0; i < inData.size(); ++i) {
        const std::string& name = inputs[i]->name();
        // an input no output depends on (CastLike's `like`, Dropout's ratio in inference) is not
        // a session input: nothing to feed
        auto& all = net->getSessionInputAll(session);
        auto it = all.find(name);
        Tensor* t = it == all.end() ? nullptr : it->second;
        sessionInputs.push_back(t);
        if (!t) {
            continue;
        }
        std::vector<int> dims(inData[i].dims.begin(), inData[i].dims.end());
        net->resizeTensor(t, dims);
    }
    net->resizeSession(session);
    for (size_t i = 0; i < inData.size(); ++i) {
        const std::string& name = inputs[i]->name();
        Tensor* t = sessionInputs[i];
        if (!t) {
            continue;
        }
        halide_type_t ht;
        int bytes = 0;
        engineType(inData[i].onnxType, &ht, &bytes);
        if (t->getType().code != ht.code || t->getType().bits != ht.bits) {
            return make(Outcome::Wrong, "input '" + name + "': the session expects type code " +
                                            std::to_string((int)t->getType().code) + " bits " +
                                            std::to_string(t->getType().bits) + ", the data is " +
                                            onnxTypeName(inData[i].onnxType));
        }
        std::vector<int> dims(inData[i].dims.begin(), inData[i].dims.end());
        std::unique_ptr<Tensor, TensorDeleter> host(
            Tensor::create(dims, ht, inData[i].bytes.empty() ? nullptr : inData[i].bytes.data(), Tensor::CAFFE));
        if (!host) {
            return make(Outcome::Wrong, "input '" + name + "': cannot create a host tensor of shape " +
                                            shapeString(inData[i].dims));
        }
        if (!t->copyFromHostTensor(host.get())) {
            return make(Outcome::Wrong, "input '" + name + "': copyFromHostTensor failed (resize failed?)");
        }
    }
    auto code = net->runSession(session);
    if (code != NO_ERROR) {
        return make(Outcome::Wrong, "runSession returned error code " + std::to_string((int)code));
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
        const std::string& name = outputs[i]->name();
        auto& all = net->getSessionOutputAll(session);
        auto it = all.find(name);
        Tensor* t = it == all.end() ? nullptr : it->second;
        if (!t) {
            return make(Outcome::Wrong, "the session has no output '" + name + "'");
        }
        std::unique_ptr<Tensor, TensorDeleter> host(Tensor::createHostTensorFromDevice(t, true));
        if (!host) {
            return make(Outcome::Wrong, "output '" + name + "': cannot copy to the host");
        }
        auto diff = compare(name, refData[i], host.get(), tol);
        if (!diff.empty()) {
            return make(Outcome::Wrong, diff);
        }
    }
#ifdef MNN_COUNT_ALLOCATIONS
    if (checkAllocations) {
        const long n = Test::allocationsOfRuns(net.get(), session, 2);
        if (n < 0) {
            return make(Outcome::Wrong, "a second runSession failed");
        }
        bool onlyControlFlow = false;
        if (n > 0) {
            auto ops = Test::opsThatAllocate(net.get(), session, &onlyControlFlow);
            if (!onlyControlFlow) {
                return make(Outcome::Wrong, "runSession allocated " + std::to_string(n) +
                                                " times in 2 runs after the first: " + ops);
            }
        }
    }
#else
    (void)checkAllocations;
#endif
    return make(Outcome::Pass, "");
}

} // namespace Conformance
} // namespace MNN
