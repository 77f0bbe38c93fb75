// runSession allocates nothing once shapes are known, for graphs of every CPU reference kernel that
// used to build shape vectors, stride tables or scratch at execute time. Each graph runs once (first
// run), then three more runs must add no heap allocation (counted as in AllocationFreeTest.cpp) and
// reproduce the first run's outputs bit for bit.
#include <MNN/Interpreter.hpp>
#include <string.h>
#include "AllocationCounter.hpp"
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct SessionDeleter {
    void operator()(Interpreter* p) const {
        Interpreter::destroy(p);
    }
};

/** float graph inputs get seeded random values; other inputs keep what the session gives them */
void fillInputs(Interpreter* net, Session* session) {
    unsigned seed = 11;
    for (auto& kv : net->getSessionInputAll(session)) {
        Tensor* t = kv.second;
        if (t->getType() == halide_type_of<float>()) {
            auto v = randomFloats((size_t)t->elementSize(), seed++);
            ::memcpy(t->host<float>(), v.data(), v.size() * sizeof(float));
        }
    }
}

std::vector<std::vector<uint8_t>> outputBytes(Interpreter* net, Session* session) {
    std::vector<std::vector<uint8_t>> r;
    for (auto& kv : net->getSessionOutputAll(session)) {
        const uint8_t* p = kv.second->host<uint8_t>();
        r.emplace_back(p, p + kv.second->size());
    }
    return r;
}

void expectAllocationFree(ModelBuilder& mb, const char* what, int threads = 1) {
    SCOPED_TRACE(what);
    auto buf = mb.finish();
    std::unique_ptr<Interpreter, SessionDeleter> net(Interpreter::createFromBuffer(buf.data(), buf.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    config.numThread = threads;
    auto session = net->createSession(config);
    ASSERT_NE(session, nullptr);
    fillInputs(net.get(), session);
    ASSERT_EQ(net->runSession(session), NO_ERROR);  // the first run may build value-dependent plans
    auto first = outputBytes(net.get(), session);
    const long n = allocationsOfRuns(net.get(), session, 3);
    ASSERT_GE(n, 0) << "a later runSession failed";
    EXPECT_EQ(n, 0) << what << ": runSession allocated " << n
                    << " times in 3 runs: " << opsThatAllocate(net.get(), session);
    EXPECT_TRUE(first == outputBytes(net.get(), session)) << what << ": a later run changed the outputs";
}

#define REQUIRE_COUNTING()                                                        \
    do {                                                                          \
        if (!kCounting) {                                                         \
            GTEST_SKIP() << "allocation counting needs glibc without sanitizers"; \
        }                                                                         \
        MNN_SKIP_UNDER_VALGRIND();                                                \
    } while (0)
#ifdef MNN_COUNT_ALLOCATIONS
const bool kCounting = true;
#else
const bool kCounting = false;
#endif

}  // namespace

TEST(AllocationFreeOps, ArgMaxCumSumEinsum) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    mb.input("x", {3, 4, 5});
    mb.input("m", {5, 2});
    mb.constantInt64("axis", {}, {1});
    Schema::ArgParamT ap;
    ap.axis = 1;
    mb.op(Schema::OpType::ArgMax, "argmax", {"x"}, {"am"})->param.Set(ap);
    ap.axis = -1;
    ap.isMin = true;
    ap.selectLastIndex = true;
    mb.op(Schema::OpType::ArgMax, "argmin", {"x"}, {"an"})->param.Set(ap);
    Schema::AxisParamT cp;
    cp.exclusive = true;
    cp.reverse = true;
    mb.op(Schema::OpType::CumSum, "cumsum", {"x", "axis"}, {"cs"})->param.Set(cp);
    Schema::EinsumParamT ep;
    ep.equation = "bij,jk->bik";
    mb.op(Schema::OpType::Einsum, "einsum", {"x", "m"}, {"e"})->param.Set(ep);
    ep.equation = "bij,bij,jk->k";
    mb.op(Schema::OpType::Einsum, "einsum3", {"x", "x", "m"}, {"e3"})->param.Set(ep);
    for (auto o : {"am", "an", "cs", "e", "e3"}) {
        mb.output(o);
    }
    expectAllocationFree(mb, "ArgMax / ArgMin / CumSum / Einsum");
}

