// MNN::Timer / MNN::AutoTime (include/MNN/AutoTime.hpp): steady_clock microseconds, MNN_PRINT.
#include <MNN/AutoTime.hpp>
#include <stdlib.h>
#include <string.h>
#include <chrono>

namespace MNN {

static uint64_t nowInUs() {
    using namespace std::chrono;
    return (uint64_t)duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
}

Timer::Timer() {
    reset();
}

Timer::~Timer() = default;

void Timer::reset() {
    mLastResetTime = nowInUs();
}

uint64_t Timer::durationInUs() {
    const uint64_t now = nowInUs();
    return now > mLastResetTime ? now - mLastResetTime : 0;
}

AutoTime::AutoTime(int line, const char* func) : mLine(line) {
    // a copy: the caller's string may not outlive this object (null when out of memory: printed as "")
    mName = strdup(func ? func : "");
}

AutoTime::~AutoTime() {
    const double ms = (double)durationInUs() / 1000.0;
    MNN_PRINT("%s, %d, cost time: %f ms\n", mName ? mName : "", mLine, ms);
    free(mName);
}

}  // namespace MNN
