#include "Fp16Sensitivity.hpp"
#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <string.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <thread>
#include "Graph.hpp"

namespace MNN {
namespace Convert {

std::string Fp16Report::line() const {
    char buf[320];
    if (!measured) {
        std::snprintf(buf, sizeof(buf), "fp16: %d weights fp16, none measured%s%s", candidates,
                      note.empty() ? "" : ": ", note.c_str());
        return buf;
    }
    std::snprintf(buf, sizeof(buf),
                  "fp16: %d of %d weights kept float (%zu bytes), %d fp16 (%zu bytes); output error %.2e "
                  "(all fp16: %.2e), %d runs, %.1f s",
                  keptFloat, candidates, keptBytes, candidates - keptFloat, halfBytes, error, errorAll, runs, seconds);
    return buf;
}

double relativeError(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b) {
    double worst = 0;
    for (size_t o = 0; o < a.size() && o < b.size(); ++o) {
        double maxRef = 0, maxDiff = 0;
        for (size_t i = 0; i < a[o].size() && i < b[o].size(); ++i) {
            maxRef = std::max(maxRef, (double)std::fabs(b[o][i]));
            double d = std::fabs((double)a[o][i] - (double)b[o][i]);
            maxDiff = std::max(maxDiff, std::isnan(d) ? INFINITY : d);
        }
        worst = std::max(worst, maxRef > 0 ? maxDiff / maxRef : maxDiff);
    }
    return worst;
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

/** N(0, 1) from a fixed seed: splitmix64 + Box-Muller */
class Normal {
public:
    float next() {
        double u1 = (double)((step() >> 11) + 1) / 9007199254740993.0;  // (0, 1]
        double u2 = (double)(step() >> 11) / 9007199254740992.0;
        return (float)(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
    }

private:
    uint64_t step() {
        uint64_t z = (mState += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint64_t mState = 0x5eed;
};

/** runs one variant of the model on fixed inputs; the inputs are drawn on the first run */
class Runner {
public:
    explicit Runner(const Options& o) : mOptions(o) {}
    /** false with *why set when the model does not run */
    bool run(const std::vector<uint8_t>& model, std::vector<std::vector<float>>* outputs, std::string* why) {
        std::unique_ptr<Interpreter, InterpreterDeleter> net(Interpreter::createFromBuffer(model.data(), model.size()));
        if (!net) {
            *why = "the engine rejected the model";
            return false;
        }
        BackendConfig bc;
        bc.precision = BackendConfig::Precision_High;
        ScheduleConfig config;
        config.type = MNN_FORWARD_CPU;
        config.numThread = (int)std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
        config.backendConfig = &bc;
        Session* session = net->createSession(config);
        if (!session) {
            *why = "createSession failed";
            return false;
        }
        if (mInputs.empty()) {
            if (!drawInputs(net.get(), session, why)) {
                return false;
            }
        }
        for (auto& in : mInputs) {
            net->resizeTensor(net->getSessionInput(session, in.name.c_str()), in.dims);
        }
        net->resizeSession(session);  // a failed resize makes runSession fail
        for (auto& in : mInputs) {
            Tensor* t = net->getSessionInput(session, in.name.c_str());
            std::unique_ptr<Tensor, TensorDeleter> host(Tensor::create(in.dims, t->getType(), nullptr, Tensor::CAFFE));
            if (!host) {
                *why = "cannot allocate input " + in.name;
                return false;
            }
            ::memset(host->host<void>(), 0, host->size());
            if (t->getType() == halide_type_of<float>()) {
                ::memcpy(host->host<float>(), in.values.data(), in.values.size() * sizeof(float));
            }
            if (!t->copyFromHostTensor(host.get())) {
                *why = "cannot set input " + in.name;
                return false;
            }
        }
        if (net->runSession(session) != NO_ERROR) {
            *why = "runSession failed";
            return false;
        }
        outputs->clear();
        for (auto& kv : net->getSessionOutputAll(session)) {
            std::unique_ptr<Tensor, TensorDeleter> host(Tensor::createHostTensorFromDevice(kv.second, true));
            if (!host || host->getType() != halide_type_of<float>()) {
                continue;  // only float outputs are compared
            }
            outputs->emplace_back(host->host<float>(), host->host<float>() + host->elementSize());
        }
        return true;
    }
    bool badCalibration = false;  // Options::calibrationInputs do not fit the model

private:
    struct Input {
        std::string name;
        std::vector<int> dims;
        std::vector<float> values;
    };
    bool drawInputs(Interpreter* net, Session* session, std::string* why) {
        Normal rng;
        const auto& inputs = net->getSessionInputAll(session);
        for (auto& kv : inputs) {
            Input in;
            in.name = kv.first;
            auto given = mOptions.calibrationInputs.find(kv.first);
            if (given != mOptions.calibrationInputs.end()) {
                in.dims = given->second.first;
                in.values = given->second.second;
                int64_t n = 1;
                for (int d : in.dims) {
                    n *= d;
                }
                if (n != (int64_t)in.values.size()) {
                    *why = "calibration input " + kv.first + " has " + std::to_string(in.values.size()) +
                           " values for its dims";
                    badCalibration = true;
                    return false;
                }
            } else {
                in.dims = kv.second->shape();
                int64_t n = 1;
                for (auto& d : in.dims) {
                    d = d > 0 ? d : 1;
                    n *= d;
                }
                if (n > ((int64_t)1 << 28)) {
                    *why = "input " + kv.first + " is too large for a calibration run";
                    return false;
                }
                in.values.resize((size_t)n);
                for (auto& v : in.values) {
                    v = rng.next();
                }
            }
            mInputs.push_back(std::move(in));
        }
        for (auto& kv : mOptions.calibrationInputs) {
            if (!inputs.count(kv.first)) {
                *why = "calibration input " + kv.first + " is not an input of the model";
                badCalibration = true;
                return false;
            }
        }
        return true;
    }
    const Options& mOptions;
    std::vector<Input> mInputs;
};

/** where a candidate's float data lies in the packed model */
struct Span {
    size_t offset = 0;
    size_t count = 0;  // floats
};

}  // namespace

Fp16Plan planFp16(const std::vector<uint8_t>& model, const std::vector<int>& candidates, const Options& options) {
    auto start = std::chrono::steady_clock::now();
    Fp16Plan plan;
    Fp16Report& rep = plan.report;
    const size_t n = candidates.size();
    plan.keepFloat.assign(n, false);
    rep.candidates = (int)n;
    auto finish = [&]() {
        rep.keptFloat = 0;
        rep.keptBytes = rep.halfBytes = 0;
        for (size_t i = 0; i < n; ++i) {
            size_t bytes = Schema::GetNet(model.data())->constants()->Get(candidates[i])->raw()->size();
            if (plan.keepFloat[i]) {
                rep.keptFloat++;
                rep.keptBytes += bytes;
            } else {
                rep.halfBytes += bytes / 2;
            }
        }
        rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return plan;
    };
    if (n == 0 || options.fp16Target <= 0) {
        rep.note = n == 0 ? "no float weights" : "fp16Target is 0";
        return finish();
    }
    const Schema::Net* net = Schema::GetNet(model.data());
    std::vector<Span> spans(n);
    for (size_t i = 0; i < n; ++i) {
        auto raw = net->constants()->Get(candidates[i])->raw();
        spans[i].offset = (size_t)(raw->data() - model.data());
        spans[i].count = raw->size() / 4;
    }
    std::vector<uint8_t> work = model;
    // candidate i as stored: float, or rounded to fp16 and back (what the engine's loader makes of it)
    auto setHalf = [&](size_t i, bool half) {
        const uint8_t* src = model.data() + spans[i].offset;
        uint8_t* dst = work.data() + spans[i].offset;
        if (!half) {
            ::memcpy(dst, src, spans[i].count * 4);
            return;
        }
        for (size_t k = 0; k < spans[i].count; ++k) {
            float f;
            ::memcpy(&f, src + 4 * k, 4);
            f = halfToFloat(floatToHalf(f));
            ::memcpy(dst + 4 * k, &f, 4);
        }
    };
    auto setAll = [&](bool half) {
        for (size_t i = 0; i < n; ++i) {
            setHalf(i, half);
        }
    };
    Runner runner(options);
    std::vector<std::vector<float>> ref, out;
    std::string why;
    auto measure = [&](double* err) {
        rep.runs++;
        if (!runner.run(work, &out, &why)) {
            return false;
        }
        // capped: an output that turns inf / NaN (a weight over 65504) counts as very large, and
        // the quadrature sums below stay finite
        *err = std::min(relativeError(out, ref), 1e3);
        return true;
    };
    rep.runs++;
    if (!runner.run(model, &ref, &why) || ref.empty()) {
        rep.note = ref.empty() && why.empty() ? "the model has no float outputs" : why;
        plan.error = runner.badCalibration ? why : "";
        return finish();
    }
    rep.measured = true;
    setAll(true);
    if (!measure(&rep.errorAll)) {
        rep.measured = false;
        rep.note = why;
        return finish();
    }
    rep.error = rep.errorAll;
    if (rep.errorAll <= options.fp16Target) {
        return finish();
    }
    // each candidate alone in fp16
    setAll(false);
    std::vector<double> single(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        setHalf(i, true);
        bool ok = measure(&single[i]);
        setHalf(i, false);
        if (!ok) {
            rep.measured = false;
            rep.note = why;
            return finish();
        }
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    auto score = [&](size_t i) { return single[i] * single[i] / (double)std::max<size_t>(spans[i].count, 1); };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return score(a) > score(b); });
    double remaining = 0;  // sum of squared single errors of the fp16 ones
    for (double e : single) {
        remaining += e * e;
    }
    // how the measured total relates to the quadrature sum (errors that add up or cancel)
    double scale = remaining > 0 ? rep.errorAll / std::sqrt(remaining) : 1.0;
    setAll(true);
    size_t next = 0;
    while (next < n) {
        while (next < n && scale * std::sqrt(std::max(remaining, 0.0)) > options.fp16Target) {
            size_t i = order[next++];
            plan.keepFloat[i] = true;
            setHalf(i, false);
            remaining -= single[i] * single[i];
        }
        if (next == n) {
            rep.error = 0;  // everything float
            break;
        }
        if (!measure(&rep.error)) {
            rep.measured = false;
            rep.note = why;
            std::fill(plan.keepFloat.begin(), plan.keepFloat.end(), false);
            return finish();
        }
        if (rep.error <= options.fp16Target) {
            break;
        }
        // the estimate was optimistic: rescale to the measurement and keep more
        double est = std::sqrt(std::max(remaining, 0.0));
        scale = est > 0 ? std::max(scale * 1.05, rep.error / est) : scale * 2;
    }
    return finish();
}

}  // namespace Convert
}  // namespace MNN
