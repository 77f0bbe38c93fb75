// CPUFeatures: the L2 size the packed convolution sizes its chunks by (CPUConvolutionPacked).
#include <gtest/gtest.h>
#include <stdio.h>
#include <string.h>
#include "backend/cpu/CPUFeatures.hpp"

using namespace MNN;

namespace {

/** cpu0's L2 size as Linux's sysfs describes it (its own reading, not the engine's), or 0 */
long long sysfsL2Bytes() {
    for (int i = 0; i < 8; ++i) {
        char path[96];
        int level = 0;
        char type[32] = {0};
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE* f = fopen(path, "r");
        if (!f) {
            return 0;
        }
        const bool gotLevel = fscanf(f, "%d", &level) == 1;
        fclose(f);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%31s", type) != 1) {
                type[0] = 0;
            }
            fclose(f);
        }
        if (!gotLevel || level != 2 || strcmp(type, "Instruction") == 0) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        if (!f) {
            return 0;
        }
        long long kb = 0;
        char unit = 0;
        const int n = fscanf(f, "%lld%c", &kb, &unit);
        fclose(f);
        if (n < 1) {
            return 0;
        }
        return n == 2 && unit == 'M' ? kb * 1024 * 1024 : n == 2 && unit == 'K' ? kb * 1024 : kb;
    }
    return 0;
}

}  // namespace

TEST(CPUFeatures, L2SizeDefaultedAndClamped) {
    EXPECT_EQ(clampL2Bytes(0), kL2BytesDefault);
    EXPECT_EQ(clampL2Bytes(-1), kL2BytesDefault);
    EXPECT_EQ(clampL2Bytes(64 * 1024), kL2BytesMin);
    EXPECT_EQ(clampL2Bytes(512 * 1024), 512 * 1024);
    EXPECT_EQ(clampL2Bytes(2 * 1024 * 1024), 2 * 1024 * 1024);
    EXPECT_EQ(clampL2Bytes(1LL << 30), kL2BytesMax);
}

TEST(CPUFeatures, L2SizeMatchesTheSystemsDescription) {
    const long long l2 = cpuFeatures().l2Bytes;
    EXPECT_GE(l2, kL2BytesMin);
    EXPECT_LE(l2, kL2BytesMax);
    const long long sys = sysfsL2Bytes();
    if (sys <= 0) {
        GTEST_SKIP() << "no L2 entry for cpu0 in /sys/devices/system/cpu/cpu0/cache; detected " << l2 << " bytes";
    }
    // CPUID (x86) and the kernel's cache description (itself from CPUID, or from the device tree on
    // Arm) name the same cache
    EXPECT_EQ(l2, clampL2Bytes(sys)) << "sysfs says " << sys << " bytes";
}
