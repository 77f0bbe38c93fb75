// Host memory for the CPU backend's large buffers: the session arena, kernel scratch and packed
// weights. From kLargeBytes up they are 2 MB-aligned anonymous mappings marked for transparent huge
// pages (Linux MADV_HUGEPAGE; elsewhere, or where the mapping fails, 64-byte aligned heap memory).
// A large layer walks megabytes of weights and activations per inference: with 4 KB pages every
// 4 KB is a TLB miss, and a page walk under a hypervisor's nested paging costs hundreds of cycles
// (resnet50's 1x1 layers ran 1.3-1.5x slower in the model than alone on a Zen 3 VM).
#ifndef MNN_CPU_CPUMEMORY_HPP
#define MNN_CPU_CPUMEMORY_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

namespace MNN {

/** buffers of at least this many bytes hold a whole aligned huge page: mapped, huge-page advised */
constexpr size_t kLargeBytes = 2u << 20;

/** 64-byte aligned memory of `bytes` (> 0), huge-page advised from kLargeBytes; nullptr when out of memory */
void* cpuAlloc(size_t bytes);
/** cpuAlloc, or one log line and abort when out of memory (a std::vector's allocator cannot fail) */
void* cpuAllocOrDie(size_t bytes);
/** frees what cpuAlloc(bytes) returned; `bytes` must be the size it was given */
void cpuFree(void* p, size_t bytes);

/** std::vector's allocator over cpuAlloc: packed weights (LargeVector) get huge pages when large */
template <class T>
struct LargeAllocator {
    using value_type = T;
    LargeAllocator() = default;
    template <class U>
    LargeAllocator(const LargeAllocator<U>&) {}
    T* allocate(size_t n) {
        // out of memory: cpuAlloc logs and terminates, as std::allocator does without exceptions
        return static_cast<T*>(cpuAllocOrDie(n * sizeof(T)));
    }
    void deallocate(T* p, size_t n) {
        cpuFree(p, n * sizeof(T));
    }
    template <class U>
    bool operator==(const LargeAllocator<U>&) const {
        return true;
    }
    template <class U>
    bool operator!=(const LargeAllocator<U>&) const {
        return false;
    }
};

template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

/**
 * Data the next run of work will read (the next K slice's or output group's weights), requested
 * into L1 a share at a time between the steps of the current run, so that it arrives while the
 * current run computes: `lines` 64-byte lines from `base`, spread over `steps` calls of step().
 */
struct SpreadPrefetch {
    const char* base = nullptr;
    int64_t lines = 0, perStep = 0, done = 0;
    SpreadPrefetch(const void* b, int64_t l, int64_t steps)
        : base(static_cast<const char*>(b)), lines(l), perStep(steps > 0 ? (l + steps - 1) / steps : l) {}
    void step() {
        for (const int64_t e = done + perStep < lines ? done + perStep : lines; done < e; ++done) {
            __builtin_prefetch(base + done * 64, 0, 3);
        }
    }
};

}  // namespace MNN

#endif
