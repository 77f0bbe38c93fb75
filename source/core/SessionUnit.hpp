// Session::Unit: one scheduled op of a Session (shared by Session.cpp and the introspection
// helpers used by tools; see SessionIntrospect.hpp).
#ifndef MNN_CORE_SESSIONUNIT_HPP
#define MNN_CORE_SESSIONUNIT_HPP

#include "Session.hpp"

namespace MNN {

struct Session::Unit {
    int opIndex = -1;
    const Schema::Op* op = nullptr;
    std::vector<int> inputIdx;  // -1: optional input left out
    std::vector<int> outputIdx;
    std::vector<Tensor*> inputs;  // nullptr where inputIdx is -1
    std::vector<Tensor*> outputs;
    std::vector<Tensor*> cbInputs;  // inputs without the left-out ones, for callbacks
    std::unique_ptr<Execution> execution;
    Backend* backend = nullptr;
    int path = 0;
    /** packed (1) / plain (0) per input then output at the last resize; a change remakes the Execution */
    std::vector<char> layout;
    double flops = 0;
    /**
     * a Concat whose inputs were planned as views into its output (Session::planConcatViews): its
     * producers write the output in place, nothing runs for it
     */
    bool elided = false;
    /** the input whose buffer output 0 takes (Execution::inPlaceInput, planned by the Session), or -1 */
    int inPlaceInput = -1;
};

}  // namespace MNN
#endif
