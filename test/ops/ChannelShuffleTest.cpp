// ChannelShuffle (reference kernel, plain layout): against the unfused Reshape [N, g, C/g, H, W] ->
// Transpose 0,2,1,3,4 -> Reshape chain run by the engine's reference kernels, and bad shapes.
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
void addShuffle(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out, int group) {
    Schema::ChannelShuffleParamT p;
    p.group = group;
    mb.op(Schema::OpType::ChannelShuffle, name, {in}, {out})->param.Set(p);
}
}  // namespace

// the reference ChannelShuffle against Reshape [N, g, C/g, H, W] -> Transpose 0,2,1,3,4 -> Reshape
TEST(ChannelShuffle, MatchesUnfusedReshapeTranspose) {
    struct Case {
        int n, c, h, w, group;
    };
    for (auto k :
         std::vector<Case>{{1, 6, 2, 3, 2}, {2, 12, 3, 1, 3}, {1, 116, 2, 2, 2}, {1, 5, 1, 1, 5}, {2, 8, 0, 3, 4}}) {
        SCOPED_TRACE(testing::Message() << "c " << k.c << " group " << k.group);
        ModelBuilder fused;
        fused.input("x", {k.n, k.c, k.h, k.w});
        addShuffle(fused, "sh", "x", "y", k.group);
        fused.output("y");
        ModelBuilder plain;
        plain.input("x", {k.n, k.c, k.h, k.w});
        plain.constantInt64("s5", {5}, {k.n, k.group, k.c / k.group, k.h, k.w});
        plain.constantInt64("s4", {4}, {k.n, k.c, k.h, k.w});
        Schema::ReshapeParamT rp;
        rp.allowZero = true;  // zero-size dims are dims, not "copy"
        plain.op(Schema::OpType::Reshape, "r1", {"x", "s5"}, {"r"})->param.Set(rp);
        Schema::TransposeParamT tp;
        tp.perm = {0, 2, 1, 3, 4};
        plain.op(Schema::OpType::Transpose, "tr", {"r"}, {"t"})->param.Set(tp);
        plain.op(Schema::OpType::Reshape, "r2", {"t", "s4"}, {"y"})->param.Set(rp);
        plain.output("y");
        const size_t count = (size_t)k.n * k.c * k.h * k.w;
        auto x = makeTensor({k.n, k.c, k.h, k.w}, randomFloats(count, 3));
        auto a = runModel(fused.finish(), {{"x", x.get()}});
        auto b = runModel(plain.finish(), {{"x", x.get()}});
        ASSERT_EQ(a.code, NO_ERROR);
        ASSERT_EQ(b.code, NO_ERROR);
        auto ya = a.outputs["y"], yb = b.outputs["y"];
        ASSERT_EQ(ya->shape(), yb->shape());
        for (size_t i = 0; i < count; ++i) {
            ASSERT_EQ(ya->host<float>()[i], yb->host<float>()[i]) << i;
        }
    }
}

