// The CPU backend: host memory, pooled arena, the CPU op registry.
#ifndef MNN_CPU_CPUBACKEND_HPP
#define MNN_CPU_CPUBACKEND_HPP

#include <map>
#include <vector>
#include "core/ArenaPlanner.hpp"
#include "core/Backend.hpp"
#include <memory>
#include "ThreadPool.hpp"

namespace MNN {

class CPURuntime : public Runtime {
public:
    explicit CPURuntime(const ScheduleConfig& config);
    Backend* onCreate(const BackendConfig* config) const override;
    int threadNumber() const override {
        return mThreads;
    }
    MNNForwardType type() const override {
        return MNN_FORWARD_CPU;
    }

    ThreadPool* threadPool() const {
        return mPool.get();
    }

private:
    int mThreads;
    std::unique_ptr<ThreadPool> mPool;  // persistent workers when mThreads > 1
};

class CPUBackend : public Backend {
public:
    /**
     * immediate: DYNAMIC buffers get memory at once instead of a planned arena offset
     * (used to evaluate shape-determining values during the resize step).
     */
    CPUBackend(const BackendConfig* config, int threads, bool immediate = false);
    ~CPUBackend() override;

    Execution* onCreate(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                        const Schema::Op* op) override;
    bool onAcquireBuffer(Tensor* tensor, StorageType storage) override;
    bool onReleaseBuffer(Tensor* tensor, StorageType storage) override;
    bool onViewSupport() const override {
        return !mImmediate;
    }
    bool onAcquireView(Tensor* view, Tensor* parent, int64_t byteOffset) override;
    void onClearBuffer() override;
    void onResizeBegin() override;
    ErrorCode onResizeEnd() override;
    bool onCopyBuffer(const Tensor* src, const Tensor* dst) const override;
    int onPackedSupport(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                        const std::vector<Tensor*>& outputs) const override;
    /** a Convolution's residual R (input 4) is a data input: packed like the block input it adds back */
    bool onPackedDataInput(const Schema::Op* op, int index) const override {
        return index == 0 || (index == 4 && op->type() == Schema::OpType::Convolution);
    }
    void onSetPacked(Tensor* tensor, bool packed) const override;
    size_t dynamicBytes() const override {
        return (size_t)mPlanner.peak();
    }
    size_t staticBytes() const override {
        return mStaticBytes;
    }

    BackendConfig::PrecisionMode precision() const {
        return mPrecision;
    }
    /** Memory_Low: algorithms whose weights grow (Winograd) are chosen only where they stay small */
    BackendConfig::MemoryMode memoryMode() const {
        return mMemory;
    }
    int threadNumber() const {
        return mThreads;
    }
    /** the runtime's worker pool (nullptr: run inline on the calling thread) */
    ThreadPool* threadPool() const {
        return mPool;
    }
    void setThreadPool(ThreadPool* pool) {
        mPool = pool;
    }
    /**
     * Scratch shared by this backend's Executions (they run one at a time): grow it in onResize,
     * read scratch() in onExecute (a later reserve may move it, so do not keep the pointer).
     */
    bool reserveScratch(size_t bytes);
    uint8_t* scratch() const {
        return mScratch;
    }

private:
    ThreadPool* mPool = nullptr;
    uint8_t* mScratch = nullptr;
    size_t mScratchBytes = 0;
    BackendConfig::PrecisionMode mPrecision = BackendConfig::Precision_Normal;
    BackendConfig::MemoryMode mMemory = BackendConfig::Memory_Normal;
    int mThreads = 1;
    bool mImmediate = false;
    ArenaPlanner mPlanner;
    std::map<Tensor*, int64_t> mPlanned;  // DYNAMIC tensors of the current plan -> offset
    std::map<Tensor*, int64_t> mViews;    // views into planned tensors (onAcquireView) -> offset
    uint8_t* mArena = nullptr;
    int64_t mArenaSize = 0;
    size_t mArenaAlloc = 0;              // bytes given to cpuAlloc for mArena
    std::map<Tensor*, int64_t> mStatic;  // STATIC tensors -> bytes
    size_t mStaticBytes = 0;
};

}  // namespace MNN
#endif
