// If, Loop, Scan: GRAPH attributes become SubGraphs of a ControlFlowParam. Tensors a subgraph
// reads from outer scopes are passed as extra op inputs (see source/core/ControlFlow.hpp for the
// input / output layout the engine expects).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
/** outer-scope tensors for the names a subgraph captured */
std::vector<int> capturedInputs(OnnxNode& node, const std::vector<std::string>& names) {
    std::vector<int> out;
    for (auto& n : names) {
        int t = node.graph().find(n);
        if (t < 0) {
            node.invalid("a subgraph reads '" + n + "', which is not defined in an outer scope");
        }
        out.push_back(t);
    }
    return out;
}

void mapIf(OnnxNode& node) {
    std::vector<std::string> capThen, capElse;
    auto thenGraph = node.subgraph("then_branch", &capThen);
    auto elseGraph = node.subgraph("else_branch", &capElse);
    int outs = node.outputCount();
    if ((int)thenGraph->outputs.size() != outs || (int)elseGraph->outputs.size() != outs) {
        node.invalid("the branches have " + std::to_string(thenGraph->outputs.size()) + " and " +
                     std::to_string(elseGraph->outputs.size()) + " outputs, the node " + std::to_string(outs));
    }
    std::vector<int> in = {node.input(0)};
    if (in[0] < 0) {
        node.invalid("the condition input is missing");
    }
    for (int t : capturedInputs(node, capThen)) {
        in.push_back(t);
    }
    for (int t : capturedInputs(node, capElse)) {
        in.push_back(t);
    }
    auto op = node.addOp(Schema::OpType::If, in, node.outputs());
    auto p = setParam<Schema::ControlFlowParamT>(op);
    p->subgraphs.emplace_back(std::move(thenGraph));
    p->subgraphs.emplace_back(std::move(elseGraph));
}

void mapLoop(OnnxNode& node) {
    std::vector<std::string> captured;
    auto body = node.subgraph("body", &captured);
    const int carried = node.inputCount() - 2;
    if (carried < 0) {
        node.invalid("Loop needs the inputs M and cond (either may be empty)");
    }
    const int formal = (int)body->inputs.size() - (int)captured.size();
    const int scans = (int)body->outputs.size() - 1 - carried;
    if (formal != 2 + carried || scans < 0 || node.outputCount() != carried + scans) {
        node.invalid("the body has " + std::to_string(formal) + " inputs and " +
                     std::to_string(body->outputs.size()) + " outputs for " + std::to_string(carried) +
                     " loop-carried values and " + std::to_string(node.outputCount()) + " node outputs");
    }
    std::vector<int> in = {node.input(0), node.input(1)};
    for (int i = 0; i < carried; ++i) {
        int t = node.input(2 + i);
        if (t < 0) {
            node.invalid("loop-carried input " + std::to_string(i) + " is missing");
        }
        in.push_back(t);
    }
    for (int t : capturedInputs(node, captured)) {
        in.push_back(t);
    }
    auto op = node.addOp(Schema::OpType::Loop, in, node.outputs());
    auto p = setParam<Schema::ControlFlowParamT>(op);
    p->subgraphs.emplace_back(std::move(body));
    p->scanOutputAxes.assign(scans, 0);  // gives the engine the scan output count; Loop stacks on axis 0
}

void mapScan(OnnxNode& node) {
    if (node.opset() < 9) {
        node.unsupported("Scan-8 (batched, with sequence_lens) is not supported");
    }
    const int numScan = (int)node.attrInt("num_scan_inputs", 0);
    const int states = node.inputCount() - numScan;
    if (numScan < 1 || states < 0) {
        node.invalid("num_scan_inputs " + std::to_string(numScan) + " does not fit " +
                     std::to_string(node.inputCount()) + " inputs");
    }
    std::vector<std::string> captured;
    auto body = node.subgraph("body", &captured);
    const int formal = (int)body->inputs.size() - (int)captured.size();
    const int scanOuts = (int)body->outputs.size() - states;
    if (formal != states + numScan || scanOuts < 0 || node.outputCount() != states + scanOuts) {
        node.invalid("the body has " + std::to_string(formal) + " inputs and " +
                     std::to_string(body->outputs.size()) + " outputs for " + std::to_string(states) +
                     " states and " + std::to_string(numScan) + " scan inputs");
    }
    std::vector<int> in;
    for (int i = 0; i < states + numScan; ++i) {
        int t = node.input(i);
        if (t < 0) {
            node.invalid("input " + std::to_string(i) + " is missing");
        }
        in.push_back(t);
    }
    for (int t : capturedInputs(node, captured)) {
        in.push_back(t);
    }
    auto op = node.addOp(Schema::OpType::Scan, in, node.outputs());
    auto p = setParam<Schema::ControlFlowParamT>(op);
    p->subgraphs.emplace_back(std::move(body));
    p->numScanInputs = numScan;
    auto ints = [&](const char* name, int count) {
        auto v = node.attrInts(name);
        if (v.empty()) {
            return std::vector<int>(count, 0);
        }
        if ((int)v.size() != count) {
            node.invalid(std::string(name) + " has " + std::to_string(v.size()) + " entries, expected " +
                         std::to_string(count));
        }
        return node.toInts(v);
    };
    p->scanInputAxes = ints("scan_input_axes", numScan);
    p->scanInputDirections = ints("scan_input_directions", numScan);
    p->scanOutputAxes = ints("scan_output_axes", scanOuts);
    p->scanOutputDirections = ints("scan_output_directions", scanOuts);
}
} // namespace

} // namespace Convert
} // namespace MNN

MNN_REGISTER_ONNX(If, MNN::Convert::mapIf, "If")
MNN_REGISTER_ONNX(Loop, MNN::Convert::mapLoop, "Loop")
MNN_REGISTER_ONNX(Scan, MNN::Convert::mapScan, "Scan")
