# SPDX-License-Identifier: BSD-3-Clause
# The documentation's tests (included from tests/CMakeLists.txt, OPTIONAL).
#
# docs_api: every public function and type of include/*.h has a doc comment, and docs/api.md is
#   what scripts/gen_api_docs.py makes of the headers (fix: document it, then run
#   python3 scripts/gen_api_docs.py). tests/docs/undocumented.txt lists the declarations that
#   had no comment of their own when the test came; it may only shrink.
# docs_api_detects: the check above fails, naming the function, on a copy of the headers with
#   one doc comment removed, and on a stale or missing api.md (tests/docs/check_generator.py).
# docs_api_parser: the generator reads tests/docs/fixture.h (multi-line declarations, #if
#   attribute blocks, extern "C", function-like macros, nested members) as a C compiler would.
# docs_example_tour*: docs/example_tour.c, the user guide's program, built here with the
#   project's warnings and run on its built-in matrix and on matrices/1138_bus.mtx; its output
#   is checked line by line (tests/docs/check_tour.sh). tests/install/run.sh runs the same check
#   on the program built against the installed library.
# python3 missing: the docs_api tests report skipped (77).
find_program(csr_python3 python3)
if(csr_python3)
  set(csr_docs_python ${csr_python3})
else()
  set(csr_docs_python bash -c "echo 'python3 not found: skipped'; exit 77" --)
endif()

add_test(NAME docs_api
  COMMAND ${csr_docs_python} ${PROJECT_SOURCE_DIR}/scripts/gen_api_docs.py --check
          --known-undocumented ${CMAKE_CURRENT_SOURCE_DIR}/docs/undocumented.txt
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
foreach(case detects parser)
  add_test(NAME docs_api_${case}
    COMMAND ${csr_docs_python} ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_generator.py ${case}
            ${PROJECT_SOURCE_DIR}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
set_tests_properties(docs_api docs_api_detects docs_api_parser
  PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 120)

# docs_bench_results: every row of bench/results/*.csv has the header's fields (an unquoted comma
#   would shift the date column, and the plots would then show an older run as the latest).
add_test(NAME docs_bench_results
  COMMAND ${csr_docs_python} ${PROJECT_SOURCE_DIR}/bench/plot_results.py --check
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(docs_bench_results PROPERTIES LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 60)

add_executable(docs_example_tour ${PROJECT_SOURCE_DIR}/docs/example_tour.c)
target_link_libraries(docs_example_tour PRIVATE csr_static)
target_compile_options(docs_example_tour PRIVATE ${csr_c_warnings})
add_test(NAME docs_example_tour
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_tour.sh
          ${PROJECT_SOURCE_DIR}/matrices/1138_bus.mtx $<TARGET_FILE:docs_example_tour>)
set_tests_properties(docs_example_tour PROPERTIES LABELS unit TIMEOUT 120)

# docs_example_first: README's first example (docs/example_first.c) is the code README shows, and
# it prints what README says (tests/docs/check_first.sh).
add_executable(docs_example_first ${PROJECT_SOURCE_DIR}/docs/example_first.c)
target_link_libraries(docs_example_first PRIVATE csr_static)
target_compile_options(docs_example_first PRIVATE ${csr_c_warnings})
add_test(NAME docs_example_first
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_first.sh ${PROJECT_SOURCE_DIR}
          $<TARGET_FILE:docs_example_first>)
set_tests_properties(docs_example_first PROPERTIES LABELS unit TIMEOUT 60)

# docs_example_mpi: the distributed guide's program (docs/example_mpi.c), built against libcsr_mpi
#   and run on 1 and on 3 ranks: both print the same PCG iterations and residual, digit for digit.
if(CSR_WITH_MPI)
  add_executable(docs_example_mpi ${PROJECT_SOURCE_DIR}/docs/example_mpi.c)
  target_link_libraries(docs_example_mpi PRIVATE csr_mpi_static)
  target_compile_options(docs_example_mpi PRIVATE ${csr_c_warnings})
  add_test(NAME docs_example_mpi
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_mpi.sh ${MPIEXEC_EXECUTABLE}
            $<TARGET_FILE:docs_example_mpi> matrices/1138_bus.mtx
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(docs_example_mpi PROPERTIES LABELS "unit;mpi" TIMEOUT 120
    ENVIRONMENT "${mpi_test_environment}")
endif()
