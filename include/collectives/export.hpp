// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// COLLECTIVES_EXPORT marks what the compiled library exports. The library is built with hidden
// visibility (CMake: CXX_VISIBILITY_PRESET hidden, VISIBILITY_INLINES_HIDDEN), so a shared
// libcollectives.so exports only what carries this macro; everything else stays internal and
// may change without breaking the ABI.
//
// Every non-template, non-inline function that a public header declares and src/ defines gets
// it on its declaration in the header, before the return type:
//
//   COLLECTIVES_EXPORT std::string_view to_string(algorithm a);
//   COLLECTIVES_EXPORT void run(const request& r);          // collectives::detail too
//
// and so does every class whose objects cross the library boundary by type, for its typeinfo and
// vtable (an exception the library throws and the application catches):
//
//   class COLLECTIVES_EXPORT error : public std::runtime_error { ... };
//
// Templates, inline and constexpr functions are compiled into the application and need nothing.
// A definition in src/ needs no macro: it inherits the header declaration's visibility, as long
// as the .cpp includes that header (it must, or the declaration and definition may drift apart).
// Check with: nm -D --defined-only -C libcollectives.so (the `packaging` tests do).
//
// The macro is the same for the static and the shared library, so the installed headers do not
// depend on how the library was built.

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
