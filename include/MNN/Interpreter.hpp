// MNN::Interpreter: loads a model and runs it through sessions (the classic session API).
#ifndef MNN_INTERPRETER_HPP
#define MNN_INTERPRETER_HPP

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include <MNN/ErrorCode.hpp>
#include <MNN/MNNForwardType.h>
#include <MNN/Tensor.hpp>

namespace MNN {

/** how a session is scheduled */
struct ScheduleConfig {
    /** tensors kept alive (not reused by the memory planner) and readable after a run */
    std::vector<std::string> saveTensors;
    /** the backend to run on */
    MNNForwardType type = MNN_FORWARD_CPU;
    /** CPU threads; for GPU backends this field carries MNNGpuMode flags */
    union {
        int numThread = 4;
        int mode;
    };

    /** run only part of the graph */
    struct Path {
        std::vector<std::string> inputs;
        std::vector<std::string> outputs;

        enum Mode {
            /** inputs / outputs name ops: run from the input ops through the output ops */
            Op = 0,
            /** inputs / outputs name tensors: run what computes outputs from inputs */
            Tensor = 1
        };
        Mode mode = Op;
    };
    Path path;

    /** backend used when `type` is unavailable or lacks an op */
    MNNForwardType backupType = MNN_FORWARD_CPU;

    /** extra backend settings; may be nullptr */
    BackendConfig* backendConfig = nullptr;
};

class Session;
struct Content;
class Tensor;
class Backend;
class Runtime;

/** what a callback learns about the op it is called for */
class MNN_PUBLIC OperatorInfo {
    struct Info;

public:
    const std::string& name() const {
        return mName;
    }
    const std::string& type() const {
        return mType;
    }
    /** MFLOPs of this op at the current shapes; a multiply-add counts 2 flops */
    float flops() const {
        return mFlops;
    }

protected:
    OperatorInfo();
    ~OperatorInfo();
    Info* mContent;
    std::string mName;
    std::string mType;
    float mFlops = 0.0f;
};

typedef std::function<bool(const std::vector<Tensor*>&, const std::string& /*opName*/)> TensorCallBack;
typedef std::function<bool(const std::vector<Tensor*>&, const OperatorInfo*)> TensorCallBackWithInfo;
typedef std::pair<std::map<MNNForwardType, std::shared_ptr<Runtime>>, std::shared_ptr<Runtime>> RuntimeInfo;

/**
 * The model: creates sessions, runs them.
 *
 * Thread safety:
 *  - Safe: creating, resizing, running and releasing *different* sessions of one Interpreter from
 *    different threads at the same time (each session owns its backends, memory and runtime), and
 *    sessions of different Interpreters likewise. Results are bit-identical to a single-threaded run.
 *  - Not safe: using one Session from two threads at once (runSession, resizeTensor/resizeSession,
 *    reading its tensors while it runs); releaseModel, setSessionMode, setSessionHint or destroy
 *    while another thread uses the Interpreter. Serialise those calls in the app.
 */
class MNN_PUBLIC Interpreter {
public:
    /** nullptr (and one logged line) when the file is missing, truncated, corrupt or unsupported */
    static Interpreter* createFromFile(const char* file);
    /** the buffer is copied; nullptr (and one logged line) when it is not a valid model */
    static Interpreter* createFromBuffer(const void* buffer, size_t size);
    /** releases every session and the model */
    static void destroy(Interpreter* net);
    ~Interpreter();

    enum SessionMode {
        /** callbacks are honoured (default) */
        Session_Debug = 0,
        /** callbacks are ignored: runSessionWithCallBack behaves as runSession */
        Session_Release = 1,
        /** session inputs live in the session's memory (default) */
        Session_Input_Inside = 2,
        /** the app binds its own memory to inputs (the tensor memory must outlive runs) */
        Session_Input_User = 3,
        /** session outputs live in the session's memory (default) */
        Session_Output_Inside = 4,
        /** outputs are copied out by the app through copyToHostTensor */
        Session_Output_User = 5,
        /** resizeSession runs the pre-inference step at once (default) */
        Session_Resize_Direct = 6,
        /** resizeSession only marks the session; the step runs at the next runSession */
        Session_Resize_Defer = 7,
        /** the backend is the one asked for (default) */
        Session_Backend_Fix = 8,
        /** the backend may be chosen by cost */
        Session_Backend_Auto = 9,
        Session_Memory_Collect = 10,
        Session_Memory_Cache = 11,
        Session_Codegen_Disable = 12,
        Session_Codegen_Enable = 13,
    };
    /** applies to sessions created after the call */
    void setSessionMode(SessionMode mode);

