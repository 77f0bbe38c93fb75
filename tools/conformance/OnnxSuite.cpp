// MNNOnnxSuite: runs ONNX backend test cases (model.onnx + test_data_set_0) through the converter and
// the CPU backend, each case in its own child process, and prints pass rates per group.
//
//   MNNOnnxSuite [DIR...] [--only GROUP] [--filter SUBSTR] [--verbose] [--list-passing FILE]
//                [--expect FILE] [--float-cases FILE] [--timeout SECONDS] [--check-allocations]
//
// --check-allocations: a case passes only when, after its first runSession, two more allocate nothing
// (If / Loop / Scan excepted: nested sessions).
//
// DIR is a test case folder, a group folder of cases, or a root holding group folders; without DIR
// the Debian suite /usr/share/libonnx-testdata/data/{node,simple,pytorch-converted,pytorch-operator}.
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>
#include "CaseRunner.hpp"

using namespace MNN::Conformance;

// ASan and TSan reserve terabytes of address space for their shadow memory at start-up: an
// address-space limit makes every allocation of such a child fail
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define MNN_SUITE_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MNN_SUITE_UNDER_SANITIZER 1
#endif

#ifndef MNN_DEFAULT_FLOAT_CASES
#define MNN_DEFAULT_FLOAT_CASES ""
#endif

