#include "CPUFeatures.hpp"
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

static void detect(CPUFeatures* f) {
    unsigned r[4] = {0, 0, 0, 0};
    cpuid(0, 0, r);
    const unsigned maxLeaf = r[0];
    if (maxLeaf < 1) {
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
}
#else
static void detect(CPUFeatures*) {
    // no x86 kernels on other architectures: the scalar tier (auto-vectorised) is the safe default
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
