# SPDX-License-Identifier: BSD-3-Clause
# ctest driver: runs the mmio example (PROGRAM, with MODE "data" or "fscanf") on INPUT and
# compares its standard output, written to OUTPUT, with EXPECTED byte for byte.
set(args ${INPUT})
if(MODE STREQUAL "data")
  set(args --data ${INPUT})
endif()
execute_process(COMMAND ${PROGRAM} ${args} OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${args} exited with ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTPUT} ${EXPECTED} RESULT_VARIABLE differ)
if(differ)
  file(READ ${OUTPUT} got)
  file(READ ${EXPECTED} want)
  message(FATAL_ERROR "output differs from ${EXPECTED}\n--- got:\n${got}--- expected:\n${want}")
endif()
