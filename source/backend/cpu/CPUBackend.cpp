#include "CPUBackend.hpp"
#include "CPUMemory.hpp"
#include <stdlib.h>
#include <string.h>
#include "core/Macro.hpp"
#include "core/Registry.hpp"
#include "core/TensorUtils.hpp"
#include "PackedLayout.hpp"
#include "ops/CPUPackedOps.hpp"

namespace MNN {

CPURuntime::CPURuntime(const ScheduleConfig& config) {
    mThreads = config.numThread < 1 ? 1 : (config.numThread > 64 ? 64 : config.numThread);
    if (mThreads > 1) {
        mPool.reset(new ThreadPool(mThreads));
    }
}

Backend* CPURuntime::onCreate(const BackendConfig* config) const {
    auto backend = new CPUBackend(config, mThreads);
    backend->setThreadPool(mPool.get());
    return backend;
}

static Runtime* createCPURuntime(const ScheduleConfig& config) {
    return new CPURuntime(config);
}

CPUBackend::CPUBackend(const BackendConfig* config, int threads, bool immediate)
    : Backend(MNN_FORWARD_CPU), mThreads(threads), mImmediate(immediate) {
    if (config) {
        mPrecision = config->precision;
        mMemory = config->memory;
    }
}

CPUBackend::~CPUBackend() {
    // The tensors of the plan may already be gone (their owner releases them first): only forget them.
    mPlanned.clear();
    mStatic.clear();
    cpuFree(mArena, mArenaAlloc);
    cpuFree(mScratch, mScratchBytes);
}

bool CPUBackend::reserveScratch(size_t bytes) {
    if (bytes <= mScratchBytes && mScratch) {
        return true;
    }
    if ((uint64_t)bytes > (uint64_t)memoryLimit()) {
        // reported by the Session's line for the op's resize failure (with this reason)
        return fail("kernel scratch of %lld MiB is over the session's arena limit of %lld MiB",
                    (long long)(bytes >> 20), (long long)(memoryLimit() >> 20));
    }
    void* p = cpuAlloc(bytes);
    if (!p) {
        return fail("cannot allocate %zu bytes of kernel scratch", bytes);
    }
    cpuFree(mScratch, mScratchBytes);
    mScratch = (uint8_t*)p;
    mScratchBytes = bytes;
    return true;
}

Execution* CPUBackend::onCreate(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                const Schema::Op* op) {
    for (auto t : inputs) {
        if (t && isCpuPacked(t)) {
            return createPackedExecution(inputs, outputs, op, this);
        }
    }
    for (auto t : outputs) {
        if (t && isCpuPacked(t)) {
            return createPackedExecution(inputs, outputs, op, this);
        }
    }
    auto creator = getCPUCreator(op->type());
    if (!creator) {
        return nullptr;
    }
    return creator(inputs, outputs, op, this);
}

bool CPUBackend::onAcquireBuffer(Tensor* tensor, StorageType storage) {
    int64_t bytes = TensorUtils::byteSize(tensor);
    if (bytes < 0) {
        // reported by the caller's line (Session: the op and this reason)
        return fail("tensor %s has a negative dim (%s)", TensorUtils::describe(tensor)->name.c_str(),
                    TensorUtils::shapeString(tensor).c_str());
    }
    if (storage == STATIC || mImmediate) {
        if (!TensorUtils::allocHost(tensor)) {
            return false;  // reported by allocHost (out of memory, naming the tensor)
        }
        // the tensor frees its own memory; the backend only counts it
        TensorUtils::describe(tensor)->backend = this;
        if (storage == STATIC) {
            mStaticBytes += (size_t)bytes;
            mStatic[tensor] = bytes;
        }
        return true;
    }
    TensorUtils::freeHost(tensor);
    int64_t offset = mPlanner.alloc(bytes);
    mPlanned[tensor] = offset;
    TensorUtils::describe(tensor)->arenaOffset = offset;
    TensorUtils::describe(tensor)->backend = this;
    return true;
}

bool CPUBackend::onAcquireView(Tensor* view, Tensor* parent, int64_t byteOffset) {
    auto it = mPlanned.find(parent);
    if (mImmediate || it == mPlanned.end() || byteOffset < 0 || byteOffset % ArenaPlanner::kAlign != 0 ||
        byteOffset + TensorUtils::byteSize(view) > TensorUtils::byteSize(parent)) {
        return fail("tensor %s cannot be a view at byte %lld of %s", TensorUtils::describe(view)->name.c_str(),
                    (long long)byteOffset, TensorUtils::describe(parent)->name.c_str());
    }
    TensorUtils::freeHost(view);
    mViews[view] = it->second + byteOffset;
    TensorUtils::describe(view)->arenaOffset = it->second + byteOffset;
    TensorUtils::describe(view)->backend = this;
    return true;
}

bool CPUBackend::onReleaseBuffer(Tensor* tensor, StorageType storage) {
    if (storage == STATIC) {
        auto it = mStatic.find(tensor);
        if (it != mStatic.end()) {
            mStaticBytes -= (size_t)it->second;
            mStatic.erase(it);
        }
        TensorUtils::freeHost(tensor);
        return true;
    }
    if (mImmediate) {
        return true;  // freed with the tensor
    }
    if (mViews.count(tensor)) {
        return true;  // its parent's bytes, freed with the parent
    }
    auto it = mPlanned.find(tensor);
    if (it == mPlanned.end()) {
        return false;
    }
    mPlanner.free(it->second);
    return true;
}

void CPUBackend::onClearBuffer() {
    for (auto& p : mPlanned) {
        p.first->buffer().host = nullptr;
        TensorUtils::describe(p.first)->arenaOffset = -1;
    }
    mPlanned.clear();
    for (auto& p : mViews) {
        p.first->buffer().host = nullptr;
        TensorUtils::describe(p.first)->arenaOffset = -1;
    }
    mViews.clear();
    mPlanner.reset();
}

void CPUBackend::onResizeBegin() {
    onClearBuffer();
}

ErrorCode CPUBackend::onResizeEnd() {
    if (mImmediate) {
        return NO_ERROR;
    }
    int64_t need = mPlanner.peak();
    if (need > mArenaSize || (mArena == nullptr && need >= 0)) {
        cpuFree(mArena, mArenaAlloc);
        mArena = nullptr;
        mArenaSize = 0;
        mArenaAlloc = 0;
        size_t bytes = (size_t)(need > 0 ? need : ArenaPlanner::kAlign);
        void* p = cpuAlloc(bytes);
        if (!p) {
            MNN_ERROR("CPU backend: cannot allocate the session arena of %lld bytes\n", (long long)need);
            return OUT_OF_MEMORY;
        }
        mArena = (uint8_t*)p;
        mArenaSize = need;
        mArenaAlloc = bytes;
    }
    for (auto& p : mPlanned) {
        p.first->buffer().host = mArena + p.second;
    }
    for (auto& p : mViews) {
        p.first->buffer().host = mArena + p.second;
    }
    return NO_ERROR;
}

bool CPUBackend::onCopyBuffer(const Tensor* src, const Tensor* dst) const {
    return TensorUtils::copyHostWithLayout(src, const_cast<Tensor*>(dst));
}

int CPUBackend::onPackedSupport(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) const {
    if (mImmediate) {
        return PACKED_NONE;
    }
    return cpuPackedSupport(op, inputs, outputs);
}

void CPUBackend::onSetPacked(Tensor* tensor, bool packed) const {
    setCpuPacked(tensor, packed);
}

} // namespace MNN

MNN_REGISTER_RUNTIME(CPU, MNN_FORWARD_CPU, createCPURuntime)
