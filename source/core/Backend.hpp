// Backend, Runtime and Execution: the interfaces every backend implements.
#ifndef MNN_CORE_BACKEND_HPP
#define MNN_CORE_BACKEND_HPP

#include <MNN/ErrorCode.hpp>
#include <MNN/Interpreter.hpp>
#include <MNN/MNNForwardType.h>
#include <MNN/Tensor.hpp>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <map>
#include <memory>
#include <mutex>
#include <vector>
#include "Schema.hpp"

namespace MNN {
class Backend;

/**
 * A failure's reason, kept for the one log line that reports it: the Session prints an Execution's
 * (Execution::error) or a Backend's (Backend::fail) reason with the op's name, type and tensors, then
 * clears it (docs/robustness.md, "One line per failure"). Fixed size: recording allocates nothing.
 */
class ErrorReason {
public:
    const char* text() const {
        return mText;
    }
    void clear() {
        mText[0] = 0;
    }
    void set(const char* fmt, va_list args) {
        vsnprintf(mText, sizeof(mText), fmt, args);
        size_t n = strlen(mText);
        while (n > 0 && mText[n - 1] == '\n') {
            mText[--n] = 0;
        }
    }

private:
    char mText[256] = {0};
};

/**
 * One op's computation on one backend. onResize sees final shapes: it validates, picks the
 * algorithm, packs weights (STATIC memory) and plans scratch (DYNAMIC memory, acquired and
 * released here so the planner can reuse it). onExecute only computes; it may check values
 * (an index out of range) and return INPUT_DATA_ERROR, never read or write out of bounds.
 */
class Execution {
public:
    explicit Execution(Backend* backend) : mBackend(backend) {}
    virtual ~Execution() = default;
    Execution(const Execution&) = delete;
    Execution& operator=(const Execution&) = delete;

    virtual ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
        (void)inputs;
        (void)outputs;
        return NO_ERROR;
    }
    virtual ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) = 0;
    /**
     * the input whose buffer output 0 may be written over (-1: none): the op reads each element of
     * that input only to compute the output element at the same byte offset, before it writes that
     * element (a residual added in the store). The Session then plans output 0 as a view of the
     * input when no later op reads the input and both have one shape and layout
     * (Session::planInPlaceOutputs; MNN_INPLACE_OUTPUTS=0: never). Asked before onResize.
     */
    virtual int inPlaceInput() const {
        return -1;
    }
    /** the algorithm chosen at onResize, for profilers ("reference", "winograd F(4,3)"...) */
    virtual const char* algorithm() const {
        return "reference";
    }
    Backend* backend() const {
        return mBackend;
    }
    /**
     * why the last onResize / onExecute returned an error ("" when it gave none). The Session prints
     * it in its one line for the failure, with the op's name and type and its inputs' and outputs'
     * names, shapes and types, then clears it (docs/robustness.md, "One line per failure").
     */
    const char* errorReason() const {
        return mErrorReason.text();
    }
    void clearErrorReason() {
        mErrorReason.clear();
    }

protected:
    /**
     * records the reason (printf format, no trailing newline needed) and returns code:
     * `return error(INVALID_VALUE, "weights %s do not match", ...)`. Prints nothing itself (the
     * Session's line carries it) and allocates nothing (onExecute's value checks use it too).
     */
    ErrorCode error(ErrorCode code, const char* fmt, ...) const __attribute__((format(printf, 3, 4))) {
        va_list args;
        va_start(args, fmt);
        mErrorReason.set(fmt, args);
        va_end(args);
        return code;
    }

    Backend* mBackend;

private:
    mutable ErrorReason mErrorReason;  // const kernels' helpers record reasons too
};

class Backend {
public:
    enum StorageType {
        /** lives until released; not pooled (weights, session-lifetime data) */
        STATIC,
        /** pooled activations and scratch: planned by liveness, real memory after onResizeEnd */
        DYNAMIC,
    };

    explicit Backend(MNNForwardType type) : mType(type) {}
    virtual ~Backend();

    /** why the last onAcquireBuffer / onAcquireView / scratch request failed ("" when none said) */
    const char* errorReason() const {
        return mErrorReason.text();
    }
    void clearErrorReason() {
        mErrorReason.clear();
    }

    MNNForwardType type() const {
        return mType;
    }

    /** the Execution for `op`, or nullptr when this backend lacks it (the caller falls back) */
    virtual Execution* onCreate(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                const Schema::Op* op) = 0;

