// A persistent worker pool owned by CPURuntime. parallelFor(n, fn, ctx) runs fn(ctx, i) for
// i in [0, n), spread over the workers and the calling thread; it returns when all are done.
// Workers spin briefly, then sleep on a condition variable. No allocation per call: the task is a
// plain function pointer and a context pointer. The caller waits only for the tasks, never for a
// worker to wake up, so a descheduled worker (busy machine) costs nothing.
// Affinity: thread t (the caller is 0) owns the t-th contiguous share of [0, n) and runs it from
// the front; a thread done with its own share steals from the back of the others'. Ops split their
// data in the same order run after run, so a core mostly finds in its own cache what it wrote in the
// previous op and the weights it used in the last inference, instead of pulling them from the other
// core's (task-by-task claiming from one counter interleaved the cores at random).
// Waking a sleeping worker (Linux): the scheduler's wake-affine placement queued it on the caller's
// own CPU, behind the caller that was busy with its share, until the next tick preempted the caller
// (3.7 ms median on the 2-core Zen 3 VM: an inference that follows a pause ran its first ops on one
// core). A worker found asleep gets the CPUs it may run on minus the caller's current one before the
// wake (one sched_setaffinity, only when the caller's CPU changed since that worker's last one): it
// woke 60-150 us later on the other core.
#ifndef MNN_CPU_THREADPOOL_HPP
#define MNN_CPU_THREADPOOL_HPP

#include <stdint.h>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#if defined(__linux__)
#include <sched.h>
#endif

namespace MNN {

class ThreadPool {
public:
    typedef void (*TaskFn)(void* ctx, int index);

    /** threads: total parallelism including the caller (1 = no workers, everything inline) */
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int threads() const {
        return mThreads;
    }
    void parallelFor(int n, TaskFn fn, void* ctx);

    /** workers now waiting on the condition variable (tests: wait for the pool to fall asleep) */
    int sleepingWorkers();

    /** f(i) for i in [0, n); f is referenced, not copied (no allocation) */
    template <typename F>
    void parallelFor(int n, F& f) {
        parallelFor(n, [](void* c, int i) { (*static_cast<F*>(c))(i); }, &f);
    }

private:
    void workerLoop(int self);

    /** claims one task of generation gen from share s (front when own, back when stealing); -1 if none */
    int claim(int s, uint64_t gen, bool own);
    /** runs the tasks of generation gen: share self first, then the others' from the back */
    void runShares(int self, uint64_t gen);

    // a share = generation (16 bits) | begin (24 bits) | end (24 bits); a task is claimed by a CAS on
    // it, so a worker waking late for a finished generation can never claim a later one's task
    static constexpr int kIndexBits = 24;
    static constexpr uint64_t kIndexMask = (1ull << kIndexBits) - 1;
    static constexpr int kMaxThreads = 64;
    struct alignas(64) Share {
        std::atomic<uint64_t> word{0};
        std::atomic<int> done{0};  // tasks thread t finished in the current generation (any share)
        // worker t (t >= 1): its kernel thread id, whether it waits on mWake (set and cleared under
        // mSleepLock), and the CPU its affinity mask leaves out (-1: none)
        std::atomic<int> tid{0};
        bool asleep = false;
        int excludedCpu = -1;
    };

    /** before waking: the sleeping workers leave the caller's current CPU to it (see the top) */
    void steerSleepers(const bool* asleep);

    int mThreads = 1;
    std::vector<std::thread> mWorkers;
    std::mutex mLock;          // serialises parallelFor callers
    std::mutex mSleepLock;     // guards the sleep
    std::condition_variable mWake;
    std::atomic<uint64_t> mTicket{0};  // generation << 48: what workers poll
    Share mShares[kMaxThreads];
    std::atomic<bool> mStop{false};
    TaskFn mFn = nullptr;
    void* mCtx = nullptr;
#if defined(__linux__)
    cpu_set_t mAllowed;  // the CPUs the creating thread may use (steerSleepers: 2 or more)
#endif
};

/**
 * Per-thread scratch for tasks claimed dynamically: at most `threads` tasks of one parallelFor run
 * at once, so a task that claims a slot on entry and releases it on exit always finds one of
 * kMaxSlots free. Lets an op run one task per work item (even balance) with scratch for as many
 * items as there are threads, not as there are tasks.
 */
class ScratchSlots {
public:
    static constexpr int kMaxSlots = 64;
    /** the lowest free slot, now taken */
    int claim() {
        for (;;) {
            uint64_t m = mMask.load(std::memory_order_relaxed);
            const uint64_t free = ~m;
            if (free == 0) {
                continue;  // more concurrent claimers than slots: a caller bug (tasks > kMaxSlots threads)
            }
            const int i = __builtin_ctzll(free);
            if (mMask.compare_exchange_weak(m, m | (1ull << i), std::memory_order_acquire)) {
                return i;
            }
        }
    }
    void release(int i) {
        mMask.fetch_and(~(1ull << i), std::memory_order_release);
    }

private:
    std::atomic<uint64_t> mMask{0};
};

/** runs inline when pool is null or has one thread */
template <typename F>
inline void parallelFor(ThreadPool* pool, int n, F& f) {
    if (!pool || pool->threads() <= 1 || n <= 1) {
        for (int i = 0; i < n; ++i) {
            f(i);
        }
        return;
    }
    pool->parallelFor(n, f);
}

/**
 * f(i) for i in [0, items), in tasks of consecutive items worth at least minTaskWork together
 * (itemWork each, in any unit): a task costs a claim and, on another core, the hand-off of its data,
 * more than a small item's work (an unpack of 80 one-position blocks took 9 us at two threads as a
 * task per block). Runs inline where one task is all there is.
 */
template <typename F>
inline void parallelForItems(ThreadPool* pool, int64_t items, double itemWork, double minTaskWork, F& f) {
    int64_t tasks = 1;
    if (pool && pool->threads() > 1 && items > 1) {
        const double byWork = (double)items * itemWork / minTaskWork;
        tasks = byWork >= (double)items ? items : (byWork < 1.0 ? 1 : (int64_t)byWork);
    }
    if (tasks <= 1) {
        for (int64_t i = 0; i < items; ++i) {
            f((int)i);
        }
        return;
    }
    auto ranges = [&](int t) {
        for (int64_t i = items * t / tasks, e = items * (t + 1) / tasks; i < e; ++i) {
            f((int)i);
        }
    };
    pool->parallelFor((int)tasks, ranges);
}

} // namespace MNN
#endif
