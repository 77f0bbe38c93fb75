#include "ToolCommon.hpp"
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <algorithm>
#include <random>
#include "core/SessionIntrospect.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {
namespace Tools {

// ---- arguments ----

void ArgParser::option(const std::string& name) {
    mOptions.insert(name);
}

void ArgParser::flag(const std::string& name) {
    mFlags.insert(name);
}

bool ArgParser::parse(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            return false;
        }
        if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
            std::string name = a.substr(2), value;
            bool hasValue = false;
            auto eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                hasValue = true;
            }
            if (mFlags.count(name)) {
                if (hasValue) {
                    throw UsageError("--" + name + " takes no value");
                }
                mValues[name].push_back("1");
                continue;
            }
            if (!mOptions.count(name)) {
                throw UsageError("unknown option --" + name);
            }
            if (!hasValue) {
                if (i + 1 >= argc) {
                    throw UsageError("--" + name + " needs a value");
                }
                value = argv[++i];
            }
            mValues[name].push_back(value);
            continue;
        }
        if (a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9')) {
            throw UsageError("unknown option " + a);
        }
        mPositional.push_back(a);
    }
    return true;
}

bool ArgParser::has(const std::string& name) const {
    return mValues.count(name) > 0;
}

std::string ArgParser::get(const std::string& name, const std::string& def) const {
    auto it = mValues.find(name);
    return it == mValues.end() ? def : it->second.back();
}

std::vector<std::string> ArgParser::all(const std::string& name) const {
    auto it = mValues.find(name);
    return it == mValues.end() ? std::vector<std::string>() : it->second;
}

int ArgParser::getInt(const std::string& name, int def, int minValue) const {
    if (!has(name)) {
        return def;
    }
    auto s = get(name);
    char* end = nullptr;
    errno = 0;
    long v = strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || errno != 0 || v < minValue || v > 1000000000L) {
        throw UsageError("--" + name + " needs an integer >= " + std::to_string(minValue) + ", got '" + s + "'");
    }
    return (int)v;
}

double ArgParser::getDouble(const std::string& name, double def) const {
    if (!has(name)) {
        return def;
    }
    auto s = get(name);
    char* end = nullptr;
    double v = strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !(v >= 0) || std::isinf(v)) {
        throw UsageError("--" + name + " needs a non-negative number, got '" + s + "'");
    }
    return v;
}

// ---- option values ----

MNNForwardType parseForward(const std::string& name) {
    static const std::map<std::string, MNNForwardType> kinds = {
        {"cpu", MNN_FORWARD_CPU},       {"vulkan", MNN_FORWARD_VULKAN}, {"opencl", MNN_FORWARD_OPENCL},
        {"opengl", MNN_FORWARD_OPENGL}, {"metal", MNN_FORWARD_METAL},   {"cuda", MNN_FORWARD_CUDA},
        {"auto", MNN_FORWARD_AUTO}};
    auto it = kinds.find(name);
    if (it == kinds.end()) {
        throw UsageError("--forward must be one of cpu, vulkan, opencl, opengl, metal, cuda, auto; got '" + name + "'");
    }
    return it->second;
}

const char* forwardName(int type) {
    switch (type) {
        case MNN_FORWARD_CPU:
            return "cpu";
        case MNN_FORWARD_METAL:
            return "metal";
        case MNN_FORWARD_CUDA:
            return "cuda";
        case MNN_FORWARD_OPENCL:
            return "opencl";
        case MNN_FORWARD_AUTO:
            return "auto";
        case MNN_FORWARD_NN:
            return "nn";
        case MNN_FORWARD_OPENGL:
            return "opengl";
        case MNN_FORWARD_VULKAN:
            return "vulkan";
        case MNN_FORWARD_CPU_EXTENSION:
            return "cpu-extension";
        default:
            return "user";
    }
}

BackendConfig::PrecisionMode parsePrecision(const std::string& name) {
    if (name == "normal")
        return BackendConfig::Precision_Normal;
    if (name == "high")
        return BackendConfig::Precision_High;
    if (name == "low")
        return BackendConfig::Precision_Low;
    if (name == "low-bf16")
        return BackendConfig::Precision_Low_BF16;
    throw UsageError("--precision must be normal, high, low or low-bf16; got '" + name + "'");
}

