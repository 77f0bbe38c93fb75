#include "CPUFeatures.hpp"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mutex>
#include "core/Macro.hpp"
#if defined(__x86_64__) || defined(_M_X64)
#if defined(_MSC_VER)
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#endif

namespace MNN {

long long clampL2Bytes(long long detected) {
    if (detected <= 0) {
        return kL2BytesDefault;
    }
    return detected < kL2BytesMin ? kL2BytesMin : detected > kL2BytesMax ? kL2BytesMax : detected;
}

/** the first line of a small text file into buf (false if it cannot be read) */
static bool readLine(const char* path, char* buf, int size) {
    FILE* f = fopen(path, "r");
    if (!f) {
        return false;
    }
    const bool ok = fgets(buf, size, f) != nullptr;
    fclose(f);
    return ok;
}

/** the L2 size of cpu0 in bytes from Linux's sysfs cache description, 0 if it has none */
static long long l2FromSysfs() {
    char path[96], line[64];
    for (int i = 0; i < 8; ++i) {
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!readLine(path, line, sizeof(line))) {
            break;
        }
        if (atoi(line) != 2) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (readLine(path, line, sizeof(line)) && strncmp(line, "Instruction", 11) == 0) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!readLine(path, line, sizeof(line))) {
            return 0;
        }
        char* end = nullptr;
        const long long v = strtoll(line, &end, 10);
        const long long unit = end && (*end == 'K' || *end == 'k')   ? 1024
                               : end && (*end == 'M' || *end == 'm') ? 1024 * 1024
                                                                     : 1;
        return v > 0 ? v * unit : 0;
    }
    return 0;
}

#if defined(__x86_64__) || defined(_M_X64)
static void cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
#if defined(_MSC_VER)
    int v[4];
    __cpuidex(v, (int)leaf, (int)sub);
    for (int i = 0; i < 4; ++i) {
        r[i] = (unsigned)v[i];
    }
#else
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
#endif
}

static unsigned long long xgetbv0() {
#if defined(_MSC_VER)
    return _xgetbv(0);
#else
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
#endif
}

/**
 * the L2 size in bytes from CPUID, 0 if it does not say: Intel's deterministic cache parameters
 * (leaf 4: ways x partitions x line x sets of the level-2 data / unified cache), AMD's and Hygon's
 * extended leaf 0x80000006 (ECX[31:16], KB); leaf0: what leaf 0 returned (max leaf, vendor)
 */
static long long l2FromCpuid(const unsigned leaf0[4]) {
    const unsigned maxLeaf = leaf0[0];
    char vendor[13];
    memcpy(vendor, &leaf0[1], 4);
    memcpy(vendor + 4, &leaf0[3], 4);
    memcpy(vendor + 8, &leaf0[2], 4);
    vendor[12] = 0;
    unsigned r[4] = {0, 0, 0, 0};
    if (strcmp(vendor, "GenuineIntel") == 0 && maxLeaf >= 4) {
        for (unsigned sub = 0; sub < 16; ++sub) {
            cpuid(4, sub, r);
            const unsigned type = r[0] & 0x1Fu, level = (r[0] >> 5) & 0x7u;
            if (type == 0) {
                break;
            }
            if (level == 2 && (type == 1 || type == 3)) {
                const long long ways = (r[1] >> 22) + 1, parts = ((r[1] >> 12) & 0x3FFu) + 1,
                                line = (r[1] & 0xFFFu) + 1;
                return ways * parts * line * ((long long)r[2] + 1);
            }
        }
        return 0;
    }
    if (strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0) {
        cpuid(0x80000000u, 0, r);
        if (r[0] >= 0x80000006u) {
            cpuid(0x80000006u, 0, r);
            return (long long)(r[2] >> 16) * 1024;
        }
    }
    return 0;
}