TEST(AllocationFreeOps, Col2ImMaxUnpoolGridSample) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    // Col2Im: [1, 2 * 2 * 2, 4] -> [1, 2, 3, 3] with 2x2 blocks
    mb.input("cols", {1, 8, 4});
    mb.constantInt64("image", {2}, {3, 3});
    mb.constantInt64("block", {2}, {2, 2});
    mb.op(Schema::OpType::Col2Im, "col2im", {"cols", "image", "block"}, {"img"})->param.Set(Schema::ConvParamT());
    // MaxUnpool 2x2 stride 2 of [1, 1, 2, 2] into [1, 1, 4, 4]
    mb.input("px", {1, 1, 2, 2});
    mb.constantInt64("pi", {1, 1, 2, 2}, {0, 3, 9, 14});
    Schema::PoolParamT pp;
    pp.kernel = {2, 2};
    pp.strides = {2, 2};
    mb.op(Schema::OpType::MaxUnpool, "unpool", {"px", "pi"}, {"up"})->param.Set(pp);
    // GridSample in every mode
    mb.input("gx", {1, 2, 4, 5});
    mb.input("grid", {1, 3, 2, 2});
    for (int mode = 0; mode < 3; ++mode) {
        Schema::GridSampleParamT gp;
        gp.mode = mode;
        gp.paddingMode = mode;
        gp.alignCorners = mode == 1;
        std::string y = "gs" + std::to_string(mode);
        mb.op(Schema::OpType::GridSample, y, {"gx", "grid"}, {y})->param.Set(gp);
        mb.output(y);
    }
    mb.output("img");
    mb.output("up");
    expectAllocationFree(mb, "Col2Im / MaxUnpool / GridSample");
}

TEST(AllocationFreeOps, LocalNormalizations) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    mb.input("x", {2, 5, 3, 3});
    Schema::LrnParamT lp;
    lp.size = 3;
    lp.alpha = 0.01f;
    mb.op(Schema::OpType::LRN, "lrn", {"x"}, {"lrn"})->param.Set(lp);
    Schema::NormParamT np;
    np.axis = 1;
    np.p = 2;
    mb.op(Schema::OpType::LpNormalization, "lp2", {"x"}, {"lp2"})->param.Set(np);
    np.axis = -1;
    np.p = 1;
    mb.op(Schema::OpType::LpNormalization, "lp1", {"x"}, {"lp1"})->param.Set(np);
    Schema::NormParamT mp;
    mp.axes = {0, 2, 3};
    mb.op(Schema::OpType::MeanVarianceNormalization, "mvn", {"x"}, {"mvn"})->param.Set(mp);
    for (auto o : {"lrn", "lp2", "lp1", "mvn"}) {
        mb.output(o);
    }
    expectAllocationFree(mb, "LRN / LpNormalization / MeanVarianceNormalization");
}