BackendConfig::MemoryMode parseMemory(const std::string& name) {
    if (name == "normal")
        return BackendConfig::Memory_Normal;
    if (name == "low")
        return BackendConfig::Memory_Low;
    if (name == "high")
        return BackendConfig::Memory_High;
    throw UsageError("--memory must be normal, low or high; got '" + name + "'");
}

std::pair<std::string, std::vector<int>> parseShapeSpec(const std::string& spec) {
    auto colon = spec.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= spec.size()) {
        throw UsageError("--input-shape needs name:DIMS such as data:1x3x224x224, got '" + spec + "'");
    }
    std::string name = spec.substr(0, colon), dims = spec.substr(colon + 1);
    std::vector<int> shape;
    size_t i = 0;
    while (i <= dims.size()) {
        size_t j = dims.find_first_of("x,", i);
        if (j == std::string::npos) {
            j = dims.size();
        }
        std::string d = dims.substr(i, j - i);
        char* end = nullptr;
        long v = strtol(d.c_str(), &end, 10);
        if (d.empty() || *end != '\0' || v < 0 || v > (1L << 30)) {
            throw UsageError("--input-shape '" + spec + "': '" + d + "' is not a dimension");
        }
        shape.push_back((int)v);
        i = j + 1;
    }
    if (shape.size() > MNN_MAX_TENSOR_DIM) {
        throw UsageError("--input-shape '" + spec + "': more than " + std::to_string(MNN_MAX_TENSOR_DIM) + " dims");
    }
    return {name, shape};
}

void declareRunOptions(ArgParser& args, bool withShapes) {
    for (auto n : {"forward", "threads", "precision", "memory"}) {
        args.option(n);
    }
    if (withShapes) {
        args.option("input-shape");
    }
}

RunOptions runOptionsFrom(const ArgParser& args) {
    RunOptions o;
    o.forward = parseForward(args.get("forward", "cpu"));
    o.threads = args.getInt("threads", 4, 1);
    o.precision = parsePrecision(args.get("precision", "normal"));
    o.memory = parseMemory(args.get("memory", "normal"));
    for (auto& s : args.all("input-shape")) {
        o.shapes.push_back(parseShapeSpec(s));
    }
    return o;
}

// ---- sessions ----

Session* createSession(Interpreter* net, const RunOptions& options, BackendConfig* backendConfig) {
    ScheduleConfig config;
    config.type = options.forward;
    config.numThread = options.threads;
    config.saveTensors = options.saveTensors;
    backendConfig->precision = options.precision;
    backendConfig->memory = options.memory;
    config.backendConfig = backendConfig;
    auto session = net->createSession(config);
    if (!session) {
        throw ToolError("could not create a session (see the [MNN] lines above)");
    }
    applyShapes(net, session, options.shapes);
    return session;
}

void applyShapes(Interpreter* net, Session* session,
                 const std::vector<std::pair<std::string, std::vector<int>>>& shapes) {
    if (shapes.empty()) {
        return;
    }
    auto& inputs = net->getSessionInputAll(session);
    for (auto& s : shapes) {
        auto it = inputs.find(s.first);
        if (it == inputs.end()) {
            std::string names;
            for (auto& kv : inputs) {
                names += (names.empty() ? "" : ", ") + kv.first;
            }
            throw ToolError("--input-shape: the model has no input '" + s.first + "' (inputs: " + names + ")");
        }
        net->resizeTensor(it->second, s.second);
        if (TensorUtils::shape(it->second) != s.second) {
            throw ToolError("--input-shape: could not resize input '" + s.first + "'");
        }
    }
    net->resizeSession(session);
}

int sessionForward(Interpreter* net, Session* session) {
    int types[16] = {0};
    if (!net->getSessionInfo(session, Interpreter::BACKENDS, types)) {
        return MNN_FORWARD_CPU;
    }
    return types[0];
}

// ---- tensors ----

