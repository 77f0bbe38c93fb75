// MNNBenchmark: times models (one file or every *.mnn of a folder) on random inputs.
#include <dirent.h>
#include <stdio.h>
#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include "common/ToolCommon.hpp"

using namespace MNN;
using namespace MNN::Tools;

static const char* kUsage =
    "Usage: MNNBenchmark --model PATH|DIR [options]\n"
    "Times each model (PATH, or every *.mnn in DIR) on pseudo-random inputs.\n"
    "\n"
    "Options:\n"
    "  --model PATH|DIR       a model file or a folder of *.mnn files (required)\n"
    "  --loop N               timed runs per model (default 50)\n"
    "  --warmup N             untimed runs first (default 10)\n"
    "  --pause-ms N           sleeps N ms before each timed run (default 0: back to back), as an app\n"
    "                         that runs a model per camera frame: the worker threads fall asleep\n"
    "  --threads N            CPU threads (default 4)\n"
    "  --forward cpu|vulkan|opencl|opengl|metal|cuda|auto   backend (default cpu); an unavailable one\n"
    "                         falls back to cpu with a warning, and the report names the one used\n"
    "  --precision normal|high|low|low-bf16   (default normal)\n"
    "  --memory normal|low|high               (default normal)\n"
    "  --input-shape NAME:1x3x224x224  resizes an input first (repeatable)\n"
    "  --json FILE            writes a JSON list, one object per model: model, forward, threads,\n"
    "                         precision, loop, warmup, pause_ms, min_ms, max_ms, avg_ms, median_ms,\n"
    "                         p90_ms, load_ms, session_ms, memory_mb, mflops\n"
    "  --profile              after the timed runs, times every op over --loop runs and prints a table\n"
    "  --help                 this text\n"
    "\n"
    "Exit status: 0 success, 2 bad command line, 3 a model could not be loaded or run.\n";

namespace {

struct Result {
    std::string model;
    std::string forward;
    int threads = 0;
    std::string precision;
    int loop = 0, warmup = 0, pauseMs = 0;
    double minMs = 0, maxMs = 0, avgMs = 0, medianMs = 0, p90Ms = 0;
    double loadMs = 0, sessionMs = 0;
    double memoryMB = 0, mflops = 0;
};

std::vector<std::string> listModels(const std::string& path) {
    if (!isDirectory(path)) {
        if (!fileExists(path)) {
            throw ToolError("--model: no such file or folder: " + path);
        }
        return {path};
    }
    std::vector<std::string> models;
    DIR* d = opendir(path.c_str());
    if (!d) {
        throw ToolError("--model: cannot read folder " + path);
    }
    while (auto e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 4 && n.compare(n.size() - 4, 4, ".mnn") == 0 && fileExists(joinPath(path, n))) {
            models.push_back(joinPath(path, n));
        }
    }
    closedir(d);
    std::sort(models.begin(), models.end());
    if (models.empty()) {
        throw ToolError("--model: no *.mnn files in " + path);
    }
    return models;
}

const char* precisionName(BackendConfig::PrecisionMode p) {
    switch (p) {
        case BackendConfig::Precision_High:
            return "high";
        case BackendConfig::Precision_Low:
            return "low";
        case BackendConfig::Precision_Low_BF16:
            return "low-bf16";
        default:
            return "normal";
    }
}

void waitOutputs(Interpreter* net, Session* session) {
    for (auto& kv : net->getSessionOutputAll(session)) {
        kv.second->wait(Tensor::MAP_TENSOR_READ, true);
    }
}

