// A persistent worker pool owned by CPURuntime. parallelFor(n, fn, ctx) runs fn(ctx, i) for
// i in [0, n), spread over the workers and the calling thread; it returns when all are done.
// Workers spin briefly, then sleep on a condition variable. No allocation per call: the task is a
// plain function pointer and a context pointer.
#ifndef MNN_CPU_THREADPOOL_HPP
#define MNN_CPU_THREADPOOL_HPP

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

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

    /** f(i) for i in [0, n); f is referenced, not copied (no allocation) */
    template <typename F>
    void parallelFor(int n, F& f) {
        parallelFor(n, [](void* c, int i) { (*static_cast<F*>(c))(i); }, &f);
    }

private:
    void workerLoop();
    void runTasks();

    int mThreads = 1;
    std::vector<std::thread> mWorkers;
    std::mutex mLock;          // serialises parallelFor callers and guards the sleep
    std::mutex mSleepLock;
    std::condition_variable mWake;
    std::atomic<unsigned> mGeneration{0};
    std::atomic<bool> mStop{false};
    std::atomic<int> mNext{0};
    std::atomic<int> mPending{0};  // workers still inside the current generation
    int mCount = 0;
    TaskFn mFn = nullptr;
    void* mCtx = nullptr;
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

} // namespace MNN
#endif
