#include "Session.hpp"
#include "SessionUnit.hpp"
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <queue>
#include "Macro.hpp"
#include "Registry.hpp"
#include "TensorUtils.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "ArenaPlanner.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

namespace {
class UnitInfo : public OperatorInfo {
public:
    void set(const std::string& name, const std::string& type, float flops) {
        mName = name;
        mType = type;
        mFlops = flops;
    }
};
}  // namespace

OperatorInfo::OperatorInfo() : mContent(nullptr) {}
OperatorInfo::~OperatorInfo() {}

std::string GraphRef::tensorName(int i) const {
    if (!tensorNames || i < 0 || i >= (int)tensorNames->size() || !tensorNames->Get(i)) {
        return "#" + std::to_string(i);
    }
    return tensorNames->Get(i)->str();
}

GraphRef GraphRef::fromNet(const Schema::Net* net) {
    GraphRef g;
    g.tensorNames = net->tensorNames();
    g.ops = net->ops();
    g.constants = net->constants();
    g.inputs = net->inputs();
    g.outputs = net->outputs();
    return g;
}

GraphRef GraphRef::fromSubGraph(const Schema::SubGraph* graph) {
    GraphRef g;
    g.tensorNames = graph->tensorNames();
    g.ops = graph->ops();
    g.constants = graph->constants();
    g.inputs = graph->inputDecls();
    g.outputs = graph->outputs();
    return g;
}

static const char* opName(const Schema::Op* op) {
    return (op && op->name()) ? op->name()->c_str() : "";
}

Session::Session(const GraphRef& graph, const std::vector<ScheduleConfig>& configs, const SessionOptions& options)
    : mGraph(graph), mConfigs(configs), mOptions(options) {}

Session::~Session() {
    // Backends forget their planned tensors (graph tensors and the Executions' own scratch
    // tensors) first; then Executions (they may release STATIC memory), tensors, backends.
    clearPlans();
    if (mEvalBackend) {
        mEvalBackend->onClearBuffer();
    }
    mUnits.clear();
    mTensors.clear();
    mBackends.clear();
    mCPUFallback.reset();
    mEvalBackend.reset();
}

// Decodes a constant into a tensor (STATIC memory of `backend`).
// alias: a plain constant whose bytes are aligned for its type may point into the model buffer
// (returned in *aliased) instead of a STATIC copy
static const char* errorName(ErrorCode code) {
    switch (code) {
        case OUT_OF_MEMORY:
            return "out of memory";
        case NOT_SUPPORT:
            return "not supported at these shapes or types";
        case COMPUTE_SIZE_ERROR:
            return "size error";
        case NO_EXECUTION:
            return "no execution";
        case INVALID_VALUE:
            return "invalid value";
        case INPUT_DATA_ERROR:
            return "input data error";
        default:
            return "error";
    }
}

/** an Execution's reason without a leading "op <name> (<type>): " / "op <name>: " (the line has them) */
static const char* ownReason(const char* reason, const char* name) {
    const size_t n = strlen(name);
    if (strncmp(reason, "op ", 3) == 0 && strncmp(reason + 3, name, n) == 0) {
        const char* rest = reason + 3 + n;
        if (rest[0] == ' ' && rest[1] == '(') {
            rest = strchr(rest, ')');
            rest = rest ? rest + 1 : reason + 3 + n;
        }
        if (rest[0] == ':' && rest[1] == ' ') {
            return rest + 2;
        }
    }
    return reason;
}

/** "name 1x3x224x224 float, name2 4 int32" for a log line */
static std::string shapesOf(const std::vector<Tensor*>& ts) {
    std::string s;
    for (auto t : ts) {
        if (!s.empty()) {
            s += ", ";
        }
        if (!t) {
            s += "(none)";
            continue;
        }
        s += TensorUtils::describe(t)->name + " " + TensorUtils::shapeString(t) + " " +
             TensorUtils::typeName(t->getType());
    }
    return s.empty() ? "(none)" : s;
}

static bool loadConstant(const Schema::Blob* blob, Tensor* t, Backend* backend, const std::string& name, bool alias,
                         bool* aliased) {
    *aliased = false;
    std::vector<int> dims;
    if (blob->dims()) {
        dims.assign(blob->dims()->begin(), blob->dims()->end());
    }
    auto dtype = blob->dataType();
    t->buffer().type = TensorUtils::typeOf(dtype);
    if (t->getType().code == halide_type_handle) {
        MNN_ERROR("constant %s: unsupported data type %s\n", name.c_str(), Schema::EnumNameDataType(dtype));
        return false;
    }
    TensorUtils::describe(t)->dimType = Tensor::CAFFE;
    TensorUtils::setShape(t, dims);
    int64_t count = 0;
    if (!TensorUtils::checkedProduct(dims, (int64_t)1 << 40, &count)) {
        MNN_ERROR("constant %s: invalid dims %s\n", name.c_str(), TensorUtils::shapeString(dims).c_str());
        return false;
    }
    size_t rawSize = blob->raw() ? blob->raw()->size() : 0;
    const uint8_t* raw = blob->raw() ? blob->raw()->data() : nullptr;
    auto compression = blob->compression();
    const int elemBytes = t->getType().bytes();
    if (alias && raw && compression == Schema::Compression::NONE && dtype != Schema::DataType::DT_FLOAT16 &&
        dtype != Schema::DataType::DT_BFLOAT16 && count > 0 && rawSize == (size_t)count * elemBytes && elemBytes > 0 &&
        (uintptr_t)raw % (uintptr_t)elemBytes == 0) {
        TensorUtils::freeHost(t);
        t->buffer().host = const_cast<uint8_t*>(raw);  // read-only by contract: kernels never write constants
        TensorUtils::describe(t)->backend = backend;
        *aliased = true;
        return true;
    }
    if (!backend->onAcquireBuffer(t, Backend::STATIC)) {
        MNN_ERROR("constant %s: cannot allocate %s: %s\n", name.c_str(), TensorUtils::shapeString(t).c_str(),
                  backend->errorReason());
        backend->clearErrorReason();
        return false;
    }
    if (compression == Schema::Compression::FP16 || dtype == Schema::DataType::DT_FLOAT16 ||
        dtype == Schema::DataType::DT_BFLOAT16) {
        if (rawSize != (size_t)count * 2) {
            MNN_ERROR("constant %s: %zu bytes for %lld fp16 values\n", name.c_str(), rawSize, (long long)count);
            return false;
        }
        auto dst = t->host<float>();
        for (int64_t i = 0; i < count; ++i) {
            uint16_t h;
            ::memcpy(&h, raw + 2 * i, 2);
            dst[i] = dtype == Schema::DataType::DT_BFLOAT16 ? TensorUtils::bf16ToFloat(h) : TensorUtils::fp16ToFloat(h);
        }
        return true;
    }
    if (compression == Schema::Compression::INT8_PER_CHANNEL) {
        int axis = blob->quantAxis();
        if (axis < 0 || (axis >= (int)dims.size() && !dims.empty()) || rawSize != (size_t)count) {
            MNN_ERROR("constant %s: bad int8 weight encoding\n", name.c_str());
            return false;
        }
        int64_t channels = dims.empty() ? 1 : dims[axis];
        int64_t inner = 1;
        for (size_t i = axis + 1; i < dims.size(); ++i) {
            inner *= dims[i];
        }
        if (!blob->scales() || (int64_t)blob->scales()->size() != channels) {
            MNN_ERROR("constant %s: int8 weights need %lld scales\n", name.c_str(), (long long)channels);
            return false;
        }
        auto dst = t->host<float>();
        for (int64_t i = 0; i < count; ++i) {
            int64_t c = channels > 0 ? (i / inner) % channels : 0;
            dst[i] = (float)((int8_t)raw[i]) * blob->scales()->Get((flatbuffers::uoffset_t)c);
        }
        return true;
    }
    size_t need = (size_t)count * t->getType().bytes();
    if (rawSize != need) {
        MNN_ERROR("constant %s: %zu bytes stored, %zu needed for %s %s\n", name.c_str(), rawSize, need,
                  TensorUtils::typeName(t->getType()), TensorUtils::shapeString(dims).c_str());
        return false;
    }
    if (need) {
        ::memcpy(t->host<void>(), raw, need);
    }
    return true;
}

