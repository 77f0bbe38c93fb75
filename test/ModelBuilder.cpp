#include "ModelBuilder.hpp"
#include <string.h>

namespace MNN {
namespace Test {

ModelBuilder::ModelBuilder() : mNet(new Schema::NetT) {
    mNet->version = "test";
}

int ModelBuilder::tensor(const std::string& name) {
    auto it = mIndex.find(name);
    if (it != mIndex.end()) {
        return it->second;
    }
    int idx = (int)mNet->tensorNames.size();
    mNet->tensorNames.push_back(name);
    mIndex[name] = idx;
    return idx;
}

int ModelBuilder::input(const std::string& name, const std::vector<int>& dims, Schema::DataType type) {
    int idx = tensor(name);
    std::unique_ptr<Schema::TensorDeclT> d(new Schema::TensorDeclT);
    d->tensorIndex = idx;
    d->dims = dims;
    d->dataType = type;
    mNet->inputs.emplace_back(std::move(d));
    return idx;
}

int ModelBuilder::constantRaw(const std::string& name, const std::vector<int>& dims, Schema::DataType type,
                              const void* data, size_t bytes) {
    int idx = tensor(name);
    std::unique_ptr<Schema::BlobT> b(new Schema::BlobT);
    b->tensorIndex = idx;
    b->dims = dims;
    b->dataType = type;
    b->raw.resize(bytes);
    if (bytes) {
        ::memcpy(b->raw.data(), data, bytes);
    }
    mNet->constants.emplace_back(std::move(b));
    return idx;
}

int ModelBuilder::constant(const std::string& name, const std::vector<int>& dims, const std::vector<float>& data) {
    return constantRaw(name, dims, Schema::DataType::DT_FLOAT, data.data(), data.size() * sizeof(float));
}

int ModelBuilder::constantInt32(const std::string& name, const std::vector<int>& dims,
                                const std::vector<int32_t>& data) {
    return constantRaw(name, dims, Schema::DataType::DT_INT32, data.data(), data.size() * sizeof(int32_t));
}

int ModelBuilder::constantInt64(const std::string& name, const std::vector<int>& dims,
                                const std::vector<int64_t>& data) {
    return constantRaw(name, dims, Schema::DataType::DT_INT64, data.data(), data.size() * sizeof(int64_t));
}

Schema::OpT* ModelBuilder::op(Schema::OpType type, const std::string& name, const std::vector<std::string>& inputs,
                              const std::vector<std::string>& outputs) {
    std::unique_ptr<Schema::OpT> o(new Schema::OpT);
    o->type = type;
    o->name = name;
    for (auto& i : inputs) {
        o->inputs.push_back(i.empty() ? -1 : tensor(i));
    }
    for (auto& i : outputs) {
        o->outputs.push_back(tensor(i));
    }
    auto r = o.get();
    mNet->ops.emplace_back(std::move(o));
    return r;
}

void ModelBuilder::output(const std::string& name) {
    mNet->outputs.push_back(tensor(name));
}

std::vector<uint8_t> ModelBuilder::finish() {
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(Schema::Net::Pack(builder, mNet.get()), Schema::NetIdentifier());
    return std::vector<uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}

std::unique_ptr<Tensor> makeTensor(const std::vector<int>& dims, const std::vector<float>& values) {
    std::unique_ptr<Tensor> t(Tensor::create<float>(dims, nullptr, Tensor::CAFFE));
    if (t && !values.empty()) {
        ::memcpy(t->host<float>(), values.data(), sizeof(float) * values.size());
    }
    return t;
}

RunResult runModel(const std::vector<uint8_t>& model, const std::map<std::string, const Tensor*>& inputs,
                   BackendConfig::PrecisionMode precision) {
    RunResult r;
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        r.code = INVALID_VALUE;
        return r;
    }
    ScheduleConfig config;
    config.numThread = 1;
    BackendConfig bc;
    bc.precision = precision;
    config.backendConfig = &bc;
    auto session = net->createSession(config);
    if (!session) {
        r.code = INVALID_VALUE;
        return r;
    }
    for (auto& kv : inputs) {
        auto t = net->getSessionInput(session, kv.first.c_str());
        if (!t) {
            r.code = INVALID_VALUE;
            return r;
        }
        if (t->shape() != kv.second->shape()) {
            net->resizeTensor(t, kv.second->shape());
        }
    }
    net->resizeSession(session);
    for (auto& kv : inputs) {
        auto t = net->getSessionInput(session, kv.first.c_str());
        if (t->getType() != kv.second->getType()) {
            r.code = INVALID_VALUE;
            return r;
        }
        t->copyFromHostTensor(kv.second);
    }
    r.code = net->runSession(session);
    if (r.code != NO_ERROR) {
        return r;
    }
    for (auto& kv : net->getSessionOutputAll(session)) {
        std::shared_ptr<Tensor> host(new Tensor(kv.second, Tensor::CAFFE, true));
        kv.second->copyToHostTensor(host.get());
        r.outputs[kv.first] = host;
    }
    return r;
}

} // namespace Test
} // namespace MNN
