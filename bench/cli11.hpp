// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// CLI11, for every collbench program. SMPI's compiler wrapper defines a function-like macro
// exit(x) (smpi_helpers.h), which would rewrite CLI11's member App::exit(e, out, err) and every
// call of it (CLI11_PARSE): gone for the files that parse a command line, whose own exits happen
// before MPI starts or outside MPI programs (collreport, colltune, trace_merge).
#undef exit
#include <CLI/CLI.hpp>