namespace {

const char* kDebianRoot = "/usr/share/libonnx-testdata/data";
const char* kDebianGroups[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};

struct Case {
    std::string group;
    std::string name;
    std::string dir;
    std::string id() const {
        return group + "/" + name;
    }
};

struct Done {
    Case c;
    CaseResult r;
    std::string log;  // first engine / converter log line of the child
    double seconds = 0;
};

bool isDir(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool isFile(const std::string& p) {
    struct stat st;
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> listDirs(const std::string& dir) {
    std::vector<std::string> out;
    DIR* d = ::opendir(dir.c_str());
    if (!d) {
        return out;
    }
    while (auto* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n != "." && n != ".." && isDir(dir + "/" + n)) {
            out.push_back(n);
        }
    }
    ::closedir(d);
    std::sort(out.begin(), out.end());
    return out;
}

std::string baseName(std::string p) {
    while (p.size() > 1 && p.back() == '/') {
        p.pop_back();
    }
    auto s = p.find_last_of('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

void addGroup(const std::string& dir, const std::string& group, std::vector<Case>* cases) {
    for (auto& n : listDirs(dir)) {
        std::string cd = dir + "/" + n;
        if (isFile(cd + "/model.onnx")) {
            cases->push_back({group, n, cd});
        }
    }
}

// a case folder, a group folder, or a root of group folders
void addPath(const std::string& path, std::vector<Case>* cases) {
    if (isFile(path + "/model.onnx")) {
        std::string parent = path.substr(0, path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/'));
        cases->push_back({parent.empty() ? "cases" : baseName(parent), baseName(path), path});
        return;
    }
    size_t before = cases->size();
    addGroup(path, baseName(path), cases);
    if (cases->size() != before) {
        return;
    }
    for (auto& g : listDirs(path)) {
        addGroup(path + "/" + g, g, cases);
    }
}

std::vector<std::string> readList(const std::string& path, bool* ok) {
    std::vector<std::string> out;
    std::ifstream f(path);
    *ok = (bool)f;
    std::string line;
    while (std::getline(f, line)) {
        auto h = line.find('#');
        if (h != std::string::npos) {
            line = line.substr(0, h);
        }
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '\t')) {
            line.pop_back();
        }
        size_t s = 0;
        while (s < line.size() && (line[s] == ' ' || line[s] == '\t')) {
            s++;
        }
        if (s < line.size()) {
            out.push_back(line.substr(s));
        }
    }
    return out;
}

std::string oneLine(std::string s) {
    for (auto& ch : s) {
        if (ch == '\n' || ch == '\r' || ch == '\t') {
            ch = ' ';
        }
    }
    return s;
}

// runs one case in a forked child: the child writes "<outcome>\t<reason>\n" to a pipe
Done runIsolated(const Case& c, const Tolerance& tol, int timeoutSeconds, bool checkAllocations) {
    Done d;
    d.c = c;
    auto t0 = std::chrono::steady_clock::now();
    int res[2], log[2];
    if (::pipe(res) != 0 || ::pipe(log) != 0) {
        d.r.outcome = Outcome::Crash;
        d.r.reason = "pipe() failed";
        return d;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    std::cout.flush();
    pid_t pid = ::fork();
    if (pid < 0) {
        d.r.outcome = Outcome::Crash;
        d.r.reason = "fork() failed";
        ::close(res[0]); ::close(res[1]); ::close(log[0]); ::close(log[1]);
        return d;
    }
    if (pid == 0) {
        ::close(res[0]);
        ::close(log[0]);
        ::dup2(log[1], 1);
        ::dup2(log[1], 2);
        ::close(log[1]);
#if !defined(MNN_SUITE_UNDER_SANITIZER)
        // a runaway allocation must fail in the child, not take the machine (under a sanitizer
        // its allocator refuses allocations over its own limit instead)
        struct rlimit lim;
        lim.rlim_cur = lim.rlim_max = (rlim_t)8 << 30;
        ::setrlimit(RLIMIT_AS, &lim);
#endif
        CaseResult r = runCase(c.dir, tol, checkAllocations);
        std::fflush(stdout);
        std::fflush(stderr);
        std::string msg = std::to_string((int)r.outcome) + "\t" + oneLine(r.reason) + "\n";
        size_t off = 0;
        while (off < msg.size()) {
            ssize_t w = ::write(res[1], msg.data() + off, msg.size() - off);
            if (w <= 0) {
                break;
            }
            off += (size_t)w;
        }
        ::close(res[1]);
        ::_exit(0);
    }
    ::close(res[1]);
    ::close(log[1]);
    std::string resText, logText;
    bool resOpen = true, logOpen = true, timedOut = false;
    auto deadline = t0 + std::chrono::seconds(timeoutSeconds);
    char buf[4096];
    while (resOpen || logOpen) {
        auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
            timedOut = true;
            break;
        }
        int ms = (int)std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        struct pollfd fds[2];
        int n = 0;
        int ri = -1, li = -1;
        if (resOpen) {
            fds[n] = {res[0], POLLIN, 0};
            ri = n++;
        }
        if (logOpen) {
            fds[n] = {log[0], POLLIN, 0};
            li = n++;
        }
        int p = ::poll(fds, (nfds_t)n, std::max(1, std::min(ms, 1000)));
        if (p < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (ri >= 0 && (fds[ri].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t r = ::read(res[0], buf, sizeof(buf));
            if (r <= 0) {
                resOpen = false;
            } else {
                resText.append(buf, (size_t)r);
            }
        }
        if (li >= 0 && (fds[li].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t r = ::read(log[0], buf, sizeof(buf));
            if (r <= 0) {
                logOpen = false;
            } else if (logText.size() < 65536) {
                logText.append(buf, (size_t)r);
            }
        }
    }
    int status = 0;
    if (timedOut) {
        ::kill(pid, SIGKILL);
    }
    ::waitpid(pid, &status, 0);
    ::close(res[0]);
    ::close(log[0]);
    d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    auto nl = logText.find('\n');
    d.log = oneLine(logText.substr(0, nl == std::string::npos ? std::min<size_t>(logText.size(), 300) : nl));
    if (timedOut) {
        d.r.outcome = Outcome::Crash;
        d.r.reason = "timeout after " + std::to_string(timeoutSeconds) + " s";
        return d;
    }
    if (WIFSIGNALED(status)) {
        d.r.outcome = Outcome::Crash;
        int sig = WTERMSIG(status);
        d.r.reason = std::string("killed by signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
        return d;
    }
    auto tab = resText.find('\t');
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || tab == std::string::npos) {
        d.r.outcome = Outcome::Crash;
        d.r.reason = "the child exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                     " without a result";
        return d;
    }
    int o = std::atoi(resText.substr(0, tab).c_str());
    d.r.outcome = (Outcome)std::max(0, std::min(4, o));
    d.r.reason = resText.substr(tab + 1);
    while (!d.r.reason.empty() && d.r.reason.back() == '\n') {
        d.r.reason.pop_back();
    }
    return d;
}

void usage() {
    std::cerr << "usage: MNNOnnxSuite [DIR...] [--only GROUP] [--filter SUBSTR] [--verbose]\n"
                 "                    [--list-passing FILE] [--expect FILE] [--float-cases FILE]\n"
                 "                    [--timeout SECONDS] [--check-allocations]\n"
                 "DIR: a test case folder, a folder of cases, or a folder of such folders (default:\n"
                 "     the Debian suite in /usr/share/libonnx-testdata/data: node, simple,\n"
                 "     pytorch-converted, pytorch-operator)\n"
                 "Exit status: 0; 1 when --expect names a test that does not pass; 2 on bad usage;\n"
                 "77 when the default suite is not installed.\n";
}

std::string pct(int a, int b) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f%%", b ? 100.0 * a / b : 0.0);
    return buf;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> paths;
    std::string only, filter, listPassing, expectFile, floatCases = MNN_DEFAULT_FLOAT_CASES;
    bool verbose = false, checkAllocations = false;
    int timeoutSeconds = 120;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&](std::string* v) {
            if (i + 1 >= argc) {
                std::cerr << "MNNOnnxSuite: " << a << " needs a value\n";
                std::exit(2);
            }
            *v = argv[++i];
        };
        if (a == "--only") {
            value(&only);
        } else if (a == "--filter") {
            value(&filter);
        } else if (a == "--list-passing") {
            value(&listPassing);
        } else if (a == "--expect") {
            value(&expectFile);
        } else if (a == "--float-cases") {
            value(&floatCases);
        } else if (a == "--timeout") {
            std::string v;
            value(&v);
            timeoutSeconds = std::atoi(v.c_str());
            if (timeoutSeconds <= 0) {
                std::cerr << "MNNOnnxSuite: bad --timeout " << v << "\n";
                return 2;
            }
        } else if (a == "--verbose" || a == "-v") {
            verbose = true;
        } else if (a == "--check-allocations") {
            checkAllocations = true;
        } else if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "MNNOnnxSuite: unknown option " << a << "\n";
            usage();
            return 2;
        } else {
            paths.push_back(a);
        }
    }

    std::vector<Case> cases;
    if (paths.empty()) {
        if (!isDir(kDebianRoot)) {
            std::cout << "SKIP: the ONNX test data (" << kDebianRoot
                      << ") is not installed; install the Debian package libonnx-testdata or pass a folder\n";
            return 77;
        }
        for (auto g : kDebianGroups) {
            addGroup(std::string(kDebianRoot) + "/" + g, g, &cases);
        }
    } else {
        for (auto& p : paths) {
            if (!isDir(p)) {
                std::cerr << "MNNOnnxSuite: " << p << " is not a folder\n";
                return 2;
            }
            addPath(p, &cases);
        }
    }
    std::vector<Case> selected;
    for (auto& c : cases) {
        if ((only.empty() || c.group == only) && (filter.empty() || c.name.find(filter) != std::string::npos)) {
            selected.push_back(c);
        }
    }
    if (selected.empty()) {
        std::cerr << "MNNOnnxSuite: no test cases selected\n";
        return 2;
    }

    Tolerance tol;
    std::vector<Done> done;
    std::vector<std::string> groupOrder;
    for (auto& c : selected) {
        if (std::find(groupOrder.begin(), groupOrder.end(), c.group) == groupOrder.end()) {
            groupOrder.push_back(c.group);
        }
        Done d = runIsolated(c, tol, timeoutSeconds, checkAllocations);
        if (verbose) {
            std::cout << outcomeName(d.r.outcome) << "  " << d.c.id();
            if (d.r.outcome != Outcome::Pass) {
                std::cout << ": " << d.r.reason;
                if (!d.log.empty() && d.r.outcome != Outcome::NotTensor) {
                    std::cout << "  | log: " << d.log;
                }
            }
            std::cout << "\n" << std::flush;
        }
        done.push_back(std::move(d));
    }

    // ---- table
    struct Row {
        int n[5] = {0, 0, 0, 0, 0};
        int total = 0;
    };
    std::map<std::string, Row> rows;
    Row all;
    for (auto& d : done) {
        rows[d.c.group].n[(int)d.r.outcome]++;
        rows[d.c.group].total++;
        all.n[(int)d.r.outcome]++;
        all.total++;
    }
    char line[256];
    std::snprintf(line, sizeof(line), "%-22s %6s %6s %6s %11s %6s %10s", "group", "total", "pass", "wrong",
                  "unsupported", "crash", "not-tensor");
    std::cout << "\n" << line << "\n";
    auto printRow = [&](const std::string& g, const Row& r) {
        std::snprintf(line, sizeof(line), "%-22s %6d %6d %6d %11d %6d %10d", g.c_str(), r.total, r.n[0], r.n[1],
                      r.n[2], r.n[3], r.n[4]);
        std::cout << line << "\n";
    };
    for (auto& g : groupOrder) {
        printRow(g, rows[g]);
    }
    if (groupOrder.size() > 1) {
        printRow("all", all);
    }

    std::set<std::string> passing;
    for (auto& d : done) {
        if (d.r.outcome == Outcome::Pass) {
            passing.insert(d.c.id());
            passing.insert(d.c.name);
        }
    }
    std::cout << "\n";
    // float32 node cases
    if (!floatCases.empty() && isFile(floatCases)) {
        bool ok = false;
        auto names = readList(floatCases, &ok);
        int total = 0, pass = 0;
        std::set<std::string> ran;
        for (auto& d : done) {
            if (d.c.group == "node") {
                ran.insert(d.c.name);
            }
        }
        for (auto& n : names) {
            if (ran.count(n)) {
                total++;
                pass += passing.count("node/" + n) ? 1 : 0;
            }
        }
        if (total > 0) {
            std::cout << "float32 node cases (" << baseName(floatCases) << "): " << pass << " / " << total
                      << " pass (" << pct(pass, total) << ")";
            if (total != (int)names.size()) {
                std::cout << " [" << names.size() - total << " of the list not run]";
            }
            std::cout << "\n";
        }
    }
    int tensorTotal = all.total - all.n[(int)Outcome::NotTensor];
    int failed = all.n[1] + all.n[2] + all.n[3];
    std::cout << "tensor tests: " << all.n[0] << " / " << tensorTotal << " pass (" << pct(all.n[0], tensorTotal)
              << "); " << all.n[4] << " not-tensor tests left out\n";

    if (!listPassing.empty()) {
        std::ofstream f(listPassing);
        if (!f) {
            std::cerr << "MNNOnnxSuite: cannot write " << listPassing << "\n";
            return 2;
        }
        f << "# ONNX conformance cases that pass (MNNOnnxSuite --list-passing); one group/name per line\n";
        for (auto& d : done) {
            if (d.r.outcome == Outcome::Pass) {
                f << d.c.id() << "\n";
            }
        }
    }

    int regressions = 0;
    if (!expectFile.empty()) {
        bool ok = false;
        auto names = readList(expectFile, &ok);
        if (!ok) {
            std::cerr << "MNNOnnxSuite: cannot read " << expectFile << "\n";
            return 2;
        }
        std::map<std::string, const Done*> byId, byName;
        for (auto& d : done) {
            byId[d.c.id()] = &d;
            byName[d.c.name] = &d;
        }
        std::set<std::string> allIds, allNames;
        for (auto& c : cases) {
            allIds.insert(c.id());
            allNames.insert(c.name);
        }
        for (auto& n : names) {
            bool qualified = n.find('/') != std::string::npos;
            auto& m = qualified ? byId : byName;
            auto it = m.find(n);
            if (it == m.end()) {
                bool existsAtAll = qualified ? allIds.count(n) : allNames.count(n);
                bool filtered = !only.empty() || !filter.empty();
                if (!existsAtAll) {
                    // a group the run did not include (other data root) is not a regression
                    std::string group = qualified ? n.substr(0, n.find('/')) : "";
                    bool groupRan = rows.count(group) > 0;
                    if (groupRan || (!qualified && !filtered)) {
                        std::cout << "REGRESSION " << n << ": the test case is missing\n";
                        regressions++;
                    }
                }
                continue;
            }
            if (it->second->r.outcome != Outcome::Pass) {
                std::cout << "REGRESSION " << n << ": " << outcomeName(it->second->r.outcome) << ": "
                          << it->second->r.reason << "\n";
                regressions++;
            }
        }
        std::cout << regressions << " regression(s) against " << baseName(expectFile) << " (" << names.size()
                  << " expected to pass)\n";
    }
    std::cout << all.n[0] << " passed, " << failed << " failed\n";
    return regressions ? 1 : 0;
}