// one progress line on stderr, refreshed at most twice a second once a model runs over a second
class Progress {
public:
    Progress(const std::string& model) : mModel(model), mStart(std::chrono::steady_clock::now()), mLast(mStart) {
        mTty = isatty(fileno(stderr));
    }
    void update(const char* phase, int done, int total) {
        auto now = std::chrono::steady_clock::now();
        double sinceStart = std::chrono::duration<double>(now - mStart).count();
        double sinceLast = std::chrono::duration<double>(now - mLast).count();
        if (sinceStart < 1.0 || sinceLast < (mTty ? 0.5 : 5.0)) {
            return;
        }
        mLast = now;
        fprintf(stderr, mTty ? "\r%s: %s %d/%d   " : "%s: %s %d/%d\n", mModel.c_str(), phase, done, total);
        fflush(stderr);
        mShown = true;
    }
    ~Progress() {
        if (mShown && mTty) {
            fprintf(stderr, "\r%*s\r", (int)mModel.size() + 40, "");
        }
    }

private:
    std::string mModel;
    std::chrono::steady_clock::time_point mStart, mLast;
    bool mTty = false;
    bool mShown = false;
};

Result benchmark(const std::string& path, const RunOptions& options, int loop, int warmup, int pauseMs, bool profile) {
    Result r;
    r.model = path;
    r.loop = loop;
    r.warmup = warmup;
    r.pauseMs = pauseMs;
    r.precision = precisionName(options.precision);
    auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<Interpreter> net(Interpreter::createFromFile(path.c_str()));
    r.loadMs = msSince(t0);
    if (!net) {
        throw ToolError("could not load model " + path + " (see the [MNN] line above)");
    }
    BackendConfig backendConfig;
    auto t1 = std::chrono::steady_clock::now();
    Session* session = createSession(net.get(), options, &backendConfig);
    r.sessionMs = msSince(t1);
    int forward = sessionForward(net.get(), session);
    if (options.forward != MNN_FORWARD_AUTO && forward != options.forward) {
        fprintf(stderr, "warning: forward %s is not available; running on %s\n", forwardName(options.forward),
                forwardName(forward));
    }
    r.forward = forwardName(forward);
    net->getSessionInfo(session, Interpreter::THREAD_NUMBER, &r.threads);
    unsigned seed = 0;
    for (auto& kv : net->getSessionInputAll(session)) {
        fillRandom(kv.second, seed++);
    }
    Progress progress(path);
    auto runOnce = [&]() {
        auto code = net->runSession(session);
        if (code != NO_ERROR) {
            throw ToolError(path + ": the run failed with error code " + std::to_string((int)code));
        }
        waitOutputs(net.get(), session);
    };
    for (int i = 0; i < warmup; ++i) {
        runOnce();
        progress.update("warmup", i + 1, warmup);
    }
    std::vector<double> times;
    for (int i = 0; i < loop; ++i) {
        if (pauseMs > 0) {
            usleep((useconds_t)pauseMs * 1000u);
        }
        auto s = std::chrono::steady_clock::now();
        runOnce();
        times.push_back(msSince(s));
        progress.update("run", i + 1, loop);
    }
    float memory = 0, flops = 0;
    net->getSessionInfo(session, Interpreter::MEMORY, &memory);
    net->getSessionInfo(session, Interpreter::FLOPS, &flops);
    r.memoryMB = memory;
    r.mflops = flops;
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    size_t n = sorted.size();
    r.minMs = sorted.front();
    r.maxMs = sorted.back();
    double sum = 0;
    for (auto t : sorted) {
        sum += t;
    }
    r.avgMs = sum / (double)n;
    r.medianMs = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    size_t p90 = (size_t)std::max<double>(1.0, std::ceil(0.9 * (double)n)) - 1;
    r.p90Ms = sorted[std::min(p90, n - 1)];

    printf("Model: %s\n", path.c_str());
    printf("  forward: %s  threads: %d  precision: %s\n", r.forward.c_str(), r.threads, r.precision.c_str());
    printf("  load: %.3f ms  createSession: %.3f ms  memory: %.3f MB  %.3f MFLOPs\n", r.loadMs, r.sessionMs, r.memoryMB,
           r.mflops);
    printf("  %d runs after %d warmup%s: min %.4f ms  max %.4f ms  avg %.4f ms  median %.4f ms  p90 %.4f ms\n", loop,
           warmup, pauseMs > 0 ? (", each after a pause of " + std::to_string(pauseMs) + " ms").c_str() : "", r.minMs,
           r.maxMs, r.avgMs, r.medianMs, r.p90Ms);
    fflush(stdout);
    if (profile) {
        OpProfiler profiler(net.get(), session);
        for (int i = 0; i < loop; ++i) {
            profiler.run();
            progress.update("profile", i + 1, loop);
        }
        printf("\n");
        profiler.print(stdout);
        printf("\n");
    }
    return r;
}

