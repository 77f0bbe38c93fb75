// Runs ONNX's own node tests through the engine for the ops of this folder that map 1:1: Resize, LSTM,
// GRU, RNN, GridSample, RoiAlign, NonMaxSuppression, MaxUnpool, Col2Im, RotaryEmbedding, Attention.
// Inputs and expected outputs are pasted by test/ops/gen/gen_onnx_node_cases.py: OnnxNodeCases.inc
// from libonnx-testdata (onnx 1.12), OnnxPipNodeCases.inc from the PyPI onnx 1.23 suite (cases the
// Debian one lacks). The attribute mapping below is the same as the converter's.
#include <math.h>
#include <string.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"
#define MNN_ALLOCATION_COUNTER_DEFINE 1  // this file defines the counting malloc of MNNOpTests
#include "AllocationCounter.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
struct NodeTensor {
    std::string name;
    int dtype;  // ONNX TensorProto type: 1 float, 2 uint8, 3 int8, 6 int32, 7 int64, 9 bool
    std::vector<int> dims;
    std::vector<double> values;
};
struct NodeAttr {
    std::string name;
    std::vector<double> nums;
    std::vector<std::string> strs;
};
struct OnnxNodeCase {
    std::string test;
    std::string opType;
    int opset;
    std::vector<NodeAttr> attrs;
    std::vector<std::string> inputNames;
    std::vector<std::string> outputNames;
    std::vector<NodeTensor> inputs;
    std::vector<NodeTensor> outputs;
};
#include "OnnxNodeCases.inc"
#include "OnnxPipNodeCases.inc"

const NodeAttr* findAttr(const OnnxNodeCase& c, const char* name) {
    for (auto& a : c.attrs) {
        if (a.name == name) {
            return &a;
        }
    }
    return nullptr;
}
double num(const OnnxNodeCase& c, const char* name, double def) {
    auto a = findAttr(c, name);
    return (a && !a->nums.empty()) ? a->nums[0] : def;
}
std::string str(const OnnxNodeCase& c, const char* name, const char* def) {
    auto a = findAttr(c, name);
    return (a && !a->strs.empty()) ? a->strs[0] : std::string(def);
}
template <typename T>
std::vector<T> nums(const OnnxNodeCase& c, const char* name) {
    std::vector<T> r;
    if (auto a = findAttr(c, name)) {
        for (auto v : a->nums) {
            r.push_back((T)v);
        }
    }
    return r;
}

