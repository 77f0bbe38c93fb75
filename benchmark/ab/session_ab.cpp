// Two configurations of one model in one process, run by run: session A and session B are created
// with their own environment (MNN_CONV_ALGO=winograd4, MNN_LAYOUT=plain, ... as NAME=VALUE[,...]; the
// variables are read while a session is created and resized) and optionally their own thread count;
// their runs alternate (A first on even rounds, B first on odd ones) with a timing callback around
// every op. Prints the sum of per-op medians and the ops of largest median time with A's and B's
// min / median; --csv writes every op's medians. On a shared machine whose load comes in phases of
// seconds, per-op medians of alternating runs resolve 3-5% differences that process-level runs do not.
//   session_ab --model M.mnn [--threads 1] [--threads-b N] [--rounds 20] [--a ENV] [--b ENV] [--top 25]
//              [--csv FILE]
// Two thread pools in one process share the cores: compare thread counts in separate processes.
#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace MNN;

namespace {

double nowMs() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/** sets NAME=VALUE[,NAME=VALUE...] ("-": nothing); returns the names set */
std::vector<std::string> setEnv(const std::string& list) {
    std::vector<std::string> names;
    if (list.empty() || list == "-") {
        return names;
    }
    size_t p0 = 0;
    while (p0 <= list.size()) {
        size_t p1 = list.find(',', p0);
        if (p1 == std::string::npos) {
            p1 = list.size();
        }
        const std::string kv = list.substr(p0, p1 - p0);
        const size_t eq = kv.find('=');
        if (eq != std::string::npos) {
            setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
            names.push_back(kv.substr(0, eq));
        }
        p0 = p1 + 1;
    }
    return names;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double minimum(const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

int usage() {
    fprintf(stderr,
            "usage: session_ab --model M.mnn [--threads 1] [--threads-b N] [--rounds 20] [--a ENV] [--b ENV]\n"
            "                  [--top 25] [--csv FILE]   (ENV: NAME=VALUE[,NAME=VALUE...] or -)\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string model, env[2] = {"-", "-"}, csv;
    int threads = 1, threadsB = 0, rounds = 20, top = 25;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            return usage();
        }
        const char* v = argv[++i];
        if (a == "--model") {
            model = v;
        } else if (a == "--threads") {
            threads = atoi(v);
        } else if (a == "--threads-b") {
            threadsB = atoi(v);
        } else if (a == "--rounds") {
            rounds = atoi(v);
        } else if (a == "--a") {
            env[0] = v;
        } else if (a == "--b") {
            env[1] = v;
        } else if (a == "--top") {
            top = atoi(v);
        } else if (a == "--csv") {
            csv = v;
        } else {
            return usage();
        }
    }
    if (model.empty() || rounds < 1 || threads < 1) {
        return usage();
    }
    std::unique_ptr<Interpreter, void (*)(Interpreter*)> net(Interpreter::createFromFile(model.c_str()),
                                                             Interpreter::destroy);
    if (!net) {
        fprintf(stderr, "session_ab: cannot load %s\n", model.c_str());
        return 3;
    }
    Session* s[2] = {nullptr, nullptr};
    for (int k = 0; k < 2; ++k) {
        const auto names = setEnv(env[k]);
        ScheduleConfig config;
        config.numThread = k == 1 && threadsB > 0 ? threadsB : threads;
        s[k] = net->createSession(config);
        for (const auto& n : names) {
            unsetenv(n.c_str());
        }
        if (!s[k]) {
            fprintf(stderr, "session_ab: session %c could not be created\n", 'A' + k);
            return 3;
        }
        for (auto& in : net->getSessionInputAll(s[k])) {
            if (in.second->getType() != halide_type_of<float>()) {
                continue;
            }
            Tensor host(in.second, Tensor::CAFFE);
            for (int i = 0; i < host.elementSize(); ++i) {
                host.host<float>()[i] = (float)((i * 7919) % 255) / 255.0f - 0.5f;
            }
            in.second->copyFromHostTensor(&host);
        }
    }
    std::map<std::string, std::vector<double>> ops[2];
    std::vector<std::string> order;
    double t0 = 0;
    for (int r = -2; r < rounds; ++r) {  // two untimed rounds first
        for (int kk = 0; kk < 2; ++kk) {
            const int k = (r & 1) ? 1 - kk : kk;
            auto before = [&](const std::vector<Tensor*>&, const OperatorInfo*) {
                t0 = nowMs();
                return true;
            };
            auto after = [&](const std::vector<Tensor*>&, const OperatorInfo* info) {
                const double ms = nowMs() - t0;
                if (r >= 0) {
                    auto& v = ops[k][info->name()];
                    if (k == 0 && v.empty()) {
                        order.push_back(info->name());
                    }
                    v.push_back(ms);
                }
                return true;
            };
            net->runSessionWithCallBackInfo(s[k], before, after, true);
        }
    }
    struct Row {
        std::string name;
        double minA, medA, minB, medB;
    };
    std::vector<Row> rows;
    double sumA = 0, sumB = 0;
    for (const auto& n : order) {
        if (!ops[1].count(n)) {
            continue;
        }
        Row row{n, minimum(ops[0][n]), median(ops[0][n]), minimum(ops[1][n]), median(ops[1][n])};
        sumA += row.medA;
        sumB += row.medB;
        rows.push_back(row);
    }
    printf("A: %s | B: %s | %d rounds\nsum of per-op medians: A %.3f ms, B %.3f ms, B/A %.3f\n", env[0].c_str(),
           env[1].c_str(), rounds, sumA, sumB, sumA > 0 ? sumB / sumA : 0.0);
    if (!csv.empty()) {
        FILE* f = fopen(csv.c_str(), "w");
        if (f) {
            fprintf(f, "op,min_a,median_a,min_b,median_b\n");
            for (const auto& row : rows) {
                fprintf(f, "%s,%.4f,%.4f,%.4f,%.4f\n", row.name.c_str(), row.minA, row.medA, row.minB, row.medB);
            }
            fclose(f);
        }
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.medA > b.medA; });
    for (int i = 0; i < top && i < (int)rows.size(); ++i) {
        const Row& row = rows[(size_t)i];
        printf("%-48s min %8.3f %8.3f  median %8.3f %8.3f  B/A %.3f\n", row.name.c_str(), row.minA, row.minB, row.medA,
               row.medB, row.medA > 0 ? row.medB / row.medA : 0.0);
    }
    for (int k = 0; k < 2; ++k) {
        net->releaseSession(s[k]);
    }
    return 0;
}
