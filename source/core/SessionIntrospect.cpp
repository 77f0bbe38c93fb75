#include "SessionIntrospect.hpp"
#include <algorithm>
#include "Registry.hpp"
#include "SessionUnit.hpp"
#include "TensorUtils.hpp"

namespace MNN {
namespace SessionIntrospect {

const char* const kInPlaceConcat = "in-place (inputs are views of the output)";

const char* algorithmOf(const Session* session, const std::string& opName) {
    if (!session) {
        return nullptr;
    }
    for (auto& u : session->units()) {
        if (u->op && u->op->name() && u->op->name()->str() == opName) {
            if (u->elided) {
                return kInPlaceConcat;
            }
            return u->execution ? u->execution->algorithm() : nullptr;
        }
    }
    return nullptr;
}

std::vector<OpSummary> ops(const Session* session) {
    std::vector<OpSummary> result;
    if (!session) {
        return result;
    }
    for (auto& u : session->units()) {
        OpSummary s;
        if (u->op) {
            s.name = u->op->name() ? u->op->name()->str() : "";
            s.type = opTypeName(u->op->type());
        }
        s.algorithm = u->elided ? kInPlaceConcat : u->execution ? u->execution->algorithm() : "";
        s.flops = u->flops;
        s.forwardType = u->backend ? (int)u->backend->type() : -1;
        for (auto t : u->inputs) {
            s.inputs.push_back(t ? TensorUtils::describe(t)->name : std::string());
        }
        if (u->inPlaceInput >= 0 && u->inPlaceInput < (int)s.inputs.size()) {
            s.inPlaceOf = s.inputs[(size_t)u->inPlaceInput];
        }
        for (auto t : u->outputs) {
            s.outputs.push_back(TensorUtils::describe(t)->name);
            s.outputShapes.push_back(TensorUtils::shape(t));
            s.outputTypes.push_back(TensorUtils::typeName(t->getType()));
            auto des = TensorUtils::describe(t);
            if (des->dimType == Tensor::CAFFE_C4) {
                s.outputLayouts.push_back("NC" + std::to_string(des->pack) + "HW" + std::to_string(des->pack));
            } else {
                s.outputLayouts.push_back(des->dimType == Tensor::TENSORFLOW ? "NHWC" : "NCHW");
            }
        }
        result.emplace_back(std::move(s));
    }
    return result;
}

int64_t activationBytes(const Session* session) {
    if (!session) {
        return 0;
    }
    std::vector<const Backend*> seen;
    int64_t bytes = 0;
    for (auto& u : session->units()) {
        if (u->backend && std::find(seen.begin(), seen.end(), u->backend) == seen.end()) {
            seen.push_back(u->backend);
            bytes += (int64_t)u->backend->dynamicBytes();
        }
    }
    return bytes;
}

}  // namespace SessionIntrospect
}  // namespace MNN
