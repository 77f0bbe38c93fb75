// Control flow (If, Loop, Scan): each subgraph runs as a nested Session built from its own copy
// of the SubGraph (so nothing points into the model buffer, which releaseModel may drop).
//
// Op conventions (written by the converter, tools/converter/onnx/OnnxControlFlow.cpp):
//  If:   inputs [cond, then-captures..., else-captures...]; subgraphs [then, else]; a branch's
//        inputs are its captured outer tensors, in order.
//  Loop: inputs [M (-1 absent), cond (-1 absent), v_initial (N)..., captures...];
//        body inputs [iteration, cond, v (N)..., captures...]; body outputs [cond, v (N)..., scans (K)...];
//        scanOutputAxes holds K zeros (it gives K; Loop scan outputs stack on axis 0).
//  Scan: inputs [states (N)..., scan inputs (numScanInputs)..., captures...]; body inputs in the
//        same order (scan inputs sliced); body outputs [states (N)..., scan outputs (K)...];
//        scanOutputAxes has K entries (gives K), scanInputAxes / directions may be empty (0).
// The shape function runs the op (its outputs' shapes depend on values); the Execution runs it
// again at onExecute.
#ifndef MNN_CORE_CONTROLFLOW_HPP
#define MNN_CORE_CONTROLFLOW_HPP

#include <MNN/ErrorCode.hpp>
#include <MNN/MNNForwardType.h>
#include <MNN/Tensor.hpp>
#include <memory>
#include <string>
#include <vector>
#include "Schema.hpp"

namespace MNN {
class Session;

/** a tensor value held on the host: type, dims, row-major bytes */
struct HostValue {
    halide_type_t type = halide_type_of<float>();
    std::vector<int> dims;
    std::vector<uint8_t> bytes;
    int64_t count() const;
    static HostValue of(const Tensor* t);
};

/** one subgraph: owns a copy of it and a nested Session, re-planned when input shapes change */
class SubGraphRunner {
public:
    SubGraphRunner(const Schema::SubGraph* graph, BackendConfig::PrecisionMode precision);
    ~SubGraphRunner();
    int inputCount() const {
        return mInputCount;
    }
    int outputCount() const {
        return mOutputCount;
    }
    const std::string& name() const {
        return mName;
    }
    /** runs the subgraph with these inputs (one per subgraph input); outputs are copied out */
    ErrorCode run(const std::vector<const HostValue*>& inputs, std::vector<HostValue>* outputs);

private:
    ErrorCode build(const std::vector<const HostValue*>& inputs);
    /** the nested session's input of that name; nullptr when the subgraph does not read it */
    Tensor* findInput(const std::string& name) const;
    std::string mName;
    std::vector<uint8_t> mBuffer;  // the packed SubGraph this runner's session reads
    std::unique_ptr<Schema::SubGraphT> mObject;
    BackendConfig::PrecisionMode mPrecision;
    std::unique_ptr<Session> mSession;
    int mInputCount = 0;
    int mOutputCount = 0;
    std::vector<std::string> mInputNames, mOutputNames;
};

/** If / Loop / Scan with its parameters copied out of the op */
class ControlFlowOp {
public:
    /** nullptr (and one log line) when the op is malformed */
    static std::unique_ptr<ControlFlowOp> create(const Schema::Op* op, BackendConfig::PrecisionMode precision);
    /** runs the op; inputs may hold nullptr for absent optional ones */
    ErrorCode run(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs);

private:
    ErrorCode runIf(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs);
    ErrorCode runLoop(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs);
    ErrorCode runScan(const std::vector<Tensor*>& inputs, std::vector<HostValue>* outputs);
    ErrorCode fail(ErrorCode code, const char* fmt, ...) const __attribute__((format(printf, 3, 4)));

    Schema::OpType mType = Schema::OpType::If;
    std::string mName;
    int mOutputCount = 0;
    std::vector<std::unique_ptr<SubGraphRunner>> mGraphs;
    int mNumScanInputs = 0;
    std::vector<int> mScanInputAxes, mScanOutputAxes, mScanInputDirections, mScanOutputDirections;
};

} // namespace MNN
#endif
