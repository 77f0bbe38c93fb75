// RotaryEmbedding (ONNX opset 23): hand-computed rotations (halves and interleaved), a partial rotary
// dim with position_ids and 3-D input checked against a plain complex-rotation formula written here,
// bad position ids at run time and invalid shapes at createSession.
#include <math.h>
#include <complex>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
struct RopeSpec {
    bool interleaved = false;
    int rot = 0;
    int numHeads = 0;
    std::vector<int> xDims;
    std::vector<int> cacheDims;
    std::vector<float> cosv, sinv;
    std::vector<int64_t> pos;  // empty: no position_ids
};

std::vector<uint8_t> ropeModel(const RopeSpec& s) {
    ModelBuilder mb;
    mb.input("x", s.xDims);
    mb.constant("cos", s.cacheDims, s.cosv);
    mb.constant("sin", s.cacheDims, s.sinv);
    std::vector<std::string> ins = {"x", "cos", "sin"};
    if (!s.pos.empty()) {
        mb.constantInt64("pos", {s.xDims[0], (int)s.pos.size() / s.xDims[0]}, s.pos);
        ins.push_back("pos");
    }
    auto op = mb.op(Schema::OpType::RotaryEmbedding, "rope", ins, {"y"});
    Schema::AttentionParamT p;
    p.interleaved = s.interleaved;
    p.rotaryEmbeddingDim = s.rot;
    p.numHeads = s.numHeads;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

std::vector<float> run(const RopeSpec& s, const std::vector<float>& x, ErrorCode* code = nullptr) {
    auto xt = makeTensor(s.xDims, x);
    auto r = runModel(ropeModel(s), {{"x", xt.get()}});
    if (code) {
        *code = r.code;
    }
    if (r.code != NO_ERROR) {
        return {};
    }
    auto y = r.outputs["y"];
    return std::vector<float>(y->host<float>(), y->host<float>() + y->elementSize());
}
} // namespace

// one token, one head of 4: angle pi/2 for pair 0, angle 0 for pair 1.
// halves: pairs (x0, x2), (x1, x3) -> (-3, 2, 1, 4); interleaved: pairs (x0, x1), (x2, x3) -> (-2, 1, 3, 4)
TEST(RotaryEmbedding, ByHand) {
    RopeSpec s;
    s.xDims = {1, 1, 1, 4};
    s.cacheDims = {1, 1, 2};
    s.cosv = {0, 1};
    s.sinv = {1, 0};
    EXPECT_TRUE(allClose(run(s, {1, 2, 3, 4}), {-3, 2, 1, 4}));
    s.interleaved = true;
    EXPECT_TRUE(allClose(run(s, {1, 2, 3, 4}), {-2, 1, 3, 4}));
}

// B = 2, S = 3, 2 heads of 6 channels, rotary dim 4, positions picked from a cache of 5 angles sets;
// expected: each pair (a, b) as the complex number a + ib multiplied by e^{i theta}
TEST(RotaryEmbedding, PositionIdsPartialDim3DAnd4D) {
    const int B = 2, S = 3, H = 2, D = 6, R = 4, P = 5;
    std::vector<float> cosv(P * R / 2), sinv(P * R / 2), theta(P * R / 2);
    for (int p = 0; p < P; ++p) {
        for (int i = 0; i < R / 2; ++i) {
            theta[p * 2 + i] = 0.3f * (float)p / (float)(1 + 4 * i);
            cosv[p * 2 + i] = cosf(theta[p * 2 + i]);
            sinv[p * 2 + i] = sinf(theta[p * 2 + i]);
        }
    }
    std::vector<int64_t> pos = {4, 0, 2, 1, 3, 3};
    for (bool inter : {false, true}) {
        // 4-D input [B, H, S, D]
        std::vector<float> x(B * H * S * D);
        for (size_t i = 0; i < x.size(); ++i) {
            x[i] = (float)sin(0.37 * (double)i + 0.1);
        }
        std::vector<float> want(x);
        for (int b = 0; b < B; ++b)
            for (int h = 0; h < H; ++h)
                for (int s = 0; s < S; ++s) {
                    float* v = &want[(((size_t)b * H + h) * S + s) * D];
                    const float* u = &x[(((size_t)b * H + h) * S + s) * D];
                    for (int i = 0; i < R / 2; ++i) {
                        int a = inter ? 2 * i : i, c = inter ? 2 * i + 1 : i + R / 2;
                        std::complex<double> z(u[a], u[c]);
                        z *= std::polar(1.0, (double)theta[pos[b * S + s] * 2 + i]);
                        v[a] = (float)z.real();
                        v[c] = (float)z.imag();
                    }
                }
        RopeSpec s;
        s.interleaved = inter;
        s.rot = R;
        s.xDims = {B, H, S, D};
        s.cacheDims = {P, R / 2};
        s.cosv = cosv;
        s.sinv = sinv;
        s.pos = pos;
        EXPECT_TRUE(allClose(run(s, x), want, 1e-5f));
        // the same data as 3-D [B, S, H * D]
        std::vector<float> x3(x.size()), want3(x.size());
        for (int b = 0; b < B; ++b)
            for (int h = 0; h < H; ++h)
                for (int t = 0; t < S; ++t)
                    for (int d = 0; d < D; ++d) {
                        x3[(((size_t)b * S + t) * H + h) * D + d] = x[(((size_t)b * H + h) * S + t) * D + d];
                        want3[(((size_t)b * S + t) * H + h) * D + d] = want[(((size_t)b * H + h) * S + t) * D + d];
                    }
        s.xDims = {B, S, H * D};
        s.numHeads = H;
        EXPECT_TRUE(allClose(run(s, x3), want3, 1e-5f));
    }
}

TEST(RotaryEmbedding, BadPositionIdFailsAtRun) {
    RopeSpec s;
    s.xDims = {1, 1, 2, 4};
    s.cacheDims = {2, 2};
    s.cosv = {1, 1, 1, 1};
    s.sinv = {0, 0, 0, 0};
    s.pos = {0, 2};
    ErrorCode code = NO_ERROR;
    run(s, std::vector<float>(8, 1.0f), &code);
    EXPECT_NE(code, NO_ERROR);
}

TEST(RotaryEmbedding, InvalidShapesFailAtCreate) {
    auto fails = [](const RopeSpec& s) {
        auto m = ropeModel(s);
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(m.data(), m.size()));
        ScheduleConfig config;
        return !net || net->createSession(config) == nullptr;
    };
    RopeSpec s;
    s.xDims = {1, 1, 2, 4};
    s.cacheDims = {1, 2, 2};
    s.cosv = s.sinv = std::vector<float>(4, 0.5f);
    EXPECT_FALSE(fails(s));
    RopeSpec t = s;
    t.cacheDims = {1, 2, 3};  // last dim must be rot / 2 = 2
    t.cosv = t.sinv = std::vector<float>(6, 0.5f);
    EXPECT_TRUE(fails(t));
    t = s;
    t.rot = 3;  // odd
    EXPECT_TRUE(fails(t));
    t = s;
    t.xDims = {1, 2, 8};  // 3-D without numHeads
    EXPECT_TRUE(fails(t));
    t = s;
    t.pos = {0, 1};  // position_ids need a 2-D cache
    EXPECT_TRUE(fails(t));
}
