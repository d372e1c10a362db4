#pragma once
// DBXB_SANITIZED_BUILD is defined when this translation unit is built with AddressSanitizer or
// ThreadSanitizer (CMake's DBXB_SANITIZE). GCC says so through __SANITIZE_ADDRESS__ /
// __SANITIZE_THREAD__; clang 14 only through __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DBXB_SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DBXB_SANITIZED_BUILD 1
#endif
#endif
