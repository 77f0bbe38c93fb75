// Concats the Session runs in place (Session::planConcatViews): the producers of a Concat's inputs
// write into its output when each input is read by the Concat alone and lies in the output as one
// contiguous byte range. Checked against the plain reference kernels on every ISA tier at 1-3
// threads, with the cases that must keep the copy (batch 2, an input read twice, an input that is
// a graph output, an unaligned packed offset, MNN_CONCAT_VIEWS=0), nested Concats, plain layouts,
// a resize from batch 1 to 2 and back, and the activation memory saved.
#include "PackedTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

void addConcat(ModelBuilder& mb, const std::string& name, const std::vector<std::string>& in, const std::string& out,
               int axis = 1) {
    Schema::AxisParamT ap;
    ap.axis = axis;
    mb.op(Schema::OpType::Concat, name, in, {out})->param.Set(ap);
}

/**
 * x [n, 3, h, w] -> a conv per width -> concat "cat" -> 1x1 conv -> y; extra: "readTwice" adds
 * p0 + p0 as a second output path (p0 then has two readers), "outputPart" makes p0 a graph output
 */
std::vector<uint8_t> concatModel(const std::vector<int>& widths, bool readTwice = false, bool outputPart = false) {
    ModelBuilder mb;
    mb.input("x", {1, 3, 6, 5});
    std::vector<std::string> parts;
    int total = 0;
    for (size_t i = 0; i < widths.size(); ++i) {
        const std::string p = "p" + std::to_string(i);
        addConv(mb, "c" + p, "x", p, 3, widths[i], 3, 3, 1, 1, 1, 40 + (unsigned)i, Schema::FusedActivation::RELU);
        parts.push_back(p);
        total += widths[i];
    }
    addConcat(mb, "cat", parts, "u");
    addConv(mb, "c2", "u", "y", total, 7, 1, 1, 1, 0, 1, 9);
    mb.output("y");
    if (readTwice) {
        Schema::BinaryParamT bp;
        bp.type = Schema::BinaryOpType::ADD;
        mb.op(Schema::OpType::BinaryOp, "twice", {"p0", "p0"}, {"z"})->param.Set(bp);
        mb.output("z");
    }
    if (outputPart) {
        mb.output("p0");
    }
    return mb.finish();
}

/**
 * the Concat ("cat") runs in place or keeps its copy (the packed copy kernel, or the plain reference
 * one), and the outputs match the reference on every tier at 1-3 threads
 */
void expectConcat(const std::vector<uint8_t>& model, int n, const char* layout, bool inPlace, unsigned seed) {
    const bool packed = strcmp(layout, "packed") == 0;
    const char* algorithm = inPlace ? SessionIntrospect::kInPlaceConcat : packed ? "packed-concat" : "reference";
    expectPackedMatchesReference(model, {n, 3, 6, 5},
                                 packed ? std::vector<std::string>{"u"} : std::vector<std::string>{}, "cat", algorithm,
                                 seed, layout);
}

}  // namespace

TEST(ConcatInPlace, PackedPartsOnWholeBlocks) {
    // every part but the last a multiple of 16 channels: the producers write the concatenation
    for (auto widths : std::vector<std::vector<int>>{{16, 32, 48}, {32, 20}, {16, 16, 5}}) {
        SCOPED_TRACE(testing::Message() << "parts " << widths.size() << " first " << widths[0]);
        expectConcat(concatModel(widths), 1, "packed", true, 11);
    }
}

TEST(ConcatInPlace, KeepsTheCopyWhereAViewCannotBe) {
    // a part not starting on a block, batch 2 (an image's part is not contiguous), a part read by
    // another op too, a part that is a graph output
    expectConcat(concatModel({20, 16}), 1, "packed", false, 12);
    expectConcat(concatModel({16, 32}), 2, "packed", false, 13);
    expectConcat(concatModel({16, 32}, true), 1, "packed", false, 14);
    expectConcat(concatModel({16, 32}, false, true), 1, "packed", false, 15);
    setenv("MNN_CONCAT_VIEWS", "0", 1);
    expectConcat(concatModel({16, 32}), 1, "packed", false, 16);
    unsetenv("MNN_CONCAT_VIEWS");
}

