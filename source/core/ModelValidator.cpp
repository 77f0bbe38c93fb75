#include "ModelValidator.hpp"
#include <string>
#include <vector>
#include "Macro.hpp"
#include "Registry.hpp"
#include "TensorUtils.hpp"

namespace MNN {

namespace {
// The parameter table each op type reads (NONE: several or none). A model whose op carries a
// table of another type is refused at load.
Schema::Param expectedParam(Schema::OpType t) {
    using O = Schema::OpType;
    using P = Schema::Param;
    switch (t) {
        case O::Convolution:
        case O::ConvTranspose:
        case O::ConvInteger:
        case O::QLinearConv:
            return P::ConvParam;
        case O::Pooling:
            return P::PoolParam;
        case O::UnaryOp:
            return P::UnaryParam;
        case O::BinaryOp:
        case O::Mean:
            return P::BinaryParam;
        case O::MatMul:
        case O::Gemm:
            return P::GemmParam;
        case O::Softmax:
            return P::SoftmaxParam;
        case O::Concat:
        case O::Split:
        case O::Gather:
        case O::GatherElements:
        case O::GatherND:
        case O::ScatterND:
        case O::ScatterElements:
            return P::AxisParam;
        case O::Transpose:
            return P::TransposeParam;
        case O::Resize:
            return P::ResizeParam;
        case O::Reduce:
            return P::ReduceParam;
        case O::ArgMax:
            return P::ArgParam;
        case O::Cast:
            return P::CastParam;
        case O::TopK:
            return P::TopKParam;
        case O::LSTM:
        case O::GRU:
        case O::RNN:
        case O::DynamicQuantizeLSTM:
            return P::RnnParam;
        case O::If:
        case O::Loop:
        case O::Scan:
            return P::ControlFlowParam;
        case O::Einsum:
            return P::EinsumParam;
        case O::GridSample:
            return P::GridSampleParam;
        case O::RoiAlign:
            return P::RoiAlignParam;
        case O::NonMaxSuppression:
            return P::NmsParam;
        case O::ChannelShuffle:
            return P::ChannelShuffleParam;
        case O::PointwiseDepthwise:
            return P::PointwiseDepthwiseParam;
        case O::ConvolutionPool:
            return P::ConvolutionPoolParam;
        case O::NegativeLogLikelihoodLoss:
            return P::LossParam;
        case O::Dropout:
            return P::DropoutParam;
        case O::Window:
        case O::DFT:
        case O::STFT:
        case O::MelWeightMatrix:
            return P::SignalParam;
        case O::TfIdfVectorizer:
            return P::TfIdfParam;
        default:
            return P::NONE;
    }
}

struct Checker {
    int depth = 0;

    bool checkBlob(const Schema::Blob* b, int tensorCount, const char* where) {
        if (b->tensorIndex() < 0 || b->tensorIndex() >= tensorCount) {
            MNN_ERROR("invalid model: %s constant has tensor index %d outside [0, %d)\n", where, b->tensorIndex(),
                      tensorCount);
            return false;
        }
        std::vector<int> dims;
        if (b->dims()) {
            dims.assign(b->dims()->begin(), b->dims()->end());
        }
        if (dims.size() > MNN_MAX_TENSOR_DIM) {
            MNN_ERROR("invalid model: %s constant %d has rank %d (limit %d)\n", where, b->tensorIndex(), (int)dims.size(),
                      MNN_MAX_TENSOR_DIM);
            return false;
        }
        int64_t count = 0;
        if (!TensorUtils::checkedProduct(dims, (int64_t)1 << 40, &count)) {
            MNN_ERROR("invalid model: %s constant %d has invalid dims %s\n", where, b->tensorIndex(),
                      TensorUtils::shapeString(dims).c_str());
            return false;
        }
        size_t raw = b->raw() ? b->raw()->size() : 0;
        size_t elem;
        switch (b->compression()) {
            case Schema::Compression::FP16:
                elem = 2;
                break;
            case Schema::Compression::INT8_PER_CHANNEL:
                elem = 1;
                break;
            case Schema::Compression::NONE: {
                auto t = TensorUtils::typeOf(b->dataType());
                if (b->dataType() == Schema::DataType::DT_FLOAT16 || b->dataType() == Schema::DataType::DT_BFLOAT16) {
                    elem = 2;
                } else if (t.code == halide_type_handle) {
                    MNN_ERROR("invalid model: %s constant %d has unsupported data type %d\n", where, b->tensorIndex(),
                              (int)b->dataType());
                    return false;
                } else {
                    elem = (size_t)t.bytes();
                }
                break;
            }
            default:
                MNN_ERROR("invalid model: %s constant %d has unknown compression %d\n", where, b->tensorIndex(),
                          (int)b->compression());
                return false;
        }
        if (raw != (size_t)count * elem) {
            MNN_ERROR("invalid model: %s constant %d holds %zu bytes, its dims %s need %zu\n", where, b->tensorIndex(),
                      raw, TensorUtils::shapeString(dims).c_str(), (size_t)count * elem);
            return false;
        }
        return true;
    }

