// The thread-safety contract (see Interpreter.hpp): one Interpreter, many sessions, each driven
// from its own thread, give results bit-identical to a single-threaded run.
#include <MNN/Interpreter.hpp>
#include <string.h>
#include <atomic>
#include <thread>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<uint8_t> deepChain(int depth) {
    ModelBuilder mb;
    mb.input("x", {8, 32});
    mb.constant("c", {32}, randomFloats(32, 11, 0.5f, 1.5f));
    std::string prev = "x";
    for (int i = 0; i < depth; ++i) {
        Schema::BinaryParamT p;
        p.type = (i % 3 == 0) ? Schema::BinaryOpType::MUL : (i % 3 == 1 ? Schema::BinaryOpType::ADD : Schema::BinaryOpType::SUB);
        std::string out = "t" + std::to_string(i);
        mb.op(Schema::OpType::BinaryOp, "op" + std::to_string(i), {prev, i % 2 ? "c" : "x"}, {out})->param.Set(p);
        prev = out;
    }
    mb.output(prev);
    return mb.finish();
}

TEST(ThreadSafety, SessionsPerThreadAreBitIdentical) {
    auto buf = deepChain(24);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(buf.data(), buf.size()));
    ASSERT_NE(net, nullptr);
    auto x = randomFloats(8 * 32, 5);
    // single-threaded reference
    auto ref = net->createSession(ScheduleConfig());
    memcpy(net->getSessionInput(ref, nullptr)->host<float>(), x.data(), x.size() * 4);
    ASSERT_EQ(net->runSession(ref), NO_ERROR);
    auto refOut = net->getSessionOutput(ref, nullptr);
    std::vector<float> expected(refOut->host<float>(), refOut->host<float>() + refOut->elementSize());

    const int kThreads = 8, kRuns = 100;
    std::atomic<int> mismatches{0}, failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t]() {
            // sessions are created concurrently too
            auto s = net->createSession(ScheduleConfig());
            if (!s) {
                failures++;
                return;
            }
            auto in = net->getSessionInput(s, nullptr);
            auto out = net->getSessionOutput(s, nullptr);
            for (int r = 0; r < kRuns; ++r) {
                memcpy(in->host<float>(), x.data(), x.size() * 4);
                if (net->runSession(s) != NO_ERROR) {
                    failures++;
                    return;
                }
                if (memcmp(out->host<float>(), expected.data(), expected.size() * 4) != 0) {
                    mismatches++;
                }
            }
            (void)t;
        });
    }
    for (auto& th : threads) {
        th.join();
    }
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(mismatches.load(), 0);
}
