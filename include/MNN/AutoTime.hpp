// MNN::Timer and MNN::AutoTime: wall-clock timing for apps (the classic MNN header). AUTOTIME in a
// scope prints "<function>, <line>, cost time: <ms> ms" (MNN_PRINT, stdout) when the scope ends,
// only where the app defines MNN_OPEN_TIME_TRACE before including this header; otherwise it
// expands to nothing and costs nothing.
#ifndef MNN_AUTOTIME_HPP
#define MNN_AUTOTIME_HPP

#include <stdint.h>
#include <MNN/MNNDefine.h>

namespace MNN {

/** a monotonic stopwatch in microseconds, started when made */
class MNN_PUBLIC Timer {
public:
    Timer();
    ~Timer();
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

    /** restarts the stopwatch from now */
    void reset();
    /** microseconds since construction or the last reset() */
    uint64_t durationInUs();

protected:
    /** the start, in microseconds of a monotonic clock */
    uint64_t mLastResetTime;
};

/** prints "<func>, <line>, cost time: <ms> ms" (MNN_PRINT) when destroyed: the time it lived */
class MNN_PUBLIC AutoTime : Timer {
public:
    /** func is copied (any string the caller has); nullptr prints as "" */
    AutoTime(int line, const char* func);
    ~AutoTime();
    AutoTime(const AutoTime&) = delete;
    AutoTime& operator=(const AutoTime&) = delete;

private:
    int mLine;
    char* mName;
};

}  // namespace MNN

#ifdef MNN_OPEN_TIME_TRACE
#define MNN_AUTOTIME_CONCAT2(a, b) a##b
#define MNN_AUTOTIME_CONCAT(a, b) MNN_AUTOTIME_CONCAT2(a, b)
/** times the rest of the enclosing scope (one AUTOTIME per line) */
#define AUTOTIME MNN::AutoTime MNN_AUTOTIME_CONCAT(mnnAutoTime_, __LINE__)(__LINE__, __func__)
#else
#define AUTOTIME
#endif

#endif
