// Control flow: see ControlFlow.hpp.
#include "ControlFlow.hpp"
#include <stdarg.h>
#include <string.h>
#include "Macro.hpp"
#include "Session.hpp"
#include "TensorUtils.hpp"

namespace MNN {

int64_t HostValue::count() const {
    int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

HostValue HostValue::of(const Tensor* t) {
    HostValue v;
    v.type = t->getType();
    v.dims = TensorUtils::shape(t);
    int64_t bytes = TensorUtils::byteSize(t);
    if (bytes > 0 && t->host<uint8_t>()) {
        v.bytes.assign(t->host<uint8_t>(), t->host<uint8_t>() + bytes);
    }
    return v;
}

static bool sameType(halide_type_t a, halide_type_t b) {
    return a.code == b.code && a.bits == b.bits;
}

// ---------------------------------------------------------------- SubGraphRunner
SubGraphRunner::SubGraphRunner(const Schema::SubGraph* graph, BackendConfig::PrecisionMode precision)
    : mPrecision(precision) {
    mObject.reset(graph->UnPack());
    mName = mObject->name;
    mInputCount = (int)mObject->inputs.size();
    mOutputCount = (int)mObject->outputs.size();
    auto nameOf = [&](int i) {
        return (i >= 0 && i < (int)mObject->tensorNames.size()) ? mObject->tensorNames[i] : std::string();
    };
    for (auto i : mObject->inputs) {
        mInputNames.push_back(nameOf(i));
    }
    for (auto o : mObject->outputs) {
        mOutputNames.push_back(nameOf(o));
    }
}

SubGraphRunner::~SubGraphRunner() = default;

ErrorCode SubGraphRunner::build(const std::vector<const HostValue*>& inputs) {
    mSession.reset();
    // declare every input with the types and shapes of this run
    for (int i = 0; i < mInputCount; ++i) {
        int idx = mObject->inputs[i];
        Schema::TensorDeclT* decl = nullptr;
        for (auto& d : mObject->inputDecls) {
            if (d->tensorIndex == idx) {
                decl = d.get();
            }
        }
        if (!decl) {
            mObject->inputDecls.emplace_back(new Schema::TensorDeclT);
            decl = mObject->inputDecls.back().get();
            decl->tensorIndex = idx;
        }
        decl->dims = inputs[i]->dims;
        decl->dataType = TensorUtils::dataTypeOf(inputs[i]->type);
        decl->symbols.clear();
    }
    flatbuffers::FlatBufferBuilder fbb;
    fbb.Finish(Schema::SubGraph::Pack(fbb, mObject.get()));
    mBuffer.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    flatbuffers::Verifier verifier(mBuffer.data(), mBuffer.size());
    if (!verifier.VerifyBuffer<Schema::SubGraph>(nullptr)) {
        MNN_ERROR("subgraph %s: the packed copy does not verify\n", mName.c_str());
        return INVALID_VALUE;
    }
    auto graph = flatbuffers::GetRoot<Schema::SubGraph>(mBuffer.data());
    ScheduleConfig config;
    config.type = MNN_FORWARD_CPU;
    config.numThread = 1;
    BackendConfig backendConfig;
    backendConfig.precision = mPrecision;
    config.backendConfig = &backendConfig;
    SessionOptions options;
    options.callbacksEnabled = false;
    std::unique_ptr<Session> session(new Session(GraphRef::fromSubGraph(graph), {config}, options));
    if (!session->init()) {
        MNN_ERROR("subgraph %s: the nested session could not be created\n", mName.c_str());
        return INVALID_VALUE;
    }
    mSession = std::move(session);
    return NO_ERROR;
}

Tensor* SubGraphRunner::findInput(const std::string& name) const {
    auto it = mSession->inputs().find(name);
    return it == mSession->inputs().end() ? nullptr : it->second;
}

ErrorCode SubGraphRunner::run(const std::vector<const HostValue*>& inputs, std::vector<HostValue>* outputs) {
    if ((int)inputs.size() != mInputCount) {
        MNN_ERROR("subgraph %s: %d inputs given, it has %d\n", mName.c_str(), (int)inputs.size(), mInputCount);
        return INVALID_VALUE;
    }
    bool rebuild = !mSession;
    for (int i = 0; i < mInputCount && !rebuild; ++i) {
        Tensor* t = findInput(mInputNames[i]);
        rebuild = t && !sameType(t->getType(), inputs[i]->type);
    }
    if (rebuild) {
        auto code = build(inputs);
        if (code != NO_ERROR) {
            return code;
        }
    } else {
        bool changed = false;
        for (int i = 0; i < mInputCount; ++i) {
            Tensor* t = findInput(mInputNames[i]);
            if (t && TensorUtils::shape(t) != inputs[i]->dims) {
                TensorUtils::setShape(t, inputs[i]->dims);
                TensorUtils::freeHost(t);
                changed = true;
            }
        }
        if (changed) {
            mSession->markResize();
            auto code = mSession->resize(false);
            if (code != NO_ERROR) {
                return code;
            }
        }
    }
    for (int i = 0; i < mInputCount; ++i) {
        Tensor* t = findInput(mInputNames[i]);
        if (!t) {
            continue;  // the subgraph does not read it
        }
        if (!t->host<uint8_t>() && !TensorUtils::allocHost(t)) {
            return OUT_OF_MEMORY;  // reported by allocHost
        }
        int64_t bytes = TensorUtils::byteSize(t);
        if (bytes != (int64_t)inputs[i]->bytes.size()) {
            MNN_ERROR("subgraph %s: input %s holds %lld bytes, %lld given\n", mName.c_str(), mInputNames[i].c_str(),
                      (long long)bytes, (long long)inputs[i]->bytes.size());
            return INVALID_VALUE;
        }
        if (bytes > 0) {
            ::memcpy(t->host<uint8_t>(), inputs[i]->bytes.data(), (size_t)bytes);
        }
    }
    auto code = mSession->run(nullptr, nullptr);
    if (code != NO_ERROR) {
        return code;
    }
    outputs->clear();
    for (int i = 0; i < mOutputCount; ++i) {
        auto it = mSession->outputs().find(mOutputNames[i]);
        Tensor* t = it == mSession->outputs().end() ? nullptr : it->second;
        if (!t) {
            MNN_ERROR("subgraph %s: output %s is not computed\n", mName.c_str(), mOutputNames[i].c_str());
            return INVALID_VALUE;
        }
        outputs->push_back(HostValue::of(t));
    }
    return NO_ERROR;
}

// ---------------------------------------------------------------- ControlFlowOp
static const char* opLabel(Schema::OpType t) {
    return t == Schema::OpType::If ? "If" : t == Schema::OpType::Loop ? "Loop" : "Scan";
}

ErrorCode ControlFlowOp::fail(ErrorCode code, const char* fmt, ...) const {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    MNN_ERROR("op %s (%s): %s\n", mName.c_str(), opLabel(mType), buf);
    return code;
}

std::unique_ptr<ControlFlowOp> ControlFlowOp::create(const Schema::Op* op, BackendConfig::PrecisionMode precision) {
    std::unique_ptr<ControlFlowOp> cf(new ControlFlowOp);
    cf->mType = op->type();
    cf->mName = op->name() ? op->name()->str() : "";
    cf->mOutputCount = op->outputs() ? (int)op->outputs()->size() : 0;
    auto param = op->param_as_ControlFlowParam();
    size_t want = cf->mType == Schema::OpType::If ? 2 : 1;
    if (!param || !param->subgraphs() || param->subgraphs()->size() != want) {
        cf->fail(INVALID_VALUE, "needs a ControlFlowParam with %d subgraph(s)", (int)want);
        return nullptr;
    }
    for (auto g : *param->subgraphs()) {
        if (!g || !g->outputs() || g->outputs()->size() == 0) {
            cf->fail(INVALID_VALUE, "a subgraph has no outputs");
            return nullptr;
        }
        cf->mGraphs.emplace_back(new SubGraphRunner(g, precision));
    }
    auto copy = [](const flatbuffers::Vector<int32_t>* v) {
        return v ? std::vector<int>(v->begin(), v->end()) : std::vector<int>();
    };
    cf->mNumScanInputs = param->numScanInputs();
    cf->mScanInputAxes = copy(param->scanInputAxes());
    cf->mScanOutputAxes = copy(param->scanOutputAxes());
    cf->mScanInputDirections = copy(param->scanInputDirections());
    cf->mScanOutputDirections = copy(param->scanOutputDirections());
    return cf;
}

ErrorCode ControlFlowOp::run(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs) {
    switch (mType) {
        case Schema::OpType::If:
            return runIf(inputs, outputs);
        case Schema::OpType::Loop:
            return runLoop(inputs, outputs);
        default:
            return runScan(inputs, outputs);
    }
}

static bool readBool(const HostValue& v, bool* out) {
    if (v.count() != 1 || v.bytes.size() != (size_t)v.type.bytes()) {
        return false;
    }
    bool nonzero = false;
    for (auto b : v.bytes) {
        nonzero = nonzero || b != 0;
    }
    if (v.type.code == halide_type_float) {  // -0.0 is false
        double d = v.type.bits == 64 ? *(const double*)v.bytes.data() : *(const float*)v.bytes.data();
        nonzero = d != 0;
    }
    *out = nonzero;
    return true;
}

static bool readInt(const HostValue& v, int64_t* out) {
    if (v.count() != 1 || v.type.code == halide_type_float) {
        return false;
    }
    int64_t x = 0;
    switch (v.type.bits) {
        case 8: x = v.type.code == halide_type_int ? (int64_t) * (const int8_t*)v.bytes.data() : v.bytes[0]; break;
        case 16: x = v.type.code == halide_type_int ? (int64_t) * (const int16_t*)v.bytes.data() : *(const uint16_t*)v.bytes.data(); break;
        case 32: x = v.type.code == halide_type_int ? (int64_t) * (const int32_t*)v.bytes.data() : *(const uint32_t*)v.bytes.data(); break;
        case 64: x = *(const int64_t*)v.bytes.data(); break;
        default: return false;
    }
    *out = x;
    return true;
}

/** stacks equal-shaped values along a new axis `axis` (0..rank), optionally in reverse order */
static bool stack(const std::vector<HostValue>& items, int axis, bool reverse, HostValue* out) {
    out->bytes.clear();
    if (items.empty()) {
        out->dims = {0};
        return true;
    }
    const HostValue& first = items[0];
    for (auto& v : items) {
        if (v.dims != first.dims || !sameType(v.type, first.type)) {
            return false;
        }
    }
    int rank = (int)first.dims.size();
    if (axis < 0 || axis > rank) {
        return false;
    }
    int64_t outer = 1, inner = first.type.bytes();
    for (int d = 0; d < axis; ++d) {
        outer *= first.dims[d];
    }
    for (int d = axis; d < rank; ++d) {
        inner *= first.dims[d];
    }
    const int64_t n = (int64_t)items.size();
    out->type = first.type;
    out->dims = first.dims;
    out->dims.insert(out->dims.begin() + axis, (int)n);
    out->bytes.resize((size_t)(outer * n * inner));
    for (int64_t t = 0; t < n; ++t) {
        const HostValue& v = items[(size_t)(reverse ? n - 1 - t : t)];
        for (int64_t o = 0; o < outer; ++o) {
            ::memcpy(out->bytes.data() + (o * n + t) * inner, v.bytes.data() + o * inner, (size_t)inner);
        }
    }
    return true;
}

ErrorCode ControlFlowOp::runIf(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs) {
    int k1 = mGraphs[0]->inputCount(), k2 = mGraphs[1]->inputCount();
    if (inputs.empty() || !inputs[0]) {
        return fail(INVALID_VALUE, "the condition input is missing");
    }
    if ((int)inputs.size() != 1 + k1 + k2) {
        return fail(INVALID_VALUE, "%d inputs, the branches need 1 + %d + %d", (int)inputs.size(), k1, k2);
    }
    bool cond = false;
    if (!readBool(HostValue::of(inputs[0]), &cond)) {
        return fail(INVALID_VALUE, "the condition must hold one element, it has shape %s",
                    TensorUtils::shapeString(inputs[0]).c_str());
    }
    int branch = cond ? 0 : 1;
    int first = cond ? 1 : 1 + k1;
    int count = cond ? k1 : k2;
    std::vector<HostValue> values;
    values.reserve(count);
    for (int i = 0; i < count; ++i) {
        if (!inputs[first + i]) {
            return fail(INVALID_VALUE, "captured input %d is missing", first + i);
        }
        values.push_back(HostValue::of(inputs[first + i]));
    }
    std::vector<const HostValue*> ptrs;
    for (auto& v : values) {
        ptrs.push_back(&v);
    }
    auto code = mGraphs[branch]->run(ptrs, outputs);
    if (code != NO_ERROR) {
        return fail(code, "the %s branch failed", cond ? "then" : "else");
    }
    if ((int)outputs->size() < mOutputCount) {
        return fail(INVALID_VALUE, "the %s branch has %d outputs, the op %d", cond ? "then" : "else",
                    (int)outputs->size(), mOutputCount);
    }
    outputs->resize(mOutputCount);
    return NO_ERROR;
}

ErrorCode ControlFlowOp::runLoop(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs) {
    auto& body = *mGraphs[0];
    const int K = (int)mScanOutputAxes.size();
    const int N = body.outputCount() - 1 - K;
    const int captures = body.inputCount() - 2 - N;
    if (N < 0 || captures < 0) {
        return fail(INVALID_VALUE, "the body has %d inputs and %d outputs, which does not fit %d scan outputs",
                    body.inputCount(), body.outputCount(), K);
    }
    if ((int)inputs.size() > 2 + N + captures || mOutputCount > N + K) {
        return fail(INVALID_VALUE, "%d inputs and %d outputs do not fit the body (%d loop-carried values)",
                    (int)inputs.size(), mOutputCount, N);
    }
    auto in = [&](int i) -> Tensor* { return i < (int)inputs.size() ? inputs[i] : nullptr; };
    int64_t tripCount = INT64_MAX;
    if (in(0)) {
        if (!readInt(HostValue::of(in(0)), &tripCount)) {
            return fail(INVALID_VALUE, "the trip count M must be one integer");
        }
    }
    bool cond = true;
    if (in(1) && !readBool(HostValue::of(in(1)), &cond)) {
        return fail(INVALID_VALUE, "the condition must hold one element");
    }
    std::vector<HostValue> state(N), caps(captures);
    for (int i = 0; i < N + captures; ++i) {
        if (!in(2 + i)) {
            return fail(INVALID_VALUE, "input %d is missing", 2 + i);
        }
        (i < N ? state[i] : caps[i - N]) = HostValue::of(in(2 + i));
    }
    std::vector<std::vector<HostValue>> scans(K);
    HostValue iterV, condV;
    iterV.type = halide_type_of<int64_t>();
    iterV.bytes.resize(8);
    condV.type = halide_type_of<uint8_t>();
    condV.bytes.resize(1);
    const int64_t kMaxIterations = (int64_t)1 << 31;
    std::vector<HostValue> outs;
    int64_t i = 0;
    for (; i < tripCount && cond; ++i) {
        if (i >= kMaxIterations) {
            return fail(INVALID_VALUE, "stopped after %lld iterations", (long long)i);
        }
        ::memcpy(iterV.bytes.data(), &i, 8);
        condV.bytes[0] = cond ? 1 : 0;
        std::vector<const HostValue*> ptrs = {&iterV, &condV};
        for (auto& s : state) {
            ptrs.push_back(&s);
        }
        for (auto& c : caps) {
            ptrs.push_back(&c);
        }
        auto code = body.run(ptrs, &outs);
        if (code != NO_ERROR) {
            return fail(code, "the body failed at iteration %lld", (long long)i);
        }
        if (!readBool(outs[0], &cond)) {
            return fail(INVALID_VALUE, "the body's condition output must hold one element");
        }
        for (int j = 0; j < N; ++j) {
            state[j] = std::move(outs[1 + j]);
        }
        for (int j = 0; j < K; ++j) {
            scans[j].push_back(std::move(outs[1 + N + j]));
        }
    }
    outputs->clear();
    for (int j = 0; j < N; ++j) {
        outputs->push_back(std::move(state[j]));
    }
    for (int j = 0; j < K; ++j) {
        HostValue v;
        if (!stack(scans[j], 0, false, &v)) {
            return fail(INVALID_VALUE, "scan output %d changes shape or type between iterations", j);
        }
        outputs->push_back(std::move(v));
    }
    outputs->resize(mOutputCount);
    return NO_ERROR;
}

ErrorCode ControlFlowOp::runScan(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs) {
    auto& body = *mGraphs[0];
    const int K = (int)mScanOutputAxes.size();
    const int N = body.outputCount() - K;
    const int M = mNumScanInputs;
    const int captures = body.inputCount() - N - M;
    if (N < 0 || M < 1 || captures < 0 || (int)inputs.size() != N + M + captures || mOutputCount > N + K) {
        return fail(INVALID_VALUE, "%d inputs / %d outputs do not fit a body of %d inputs and %d outputs with %d "
                    "scan inputs and %d scan outputs", (int)inputs.size(), mOutputCount, body.inputCount(),
                    body.outputCount(), M, K);
    }
    std::vector<HostValue> state(N), scanIn(M), caps(captures);
    for (int i = 0; i < N + M + captures; ++i) {
        if (!inputs[i]) {
            return fail(INVALID_VALUE, "input %d is missing", i);
        }
        auto v = HostValue::of(inputs[i]);
        if (i < N) {
            state[i] = std::move(v);
        } else if (i < N + M) {
            scanIn[i - N] = std::move(v);
        } else {
            caps[i - N - M] = std::move(v);
        }
    }
    std::vector<int> axes(M, 0);
    int64_t length = -1;
    for (int j = 0; j < M; ++j) {
        int rank = (int)scanIn[j].dims.size();
        int a = j < (int)mScanInputAxes.size() ? mScanInputAxes[j] : 0;
        a = a < 0 ? a + rank : a;
        if (a < 0 || a >= rank) {
            return fail(INVALID_VALUE, "scan input %d: axis %d out of range for rank %d", j,
                        j < (int)mScanInputAxes.size() ? mScanInputAxes[j] : 0, rank);
        }
        axes[j] = a;
        if (length >= 0 && scanIn[j].dims[a] != length) {
            return fail(INVALID_VALUE, "scan inputs have different lengths (%lld and %d)", (long long)length,
                        scanIn[j].dims[a]);
        }
        length = scanIn[j].dims[a];
    }
    std::vector<HostValue> slices(M);
    std::vector<std::vector<HostValue>> scans(K);
    std::vector<HostValue> outs;
    for (int64_t t = 0; t < length; ++t) {
        for (int j = 0; j < M; ++j) {
            const HostValue& src = scanIn[j];
            int a = axes[j];
            bool reverse = j < (int)mScanInputDirections.size() && mScanInputDirections[j] != 0;
            int64_t idx = reverse ? length - 1 - t : t;
            int64_t outer = 1, inner = src.type.bytes();
            for (int d = 0; d < a; ++d) {
                outer *= src.dims[d];
            }
            for (int d = a + 1; d < (int)src.dims.size(); ++d) {
                inner *= src.dims[d];
            }
            HostValue& s = slices[j];
            s.type = src.type;
            s.dims = src.dims;
            s.dims.erase(s.dims.begin() + a);
            s.bytes.resize((size_t)(outer * inner));
            for (int64_t o = 0; o < outer; ++o) {
                ::memcpy(s.bytes.data() + o * inner, src.bytes.data() + (o * length + idx) * inner, (size_t)inner);
            }
        }
        std::vector<const HostValue*> ptrs;
        for (auto& s : state) {
            ptrs.push_back(&s);
        }
        for (auto& s : slices) {
            ptrs.push_back(&s);
        }
        for (auto& c : caps) {
            ptrs.push_back(&c);
        }
        auto code = body.run(ptrs, &outs);
        if (code != NO_ERROR) {
            return fail(code, "the body failed at step %lld", (long long)t);
        }
        for (int j = 0; j < N; ++j) {
            state[j] = std::move(outs[j]);
        }
        for (int j = 0; j < K; ++j) {
            scans[j].push_back(std::move(outs[N + j]));
        }
    }
    outputs->clear();
    for (int j = 0; j < N; ++j) {
        outputs->push_back(std::move(state[j]));
    }
    for (int j = 0; j < K; ++j) {
        int rank = scans[j].empty() ? 0 : (int)scans[j][0].dims.size();
        int a = mScanOutputAxes[j];
        a = a < 0 ? a + rank + 1 : a;
        bool reverse = j < (int)mScanOutputDirections.size() && mScanOutputDirections[j] != 0;
        HostValue v;
        if (!stack(scans[j], a, reverse, &v)) {
            return fail(INVALID_VALUE, "scan output %d: axis %d invalid, or its shape changes between steps", j,
                        mScanOutputAxes[j]);
        }
        outputs->push_back(std::move(v));
    }
    outputs->resize(mOutputCount);
    return NO_ERROR;
}

} // namespace MNN
