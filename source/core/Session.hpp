// Session: the scheduled, shaped, planned graph that runSession walks.
#ifndef MNN_CORE_SESSION_HPP
#define MNN_CORE_SESSION_HPP

#include <MNN/Interpreter.hpp>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>
#include "Backend.hpp"
#include "Schema.hpp"

namespace MNN {

/** a graph in the model: the main Net or a control-flow SubGraph */
struct GraphRef {
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* tensorNames = nullptr;
    const flatbuffers::Vector<flatbuffers::Offset<Schema::Op>>* ops = nullptr;
    const flatbuffers::Vector<flatbuffers::Offset<Schema::Blob>>* constants = nullptr;
    const flatbuffers::Vector<flatbuffers::Offset<Schema::TensorDecl>>* inputs = nullptr;
    const flatbuffers::Vector<int32_t>* outputs = nullptr;
    int tensorCount() const {
        return tensorNames ? (int)tensorNames->size() : 0;
    }
    std::string tensorName(int i) const;
    static GraphRef fromNet(const Schema::Net* net);
    static GraphRef fromSubGraph(const Schema::SubGraph* graph);
};

struct SessionOptions {
    std::vector<std::string> saveTensors;
    bool callbacksEnabled = true;
    bool deferResize = false;
    int64_t tensorLimitBytes = (int64_t)2048 << 20;
    int64_t arenaLimitBytes = (int64_t)8192 << 20;
    /**
     * plain (uncompressed, aligned) constants point into the model buffer instead of a copy; the
     * owner of the buffer (the Interpreter) calls detachConstants() before it changes the buffer
     */
    bool aliasConstants = false;
    /**
     * let backends keep activations in their packed layout between ops that support it
     * (Backend::onPackedSupport); env MNN_LAYOUT=plain turns it off, MNN_LAYOUT=packed on
     */
    bool packedLayout = true;
    /**
     * called during the memory plan for each constant read in place from the model bytes once
     * every op that reads it has been resized (its Execution holds what it needs): the owner of
     * the bytes may give their pages back to the system
     */
    void (*constantConsumed)(void* owner, const void* data, size_t bytes) = nullptr;
    void* constantOwner = nullptr;
};

class Session {
public:
    struct Unit;

    Session(const GraphRef& graph, const std::vector<ScheduleConfig>& configs, const SessionOptions& options);
    ~Session();

    /** builds the schedule and runs the first pre-inference step; false on error (logged) */
    bool init();
    /** constants that point into the model buffer get their own copies (before the buffer goes) */
    bool detachConstants();

    /** the pre-inference step; inputValuesKnown: graph inputs hold the app's values */
    ErrorCode resize(bool inputValuesKnown);
    ErrorCode run(const TensorCallBackWithInfo* before, const TensorCallBackWithInfo* after);

    void markResize() {
        mNeedResize = true;
    }
    bool needResize() const {
        return mNeedResize;
    }
    bool deferResize() const {
        return mOptions.deferResize;
    }

    Tensor* getInput(const char* name) const;
    Tensor* getOutput(const char* name) const;
    const std::map<std::string, Tensor*>& inputs() const {
        return mInputMap;
    }
    const std::map<std::string, Tensor*>& outputs() const {
        return mOutputMap;
    }
    bool hasInputTensor(const Tensor* t) const;
    const Backend* backendOf(const Tensor* t) const;

    float memoryMB() const;
    float flopsM() const;
    std::vector<int> backendTypes() const;
    int threadNumber() const;

    /** points the session at a new copy of its graph (same structure) after releaseModel */
    void rebind(const GraphRef& graph);

    /** units in run order (for tools and tests) */
    const std::vector<std::unique_ptr<Unit>>& units() const {
        return mUnits;
    }

private:
    bool schedule();
    bool setupTensors();
    Tensor* valueOf(int tensorIndex, bool inputValuesKnown, std::map<int, std::unique_ptr<Tensor>>& cache,
                    bool* failed);
    bool valuesChanged() const;
    ErrorCode planMemory();
    /**
     * per tensor: how many units still read the aliased constant (0 for other tensors; empty when
     * no constant is given back). withoutExecution: only units that have no Execution yet count,
     * and a constant that a unit with an Execution reads is marked -1 (never given back by them)
     */
    std::vector<int> pendingConstantReaders(bool withoutExecution) const;
    /** counts u's read of each aliased input down in *pending; gives back those that reach 0 */
    void consumeConstants(const Unit& u, std::vector<int>* pending);
    void planConcatViews(std::vector<int>* viewParent, std::vector<int64_t>* viewOffset);
    void planInPlaceOutputs(const std::vector<int>& lastUse, const std::vector<int>& viewParent, std::vector<int>* root,
                            std::vector<int>* rootEnd);
    /** a tensor the memory plan may free after its last reader (no constant, input or saved tensor) */
    bool releasable(int t) const;
    /** decides which tensors are packed (after shapes are known, before Executions are made) */
    void assignLayouts();
    /** every backend forgets its memory plan */
    void clearPlans();
    /** true (once) when an input planned with placeholder dims now has another shape */
    bool placeholdersReplaced();

    GraphRef mGraph;
    std::vector<ScheduleConfig> mConfigs;
    SessionOptions mOptions;
    std::vector<int> mAliasedConstants;  // tensors whose host points into the model buffer
    int64_t mAliasedBytes = 0;
    std::vector<std::shared_ptr<Runtime>> mRuntimes;  // per config
    std::vector<std::unique_ptr<Backend>> mBackends;  // per config
    std::unique_ptr<Backend> mCPUFallback;            // used when a backend lacks an op
    std::unique_ptr<Backend> mEvalBackend;            // evaluates shape-determining values
    std::vector<std::unique_ptr<Tensor>> mTensors;
    std::vector<int> mProducer;  // tensor -> unit index or -1
    std::vector<std::unique_ptr<Unit>> mUnits;
    std::vector<int> mInputIndices;
    std::vector<int> mOutputIndices;
    std::set<int> mSaved;
    std::map<std::string, Tensor*> mInputMap;
    std::map<std::string, Tensor*> mOutputMap;
    bool mNeedResize = true;
    bool mReady = false;
    // inputs whose unknown dims (-1 in the model) were planned as 1, with those placeholder shapes:
    // Executions made for them are remade at the first resize to other shapes (the kernel choices,
    // Winograd, packed variants, were made for the placeholders)
    std::vector<std::pair<Tensor*, std::vector<int>>> mPlaceholderInputs;
    // graph inputs whose values decided shapes at the last resize, with those values
    std::vector<std::pair<int, std::vector<uint8_t>>> mValueKey;
    std::vector<std::pair<int, std::vector<int>>> mValueKeyShapes;
};

}  // namespace MNN
#endif
