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
