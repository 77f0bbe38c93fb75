// MNNRun: runs a model once on .npy inputs (or fixed-seed random ones), writes the outputs as
// .npy, compares them (and intermediate tensors) with references, dumps every tensor, profiles.
#include <math.h>
#include <stdio.h>
#include <memory>
#include "common/ToolCommon.hpp"
#include "core/TensorUtils.hpp"

using namespace MNN;
using namespace MNN::Tools;

static const char* kUsage =
    "Usage: MNNRun MODEL.mnn [options]\n"
    "Runs the model once and prints its outputs (shape, type, min/max/mean).\n"
    "\n"
    "Options:\n"
    "  --input NAME=FILE.npy  value of an input (repeatable); FILE.npy alone sets the only input.\n"
    "                         Inputs not given get pseudo-random values from a fixed seed.\n"
    "                         The input is resized to the array's shape.\n"
    "  --input-shape NAME:1x3x224x224  shape of a random input (repeatable)\n"
    "  --seed N               seed of the random inputs (default 0)\n"
    "  --output-dir DIR       writes each output as DIR/<file name>.npy\n"
    "  --compare DIR          compares each output with DIR/<file name>.npy; reports max abs / max rel\n"
    "                         error and PASS/FAIL. Reference intermediates in DIR (any tensor of the\n"
    "                         graph, same naming) are checked too and the first op (in run order)\n"
    "                         whose output diverges is named.\n"
    "  --rtol R  --atol A     tolerance: |out - ref| <= A + R * |ref| (defaults 1e-3, 1e-4)\n"
    "  --dump-all DIR         writes the inputs and every op output as DIR/<file name>.npy\n"
    "  --forward cpu|vulkan|opencl|opengl|metal|cuda|auto   (default cpu)\n"
    "  --threads N            CPU threads (default 4)\n"
    "  --precision normal|high|low|low-bf16   (default normal)\n"
    "  --memory normal|low|high               (default normal)\n"
    "  --profile              times every op over --loop runs (default 10) and prints a table\n"
    "  --loop N               runs for --profile\n"
    "  --help                 this text\n"
    "\n"
    "File names: a tensor named T is stored as <file name>.npy where <file name> is T with every\n"
    "byte other than ASCII letters, digits and _.-~ written as %XX (upper-case hex), the same as\n"
    "Python's urllib.parse.quote(T, safe=''); e.g. 'conv1/out:0' -> conv1%2Fout%3A0.npy.\n"
    "When that file is missing, --compare also looks for DIR/T.npy as written.\n"
    "\n"
    "Exit status: 0 success, 1 a comparison failed, 2 bad command line, 3 the model could not be\n"
    "loaded or run.\n";