TEST(AllocationFreeOps, VariadicMeanWhereOneHot) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    mb.input("a", {3, 4});
    mb.input("b", {1, 4});
    mb.input("c", {3, 1});
    for (auto t : {Schema::BinaryOpType::MEAN, Schema::BinaryOpType::ADD, Schema::BinaryOpType::MAXIMUM,
                   Schema::BinaryOpType::MINIMUM}) {
        Schema::BinaryParamT p;
        p.type = t;
        std::string y = std::string("mean") + Schema::EnumNameBinaryOpType(t);
        mb.op(Schema::OpType::Mean, y, {"a", "b", "c"}, {y})->param.Set(p);
        mb.output(y);
    }
    const uint8_t cond[3] = {1, 0, 1};
    mb.constantRaw("cond", {3, 1}, Schema::DataType::DT_BOOL, cond, sizeof(cond));
    mb.op(Schema::OpType::Where, "where", {"cond", "b", "a"}, {"w"});
    mb.output("w");
    mb.constantInt64("idx", {2, 3}, {0, 2, -1, 3, 1, 4});
    mb.constantInt64("depth", {}, {4});
    mb.constant("onoff", {2}, {-1, 5});
    for (int axis : {-1, 0, 1}) {
        Schema::AxisParamT p;
        p.axis = axis;
        std::string y = "onehot" + std::to_string(axis + 1);
        mb.op(Schema::OpType::OneHot, y, {"idx", "depth", "onoff"}, {y})->param.Set(p);
        mb.output(y);
    }
    expectAllocationFree(mb, "Mean / Sum / Max / Min / Where / OneHot");
}

TEST(AllocationFreeOps, CompressReverseSequenceNonZero) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    mb.input("x", {4, 3, 2});
    const uint8_t keep[4] = {1, 0, 1, 1};
    mb.constantRaw("keep", {4}, Schema::DataType::DT_BOOL, keep, sizeof(keep));
    Schema::AxisParamT cp;
    cp.axes = {0};
    mb.op(Schema::OpType::Compress, "compress", {"x", "keep"}, {"cmp"})->param.Set(cp);
    mb.op(Schema::OpType::Compress, "compressflat", {"x", "keep"}, {"cmpf"})->param.Set(Schema::AxisParamT());
    mb.constantInt64("lens", {3}, {4, 1, 2});
    Schema::AxisParamT rp;
    rp.axis = 0;
    rp.batchDims = 1;
    mb.op(Schema::OpType::ReverseSequence, "reverse", {"x", "lens"}, {"rev"})->param.Set(rp);
    // NonZero's row count depends on values (the documented exception): with the values unchanged
    // between runs its plan stays and the run allocates nothing
    mb.constant("nz", {2, 3}, {0, 1, 0, 2, 0, 3});
    mb.op(Schema::OpType::NonZero, "nonzero", {"nz"}, {"nzi"});
    for (auto o : {"cmp", "cmpf", "rev", "nzi"}) {
        mb.output(o);
    }
    expectAllocationFree(mb, "Compress / ReverseSequence / NonZero");
}

TEST(AllocationFreeOps, ResizeEveryMode) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    mb.input("x", {1, 2, 4, 5});
    mb.constant("scales", {4}, {1, 1, 1.5f, 0.6f});
    mb.constantInt64("sizes", {4}, {1, 2, 7, 3});
    mb.constant("roi", {8}, {0, 0, 0.1f, 0.2f, 1, 1, 0.9f, 0.7f});
    int k = 0;
    for (auto mode : {Schema::ResizeMode::NEAREST, Schema::ResizeMode::LINEAR, Schema::ResizeMode::CUBIC}) {
        for (bool sizes : {false, true}) {
            Schema::ResizeParamT p;
            p.mode = mode;
            p.antialias = mode != Schema::ResizeMode::NEAREST && !sizes;
            p.coordTransform = sizes ? Schema::CoordTransform::ALIGN_CORNERS : Schema::CoordTransform::HALF_PIXEL;
            std::string y = "r" + std::to_string(k++);
            mb.op(Schema::OpType::Resize, y, {"x", "", sizes ? "" : "scales", sizes ? "sizes" : ""}, {y})->param.Set(p);
            mb.output(y);
        }
    }
    Schema::ResizeParamT crop;
    crop.mode = Schema::ResizeMode::LINEAR;
    crop.coordTransform = Schema::CoordTransform::TF_CROP_AND_RESIZE;
    crop.extrapolationValue = 7;
    mb.op(Schema::OpType::Resize, "crop", {"x", "roi", "", "sizes"}, {"crop"})->param.Set(crop);
    mb.output("crop");
    expectAllocationFree(mb, "Resize with constant roi / scales / sizes");
}