    bool checkGraph(const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* names,
                    const flatbuffers::Vector<flatbuffers::Offset<Schema::Op>>* ops,
                    const flatbuffers::Vector<flatbuffers::Offset<Schema::Blob>>* constants,
                    const flatbuffers::Vector<flatbuffers::Offset<Schema::TensorDecl>>* inputs,
                    const flatbuffers::Vector<int32_t>* outputs, const char* where) {
        if (++depth > 16) {
            MNN_ERROR("invalid model: subgraphs nested deeper than 16\n");
            return false;
        }
        int tensorCount = names ? (int)names->size() : 0;
        if (constants) {
            for (auto b : *constants) {
                if (!checkBlob(b, tensorCount, where)) {
                    return false;  // reported by the check that failed
                }
            }
        }
        if (inputs) {
            for (auto d : *inputs) {
                if (d->tensorIndex() < 0 || d->tensorIndex() >= tensorCount) {
                    MNN_ERROR("invalid model: %s input has tensor index %d outside [0, %d)\n", where, d->tensorIndex(),
                              tensorCount);
                    return false;
                }
                if (d->dims() && d->dims()->size() > MNN_MAX_TENSOR_DIM) {
                    MNN_ERROR("invalid model: %s input %d has rank %d (limit %d)\n", where, d->tensorIndex(),
                              (int)d->dims()->size(), MNN_MAX_TENSOR_DIM);
                    return false;
                }
                if (d->dims()) {
                    for (auto v : *d->dims()) {
                        if (v < -1) {
                            MNN_ERROR("invalid model: %s input %d has dim %d\n", where, d->tensorIndex(), v);
                            return false;
                        }
                    }
                }
            }
        }
        if (outputs) {
            for (auto o : *outputs) {
                if (o < 0 || o >= tensorCount) {
                    MNN_ERROR("invalid model: %s output tensor index %d outside [0, %d)\n", where, o, tensorCount);
                    return false;
                }
            }
        }
        if (ops) {
            for (flatbuffers::uoffset_t i = 0; i < ops->size(); ++i) {
                auto op = ops->Get(i);
                const char* name = op->name() ? op->name()->c_str() : "";
                auto type = op->type();
                if ((int)type <= 0 || (int)type > (int)Schema::OpType::MAX || !getShape(type)) {
                    MNN_ERROR("invalid model: %s op #%u '%s' has unknown or unsupported type %d\n", where, i, name,
                              (int)type);
                    return false;
                }
                auto expected = expectedParam(type);
                if (expected != Schema::Param::NONE && op->param_type() != Schema::Param::NONE &&
                    op->param_type() != expected) {
                    MNN_ERROR("invalid model: %s op '%s' (%s) carries a %s table, expected %s\n", where, name,
                              opTypeName(type), Schema::EnumNameParam(op->param_type()),
                              Schema::EnumNameParam(expected));
                    return false;
                }
                if (op->inputs()) {
                    for (auto t : *op->inputs()) {
                        if (t < -1 || t >= tensorCount) {
                            MNN_ERROR("invalid model: %s op '%s' (%s) has input tensor index %d outside [0, %d)\n", where,
                                      name, opTypeName(type), t, tensorCount);
                            return false;
                        }
                    }
                }
                if (op->outputs()) {
                    for (auto t : *op->outputs()) {
                        if (t < 0 || t >= tensorCount) {
                            MNN_ERROR("invalid model: %s op '%s' (%s) has output tensor index %d outside [0, %d)\n", where,
                                      name, opTypeName(type), t, tensorCount);
                            return false;
                        }
                    }
                }
                if (op->param_type() == Schema::Param::ControlFlowParam) {
                    auto cf = op->param_as_ControlFlowParam();
                    if (cf->subgraphs()) {
                        for (auto g : *cf->subgraphs()) {
                            std::string w = std::string("subgraph ") + (g->name() ? g->name()->str() : "?");
                            if (!checkGraph(g->tensorNames(), g->ops(), g->constants(), g->inputDecls(), g->outputs(),
                                            w.c_str())) {
                                return false;  // reported by the check that failed
                            }
                            if (g->inputs()) {
                                for (auto t : *g->inputs()) {
                                    if (t < 0 || t >= (int)(g->tensorNames() ? g->tensorNames()->size() : 0)) {
                                        MNN_ERROR("invalid model: %s input index %d out of range\n", w.c_str(), t);
                                        return false;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        --depth;
        return true;
    }
};
} // namespace

const Schema::Net* validateModel(const uint8_t* data, size_t size) {
    if (!data || size == 0) {
        MNN_ERROR("invalid model: empty buffer\n");
        return nullptr;
    }
    if (size < 8 || !flatbuffers::BufferHasIdentifier(data, Schema::NetIdentifier())) {
        MNN_ERROR("invalid model: not an MNN model (missing 'MNNF' identifier, %zu bytes)\n", size);
        return nullptr;
    }
    flatbuffers::Verifier verifier(data, size, 64 /*depth*/, 10000000 /*tables*/);
    if (!Schema::VerifyNetBuffer(verifier)) {
        MNN_ERROR("invalid model: the FlatBuffers verifier rejected the buffer (%zu bytes): truncated or corrupt\n",
                  size);
        return nullptr;
    }
    auto net = Schema::GetNet(data);
    Checker c;
    if (!c.checkGraph(net->tensorNames(), net->ops(), net->constants(), net->inputs(), net->outputs(), "graph")) {
        return nullptr;  // reported by the check that failed
    }
    return net;
}

} // namespace MNN
