// Malformed model files: createFromBuffer / createFromFile / createSession return nullptr with
// exactly one log line, never a crash.
#include <MNN/Interpreter.hpp>
#include <algorithm>
#include <fstream>
#include <random>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
ModelBuilder validBuilder() {
    ModelBuilder mb;
    mb.input("x", {1, 3});
    mb.constant("c", {3}, {1, 2, 3});
    auto op = mb.op(Schema::OpType::BinaryOp, "add", {"x", "c"}, {"y"});
    Schema::BinaryParamT p;
    op->param.Set(p);
    mb.output("y");
    return mb;
}

int countLines(const std::string& s) {
    return (int)std::count(s.begin(), s.end(), '\n');
}

// Loads a buffer; if it loads, also creates and runs a session. Returns the stage that failed
// (0 none) and the log lines printed by the failing stage.
int tryModel(const std::vector<uint8_t>& buf, int* lines) {
    ::testing::internal::CaptureStderr();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(buf.data(), buf.size()));
    int stage = 0;
    if (!net) {
        stage = 1;
    } else {
        auto s = net->createSession(ScheduleConfig());
        if (!s) {
            stage = 2;
        } else {
            net->runSession(s);
        }
    }
    *lines = countLines(::testing::internal::GetCapturedStderr());
    return stage;
}
} // namespace

TEST(Malformed, EmptyAndMissing) {
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Interpreter::createFromBuffer(nullptr, 0), nullptr);
    EXPECT_EQ(countLines(::testing::internal::GetCapturedStderr()), 1);
    uint8_t one = 0;
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Interpreter::createFromBuffer(&one, 0), nullptr);
    EXPECT_EQ(countLines(::testing::internal::GetCapturedStderr()), 1);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Interpreter::createFromFile("/nonexistent/model.mnn"), nullptr);
    EXPECT_EQ(countLines(::testing::internal::GetCapturedStderr()), 1);
    auto path = tempDir("malformed") + "/empty.mnn";
    { std::ofstream f(path, std::ios::binary); }
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Interpreter::createFromFile(path.c_str()), nullptr);
    EXPECT_EQ(countLines(::testing::internal::GetCapturedStderr()), 1);
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(Interpreter::createFromFile(nullptr), nullptr);
    EXPECT_EQ(countLines(::testing::internal::GetCapturedStderr()), 1);
}

TEST(Malformed, EveryTruncationIsRefused) {
    auto buf = validBuilder().finish();
    int lines = 0;
    ASSERT_EQ(tryModel(buf, &lines), 0);
    for (size_t n = 0; n < buf.size(); ++n) {
        std::vector<uint8_t> cut(buf.begin(), buf.begin() + n);
        int stage = tryModel(cut, &lines);
        bool onlyPadding = std::all_of(buf.begin() + n, buf.end(), [](uint8_t b) { return b == 0; }) &&
                           buf.size() - n < 8;
        if (onlyPadding && stage == 0) {
            continue;  // only trailing alignment padding was cut: still the same valid model
        }
        EXPECT_NE(stage, 0) << "truncated to " << n << " bytes was accepted";
        EXPECT_EQ(lines, 1) << "truncated to " << n;
    }
}

TEST(Malformed, RandomBytesAndBitFlipsNeverCrash) {
    std::mt19937 gen(1234);
    int lines = 0;
    for (int i = 0; i < 200; ++i) {
        std::vector<uint8_t> junk(1 + gen() % 512);
        for (auto& b : junk) {
            b = (uint8_t)gen();
        }
        if (i % 2 == 0 && junk.size() >= 8) {
            memcpy(junk.data() + 4, "MNNF", 4);  // get past the identifier check
        }
        EXPECT_NE(tryModel(junk, &lines), 0);
        EXPECT_EQ(lines, 1);
    }
    // single-byte corruptions of a valid model: refused with one line, or accepted and run safely
    auto buf = validBuilder().finish();
    for (size_t i = 0; i < buf.size(); ++i) {
        for (uint8_t v : {0x00, 0xff, 0x7f, 0x80}) {
            auto bad = buf;
            bad[i] = v;
            int stage = tryModel(bad, &lines);
            if (stage != 0) {
                EXPECT_EQ(lines, 1) << "byte " << i << " = " << (int)v;
            }
        }
    }
}

TEST(Malformed, SemanticErrors) {
    int lines = 0;
    {  // op input index out of range
        auto mb = validBuilder();
        mb.net().ops[0]->inputs[1] = 99;
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
    }
    {  // op output index out of range
        auto mb = validBuilder();
        mb.net().ops[0]->outputs[0] = -3;
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
    }
    {  // unknown op type
        auto mb = validBuilder();
        mb.net().ops[0]->type = (Schema::OpType)9999;
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
    }
    {  // absurd constant dims (size mismatch / overflow)
        auto mb = validBuilder();
        mb.net().constants[0]->dims = {1 << 30, 1 << 30, 1 << 30};
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
        mb.net().constants[0]->dims = {-3};
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
    }
    {  // absurd input dims: refused at createSession, no allocation attempt
        auto mb = validBuilder();
        mb.net().inputs[0]->dims = {1 << 30, 1 << 30};
        EXPECT_EQ(tryModel(mb.finish(), &lines), 2);
        EXPECT_EQ(lines, 1);
    }
    {  // graph output index out of range
        auto mb = validBuilder();
        mb.net().outputs[0] = 1000;
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
    }
    {  // a cycle: y = add(x, y2), y2 = add(y, c)
        ModelBuilder mb;
        mb.input("x", {3});
        mb.constant("c", {3}, {1, 2, 3});
        Schema::BinaryParamT p;
        mb.op(Schema::OpType::BinaryOp, "a", {"x", "y2"}, {"y"})->param.Set(p);
        mb.op(Schema::OpType::BinaryOp, "b", {"y", "c"}, {"y2"})->param.Set(p);
        mb.output("y2");
        EXPECT_EQ(tryModel(mb.finish(), &lines), 2);
        EXPECT_EQ(lines, 1);
    }
    {  // a tensor used but never produced
        ModelBuilder mb;
        mb.input("x", {3});
        Schema::BinaryParamT p;
        mb.op(Schema::OpType::BinaryOp, "a", {"x", "ghost"}, {"y"})->param.Set(p);
        mb.output("y");
        EXPECT_EQ(tryModel(mb.finish(), &lines), 2);
        EXPECT_EQ(lines, 1);
    }
    {  // op with the parameter table of another op type
        auto mb = validBuilder();
        Schema::PoolParamT pool;
        mb.net().ops[0]->param.Set(pool);
        EXPECT_EQ(tryModel(mb.finish(), &lines), 1);
        EXPECT_EQ(lines, 1);
    }
    {  // op without its parameter table
        auto mb = validBuilder();
        mb.net().ops[0]->param.Reset();
        EXPECT_EQ(tryModel(mb.finish(), &lines), 2);
        EXPECT_EQ(lines, 1);
    }
}
