#include "ThreadPool.hpp"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
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

ThreadPool::ThreadPool(int threads) : mThreads(threads < 1 ? 1 : threads) {
    mWorkers.reserve((size_t)(mThreads - 1));
    for (int i = 1; i < mThreads; ++i) {
        mWorkers.emplace_back([this] { workerLoop(); });
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

void ThreadPool::runTasks(uint64_t gen) {
    uint64_t ticket = mTicket.load(std::memory_order_acquire);
    for (;;) {
        const uint64_t tGen = ticket >> (2 * kIndexBits);
        const uint64_t count = (ticket >> kIndexBits) & kIndexMask;
        const uint64_t next = ticket & kIndexMask;
        if (tGen != gen || next >= count) {
            return;
        }
        if (!mTicket.compare_exchange_weak(ticket, ticket + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
            continue;  // ticket reloaded
        }
        // the claim keeps this generation open, so mFn / mCtx are still its own
        mFn(mCtx, (int)next);
        mDone.fetch_add(1, std::memory_order_release);
        ticket = mTicket.load(std::memory_order_acquire);
    }
}

void ThreadPool::workerLoop() {
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
            mWake.wait(g, [&] {
                return mStop.load() || (mTicket.load(std::memory_order_acquire) >> (2 * kIndexBits)) != seen;
            });
            gen = mTicket.load(std::memory_order_acquire) >> (2 * kIndexBits);
        }
        if (mStop.load()) {
            return;
        }
        seen = gen;
        runTasks(gen);
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
    mDone.store(0, std::memory_order_relaxed);
    uint64_t gen = ((mTicket.load(std::memory_order_relaxed) >> (2 * kIndexBits)) + 1) & 0xFFFF;
    if (gen == 0) {
        gen = 1;  // workers start having seen generation 0
    }
    {
        std::lock_guard<std::mutex> g(mSleepLock);
        mTicket.store((gen << (2 * kIndexBits)) | ((uint64_t)n << kIndexBits), std::memory_order_release);
    }
    mWake.notify_all();
    runTasks(gen);
    for (int spin = 0; mDone.load(std::memory_order_acquire) != n; ++spin) {
        spinWait(spin);
    }
}

}  // namespace MNN
