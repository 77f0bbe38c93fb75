// Shared pieces of the command-line tools: argument parsing, session setup from flags,
// inputs from .npy or random values, tensor <-> .npy, file names for tensors, per-op profiling.
#ifndef MNN_TOOLS_TOOLCOMMON_HPP
#define MNN_TOOLS_TOOLCOMMON_HPP

#include <MNN/Interpreter.hpp>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>
#include "Npy.hpp"

namespace MNN {
namespace Tools {

/** a bad command line: the tool prints the message and a hint to run --help, and exits 2 */
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
/** a failure while working (missing file, invalid model...): the tool prints it and exits 3 */
struct ToolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum ExitCode { ExitOk = 0, ExitCheckFailed = 1, ExitUsage = 2, ExitRuntime = 3 };

/** "--name value" / "--name=value" options, boolean flags, positionals; unknown flags are errors */
class ArgParser {
public:
    /** an option taking a value (may repeat) */
    void option(const std::string& name);
    /** a flag without a value */
    void flag(const std::string& name);
    /** throws UsageError; returns false when --help / -h was given */
    bool parse(int argc, char** argv);

    bool has(const std::string& name) const;
    /** the last value given, or def */
    std::string get(const std::string& name, const std::string& def = "") const;
    std::vector<std::string> all(const std::string& name) const;
    int getInt(const std::string& name, int def, int minValue) const;
    double getDouble(const std::string& name, double def) const;
    const std::vector<std::string>& positional() const {
        return mPositional;
    }

private:
    std::set<std::string> mOptions;
    std::set<std::string> mFlags;
    std::map<std::string, std::vector<std::string>> mValues;
    std::vector<std::string> mPositional;
};

MNNForwardType parseForward(const std::string& name);
const char* forwardName(int type);
BackendConfig::PrecisionMode parsePrecision(const std::string& name);
BackendConfig::MemoryMode parseMemory(const std::string& name);
/** "name:1x3x224x224" (the last ':' separates; ',' also separates dims) */
std::pair<std::string, std::vector<int>> parseShapeSpec(const std::string& spec);

/** session settings shared by the tools */
struct RunOptions {
    MNNForwardType forward = MNN_FORWARD_CPU;
    int threads = 4;
    BackendConfig::PrecisionMode precision = BackendConfig::Precision_Normal;
    BackendConfig::MemoryMode memory = BackendConfig::Memory_Normal;
    std::vector<std::pair<std::string, std::vector<int>>> shapes;
    std::vector<std::string> saveTensors;
};
/** reads --forward --threads --precision --memory --input-shape when declared */
void declareRunOptions(ArgParser& args, bool withShapes = true);
RunOptions runOptionsFrom(const ArgParser& args);

/** creates the session and applies the shapes; throws ToolError with a clear message */
Session* createSession(Interpreter* net, const RunOptions& options, BackendConfig* backendConfig);
/** resizes the named inputs and the session; throws ToolError */
void applyShapes(Interpreter* net, Session* session,
                 const std::vector<std::pair<std::string, std::vector<int>>>& shapes);

/** the forward type the session really runs on (first pipeline) */
int sessionForward(Interpreter* net, Session* session);

/** fills a session input with deterministic pseudo-random values (floats in [-1, 1), ints in [0, 4), bools 0/1) */
void fillRandom(Tensor* sessionInput, unsigned seed);
/** a host copy of a session tensor as an .npy array of the same element type (bool tensors come out as uint8) */
Npy::Array tensorToNpy(const Tensor* tensor);
/** copies the array into a session input (same element count), converting the element type */
void npyToTensor(const Npy::Array& array, Tensor* sessionInput, const std::string& what);
/** "2x3" ("scalar" for rank 0) */
std::string shapeString(const std::vector<int64_t>& shape);

/**
 * The file name (without .npy) a tensor name is written under: bytes other than ASCII letters,
 * digits and "_.-~" become %XX (upper-case hex), as Python's urllib.parse.quote(name, safe='')
 * does; the names "." and ".." become "%2E" and "%2E%2E"; the empty name becomes "%".
 * Example: "conv1/out:0" -> "conv1%2Fout%3A0".
 */
std::string tensorFileName(const std::string& tensorName);

/** mkdir -p; throws ToolError */
void makeDirs(const std::string& path);
bool fileExists(const std::string& path);
bool isDirectory(const std::string& path);
std::string joinPath(const std::string& dir, const std::string& name);
std::string jsonEscape(const std::string& s);
std::string tensorShapeString(const Tensor* t);
std::string tensorTypeName(const Tensor* t);

inline double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/** per-op timing through runSessionWithCallBackInfo */
class OpProfiler {
public:
    OpProfiler(Interpreter* net, Session* session);
    /** one run with per-op timing; throws ToolError when the run fails */
    void run();
    /** prints the per-op table (sorted by time) and the per-type summary */
    void print(FILE* out) const;
    int runs() const {
        return mRuns;
    }

private:
    struct Entry {
        std::string name, type, algorithm;
        double totalMs = 0;
        double mflops = 0;
    };
    Interpreter* mNet;
    Session* mSession;
    std::vector<Entry> mEntries;
    int mRuns = 0;
};

}  // namespace Tools
}  // namespace MNN
#endif
