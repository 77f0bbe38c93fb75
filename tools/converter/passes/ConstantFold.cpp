// Constant folding and static-shape folding, both computed by the engine itself (libMNN): the op
// (or the part of the graph that decides a shape) is written as a small model and run.
#include <MNN/Interpreter.hpp>
#include <string.h>
#include "Passes.hpp"
#include "core/Registry.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {
namespace Convert {

namespace {
bool foldable(const Schema::OpT& op) {
    using T = Schema::OpType;
    switch (op.type) {
        case T::Random:
        case T::Bernoulli:
        case T::Dropout:  // training mode draws a mask
        case T::If:
        case T::Loop:
        case T::Scan:
        case T::Optional:
        case T::Custom:
        case T::Unknown:
            return false;
        default:
            break;
    }
    registerAll();
    return getShape(op.type) != nullptr && getCPUCreator(op.type) != nullptr;
}

bool producesBool(const Schema::OpT& op) {
    int b = binaryType(op);
    if (b >= (int)Schema::BinaryOpType::EQUAL && b <= (int)Schema::BinaryOpType::XOR) {
        return true;
    }
    int u = unaryType(op);
    if (u == (int)Schema::UnaryOpType::NOT || u == (int)Schema::UnaryOpType::ISNAN ||
        u == (int)Schema::UnaryOpType::ISINF) {
        return true;
    }
    auto c = op.param.AsCastParam();
    return op.type == Schema::OpType::Cast && c && c->to == Schema::DataType::DT_BOOL;
}

std::vector<uint8_t> pack(Schema::NetT& net) {
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(Schema::Net::Pack(builder, &net), Schema::NetIdentifier());
    return std::vector<uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

/** runs the one-op net; fills blobs for the op's outputs; false when anything fails */
bool evaluate(Graph& g, const Schema::OpT& op, std::vector<std::unique_ptr<Schema::BlobT>>* results) {
    Schema::NetT net;
    std::map<int, int> local;
    auto use = [&](int t) {
        if (t < 0) {
            return -1;
        }
        auto it = local.find(t);
        if (it != local.end()) {
            return it->second;
        }
        int idx = (int)net.tensorNames.size();
        net.tensorNames.push_back(g.names[t]);
        local[t] = idx;
        return idx;
    };
    std::unique_ptr<Schema::OpT> copy(new Schema::OpT(op));
    for (auto& t : copy->inputs) {
        int old = t;
        t = use(t);
        if (old >= 0) {
            bool present = false;
            for (auto& c : net.constants) {
                present = present || c->tensorIndex == t;
            }
            if (!present) {
                auto b = cloneBlob(*g.constant(old));
                b->tensorIndex = t;
                net.constants.emplace_back(std::move(b));
            }
        }
    }
    for (auto& t : copy->outputs) {
        t = use(t);
        net.outputs.push_back(t);
    }
    net.ops.emplace_back(std::move(copy));
    auto buffer = pack(net);
    std::unique_ptr<Interpreter> interp(Interpreter::createFromBuffer(buffer.data(), buffer.size()));
    if (!interp) {
        return false;
    }
    ScheduleConfig config;
    config.numThread = 1;
    BackendConfig bc;
    bc.precision = BackendConfig::Precision_High;
    config.backendConfig = &bc;
    auto session = interp->createSession(config);
    if (!session || interp->runSession(session) != NO_ERROR) {
        return false;
    }
    for (auto o : op.outputs) {
        auto t = interp->getSessionOutput(session, g.names[o].c_str());
        if (!t) {
            return false;
        }
        std::unique_ptr<Tensor> host(new Tensor(t, Tensor::CAFFE, true));
        if (!t->copyToHostTensor(host.get())) {
            return false;
        }
        auto type = TensorUtils::dataTypeOf(host->getType());
        if (type == Schema::DataType::DT_INVALID) {
            return false;
        }
        if (type == Schema::DataType::DT_UINT8) {
            bool boolIn = false;
            for (auto i : op.inputs) {
                boolIn = boolIn || (i >= 0 && g.constant(i)->dataType == Schema::DataType::DT_BOOL);
            }
            if (producesBool(op) || (boolIn && op.type != Schema::OpType::Cast)) {
                type = Schema::DataType::DT_BOOL;
            }
        }
        auto dims = host->shape();
        size_t bytes = (size_t)elementCount(dims) * host->getType().bytes();
        results->emplace_back(makeBlob(type, dims, host->host<void>(), bytes));
    }
    return true;
}
}  // namespace

bool foldConstants(Graph& g) {
    bool changed = false;
    std::vector<bool> dead(g.ops.size(), false);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        if (op.outputs.empty() || op.inputs.empty()) {
            continue;
        }
        bool allConst = true, anyInput = false;
        size_t inBytes = 0;
        for (auto t : op.inputs) {
            if (t < 0) {
                continue;
            }
            anyInput = true;
            auto b = g.constant(t);
            allConst = allConst && b != nullptr;
            if (b) {
                inBytes += b->raw.size();
            }
        }
        bool outputIsGraphOutput = false;
        for (auto o : op.outputs) {
            outputIsGraphOutput = outputIsGraphOutput || g.isOutput(o);
        }
        if (!allConst || !anyInput || outputIsGraphOutput || !foldable(op)) {
            continue;
        }
        std::vector<std::unique_ptr<Schema::BlobT>> results;
        if (!evaluate(g, op, &results)) {
            continue;
        }
        size_t outBytes = 0;
        for (auto& r : results) {
            outBytes += r->raw.size();
        }
        if (outBytes > (size_t)65536 && outBytes > 2 * inBytes) {
            continue;  // folding would grow the model (Expand / ConstantOfShape of large shapes)
        }
        for (size_t k = 0; k < op.outputs.size(); ++k) {
            g.setConstant(op.outputs[k], std::move(results[k]));
        }
        dead[i] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

namespace {
/** the whole graph as a session whose outputs are `targets`; open() fails when a shape is not static */
struct WholeGraphSession {
    std::unique_ptr<Interpreter> interp;
    Session* session = nullptr;
    bool open(const Graph& g, const std::vector<int>& targets) {
        registerAll();
        for (auto& op : g.ops) {
            if (!getShape(op->type)) {
                return false;
            }
        }
        // the session schedules only what the targets need
        Schema::NetT net;
        net.tensorNames = g.names;
        for (auto& d : g.inputs) {
            net.inputs.emplace_back(new Schema::TensorDeclT(*d));
        }
        for (auto& op : g.ops) {
            net.ops.emplace_back(new Schema::OpT(*op));
        }
        for (auto& kv : g.constants) {
            net.constants.emplace_back(cloneBlob(*kv.second));
        }
        net.outputs = targets;
        auto buffer = pack(net);
        interp.reset(Interpreter::createFromBuffer(buffer.data(), buffer.size()));
        if (!interp) {
            return false;
        }
        ScheduleConfig config;
        config.numThread = 1;
        session = interp->createSession(config);
        if (!session) {
            return false;
        }
        int status = 1;
        // status != 0: some shape depends on input values
        return interp->getSessionInfo(session, Interpreter::RESIZE_STATUS, &status) && status == 0;
    }
};
}  // namespace

bool staticShapes(const Graph& g, const std::vector<int>& tensors, std::vector<std::vector<int>>* shapes) {
    for (auto& d : g.inputs) {
        for (auto v : d->dims) {
            if (v < 0) {
                return false;
            }
        }
    }
    WholeGraphSession whole;
    if (!whole.open(g, tensors)) {
        return false;
    }
    shapes->clear();
    for (auto t : tensors) {
        auto out = whole.interp->getSessionOutput(whole.session, g.names[t].c_str());
        if (!out) {
            return false;
        }
        shapes->push_back(out->shape());
    }
    return true;
}

bool foldShapes(Graph& g) {
    for (auto& d : g.inputs) {
        for (auto v : d->dims) {
            if (v < 0) {
                return false;
            }
        }
    }
    std::vector<int> targets;
    for (auto& op : g.ops) {
        if ((op->type == Schema::OpType::Shape || op->type == Schema::OpType::Size) && op->inputs.size() == 1 &&
            op->inputs[0] >= 0 && !g.isConstant(op->inputs[0]) && !g.isOutput(op->outputs[0])) {
            targets.push_back(op->inputs[0]);
        }
    }
    if (targets.empty()) {
        return false;
    }
    WholeGraphSession whole;
    if (!whole.open(g, targets)) {
        return false;
    }
    auto interp = whole.interp.get();
    auto session = whole.session;
    bool changed = false;
    std::vector<bool> dead(g.ops.size(), false);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        if ((op.type != Schema::OpType::Shape && op.type != Schema::OpType::Size) || op.inputs.size() != 1 ||
            op.inputs[0] < 0 || g.isConstant(op.inputs[0]) || g.isOutput(op.outputs[0])) {
            continue;
        }
        auto t = interp->getSessionOutput(session, g.names[op.inputs[0]].c_str());
        if (!t) {
            continue;
        }
        auto dims = t->shape();
        if (op.type == Schema::OpType::Size) {
            g.setConstant(op.outputs[0], int64Blob({}, {elementCount(dims)}));
        } else {
            int rank = (int)dims.size();
            auto p = op.param.AsShapeParam();
            int64_t s = p ? p->start : 0, e = p ? p->end : rank;
            if (s < 0)
                s += rank;
            if (e < 0)
                e += rank;
            s = std::max<int64_t>(0, std::min<int64_t>(rank, s));
            e = std::max<int64_t>(0, std::min<int64_t>(rank, e));
            std::vector<int64_t> v;
            for (int64_t k = s; k < e; ++k) {
                v.push_back(dims[k]);
            }
            g.setConstant(op.outputs[0], int64Blob({(int)v.size()}, v));
        }
        dead[i] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
