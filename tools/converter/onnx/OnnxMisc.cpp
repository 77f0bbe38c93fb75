// NonMaxSuppression, RoiAlign, GridSample, QuantizeLinear / DequantizeLinear, Attention,
// RotaryEmbedding, RandomNormal(Like) / RandomUniform(Like), Bernoulli.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapNms(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::NonMaxSuppression, node.inputs(), {node.output(0)});
    setParam<Schema::NmsParamT>(op)->centerPointBox = (int)node.attrInt("center_point_box", 0);
}

void mapRoiAlign(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::RoiAlign, {node.input(0), node.input(1), node.input(2)}, {node.output(0)});
    auto p = setParam<Schema::RoiAlignParamT>(op);
    auto mode = node.attrString("mode", "avg");
    if (mode != "avg" && mode != "max") {
        node.invalid("unknown mode '" + mode + "'");
    }
    p->mode = mode == "max" ? 0 : 1;
    p->outputHeight = (int)node.attrInt("output_height", 1);
    p->outputWidth = (int)node.attrInt("output_width", 1);
    p->samplingRatio = (int)node.attrInt("sampling_ratio", 0);
    p->spatialScale = node.attrFloat("spatial_scale", 1.0f);
    // opset 10 had no attribute and behaved as output_half_pixel
    auto ct = node.attrString("coordinate_transformation_mode", node.opset() < 16 ? "output_half_pixel" : "half_pixel");
    if (ct != "half_pixel" && ct != "output_half_pixel") {
        node.invalid("unknown coordinate_transformation_mode '" + ct + "'");
    }
    p->halfPixel = ct == "half_pixel";
}

void mapGridSample(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::GridSample, {node.input(0), node.input(1)}, {node.output(0)});
    auto p = setParam<Schema::GridSampleParamT>(op);
    auto mode = node.attrString("mode", node.opset() < 20 ? "bilinear" : "linear");
    if (mode == "bilinear" || mode == "linear") {
        p->mode = 0;
    } else if (mode == "nearest") {
        p->mode = 1;
    } else if (mode == "bicubic" || mode == "cubic") {
        p->mode = 2;
    } else {
        node.invalid("unknown mode '" + mode + "'");
    }
    auto pad = node.attrString("padding_mode", "zeros");
    if (pad == "zeros") {
        p->paddingMode = 0;
    } else if (pad == "border") {
        p->paddingMode = 1;
    } else if (pad == "reflection") {
        p->paddingMode = 2;
    } else {
        node.invalid("unknown padding_mode '" + pad + "'");
    }
    p->alignCorners = node.attrInt("align_corners", 0) != 0;
}

void mapQuant(OnnxNode& node) {
    bool q = node.opType() == "QuantizeLinear";
    auto op = node.addOp(q ? Schema::OpType::QuantizeLinear : Schema::OpType::DequantizeLinear, node.inputs(),
                         {node.output(0)});
    auto p = setParam<Schema::QuantParamT>(op);
    p->axis = (int)node.attrInt("axis", 1);
    p->saturate = node.attrInt("saturate", 1) != 0;
    p->blockSize = (int)node.attrInt("block_size", 0);
    if (node.hasAttr("output_dtype")) {
        p->outputType = OnnxNode::dataType((int)node.attrInt("output_dtype", 0));
        if (p->outputType == Schema::DataType::DT_INVALID) {
            node.unsupported("output_dtype");
        }
    }
}

void mapAttention(OnnxNode& node) {
    // opset 25 sliding windows: AttentionParam has no fields for them yet
    if (node.attrInt("left_window_size", -1) >= 0 || node.attrInt("right_window_size", -1) >= 0) {
        node.unsupported("left_window_size / right_window_size");
    }
    auto op = node.addOp(Schema::OpType::Attention, node.inputs(), node.usedOutputs());
    auto p = setParam<Schema::AttentionParamT>(op);
    p->isCausal = node.attrInt("is_causal", 0) != 0;
    p->kvNumHeads = (int)node.attrInt("kv_num_heads", 0);
    p->qNumHeads = (int)node.attrInt("q_num_heads", 0);
    p->qkMatmulOutputMode = (int)node.attrInt("qk_matmul_output_mode", 0);
    p->scale = node.attrFloat("scale", 0.0f);
    p->softcap = node.attrFloat("softcap", 0.0f);
    p->softmaxPrecision = (int)node.attrInt("softmax_precision", 0);
}

void mapRotary(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::RotaryEmbedding, node.inputs(), {node.output(0)});
    auto p = setParam<Schema::AttentionParamT>(op);
    p->interleaved = node.attrInt("interleaved", 0) != 0;
    p->numHeads = (int)node.attrInt("num_heads", 0);
    p->rotaryEmbeddingDim = (int)node.attrInt("rotary_embedding_dim", 0);
}

void fillRandom(OnnxNode& node, Schema::RandomParamT* p) {
    p->mean = node.attrFloat("mean", 0.0f);
    p->scale = node.attrFloat("scale", 1.0f);
    p->low = node.attrFloat("low", 0.0f);
    p->high = node.attrFloat("high", 1.0f);
    p->hasSeed = node.hasAttr("seed");
    p->seed = node.attrFloat("seed", 0.0f);
    p->dtype = Schema::DataType::DT_INVALID;
    if (node.hasAttr("dtype")) {
        p->dtype = OnnxNode::dataType((int)node.attrInt("dtype", 1));
        if (p->dtype == Schema::DataType::DT_INVALID) {
            node.unsupported("dtype");
        }
    }
}

/** RandomNormal / RandomUniform (shape attribute, no input) and the *Like forms (shape of the input).
 *  dtype DT_INVALID in the param means "the input's type" for the Like forms. */
void mapRandom(OnnxNode& node) {
    const auto& t = node.opType();
    bool like = t.size() > 4 && t.compare(t.size() - 4, 4, "Like") == 0;
    auto op = node.addOp(Schema::OpType::Random, like ? std::vector<int>{node.input(0)} : std::vector<int>{},
                         {node.output(0)});
    auto p = setParam<Schema::RandomParamT>(op);
    fillRandom(node, p);
    p->normal = t.compare(0, 12, "RandomNormal") == 0;
    if (!like) {
        p->shape = node.attrInts("shape");
        if (p->dtype == Schema::DataType::DT_INVALID) {
            p->dtype = Schema::DataType::DT_FLOAT;
        }
    }
}

void mapBernoulli(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Bernoulli, {node.input(0)}, {node.output(0)});
    fillRandom(node, setParam<Schema::RandomParamT>(op));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(NonMaxSuppression, MNN::Convert::mapNms, "NonMaxSuppression")
MNN_REGISTER_ONNX(RoiAlign, MNN::Convert::mapRoiAlign, "RoiAlign")
MNN_REGISTER_ONNX(GridSample, MNN::Convert::mapGridSample, "GridSample")
MNN_REGISTER_ONNX(QuantizeLinear, MNN::Convert::mapQuant, "QuantizeLinear", "DequantizeLinear")
MNN_REGISTER_ONNX(Attention, MNN::Convert::mapAttention, "Attention")
MNN_REGISTER_ONNX(RotaryEmbedding, MNN::Convert::mapRotary, "RotaryEmbedding")
MNN_REGISTER_ONNX(Random, MNN::Convert::mapRandom, "RandomNormal", "RandomUniform", "RandomNormalLike",
                  "RandomUniformLike")
MNN_REGISTER_ONNX(Bernoulli, MNN::Convert::mapBernoulli, "Bernoulli")