TEST(AllocationFreeOps, ResizeWithComputedSizes) {
    REQUIRE_COUNTING();
    // sizes computed by ops at run time (Shape -> Mul): the taps are built at the first run and kept
    // while the values stay the same
    ModelBuilder mb;
    mb.input("x", {1, 2, 3, 4});
    mb.op(Schema::OpType::Shape, "shape", {"x"}, {"s"});
    mb.constantInt64("two", {4}, {1, 1, 2, 2});
    Schema::BinaryParamT mul;
    mul.type = Schema::BinaryOpType::MUL;
    mb.op(Schema::OpType::BinaryOp, "double", {"s", "two"}, {"sizes"})->param.Set(mul);
    Schema::ResizeParamT p;
    p.mode = Schema::ResizeMode::LINEAR;
    mb.op(Schema::OpType::Resize, "resize", {"x", "", "", "sizes"}, {"y"})->param.Set(p);
    mb.output("y");
    expectAllocationFree(mb, "Resize with computed sizes");
}

TEST(AllocationFreeOps, RecurrentLayers) {
    REQUIRE_COUNTING();
    const int seq = 3, batch = 2, in = 4, H = 3;
    ModelBuilder mb;
    mb.input("x", {seq, batch, in});
    mb.constantInt32("lens", {batch}, {3, 2});
    struct Kind {
        Schema::OpType type;
        int gates;
        const char* name;
    };
    for (auto kind : {Kind{Schema::OpType::LSTM, 4, "lstm"}, Kind{Schema::OpType::GRU, 3, "gru"},
                      Kind{Schema::OpType::RNN, 1, "rnn"}}) {
        const int G = kind.gates;
        std::string n = kind.name;
        mb.constant(n + "W", {2, G * H, in}, randomFloats(2 * G * H * in, 21));
        mb.constant(n + "R", {2, G * H, H}, randomFloats(2 * G * H * H, 22));
        mb.constant(n + "B", {2, 2 * G * H}, randomFloats(2 * 2 * G * H, 23));
        mb.constant(n + "h0", {2, batch, H}, randomFloats(2 * batch * H, 24));
        Schema::RnnParamT p;
        p.hiddenSize = H;
        p.direction = Schema::RnnDirection::BIDIRECTIONAL;
        p.linearBeforeReset = kind.type == Schema::OpType::GRU;
        mb.op(kind.type, n, {"x", n + "W", n + "R", n + "B", "lens", n + "h0"}, {n + "Y", n + "Yh"})->param.Set(p);
        mb.output(n + "Y");
        mb.output(n + "Yh");
    }
    expectAllocationFree(mb, "LSTM / GRU / RNN");
}

TEST(AllocationFreeOps, AttentionRotaryRoiAlign) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    // Attention 4-D: Q [1, 2, 3, 4], K / V [1, 2, 5, 4], causal, float mask
    mb.input("q", {1, 2, 3, 4});
    mb.input("k", {1, 2, 5, 4});
    mb.input("v", {1, 2, 5, 4});
    mb.constant("mask", {3, 5}, randomFloats(15, 31));
    Schema::AttentionParamT ap;
    ap.isCausal = true;
    mb.op(Schema::OpType::Attention, "attention", {"q", "k", "v", "mask"}, {"att"})->param.Set(ap);
    // RotaryEmbedding [B, H, S, head] with position ids
    mb.input("rx", {1, 2, 3, 4});
    mb.constant("cos", {6, 2}, randomFloats(12, 32));
    mb.constant("sin", {6, 2}, randomFloats(12, 33));
    mb.constantInt64("pos", {1, 3}, {5, 0, 2});
    mb.op(Schema::OpType::RotaryEmbedding, "rotary", {"rx", "cos", "sin", "pos"}, {"rot"})
        ->param.Set(Schema::AttentionParamT());
    // RoiAlign avg and max
    mb.input("img", {2, 2, 6, 6});
    mb.constant("rois", {2, 4}, {0.5f, 0.5f, 4.0f, 3.0f, 1.0f, 0.0f, 5.5f, 5.5f});
    mb.constantInt64("bi", {2}, {1, 0});
    for (int mode : {0, 1}) {
        Schema::RoiAlignParamT rp;
        rp.mode = mode;
        rp.outputHeight = 2;
        rp.outputWidth = 3;
        std::string y = "roi" + std::to_string(mode);
        mb.op(Schema::OpType::RoiAlign, y, {"img", "rois", "bi"}, {y})->param.Set(rp);
        mb.output(y);
    }
    mb.output("att");
    mb.output("rot");
    expectAllocationFree(mb, "Attention / RotaryEmbedding / RoiAlign");
}