namespace {

struct Comparison {
    bool pass = true;
    double maxAbs = 0;
    double maxRel = 0;
    int64_t bad = 0;
    int64_t count = 0;
    std::string note;
};

Comparison compareArrays(const Npy::Array& got, const Npy::Array& ref, double rtol, double atol) {
    Comparison c;
    c.count = got.count();
    if (got.count() != ref.count()) {
        c.pass = false;
        c.note = "shape " + shapeString(got.shape) + " vs reference " + shapeString(ref.shape);
        return c;
    }
    if (got.shape != ref.shape) {
        c.pass = false;
        c.note = "shape " + shapeString(got.shape) + " vs reference " + shapeString(ref.shape);
    }
    auto gv = got.toDouble(), rv = ref.toDouble();
    for (int64_t i = 0; i < c.count; ++i) {
        double a = gv[(size_t)i], b = rv[(size_t)i];
        if (isnan(a) && isnan(b)) {
            continue;
        }
        if (isinf(b) && a == b) {
            continue;
        }
        double diff = fabs(a - b);
        if (isnan(diff)) {
            diff = INFINITY;
        }
        double rel = b != 0 ? diff / fabs(b) : (diff == 0 ? 0 : INFINITY);
        c.maxAbs = std::max(c.maxAbs, diff);
        c.maxRel = std::max(c.maxRel, rel);
        if (!(diff <= atol + rtol * fabs(b))) {
            c.bad++;
            c.pass = false;
        }
    }
    return c;
}

std::string describe(const Comparison& c) {
    char buf[256];
    snprintf(buf, sizeof(buf), "max abs err %.6g, max rel err %.6g, %lld of %lld outside tolerance", c.maxAbs, c.maxRel,
             (long long)c.bad, (long long)c.count);
    std::string s = buf;
    if (!c.note.empty()) {
        s += " (" + c.note + ")";
    }
    return s;
}

// DIR/<file name>.npy, else DIR/<name>.npy as written; "" when neither exists
std::string referencePath(const std::string& dir, const std::string& name) {
    auto p = joinPath(dir, tensorFileName(name) + ".npy");
    if (fileExists(p)) {
        return p;
    }
    if (!name.empty() && name.find("..") == std::string::npos) {
        p = joinPath(dir, name + ".npy");
        if (fileExists(p)) {
            return p;
        }
    }
    return "";
}

void printStats(const Npy::Array& a) {
    int64_t n = a.count();
    auto values = a.toDouble();
    if (n == 0) {
        printf("  (empty)\n");
        return;
    }
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    int64_t nans = 0;
    for (int64_t i = 0; i < n; ++i) {
        double v = values[(size_t)i];
        if (isnan(v)) {
            nans++;
            continue;
        }
        mn = std::min(mn, v);
        mx = std::max(mx, v);
        sum += v;
    }
    printf("  min %.6g  max %.6g  mean %.6g", mn, mx, n > nans ? sum / (double)(n - nans) : NAN);
    if (nans) {
        printf("  (%lld NaN)", (long long)nans);
    }
    printf("\n");
}

void writeArray(const std::string& dir, const std::string& name, const Npy::Array& a) {
    std::string error;
    if (!Npy::write(joinPath(dir, tensorFileName(name) + ".npy"), a, &error)) {
        throw ToolError(error);
    }
}

struct Divergence {
    bool found = false;
    std::string op, type, tensor;
    Comparison cmp;
    int checked = 0;
};

int runTool(int argc, char** argv) {
    ArgParser args;
    declareRunOptions(args);
    for (auto n : {"input", "output-dir", "compare", "rtol", "atol", "dump-all", "seed", "loop"}) {
        args.option(n);
    }
    args.flag("profile");
    if (!args.parse(argc, argv)) {
        printf("%s", kUsage);
        return ExitOk;
    }
    if (args.positional().size() != 1) {
        throw UsageError(args.positional().empty() ? "no model file given"
                                                   : "expected one model file, got " +
                                                         std::to_string(args.positional().size()) + " arguments");
    }
    const std::string modelPath = args.positional()[0];
    RunOptions options = runOptionsFrom(args);
    const double rtol = args.getDouble("rtol", 1e-3), atol = args.getDouble("atol", 1e-4);
    const int seed = args.getInt("seed", 0, 0);
    const int loops = args.getInt("loop", 10, 1);
    const std::string outputDir = args.get("output-dir"), compareDir = args.get("compare"),
                      dumpDir = args.get("dump-all");
    std::vector<std::pair<std::string, std::string>> inputFiles;
    for (auto& spec : args.all("input")) {
        auto eq = spec.find('=');
        if (eq == std::string::npos) {
            inputFiles.emplace_back("", spec);
        } else {
            if (eq == 0 || eq + 1 == spec.size()) {
                throw UsageError("--input needs NAME=FILE.npy, got '" + spec + "'");
            }
            inputFiles.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
        }
    }
    if (!fileExists(modelPath)) {
        throw ToolError("model file not found: " + modelPath);
    }
    if (!compareDir.empty() && !isDirectory(compareDir)) {
        throw ToolError("--compare: no such folder: " + compareDir);
    }
    std::unique_ptr<Interpreter> net(Interpreter::createFromFile(modelPath.c_str()));
    if (!net) {
        throw ToolError("could not load model " + modelPath + " (see the [MNN] line above)");
    }
    BackendConfig backendConfig;
    Session* session = createSession(net.get(), options, &backendConfig);
    int forward = sessionForward(net.get(), session);
    if (options.forward != MNN_FORWARD_AUTO && forward != options.forward) {
        fprintf(stderr, "warning: forward %s is not available; running on %s\n", forwardName(options.forward),
                forwardName(forward));
    }
    printf("Model: %s\n", modelPath.c_str());
    int threads = options.threads;
    net->getSessionInfo(session, Interpreter::THREAD_NUMBER, &threads);
    printf("Forward: %s (threads %d)\n", forwardName(forward), threads);

    // ---- inputs ----
    auto inputs = net->getSessionInputAll(session);  // copy: names -> tensors
    std::map<std::string, Npy::Array> given;
    for (auto& f : inputFiles) {
        std::string name = f.first;
        if (name.empty()) {
            if (inputs.size() != 1) {
                throw UsageError("--input " + f.second + ": the model has " + std::to_string(inputs.size()) +
                                 " inputs; use --input NAME=FILE.npy");
            }
            name = inputs.begin()->first;
        }
        if (!inputs.count(name)) {
            std::string names;
            for (auto& kv : inputs) {
                names += (names.empty() ? "" : ", ") + kv.first;
            }
            throw ToolError("--input: the model has no input '" + name + "' (inputs: " + names + ")");
        }
        Npy::Array a;
        std::string error;
        if (!Npy::read(f.second, &a, &error)) {
            throw ToolError("--input " + name + ": " + error);
        }
        if (a.shape.size() > MNN_MAX_TENSOR_DIM) {
            throw ToolError("--input " + name + ": rank " + std::to_string(a.shape.size()) + " is over the limit");
        }
        given[name] = std::move(a);
    }
    bool resized = false;
    for (auto& kv : given) {
        std::vector<int> dims(kv.second.shape.begin(), kv.second.shape.end());
        auto t = inputs[kv.first];
        if (TensorUtils::shape(t) != dims) {
            net->resizeTensor(t, dims);
            if (TensorUtils::shape(t) != dims) {
                throw ToolError("could not resize input '" + kv.first + "' to " + shapeString(kv.second.shape));
            }
            resized = true;
        }
    }
    if (resized) {
        net->resizeSession(session);
    }
    unsigned k = 0;
    for (auto& kv : inputs) {
        auto it = given.find(kv.first);
        if (it != given.end()) {
            npyToTensor(it->second, kv.second, "input " + kv.first);
            printf("Input %s: %s %s from file\n", kv.first.c_str(), tensorShapeString(kv.second).c_str(),
                   tensorTypeName(kv.second).c_str());
        } else {
            fillRandom(kv.second, (unsigned)seed + k);
            printf("Input %s: %s %s random (seed %u)\n", kv.first.c_str(), tensorShapeString(kv.second).c_str(),
                   tensorTypeName(kv.second).c_str(), (unsigned)seed + k);
        }
        ++k;
    }
    if (!dumpDir.empty()) {
        makeDirs(dumpDir);
        for (auto& kv : inputs) {
            writeArray(dumpDir, kv.first, tensorToNpy(kv.second));
        }
    }

    // ---- the run ----
    Divergence divergence;
    bool needCallbacks = !dumpDir.empty() || !compareDir.empty();
    ErrorCode code;
    if (needCallbacks) {
        TensorCallBackWithInfo before = [](const std::vector<Tensor*>&, const OperatorInfo*) { return true; };
        std::string callbackError;
        // exceptions must not cross the library's frames: caught here, the run stops
        TensorCallBackWithInfo after = [&](const std::vector<Tensor*>& outs, const OperatorInfo* info) {
            try {
                for (auto t : outs) {
                    auto& name = TensorUtils::describe(t)->name;
                    std::unique_ptr<Npy::Array> value;
                    if (!dumpDir.empty()) {
                        value.reset(new Npy::Array(tensorToNpy(t)));
                        writeArray(dumpDir, name, *value);
                    }
                    if (!compareDir.empty()) {
                        auto path = referencePath(compareDir, name);
                        if (path.empty()) {
                            continue;
                        }
                        Npy::Array ref;
                        std::string error;
                        if (!Npy::read(path, &ref, &error)) {
                            fprintf(stderr, "warning: skipping reference %s\n", error.c_str());
                            continue;
                        }
                        if (!value) {
                            value.reset(new Npy::Array(tensorToNpy(t)));
                        }
                        divergence.checked++;
                        auto c = compareArrays(*value, ref, rtol, atol);
                        if (!c.pass && !divergence.found) {
                            divergence.found = true;
                            divergence.op = info->name();
                            divergence.type = info->type();
                            divergence.tensor = name;
                            divergence.cmp = c;
                        }
                    }
                }
            } catch (const std::exception& e) {
                callbackError = e.what();
                return false;
            }
            return true;
        };
        code = net->runSessionWithCallBackInfo(session, before, after, true);
        if (!callbackError.empty()) {
            throw ToolError(callbackError);
        }
    } else {
        code = net->runSession(session);
    }
    if (code != NO_ERROR) {
        throw ToolError("the run failed with error code " + std::to_string((int)code) + " (see the [MNN] lines above)");
    }

    // ---- outputs ----
    if (!outputDir.empty()) {
        makeDirs(outputDir);
    }
    bool allPass = true;
    std::vector<std::pair<std::string, Comparison>> comparisons;
    for (auto& kv : net->getSessionOutputAll(session)) {
        auto a = tensorToNpy(kv.second);
        printf("Output %s: %s %s\n", kv.first.c_str(), shapeString(a.shape).c_str(), tensorTypeName(kv.second).c_str());
        printStats(a);
        if (!outputDir.empty()) {
            writeArray(outputDir, kv.first, a);
        }
        if (!compareDir.empty()) {
            auto path = referencePath(compareDir, kv.first);
            Comparison c;
            if (path.empty()) {
                c.pass = false;
                c.note = "no reference " + joinPath(compareDir, tensorFileName(kv.first) + ".npy");
            } else {
                Npy::Array ref;
                std::string error;
                if (!Npy::read(path, &ref, &error)) {
                    c.pass = false;
                    c.note = error;
                } else {
                    c = compareArrays(a, ref, rtol, atol);
                }
            }
            allPass = allPass && c.pass;
            comparisons.emplace_back(kv.first, c);
        }
    }
    if (!outputDir.empty()) {
        printf("Outputs written to %s\n", outputDir.c_str());
    }
    if (!dumpDir.empty()) {
        printf("Inputs and op outputs written to %s\n", dumpDir.c_str());
    }
    if (!compareDir.empty()) {
        printf("Compare with %s (rtol %g, atol %g):\n", compareDir.c_str(), rtol, atol);
        for (auto& c : comparisons) {
            printf("  %s: %s: %s\n", c.first.c_str(), c.second.pass ? "PASS" : "FAIL",
                   c.second.note.empty() || c.second.count ? describe(c.second).c_str() : c.second.note.c_str());
        }
        if (divergence.found) {
            printf("First diverging op: %s (%s), output %s: %s\n", divergence.op.c_str(), divergence.type.c_str(),
                   divergence.tensor.c_str(), describe(divergence.cmp).c_str());
        } else if (divergence.checked > 0) {
            printf("Intermediates: all %d op outputs with references match\n", divergence.checked);
        }
        allPass = allPass && !divergence.found;
        printf("Result: %s\n", allPass ? "PASS" : "FAIL");
    }

    if (args.has("profile")) {
        OpProfiler profiler(net.get(), session);
        for (int i = 0; i < loops; ++i) {
            profiler.run();
        }
        printf("\n");
        profiler.print(stdout);
    }
    return allPass ? ExitOk : ExitCheckFailed;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return runTool(argc, argv);
    } catch (const UsageError& e) {
        fprintf(stderr, "MNNRun: error: %s\nRun 'MNNRun --help' for usage.\n", e.what());
        return ExitUsage;
    } catch (const ToolError& e) {
        fprintf(stderr, "MNNRun: error: %s\n", e.what());
        return ExitRuntime;
    } catch (const std::exception& e) {
        fprintf(stderr, "MNNRun: error: %s\n", e.what());
        return ExitRuntime;
    }
}
