#include "backend/cpu/CPUMemory.hpp"
#include <cstdlib>
#include "core/Macro.hpp"
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace MNN {

namespace {

constexpr size_t kPage = 4096;

size_t pageRound(size_t bytes) {
    return (bytes + kPage - 1) / kPage * kPage;
}

#if defined(__linux__) && defined(MADV_HUGEPAGE)
/** a 2 MB-aligned mapping of pageRound(bytes): map 2 MB more, cut the unaligned head and the tail */
void* mapAligned(size_t bytes) {
    const size_t len = pageRound(bytes);
    if (len < bytes || len > SIZE_MAX - kLargeBytes) {
        return nullptr;
    }
    void* raw = ::mmap(nullptr, len + kLargeBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) {
        return nullptr;
    }
    const uintptr_t begin = (uintptr_t)raw, end = begin + len + kLargeBytes;
    const uintptr_t a = (begin + kLargeBytes - 1) / kLargeBytes * kLargeBytes;
    if (a > begin) {
        ::munmap(raw, a - begin);
    }
    if (end > a + len) {
        ::munmap((void*)(a + len), end - (a + len));
    }
    // advice only: without transparent huge pages the mapping keeps small pages
    ::madvise((void*)a, len, MADV_HUGEPAGE);
    return (void*)a;
}
#define MNN_CPU_MAP_LARGE 1
#endif

}  // namespace

void* cpuAlloc(size_t bytes) {
    if (bytes == 0) {
        bytes = 64;
    }
#ifdef MNN_CPU_MAP_LARGE
    if (bytes >= kLargeBytes) {
        return mapAligned(bytes);
    }
#endif
    void* p = nullptr;
    if (::posix_memalign(&p, 64, bytes) != 0) {
        return nullptr;
    }
    return p;
}

void* cpuAllocOrDie(size_t bytes) {
    void* p = cpuAlloc(bytes);
    if (!p) {
        MNN_ERROR("CPU backend: out of memory allocating %zu bytes\n", bytes);
        std::abort();
    }
    return p;
}

void cpuFree(void* p, size_t bytes) {
    if (!p) {
        return;
    }
#ifdef MNN_CPU_MAP_LARGE
    if (bytes >= kLargeBytes) {
        ::munmap(p, pageRound(bytes));
        return;
    }
#endif
    ::free(p);
}

}  // namespace MNN
