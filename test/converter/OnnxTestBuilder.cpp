#include "OnnxTestBuilder.hpp"
#include "ModelInfo.hpp"
#include "core/Registry.hpp"

namespace MNN {
namespace Test {

OnnxBuilder::OnnxBuilder(int opset) {
    mModel.set_ir_version(8);
    mModel.set_producer_name("MNNConverterTests");
    auto imp = mModel.add_opset_import();
    imp->set_domain("");
    imp->set_version(opset);
    mModel.mutable_graph()->set_name("test");
}

void OnnxBuilder::input(const std::string& name, const std::vector<int64_t>& dims, int elemType,
                        const std::vector<std::string>& symbols) {
    auto vi = graph().add_input();
    vi->set_name(name);
    auto tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(elemType);
    auto shape = tt->mutable_shape();
    for (size_t i = 0; i < dims.size(); ++i) {
        auto d = shape->add_dim();
        if (dims[i] >= 0) {
            d->set_dim_value(dims[i]);
        } else if (i < symbols.size() && !symbols[i].empty()) {
            d->set_dim_param(symbols[i]);
        }
    }
}

void OnnxBuilder::output(const std::string& name, int elemType) {
    auto vi = graph().add_output();
    vi->set_name(name);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(elemType);
}

void OnnxBuilder::initializer(const std::string& name, const std::vector<int64_t>& dims,
                              const std::vector<float>& values) {
    auto t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : dims)
        t->add_dims(d);
    t->set_raw_data(std::string((const char*)values.data(), values.size() * 4));
}

void OnnxBuilder::initializerInt64(const std::string& name, const std::vector<int64_t>& dims,
                                   const std::vector<int64_t>& values) {
    auto t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    for (auto d : dims)
        t->add_dims(d);
    for (auto v : values)
        t->add_int64_data(v);
}

onnx::NodeProto* OnnxBuilder::node(const std::string& type, const std::vector<std::string>& inputs,
                                   const std::vector<std::string>& outputs, const std::string& name) {
    auto n = graph().add_node();
    n->set_op_type(type);
    n->set_name(name.empty() ? type + "_" + std::to_string(mCount++) : name);
    for (auto& i : inputs)
        n->add_input(i);
    for (auto& o : outputs)
        n->add_output(o);
    return n;
}

void OnnxBuilder::attr(onnx::NodeProto* n, const std::string& name, int64_t v) {
    auto a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}
void OnnxBuilder::attr(onnx::NodeProto* n, const std::string& name, float v) {
    auto a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
}
void OnnxBuilder::attr(onnx::NodeProto* n, const std::string& name, const std::string& v) {
    auto a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
}
void OnnxBuilder::attr(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
    auto a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v)
        a->add_ints(x);
}
void OnnxBuilder::attrFloats(onnx::NodeProto* n, const std::string& name, const std::vector<float>& v) {
    auto a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOATS);
    for (auto x : v)
        a->add_floats(x);
}

std::string OnnxBuilder::bytes() const {
    std::string s;
    mModel.SerializeToString(&s);
    return s;
}

Convert::Result convert(const OnnxBuilder& b, const Convert::Options& options) {
    auto s = b.bytes();
    return Convert::convertOnnxBuffer(s.data(), s.size(), options);
}

std::map<std::string, int> opCounts(const std::vector<uint8_t>& model) {
    return Convert::modelOpCounts(model);
}

int totalOps(const std::vector<uint8_t>& model) {
    int n = 0;
    for (auto& kv : opCounts(model))
        n += kv.second;
    return n;
}

bool engineHas(const std::vector<Schema::OpType>& types) {
    registerAll();
    for (auto t : types) {
        if (!getShape(t) || !getCPUCreator(t))
            return false;
    }
    return true;
}

std::map<std::string, std::vector<float>> runFloat(
    const std::vector<uint8_t>& model,
    const std::map<std::string, std::pair<std::vector<int>, std::vector<float>>>& inputs) {
    std::map<std::string, std::unique_ptr<Tensor>> holders;
    std::map<std::string, const Tensor*> ins;
    for (auto& kv : inputs) {
        holders[kv.first] = makeTensor(kv.second.first, kv.second.second);
        ins[kv.first] = holders[kv.first].get();
    }
    auto r = runModel(model, ins);
    std::map<std::string, std::vector<float>> out;
    EXPECT_EQ(r.code, NO_ERROR);
    for (auto& kv : r.outputs) {
        auto t = kv.second.get();
        out[kv.first].assign(t->host<float>(), t->host<float>() + t->elementSize());
    }
    return out;
}

const Schema::Net* netOf(const std::vector<uint8_t>& model) {
    flatbuffers::Verifier v(model.data(), model.size());
    if (!Schema::VerifyNetBuffer(v))
        return nullptr;
    return Schema::GetNet(model.data());
}

}  // namespace Test
}  // namespace MNN
