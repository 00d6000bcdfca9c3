#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks that a shared libcollectives exports exactly the public API.
# Usage: check_exports.sh <libcollectives.so> <include-dir>
#  1. every function a public header declares (a one-line, non-template, non-inline declaration
#     `... name(...);` in namespace scope, the style of include/collectives) and the library
#     defines is exported; a missing COLLECTIVES_EXPORT leaves it hidden and fails here;
#  2. nothing else of namespace collectives is exported: no internal function leaks into the ABI;
#  3. collectives::error's typeinfo is exported, so the application catches it by type.
# Template instantiations of std:: and other libraries that the compiler emits as weak symbols
# are not the library's API and are not checked.
set -euo pipefail

so=$1 include_dir=$2

# Names of the functions the public headers declare (not define): the identifier before '(' on a
# line that ends with ');', has a return type before the name, and is not a template's (previous
# line `template <...>`), a statement (`return`, an assignment before the call) or a macro line.
declared=$(find "$include_dir" -name '*.hpp' -exec awk '
  { line = $0; sub(/\/\/.*/, "", line) }
  line ~ /\);[[:space:]]*$/ && line !~ /^[[:space:]]*(return|#|static_assert|using|typedef)/ &&
  prev !~ /^[[:space:]]*template/ && line !~ /^[^(]*=/ && line ~ /^[[:space:]]*[A-Za-z]/ {
    head = line; sub(/\(.*/, "", head)
    # A return type, then the name: `std::memcpy(...);` is a call, not a declaration.
    if (match(head, /[^[:space:]][[:space:]&*]+(operator[^[:space:]]+|[A-Za-z_][A-Za-z0-9_]*)$/)) {
      name = substr(head, RSTART + 1); sub(/^[[:space:]&*]+/, "", name); print name
    }
  }
  { prev = line }' {} + | sort -u)

# Defined symbols of namespace collectives, as "<nm type> <demangled name>": from the dynamic
# table (exported) and from the full table (hidden ones too). Compiler-made parts of a function
# ("[clone .cold]") and template instantiations ('<' in the name before its parameters) are left
# out.
symbols() {
  nm "$@" --defined-only -C "$so" | awk '{ t = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); print t " " $0 }' |
    grep -E '^[A-Za-z] collectives::' | grep -vE '\[clone|\(anonymous namespace\)' |
    awk '{ name = $0; sub(/\(.*/, "", name); sub(/operator[^ ]*$/, "", name) } name !~ /</' || true
}

# Compares, in one pass: names declared in the headers, exported symbols, all defined symbols.
# (A function returning std::string carries the ABI tag "[abi:cxx11]" in its symbol: not part of
# its name.)
# 1. declared in a public header and defined as a function in the library: exported;
# 2. exported from namespace collectives: declared in a public header.
status=0
awk -v declared="$declared" '
  function base(name) { sub(/\(.*/, "", name); sub(/\[abi:[^]]*\]$/, "", name); sub(/.*::/, "", name); return name }
  BEGIN { n = split(declared, d, "\n"); for (i = 1; i <= n; ++i) is_declared[d[i]] = 1 }
  FNR == 1 { ++file }
  { type = $1; name = $0; sub(/^[^ ]+ /, "", name) }
  file == 1 {
    exported[name] = 1
    if (!(base(name) in is_declared)) {
      print "check_exports: \047" name "\047 is exported but no public header declares it: an internal leaks into the ABI"
      bad = 1
    }
  }
  file == 2 && type ~ /^[Tt]$/ && (base(name) in is_declared) && !(name in exported) {
    print "check_exports: \047" name "\047 is declared in a public header but not exported: put COLLECTIVES_EXPORT on its declaration"
    bad = 1
  }
  END { exit bad }' <(symbols -D) <(symbols) >&2 || status=1

# 3. The exception type the library throws: its typeinfo, so the application catches it by type.
if ! grep -qF 'typeinfo for collectives::error' <<<"$(nm -D --defined-only -C "$so")"; then
  echo "check_exports: typeinfo for collectives::error is not exported" >&2
  status=1
fi

if [[ $status -eq 0 ]]; then
  echo "check_exports: $so exports $(symbols -D | wc -l) functions of namespace collectives, all declared in $include_dir:"
  symbols -D | sed 's/^. /  /'
fi
exit $status