// several inputs and outputs against Concat -> ChannelShuffle -> one Slice per equal part
TEST(ChannelShuffle, SeveralInputsAndOutputsMatchConcatShuffleSlices) {
    struct Case {
        int n, h, w;
        std::vector<int> widths;
        int group, outs;
    };
    for (auto k : std::vector<Case>{{1, 2, 3, {3, 3}, 2, 2}, {2, 3, 1, {5, 1, 6}, 3, 3}, {1, 2, 2, {58, 58}, 2, 2},
                                    {1, 1, 4, {4}, 2, 4}, {2, 2, 2, {6, 2}, 4, 1}}) {
        SCOPED_TRACE(testing::Message() << "inputs " << k.widths.size() << " group " << k.group << " outs " << k.outs);
        int total = 0;
        for (int c : k.widths) {
            total += c;
        }
        ModelBuilder fused, plain;
        std::vector<std::string> ins, outs;
        for (size_t i = 0; i < k.widths.size(); ++i) {
            ins.push_back("x" + std::to_string(i));
            fused.input(ins.back(), {k.n, k.widths[i], k.h, k.w});
            plain.input(ins.back(), {k.n, k.widths[i], k.h, k.w});
        }
        for (int m = 0; m < k.outs; ++m) {
            outs.push_back("y" + std::to_string(m));
        }
        Schema::ChannelShuffleParamT sp;
        sp.group = k.group;
        fused.op(Schema::OpType::ChannelShuffle, "sh", ins, outs)->param.Set(sp);
        Schema::AxisParamT ap;
        ap.axis = 1;
        plain.op(Schema::OpType::Concat, "cat", ins, {"c"})->param.Set(ap);
        addShuffle(plain, "sh", "c", "s", k.group);
        const int part = total / k.outs;
        for (int m = 0; m < k.outs; ++m) {
            const std::string id = std::to_string(m);
            plain.constantInt64("st" + id, {1}, {m * part});
            plain.constantInt64("en" + id, {1}, {(m + 1) * part});
            plain.constantInt64("ax" + id, {1}, {1});
            plain.op(Schema::OpType::Slice, "sl" + id, {"s", "st" + id, "en" + id, "ax" + id}, {outs[(size_t)m]});
        }
        for (auto& o : outs) {
            fused.output(o);
            plain.output(o);
        }
        std::map<std::string, const Tensor*> feed;
        std::vector<std::unique_ptr<Tensor>> hold;
        for (size_t i = 0; i < ins.size(); ++i) {
            hold.push_back(makeTensor({k.n, k.widths[i], k.h, k.w},
                                      randomFloats((size_t)k.n * k.widths[i] * k.h * k.w, 11 + (unsigned)i)));
            feed[ins[i]] = hold.back().get();
        }
        auto a = runModel(fused.finish(), feed);
        auto b = runModel(plain.finish(), feed);
        ASSERT_EQ(a.code, NO_ERROR);
        ASSERT_EQ(b.code, NO_ERROR);
        for (auto& o : outs) {
            auto ya = a.outputs[o], yb = b.outputs[o];
            ASSERT_EQ(ya->shape(), yb->shape()) << o;
            for (int i = 0; i < ya->elementSize(); ++i) {
                ASSERT_EQ(ya->host<float>()[i], yb->host<float>()[i]) << o << " " << i;
            }
        }
    }
}

TEST(ChannelShuffle, SeveralInputsOrOutputsThatDoNotFitFailAtCreateSession) {
    // 8 channels into 3 outputs; inputs of different H
    for (int bad = 0; bad < 2; ++bad) {
        ModelBuilder mb;
        mb.input("a", {1, 4, 2, 2});
        mb.input("b", {1, 4, bad ? 3 : 2, 2});
        Schema::ChannelShuffleParamT sp;
        sp.group = 2;
        std::vector<std::string> outs = bad ? std::vector<std::string>{"y0", "y1"}
                                            : std::vector<std::string>{"y0", "y1", "y2"};
        mb.op(Schema::OpType::ChannelShuffle, "sh", {"a", "b"}, outs)->param.Set(sp);
        for (auto& o : outs) {
            mb.output(o);
        }
        EXPECT_TRUE(createFails(mb.finish(), "sh", bad ? "does not match" : "outputs")) << bad;
    }
}

TEST(ChannelShuffle, BadShapesFailAtCreateSession) {
    struct Case {
        std::vector<int> dims;
        int group;
    };
    for (auto k : std::vector<Case>{{{1, 6, 2, 2}, 4}, {{1, 6, 2, 2}, 0}, {{6, 2, 2}, 2}}) {
        ModelBuilder mb;
        mb.input("x", k.dims);
        addShuffle(mb, "sh", "x", "y", k.group);
        mb.output("y");
        EXPECT_TRUE(createFails(mb.finish(), "sh", k.dims.size() == 4 ? "group" : "4-D")) << "group " << k.group;
    }
}