TEST(AllocationFreeOps, NonMaxSuppression) {
    REQUIRE_COUNTING();
    // the selected row count depends on the values (the documented exception); the selection's
    // working memory is sized at resize, so runs with unchanged values allocate nothing
    ModelBuilder mb;
    mb.constant("boxes", {1, 5, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 0.9f, 1, 1.9f, 0, 10, 1, 11, 0, 10.1f, 1, 11.1f});
    mb.constant("scores", {1, 2, 5}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f, 0.3f, 0.8f, 0.1f, 0.2f});
    mb.constantInt64("maxout", {1}, {3});
    mb.constant("iou", {1}, {0.5f});
    mb.constant("score", {1}, {0.15f});
    mb.op(Schema::OpType::NonMaxSuppression, "nms", {"boxes", "scores", "maxout", "iou", "score"}, {"sel"})
        ->param.Set(Schema::NmsParamT());
    mb.output("sel");
    expectAllocationFree(mb, "NonMaxSuppression");
}

TEST(AllocationFreeOps, TwoThreads) {
    REQUIRE_COUNTING();
    // the same kernels through the worker pool
    ModelBuilder mb;
    mb.input("x", {2, 5, 3, 3});
    mb.input("g", {2, 4, 4, 2});
    Schema::LrnParamT lp;
    lp.size = 3;
    mb.op(Schema::OpType::LRN, "lrn", {"x"}, {"lrn"})->param.Set(lp);
    mb.op(Schema::OpType::GridSample, "gs", {"lrn", "g"}, {"gs"})->param.Set(Schema::GridSampleParamT());
    mb.output("gs");
    expectAllocationFree(mb, "LRN -> GridSample on 2 threads", 2);
}

