// The direct convolution on the packed layout (CPUConvolutionPacked.cpp) against the plain reference
// kernel (MNN_LAYOUT=plain, MNN_CONV_ALGO=reference), on every ISA tier this CPU has and 1..3
// threads. The tested conv sits between two 1x1 convs (x -> a -> conv -> b -> y) so that its input
// and output are packed; edge cases read the graph input (plain input) or write the graph output
// (plain output). Kernel sizes 1x1..7x7, strides, dilation, asymmetric pads, pads wider than the
// window, channel counts off 16, tiny planes, batch 2 and every fused activation.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include "PackedTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

using A = Schema::FusedActivation;

struct PcCase {
    int batch, cin, cout, h, w;
    int kh, kw, sh, sw;
    std::vector<int> pads;  // top, left, bottom, right
    int dilation;
    A act;
};

// residual: R's tensor name (input 4: act(conv + B + R)), or none
void addConvFull(ModelBuilder& mb, const std::string& name, const std::string& in, const std::string& out,
                 const PcCase& c, unsigned seed, const std::string& residual = "") {
    mb.constant(name + "_w", {c.cout, c.cin, c.kh, c.kw},
                randomFloats((size_t)c.cout * c.cin * c.kh * c.kw, seed, -0.5f, 0.5f));
    mb.constant(name + "_b", {c.cout}, randomFloats((size_t)c.cout, seed + 1));
    auto op = residual.empty()
                  ? mb.op(Schema::OpType::Convolution, name, {in, name + "_w", name + "_b"}, {out})
                  : mb.op(Schema::OpType::Convolution, name, {in, name + "_w", name + "_b", "", residual}, {out});
    Schema::ConvParamT p;
    p.kernel = {c.kh, c.kw};
    p.strides = {c.sh, c.sw};
    p.dilations = {c.dilation, c.dilation};
    p.pads = c.pads;
    p.group = 1;
    p.activation = c.act;
    p.clipMin = -0.5f;
    p.clipMax = 0.75f;
    op->param.Set(p);
}

// mode 0: x -> a -> conv -> b -> y (packed in / out); 1: x -> conv -> b -> y (plain input);
// 2: x -> a -> conv -> y (plain output)
std::vector<uint8_t> buildModel(const PcCase& c, int mode, int xChannels) {
    ModelBuilder mb;
    mb.input("x", {c.batch, mode == 1 ? c.cin : xChannels, c.h, c.w});
    std::string in = "x";
    if (mode != 1) {
        addConv(mb, "a", "x", "t1", xChannels, c.cin, 1, 1, 1, 0, 1, 901);
        in = "t1";
    }
    addConvFull(mb, "conv", in, mode == 2 ? "y" : "t2", c, 77);
    if (mode != 2) {
        addConv(mb, "b", "t2", "y", c.cout, 8, 1, 1, 1, 0, 1, 903, A::RELU);
    }
    mb.output("y");
    return mb.finish();
}

// x (6 channels) -> a (1x1) -> t1 -> conv -> t2 -> b (1x1, 8) -> y; with rStride > 0 the residual R of
// conv is x -> r (1x1 at that stride) -> rr
std::vector<uint8_t> residualChainModel(const PcCase& c, int rStride) {
    ModelBuilder mb;
    mb.input("x", {1, 6, c.h, c.w});
    addConv(mb, "a", "x", "t1", 6, c.cin, 1, 1, 1, 0, 1, 901);
    if (rStride > 0) {
        addConv(mb, "r", "x", "rr", 6, c.cout, 1, 1, rStride, 0, 1, 902);
    }
    addConvFull(mb, "conv", "t1", "t2", c, 77, rStride > 0 ? "rr" : "");
    addConv(mb, "b", "t2", "y", c.cout, 8, 1, 1, 1, 0, 1, 903, A::RELU);
    mb.output("y");
    return mb.finish();
}

