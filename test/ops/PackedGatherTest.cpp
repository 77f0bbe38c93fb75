// Channel-axis data movement on the packed layout at any channel offsets (CPUPackedGather.cpp):
// Slice on axis 1, ChannelShuffle, Concat of unaligned parts, a ShuffleNet block; every tier and
// 1-3 threads against the plain reference kernels, and the pgather kernels of every tier against
// a naive loop.
#include "PackedTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

void addSlice(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out, int start,
              int end) {
    mb.constantInt64(name + "_s", {1}, {start});
    mb.constantInt64(name + "_e", {1}, {end});
    mb.constantInt64(name + "_a", {1}, {1});
    mb.op(Schema::OpType::Slice, name, {in, name + "_s", name + "_e", name + "_a"}, {out});
}

void addShuffle(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out, int group) {
    Schema::ChannelShuffleParamT p;
    p.group = group;
    mb.op(Schema::OpType::ChannelShuffle, name, {in}, {out})->param.Set(p);
}

void addConcat(ModelBuilder& mb, const std::string& name, const std::vector<std::string>& in, const std::string& out) {
    Schema::AxisParamT ap;
    ap.axis = 1;
    mb.op(Schema::OpType::Concat, name, in, {out})->param.Set(ap);
}

// x [n, 3, h, w] -> conv -> t (c channels) -> slice [start, end) -> u -> 1x1 conv -> y
std::vector<uint8_t> sliceModel(int n, int h, int w, int c, int start, int end) {
    ModelBuilder mb;
    mb.input("x", {n, 3, h, w});
    addConv(mb, "c1", "x", "t", 3, c, 3, 3, 1, 1, 1, 5);
    addSlice(mb, "sl", "t", "u", start, end);
    addConv(mb, "c2", "u", "y", end - start, 7, 1, 1, 1, 0, 1, 9);
    mb.output("y");
    return mb.finish();
}

std::vector<uint8_t> shuffleModel(int n, int h, int w, int c, int group) {
    ModelBuilder mb;
    mb.input("x", {n, 3, h, w});
    addConv(mb, "c1", "x", "t", 3, c, 3, 3, 1, 1, 1, 5);
    addShuffle(mb, "sh", "t", "u", group);
    addConv(mb, "c2", "u", "y", c, 7, 1, 1, 1, 0, 1, 9);
    mb.output("y");
    return mb.finish();
}

std::vector<uint8_t> concatModel(int n, int h, int w, const std::vector<int>& widths) {
    ModelBuilder mb;
    mb.input("x", {n, 3, h, w});
    std::vector<std::string> parts;
    int total = 0;
    for (size_t i = 0; i < widths.size(); ++i) {
        std::string p = "p" + std::to_string(i);
        addConv(mb, "c" + p, "x", p, 3, widths[i], 3, 3, 1, 1, 1, 30 + (unsigned)i);
        parts.push_back(p);
        total += widths[i];
    }
    addConcat(mb, "cat", parts, "u");
    addConv(mb, "c2", "u", "y", total, 7, 1, 1, 1, 0, 1, 9);
    mb.output("y");
    return mb.finish();
}

// one ShuffleNet v2 block: halves of t, convs on the second, concat, shuffle by 2
std::vector<uint8_t> shuffleBlockModel(int n, int h, int w, int c) {
    ModelBuilder mb;
    mb.input("x", {n, 3, h, w});
    addConv(mb, "c1", "x", "t", 3, c, 3, 3, 1, 1, 1, 5);
    addSlice(mb, "lo", "t", "a", 0, c / 2);
    addSlice(mb, "hi", "t", "b", c / 2, c);
    addConv(mb, "b1", "b", "b1o", c / 2, c / 2, 1, 1, 1, 0, 1, 11, Schema::FusedActivation::RELU);
    addConv(mb, "b2", "b1o", "b2o", c / 2, c / 2, 3, 3, 1, 1, c / 2, 12);
    addConcat(mb, "cat", {"a", "b2o"}, "m");
    addShuffle(mb, "sh", "m", "u", 2);
    addConv(mb, "c2", "u", "y", c, 7, 1, 1, 1, 0, 1, 9);
    mb.output("y");
    return mb.finish();
}

}  // namespace

