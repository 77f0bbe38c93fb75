#include "ThreadPool.hpp"

namespace MNN {

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
        mGeneration.fetch_add(1);
    }
    mWake.notify_all();
    for (auto& t : mWorkers) {
        t.join();
    }
}

void ThreadPool::runTasks() {
    for (;;) {
        int i = mNext.fetch_add(1, std::memory_order_relaxed);
        if (i >= mCount) {
            break;
        }
        mFn(mCtx, i);
    }
}

void ThreadPool::workerLoop() {
    unsigned seen = 0;
    for (;;) {
        // spin a little (the next parallelFor usually follows at once), then sleep
        unsigned gen = mGeneration.load(std::memory_order_acquire);
        for (int spin = 0; gen == seen && spin < 2000; ++spin) {
            std::this_thread::yield();
            gen = mGeneration.load(std::memory_order_acquire);
        }
        if (gen == seen) {
            std::unique_lock<std::mutex> g(mSleepLock);
            mWake.wait(g, [&] { return mGeneration.load(std::memory_order_acquire) != seen; });
            gen = mGeneration.load(std::memory_order_acquire);
        }
        seen = gen;
        if (mStop.load()) {
            return;
        }
        runTasks();
        mPending.fetch_sub(1, std::memory_order_acq_rel);
    }
}

void ThreadPool::parallelFor(int n, TaskFn fn, void* ctx) {
    if (n <= 0) {
        return;
    }
    if (mThreads <= 1 || n == 1) {
        for (int i = 0; i < n; ++i) {
            fn(ctx, i);
        }
        return;
    }
    std::lock_guard<std::mutex> caller(mLock);
    mFn = fn;
    mCtx = ctx;
    mCount = n;
    mNext.store(0, std::memory_order_relaxed);
    mPending.store((int)mWorkers.size(), std::memory_order_relaxed);
    {
        std::lock_guard<std::mutex> g(mSleepLock);
        mGeneration.fetch_add(1, std::memory_order_release);
    }
    mWake.notify_all();
    runTasks();
    while (mPending.load(std::memory_order_acquire) != 0) {
        std::this_thread::yield();
    }
}

} // namespace MNN