bool Session::schedule() {
    const int tensorCount = mGraph.tensorCount();
    const int opCount = mGraph.ops ? (int)mGraph.ops->size() : 0;
    std::vector<int> producerOp(tensorCount, -1);
    for (int i = 0; i < opCount; ++i) {
        auto op = mGraph.ops->Get(i);
        if (!op->outputs()) {
            continue;
        }
        for (auto o : *op->outputs()) {
            if (o < 0 || o >= tensorCount) {
                MNN_ERROR("op %s: output tensor index %d out of range [0, %d)\n", opName(op), o, tensorCount);
                return false;
            }
            if (producerOp[o] >= 0) {
                MNN_ERROR("op %s: tensor %s is produced twice\n", opName(op), mGraph.tensorName(o).c_str());
                return false;
            }
            producerOp[o] = i;
        }
    }
    std::vector<bool> isConst(tensorCount, false), isGraphInput(tensorCount, false);
    if (mGraph.constants) {
        for (auto b : *mGraph.constants) {
            int idx = b->tensorIndex();
            if (idx < 0 || idx >= tensorCount) {
                MNN_ERROR("constant tensor index %d out of range [0, %d)\n", idx, tensorCount);
                return false;
            }
            isConst[idx] = true;
        }
    }
    if (mGraph.inputs) {
        for (auto d : *mGraph.inputs) {
            int idx = d->tensorIndex();
            if (idx < 0 || idx >= tensorCount) {
                MNN_ERROR("graph input tensor index %d out of range [0, %d)\n", idx, tensorCount);
                return false;
            }
            isGraphInput[idx] = true;
        }
    }
    auto findTensor = [&](const std::string& n) -> int {
        for (int i = 0; i < tensorCount; ++i) {
            if (mGraph.tensorName(i) == n) {
                return i;
            }
        }
        return -1;
    };
    auto findOp = [&](const std::string& n) -> int {
        for (int i = 0; i < opCount; ++i) {
            auto op = mGraph.ops->Get(i);
            if (op->name() && op->name()->str() == n) {
                return i;
            }
        }
        return -1;
    };
    // Per path: which tensors are its inputs and outputs.
    std::vector<bool> isSessionInput(tensorCount, false);
    std::vector<int> opPath(opCount, -1);
    std::vector<int> outputs;
    for (size_t p = 0; p < mConfigs.size(); ++p) {
        auto& path = mConfigs[p].path;
        std::vector<int> pathIn, pathOut;
        for (auto& n : path.inputs) {
            if (path.mode == ScheduleConfig::Path::Tensor) {
                int t = findTensor(n);
                if (t < 0) {
                    MNN_ERROR("path input tensor '%s' is not in the model\n", n.c_str());
                    return false;
                }
                pathIn.push_back(t);
            } else {
                int o = findOp(n);
                if (o < 0) {
                    MNN_ERROR("path input op '%s' is not in the model\n", n.c_str());
                    return false;
                }
                auto op = mGraph.ops->Get(o);
                if (op->inputs()) {
                    for (auto t : *op->inputs()) {
                        if (t >= 0 && t < tensorCount && !isConst[t]) {
                            pathIn.push_back(t);
                        }
                    }
                }
            }
        }
        for (auto& n : path.outputs) {
            if (path.mode == ScheduleConfig::Path::Tensor) {
                int t = findTensor(n);
                if (t < 0) {
                    MNN_ERROR("path output tensor '%s' is not in the model\n", n.c_str());
                    return false;
                }
                pathOut.push_back(t);
            } else {
                int o = findOp(n);
                if (o < 0) {
                    MNN_ERROR("path output op '%s' is not in the model\n", n.c_str());
                    return false;
                }
                auto op = mGraph.ops->Get(o);
                if (op->outputs()) {
                    pathOut.insert(pathOut.end(), op->outputs()->begin(), op->outputs()->end());
                }
            }
        }
        if (pathOut.empty() && mGraph.outputs) {
            for (auto o : *mGraph.outputs) {
                pathOut.push_back(o);
            }
        }
        std::vector<bool> stopAt(tensorCount, false);
        for (auto t : pathIn) {
            stopAt[t] = true;
            isSessionInput[t] = true;
        }
        // backward reachability from the outputs, stopping at inputs and constants
        std::vector<int> stack(pathOut.begin(), pathOut.end());
        std::vector<bool> seen(tensorCount, false);
        while (!stack.empty()) {
            int t = stack.back();
            stack.pop_back();
            if (t < 0 || t >= tensorCount || seen[t]) {
                if (t >= tensorCount) {
                    MNN_ERROR("tensor index %d out of range [0, %d)\n", t, tensorCount);
                    return false;
                }
                continue;
            }
            seen[t] = true;
            if (stopAt[t] || isConst[t]) {
                continue;
            }
            int o = producerOp[t];
            if (o < 0) {
                if (!isGraphInput[t]) {
                    MNN_ERROR("tensor %s is used but no op produces it and it is not an input or constant\n",
                              mGraph.tensorName(t).c_str());
                    return false;
                }
                isSessionInput[t] = true;
                continue;
            }
            if (opPath[o] >= 0) {
                continue;
            }
            opPath[o] = (int)p;
            auto op = mGraph.ops->Get(o);
            if (op->inputs()) {
                for (auto i : *op->inputs()) {
                    if (i >= 0) {
                        stack.push_back(i);
                    } else if (i < -1) {
                        MNN_ERROR("op %s: input tensor index %d is invalid\n", opName(op), i);
                        return false;
                    }
                }
            }
        }
        for (auto t : pathOut) {
            if (std::find(outputs.begin(), outputs.end(), t) == outputs.end()) {
                outputs.push_back(t);
            }
        }
    }
    // A path input computed by another path's op is not a session input.
    for (int t = 0; t < tensorCount; ++t) {
        if (isSessionInput[t] && producerOp[t] >= 0 && opPath[producerOp[t]] >= 0) {
            isSessionInput[t] = false;
        }
    }
    // Graph inputs: all of them when no path narrows the session (an app fills every declared
    // input, even one no op reads), else those the chosen ops read.
    bool anyPathInputs = false;
    for (auto& cfg : mConfigs) {
        anyPathInputs = anyPathInputs || !cfg.path.inputs.empty() || !cfg.path.outputs.empty();
    }
    if (mGraph.inputs) {
        for (auto d : *mGraph.inputs) {
            int idx = d->tensorIndex();
            if (!anyPathInputs && !isConst[idx] && (producerOp[idx] < 0 || opPath[producerOp[idx]] < 0)) {
                isSessionInput[idx] = true;
            }
            if (isSessionInput[idx] &&
                std::find(mInputIndices.begin(), mInputIndices.end(), idx) == mInputIndices.end()) {
                mInputIndices.push_back(idx);
            }
        }
    }
    for (int t = 0; t < tensorCount; ++t) {
        if (isSessionInput[t] && std::find(mInputIndices.begin(), mInputIndices.end(), t) == mInputIndices.end()) {
            mInputIndices.push_back(t);
        }
    }
    mOutputIndices = outputs;
    // Topological order (Kahn), stable in model order.
    std::vector<int> pending(opCount, 0);
    std::vector<std::vector<int>> consumers(tensorCount);
    for (int o = 0; o < opCount; ++o) {
        if (opPath[o] < 0) {
            continue;
        }
        auto op = mGraph.ops->Get(o);
        if (op->inputs()) {
            for (auto i : *op->inputs()) {
                if (i >= 0 && !isSessionInput[i] && !isConst[i] && producerOp[i] >= 0) {
                    pending[o]++;
                    consumers[i].push_back(o);
                }
            }
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (int o = 0; o < opCount; ++o) {
        if (opPath[o] >= 0 && pending[o] == 0) {
            ready.push(o);
        }
    }
    std::vector<int> order;
    while (!ready.empty()) {
        int o = ready.top();
        ready.pop();
        order.push_back(o);
        auto op = mGraph.ops->Get(o);
        if (op->outputs()) {
            for (auto t : *op->outputs()) {
                for (auto c : consumers[t]) {
                    if (--pending[c] == 0) {
                        ready.push(c);
                    }
                }
            }
        }
    }
    size_t scheduled = 0;
    for (int o = 0; o < opCount; ++o) {
        scheduled += opPath[o] >= 0 ? 1 : 0;
    }
    if (order.size() != scheduled) {
        for (int o = 0; o < opCount; ++o) {
            if (opPath[o] >= 0 && pending[o] > 0) {
                MNN_ERROR("op %s is part of a cycle in the graph\n", opName(mGraph.ops->Get(o)));
                break;
            }
        }
        return false;  // reported by the cycle line above
    }
    // Tensors
    mTensors.resize(tensorCount);
    for (int t = 0; t < tensorCount; ++t) {
        mTensors[t].reset(new Tensor(0, Tensor::CAFFE));
        auto des = TensorUtils::describe(mTensors[t].get());
        des->name = mGraph.tensorName(t);
        des->index = t;
    }
    mProducer.assign(tensorCount, -1);
    for (auto o : order) {
        auto op = mGraph.ops->Get(o);
        std::unique_ptr<Unit> u(new Unit);
        u->opIndex = o;
        u->op = op;
        u->path = opPath[o];
        if (op->inputs()) {
            u->inputIdx.assign(op->inputs()->begin(), op->inputs()->end());
        }
        while (!u->inputIdx.empty() && u->inputIdx.back() < 0) {
            u->inputIdx.pop_back();
        }
        if (op->outputs()) {
            u->outputIdx.assign(op->outputs()->begin(), op->outputs()->end());
        }
        for (auto i : u->inputIdx) {
            u->inputs.push_back(i >= 0 ? mTensors[i].get() : nullptr);
            if (i >= 0) {
                u->cbInputs.push_back(mTensors[i].get());
            }
        }
        for (auto i : u->outputIdx) {
            u->outputs.push_back(mTensors[i].get());
            mProducer[i] = (int)mUnits.size();
        }
        mUnits.emplace_back(std::move(u));
    }
    return true;
}

bool Session::init() {
    registerAll();
    if (mConfigs.empty()) {
        mConfigs.emplace_back();
    }
    // Backends, one per path
    for (auto& cfg : mConfigs) {
        auto type = cfg.type;
        if (type == MNN_FORWARD_AUTO) {
            type = MNN_FORWARD_CPU;
        }
        auto creator = getRuntimeCreator(type);
        Runtime* rt = creator ? creator(cfg) : nullptr;
        if (!rt) {
            MNN_ERROR("forward type %d is not available here; falling back to backup type %d\n", (int)cfg.type,
                      (int)cfg.backupType);
            auto backup = getRuntimeCreator(cfg.backupType);
            rt = backup ? backup(cfg) : nullptr;
            if (!rt) {
                rt = new CPURuntime(cfg);
            }
        }
        mRuntimes.emplace_back(rt);
        mBackends.emplace_back(rt->onCreate(cfg.backendConfig));
    }
    BackendConfig defaultConfig;
    auto firstConfig = mConfigs[0].backendConfig ? mConfigs[0].backendConfig : &defaultConfig;
    mCPUFallback.reset(new CPUBackend(firstConfig, mRuntimes[0]->threadNumber()));
    mEvalBackend.reset(new CPUBackend(firstConfig, 1, true));
    for (auto& b : mBackends) {
        b->setMemoryLimit(mOptions.arenaLimitBytes);
    }
    mCPUFallback->setMemoryLimit(mOptions.arenaLimitBytes);
    mEvalBackend->setMemoryLimit(mOptions.arenaLimitBytes);
    if (!schedule()) {
        return false;  // reported by schedule
    }
    for (auto& u : mUnits) {
        u->backend = mBackends[u->path].get();
    }
    if (!setupTensors()) {
        return false;  // reported by setupTensors
    }
    auto code = resize(false);
    if (code != NO_ERROR && !mPlaceholderInputs.empty()) {
        // the model's unknown input dims planned as 1 do not fit some op (a pooling window, a
        // Concat of upsampled maps): the app resizes the inputs before its first run
        auto t = mPlaceholderInputs[0].first;
        MNN_ERROR(
            "createSession: input %s has unknown dims, planned as %s, which the op above rejects; the session is "
            "prepared when resizeTensor gives the inputs their real shapes\n",
            TensorUtils::describe(t)->name.c_str(), TensorUtils::shapeString(t).c_str());
        mNeedResize = true;
        mReady = false;
        return true;
    }
    return code == NO_ERROR;
}

bool Session::setupTensors() {
    const int tensorCount = mGraph.tensorCount();
    // constants live in STATIC memory of the CPU fallback backend (host memory)
    if (mGraph.constants) {
        for (auto blob : *mGraph.constants) {
            int idx = blob->tensorIndex();
            auto t = mTensors[idx].get();
            TensorUtils::describe(t)->usage = Tensor::InsideDescribe::CONSTANT;
            bool aliased = false;
            if (!loadConstant(blob, t, mCPUFallback.get(), mGraph.tensorName(idx), mOptions.aliasConstants, &aliased)) {
                return false;  // reported by loadConstant
            }
            if (aliased) {
                mAliasedConstants.push_back(idx);
                mAliasedBytes += TensorUtils::byteSize(t);
            }
        }
    }
    for (auto idx : mInputIndices) {
        auto t = mTensors[idx].get();
        auto des = TensorUtils::describe(t);
        if (des->usage == Tensor::InsideDescribe::CONSTANT) {
            continue;
        }
        des->usage = Tensor::InsideDescribe::INPUT;
        std::vector<int> dims;
        bool unknownDims = false;
        halide_type_t type = halide_type_of<float>();
        if (mGraph.inputs) {
            for (auto d : *mGraph.inputs) {
                if (d->tensorIndex() == idx) {
                    if (d->dims()) {
                        for (auto v : *d->dims()) {
                            dims.push_back(v < 0 ? 1 : v);  // unknown dims start at 1
                            unknownDims = unknownDims || v < 0;
                        }
                    }
                    type = TensorUtils::typeOf(d->dataType());
                    if (type.code == halide_type_handle) {
                        MNN_ERROR("input %s: unsupported data type %s\n", des->name.c_str(),
                                  Schema::EnumNameDataType(d->dataType()));
                        return false;
                    }
                }
            }
        }
        if (dims.size() > MNN_MAX_TENSOR_DIM) {
            MNN_ERROR("input %s: rank %d over the limit %d\n", des->name.c_str(), (int)dims.size(), MNN_MAX_TENSOR_DIM);
            return false;
        }
        t->buffer().type = type;
        TensorUtils::setShape(t, dims);
        if (unknownDims) {
            mPlaceholderInputs.emplace_back(t, dims);
        }
        int64_t count = 0;
        if (!TensorUtils::checkedProduct(dims, mOptions.tensorLimitBytes / type.bytes(), &count)) {
            MNN_ERROR("input %s: shape %s is invalid or over the tensor size limit\n", des->name.c_str(),
                      TensorUtils::shapeString(dims).c_str());
            return false;
        }
        if (!TensorUtils::allocHost(t)) {
            return false;  // reported by allocHost
        }
        mInputMap[des->name] = t;
    }
    for (auto idx : mOutputIndices) {
        auto t = mTensors[idx].get();
        auto des = TensorUtils::describe(t);
        if (des->usage == Tensor::InsideDescribe::NORMAL) {
            des->usage = Tensor::InsideDescribe::OUTPUT;
        }
        mOutputMap[des->name] = t;
    }
    for (auto& n : mOptions.saveTensors) {
        for (int t = 0; t < tensorCount; ++t) {
            if (TensorUtils::describe(mTensors[t].get())->name == n) {
                mSaved.insert(t);
                mOutputMap[n] = mTensors[t].get();
            }
        }
    }
    return true;
}

Tensor* Session::valueOf(int idx, bool inputValuesKnown, std::map<int, std::unique_ptr<Tensor>>& cache, bool* failed) {
    auto t = mTensors[idx].get();
    auto usage = TensorUtils::describe(t)->usage;
    if (usage == Tensor::InsideDescribe::CONSTANT) {
        return t;
    }
    if (usage == Tensor::InsideDescribe::INPUT) {
        if (!inputValuesKnown) {
            return nullptr;  // not an error: the value is not known yet (failed says whether it is an error)
        }
        bool recorded = false;
        for (auto& k : mValueKey) {
            recorded = recorded || k.first == idx;
        }
        if (!recorded) {
            auto bytes = TensorUtils::byteSize(t);
            std::vector<uint8_t> v(t->host<uint8_t>(), t->host<uint8_t>() + bytes);
            mValueKey.emplace_back(idx, std::move(v));
            mValueKeyShapes.emplace_back(idx, TensorUtils::shape(t));
        }
        return t;
    }
    auto it = cache.find(idx);
    if (it != cache.end()) {
        return it->second.get();
    }
    int p = mProducer[idx];
    if (p < 0) {
        return nullptr;  // not an error: the value is not known yet (failed says whether it is an error)
    }
    auto& u = *mUnits[p];
    auto producerEntry = getShape(u.op->type());
    const bool shapesOnly = producerEntry && producerEntry->valuesFromShapesOnly;
    std::vector<Tensor*> ins;
    for (auto i : u.inputIdx) {
        if (i < 0) {
            ins.push_back(nullptr);
            continue;
        }
        if (shapesOnly) {
            // Shape / Size: the input's shape is already known, its values are not needed
            ins.push_back(mTensors[i].get());
            continue;
        }
        auto v = valueOf(i, inputValuesKnown, cache, failed);
        if (!v) {
            return nullptr;  // not an error: the value is not known yet (failed says whether it is an error)
        }
        ins.push_back(v);
    }
    std::vector<std::unique_ptr<Tensor>> outs;
    std::vector<Tensor*> outPtrs;
    for (auto o : u.outputs) {
        std::unique_ptr<Tensor> c(new Tensor(0, Tensor::CAFFE));
        c->buffer().type = o->getType();
        TensorUtils::setShape(c.get(), TensorUtils::shape(o));
        TensorUtils::describe(c.get())->name = TensorUtils::describe(o)->name;
        if (!mEvalBackend->onAcquireBuffer(c.get(), Backend::DYNAMIC)) {
            MNN_ERROR("op %s (%s): cannot allocate the value of %s (%s) for a shape function: %s\n", opName(u.op),
                      opTypeName(u.op->type()), TensorUtils::describe(o)->name.c_str(),
                      TensorUtils::shapeString(o).c_str(), mEvalBackend->errorReason());
            mEvalBackend->clearErrorReason();
            *failed = true;
            return nullptr;
        }
        outPtrs.push_back(c.get());
        outs.emplace_back(std::move(c));
    }
    std::unique_ptr<Execution> exe(mEvalBackend->onCreate(ins, outPtrs, u.op));
    if (!exe) {
        MNN_ERROR("op %s (%s): no CPU kernel to evaluate a shape-determining value\n", opName(u.op),
                  opTypeName(u.op->type()));
        *failed = true;
        return nullptr;
    }
    if (exe->onResize(ins, outPtrs) != NO_ERROR || exe->onExecute(ins, outPtrs) != NO_ERROR) {
        MNN_ERROR("op %s (%s): evaluating a shape-determining value failed\n", opName(u.op), opTypeName(u.op->type()));
        *failed = true;
        return nullptr;
    }
    for (size_t k = 0; k < u.outputIdx.size(); ++k) {
        cache[u.outputIdx[k]] = std::move(outs[k]);
    }
    return cache[idx].get();
}

ErrorCode Session::resize(bool inputValuesKnown) {
    mReady = false;
    mValueKey.clear();
    mValueKeyShapes.clear();
    // inputs reallocated when their shape changed
    for (auto idx : mInputIndices) {
        auto t = mTensors[idx].get();
        if (TensorUtils::describe(t)->usage != Tensor::InsideDescribe::INPUT) {
            continue;
        }
        int64_t count = 0;
        if (!TensorUtils::checkedProduct(TensorUtils::shape(t), mOptions.tensorLimitBytes / t->getType().bytes(),
                                         &count)) {
            MNN_ERROR("input %s: shape %s is invalid or over the tensor size limit\n",
                      TensorUtils::describe(t)->name.c_str(), TensorUtils::shapeString(t).c_str());
            return INVALID_VALUE;
        }
        if (t->host<void>() == nullptr) {
            if (!TensorUtils::allocHost(t)) {
                return OUT_OF_MEMORY;  // reported by allocHost
            }
        }
    }
    std::map<int, std::unique_ptr<Tensor>> cache;
    bool deferred = false;
    for (auto& up : mUnits) {
        auto& u = *up;
        auto entry = getShape(u.op->type());
        if (!entry) {
            MNN_ERROR("op %s: op type %s is not supported\n", opName(u.op), opTypeName(u.op->type()));
            return NOT_SUPPORT;
        }
        std::vector<Tensor*> shapeInputs = u.inputs;
        bool missing = false;
        for (size_t i = 0; i < u.inputIdx.size(); ++i) {
            bool wants = (entry->contentInputs & 0x80000000u) || (i < 31 && (entry->contentInputs >> i) & 1u);
            if (!wants || u.inputIdx[i] < 0) {
                continue;
            }
            bool failed = false;
            auto v = valueOf(u.inputIdx[i], inputValuesKnown, cache, &failed);
            if (failed) {
                return INVALID_VALUE;  // reported by valueOf
            }
            if (!v) {
                missing = true;
                break;
            }
            shapeInputs[i] = v;
        }
        if (missing) {
            // Shapes from here on depend on input values: resolved at runSession.
            deferred = true;
            break;
        }
        for (auto o : u.outputs) {
            TensorUtils::describe(o)->dimType = Tensor::CAFFE;
        }
        auto code = entry->shape(u.op, shapeInputs, u.outputs);
        if (code != NO_ERROR) {
            return code;
        }
        for (auto o : u.outputs) {
            int64_t count = 0;
            int bytes = o->getType().bytes() > 0 ? o->getType().bytes() : 1;
            if (!TensorUtils::checkedProduct(TensorUtils::shape(o), mOptions.tensorLimitBytes / bytes, &count)) {
                MNN_ERROR("op %s (%s): output %s has shape %s, invalid or over the tensor size limit\n", opName(u.op),
                          opTypeName(u.op->type()), TensorUtils::describe(o)->name.c_str(),
                          TensorUtils::shapeString(o).c_str());
                return COMPUTE_SIZE_ERROR;
            }
        }
        u.flops = entry->flops ? entry->flops(u.op, u.inputs, u.outputs) : 0.0;
        if (!entry->flops) {
            for (auto o : u.outputs) {
                u.flops += (double)TensorUtils::elementCount(o);
            }
        }
    }
    if (deferred) {
        mNeedResize = true;
        return NO_ERROR;
    }
    // Executions may be remade below and own planned scratch tensors: no plan may point at them
    clearPlans();
    if (placeholdersReplaced()) {
        for (auto& up : mUnits) {
            up->execution.reset();
        }
    }
    assignLayouts();
    // Executions. A constant read in place from a mapped model is given back (constantConsumed) as
    // soon as the last op reading it has its Execution: the Executions that repack weights do it at
    // creation, so the model's pages no longer sit beside every packed copy until the resizes below
    // (resnet50: peak RSS 236 -> 159 MB on 2026-11-29). An Execution that reads them again in its
    // resize faults them back in from the file; planMemory gives them back again after that resize.
    std::vector<int> creators = pendingConstantReaders(true);
    for (auto& up : mUnits) {
        auto& u = *up;
        if (u.execution) {
            continue;
        }
        u.execution.reset(u.backend->onCreate(u.inputs, u.outputs, u.op));
        if (!u.execution && u.backend != mCPUFallback.get()) {
            MNN_ERROR("op %s (%s): not on backend %d, running it on the CPU\n", opName(u.op), opTypeName(u.op->type()),
                      (int)u.backend->type());
            u.backend = mCPUFallback.get();
            u.execution.reset(u.backend->onCreate(u.inputs, u.outputs, u.op));
        }
        if (!u.execution) {
            MNN_ERROR("op %s (%s): no CPU kernel for these inputs; inputs %s, outputs %s\n", opName(u.op),
                      opTypeName(u.op->type()), shapesOf(u.inputs).c_str(), shapesOf(u.outputs).c_str());
            return NOT_SUPPORT;
        }
        consumeConstants(u, &creators);  // after the fallback's creation too, which reads them again
    }
    auto code = planMemory();
    if (code != NO_ERROR) {
        return code;
    }
    mNeedResize = false;
    mReady = true;
    return NO_ERROR;
}

bool Session::placeholdersReplaced() {
    if (mPlaceholderInputs.empty()) {
        return false;
    }
    for (auto& p : mPlaceholderInputs) {
        if (TensorUtils::shape(p.first) != p.second) {
            mPlaceholderInputs.clear();
            return true;
        }
    }
    return false;
}

void Session::clearPlans() {
    for (auto& b : mBackends) {
        b->onClearBuffer();
    }
    if (mCPUFallback) {
        mCPUFallback->onClearBuffer();
    }
}

static bool packedLayoutWanted(bool option) {
    const char* env = ::getenv("MNN_LAYOUT");
    if (env && ::strcmp(env, "plain") == 0) {
        return false;
    }
    if (env && ::strcmp(env, "packed") == 0) {
        return true;
    }
    return option;
}

void Session::assignLayouts() {
    const int tensorCount = (int)mTensors.size();
    std::vector<char> packed(tensorCount, 0);
    std::vector<int> support(mUnits.size(), Backend::PACKED_NONE);
    if (packedLayoutWanted(mOptions.packedLayout)) {
        for (size_t k = 0; k < mUnits.size(); ++k) {
            auto& u = *mUnits[k];
            support[k] = u.backend->onPackedSupport(u.op, u.inputs, u.outputs);
        }
        auto isFloat4d = [&](int t) {
            auto x = mTensors[t].get();
            return x->dimensions() == 4 && x->getType() == halide_type_of<float>();
        };
        // candidates: 4-D float intermediates of one backend whose producer supports the layout
        for (int t = 0; t < tensorCount; ++t) {
            int p = mProducer[t];
            auto usage = TensorUtils::describe(mTensors[t].get())->usage;
            packed[t] = p >= 0 && support[p] != Backend::PACKED_NONE && usage == Tensor::InsideDescribe::NORMAL &&
                        mSaved.count(t) == 0 && isFloat4d(t);
        }
        // every consumer must support it too, on the same backend, and must not read it for shapes
        for (size_t k = 0; k < mUnits.size(); ++k) {
            auto& u = *mUnits[k];
            auto entry = getShape(u.op->type());
            for (size_t i = 0; i < u.inputIdx.size(); ++i) {
                int t = u.inputIdx[i];
                if (t < 0 || !packed[t]) {
                    continue;
                }
                bool content =
                    entry && ((entry->contentInputs & 0x80000000u) || (i < 31 && (entry->contentInputs >> i) & 1u));
                bool sameBackend = mUnits[mProducer[t]]->backend == u.backend;
                bool dataSlot = support[k] == Backend::PACKED_UNIFORM || i == 0 ||
                                (support[k] == Backend::PACKED_MIXED && u.backend->onPackedDataInput(u.op, (int)i));
                if (support[k] == Backend::PACKED_NONE || content || !sameBackend || !dataSlot) {
                    packed[t] = 0;
                }
            }
        }
    }
    for (int t = 0; t < tensorCount; ++t) {
        int p = mProducer[t];
        if (p >= 0) {
            mUnits[p]->backend->onSetPacked(mTensors[t].get(), packed[t] != 0);
        }
    }
    for (auto& up : mUnits) {
        auto& u = *up;
        std::vector<char> layout;
        for (auto t : u.inputIdx) {
            layout.push_back(t >= 0 && packed[t]);
        }
        for (auto t : u.outputIdx) {
            layout.push_back(packed[t]);
        }
        if (layout != u.layout) {
            u.execution.reset();
            u.layout = layout;
        }
    }
}

/**
 * Concats written in place: a Concat whose inputs are each read by it alone, made by units of its
 * backend, and lie in its output as contiguous byte ranges (every axis before the concatenated one
 * of extent 1; on a packed layout each input starting on a whole block) gets its inputs planned as
 * views into its output (Backend::onAcquireView) and does not run. viewParent / viewOffset: per
 * tensor, the Concat output it is a view of (-1: none) and at which byte. MNN_CONCAT_VIEWS=0 turns
 * it off.
 */
bool Session::releasable(int t) const {
    return TensorUtils::describe(mTensors[t].get())->usage == Tensor::InsideDescribe::NORMAL && mSaved.count(t) == 0;
}

void Session::planConcatViews(std::vector<int>* viewParent, std::vector<int64_t>* viewOffset) {
    const int tensorCount = (int)mTensors.size();
    viewParent->assign(tensorCount, -1);
    viewOffset->assign(tensorCount, 0);
    for (auto& up : mUnits) {
        up->elided = false;
    }
    const char* env = ::getenv("MNN_CONCAT_VIEWS");
    if (env && ::strcmp(env, "0") == 0) {
        return;
    }
    std::vector<int> uses(tensorCount, 0);
    for (auto& up : mUnits) {
        for (size_t j = 0; j < up->inputIdx.size(); ++j) {
            int i = up->inputIdx[j];
            if (i >= 0) {
                ++uses[i];
            }
        }
    }
    for (size_t k = 0; k < mUnits.size(); ++k) {
        auto& u = *mUnits[k];
        if (u.op->type() != Schema::OpType::Concat || u.outputs.size() != 1 || u.inputIdx.empty() ||
            !u.backend->onViewSupport()) {
            continue;
        }
        const int yIdx = u.outputIdx[0];
        const Tensor* y = u.outputs[0];
        const int rank = y->dimensions();
        auto p = u.op->param_as_AxisParam();
        const int axis = ShapeUtils::normalizeAxis(p ? p->axis() : 0, rank);
        if (axis < 0 || (*viewParent)[yIdx] >= 0) {
            continue;
        }
        const auto yDes = TensorUtils::describe(y);
        const bool packed = y->getDimensionType() == Tensor::CAFFE_C4;
        const int pack = packed ? (yDes->pack > 0 ? yDes->pack : 4) : 1;
        int64_t outer = 1, inner = 1;
        for (int d = 0; d < rank; ++d) {
            if (d < axis) {
                outer *= y->length(d);
            } else if (d > axis) {
                inner *= y->length(d);
            }
        }
        const int64_t bytes = y->getType().bytes();
        bool ok = outer == 1 && (!packed || axis == 1) && bytes > 0;
        int64_t along = 0;
        std::vector<int64_t> offsets;
        for (size_t j = 0; ok && j < u.inputIdx.size(); ++j) {
            const int t = u.inputIdx[j];
            const Tensor* x = u.inputs[j];
            // read by this Concat alone (once), made here by a unit of its backend that is no in-place Concat
            ok = t >= 0 && t != yIdx && mProducer[t] >= 0 && uses[t] == 1 && (*viewParent)[t] < 0 && releasable(t) &&
                 mUnits[mProducer[t]]->backend == u.backend && !mUnits[mProducer[t]]->elided &&
                 x->getType() == y->getType() && x->dimensions() == rank &&
                 x->getDimensionType() == y->getDimensionType() &&
                 (!packed || TensorUtils::describe(x)->pack == yDes->pack) && along % pack == 0;
            const int64_t offset = along * inner * bytes;
            ok = ok && offset % ArenaPlanner::kAlign == 0;
            if (ok) {
                offsets.push_back(offset);
                along += x->length(axis);
            }
        }
        if (!ok || along != y->length(axis)) {
            continue;
        }
        u.elided = true;
        for (size_t j = 0; j < u.inputIdx.size(); ++j) {
            (*viewParent)[u.inputIdx[j]] = yIdx;
            (*viewOffset)[u.inputIdx[j]] = offsets[j];
        }
    }
}

/**
 * Outputs written over an input's buffer (Execution::inPlaceInput: a convolution's residual). Unit
 * k's output o takes input r's buffer when r is read by nothing after k and by k once, is made by a
 * unit of the same backend, and has o's type, shape and layout; neither may be a graph output or
 * take part in an in-place Concat. r may itself be such an output: a chain (resnet's blocks) shares
 * the first buffer, its root. root[t]: the root whose buffer t takes (-1: its own); rootEnd[q]: the
 * unit after which root q is released (-1: q has no in-place output).
 */
void Session::planInPlaceOutputs(const std::vector<int>& lastUse, const std::vector<int>& viewParent,
                                 std::vector<int>* root, std::vector<int>* rootEnd) {
    const int tensorCount = (int)mTensors.size();
    root->assign(tensorCount, -1);
    rootEnd->assign(tensorCount, -1);
    for (auto& up : mUnits) {
        up->inPlaceInput = -1;
    }
    const char* env = ::getenv("MNN_INPLACE_OUTPUTS");
    if (env && ::strcmp(env, "0") == 0) {
        return;
    }
    std::vector<char> concatParent(tensorCount, 0);
    for (int t = 0; t < tensorCount; ++t) {
        if (viewParent[t] >= 0) {
            concatParent[viewParent[t]] = 1;
        }
    }
    for (size_t k = 0; k < mUnits.size(); ++k) {
        auto& u = *mUnits[k];
        const int j = u.elided || !u.execution || u.outputIdx.empty() ? -1 : u.execution->inPlaceInput();
        if (j < 0 || j >= (int)u.inputIdx.size()) {
            continue;
        }
        const int r = u.inputIdx[j], o = u.outputIdx[0];
        if (r < 0 || o < 0 || r == o || std::count(u.inputIdx.begin(), u.inputIdx.end(), r) != 1 ||
            std::count(u.outputIdx.begin(), u.outputIdx.end(), o) != 1 || lastUse[r] != (int)k || mProducer[r] < 0 ||
            !releasable(r) || !releasable(o) || viewParent[r] >= 0 || viewParent[o] >= 0 || concatParent[r] ||
            concatParent[o] || !u.backend->onViewSupport()) {
            continue;
        }
        const int q = (*root)[r] >= 0 ? (*root)[r] : r;
        const Tensor* rt = u.inputs[(size_t)j];
        const Tensor* ot = u.outputs[0];
        if (mUnits[mProducer[q]]->backend != u.backend || rt->getType() != ot->getType() ||
            rt->getDimensionType() != ot->getDimensionType() ||
            TensorUtils::describe(rt)->pack != TensorUtils::describe(ot)->pack ||
            TensorUtils::shape(rt) != TensorUtils::shape(ot) ||
            TensorUtils::byteSize(rt) != TensorUtils::byteSize(ot)) {
            continue;
        }
        (*root)[o] = q;
        u.inPlaceInput = j;
        const int end = lastUse[o] >= 0 ? lastUse[o] : (int)k;
        (*rootEnd)[q] = std::max({(*rootEnd)[q], lastUse[q], end});
    }
}

std::vector<int> Session::pendingConstantReaders(bool withoutExecution) const {
    std::vector<int> pending;
    if (!mOptions.constantConsumed || mAliasedConstants.empty()) {
        return pending;
    }
    const int tensorCount = (int)mTensors.size();
    pending.assign(tensorCount, 0);
    std::vector<char> aliased(tensorCount, 0);
    for (int idx : mAliasedConstants) {
        aliased[idx] = 1;
    }
    for (auto& up : mUnits) {
        if (withoutExecution && up->execution) {
            continue;
        }
        for (size_t j = 0; j < up->inputIdx.size(); ++j) {
            int i = up->inputIdx[j];
            bool first = std::find(up->inputIdx.begin(), up->inputIdx.begin() + j, i) == up->inputIdx.begin() + j;
            if (i >= 0 && aliased[i] && first) {
                ++pending[i];
            }
        }
    }
    if (withoutExecution) {
        // a constant that an existing Execution still reads (a later resize) is not done with yet
        for (auto& up : mUnits) {
            if (up->execution) {
                for (int i : up->inputIdx) {
                    if (i >= 0 && pending[i] > 0) {
                        pending[i] = -1;
                    }
                }
            }
        }
    }
    return pending;
}

void Session::consumeConstants(const Unit& u, std::vector<int>* pending) {
    if (pending->empty()) {
        return;
    }
    for (size_t j = 0; j < u.inputIdx.size(); ++j) {
        int i = u.inputIdx[j];
        bool first = std::find(u.inputIdx.begin(), u.inputIdx.begin() + j, i) == u.inputIdx.begin() + j;
        if (i >= 0 && first && (*pending)[i] > 0 && --(*pending)[i] == 0) {
            auto t = mTensors[i].get();
            mOptions.constantConsumed(mOptions.constantOwner, t->host<void>(), (size_t)TensorUtils::byteSize(t));
        }
    }
}

ErrorCode Session::planMemory() {
    std::vector<Backend*> backends;
    for (auto& b : mBackends) {
        backends.push_back(b.get());
    }
    backends.push_back(mCPUFallback.get());
    for (auto b : backends) {
        b->onResizeBegin();
    }
    const int tensorCount = (int)mTensors.size();
    std::vector<int> lastUse(tensorCount, -1);
    for (size_t k = 0; k < mUnits.size(); ++k) {
        for (auto i : mUnits[k]->inputIdx) {
            if (i >= 0) {
                lastUse[i] = (int)k;
            }
        }
    }
    // constants read in place: how many ops still have to be resized before their bytes are done
    std::vector<int> pendingReaders = pendingConstantReaders(false);
    std::vector<int> viewParent;
    std::vector<int64_t> viewOffset;
    planConcatViews(&viewParent, &viewOffset);
    std::vector<int> inPlaceRoot, rootEnd;
    planInPlaceOutputs(lastUse, viewParent, &inPlaceRoot, &rootEnd);
    std::vector<std::vector<int>> rootsEndingAt(mUnits.size());
    for (int t = 0; t < tensorCount; ++t) {
        if (rootEnd[t] >= 0) {
            rootsEndingAt[(size_t)rootEnd[t]].push_back(t);
        }
    }
    // released by their own last use: not a root of in-place outputs, nor one of them (a view)
    const auto ownsBuffer = [&](int t) { return inPlaceRoot[t] < 0 && rootEnd[t] < 0; };
    std::vector<char> acquired(tensorCount, 0);  // a Concat output acquired early for its views
    for (size_t k = 0; k < mUnits.size(); ++k) {
        auto& u = *mUnits[k];
        for (size_t j = 0; j < u.outputs.size(); ++j) {
            Tensor* o = u.outputs[j];
            const int oi = u.outputIdx[j];
            const int parent = viewParent[oi];
            bool ok = true;
            if (parent >= 0) {
                // an elided Concat's input: its output is acquired with the first of them
                Tensor* y = mTensors[parent].get();
                if (!acquired[parent]) {
                    ok = u.backend->onAcquireBuffer(y, Backend::DYNAMIC);
                    acquired[parent] = 1;
                }
                ok = ok && u.backend->onAcquireView(o, y, viewOffset[oi]);
            } else if (inPlaceRoot[oi] >= 0) {
                ok = u.backend->onAcquireView(o, mTensors[inPlaceRoot[oi]].get(), 0);
            } else if (!acquired[oi]) {
                ok = u.backend->onAcquireBuffer(o, Backend::DYNAMIC);
            }
            if (!ok) {
                const char* reason = u.backend->errorReason();
                MNN_ERROR("op %s (%s): cannot plan memory for output %s (%s)%s%s\n", opName(u.op),
                          opTypeName(u.op->type()), TensorUtils::describe(o)->name.c_str(),
                          TensorUtils::shapeString(o).c_str(), reason[0] ? ": " : "", reason);
                u.backend->clearErrorReason();
                return OUT_OF_MEMORY;
            }
        }
        if (!u.elided) {
            u.execution->clearErrorReason();
        }
        auto code = u.elided ? NO_ERROR : u.execution->onResize(u.inputs, u.outputs);
        if (code == NOT_SUPPORT) {
            // the Execution was chosen for other shapes (a per-channel broadcast that is now a full
            // one, a kernel variant): made again for these shapes, once
            std::unique_ptr<Execution> again(u.backend->onCreate(u.inputs, u.outputs, u.op));
            if (again) {
                u.execution = std::move(again);
                code = u.execution->onResize(u.inputs, u.outputs);
            }
        }
        if (code != NO_ERROR) {
            // the one line for this failure: the Execution's reason (Execution::error) with the op and
            // its tensors; an Execution that gives no reason is named by the code alone
            const char* reason = u.elided ? "" : u.execution->errorReason();
            if (!reason[0]) {
                reason = u.backend->errorReason();  // a scratch request it refused
            }
            reason = ownReason(reason, opName(u.op));
            MNN_ERROR("op %s (%s): resize failed with code %d (%s)%s%s; inputs %s, outputs %s\n", opName(u.op),
                      opTypeName(u.op->type()), (int)code, errorName(code), reason[0] ? ": " : "", reason,
                      shapesOf(u.inputs).c_str(), shapesOf(u.outputs).c_str());
            if (!u.elided) {
                u.execution->clearErrorReason();
            }
            u.backend->clearErrorReason();
            return code;
        }
        consumeConstants(u, &pendingReaders);
        for (size_t j = 0; j < u.inputIdx.size(); ++j) {
            int i = u.inputIdx[j];
            bool firstMention = std::find(u.inputIdx.begin(), u.inputIdx.begin() + j, i) == u.inputIdx.begin() + j;
            if (i >= 0 && firstMention && lastUse[i] == (int)k && releasable(i) && mProducer[i] >= 0 && ownsBuffer(i)) {
                mUnits[mProducer[i]]->backend->onReleaseBuffer(mTensors[i].get(), Backend::DYNAMIC);
            }
        }
        for (size_t j = 0; j < u.outputIdx.size(); ++j) {
            int o = u.outputIdx[j];
            if (lastUse[o] < 0 && releasable(o) && ownsBuffer(o)) {
                u.backend->onReleaseBuffer(mTensors[o].get(), Backend::DYNAMIC);
            }
        }
        for (int q : rootsEndingAt[k]) {
            mUnits[mProducer[q]]->backend->onReleaseBuffer(mTensors[q].get(), Backend::DYNAMIC);
        }
    }
    int64_t arena = 0;
    for (auto b : backends) {
        arena += (int64_t)b->dynamicBytes();
    }
    if (arena > mOptions.arenaLimitBytes) {
        MNN_ERROR("session arena of %lld MiB is over the limit of %lld MiB\n", (long long)(arena >> 20),
                  (long long)(mOptions.arenaLimitBytes >> 20));
        return OUT_OF_MEMORY;
    }
    for (auto b : backends) {
        auto code = b->onResizeEnd();
        if (code != NO_ERROR) {
            return code;
        }
    }
    return NO_ERROR;
}

bool Session::valuesChanged() const {
    for (size_t k = 0; k < mValueKey.size(); ++k) {
        auto t = mTensors[mValueKey[k].first].get();
        const auto& dims = mValueKeyShapes[k].second;  // compared in place: runSession allocates nothing
        if ((size_t)t->dimensions() != dims.size()) {
            return true;
        }
        for (size_t d = 0; d < dims.size(); ++d) {
            if (t->length((int)d) != dims[d]) {
                return true;
            }
        }
        auto& v = mValueKey[k].second;
        if ((size_t)TensorUtils::byteSize(t) != v.size() ||
            (v.size() && ::memcmp(t->host<void>(), v.data(), v.size()))) {
            return true;
        }
    }
    return false;
}

ErrorCode Session::run(const TensorCallBackWithInfo* before, const TensorCallBackWithInfo* after) {
    if (mNeedResize || !mReady || (!mValueKey.empty() && valuesChanged())) {
        auto code = resize(true);
        if (code != NO_ERROR) {
            return code;
        }
        if (!mReady) {
            MNN_ERROR("runSession: the session could not be prepared\n");
            return COMPUTE_SIZE_ERROR;
        }
    }
    bool useCallbacks = mOptions.callbacksEnabled && (before || after);
    for (auto& b : mBackends) {
        b->onExecuteBegin();
    }
    ErrorCode result = NO_ERROR;
    UnitInfo info;
    for (auto& up : mUnits) {
        auto& u = *up;
        if (useCallbacks) {
            info.set(opName(u.op), opTypeName(u.op->type()), (float)(u.flops / 1e6));
            if (before && *before && !(*before)(u.cbInputs, &info)) {
                continue;
            }
        }
        // an elided Concat: its producers wrote its output in place
        auto code = u.elided ? NO_ERROR : u.execution->onExecute(u.inputs, u.outputs);
        if (code != NO_ERROR) {
            // the one line for this failure (value checks: an index out of range...), as at resize
            const char* reason = ownReason(u.execution->errorReason(), opName(u.op));
            MNN_ERROR("op %s (%s): execution failed with code %d (%s)%s%s; inputs %s, outputs %s\n", opName(u.op),
                      opTypeName(u.op->type()), (int)code, errorName(code), reason[0] ? ": " : "", reason,
                      shapesOf(u.inputs).c_str(), shapesOf(u.outputs).c_str());
            u.execution->clearErrorReason();
            result = code;
            break;
        }
        if (useCallbacks && after && *after && !(*after)(u.outputs, &info)) {
            result = CALL_BACK_STOP;
            break;
        }
    }
    for (auto& b : mBackends) {
        b->onExecuteEnd();
    }
    return result;
}

Tensor* Session::getInput(const char* name) const {
    if (!name) {
        if (mInputIndices.empty()) {
            return nullptr;  // reported by Session::getInput / getOutput's callers (no such tensor)
        }
        return mTensors[mInputIndices[0]].get();
    }
    auto it = mInputMap.find(name);
    if (it == mInputMap.end()) {
        MNN_ERROR("getSessionInput: no input named '%s'\n", name);
        return nullptr;
    }
    return it->second;
}

Tensor* Session::getOutput(const char* name) const {
    if (!name) {
        if (mOutputIndices.empty()) {
            return nullptr;  // reported by Session::getInput / getOutput's callers (no such tensor)
        }
        return mTensors[mOutputIndices[0]].get();
    }
    auto it = mOutputMap.find(name);
    if (it == mOutputMap.end()) {
        MNN_ERROR("getSessionOutput: no output or saved tensor named '%s' (add it to saveTensors)\n", name);
        return nullptr;
    }
    return it->second;
}

bool Session::hasInputTensor(const Tensor* t) const {
    for (auto idx : mInputIndices) {
        if (mTensors[idx].get() == t) {
            return true;
        }
    }
    return false;
}

const Backend* Session::backendOf(const Tensor* t) const {
    auto des = TensorUtils::describe(t);
    if (des->index < 0 || des->index >= (int)mProducer.size() || mTensors[des->index].get() != t) {
        return nullptr;
    }
    int p = mProducer[des->index];
    return p >= 0 ? mUnits[p]->backend : mCPUFallback.get();
}

bool Session::detachConstants() {
    for (int idx : mAliasedConstants) {
        Tensor* t = mTensors[idx].get();
        const uint8_t* src = t->buffer().host;
        if (!mCPUFallback->onAcquireBuffer(t, Backend::STATIC)) {
            MNN_ERROR("releaseModel: cannot copy constant %s (%s): %s\n", TensorUtils::describe(t)->name.c_str(),
                      TensorUtils::shapeString(t).c_str(), mCPUFallback->errorReason());
            mCPUFallback->clearErrorReason();
            t->buffer().host = const_cast<uint8_t*>(src);
            return false;
        }
        if (src) {
            ::memcpy(t->buffer().host, src, (size_t)TensorUtils::byteSize(t));
        }
    }
    mAliasedConstants.clear();
    mAliasedBytes = 0;
    return true;
}

float Session::memoryMB() const {
    double bytes = (double)mAliasedBytes;  // weights read in place from the model buffer
    for (auto& b : mBackends) {
        bytes += (double)b->dynamicBytes() + (double)b->staticBytes();
    }
    bytes += (double)mCPUFallback->dynamicBytes() + (double)mCPUFallback->staticBytes();
    for (auto idx : mInputIndices) {
        bytes += (double)TensorUtils::byteSize(mTensors[idx].get());
    }
    return (float)(bytes / (1024.0 * 1024.0));
}

float Session::flopsM() const {
    double f = 0;
    for (auto& u : mUnits) {
        f += u->flops;
    }
    return (float)(f / 1e6);
}

std::vector<int> Session::backendTypes() const {
    std::vector<int> r;
    for (auto& b : mBackends) {
        r.push_back((int)b->type());
    }
    return r;
}

int Session::threadNumber() const {
    return mRuntimes.empty() ? 1 : mRuntimes[0]->threadNumber();
}

void Session::rebind(const GraphRef& graph) {
    mGraph = graph;
    for (auto& u : mUnits) {
        u->op = mGraph.ops->Get(u->opIndex);
    }
}

}  // namespace MNN