// NumPy's type string for a tensor element type
static const char* descrFor(halide_type_t t) {
    if (t.code == halide_type_float) {
        return t.bits == 64 ? "<f8" : "<f4";
    }
    if (t.code == halide_type_int) {
        switch (t.bits) {
            case 8:
                return "|i1";
            case 16:
                return "<i2";
            case 32:
                return "<i4";
            default:
                return "<i8";
        }
    }
    switch (t.bits) {
        case 8:
            return "|u1";
        case 16:
            return "<u2";
        case 32:
            return "<u4";
        default:
            return "<u8";
    }
}

std::string shapeString(const std::vector<int64_t>& shape) {
    if (shape.empty()) {
        return "scalar";
    }
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i) {
        s += (i ? "x" : "") + std::to_string(shape[i]);
    }
    return s;
}

template <typename T>
static double readAs(const uint8_t* p) {
    T v;
    memcpy(&v, p, sizeof(T));
    return (double)v;
}

template <typename T>
static void writeAs(uint8_t* p, double v) {
    T x = (T)v;
    memcpy(p, &x, sizeof(T));
}

static void setElement(uint8_t* base, halide_type_t t, int64_t i, double v) {
    uint8_t* p = base + i * t.bytes();
    if (t.code == halide_type_float) {
        t.bits == 64 ? writeAs<double>(p, v) : writeAs<float>(p, v);
        return;
    }
    if (t.code == halide_type_int) {
        switch (t.bits) {
            case 8:
                writeAs<int8_t>(p, v);
                return;
            case 16:
                writeAs<int16_t>(p, v);
                return;
            case 32:
                writeAs<int32_t>(p, v);
                return;
            default:
                writeAs<int64_t>(p, v);
                return;
        }
    }
    switch (t.bits) {
        case 8:
            writeAs<uint8_t>(p, v);
            return;
        case 16:
            writeAs<uint16_t>(p, v);
            return;
        case 32:
            writeAs<uint32_t>(p, v);
            return;
        default:
            writeAs<uint64_t>(p, v);
            return;
    }
}

void fillRandom(Tensor* input, unsigned seed) {
    Tensor host(input, Tensor::CAFFE, true);
    auto type = host.getType();
    int64_t n = TensorUtils::elementCount(&host);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> uf(-1.0f, 1.0f);
    std::uniform_int_distribution<int> ui(0, 3), ub(0, 1);
    auto base = host.host<uint8_t>();
    for (int64_t i = 0; i < n; ++i) {
        double v;
        if (type.code == halide_type_float) {
            v = uf(gen);
        } else if (type.code == halide_type_uint && type.bits == 8) {
            v = ub(gen);
        } else {
            v = ui(gen);
        }
        setElement(base, type, i, v);
    }
    input->copyFromHostTensor(&host);
}

Npy::Array tensorToNpy(const Tensor* tensor) {
    Tensor host(tensor, Tensor::CAFFE, true);
    tensor->copyToHostTensor(&host);
    Npy::Array a;
    Npy::Array::parseDescr(descrFor(host.getType()), &a, nullptr);
    for (auto d : TensorUtils::shape(&host)) {
        a.shape.push_back(d);
    }
    a.raw.resize((size_t)a.count() * a.bytes);
    if (!a.raw.empty()) {
        memcpy(a.raw.data(), host.host<void>(), a.raw.size());
    }
    return a;
}

// element i of an integer array, exactly
static int64_t integerAt(const Npy::Array& a, int64_t i) {
    const uint8_t* p = a.raw.data() + i * a.bytes;
    if (a.kind == Npy::Kind::Int) {
        switch (a.bytes) {
            case 1:
                return (int64_t)readAs<int8_t>(p);
            case 2:
                return (int64_t)readAs<int16_t>(p);
            case 4:
                return (int64_t)readAs<int32_t>(p);
            default: {
                int64_t v;
                memcpy(&v, p, 8);
                return v;
            }
        }
    }
    uint64_t v = 0;
    memcpy(&v, p, a.bytes);
    return (int64_t)v;
}

