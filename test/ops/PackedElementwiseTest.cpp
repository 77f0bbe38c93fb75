// Packed-layout BinaryOp with a per-channel operand (squeeze-excite style) and Concat along
// channels, inside graphs whose tensors the Session keeps packed, against plain reference runs.
#include "PackedTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

void setBinary(Schema::OpT* op, Schema::BinaryOpType t) {
    Schema::BinaryParamT p;
    p.type = t;
    op->param.Set(p);
}

// x -> conv (c -> 40) -> t1 ; t1 -> conv over the whole plane -> s [n, 40, 1, 1] -> sigmoid -> g
// op(t1, g) or op(g, t1) -> m -> conv -> y
std::vector<uint8_t> channelBinaryModel(int n, int h, int w, Schema::BinaryOpType type, bool smallFirst) {
    ModelBuilder mb;
    mb.input("x", {n, 12, h, w});
    addConv(mb, "c1", "x", "t1", 12, 40, 3, 3, 1, 1, 1, 3);
    addConv(mb, "c2", "t1", "s", 40, 40, h, w, 1, 0, 1, 5);
    auto unary = [&](const std::string& name, const std::string& in, const std::string& out, Schema::UnaryOpType t) {
        Schema::UnaryParamT up;
        up.type = t;
        mb.op(Schema::OpType::UnaryOp, name, {in}, {out})->param.Set(up);
    };
    unary("sig", "s", "g", Schema::UnaryOpType::SIGMOID);
    std::string big = "t1", small = "g";
    if (type == Schema::BinaryOpType::DIV) {
        // divisors in (1, e): exp(sigmoid(.)) keeps the quotient well conditioned
        unary("sig_big", "t1", "t1s", Schema::UnaryOpType::SIGMOID);
        unary("exp_big", "t1s", "t1e", Schema::UnaryOpType::EXP);
        unary("exp_small", "g", "ge", Schema::UnaryOpType::EXP);
        big = "t1e";
        small = "ge";
    }
    setBinary(mb.op(Schema::OpType::BinaryOp, "bin", {smallFirst ? small : big, smallFirst ? big : small}, {"m"}),
              type);
    addConv(mb, "c3", "m", "y", 40, 9, 1, 1, 1, 0, 1, 7);
    mb.output("y");
    return mb.finish();
}

// three convs with 16, 17 and 24 channels (or 16 and 32) concatenated, then a conv
std::vector<uint8_t> concatModel(int n, int h, int w, bool aligned) {
    ModelBuilder mb;
    mb.input("x", {n, 5, h, w});
    std::vector<int> widths = aligned ? std::vector<int>{16, 32} : std::vector<int>{16, 17, 24};
    std::vector<std::string> parts;
    int total = 0;
    for (size_t i = 0; i < widths.size(); ++i) {
        std::string name = "p" + std::to_string(i);
        addConv(mb, "c" + name, "x", name, 5, widths[i], 3, 3, 1, 1, 1, 20 + (unsigned)i);
        parts.push_back(name);
        total += widths[i];
    }
    auto cat = mb.op(Schema::OpType::Concat, "cat", parts, {"cat_out"});
    Schema::AxisParamT ap;
    ap.axis = 1;
    cat->param.Set(ap);
    addConv(mb, "cy", "cat_out", "y", total, 6, 1, 1, 1, 0, 1, 40);
    mb.output("y");
    return mb.finish();
}

}  // namespace

TEST(PackedElementwise, PerChannelBinaryOpsInBothOrders) {
    using B = Schema::BinaryOpType;
    for (auto type : {B::MUL, B::ADD, B::SUB, B::DIV, B::MAXIMUM, B::MINIMUM}) {
        for (bool smallFirst : {false, true}) {
            for (int n : {1, 2}) {
                SCOPED_TRACE(testing::Message() << "op " << (int)type << " small first " << smallFirst << " n " << n);
                auto model = channelBinaryModel(n, 6, 7, type, smallFirst);
                expectPackedMatchesReference(model, {n, 12, 6, 7}, {"t1", "g", "m"}, "bin", "packed-binary-channel",
                                             77);
            }
        }
    }
}

TEST(PackedElementwise, ConcatAlongChannelsAlignedAndNot) {
    for (bool aligned : {true, false}) {
        for (int n : {1, 2}) {
            SCOPED_TRACE(testing::Message() << "aligned " << aligned << " n " << n);
            auto model = concatModel(n, 5, 9, aligned);
            if (aligned && n == 1) {
                // whole-block parts of one image are written in place (ConcatInPlaceTest.cpp); the copy
                // kernel runs with the views turned off
                expectPackedMatchesReference(model, {n, 5, 5, 9}, {"p0", "p1", "cat_out"}, "cat",
                                             SessionIntrospect::kInPlaceConcat, 77);
                setenv("MNN_CONCAT_VIEWS", "0", 1);
            }
            expectPackedMatchesReference(model, {n, 5, 5, 9}, {"p0", "p1", "cat_out"}, "cat", "packed-concat", 77);
            unsetenv("MNN_CONCAT_VIEWS");
        }
    }
}