std::vector<PcCase> cases() {
    return {
        // 1x1 stride 1 (one row over the plane), stride 2, odd channels
        {1, 24, 40, 9, 11, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::NONE},
        {1, 17, 24, 10, 9, 1, 1, 2, 2, {0, 0, 0, 0}, 1, A::RELU},
        // strided 1x1 (a packed input runs subsampled): stride 3 x 2 on odd extents, batch 2; an end
        // pad whose last row and column read nothing (not subsampled); a plane of several chunks
        {2, 20, 33, 11, 13, 1, 1, 3, 2, {0, 0, 0, 0}, 1, A::CLIP},
        {1, 24, 17, 10, 10, 1, 1, 2, 2, {0, 0, 1, 1}, 1, A::NONE},
        {1, 64, 48, 56, 55, 1, 1, 2, 2, {0, 0, 0, 0}, 1, A::RELU},
        // 3x3 pad 1 stride 1 / 2
        {1, 24, 17, 12, 13, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::CLIP},
        {1, 40, 24, 11, 12, 3, 3, 2, 2, {1, 1, 1, 1}, 1, A::SILU},
        // the resnet stem: 7x7 stride 2 pad 3 on 3 input channels
        {1, 3, 24, 20, 19, 7, 7, 2, 2, {3, 3, 3, 3}, 1, A::RELU},
        // mobilenet stems (3x3 stride 2 on 3 channels, batch 2), one channel, 4 channels with
        // dilation and asymmetric pads (NHWC when the input is a graph input)
        {2, 3, 16, 15, 16, 3, 3, 2, 2, {1, 1, 1, 1}, 1, A::HARD_SWISH},
        {1, 3, 16, 7, 9, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::RELU},  // RGB stem, 63 positions (NHWC tail)
        {1, 1, 8, 9, 7, 3, 3, 2, 2, {1, 0, 0, 1}, 1, A::NONE},
        {1, 4, 20, 11, 13, 5, 5, 1, 1, {2, 1, 3, 2}, 2, A::CLIP},
        // NHWC stems folded by kernel rows (kw * C lanes per tap): 28 lanes (two K blocks) with
        // asymmetric pads and unread right columns, a 1x5 row kernel, a left pad wider than the
        // window on 2 channels with stride 3 x 1
        {1, 4, 24, 12, 11, 7, 7, 2, 2, {3, 2, 1, 0}, 1, A::RELU},
        {1, 3, 17, 9, 10, 1, 5, 1, 2, {0, 2, 0, 2}, 1, A::NONE},
        {2, 2, 16, 6, 13, 3, 5, 3, 1, {1, 6, 0, 0}, 1, A::CLIP},
        {1, 17, 40, 9, 10, 5, 5, 1, 1, {2, 2, 2, 2}, 1, A::HARD_SWISH},
        // 1x7 / 7x1 with asymmetric pads
        {1, 16, 16, 8, 11, 1, 7, 1, 1, {0, 3, 0, 2}, 1, A::NONE},
        {1, 24, 3, 11, 6, 7, 1, 1, 1, {3, 0, 2, 0}, 1, A::CLIP},
        // dilation 2
        {1, 17, 24, 12, 12, 3, 3, 1, 1, {2, 2, 2, 2}, 2, A::RELU},
        // tiny planes: 1x1, 2x3 (every window partly outside)
        {1, 40, 33, 1, 1, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::NONE},
        {1, 24, 17, 2, 3, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::SILU},
        {1, 16, 20, 2, 3, 5, 5, 1, 2, {2, 2, 2, 2}, 1, A::NONE},
        // batch 2, output blocks not a multiple of the tile's Q, rows longer than any tile
        {2, 24, 40, 6, 9, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::RELU},
        {1, 20, 48, 5, 40, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::HARD_SWISH},
        // a left pad wider than the window (outputs with no tap in bounds), stride 1 x 2
        {1, 8, 19, 6, 7, 3, 3, 1, 2, {2, 4, 0, 1}, 1, A::CLIP},
        // 1x1 over a larger plane, 64 channels
        {1, 64, 64, 16, 15, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::NONE},
        // tall narrow planes and 7x7 (edge segments and narrow rows run down their columns), stride
        // 2 x 1, dilation 2, SiLU through the column buffer
        {1, 64, 40, 7, 7, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::SILU},
        {1, 20, 24, 30, 4, 3, 3, 2, 1, {1, 1, 1, 1}, 1, A::RELU},
        {2, 16, 17, 25, 5, 3, 3, 1, 1, {2, 2, 2, 2}, 2, A::HARD_SWISH},
        // inputs over 256 KB per image: tiles run in chunks, all output-block groups per chunk (the
        // last chunk shorter)
        {1, 64, 64, 40, 40, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::RELU},
        {2, 32, 48, 48, 47, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::NONE},
        // 1x1 with K of 16 blocks or more walks K in slices (packed-ksliced): of 4 blocks on planes
        // this small (kKSliceSmallBlocks: 90, 20 and 63 positions; on the scalar tier, 64 outputs
        // per tile, only the 20), of 8 on the 552-position plane; K = 600 is 38 blocks (a last slice
        // of 2 or 6, 8 lanes in the last block) with HardSwish after the last slice;
        // subsampled stride 2 at batch 2; a plane of several chunks with 72 outputs (a half-block last)
        {1, 600, 40, 9, 10, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::HARD_SWISH},
        {2, 520, 24, 9, 8, 1, 1, 2, 2, {0, 0, 0, 0}, 1, A::CLIP},
        {1, 512, 72, 24, 23, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::RELU},
        // the bound: K = 241 is 16 blocks (slices of 4 or 8, one lane in the last block), K = 240 runs whole
        {1, 241, 33, 7, 9, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::NONE},
        {1, 240, 33, 7, 9, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::NONE},
        // windowed layers of 8 K blocks or more whose input fits in L2 walk K in slices of 2 blocks
        // x 9 taps (1 x 25 for 5x5) over all their tiles: a 7x7 plane with pads on all sides (corner
        // tiles of one position, the edge columns after the slices with the whole K), K = 260 (a
        // last slice of one block, 4 lanes); resnet's 14x14 -> 7x7 stride 2 at batch 2 with a
        // half-block output group; a 5x5 window with dilation 2 on 250 channels; a 3x3 on an input
        // past L2 on this machine or not (sliced or whole per the rule), 2 x 1 stride
        {1, 260, 40, 7, 7, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::RELU},
        {2, 256, 24, 14, 14, 3, 3, 2, 2, {1, 1, 1, 1}, 1, A::HARD_SWISH},
        {1, 250, 17, 9, 8, 5, 5, 1, 1, {4, 3, 4, 5}, 2, A::SILU},
        {1, 256, 33, 34, 20, 3, 3, 2, 1, {1, 1, 1, 1}, 1, A::CLIP},
        // inception_v3's Mixed_7a (17x17 -> 8x8 stride 2, valid): 8 blocks (K = 120 runs whole)
        {1, 128, 40, 17, 17, 3, 3, 2, 2, {0, 0, 0, 0}, 1, A::RELU},
        {1, 120, 40, 17, 17, 3, 3, 2, 2, {0, 0, 0, 0}, 1, A::RELU},
    };
}

