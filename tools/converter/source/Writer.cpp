#include "Writer.hpp"
#include <string.h>
#include <algorithm>
#include <cmath>
#include "Fp16Sensitivity.hpp"

namespace MNN {
namespace Convert {

namespace {
/** the axis holding output channels when input `slot` of `op` is a weight, else -2 */
int weightAxis(const Schema::OpT& op, int slot, int rank) {
    using T = Schema::OpType;
    if (op.type == T::PointwiseDepthwise && (slot == 1 || slot == 3) && rank == 4) {
        return 0;  // W1 [E, C, 1, 1], W2 [E, 1, kh, kw]
    }
    if (slot != 1 || rank < 2) {
        return -2;
    }
    switch (op.type) {
        case T::Convolution:
        case T::ConvolutionPool:
            return 0;
        case T::ConvTranspose:
            return 1;
        case T::Gemm: {
            auto p = op.param.AsGemmParam();
            return (p && p->transB) ? 0 : 1;
        }
        case T::MatMul:
            return rank - 1;
        default:
            return -2;
    }
}

bool isWeightSlot(const Schema::OpT& op, int slot) {
    using T = Schema::OpType;
    if (op.type == T::Convolution) {
        return slot == 1 || slot == 2;  // slot 3: the input scale S, an activation
    }
    if (op.type == T::ConvolutionPool) {
        return slot == 1 || slot == 2;
    }
    switch (op.type) {
        case T::ConvTranspose:
        case T::Gemm:
        case T::MatMul:
        case T::PRelu:
        case T::InstanceNorm:
        case T::LayerNorm:
        case T::GroupNorm:
        case T::RMSNorm:
        case T::PointwiseDepthwise:
            return slot >= 1;
        case T::BatchNorm:
            return slot >= 1 && slot <= 4;
        case T::LSTM:
        case T::GRU:
        case T::RNN:
            return slot >= 1 && slot <= 3;
        default:
            return false;
    }
}

void quantize(Schema::BlobT& b, int axis) {
    std::vector<float> v;
    blobFloats(b, &v);
    int64_t channels = b.dims[axis];
    int64_t inner = 1;
    for (size_t i = axis + 1; i < b.dims.size(); ++i) {
        inner *= b.dims[i];
    }
    std::vector<float> maxAbs(channels, 0.0f);
    for (size_t i = 0; i < v.size(); ++i) {
        int64_t c = (i / inner) % channels;
        maxAbs[c] = std::max(maxAbs[c], std::fabs(v[i]));
    }
    b.scales.resize(channels);
    for (int64_t c = 0; c < channels; ++c) {
        b.scales[c] = maxAbs[c] / 127.0f;
    }
    b.raw.resize(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        float s = b.scales[(i / inner) % channels];
        int q = s > 0 ? (int)std::lround(v[i] / s) : 0;
        q = std::min(127, std::max(-127, q));
        b.raw[i] = (uint8_t)(int8_t)q;
    }
    b.compression = Schema::Compression::INT8_PER_CHANNEL;
    b.quantAxis = axis;
}

void toHalf(Schema::BlobT& b) {
    std::vector<float> v;
    blobFloats(b, &v);
    b.raw.resize(v.size() * 2);
    for (size_t i = 0; i < v.size(); ++i) {
        uint16_t h = floatToHalf(v[i]);
        ::memcpy(b.raw.data() + 2 * i, &h, 2);
    }
    b.compression = Schema::Compression::FP16;
}
}  // namespace

std::vector<int> compressWeights(Graph& g, const Options& options) {
    std::vector<int> halfCandidates;
    if (!options.fp16 && options.weightQuantBits == 0) {
        return halfCandidates;
    }
    auto consumers = g.consumers();
    for (auto& kv : g.constants) {
        auto& b = *kv.second;
        int t = kv.first;
        if (b.dataType != Schema::DataType::DT_FLOAT || b.compression != Schema::Compression::NONE) {
            continue;
        }
        int64_t count = elementCount(b.dims);
        bool allWeights = !consumers[t].empty() && !g.isOutput(t);
        int axis = -3;
        bool depthwiseWeights = false;
        for (auto o : consumers[t]) {
            auto& op = *g.ops[o];
            auto conv = op.type == Schema::OpType::Convolution ? op.param.AsConvParam() : nullptr;
            if (conv && conv->group > 1 && op.inputs.size() > 1 && op.inputs[1] == t) {
                depthwiseWeights = true;
            }
            // the fused op's W2 is a depthwise convolution's weight (W1 a pointwise one's)
            if (op.type == Schema::OpType::PointwiseDepthwise && op.inputs.size() > 3 && op.inputs[3] == t) {
                depthwiseWeights = true;
            }
            for (size_t s = 0; s < op.inputs.size(); ++s) {
                if (op.inputs[s] != t) {
                    continue;
                }
                allWeights = allWeights && isWeightSlot(op, (int)s);
                int a = weightAxis(op, (int)s, (int)b.dims.size());
                axis = (axis == -3 || axis == a) ? a : -2;
            }
        }
        if (options.weightQuantBits == 8 && axis >= 0 && count > 0) {
            quantize(b, axis);
            continue;
        }
        // biases and other 1-D vectors stay float: they are small, and their rounding adds directly
        // to every output of the layer
        // grouped / depthwise convolution weights stay float too: few values (about 1% of a
        // mobilenet), each feeding a short dot product where fp16 rounding does not average out
        if (options.fp16 && !depthwiseWeights && count > 0 && b.dims.size() >= 2 && (count >= 32 || allWeights)) {
            halfCandidates.push_back(t);
        }
    }
    return halfCandidates;
}

std::unique_ptr<Schema::NetT> toNet(Graph& g) {
    std::vector<int> remap(g.names.size(), -1);
    std::unique_ptr<Schema::NetT> net(new Schema::NetT);
    auto use = [&](int t) {
        if (t < 0) {
            return -1;
        }
        if (remap[t] < 0) {
            remap[t] = (int)net->tensorNames.size();
            net->tensorNames.push_back(g.names[t]);
        }
        return remap[t];
    };
    for (auto& d : g.inputs) {
        d->tensorIndex = use(d->tensorIndex);
        net->inputs.emplace_back(std::move(d));
    }
    g.inputs.clear();
    for (auto& op : g.ops) {
        for (auto& t : op->inputs) {
            t = use(t);
        }
        for (auto& t : op->outputs) {
            t = use(t);
        }
        net->ops.emplace_back(std::move(op));
    }
    g.ops.clear();
    for (auto o : g.outputs) {
        net->outputs.push_back(use(o));
    }
    for (auto& kv : g.constants) {
        if (remap[kv.first] < 0) {
            continue;  // not read by anything
        }
        kv.second->tensorIndex = remap[kv.first];
        net->constants.emplace_back(std::move(kv.second));
    }
    g.constants.clear();
    return net;
}

namespace {
std::vector<uint8_t> pack(const Schema::NetT& net) {
    flatbuffers::FlatBufferBuilder builder(1024 * 1024);
    builder.Finish(Schema::Net::Pack(builder, &net), Schema::NetIdentifier());
    return std::vector<uint8_t>(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
}
}  // namespace

std::vector<uint8_t> writeModel(Graph& g, const Options& options, const std::string& producer, Fp16Report* fp16Report) {
    auto halfTensors = compressWeights(g, options);
    std::vector<Schema::BlobT*> halfBlobs;
    for (int t : halfTensors) {
        halfBlobs.push_back(g.constants.at(t).get());
    }
    auto net = toNet(g);
    net->version = "1.0 MNNConvert";
    net->bizCode = options.bizCode;
    net->producer = producer;
    if (halfBlobs.empty()) {
        if (fp16Report && options.fp16) {
            *fp16Report = planFp16({}, {}, options).report;
        }
        return pack(*net);
    }
    // candidates as indices into Net::constants (those still read by an op)
    std::vector<int> candidates;
    for (size_t i = 0; i < net->constants.size(); ++i) {
        if (std::find(halfBlobs.begin(), halfBlobs.end(), net->constants[i].get()) != halfBlobs.end()) {
            candidates.push_back((int)i);
        }
    }
    auto plan = planFp16(pack(*net), candidates, options);
    if (!plan.error.empty()) {
        throw ConvertError("--fp16: " + plan.error);
    }
    for (size_t k = 0; k < candidates.size(); ++k) {
        if (!plan.keepFloat[k]) {
            toHalf(*net->constants[candidates[k]]);
        }
    }
    if (fp16Report) {
        *fp16Report = plan.report;
    }
    return pack(*net);
}

}  // namespace Convert
}  // namespace MNN