void writeJson(const std::string& file, const std::vector<Result>& results) {
    std::ofstream f(file);
    if (!f) {
        throw ToolError("--json: cannot write " + file);
    }
    char buf[1024];
    f << "[\n";
    for (size_t i = 0; i < results.size(); ++i) {
        auto& r = results[i];
        snprintf(buf, sizeof(buf),
                 "  {\"model\": \"%s\", \"forward\": \"%s\", \"threads\": %d, \"precision\": \"%s\", \"loop\": %d, "
                 "\"warmup\": %d, \"pause_ms\": %d, \"min_ms\": %.6f, \"max_ms\": %.6f, \"avg_ms\": %.6f, "
                 "\"median_ms\": %.6f, \"p90_ms\": %.6f, \"load_ms\": %.6f, \"session_ms\": %.6f, \"memory_mb\": %.6f, "
                 "\"mflops\": %.6f}",
                 jsonEscape(r.model).c_str(), r.forward.c_str(), r.threads, r.precision.c_str(), r.loop, r.warmup,
                 r.pauseMs, r.minMs, r.maxMs, r.avgMs, r.medianMs, r.p90Ms, r.loadMs, r.sessionMs, r.memoryMB,
                 r.mflops);
        f << buf << (i + 1 < results.size() ? ",\n" : "\n");
    }
    f << "]\n";
    if (!f) {
        throw ToolError("--json: cannot write " + file);
    }
}

int runTool(int argc, char** argv) {
    ArgParser args;
    declareRunOptions(args);
    for (auto n : {"model", "loop", "warmup", "pause-ms", "json"}) {
        args.option(n);
    }
    args.flag("profile");
    if (!args.parse(argc, argv)) {
        printf("%s", kUsage);
        return ExitOk;
    }
    std::string model = args.get("model");
    if (model.empty() && args.positional().size() == 1) {
        model = args.positional()[0];
    } else if (!args.positional().empty()) {
        throw UsageError("unexpected argument '" + args.positional()[0] + "'");
    }
    if (model.empty()) {
        throw UsageError("--model PATH|DIR is required");
    }
    RunOptions options = runOptionsFrom(args);
    int loop = args.getInt("loop", 50, 1);
    int warmup = args.getInt("warmup", 10, 0);
    int pauseMs = args.getInt("pause-ms", 0, 0);
    auto models = listModels(model);
    std::vector<Result> results;
    int failures = 0;
    for (auto& m : models) {
        try {
            results.push_back(benchmark(m, options, loop, warmup, pauseMs, args.has("profile")));
        } catch (const ToolError& e) {
            fprintf(stderr, "MNNBenchmark: error: %s\n", e.what());
            failures++;
        }
    }
    if (args.has("json")) {
        writeJson(args.get("json"), results);
    }
    if (models.size() > 1) {
        printf("\n%-40s  %-8s  %7s  %10s  %10s  %10s\n", "Model", "Forward", "Threads", "Avg ms", "Median ms",
               "Memory MB");
        for (auto& r : results) {
            auto name =
                r.model.substr(r.model.find_last_of('/') == std::string::npos ? 0 : r.model.find_last_of('/') + 1);
            printf("%-40s  %-8s  %7d  %10.4f  %10.4f  %10.3f\n", name.c_str(), r.forward.c_str(), r.threads, r.avgMs,
                   r.medianMs, r.memoryMB);
        }
    }
    return failures ? ExitRuntime : ExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return runTool(argc, argv);
    } catch (const UsageError& e) {
        fprintf(stderr, "MNNBenchmark: error: %s\nRun 'MNNBenchmark --help' for usage.\n", e.what());
        return ExitUsage;
    } catch (const std::exception& e) {
        fprintf(stderr, "MNNBenchmark: error: %s\n", e.what());
        return ExitRuntime;
    }
}
