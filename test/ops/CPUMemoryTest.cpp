// CPUMemory: the backend's large-buffer allocator. Small buffers are 64-byte aligned heap memory;
// from kLargeBytes up (Linux) 2 MB-aligned mappings, advised for huge pages. Both hold what is
// written to every page, free cleanly (the ASan / valgrind stages see leaks and bad frees), and
// LargeVector keeps std::vector's behaviour across growth, copies and swaps.
#include <gtest/gtest.h>
#include <cstdint>
#include <cstring>
#include "backend/cpu/CPUMemory.hpp"

namespace MNN {
namespace {

void fillAndCheck(uint8_t* p, size_t bytes) {
    for (size_t i = 0; i < bytes; i += 4096) {
        p[i] = (uint8_t)(i / 4096 * 7 + 1);
    }
    for (size_t i = 0; i < bytes; i += 4096) {
        ASSERT_EQ(p[i], (uint8_t)(i / 4096 * 7 + 1)) << "byte " << i << " of " << bytes;
    }
    p[bytes - 1] = 0xA5;
    ASSERT_EQ(p[bytes - 1], 0xA5);
}

TEST(CPUMemory, SmallAndLargeBuffersAreAlignedAndWritable) {
    const size_t sizes[] = {
        1, 64, 4095, 300000, kLargeBytes - 1, kLargeBytes, kLargeBytes + 1, 5 * kLargeBytes + 12345};
    for (size_t bytes : sizes) {
        void* p = cpuAlloc(bytes);
        ASSERT_NE(p, nullptr) << bytes;
        EXPECT_EQ((uintptr_t)p % 64, 0u) << bytes;
#if defined(__linux__)
        if (bytes >= kLargeBytes) {
            EXPECT_EQ((uintptr_t)p % kLargeBytes, 0u) << "a large buffer starts on a huge-page boundary: " << bytes;
        }
#endif
        fillAndCheck((uint8_t*)p, bytes);
        cpuFree(p, bytes);
    }
    cpuFree(nullptr, kLargeBytes);  // a no-op, as free(nullptr)
}

TEST(CPUMemory, LargeVectorGrowsCopiesAndSwapsAcrossTheThreshold) {
    LargeVector<float> v;
    const size_t n = kLargeBytes / sizeof(float) + 1000;
    for (size_t i = 0; i < n; ++i) {
        v.push_back((float)i);  // reallocates from small heap buffers into large mappings
    }
    LargeVector<float> copy = v;
    ASSERT_EQ(copy.size(), n);
    for (size_t i = 0; i < n; i += 997) {
        ASSERT_EQ(copy[i], (float)i);
    }
    LargeVector<float> small(10, 2.0f);
    small.swap(copy);
    EXPECT_EQ(small.size(), n);
    EXPECT_EQ(copy.size(), 10u);
    EXPECT_EQ(small[n - 1], (float)(n - 1));
    LargeVector<float>().swap(small);
    EXPECT_TRUE(small.empty());
    v.resize(3);
    v.shrink_to_fit();
    EXPECT_EQ(v[2], 2.0f);
}

}  // namespace
}  // namespace MNN
