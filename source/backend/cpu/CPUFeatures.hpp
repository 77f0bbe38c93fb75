// CPU feature detection and the ISA tier the optimised kernels run at.
#ifndef MNN_CPU_CPUFEATURES_HPP
#define MNN_CPU_CPUFEATURES_HPP

namespace MNN {

/** kernel tiers, ordered: a CPU that has a tier has every lower one */
enum class CPUTier : int { SCALAR = 0, SSE41 = 1, AVX2 = 2, AVX512 = 3 };
constexpr int kCPUTierCount = 4;

constexpr long long kL2BytesDefault = 512 * 1024;
constexpr long long kL2BytesMin = 128 * 1024;
constexpr long long kL2BytesMax = 16 * 1024 * 1024;

struct CPUFeatures {
    bool sse41 = false;
    bool avx2 = false;     // AVX2 + FMA, OS saves the YMM state
    bool avx512 = false;   // AVX-512 F + BW + VL, OS saves the ZMM / opmask state
    CPUTier best = CPUTier::SCALAR;  // highest tier the CPU supports
    // the L2 (data or unified) cache of one core in bytes: CPUID leaf 4 (Intel) / 0x80000006 (AMD) on
    // x86, sysfs elsewhere; kL2BytesDefault where neither answers; clamped to [kL2BytesMin, kL2BytesMax]
    long long l2Bytes = kL2BytesDefault;
};

/** a detected L2 size (bytes, 0 = unknown) made usable: the default for 0, else clamped */
long long clampL2Bytes(long long detected);

/** detected once (CPUID + XCR0 on x86; scalar elsewhere) */
const CPUFeatures& cpuFeatures();

/** the tier in use: the best one, lowered by env MNN_CPU_ISA=scalar|sse41|avx2|avx512 (never raised) */
CPUTier cpuTier();

const char* cpuTierName(CPUTier t);

/** parses "scalar" / "sse41" / "avx2" / "avx512"; false when unknown */
bool parseCPUTier(const char* s, CPUTier* out);

} // namespace MNN
#endif
