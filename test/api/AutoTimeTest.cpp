// MNN::Timer / MNN::AutoTime / AUTOTIME (include/MNN/AutoTime.hpp): the stopwatch against sleeps of
// known length, the printed line parsed back ("<func>, <line>, cost time: <ms> ms").
#define MNN_OPEN_TIME_TRACE
#include <MNN/AutoTime.hpp>
#include <stdio.h>
#include <chrono>
#include <string>
#include <thread>
#include "TestUtils.hpp"

using namespace MNN;

namespace {

void sleepMs(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

struct Printed {
    bool parsed = false;
    std::string func;
    int line = -1;
    double ms = -1.0;
};

// one line "<func>, <line>, cost time: <ms> ms\n" and nothing else
Printed parse(const std::string& out) {
    Printed p;
    const size_t comma = out.find(", ");
    if (comma == std::string::npos || out.empty() || out.back() != '\n' || out.find('\n') != out.size() - 1) {
        return p;
    }
    p.func = out.substr(0, comma);
    char unit[8] = {0};
    p.parsed = sscanf(out.c_str() + comma + 2, "%d, cost time: %lf %7s", &p.line, &p.ms, unit) == 3 &&
               std::string(unit) == "ms";
    return p;
}

int timedFunction(int sleep) {
    const int line = __LINE__ + 1;
    AUTOTIME;
    sleepMs(sleep);
    return line;
}

}  // namespace

TEST(AutoTime, TimerMeasuresSleepsAndResets) {
    Timer timer;
    sleepMs(20);
    const uint64_t first = timer.durationInUs();
    EXPECT_GE(first, 20000u);
    EXPECT_LT(first, 5000000u);              // a loaded CI machine, but not seconds
    EXPECT_GE(timer.durationInUs(), first);  // monotonic
    timer.reset();
    const uint64_t afterReset = timer.durationInUs();
    EXPECT_LT(afterReset, first);
    sleepMs(5);
    EXPECT_GE(timer.durationInUs(), afterReset + 5000u);
}

TEST(AutoTime, PrintsFunctionLineAndMillisecondsAtScopeEnd) {
    ::testing::internal::CaptureStdout();
    {
        std::string name = "scopeName";
        AutoTime t(123, name.c_str());
        name.assign("changed after construction");  // the name was copied
        sleepMs(15);
    }
    const std::string out = ::testing::internal::GetCapturedStdout();
    const Printed p = parse(out);
    ASSERT_TRUE(p.parsed) << out;
    EXPECT_EQ(p.func, "scopeName");
    EXPECT_EQ(p.line, 123);
    EXPECT_GE(p.ms, 15.0) << out;
    EXPECT_LT(p.ms, 5000.0) << out;

    // nothing is printed before the scope ends
    ::testing::internal::CaptureStdout();
    std::string inside;
    {
        AutoTime t(7, nullptr);
        fflush(stdout);
        inside = ::testing::internal::GetCapturedStdout();
        ::testing::internal::CaptureStdout();
    }
    const std::string after = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(inside, "");
    const Printed q = parse(after);
    ASSERT_TRUE(q.parsed) << after;
    EXPECT_EQ(q.func, "");
    EXPECT_EQ(q.line, 7);
}

TEST(AutoTime, MacroTimesTheEnclosingFunction) {
    ::testing::internal::CaptureStdout();
    const int line = timedFunction(10);
    const std::string out = ::testing::internal::GetCapturedStdout();
    const Printed p = parse(out);
    ASSERT_TRUE(p.parsed) << out;
    EXPECT_EQ(p.func, "timedFunction");
    EXPECT_EQ(p.line, line);
    EXPECT_GE(p.ms, 10.0) << out;
}