/**
 * the rule of CPUConvolutionPacked::onResize: K in slices (1x1 at 16 blocks on tiers that slice
 * 1x1 layers, pcKSlices; windows at 8 within L2)
 */
bool kSliced(const PcCase& c, const CPUCoreFunctions& f) {
    const int kBlocks = (c.cin + 15) / 16;
    if (c.kh == 1 && c.kw == 1) {
        return kBlocks >= 16 && f.pcKSlices;
    }
    if (kBlocks < 8) {
        return false;
    }
    const int ow = (c.w + c.pads[1] + c.pads[3] - c.dilation * (c.kw - 1) - 1) / c.sw + 1;
    const double inBytes = (double)kBlocks * 16 * c.h * c.w * sizeof(float);
    return ow > f.pcHalfMaxP && inBytes <= (double)cpuFeatures().l2Bytes;
}

// the packed run through the direct kernel (MNN_CONV_ALGO=gemm keeps Winograd out)
void checkCase(const PcCase& c, int mode, size_t ci) {
    const int xChannels = c.cin == 3 ? 5 : 6;
    const auto model = buildModel(c, mode, xChannels);
    const int xc = mode == 1 ? c.cin : xChannels;
    auto x = makeTensor({c.batch, xc, c.h, c.w}, randomFloats((size_t)c.batch * xc * c.h * c.w, 31 + (unsigned)ci));
    auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR) << "case " << ci;
    EXPECT_EQ(ref.algorithms["conv"], "reference");
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        const std::string want = std::string("packed ") + f.packedConvName;
        // a plain input of fewer than 16 channels is read as NHWC
        const bool nhwc = mode == 1 && c.cin < 16;
        const bool ksliced = kSliced(c, f);
        const std::string wantConv = nhwc      ? std::string("packed-nhwc ") + f.packedConvName
                                     : ksliced ? std::string("packed-ksliced ") + f.packedConvName
                                               : want;
        for (int threads = 1; threads <= 3; ++threads) {
            auto packed = runWithLayout(model, {{"x", x.get()}}, "packed", threads, "gemm");
            ASSERT_EQ(packed.code, NO_ERROR) << "case " << ci << " mode " << mode;
            EXPECT_EQ(packed.algorithms["conv"], wantConv) << "case " << ci << " mode " << mode;
            if (mode != 1) {
                EXPECT_EQ(packed.layouts["t1"], "NC16HW16") << "case " << ci;
                EXPECT_EQ(packed.algorithms["a"], std::string("packed-nhwc ") + f.packedConvName) << "case " << ci;
            }
            if (mode != 2) {
                EXPECT_EQ(packed.layouts["t2"], "NC16HW16") << "case " << ci;
                EXPECT_EQ(packed.algorithms["b"], want) << "case " << ci;
            }
            EXPECT_EQ(packed.layouts["y"], "NCHW");
            EXPECT_EQ(packed.shapes["y"], ref.shapes["y"]) << "case " << ci;
            // fp32 sums of up to 40 * 49 products against the reference's double accumulation
            EXPECT_LT(maxRelativeDiff(packed, ref), 2e-5)
                << "case " << ci << " mode " << mode << " " << f.packedConvName << " threads " << threads;
        }
    }
    cpuSetTierOverride(-1);
}

}  // namespace