    virtual bool onAcquireBuffer(Tensor* tensor, StorageType storage) = 0;
    virtual bool onReleaseBuffer(Tensor* tensor, StorageType storage) = 0;
    /** whether onAcquireView works in the current plan (a backend with a planned host arena) */
    virtual bool onViewSupport() const {
        return false;
    }
    /**
     * plans `view` as the bytes [byteOffset, byteOffset + byteSize(view)) of `parent`, a DYNAMIC
     * tensor acquired in this plan and not yet released (the Session writes a Concat's inputs in
     * place this way); releasing the view frees nothing. Only where onViewSupport() is true.
     */
    virtual bool onAcquireView(Tensor* view, Tensor* parent, int64_t byteOffset) {
        (void)view;
        (void)parent;
        (void)byteOffset;
        return false;
    }
    /** frees every DYNAMIC buffer (before a new plan) */
    virtual void onClearBuffer() = 0;

    virtual void onResizeBegin() {}
    /** commits the memory plan; DYNAMIC tensors get their memory here */
    virtual ErrorCode onResizeEnd() {
        return NO_ERROR;
    }
    virtual void onExecuteBegin() const {}
    virtual void onExecuteEnd() const {}

    /** copies between tensors of the same logical shape across layouts and devices */
    virtual bool onCopyBuffer(const Tensor* src, const Tensor* dst) const = 0;

    /** bytes of pooled memory the current plan needs, and bytes of static memory held */
    virtual size_t dynamicBytes() const {
        return 0;
    }
    virtual size_t staticBytes() const {
        return 0;
    }

    /** how the backend runs an op on its packed activation layout (onPackedSupport's answers) */
    enum PackedSupport {
        /** only on plain tensors */
        PACKED_NONE = 0,
        /** its data input 0 and output 0 may each be packed or plain (the op converts) */
        PACKED_MIXED = 1,
        /**
         * every 4-D float input and the output may be packed; the kernel runs packed and the
         * backend converts the plain ones at the op's edges
         */
        PACKED_UNIFORM = 2,
    };
    /**
     * Asked by the Session after shape inference; a tensor is kept packed when its producer and all
     * its consumers support it. The Execution then sees packed tensors as CAFFE_C4 with the
     * backend's pack in the tensor's description.
     */
    virtual int onPackedSupport(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) const {
        (void)op;
        (void)inputs;
        (void)outputs;
        return PACKED_NONE;
    }
    /**
     * For PACKED_MIXED ops: whether input `index` (besides input 0, always one) is a data input that
     * may be packed too (the CPU: a Convolution's residual R, input 4)
     */
    virtual bool onPackedDataInput(const Schema::Op* op, int index) const {
        (void)op;
        return index == 0;
    }
    /** marks a tensor packed or plain in this backend's packed layout */
    virtual void onSetPacked(Tensor* tensor, bool packed) const {
        (void)tensor;
        (void)packed;
    }

    /** whether host code may read / write this backend's tensors directly */
    virtual bool isHostMemory() const {
        return true;
    }

    // Host copies handed out by Tensor::map, taken back by Tensor::unmap.
    void rememberMapped(Tensor* host);
    Tensor* takeMapped(void* ptr);

    /**
     * The session's arena limit (ARENA_SIZE_LIMIT_MB), set by the Session: the most one pooled
     * allocation of this backend outside the arena plan (kernel scratch) may take
     */
    void setMemoryLimit(int64_t bytes) {
        mMemoryLimit = bytes;
    }
    int64_t memoryLimit() const {
        return mMemoryLimit;
    }

protected:
    /** records the reason (printf format) for the Session's line and returns false: `return fail(...)` */
    bool fail(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
        va_list args;
        va_start(args, fmt);
        mErrorReason.set(fmt, args);
        va_end(args);
        return false;
    }

private:
    ErrorReason mErrorReason;
    MNNForwardType mType;
    int64_t mMemoryLimit = INT64_MAX;
    std::mutex mMapLock;
    std::vector<Tensor*> mMapped;
};

/** long-lived state of one backend kind for one session (thread pool, device, kernel cache) */
class Runtime {
public:
    virtual ~Runtime() = default;
    virtual Backend* onCreate(const BackendConfig* config) const = 0;
    virtual int threadNumber() const {
        return 1;
    }
    virtual MNNForwardType type() const = 0;
};

/** makes the Runtime for a forward type, or nullptr when the device is unusable here */
typedef Runtime* (*RuntimeCreator)(const ScheduleConfig& config);
/** registers a runtime kind (called from the generated registry) */
void registerRuntimeCreator(MNNForwardType type, RuntimeCreator creator);
RuntimeCreator getRuntimeCreator(MNNForwardType type);

}  // namespace MNN

#endif
