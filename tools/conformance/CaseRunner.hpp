// CaseRunner: converts, runs and checks one ONNX test case folder (model.onnx + test_data_set_0).
#ifndef MNN_TOOLS_CONFORMANCE_CASERUNNER_HPP
#define MNN_TOOLS_CONFORMANCE_CASERUNNER_HPP

#include <string>

namespace MNN {
namespace Conformance {

enum class Outcome { Pass = 0, Wrong = 1, Unsupported = 2, Crash = 3, NotTensor = 4 };

const char* outcomeName(Outcome o);

struct CaseResult {
    Outcome outcome = Outcome::Wrong;
    std::string reason;  // one line: why it is not a pass
};

/** |out - ref| <= atol + rtol * |ref| for float types */
struct Tolerance {
    double atol = 1e-7;
    double rtol = 1e-3;
};

/**
 * runs one case in this process (the caller isolates it in a child process). checkAllocations: a
 * passing case must also run allocation free after its first runSession (two more runs counted
 * through test/AllocationCounter.hpp; control flow, which runs nested sessions, is the documented
 * exception); without glibc malloc counting the check is skipped.
 */
CaseResult runCase(const std::string& dir, const Tolerance& tol, bool checkAllocations = false);

} // namespace Conformance
} // namespace MNN

#endif