TEST(PackedGather, SliceOnChannelsAnyOffsets) {
    struct Case {
        int c, start, end;
    };
    for (auto k : std::vector<Case>{{5, 0, 2},
                                    {5, 2, 5},
                                    {17, 0, 16},
                                    {17, 1, 17},
                                    {17, 16, 17},
                                    {58, 0, 29},
                                    {58, 29, 58},
                                    {116, 58, 116},
                                    {116, 3, 101},
                                    {232, 116, 232},
                                    {232, 0, 116}}) {
        for (int n : {1, 2}) {
            SCOPED_TRACE(testing::Message() << "c " << k.c << " [" << k.start << ", " << k.end << ") n " << n);
            expectPackedMatchesReference(sliceModel(n, 5, 6, k.c, k.start, k.end), {n, 3, 5, 6}, {"t", "u"}, "sl",
                                         "packed-slice", 91);
        }
    }
}

TEST(PackedGather, ChannelShuffleOddChannelCounts) {
    struct Case {
        int c, group;
    };
    for (auto k :
         std::vector<Case>{{2, 2}, {10, 2}, {18, 3}, {34, 2}, {116, 2}, {232, 2}, {48, 4}, {17, 17}, {17, 1}}) {
        for (int n : {1, 2}) {
            SCOPED_TRACE(testing::Message() << "c " << k.c << " group " << k.group << " n " << n);
            expectPackedMatchesReference(shuffleModel(n, 4, 9, k.c, k.group), {n, 3, 4, 9}, {"t", "u"}, "sh",
                                         "packed-shuffle", 91);
        }
    }
}

TEST(PackedGather, ChannelShuffleOfLargePlanesRunsInChunkTasks) {
    // planes large enough for several tasks of kCopyTaskFloats (16K floats): at 2-3 threads the
    // (chunk, image, block) items run in ranges of several, chunk-major; 28x28 with 116 channels is
    // 100K output floats (6 tasks), 14x14 with 232 channels 50K (3 tasks), 15x13 with 34 channels
    // 9.4K at batch 2 (one task, inline)
    struct Case {
        int h, w, c;
    };
    for (auto k : std::vector<Case>{{28, 28, 116}, {14, 14, 232}, {15, 13, 34}}) {
        for (int n : {1, 2}) {
            SCOPED_TRACE(testing::Message() << k.h << "x" << k.w << " c " << k.c << " n " << n);
            expectPackedMatchesReference(shuffleModel(n, k.h, k.w, k.c, 2), {n, 3, k.h, k.w}, {"t", "u"}, "sh",
                                         "packed-shuffle", 91);
        }
    }
}

// ChannelShuffle of several inputs (their concatenation) into several equal outputs: ShuffleNet's
// Concat -> shuffle -> Slice halves as one op
std::vector<uint8_t> shuffleIoModel(int n, int h, int w, const std::vector<int>& widths, int group, int outs) {
    ModelBuilder mb;
    mb.input("x", {n, 3, h, w});
    std::vector<std::string> parts, ys;
    int total = 0;
    for (size_t i = 0; i < widths.size(); ++i) {
        std::string p = "p" + std::to_string(i);
        addConv(mb, "c" + p, "x", p, 3, widths[i], 3, 3, 1, 1, 1, 40 + (unsigned)i);
        parts.push_back(p);
        total += widths[i];
    }
    for (int m = 0; m < outs; ++m) {
        ys.push_back("u" + std::to_string(m));
    }
    Schema::ChannelShuffleParamT sp;
    sp.group = group;
    mb.op(Schema::OpType::ChannelShuffle, "sh", parts, ys)->param.Set(sp);
    for (int m = 0; m < outs; ++m) {
        const std::string y = "y" + std::to_string(m);
        addConv(mb, "d" + std::to_string(m), ys[(size_t)m], y, total / outs, 5, 1, 1, 1, 0, 1, 60 + (unsigned)m);
        mb.output(y);
    }
    return mb.finish();
}

TEST(PackedGather, ChannelShuffleOfSeveralInputsIntoSeveralOutputs) {
    struct Case {
        std::vector<int> widths;
        int group, outs;
    };
    for (auto k : std::vector<Case>{{{58, 58}, 2, 2},
                                    {{116, 116}, 2, 2},
                                    {{24, 24}, 2, 1},
                                    {{16}, 2, 2},
                                    {{5, 17, 2}, 3, 3},
                                    {{32, 32, 32}, 4, 2}}) {
        for (int n : {1, 2}) {
            SCOPED_TRACE(testing::Message() << "inputs " << k.widths.size() << " first " << k.widths[0] << " group "
                                            << k.group << " outputs " << k.outs << " n " << n);
            std::vector<std::string> packed;
            for (size_t i = 0; i < k.widths.size(); ++i) {
                packed.push_back("p" + std::to_string(i));
            }
            for (int m = 0; m < k.outs; ++m) {
                packed.push_back("u" + std::to_string(m));
            }
            expectPackedMatchesReference(shuffleIoModel(n, 4, 7, k.widths, k.group, k.outs), {n, 3, 4, 7}, packed,
                                         "sh", "packed-shuffle", 93);
        }
    }
}

