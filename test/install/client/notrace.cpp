// Built without MNN_OPEN_TIME_TRACE: AUTOTIME expands to nothing (classic MNN's switch), while
// MNN::Timer stays usable.
#include <MNN/AutoTime.hpp>
#include <unistd.h>

#define MNN_CLIENT_STR2(x) #x
#define MNN_CLIENT_STR(x) MNN_CLIENT_STR2(x)
static_assert(sizeof(MNN_CLIENT_STR(AUTOTIME)) == 1, "AUTOTIME must expand to nothing without MNN_OPEN_TIME_TRACE");

int untracedScope(uint64_t* elapsedUs) {
    MNN::Timer timer;
    {
        AUTOTIME;
        usleep(1000);
    }
    *elapsedUs = timer.durationInUs();
    return 0;
}
