# SPDX-License-Identifier: BSD-3-Clause
# docs/algorithms.md's worked examples, checked against the library (included from
# tests/extra.cmake). check_examples.py reads every "<!-- example: NAME -->" block of the document,
# runs algorithms_examples (examples.c: the library's own calls) on it and recomputes in Python
# the steps that are no library call (Hillis-Steele and Blelloch steps, look-back statuses, the
# histogram's launch plan from cuda/tuning.cuh); each number the document states must match.
#   algorithms_examples_ref / _omp: the examples on the reference and the OpenMP backend;
#   algorithms_examples_mutations: every number of every example's results, changed one at a
#     time in a copy of the document, must make the check fail (no number goes unchecked).
csr_add_test_executable(algorithms_examples ${CMAKE_CURRENT_LIST_DIR}/examples.c)
foreach(backend ref omp)
  add_test(NAME algorithms_examples_${backend}
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_examples.py
            --doc ${PROJECT_SOURCE_DIR}/docs/algorithms.md
            --program $<TARGET_FILE:algorithms_examples> --backend ${backend}
            --tuning ${PROJECT_SOURCE_DIR}/cuda/tuning.cuh)
  set_tests_properties(algorithms_examples_${backend}
    PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
add_test(NAME algorithms_examples_mutations
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_examples.py
          --doc ${PROJECT_SOURCE_DIR}/docs/algorithms.md
          --program $<TARGET_FILE:algorithms_examples> --backend ref
          --tuning ${PROJECT_SOURCE_DIR}/cuda/tuning.cuh --mutations)
set_tests_properties(algorithms_examples_mutations
  PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 300)
