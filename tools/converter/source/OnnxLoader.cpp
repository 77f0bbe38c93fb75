#include "OnnxLoader.hpp"
#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>
#include <climits>
#include <fstream>
#include <set>
#include "OnnxNode.hpp"

namespace MNN {
namespace Convert {

std::unique_ptr<Schema::BlobT> onnxTensorToBlob(const onnx::TensorProto& t,
                                                const std::string& baseDir);  // OnnxWeights.cpp

namespace {

struct Session;

/** one graph scope: the main graph or a subgraph */
struct Scope {
    Graph* graph = nullptr;
    Scope* parent = nullptr;
    std::set<int> defined;                                    // tensors with a value so far
    std::map<std::string, const onnx::ValueInfoProto*> info;  // value_info, inputs, outputs
    std::vector<std::string>* captured = nullptr;

    /** the tensor for a name read by a node: local, or copied / captured from outer scopes */
    int resolve(const std::string& n) {
        int t = graph->find(n);
        if (t >= 0 && defined.count(t)) {
            return t;
        }
        if (!parent) {
            return -1;
        }
        int outer = parent->resolve(n);
        if (outer < 0) {
            return -1;
        }
        int local = graph->tensor(n);
        if (parent->graph->isConstant(outer)) {
            graph->setConstant(local, cloneBlob(*parent->graph->constant(outer)));
        } else {
            std::unique_ptr<Schema::TensorDeclT> d(new Schema::TensorDeclT);
            d->tensorIndex = local;
            for (auto s = parent; s; s = s->parent) {
                auto it = s->info.find(n);
                if (it != s->info.end() && it->second->type().has_tensor_type()) {
                    d->dataType = OnnxNode::dataType(it->second->type().tensor_type().elem_type());
                    break;
                }
            }
            graph->inputs.emplace_back(std::move(d));
            if (captured) {
                captured->push_back(n);
            }
        }
        defined.insert(local);
        return local;
    }
};

struct Session {
    const Options& options;
    std::string baseDir;
    int opset = 0;
    LoadReport* report = nullptr;
    Session(const Options& o) : options(o) {}
    void loadGraph(const onnx::GraphProto& g, Scope& scope, bool isMain);
};

std::unique_ptr<Schema::TensorDeclT> declFromValueInfo(const onnx::ValueInfoProto& vi, int index,
                                                       const Options& options, bool isMain) {
    std::unique_ptr<Schema::TensorDeclT> d(new Schema::TensorDeclT);
    d->tensorIndex = index;
    d->dataType = Schema::DataType::DT_FLOAT;
    if (vi.type().has_tensor_type()) {
        auto& tt = vi.type().tensor_type();
        auto dt = OnnxNode::dataType(tt.elem_type());
        if (dt == Schema::DataType::DT_INVALID || dt == Schema::DataType::DT_STRING) {
            throw UnsupportedError("input '" + vi.name() + "' has unsupported element type " +
                                   std::to_string(tt.elem_type()));
        }
        d->dataType = dt;
        bool anySymbol = false;
        for (auto& dim : tt.shape().dim()) {
            if (dim.has_dim_value() && dim.dim_value() >= 0 && dim.dim_value() <= INT_MAX) {
                d->dims.push_back((int)dim.dim_value());
                d->symbols.push_back("");
            } else {
                d->dims.push_back(-1);
                d->symbols.push_back(dim.has_dim_param() ? dim.dim_param() : "");
                anySymbol = anySymbol || dim.has_dim_param();
            }
        }
        if (!anySymbol) {
            d->symbols.clear();
        }
    } else if (vi.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) {
        throw UnsupportedError("input '" + vi.name() + "' is not a tensor (sequence / map / optional)");
    }
    if (isMain) {
        auto it = options.inputShapes.find(vi.name());
        if (it != options.inputShapes.end()) {
            if (!d->dims.empty() && d->dims.size() != it->second.size()) {
                throw ConvertError("--inputShape for '" + vi.name() + "' has rank " +
                                   std::to_string(it->second.size()) + ", the model says rank " +
                                   std::to_string(d->dims.size()));
            }
            for (size_t i = 0; i < it->second.size(); ++i) {
                if (it->second[i] < 0) {
                    throw ConvertError("--inputShape for '" + vi.name() + "' has a negative dim");
                }
                if (i < d->dims.size() && d->dims[i] >= 0 && d->dims[i] != it->second[i]) {
                    throw ConvertError("--inputShape for '" + vi.name() + "' dim " + std::to_string(i) + " is " +
                                       std::to_string(it->second[i]) + ", the model fixes it to " +
                                       std::to_string(d->dims[i]));
                }
            }
            d->dims = it->second;
            d->symbols.clear();
        }
    }
    return d;
}

class NodeImpl : public OnnxNode {
public:
    NodeImpl(const onnx::NodeProto& n, const std::string& name, Scope& scope, Session& session)
        : mNode(n), mName(name), mScope(scope), mSession(session) {
        for (auto& a : n.attribute()) {
            mAttrs[a.name()] = &a;
        }
    }
    const std::string& opType() const override {
        return mNode.op_type();
    }
    const std::string& name() const override {
        return mName;
    }
    int opset() const override {
        return mSession.opset;
    }
    Graph& graph() override {
        return *mScope.graph;
    }
    int inputCount() const override {
        return mNode.input_size();
    }
    int input(int i) override {
        if (i < 0 || i >= mNode.input_size() || mNode.input(i).empty()) {
            return -1;
        }
        int t = mScope.resolve(mNode.input(i));
        if (t < 0) {
            invalid("input '" + mNode.input(i) + "' is not produced by any earlier node, initializer or input");
        }
        return t;
    }
    int outputCount() const override {
        return mNode.output_size();
    }
    int output(int i) override {
        if (i < 0 || i >= mNode.output_size()) {
            invalid("output " + std::to_string(i) + " does not exist");
        }
        if (mNode.output(i).empty()) {
            return graph().newTensor(mName + "/unused_" + std::to_string(i));
        }
        return graph().tensor(mNode.output(i));
    }
    bool outputUsed(int i) const override {
        return i >= 0 && i < mNode.output_size() && !mNode.output(i).empty();
    }
    const onnx::AttributeProto* attr(const std::string& n) const {
        auto it = mAttrs.find(n);
        return it == mAttrs.end() ? nullptr : it->second;
    }
    bool hasAttr(const std::string& n) const override {
        return attr(n) != nullptr;
    }
    int64_t attrInt(const std::string& n, int64_t def) const override {
        auto a = attr(n);
        return a ? a->i() : def;
    }
    float attrFloat(const std::string& n, float def) const override {
        auto a = attr(n);
        return a ? a->f() : def;
    }
    std::string attrString(const std::string& n, const std::string& def) const override {
        auto a = attr(n);
        return a ? a->s() : def;
    }
    std::vector<int64_t> attrInts(const std::string& n) const override {
        auto a = attr(n);
        return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : std::vector<int64_t>();
    }
    std::vector<float> attrFloats(const std::string& n) const override {
        auto a = attr(n);
        return a ? std::vector<float>(a->floats().begin(), a->floats().end()) : std::vector<float>();
    }
    std::vector<std::string> attrStrings(const std::string& n) const override {
        auto a = attr(n);
        return a ? std::vector<std::string>(a->strings().begin(), a->strings().end()) : std::vector<std::string>();
    }
    std::unique_ptr<Schema::BlobT> attrTensor(const std::string& n) const override {
        auto a = attr(n);
        if (!a) {
            return nullptr;
        }
        if (!a->has_t()) {
            invalid("attribute '" + n + "' is not a tensor");
        }
        return onnxTensorToBlob(a->t(), mSession.baseDir);
    }
    std::unique_ptr<Schema::SubGraphT> subgraph(const std::string& n, std::vector<std::string>* captured) override;
    bool knownType(int t, Schema::DataType* type) const override {
        auto& g = *mScope.graph;
        if (t < 0 || t >= (int)g.names.size()) {
            return false;  // an absent input (-1): mappers ask before checking (found by mnn_fuzz_onnx)
        }
        if (auto b = g.constant(t)) {
            *type = b->dataType;
            return true;
        }
        for (auto& d : g.inputs) {
            if (d->tensorIndex == t) {
                *type = d->dataType;
                return true;
            }
        }
        auto it = mScope.info.find(g.names[t]);
        if (it != mScope.info.end() && it->second->type().has_tensor_type()) {
            *type = dataType(it->second->type().tensor_type().elem_type());
            return *type != Schema::DataType::DT_INVALID;
        }
        return false;
    }
    bool knownShape(int t, std::vector<int>* dims) const override {
        auto& g = *mScope.graph;
        if (t < 0 || t >= (int)g.names.size()) {
            return false;
        }
        if (auto b = g.constant(t)) {
            *dims = b->dims;
            return true;
        }
        for (auto& d : g.inputs) {
            if (d->tensorIndex == t) {
                for (auto v : d->dims) {
                    if (v < 0) {
                        return false;
                    }
                }
                *dims = d->dims;
                return true;
            }
        }
        auto it = mScope.info.find(g.names[t]);
        if (it != mScope.info.end() && it->second->type().has_tensor_type() &&
            it->second->type().tensor_type().has_shape()) {
            dims->clear();
            for (auto& d : it->second->type().tensor_type().shape().dim()) {
                if (!d.has_dim_value() || d.dim_value() < 0 || d.dim_value() > INT_MAX) {
                    return false;
                }
                dims->push_back((int)d.dim_value());
            }
            return true;
        }
        return false;
    }

private:
    const onnx::NodeProto& mNode;
    std::string mName;
    Scope& mScope;
    Session& mSession;
    std::map<std::string, const onnx::AttributeProto*> mAttrs;
};

/** packs a scope's graph into a SubGraphT, keeping only the tensors it mentions */
std::unique_ptr<Schema::SubGraphT> toSubGraph(Graph& g) {
    std::unique_ptr<Schema::SubGraphT> s(new Schema::SubGraphT);
    s->name = g.name;
    s->tensorNames = g.names;
    for (auto& d : g.inputs) {
        s->inputs.push_back(d->tensorIndex);
        s->inputDecls.emplace_back(std::move(d));
    }
    s->outputs = g.outputs;
    s->ops = std::move(g.ops);
    for (auto& kv : g.constants) {
        s->constants.emplace_back(std::move(kv.second));
    }
    return s;
}

std::unique_ptr<Schema::SubGraphT> NodeImpl::subgraph(const std::string& n, std::vector<std::string>* captured) {
    auto a = attr(n);
    if (!a || !a->has_g()) {
        invalid("graph attribute '" + n + "' is missing");
    }
    Graph g;
    g.parent = mScope.graph;
    g.name = a->g().name().empty() ? mName + "/" + n : a->g().name();
    Scope s;
    s.graph = &g;
    s.parent = &mScope;
    std::vector<std::string> local;
    s.captured = captured ? captured : &local;
    mSession.loadGraph(a->g(), s, false);
    return toSubGraph(g);
}

void mapConstantNode(NodeImpl& node) {
    std::unique_ptr<Schema::BlobT> blob;
    if (node.hasAttr("value")) {
        blob = node.attrTensor("value");
    } else if (node.hasAttr("value_float")) {
        blob = floatBlob({}, {node.attrFloat("value_float", 0)});
    } else if (node.hasAttr("value_floats")) {
        auto v = node.attrFloats("value_floats");
        blob = floatBlob({(int)v.size()}, v);
    } else if (node.hasAttr("value_int")) {
        blob = int64Blob({}, {node.attrInt("value_int", 0)});
    } else if (node.hasAttr("value_ints")) {
        auto v = node.attrInts("value_ints");
        blob = int64Blob({(int)v.size()}, v);
    } else if (node.hasAttr("sparse_value")) {
        node.unsupported("sparse constant");
    } else if (node.hasAttr("value_string") || node.hasAttr("value_strings")) {
        node.unsupported("string constant");
    } else {
        node.invalid("Constant without a value");
    }
    node.graph().setConstant(node.output(0), std::move(blob));
}

void Session::loadGraph(const onnx::GraphProto& gp, Scope& scope, bool isMain) {
    Graph& g = *scope.graph;
    if (gp.sparse_initializer_size() > 0) {
        throw ConvertError("graph '" + gp.name() + "': sparse initializers are not supported");
    }
    for (auto& init : gp.initializer()) {
        int t = g.tensor(init.name());
        g.setConstant(t, onnxTensorToBlob(init, baseDir));
        scope.defined.insert(t);
    }
    for (auto& vi : gp.value_info()) {
        scope.info[vi.name()] = &vi;
    }
    for (auto& vi : gp.output()) {
        scope.info[vi.name()] = &vi;
    }
    std::set<std::string> seenInputs;
    for (auto& vi : gp.input()) {
        scope.info[vi.name()] = &vi;
        int t = g.tensor(vi.name());
        if (g.isConstant(t)) {
            continue;  // an initializer listed as input: a constant
        }
        if (!seenInputs.insert(vi.name()).second) {
            throw ConvertError("graph input '" + vi.name() + "' is listed twice");
        }
        try {
            g.inputs.emplace_back(declFromValueInfo(vi, t, options, isMain));
        } catch (UnsupportedError& e) {
            report->unsupported.emplace_back("(input)", vi.name());
            report->reasons.push_back(e.what());
        }
        scope.defined.insert(t);
    }
    if (isMain) {
        for (auto& kv : options.inputShapes) {
            if (!seenInputs.count(kv.first)) {
                throw ConvertError("--inputShape names '" + kv.first + "', which is not a graph input");
            }
        }
    }
    int index = 0;
    for (auto& n : gp.node()) {
        std::string name = n.name();
        if (name.empty()) {
            name = n.op_type() + "_" + std::to_string(index);
        }
        ++index;
        NodeImpl node(n, name, scope, *this);
        bool ok = false;
        std::string why;
        try {
            if (!n.domain().empty() && n.domain() != "ai.onnx") {
                // other domains: mappers registered under "domain.OpType" (com.microsoft.DynamicQuantizeLSTM)
                if (auto mapper = findOnnxMapper(n.domain() + "." + n.op_type())) {
                    mapper(node);
                    ok = true;
                } else {
                    why = "domain '" + n.domain() + "' is not supported";
                }
            } else if (n.op_type() == "Constant") {
                mapConstantNode(node);
                ok = true;
            } else if (auto mapper = findOnnxMapper(n.op_type())) {
                mapper(node);
                ok = true;
            } else {
                why = "no mapping for this op type";
            }
        } catch (UnsupportedError& e) {
            why = e.what();
        }
        if (!ok) {
            std::string type =
                n.domain().empty() || n.domain() == "ai.onnx" ? n.op_type() : n.domain() + "." + n.op_type();
            report->unsupported.emplace_back(type, name);
            report->reasons.push_back(type + " '" + name + "': " + why);
        }
        for (int i = 0; i < n.output_size(); ++i) {
            if (!n.output(i).empty()) {
                scope.defined.insert(g.tensor(n.output(i)));
            }
        }
    }
    for (auto& vi : gp.output()) {
        int t = scope.resolve(vi.name());
        if (t < 0) {
            throw ConvertError("graph output '" + vi.name() + "' is not produced by any node");
        }
        g.outputs.push_back(t);
    }
}

}  // namespace

void loadOnnx(const void* data, size_t size, const Options& options, const std::string& baseDir, Graph& g,
              LoadReport* report) {
    registerOnnxMappers();
    onnx::ModelProto model;
    google::protobuf::io::CodedInputStream stream((const uint8_t*)data, size > INT_MAX ? INT_MAX : (int)size);
    stream.SetTotalBytesLimit(INT_MAX);
    if (size > INT_MAX || !model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage()) {
        throw ConvertError("not a valid ONNX model (protobuf parsing failed)");
    }
    if (!model.has_graph()) {
        throw ConvertError("the ONNX model has no graph");
    }
    Session session(options);
    session.baseDir = baseDir;
    session.report = report;
    for (auto& imp : model.opset_import()) {
        if (imp.domain().empty() || imp.domain() == "ai.onnx") {
            session.opset = (int)imp.version();
        }
    }
    if (session.opset == 0) {
        session.opset = 1;  // no ai.onnx import (IR < 3 or only other domains): nodes of other domains are listed
    }
    report->opset = session.opset;
    report->producer = model.producer_name() + (model.producer_version().empty() ? "" : " " + model.producer_version());
    g.name = model.graph().name();
    Scope scope;
    scope.graph = &g;
    session.loadGraph(model.graph(), scope, true);
}

}  // namespace Convert
}  // namespace MNN