/** fills op->param from the ONNX attributes; false when the op type is not one of ours */
bool setParam(const OnnxNodeCase& c, Schema::OpT* op) {
    const std::string& t = c.opType;
    if (t == "Resize") {
        op->type = Schema::OpType::Resize;
        Schema::ResizeParamT p;
        auto mode = str(c, "mode", "nearest");
        p.mode = mode == "linear" ? Schema::ResizeMode::LINEAR
                                  : (mode == "cubic" ? Schema::ResizeMode::CUBIC : Schema::ResizeMode::NEAREST);
        const char* cts[] = {"half_pixel",   "asymmetric",         "pytorch_half_pixel", "tf_half_pixel_for_nn",
                             "align_corners", "tf_crop_and_resize", "half_pixel_symmetric"};
        auto ct = str(c, "coordinate_transformation_mode", "half_pixel");
        for (int i = 0; i < 7; ++i) {
            if (ct == cts[i]) {
                p.coordTransform = (Schema::CoordTransform)i;
            }
        }
        const char* nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
        auto nm = str(c, "nearest_mode", "round_prefer_floor");
        for (int i = 0; i < 4; ++i) {
            if (nm == nms[i]) {
                p.nearestMode = (Schema::NearestMode)i;
            }
        }
        p.cubicCoeffA = (float)num(c, "cubic_coeff_a", -0.75);
        p.excludeOutside = num(c, "exclude_outside", 0) != 0;
        p.extrapolationValue = (float)num(c, "extrapolation_value", 0);
        p.axes = nums<int>(c, "axes");
        auto k = str(c, "keep_aspect_ratio_policy", "stretch");
        p.keepAspectRatioPolicy = k == "not_larger" ? 1 : (k == "not_smaller" ? 2 : 0);
        p.antialias = num(c, "antialias", 0) != 0;
        op->param.Set(p);
        return true;
    }
    if (t == "LSTM" || t == "GRU" || t == "RNN") {
        op->type = t == "LSTM" ? Schema::OpType::LSTM : (t == "GRU" ? Schema::OpType::GRU : Schema::OpType::RNN);
        Schema::RnnParamT p;
        p.hiddenSize = (int)num(c, "hidden_size", 0);
        auto d = str(c, "direction", "forward");
        p.direction = d == "reverse" ? Schema::RnnDirection::REVERSE
                                     : (d == "bidirectional" ? Schema::RnnDirection::BIDIRECTIONAL
                                                             : Schema::RnnDirection::FORWARD);
        if (auto a = findAttr(c, "activations")) {
            p.activations = a->strs;
        }
        p.activationAlpha = nums<float>(c, "activation_alpha");
        p.activationBeta = nums<float>(c, "activation_beta");
        p.clip = (float)num(c, "clip", 0);
        p.inputForget = num(c, "input_forget", 0) != 0;
        p.linearBeforeReset = num(c, "linear_before_reset", 0) != 0;
        p.layout = (int)num(c, "layout", 0);
        op->param.Set(p);
        return true;
    }
    if (t == "GridSample") {
        op->type = Schema::OpType::GridSample;
        Schema::GridSampleParamT p;
        auto m = str(c, "mode", "bilinear");
        p.mode = (m == "nearest") ? 1 : ((m == "bicubic" || m == "cubic") ? 2 : 0);
        auto pm = str(c, "padding_mode", "zeros");
        p.paddingMode = pm == "border" ? 1 : (pm == "reflection" ? 2 : 0);
        p.alignCorners = num(c, "align_corners", 0) != 0;
        op->param.Set(p);
        return true;
    }
    if (t == "RoiAlign") {
        op->type = Schema::OpType::RoiAlign;
        Schema::RoiAlignParamT p;
        p.mode = str(c, "mode", "avg") == "max" ? 0 : 1;
        p.outputHeight = (int)num(c, "output_height", 1);
        p.outputWidth = (int)num(c, "output_width", 1);
        p.samplingRatio = (int)num(c, "sampling_ratio", 0);
        p.spatialScale = (float)num(c, "spatial_scale", 1);
        p.halfPixel = str(c, "coordinate_transformation_mode", "half_pixel") == "half_pixel";
        op->param.Set(p);
        return true;
    }
    if (t == "NonMaxSuppression") {
        op->type = Schema::OpType::NonMaxSuppression;
        Schema::NmsParamT p;
        p.centerPointBox = (int)num(c, "center_point_box", 0);
        op->param.Set(p);
        return true;
    }
    if (t == "MaxUnpool") {
        op->type = Schema::OpType::MaxUnpool;
        Schema::PoolParamT p;
        p.kernel = nums<int>(c, "kernel_shape");
        p.strides = nums<int>(c, "strides");
        p.pads = nums<int>(c, "pads");
        op->param.Set(p);
        return true;
    }
    if (t == "RotaryEmbedding") {
        op->type = Schema::OpType::RotaryEmbedding;
        Schema::AttentionParamT p;
        p.interleaved = num(c, "interleaved", 0) != 0;
        p.numHeads = (int)num(c, "num_heads", 0);
        p.rotaryEmbeddingDim = (int)num(c, "rotary_embedding_dim", 0);
        op->param.Set(p);
        return true;
    }
    if (t == "Attention") {
        op->type = Schema::OpType::Attention;
        Schema::AttentionParamT p;
        p.isCausal = num(c, "is_causal", 0) != 0;
        p.qNumHeads = (int)num(c, "q_num_heads", 0);
        p.kvNumHeads = (int)num(c, "kv_num_heads", 0);
        p.scale = (float)num(c, "scale", 0);
        p.softcap = (float)num(c, "softcap", 0);
        p.qkMatmulOutputMode = (int)num(c, "qk_matmul_output_mode", 0);
        op->param.Set(p);
        return true;
    }
    if (t == "Col2Im") {
        op->type = Schema::OpType::Col2Im;
        Schema::ConvParamT p;
        p.dilations = nums<int>(c, "dilations");
        p.strides = nums<int>(c, "strides");
        p.pads = nums<int>(c, "pads");
        op->param.Set(p);
        return true;
    }
    return false;
}