TEST(AllocationFreeOps, IndexOpsAndComputedParameters) {
    REQUIRE_COUNTING();
    ModelBuilder mb;
    mb.input("x", {3, 4});
    mb.input("y", {2, 3, 4});
    mb.input("x1", {3, 1});
    mb.input("w", {1});
    // Gather / GatherElements / GatherND / ScatterND / ScatterElements (add)
    mb.constantInt64("gi", {2}, {2, 0});
    Schema::AxisParamT axis0;
    mb.op(Schema::OpType::Gather, "gather", {"x", "gi"}, {"g"})->param.Set(axis0);
    Schema::AxisParamT axis1;
    axis1.axis = 1;
    mb.constantInt64("ei", {3, 2}, {0, 3, 1, 1, 2, 0});
    mb.op(Schema::OpType::GatherElements, "gel", {"x", "ei"}, {"ge"})->param.Set(axis1);
    mb.constantInt64("ni", {2, 2}, {0, 1, 2, 3});
    mb.op(Schema::OpType::GatherND, "gnd", {"x", "ni"}, {"gn"})->param.Set(Schema::AxisParamT());
    mb.constantInt64("si", {1, 1}, {1});
    mb.constant("su", {1, 4}, {9, 8, 7, 6});
    mb.op(Schema::OpType::ScatterND, "snd", {"x", "si", "su"}, {"sn"})->param.Set(Schema::AxisParamT());
    mb.constantInt64("sei", {1, 2}, {0, 3});
    mb.constant("seu", {1, 2}, {5, -5});
    Schema::AxisParamT add = axis1;
    add.reduction = 1;
    mb.op(Schema::OpType::ScatterElements, "sel", {"x", "sei", "seu"}, {"se"})->param.Set(add);
    // Transpose; Expand / Pad / Reduce whose parameters are computed by Shape (and Concat) at run time
    Schema::TransposeParamT tp;
    tp.perm = {2, 0, 1};
    mb.op(Schema::OpType::Transpose, "transpose", {"y"}, {"t"})->param.Set(tp);
    mb.op(Schema::OpType::Shape, "shapey", {"y"}, {"sy"});
    mb.op(Schema::OpType::Expand, "expand", {"x1", "sy"}, {"ex"});
    mb.op(Schema::OpType::Shape, "shapex", {"x"}, {"sx"});
    mb.op(Schema::OpType::Concat, "pads", {"sx", "sx"}, {"pads"})->param.Set(axis0);
    Schema::PadParamT pp;
    pp.mode = Schema::PadType::EDGE;
    mb.op(Schema::OpType::Pad, "pad", {"x", "pads"}, {"pd"})->param.Set(pp);
    mb.op(Schema::OpType::Shape, "shapew", {"w"}, {"axes"});
    Schema::ReduceParamT rp;
    rp.type = Schema::ReduceType::SUM;
    mb.op(Schema::OpType::Reduce, "reduce", {"y", "axes"}, {"rd"})->param.Set(rp);
    for (auto o : {"g", "ge", "gn", "sn", "se", "t", "ex", "pd", "rd"}) {
        mb.output(o);
    }
    expectAllocationFree(mb, "Gather* / Scatter* / Transpose / Expand, Pad, Reduce with computed parameters");
}

TEST(AllocationFreeOps, PackedChannelGather) {
    REQUIRE_COUNTING();
    // a ShuffleNet block on the packed layout: Slice halves, Concat of unaligned parts, ChannelShuffle
    auto conv = [](ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out,
                   int cin, int cout, unsigned seed) {
        mb.constant(name + "_w", {cout, cin, 1, 1}, randomFloats((size_t)cout * cin, seed));
        auto op = mb.op(Schema::OpType::Convolution, name, {in, name + "_w"}, {out});
        Schema::ConvParamT p;
        p.kernel = {1, 1};
        p.strides = {1, 1};
        p.dilations = {1, 1};
        p.pads = {0, 0, 0, 0};
        op->param.Set(p);
    };
    auto slice = [](ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out,
                    int start, int end) {
        mb.constantInt64(name + "_s", {1}, {start});
        mb.constantInt64(name + "_e", {1}, {end});
        mb.constantInt64(name + "_a", {1}, {1});
        mb.op(Schema::OpType::Slice, name, {in, name + "_s", name + "_e", name + "_a"}, {out});
    };
    for (int threads : {1, 2}) {
        ModelBuilder mb;
        mb.input("x", {1, 3, 6, 5});
        conv(mb, "c1", "x", "t", 3, 58, 1);
        slice(mb, "lo", "t", "a", 0, 29);
        slice(mb, "hi", "t", "b", 29, 58);
        conv(mb, "c2", "b", "bo", 29, 29, 2);
        Schema::AxisParamT ap;
        ap.axis = 1;
        mb.op(Schema::OpType::Concat, "cat", {"a", "bo"}, {"m"})->param.Set(ap);
        Schema::ChannelShuffleParamT sp;
        sp.group = 2;
        mb.op(Schema::OpType::ChannelShuffle, "sh", {"m"}, {"u"})->param.Set(sp);
        conv(mb, "c3", "u", "y", 58, 4, 3);
        mb.output("y");
        expectAllocationFree(mb, "packed Slice / Concat / ChannelShuffle", threads);
    }
}
