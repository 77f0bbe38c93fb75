// Read-only views of a Session's scheduled ops for tools (profilers, model info): which
// algorithm each op's Execution chose, its FLOPs, and the planned activation memory.
// Internal API: tools link the static library and include this header.
#ifndef MNN_CORE_SESSIONINTROSPECT_HPP
#define MNN_CORE_SESSIONINTROSPECT_HPP

#include <stdint.h>
#include <string>
#include <vector>

namespace MNN {
class Session;

namespace SessionIntrospect {

/** one scheduled op, in run order */
struct OpSummary {
    std::string name;
    std::string type;
    /** Execution::algorithm(), or "" before the Executions exist (shapes pending) */
    std::string algorithm;
    /** FLOPs at the current shapes (a multiply-add counts 2) */
    double flops = 0;
    /** MNNForwardType of the backend running the op, -1 if none yet */
    int forwardType = -1;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    /** output shapes and element type names at the current shapes ("float32"...) */
    std::vector<std::vector<int>> outputShapes;
    std::vector<std::string> outputTypes;
    /** "NCHW" (plain, the tensor's own layout) or the backend's packed layout ("NC16HW16") */
    std::vector<std::string> outputLayouts;
    /** the input whose buffer output 0 is planned over (Execution::inPlaceInput), or "" */
    std::string inPlaceOf;
};

/**
 * the algorithm of a Concat the Session runs in place: its producers write their outputs into its
 * output (views planned by Backend::onAcquireView), nothing runs for it
 */
extern const char* const kInPlaceConcat;

/** the algorithm chosen for the op named `opName`; nullptr when there is no such op or no Execution */
const char* algorithmOf(const Session* session, const std::string& opName);

/** every scheduled op in run order */
std::vector<OpSummary> ops(const Session* session);

/** bytes of pooled (DYNAMIC) memory planned by the backends the session's ops run on */
int64_t activationBytes(const Session* session);

}  // namespace SessionIntrospect
}  // namespace MNN
#endif