TEST(ConvPacked, PackedInputAndOutputMatchReference) {
    const auto all = cases();
    for (size_t ci = 0; ci < all.size(); ++ci) {
        checkCase(all[ci], 0, ci);
    }
}

TEST(ConvPacked, PlainInputOrPlainOutputMatchReference) {
    const auto all = cases();
    for (size_t ci : {0, 2, 4, 7, 11, 12, 17}) {
        checkCase(all[ci], 1, ci);
        checkCase(all[ci], 2, ci);
    }
}

// RGB-like stems on planes whose padded NHWC rows span several bands (64 KB of rows each) and, at 2
// and 3 threads, several strips: each band copies the rows its windows read and runs its tiles on
// them (FoldRows); MNN_FOLD_BANDS=0 copies the whole image first. A 3x3 stride-2 stem at batch 2
// (5 bands), a 7x7 stride-2 one (2 bands), a stride-1 3x3 (3 bands), one channel with a 5x5 window
TEST(ConvPacked, FoldedStemsRunInBands) {
    const std::vector<PcCase> stems = {
        {2, 3, 16, 100, 230, 3, 3, 2, 2, {1, 1, 1, 1}, 1, A::HARD_SWISH},
        {1, 3, 24, 90, 64, 7, 7, 2, 2, {3, 3, 3, 3}, 1, A::RELU},
        {1, 3, 8, 120, 100, 3, 3, 1, 1, {1, 1, 1, 1}, 1, A::CLIP},
        {1, 1, 17, 300, 60, 5, 5, 1, 1, {2, 1, 2, 3}, 1, A::NONE},
    };
    for (const char* bands : {"1", "0"}) {
        setenv("MNN_FOLD_BANDS", bands, 1);
        for (size_t i = 0; i < stems.size(); ++i) {
            checkCase(stems[i], 1, 100 + i);
        }
    }
    unsetenv("MNN_FOLD_BANDS");
}