TEST(ConcatInPlace, PlainLayoutAtAlignedOffsets) {
    // NCHW at batch 1: a part of c channels is c * 30 floats; offsets of 32 channels are 64-byte
    // aligned (in place), of 20 channels not (2400 bytes: kept)
    expectConcat(concatModel({32, 8}), 1, "plain", true, 17);
    expectConcat(concatModel({20, 8}), 1, "plain", false, 18);
}

TEST(ConcatInPlace, NestedConcatsAndResize) {
    // cat1 (in place) feeds cat2 with p2: cat2 keeps its copy (an input made by an in-place Concat)
    ModelBuilder mb;
    mb.input("x", {1, 3, 6, 5});
    addConv(mb, "c0", "x", "p0", 3, 16, 3, 3, 1, 1, 1, 50);
    addConv(mb, "c1", "x", "p1", 3, 16, 1, 1, 1, 0, 1, 51);
    addConv(mb, "c2", "x", "p2", 3, 32, 3, 3, 1, 1, 1, 52);
    addConcat(mb, "cat1", {"p0", "p1"}, "q");
    addConcat(mb, "cat", {"q", "p2"}, "u");
    addConv(mb, "c3", "u", "y", 64, 7, 1, 1, 1, 0, 1, 9);
    mb.output("y");
    const auto model = mb.finish();
    expectConcat(model, 1, "packed", false, 19);
    auto x1 = makeTensor({1, 3, 6, 5}, randomFloats(90, 20));
    auto r = runWithLayout(model, {{"x", x1.get()}}, "packed", 2);
    EXPECT_EQ(r.algorithms["cat1"], SessionIntrospect::kInPlaceConcat);

    // one session resized from batch 1 to 2 and back: views planned, dropped, planned again
    auto x2 = makeTensor({2, 3, 6, 5}, randomFloats(180, 21));
    auto ref1 = runWithLayout(model, {{"x", x1.get()}}, "plain", 1, "reference");
    auto ref2 = runWithLayout(model, {{"x", x2.get()}}, "plain", 1, "reference");
    setenv("MNN_LAYOUT", "packed", 1);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    config.numThread = 2;
    Session* session = net->createSession(config);
    unsetenv("MNN_LAYOUT");
    ASSERT_NE(session, nullptr);
    for (const Tensor* x : {x1.get(), x2.get(), x1.get()}) {
        auto in = net->getSessionInput(session, "x");
        net->resizeTensor(in, x->shape());
        net->resizeSession(session);
        in->copyFromHostTensor(x);
        ASSERT_EQ(net->runSession(session), NO_ERROR);
        const bool one = x->length(0) == 1;
        EXPECT_EQ(SessionIntrospect::algorithmOf(session, "cat1") == std::string(SessionIntrospect::kInPlaceConcat),
                  one);
        auto out = net->getSessionOutput(session, "y");
        Tensor host(out, Tensor::CAFFE, true);
        out->copyToHostTensor(&host);
        const auto& want = (one ? ref1 : ref2).outputs["y"];
        ASSERT_EQ((size_t)host.elementSize(), want.size());
        double worst = 0.0;
        for (size_t i = 0; i < want.size(); ++i) {
            worst = std::max(worst, (double)std::fabs(host.host<float>()[i] - want[i]));
        }
        EXPECT_LT(worst, 1e-4) << "batch " << x->length(0);
    }
}

TEST(ConcatInPlace, SavesTheCopiedParts) {
    // the parts live inside the concatenation: the plan needs less activation memory than with copies
    const auto model = concatModel({64, 64, 64});
    auto planned = [&](const char* views) {
        setenv("MNN_CONCAT_VIEWS", views, 1);
        setenv("MNN_LAYOUT", "packed", 1);
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
        ScheduleConfig config;
        Session* session = net->createSession(config);
        unsetenv("MNN_LAYOUT");
        unsetenv("MNN_CONCAT_VIEWS");
        return session ? SessionIntrospect::activationBytes(session) : (int64_t)-1;
    };
    const int64_t copies = planned("0"), views = planned("1");
    ASSERT_GT(views, 0);
    // copies: the three parts of 64 x 30 floats live beside the 192-channel output while it is
    // copied; views: the output alone, and y (840 bytes) after it instead of in the parts' place
    EXPECT_LE(views, copies - 3 * 64 * 30 * 4 + 1024) << views << " " << copies;
}