    /** GPU backends keep compiled kernels and tuning in this file */
    void setCacheFile(const char* cacheFile, size_t keySize = 128);
    void setExternalFile(const char* file, size_t flag = 128);
    /** writes the cache file if the session's backends produced new entries */
    ErrorCode updateCacheFile(Session* session, int flag = 0);

    enum HintMode {
        MAX_TUNING_NUMBER = 0,
        /** largest element count one tensor may have, in MiB of bytes (default 2048) */
        TENSOR_SIZE_LIMIT_MB = 100,
        /** largest session arena in MiB (default 8192) */
        ARENA_SIZE_LIMIT_MB = 101,
        /** forces an algorithm for convolutions (see docs) */
        CONV_ALGORITHM = 102,
    };
    void setSessionHint(HintMode mode, int value);

    /** runs the pre-inference step: shape inference, backend choice, Executions, memory plan */
    Session* createSession(const ScheduleConfig& config);
    Session* createSession(const ScheduleConfig& config, const RuntimeInfo& runtime);
    /** one pipeline per config */
    Session* createMultiPathSession(const std::vector<ScheduleConfig>& configs);
    Session* createMultiPathSession(const std::vector<ScheduleConfig>& configs, const RuntimeInfo& runtime);

    bool releaseSession(Session* session);

    /** re-runs the pre-inference step for the shapes set by resizeTensor */
    void resizeSession(Session* session);
    void resizeSession(Session* session, int needRelloc);

    /** frees the model buffer; existing sessions keep working (and can still be resized) */
    void releaseModel();

    /** model bytes and size; {nullptr, 0} after releaseModel */
    std::pair<const void*, size_t> getModelBuffer() const;
    const char* getModelVersion() const;

    ErrorCode updateSessionToModel(Session* session);

    ErrorCode runSession(Session* session) const;
    /** before: false skips the op; after: false stops the run with CALL_BACK_STOP */
    ErrorCode runSessionWithCallBack(const Session* session, const TensorCallBack& before,
                                     const TensorCallBack& end, bool sync = false) const;
    ErrorCode runSessionWithCallBackInfo(const Session* session, const TensorCallBackWithInfo& before,
                                         const TensorCallBackWithInfo& end, bool sync = false) const;

    /** name nullptr: the first input */
    Tensor* getSessionInput(const Session* session, const char* name);
    /** name nullptr: the first output */
    Tensor* getSessionOutput(const Session* session, const char* name);

    enum SessionInfoCode {
        /** float: planned memory in MB (arena + weights) */
        MEMORY = 0,
        /** float: MFLOPs of one run (a multiply-add counts 2) */
        FLOPS = 1,
        /** int[]: forward types in use, one per pipeline */
        BACKENDS = 2,
        /** int: 0 ready, 1 needs resize, 2 needs re-allocation */
        RESIZE_STATUS = 3,
        /** int: threads of the CPU runtime */
        THREAD_NUMBER = 4,
        ALL
    };
    bool getSessionInfo(const Session* session, SessionInfoCode code, void* ptr);

    const std::map<std::string, Tensor*>& getSessionOutputAll(const Session* session) const;
    const std::map<std::string, Tensor*>& getSessionInputAll(const Session* session) const;

    /** marks the session for resize; the dims are in the tensor's own layout order */
    void resizeTensor(Tensor* tensor, const std::vector<int>& dims);
    void resizeTensor(Tensor* tensor, int batch, int channel, int height, int width);

    /** the backend that runs the op producing `tensor` (nullptr if none) */
    const Backend* getBackend(const Session* session, const Tensor* tensor) const;

    const char* bizCode() const;
    const char* uuid() const;

private:
    Interpreter(Content* net);
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;
    Content* mNet = nullptr;
};

/** library version, e.g. "0.1.0" */
MNN_PUBLIC const char* getVersion();

} // namespace MNN

#endif
