// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// COLLECTIVES_EXPORT marks what the compiled library exports: the library is built with hidden
// visibility, so a shared libcollectives.so exports only what carries it, and everything else may
// change without breaking the ABI. It goes on the header declaration of every non-template,
// non-inline function that src/ defines, and on every class whose objects cross the library
// boundary by type (an exception the library throws):
//
//   COLLECTIVES_EXPORT std::string_view to_string(algorithm a);
//   class COLLECTIVES_EXPORT error : public std::runtime_error { ... };
//
// The rules in full, and how to check them: docs/design.md, "What the library exports".

// Every public header includes this one, so it is also where a compiler without C++20 (g++ 12
// defaults to C++17) gets told what to do instead of failing on the first concept.
#if __cplusplus < 202002L
#error "collectives needs C++20: compile with -std=c++20 (CMake: collectives::collectives sets it)"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define COLLECTIVES_EXPORT __attribute__((visibility("default")))
#else
#define COLLECTIVES_EXPORT
#endif