void npyToTensor(const Npy::Array& array, Tensor* input, const std::string& what) {
    Tensor host(input, Tensor::CAFFE, true);
    auto type = host.getType();
    int64_t n = TensorUtils::elementCount(&host);
    if (n != array.count()) {
        throw ToolError(what + ": " + std::to_string(array.count()) + " values for a tensor of shape " +
                        tensorShapeString(input));
    }
    bool same = array.descr() == descrFor(type) || (array.descr() == "|b1" && std::string(descrFor(type)) == "|u1");
    if (same) {
        if (n > 0) {
            memcpy(host.host<void>(), array.raw.data(), (size_t)n * array.bytes);
        }
    } else {
        fprintf(stderr, "note: %s: converting %s values to %s\n", what.c_str(), array.descr().c_str(),
                TensorUtils::typeName(type));
        bool integers = array.kind != Npy::Kind::Float && type.code != halide_type_float;
        auto values = integers ? std::vector<double>() : array.toDouble();
        for (int64_t i = 0; i < n; ++i) {
            uint8_t* p = host.host<uint8_t>() + i * type.bytes();
            if (integers) {
                // integer to integer: the low bytes, as a C cast does
                int64_t v = integerAt(array, i);
                memcpy(p, &v, type.bytes());
            } else {
                setElement(host.host<uint8_t>(), type, i, values[(size_t)i]);
            }
        }
    }
    input->copyFromHostTensor(&host);
}

// ---- names and files ----

