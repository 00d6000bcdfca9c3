// SPDX-License-Identifier: BSD-3-Clause
// Preloaded into the sanitizer runs' processes (build*/test_environment.cmake, with the leak check):
// dlclose does nothing, so the components the MPI library opens (Open MPI's mca_*.so) stay mapped
// until the process exits. LeakSanitizer then finds the module of every frame of an allocation's
// stack, which the suppressions (lsan.supp) match by library name; with the components unmapped,
// their frames name no module, and looking each one up again cost about 4 CPU s per launch at np 3
// (most of the leak check's cost). Built without the sanitizers: mpiexec gets it too.
// What it could hide: a block whose only pointer lies in a component's static data, scanned now
// that the component stays; the library hands MPI only handles and attributes, kept by libmpi.so,
// which is never unloaded anyway.

extern "C" int dlclose(void*) { return 0; }
