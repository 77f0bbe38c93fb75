// Reduce over H and W on the packed layout (CPUReducePacked.cpp): MEAN / SUM / MAX / MIN, axes as
// a parameter (positive or negative) or a constant input, [N, C] and [N, C, 1, 1] outputs (the
// latter kept packed for a convolution after it), odd channel counts; every tier and 1-3 threads
// against the plain reference kernels. Reductions over other axes stay on the reference.
#include "PackedTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

// x [n, 3, h, w] -> 3x3 conv -> t (c channels, packed) -> Reduce -> y [-> 1x1 conv -> z]
std::vector<uint8_t> reduceModel(int n, int h, int w, int c, Schema::ReduceType type, std::vector<int> axes,
                                 bool keepDims, bool axesInput, bool convAfter) {
    ModelBuilder mb;
    mb.input("x", {n, 3, h, w});
    addConv(mb, "c1", "x", "t", 3, c, 3, 3, 1, 1, 1, 5);
    std::vector<std::string> ins = {"t"};
    if (axesInput) {
        mb.constantInt64("axes", {(int)axes.size()}, std::vector<int64_t>(axes.begin(), axes.end()));
        ins.push_back("axes");
    }
    auto op = mb.op(Schema::OpType::Reduce, "r", ins, {"y"});
    Schema::ReduceParamT p;
    p.type = type;
    if (!axesInput) {
        p.axes = axes;
    }
    p.keepDims = keepDims;
    op->param.Set(p);
    if (convAfter) {
        addConv(mb, "c2", "y", "z", c, 7, 1, 1, 1, 0, 1, 9);
        mb.output("z");
    } else {
        mb.output("y");
    }
    return mb.finish();
}

}  // namespace

TEST(PackedReduce, SpatialReductionsMatchReference) {
    using RT = Schema::ReduceType;
    struct Case {
        int n, h, w, c;
    };
    for (auto k : std::vector<Case>{{1, 7, 7, 40}, {2, 3, 5, 17}, {1, 1, 1, 16}, {2, 9, 4, 5}}) {
        for (RT type : {RT::MEAN, RT::SUM, RT::MAXIMUM, RT::MINIMUM}) {
            for (int variant = 0; variant < 3; ++variant) {
                // 0: axes [2, 3] as a parameter, [N, C]; 1: [-1, -2] as a constant input, [N, C, 1, 1]
                // read by a convolution (kept packed); 2: [3, 2], [N, C, 1, 1] as the graph output
                const bool keep = variant > 0, axesInput = variant == 1, convAfter = variant == 1;
                std::vector<int> axes = variant == 0
                                            ? std::vector<int>{2, 3}
                                            : (variant == 1 ? std::vector<int>{-1, -2} : std::vector<int>{3, 2});
                SCOPED_TRACE(testing::Message() << "n " << k.n << " h " << k.h << " w " << k.w << " c " << k.c
                                                << " type " << (int)type << " variant " << variant);
                std::vector<std::string> packed = {"t"};
                if (convAfter) {
                    packed.push_back("y");
                }
                expectPackedMatchesReference(reduceModel(k.n, k.h, k.w, k.c, type, axes, keep, axesInput, convAfter),
                                             {k.n, 3, k.h, k.w}, packed, "r", "packed-reduce-hw", 17);
            }
        }
    }
}

TEST(PackedReduce, OtherAxesKeepThePlainKernel) {
    // over C, or over W alone: not the packed kernel; the result still matches the reference
    for (auto axes : std::vector<std::vector<int>>{{1}, {3}, {1, 2, 3}}) {
        auto model = reduceModel(1, 4, 5, 20, Schema::ReduceType::MEAN, axes, true, false, false);
        auto x = makeTensor({1, 3, 4, 5}, randomFloats(60, 3));
        auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
        auto r = runWithLayout(model, {{"x", x.get()}}, "packed", 1);
        ASSERT_EQ(ref.code, NO_ERROR);
        ASSERT_EQ(r.code, NO_ERROR);
        EXPECT_NE(r.algorithms["r"], "packed-reduce-hw");
        EXPECT_LT(maxRelativeDiff(r, ref), 1e-6);
    }
}