// K-sliced 1x1 projections (fewer than half as many outputs as inputs) at two threads split K
// between the threads (KSplitJob: thread 0 from bias + R into Y, thread 1 from zero into scratch,
// then Y += the share and the activation; a tier that keeps the whole K of 1x1 layers, pcKSlices,
// slices them for the split only); MNN_KSPLIT=all splits them at half of K (their producer here
// splits by positions), 0 runs the position split: K of 37 blocks (odd: shares of 18 and 19,
// 9 lanes in the last block) with a residual and ReLU6, 512 -> 72 with SiLU (a half-block last
// output block), one without an activation
TEST(ConvPacked, KSplitProjectionsMatchReference) {
    const std::vector<std::pair<PcCase, bool>> layers = {
        {{1, 585, 40, 9, 10, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::CLIP}, true},
        {{1, 512, 72, 14, 14, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::SILU}, false},
        {{1, 320, 24, 7, 7, 1, 1, 1, 1, {0, 0, 0, 0}, 1, A::NONE}, true},
    };
    const int best = (int)cpuFeatures().best;
    for (const auto& l : layers) {
        const PcCase& c = l.first;
        const auto model = residualChainModel(c, l.second ? 1 : 0);
        auto x = makeTensor({1, 6, c.h, c.w}, randomFloats((size_t)6 * c.h * c.w, 43));
        auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        for (const char* split : {"all", "0"}) {
            setenv("MNN_KSPLIT", split, 1);
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
                for (int threads = 1; threads <= 3; ++threads) {
                    auto packed = runWithLayout(model, {{"x", x.get()}}, "packed", threads);
                    ASSERT_EQ(packed.code, NO_ERROR);
                    // tiers that keep a 1x1 layer's K whole (pcKSlices) slice it for the split only
                    const bool sliced = f.pcKSlices || (threads == 2 && strcmp(split, "all") == 0);
                    const std::string name = std::string(l.second ? "packed-residual" : "packed") +
                                             (sliced ? "-ksliced " : " ") + f.packedConvName;
                    EXPECT_EQ(packed.algorithms["conv"], name);
                    EXPECT_LT(maxRelativeDiff(packed, ref), 2e-5)
                        << f.packedConvName << " K " << c.cin << " threads " << threads << " split " << split;
                }
            }
            cpuSetTierOverride(-1);
        }
        unsetenv("MNN_KSPLIT");
    }
}

TEST(ConvPacked, KSlicedWindowsAddTheResidualWithTheLastSlice) {
    // x -> a (1x1) -> t1 ; x -> r (1x1, stride 2) -> R ; conv(t1, W, B, R) 3x3 stride 2 pad 1
    // (resnet's 14x14 -> 7x7 layers at 272 channels: direct, in the kernel) -> t2 -> b -> y: the
    // residual and the activation go with the last slice, the edge column's R with its column tile
    const PcCase c{1, 272, 24, 14, 14, 3, 3, 2, 2, {1, 1, 1, 1}, 1, A::RELU};
    const auto model = residualChainModel(c, 2);
    auto x = makeTensor({1, 6, c.h, c.w}, randomFloats((size_t)6 * c.h * c.w, 41));
    auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        for (int threads = 1; threads <= 2; ++threads) {
            auto packed = runWithLayout(model, {{"x", x.get()}}, "packed", threads);
            ASSERT_EQ(packed.code, NO_ERROR);
            EXPECT_EQ(packed.layouts["rr"], "NC16HW16");
            EXPECT_EQ(packed.algorithms["conv"], std::string("packed-residual-ksliced ") + f.packedConvName);
            EXPECT_LT(maxRelativeDiff(packed, ref), 2e-5) << f.packedConvName << " threads " << threads;
        }
    }
    cpuSetTierOverride(-1);
}

