// Plans offsets in one pooled arena: best-fit reuse of freed blocks, peak tracking.
// Backends use it in the resize step; the real memory is allocated once at its end.
#ifndef MNN_CORE_ARENAPLANNER_HPP
#define MNN_CORE_ARENAPLANNER_HPP

#include <stddef.h>
#include <stdint.h>
#include <map>

namespace MNN {
class ArenaPlanner {
public:
    static const int64_t kAlign = 64;
    void reset();
    /** returns the offset of a block of `bytes` (0 bytes gets a distinct empty block) */
    int64_t alloc(int64_t bytes);
    void free(int64_t offset);
    int64_t peak() const {
        return mPeak;
    }

private:
    std::map<int64_t, int64_t> mUsed;   // offset -> size
    std::map<int64_t, int64_t> mFree;   // offset -> size, coalesced
    int64_t mEnd = 0;
    int64_t mPeak = 0;
};
} // namespace MNN
#endif
