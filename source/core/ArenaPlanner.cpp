#include "ArenaPlanner.hpp"

namespace MNN {

void ArenaPlanner::reset() {
    mUsed.clear();
    mFree.clear();
    mEnd = 0;
    mPeak = 0;
}

int64_t ArenaPlanner::alloc(int64_t bytes) {
    int64_t size = (bytes + kAlign - 1) / kAlign * kAlign;
    if (size == 0) {
        size = kAlign;  // keeps offsets unique so release stays unambiguous
    }
    // best fit among free blocks
    auto best = mFree.end();
    for (auto it = mFree.begin(); it != mFree.end(); ++it) {
        if (it->second >= size && (best == mFree.end() || it->second < best->second)) {
            best = it;
        }
    }
    int64_t offset;
    if (best != mFree.end()) {
        offset = best->first;
        int64_t rest = best->second - size;
        mFree.erase(best);
        if (rest > 0) {
            mFree[offset + size] = rest;
        }
    } else if (!mFree.empty() && mFree.rbegin()->first + mFree.rbegin()->second == mEnd) {
        // grow the last free block at the end
        auto last = std::prev(mFree.end());
        offset = last->first;
        mFree.erase(last);
        mEnd = offset + size;
    } else {
        offset = mEnd;
        mEnd += size;
    }
    if (mEnd > mPeak) {
        mPeak = mEnd;
    }
    mUsed[offset] = size;
    return offset;
}

void ArenaPlanner::free(int64_t offset) {
    auto it = mUsed.find(offset);
    if (it == mUsed.end()) {
        return;
    }
    int64_t size = it->second;
    mUsed.erase(it);
    auto next = mFree.lower_bound(offset);
    if (next != mFree.end() && offset + size == next->first) {
        size += next->second;
        next = mFree.erase(next);
    }
    if (next != mFree.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            prev->second += size;
            return;
        }
    }
    mFree[offset] = size;
}

} // namespace MNN