TEST(ConvPacked, PlainLayoutKeepsThePlainKernels) {
    // MNN_LAYOUT=plain: no tensor packed, no packed kernel
    const auto c = cases()[2];
    const auto model = buildModel(c, 0, 6);
    auto x = makeTensor({1, 6, c.h, c.w}, randomFloats((size_t)6 * c.h * c.w, 5));
    auto plain = runWithLayout(model, {{"x", x.get()}}, "plain", 1);
    ASSERT_EQ(plain.code, NO_ERROR);
    EXPECT_EQ(plain.layouts["t1"], "NCHW");
    EXPECT_EQ(plain.algorithms["conv"].find("packed"), std::string::npos) << plain.algorithms["conv"];
}

// 1x1 outputs (tiles of one position) at Precision_Normal keep the weights as IEEE half where the
// tier's kernel takes them and the packed weights are at least CPUUtils::kHalfWeightsMinBytes (4 MB:
// a classifier-sized layer that streams its weights): within the weights' half rounding of the
// reference. Small ones (squeeze-excite gates) stay float at Normal and go half at Precision_Low;
// all stay float at Precision_High, and after a resize to a wider plane.
TEST(ConvPacked, OnePositionOutputsUseHalfWeightsBelowPrecisionHigh) {
    struct Size {
        int c, m;      // channels in, outputs of "se"
        bool streams;  // its weights are over the half threshold
    };
    // 40 x 24 floats: 3.8 KB; 1024 x 1040: 4.26 MB (also at the packed size)
    for (const Size sz : {Size{40, 24, false}, Size{1024, 1040, true}}) {
        ASSERT_EQ((size_t)sz.c * sz.m * sizeof(float) >= CPUUtils::kHalfWeightsMinBytes, sz.streams);
        ModelBuilder mb;
        const int c = sz.c, m = sz.m;
        mb.input("x", {1, c, 1, 1});
        addConv(mb, "a", "x", "t", c, c, 1, 1, 1, 0, 1, 3, Schema::FusedActivation::RELU);
        addConv(mb, "se", "t", "u", c, m, 1, 1, 1, 0, 1, 4, Schema::FusedActivation::RELU);
        addConv(mb, "b", "u", "y", m, 7, 1, 1, 1, 0, 1, 5);
        mb.output("y");
        const auto model = mb.finish();
        const int best = (int)cpuFeatures().best;
        for (int hw : {1, 7}) {
            auto x = makeTensor({1, c, hw, hw}, randomFloats((size_t)c * hw * hw, 9));
            auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
            ASSERT_EQ(ref.code, NO_ERROR);
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                const bool halfTile = hw == 1 && cpuCoreFunctionsFor((CPUTier)tier).pcHalfMaxP >= 1;
                for (auto precision :
                     {BackendConfig::Precision_Normal, BackendConfig::Precision_High, BackendConfig::Precision_Low}) {
                    // Precision_Low keeps every GEMV's weights half, Normal only the large ones
                    const bool half = halfTile && (sz.streams || precision == BackendConfig::Precision_Low);
                    auto r = runWithLayout(model, {{"x", x.get()}}, "packed", 2, nullptr, precision);
                    ASSERT_EQ(r.code, NO_ERROR);
                    EXPECT_EQ(r.layouts["u"], "NC16HW16");
                    const bool f16 = half && precision != BackendConfig::Precision_High;
                    // float weights: "packed pconv..." or, for 1024 inputs, "packed-ksliced pconv..."
                    const std::string& algo = r.algorithms["se"];
                    EXPECT_EQ(algo.rfind(f16 ? "packed-f16 " : "packed", 0), 0u)
                        << algo << " tier " << tier << " c " << c;
                    EXPECT_EQ(algo.find("-f16") != std::string::npos, f16) << algo << " tier " << tier << " c " << c;
                    // up to three layers of weights each rounded by at most 2^-11; float sums over
                    // 1024 inputs round more than over 40
                    const double tol = f16 ? 2e-3 : (sz.streams ? 1e-4 : 1e-5);
                    EXPECT_LT(maxRelativeDiff(r, ref), tol) << "hw " << hw << " tier " << tier << " c " << c;
                }
            }
            cpuSetTierOverride(-1);
        }
    }
}