std::string tensorFileName(const std::string& name) {
    if (name.empty()) {
        return "%";
    }
    if (name == ".") {
        return "%2E";
    }
    if (name == "..") {
        return "%2E%2E";
    }
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : name) {
        bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '.' || c == '-' || c == '~';
        if (safe) {
            out.push_back((char)c);
        } else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

bool fileExists(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isDirectory(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

void makeDirs(const std::string& path) {
    if (path.empty() || isDirectory(path)) {
        return;
    }
    auto slash = path.find_last_of('/');
    if (slash != std::string::npos && slash > 0) {
        makeDirs(path.substr(0, slash));
    }
    if (mkdir(path.c_str(), 0755) != 0 && !isDirectory(path)) {
        throw ToolError("cannot create folder " + path + ": " + strerror(errno));
    }
}

std::string joinPath(const std::string& dir, const std::string& name) {
    if (dir.empty()) {
        return name;
    }
    return dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string jsonEscape(const std::string& s) {
    std::string o;
    for (unsigned char c : s) {
        switch (c) {
            case '"':
                o += "\\\"";
                break;
            case '\\':
                o += "\\\\";
                break;
            case '\n':
                o += "\\n";
                break;
            case '\t':
                o += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    snprintf(buf, sizeof(buf), "\\u%04x", c);
                    o += buf;
                } else {
                    o.push_back((char)c);
                }
        }
    }
    return o;
}

std::string tensorShapeString(const Tensor* t) {
    auto s = TensorUtils::shape(t);
    if (s.empty()) {
        return "scalar";
    }
    return TensorUtils::shapeString(s);
}

std::string tensorTypeName(const Tensor* t) {
    return TensorUtils::typeName(t->getType());
}

// ---- profiling ----

OpProfiler::OpProfiler(Interpreter* net, Session* session) : mNet(net), mSession(session) {}

void OpProfiler::run() {
    auto ops = SessionIntrospect::ops(mSession);
    if (mEntries.empty()) {
        for (auto& o : ops) {
            Entry e;
            e.name = o.name;
            e.type = o.type;
            mEntries.push_back(e);
        }
    }
    size_t index = 0;
    std::chrono::steady_clock::time_point start;
    TensorCallBackWithInfo before = [&](const std::vector<Tensor*>&, const OperatorInfo*) {
        start = std::chrono::steady_clock::now();
        return true;
    };
    TensorCallBackWithInfo after = [&](const std::vector<Tensor*>& outputs, const OperatorInfo* info) {
        for (auto t : outputs) {
            t->wait(Tensor::MAP_TENSOR_READ, true);
        }
        double ms = msSince(start);
        if (index < mEntries.size() && mEntries[index].name == info->name()) {
            mEntries[index].totalMs += ms;
            mEntries[index].mflops = info->flops();
        }
        ++index;
        return true;
    };
    auto code = mNet->runSessionWithCallBackInfo(mSession, before, after, true);
    if (code != NO_ERROR) {
        throw ToolError("profiled run failed with error code " + std::to_string((int)code));
    }
    // algorithms are known once the Executions exist (after the first run at the latest)
    auto now = SessionIntrospect::ops(mSession);
    for (size_t i = 0; i < mEntries.size() && i < now.size(); ++i) {
        mEntries[i].algorithm = now[i].algorithm;
    }
    ++mRuns;
}

static std::string clip(const std::string& s, size_t width) {
    if (s.size() <= width) {
        return s;
    }
    return s.substr(0, width - 3) + "...";
}

void OpProfiler::print(FILE* out) const {
    if (mRuns == 0) {
        return;
    }
    double total = 0;
    for (auto& e : mEntries) {
        total += e.totalMs / mRuns;
    }
    std::vector<const Entry*> sorted;
    for (auto& e : mEntries) {
        sorted.push_back(&e);
    }
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Entry* a, const Entry* b) { return a->totalMs > b->totalMs; });
    size_t nameW = 4, typeW = 4, algoW = 9;
    for (auto e : sorted) {
        nameW = std::max(nameW, std::min<size_t>(e->name.size(), 40));
        typeW = std::max(typeW, std::min<size_t>(e->type.size(), 24));
        algoW = std::max(algoW, std::min<size_t>(e->algorithm.size(), 32));
    }
    auto gflops = [](double mflops, double ms) { return ms > 0 ? mflops / ms : 0.0; };  // MFLOP/ms = GFLOP/s
    fprintf(out, "Per-op profile (%d run%s; times are averages per run):\n", mRuns, mRuns == 1 ? "" : "s");
    fprintf(out, "%-*s  %-*s  %-*s  %10s  %7s  %10s  %9s\n", (int)nameW, "Op", (int)typeW, "Type", (int)algoW,
            "Algorithm", "Avg ms", "%", "MFLOPs", "GFLOP/s");
    for (auto e : sorted) {
        double ms = e->totalMs / mRuns;
        fprintf(out, "%-*s  %-*s  %-*s  %10.4f  %6.2f%%  %10.3f  %9.2f\n", (int)nameW, clip(e->name, nameW).c_str(),
                (int)typeW, clip(e->type, typeW).c_str(), (int)algoW, clip(e->algorithm, algoW).c_str(), ms,
                total > 0 ? 100.0 * ms / total : 0.0, e->mflops, gflops(e->mflops, ms));
    }
    struct TypeSum {
        int count = 0;
        double ms = 0, mflops = 0;
    };
    std::map<std::string, TypeSum> byType;
    for (auto& e : mEntries) {
        auto& s = byType[e.type];
        s.count++;
        s.ms += e.totalMs / mRuns;
        s.mflops += e.mflops;
    }
    std::vector<std::pair<std::string, TypeSum>> types(byType.begin(), byType.end());
    std::stable_sort(types.begin(), types.end(),
                     [](const std::pair<std::string, TypeSum>& a, const std::pair<std::string, TypeSum>& b) {
                         return a.second.ms > b.second.ms;
                     });
    fprintf(out, "\nPer-type summary:\n");
    fprintf(out, "%-*s  %5s  %10s  %7s  %10s  %9s\n", (int)typeW, "Type", "Count", "Avg ms", "%", "MFLOPs", "GFLOP/s");
    for (auto& t : types) {
        fprintf(out, "%-*s  %5d  %10.4f  %6.2f%%  %10.3f  %9.2f\n", (int)typeW, clip(t.first, typeW).c_str(),
                t.second.count, t.second.ms, total > 0 ? 100.0 * t.second.ms / total : 0.0, t.second.mflops,
                gflops(t.second.mflops, t.second.ms));
    }
    fprintf(out, "%-*s  %5d  %10.4f  %6.2f%%\n", (int)typeW, "Total", (int)mEntries.size(), total, 100.0);
}

}  // namespace Tools
}  // namespace MNN
