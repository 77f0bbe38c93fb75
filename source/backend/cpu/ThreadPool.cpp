#include "ThreadPool.hpp"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace MNN {

namespace {
/** one spin-wait hint: the core's pause (x86 / aarch64), not a system call */
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}
// A worker polls the ticket kPauseSpins times with pause (tens of microseconds: the gap between two
// ops' parallelFor), then kYieldSpins times with sched_yield, then sleeps. Polling by sched_yield
// alone cost each parallelFor a system call's latency (~1.4 us per op at 2 threads on efficientnet_b0's
// 101 ops); a longer pause phase would burn a shared core that another process needs.
constexpr int kPauseSpins = 4000;
constexpr int kYieldSpins = 2000;
/** the spin-th wait of a poll: pause first, then sched_yield */
inline void spinWait(int spin) {
    if (spin < kPauseSpins) {
        cpuRelax();
    } else {
        std::this_thread::yield();
    }
}
}  // namespace

ThreadPool::ThreadPool(int threads) : mThreads(threads < 1 ? 1 : (threads > kMaxThreads ? kMaxThreads : threads)) {
#if defined(__linux__)
    CPU_ZERO(&mAllowed);
    if (mThreads > 1 && sched_getaffinity(0, sizeof(mAllowed), &mAllowed) != 0) {
        CPU_ZERO(&mAllowed);
    }
#endif
    mWorkers.reserve((size_t)(mThreads - 1));
    for (int i = 1; i < mThreads; ++i) {
        mWorkers.emplace_back([this, i] { workerLoop(i); });
    }
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> g(mSleepLock);
        mStop.store(true);
    }
    mWake.notify_all();
    for (auto& t : mWorkers) {
        t.join();
    }
}

int ThreadPool::claim(int s, uint64_t gen, bool own) {
    std::atomic<uint64_t>& w = mShares[s].word;
    uint64_t v = w.load(std::memory_order_acquire);
    for (;;) {
        const uint64_t vGen = v >> (2 * kIndexBits);
        const uint64_t begin = (v >> kIndexBits) & kIndexMask;
        const uint64_t end = v & kIndexMask;
        if (vGen != gen || begin >= end) {
            return -1;
        }
        // own share: take the front (begin + 1); stealing: take the back (end - 1)
        const uint64_t next = own ? v + (1ull << kIndexBits) : v - 1;
        if (w.compare_exchange_weak(v, next, std::memory_order_acq_rel, std::memory_order_acquire)) {
            return (int)(own ? begin : end - 1);
        }
    }
}

void ThreadPool::runShares(int self, uint64_t gen) {
    // the claim keeps this generation open, so mFn / mCtx are still its own. Each thread counts its
    // finished tasks in its own cache line; the caller sums the counts once it has run out of tasks
    // (one counter for all moved its line between the cores at every task: 24 tasks of 0.2 us took
    // 5.0 us at two threads, now 3.9; mobilenet_v3 -1.6..1.8% at two threads)
    std::atomic<int>& mine = mShares[self].done;
    for (int i; (i = claim(self, gen, true)) >= 0;) {
        mFn(mCtx, i);
        mine.fetch_add(1, std::memory_order_release);
    }
    for (int k = 1; k < mThreads; ++k) {
        const int s = (self + k) % mThreads;
        for (int i; (i = claim(s, gen, false)) >= 0;) {
            mFn(mCtx, i);
            mine.fetch_add(1, std::memory_order_release);
        }
    }
}

int ThreadPool::sleepingWorkers() {
    std::lock_guard<std::mutex> g(mSleepLock);
    int n = 0;
    for (int t = 1; t < mThreads; ++t) {
        n += mShares[t].asleep ? 1 : 0;
    }
    return n;
}

