// Counts every heap allocation of the process through malloc-family overrides (glibc): operator new,
// std::vector, std::string and the engine's own allocations all end in malloc / calloc / realloc /
// posix_memalign / aligned_alloc / memalign.
//
// Every test source may include it; exactly ONE source file of a test executable defines
// MNN_ALLOCATION_COUNTER_DEFINE before including it, which defines the overrides. Without glibc, or under a sanitizer
// (which replaces malloc itself), MNN_COUNT_ALLOCATIONS stays undefined and tests using it should GTEST_SKIP.
#ifndef MNN_TEST_ALLOCATIONCOUNTER_HPP
#define MNN_TEST_ALLOCATIONCOUNTER_HPP

#include <MNN/Interpreter.hpp>
#include <stddef.h>
#include <atomic>
#include <string>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define MNN_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MNN_UNDER_SANITIZER 1
#endif

#if defined(__GLIBC__) && !defined(MNN_UNDER_SANITIZER)
#define MNN_COUNT_ALLOCATIONS 1
#endif

#include "RunningOnValgrind.hpp"
// valgrind replaces the malloc family of the executable too: the counters see nothing (googletest)
#define MNN_SKIP_UNDER_VALGRIND()                                                   \
    if (RUNNING_ON_VALGRIND) {                                                      \
        GTEST_SKIP() << "valgrind replaces malloc: allocations cannot be counted"; \
    }

namespace MNN {
namespace Test {
/** allocations made so far by the whole process (0 forever without MNN_COUNT_ALLOCATIONS) */
long allocationCount();
}  // namespace Test
}  // namespace MNN

#ifdef MNN_ALLOCATION_COUNTER_DEFINE
static std::atomic<long> gAllocations{0};
long MNN::Test::allocationCount() {
    return gAllocations.load();
}
#ifdef MNN_COUNT_ALLOCATIONS
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
void* malloc(size_t n) {
    gAllocations++;
    return __libc_malloc(n);
}
void* calloc(size_t a, size_t b) {
    gAllocations++;
    return __libc_calloc(a, b);
}
void* realloc(void* p, size_t n) {
    gAllocations++;
    return __libc_realloc(p, n);
}
void free(void* p) {
    __libc_free(p);
}
int posix_memalign(void** out, size_t align, size_t n) {
    gAllocations++;
    void* p = __libc_memalign(align, n);
    if (!p) {
        return 12;  // ENOMEM
    }
    *out = p;
    return 0;
}
void* aligned_alloc(size_t align, size_t n) {
    gAllocations++;
    return __libc_memalign(align, n);
}
void* memalign(size_t align, size_t n) {
    gAllocations++;
    return __libc_memalign(align, n);
}
}
#endif
#endif

namespace MNN {
namespace Test {

/** allocations made by `runs` runSession calls (each must return NO_ERROR, else -1) */
inline long allocationsOfRuns(Interpreter* net, Session* session, int runs) {
    const long before = allocationCount();
    for (int i = 0; i < runs; ++i) {
        if (net->runSession(session) != NO_ERROR) {
            return -1;
        }
    }
    return allocationCount() - before;
}

/**
 * For a failure message: the ops whose onExecute allocated in one run, as "name (Type) xN, ...",
 * found by counting between each op's before and after callbacks (the callbacks' own allocations
 * fall outside those windows). *onlyControlFlow: whether every op that allocated is If / Loop /
 * Scan (the documented exception: they run nested sessions).
 */
inline std::string opsThatAllocate(Interpreter* net, Session* session, bool* onlyControlFlow = nullptr) {
    bool controlFlow = true;  // every allocating op is If / Loop / Scan (nested sessions)
    std::string report;
    int listed = 0, more = 0;
    long start = 0;
    auto before = [&](const std::vector<Tensor*>&, const OperatorInfo*) {
        start = allocationCount();
        return true;
    };
    auto after = [&](const std::vector<Tensor*>&, const OperatorInfo* info) {
        const long n = allocationCount() - start;
        if (n != 0 && info->type() != "If" && info->type() != "Loop" && info->type() != "Scan") {
            controlFlow = false;
        }
        if (n != 0 && listed < 8) {
            report += (report.empty() ? "" : ", ") + info->name() + " (" + info->type() + ") x" + std::to_string(n);
            ++listed;
        } else if (n != 0) {
            ++more;
        }
        return true;
    };
    net->runSessionWithCallBackInfo(session, before, after);
    if (more > 0) {
        report += ", and " + std::to_string(more) + " more ops";
    }
    if (onlyControlFlow) {
        *onlyControlFlow = controlFlow && !report.empty();
    }
    return report.empty() ? "no single op (the session itself)" : report;
}

}  // namespace Test
}  // namespace MNN
#endif