Schema::DataType dataType(int onnx) {
    switch (onnx) {
        case 2: return Schema::DataType::DT_UINT8;
        case 3: return Schema::DataType::DT_INT8;
        case 6: return Schema::DataType::DT_INT32;
        case 7: return Schema::DataType::DT_INT64;
        case 9: return Schema::DataType::DT_BOOL;
        default: return Schema::DataType::DT_FLOAT;
    }
}

std::vector<uint8_t> bytesOf(const NodeTensor& t) {
    std::vector<uint8_t> b;
    auto put = [&](const void* p, size_t n) { b.insert(b.end(), (const uint8_t*)p, (const uint8_t*)p + n); };
    for (auto v : t.values) {
        switch (t.dtype) {
            case 2: case 9: { uint8_t x = (uint8_t)v; put(&x, 1); break; }
            case 3: { int8_t x = (int8_t)v; put(&x, 1); break; }
            case 6: { int32_t x = (int32_t)v; put(&x, 4); break; }
            case 7: { int64_t x = (int64_t)v; put(&x, 8); break; }
            default: { float x = (float)v; put(&x, 4); break; }
        }
    }
    return b;
}

/** the case as a one-op model; *feed gets the first input, fed at run time */
std::vector<uint8_t> buildCase(const OnnxNodeCase& c, std::unique_ptr<Tensor>* feedOut) {
    ModelBuilder mb;
    std::unique_ptr<Tensor>& feed = *feedOut;
    // the first input (X / boxes) is fed at run time, the rest are constants
    for (size_t i = 0; i < c.inputs.size(); ++i) {
        auto& in = c.inputs[i];
        if (i == 0) {
            if (in.dtype != 1) {
                ADD_FAILURE() << "the first input must be float32";
                return {};
            }
            mb.input(in.name, in.dims);
            std::vector<float> v(in.values.begin(), in.values.end());
            feed = makeTensor(in.dims, v);
        } else {
            auto b = bytesOf(in);
            mb.constantRaw(in.name, in.dims, dataType(in.dtype), b.data(), b.size());
        }
    }
    std::vector<std::string> outs;
    for (size_t i = 0; i < c.outputNames.size(); ++i) {
        outs.push_back(c.outputNames[i].empty() ? "unused_" + std::to_string(i) : c.outputNames[i]);
    }
    auto op = mb.op(Schema::OpType::Unknown, "node", c.inputNames, outs);
    EXPECT_TRUE(setParam(c, op));
    for (auto& o : c.outputs) {
        mb.output(o.name);
    }
    return mb.finish();
}