void ThreadPool::steerSleepers(const bool* asleep) {
#if defined(__linux__)
    const int cpu = sched_getcpu();
    if (CPU_COUNT(&mAllowed) < 2 || cpu < 0) {
        return;
    }
    cpu_set_t set = mAllowed;
    if (cpu < CPU_SETSIZE) {
        CPU_CLR(cpu, &set);
    }
    for (int t = 1; t < mThreads; ++t) {
        Share& w = mShares[t];
        const int tid = w.tid.load(std::memory_order_acquire);
        if (!asleep[t] || w.excludedCpu == cpu || tid <= 0) {
            continue;
        }
        // the mask stays until the next wake that finds the caller elsewhere; a failure (the CPUs
        // changed under the process) leaves the worker where the scheduler puts it
        sched_setaffinity((pid_t)tid, sizeof(set), &set);
        w.excludedCpu = cpu;
    }
#else
    (void)asleep;
#endif
}

void ThreadPool::workerLoop(int self) {
#if defined(__linux__)
    mShares[self].tid.store((int)syscall(SYS_gettid), std::memory_order_release);
#endif
    uint64_t seen = 0;
    for (;;) {
        // spin a little (the next parallelFor usually follows at once), then sleep
        uint64_t gen = mTicket.load(std::memory_order_acquire) >> (2 * kIndexBits);
        for (int spin = 0; gen == seen && spin < kPauseSpins + kYieldSpins && !mStop.load(std::memory_order_relaxed);
             ++spin) {
            spinWait(spin);
            gen = mTicket.load(std::memory_order_acquire) >> (2 * kIndexBits);
        }
        if (gen == seen) {
            std::unique_lock<std::mutex> g(mSleepLock);
            mShares[self].asleep = true;
            mWake.wait(g, [&] {
                return mStop.load() || (mTicket.load(std::memory_order_acquire) >> (2 * kIndexBits)) != seen;
            });
            mShares[self].asleep = false;
            gen = mTicket.load(std::memory_order_acquire) >> (2 * kIndexBits);
        }
        if (mStop.load()) {
            return;
        }
        seen = gen;
        runShares(self, gen);
    }
}

void ThreadPool::parallelFor(int n, TaskFn fn, void* ctx) {
    if (n <= 0) {
        return;
    }
    if (mThreads <= 1 || n == 1 || (uint64_t)n > kIndexMask) {
        for (int i = 0; i < n; ++i) {
            fn(ctx, i);
        }
        return;
    }
    std::lock_guard<std::mutex> caller(mLock);
    mFn = fn;
    mCtx = ctx;
    uint64_t gen = ((mTicket.load(std::memory_order_relaxed) >> (2 * kIndexBits)) + 1) & 0xFFFF;
    if (gen == 0) {
        gen = 1;  // workers start having seen generation 0
    }
    // thread t's share: [t n / T, (t + 1) n / T)
    for (int t = 0; t < mThreads; ++t) {
        const uint64_t begin = (uint64_t)n * t / mThreads, end = (uint64_t)n * (t + 1) / mThreads;
        mShares[t].word.store((gen << (2 * kIndexBits)) | (begin << kIndexBits) | end, std::memory_order_relaxed);
        mShares[t].done.store(0, std::memory_order_relaxed);
    }
    bool asleep[kMaxThreads];
    bool anyAsleep = false;
    {
        std::lock_guard<std::mutex> g(mSleepLock);
        mTicket.store(gen << (2 * kIndexBits), std::memory_order_release);
        for (int t = 1; t < mThreads; ++t) {
            asleep[t] = mShares[t].asleep;
            anyAsleep = anyAsleep || asleep[t];
        }
    }
    if (anyAsleep) {
        steerSleepers(asleep);
    }
    mWake.notify_all();
    runShares(0, gen);
    for (int spin = 0;; ++spin) {
        int done = 0;
        for (int t = 0; t < mThreads; ++t) {
            done += mShares[t].done.load(std::memory_order_acquire);
        }
        if (done == n) {
            break;
        }
        spinWait(spin);
    }
}

}  // namespace MNN