TEST(PackedGather, ConcatUnalignedParts) {
    for (auto widths : std::vector<std::vector<int>>{{58, 58}, {5, 17, 24}, {3, 16}, {16, 1, 31}, {116, 116}}) {
        for (int n : {1, 2}) {
            SCOPED_TRACE(testing::Message() << "parts " << widths.size() << " first " << widths[0] << " n " << n);
            expectPackedMatchesReference(concatModel(n, 5, 7, widths), {n, 3, 5, 7}, {"p0", "p1", "u"}, "cat",
                                         "packed-concat pgather__", 91);
        }
    }
}

TEST(PackedGather, ShuffleNetBlockStaysPacked) {
    for (int c : {116, 232, 20}) {
        SCOPED_TRACE(testing::Message() << "c " << c);
        expectPackedMatchesReference(shuffleBlockModel(1, 6, 5, c), {1, 3, 6, 5}, {"t", "a", "b", "b2o", "m", "u"},
                                     "sh", "packed-shuffle", 91);
    }
}

// the kernels of every tier against a naive loop, random entries (disjoint masks, any lanes)
TEST(PackedGather, KernelsOfEveryTierMatchNaiveLoop) {
    const int best = (int)cpuFeatures().best;
    unsigned seed = 1;
    auto next = [&]() {
        seed = seed * 1103515245u + 12345u;
        return (seed >> 8) & 0xffffu;
    };
    for (int trial = 0; trial < 200; ++trial) {
        const int entries = (int)(next() % 7);  // 0..6
        const int64_t count = 1 + next() % 13;
        std::vector<std::vector<float>> inputs(entries);
        std::vector<const float*> src(entries);
        std::vector<int32_t> perm((size_t)entries * 16);
        std::vector<uint32_t> mask(entries, 0);
        for (int e = 0; e < entries; ++e) {
            inputs[e] = randomFloats((size_t)count * 16, 100 + trial * 8 + e);
            src[e] = inputs[e].data();
            for (int l = 0; l < 16; ++l) {
                perm[e * 16 + l] = (int32_t)(next() % 16);
            }
        }
        // each lane: no entry (1 in 8) or one entry
        for (int l = 0; l < 16 && entries > 0; ++l) {
            if (next() % 8 != 0) {
                mask[next() % entries] |= 1u << l;
            }
        }
        std::vector<float> want((size_t)count * 16, 0.0f);
        for (int64_t p = 0; p < count; ++p) {
            for (int l = 0; l < 16; ++l) {
                for (int e = 0; e < entries; ++e) {
                    if ((mask[e] >> l) & 1u) {
                        want[p * 16 + l] = src[e][p * 16 + perm[e * 16 + l]];
                    }
                }
            }
        }
        for (int tier = 0; tier <= best; ++tier) {
            auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            std::vector<float> got((size_t)count * 16, 12345.0f);
            PackedGatherBlock b;
            b.src = src.data();
            b.perm = perm.data();
            b.mask = mask.data();
            b.entries = entries;
            b.y = got.data();
            b.count = count;
            f.packedGather(&b);
            EXPECT_EQ(got, want) << f.packedGatherName << " trial " << trial;
        }
    }
    // identity copy of one whole block
    std::vector<float> in = randomFloats(16 * 5, 7);
    std::vector<int32_t> id(16);
    for (int l = 0; l < 16; ++l) {
        id[l] = l;
    }
    const float* s = in.data();
    uint32_t full = 0xffffu;
    for (int tier = 0; tier <= best; ++tier) {
        std::vector<float> got(16 * 5, 0.0f);
        PackedGatherBlock b;
        b.src = &s;
        b.perm = id.data();
        b.mask = &full;
        b.entries = 1;
        b.y = got.data();
        b.count = 5;
        cpuCoreFunctionsFor((CPUTier)tier).packedGather(&b);
        EXPECT_EQ(got, in) << tier;
    }
}