void runCase(const OnnxNodeCase& c) {
    SCOPED_TRACE(c.test);
    std::unique_ptr<Tensor> feed;
    auto model = buildCase(c, &feed);
    ASSERT_NE(feed, nullptr);
    auto r = runModel(model, {{c.inputs[0].name, feed.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    for (auto& o : c.outputs) {
        SCOPED_TRACE(o.name);
        auto got = r.outputs[o.name];
        ASSERT_NE(got, nullptr);
        ASSERT_EQ(got->shape(), o.dims);
        if (o.dtype == 7) {
            ASSERT_EQ(got->getType(), halide_type_of<int64_t>());
            for (size_t k = 0; k < o.values.size(); ++k) {
                EXPECT_EQ(got->host<int64_t>()[k], (int64_t)o.values[k]) << "at " << k;
            }
        } else {
            ASSERT_EQ(got->getType(), halide_type_of<float>());
            int bad = 0;
            for (size_t k = 0; k < o.values.size(); ++k) {
                const float g = got->host<float>()[k], w = (float)o.values[k];
                const bool same = (std::isinf(w) || std::isnan(w)) ? (g == w || (std::isnan(g) && std::isnan(w)))
                                                                  : fabsf(g - w) <= 1e-4f + 1e-4f * fabsf(w);
                if (!same && bad++ < 3) {
                    ADD_FAILURE() << "element " << k << " of " << o.values.size() << ": got " << g << ", expected " << w;
                }
            }
            EXPECT_EQ(bad, 0);
        }
    }
}

/** after the first run, runSession allocates nothing and repeats the outputs bit for bit */
void runCaseAllocationFree(const OnnxNodeCase& c) {
    SCOPED_TRACE(c.test);
    std::unique_ptr<Tensor> feed;
    auto model = buildCase(c, &feed);
    ASSERT_NE(feed, nullptr);
    std::unique_ptr<Interpreter, void (*)(Interpreter*)> net(Interpreter::createFromBuffer(model.data(), model.size()),
                                                             Interpreter::destroy);
    ASSERT_NE(net, nullptr);
    auto session = net->createSession(ScheduleConfig());
    ASSERT_NE(session, nullptr);
    ASSERT_TRUE(net->getSessionInput(session, c.inputs[0].name.c_str())->copyFromHostTensor(feed.get()));
    ASSERT_EQ(net->runSession(session), NO_ERROR);
    auto bytes = [&]() {
        std::vector<std::vector<uint8_t>> r;
        for (auto& kv : net->getSessionOutputAll(session)) {
            const uint8_t* p = kv.second->host<uint8_t>();
            r.emplace_back(p, p + kv.second->size());
        }
        return r;
    };
    auto first = bytes();
    const long n = allocationsOfRuns(net.get(), session, 3);
    ASSERT_GE(n, 0) << "a later runSession failed";
    EXPECT_EQ(n, 0) << c.test << ": runSession allocated " << n << " times in 3 runs: "
                    << opsThatAllocate(net.get(), session);
    EXPECT_TRUE(first == bytes()) << c.test << ": a later run changed the outputs";
}

void runAll(const char* prefix, const std::vector<OnnxNodeCase>& cases = kOnnxNodeCases) {
    int n = 0;
    for (auto& c : cases) {
        if (c.test.rfind(prefix, 0) == 0) {
            runCase(c);
            ++n;
        }
    }
    EXPECT_GT(n, 0) << "no ONNX node cases for " << prefix;
}
} // namespace

TEST(OnnxNodeCases, Resize) {
    runAll("test_resize_");
}

TEST(OnnxNodeCases, LSTM) {
    runAll("test_lstm_");
}

TEST(OnnxNodeCases, GRU) {
    runAll("test_gru_");
}

TEST(OnnxNodeCases, RNN) {
    runAll("test_rnn_");
}

TEST(OnnxNodeCases, GridSample) {
    runAll("test_gridsample");
}

TEST(OnnxNodeCases, RoiAlign) {
    runAll("test_roialign_");
}

TEST(OnnxNodeCases, NonMaxSuppression) {
    runAll("test_nonmaxsuppression_");
}

TEST(OnnxNodeCases, MaxUnpool) {
    runAll("test_maxunpool_");
}

// cases of the PyPI onnx 1.23 suite that the Debian suite lacks
TEST(OnnxPipNodeCases, Resize) {
    runAll("test_resize_", kOnnxPipNodeCases);
}

TEST(OnnxPipNodeCases, GridSampleVolumetric) {
    runAll("test_gridsample_volumetric", kOnnxPipNodeCases);
}

TEST(OnnxPipNodeCases, Col2Im) {
    runAll("test_col2im", kOnnxPipNodeCases);
}

TEST(OnnxPipNodeCases, RotaryEmbedding) {
    runAll("test_rotary_embedding", kOnnxPipNodeCases);
}

TEST(OnnxPipNodeCases, Attention) {
    runAll("test_attention", kOnnxPipNodeCases);
}

// every case above once more: runSession allocates nothing after the first run
TEST(OnnxNodeCasesAllocationFree, EveryCase) {
#ifndef MNN_COUNT_ALLOCATIONS
    GTEST_SKIP() << "allocation counting needs glibc without sanitizers";
#else
    int n = 0;
    for (auto* cases : {&kOnnxNodeCases, &kOnnxPipNodeCases}) {
        for (auto& c : *cases) {
            runCaseAllocationFree(c);
            ++n;
        }
    }
    EXPECT_GT(n, 50);
#endif
}
