// Clang thread-safety annotations (-Wthread-safety), as LevelDB's port/thread_annotations.h: the
// compiler checks that members marked GUARDED_BY(mu) are touched only with mu held and that
// functions marked REQUIRES(mu) / EXCLUDES(mu) are called with mu held / not held. Empty under
// other compilers. Mutex and MutexLock (src/mutex.h) are the annotated lock types.
#pragma once

#if defined(__clang__)
#define DBX_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define DBX_THREAD_ANNOTATION(x)
#endif

#ifndef CAPABILITY
#define CAPABILITY(x) DBX_THREAD_ANNOTATION(capability(x))
#endif
#ifndef SCOPED_CAPABILITY
#define SCOPED_CAPABILITY DBX_THREAD_ANNOTATION(scoped_lockable)
#endif
#ifndef GUARDED_BY
#define GUARDED_BY(x) DBX_THREAD_ANNOTATION(guarded_by(x))
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) DBX_THREAD_ANNOTATION(pt_guarded_by(x))
#endif
#ifndef REQUIRES
#define REQUIRES(...) DBX_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#endif
#ifndef EXCLUDES
#define EXCLUDES(...) DBX_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#endif
#ifndef ACQUIRE
#define ACQUIRE(...) DBX_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#endif
#ifndef RELEASE
#define RELEASE(...) DBX_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#endif
#ifndef ASSERT_CAPABILITY
#define ASSERT_CAPABILITY(x) DBX_THREAD_ANNOTATION(assert_capability(x))
#endif
#ifndef NO_THREAD_SAFETY_ANALYSIS
#define NO_THREAD_SAFETY_ANALYSIS DBX_THREAD_ANNOTATION(no_thread_safety_analysis)
#endif
