// RUNNING_ON_VALGRIND: valgrind's client-request macro where its header is installed, else 0 (the
// tests that measure resident memory or count allocations skip themselves under valgrind)
#ifndef MNN_TEST_RUNNINGONVALGRIND_HPP
#define MNN_TEST_RUNNINGONVALGRIND_HPP
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
#endif