static void detect(CPUFeatures* f) {
    unsigned r[4] = {0, 0, 0, 0};
    cpuid(0, 0, r);
    unsigned leaf0[4];
    memcpy(leaf0, r, sizeof(leaf0));
    const unsigned maxLeaf = r[0];
    if (maxLeaf < 1) {
        f->l2Bytes = clampL2Bytes(l2FromSysfs());
        return;
    }
    cpuid(1, 0, r);
    const unsigned ecx1 = r[2];
    f->sse41 = (ecx1 >> 19) & 1u;
    const bool osxsave = (ecx1 >> 27) & 1u;
    const bool avx = (ecx1 >> 28) & 1u;
    const bool fma = (ecx1 >> 12) & 1u;
    const bool f16c = (ecx1 >> 29) & 1u;  // every AVX2 CPU so far has it; the AVX2 tier's half weights need it
    unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
    const bool ymmState = (xcr0 & 0x6) == 0x6;            // SSE + AVX state
    const bool zmmState = (xcr0 & 0xE6) == 0xE6;          // + opmask, ZMM_Hi256, Hi16_ZMM
    unsigned ebx7 = 0;
    if (maxLeaf >= 7) {
        cpuid(7, 0, r);
        ebx7 = r[1];
    }
    const bool avx2 = (ebx7 >> 5) & 1u;
    const bool avx512f = (ebx7 >> 16) & 1u;
    const bool avx512bw = (ebx7 >> 30) & 1u;
    const bool avx512vl = (ebx7 >> 31) & 1u;
    f->avx2 = f->sse41 && avx && fma && f16c && avx2 && ymmState;
    f->avx512 = f->avx2 && avx512f && avx512bw && avx512vl && zmmState;
    const long long l2 = l2FromCpuid(leaf0);
    f->l2Bytes = clampL2Bytes(l2 > 0 ? l2 : l2FromSysfs());
}
#else
static void detect(CPUFeatures* f) {
    // no x86 kernels on other architectures: the scalar tier (auto-vectorised) is the safe default
    f->l2Bytes = clampL2Bytes(l2FromSysfs());
}
#endif

const CPUFeatures& cpuFeatures() {
    static CPUFeatures features;
    static std::once_flag once;
    std::call_once(once, [] {
        detect(&features);
        features.best = features.avx512 ? CPUTier::AVX512
                        : features.avx2 ? CPUTier::AVX2
                        : features.sse41 ? CPUTier::SSE41
                                         : CPUTier::SCALAR;
    });
    return features;
}

bool parseCPUTier(const char* s, CPUTier* out) {
    if (!s) {
        return false;
    }
    static const char* names[kCPUTierCount] = {"scalar", "sse41", "avx2", "avx512"};
    for (int i = 0; i < kCPUTierCount; ++i) {
        if (strcmp(s, names[i]) == 0) {
            *out = (CPUTier)i;
            return true;
        }
    }
    return false;
}

const char* cpuTierName(CPUTier t) {
    switch (t) {
        case CPUTier::SSE41:
            return "sse41";
        case CPUTier::AVX2:
            return "avx2";
        case CPUTier::AVX512:
            return "avx512";
        default:
            return "scalar";
    }
}

CPUTier cpuTier() {
    static CPUTier tier = CPUTier::SCALAR;
    static std::once_flag once;
    std::call_once(once, [] {
        tier = cpuFeatures().best;
        const char* env = getenv("MNN_CPU_ISA");
        if (env && env[0]) {
            CPUTier want;
            if (!parseCPUTier(env, &want)) {
                MNN_ERROR("MNN_CPU_ISA=%s: unknown tier (scalar|sse41|avx2|avx512), using %s\n", env,
                          cpuTierName(tier));
            } else if ((int)want > (int)tier) {
                MNN_ERROR("MNN_CPU_ISA=%s: this CPU only has %s\n", env, cpuTierName(tier));
            } else {
                tier = want;
            }
        }
    });
    return tier;
}

} // namespace MNN
