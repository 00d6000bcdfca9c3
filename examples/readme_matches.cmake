# SPDX-License-Identifier: BSD-3-Clause
# cmake -DREADME=README.md -DEXAMPLE=examples/allreduce.cpp [-DOUT=file] -P readme_matches.cmake
# Fails unless the README's code block after the line
#   <!-- example: examples/allreduce.cpp -->
# (from the line after its opening ```cpp to the line before its closing ```) is EXAMPLE, byte
# for byte. With -DOUT, a differing copy is written there, to diff against EXAMPLE.
foreach(var IN ITEMS README EXAMPLE)
  if(NOT DEFINED ${var} OR NOT EXISTS "${${var}}")
    message(FATAL_ERROR "readme_matches: -D${var}=<file> is missing or names no file")
  endif()
endforeach()
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)

set(marker "<!-- example: examples/allreduce.cpp -->\n```cpp\n")
string(FIND "${readme}" "${marker}" start)
if(start EQUAL -1)
  message(FATAL_ERROR "readme_matches: ${README} has no line '<!-- example: examples/allreduce.cpp -->' "
                      "followed by a ```cpp block")
endif()
string(LENGTH "${marker}" marker_length)
math(EXPR start "${start} + ${marker_length}")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "\n```\n" end)
if(end EQUAL -1)
  message(FATAL_ERROR "readme_matches: the README's example block has no closing ```")
endif()
math(EXPR end "${end} + 1")  # keep the last line's newline
string(SUBSTRING "${rest}" 0 ${end} block)

if(NOT block STREQUAL example)
  set(where "")
  if(DEFINED OUT)
    file(WRITE "${OUT}" "${block}")
    set(where "; the README's copy is in ${OUT} (diff the two)")
  endif()
  message(FATAL_ERROR "readme_matches: the README's example differs from ${EXAMPLE}${where}. Copy the "
                      "file into the README's block, or the block into the file.")
endif()
message(STATUS "readme_matches: the README shows ${EXAMPLE} exactly")
