# apps/spy's tests (included from tests/CMakeLists.txt, OPTIONAL; only with the apps).
#
# spy_bench: times spy_draw on a random CSR generated in memory (no file read) and recounts the
# non-empty blocks by exact division; built here, run by apps_spy_bench at small sizes and by
# hand at 100M entries (docs/spy.md).
# apps_spy_*: tests/spy/spy.sh, one ctest test per case, label apps: the command line and exit
# codes in bash, the pictures decoded in python (spy_check.py with pngread.py, the standard
# library only) against patterns the tests know; 77 (python3 missing) reports skipped.
if(CSR_BUILD_APPS)
  add_executable(spy_bench ${CMAKE_CURRENT_SOURCE_DIR}/spy/spy_bench.c
                 ${PROJECT_SOURCE_DIR}/apps/spy_draw.c ${PROJECT_SOURCE_DIR}/apps/spy_font.c
                 ${PROJECT_SOURCE_DIR}/apps/png.c
                 $<TARGET_OBJECTS:csr_app_common>)
  target_include_directories(spy_bench PRIVATE ${PROJECT_SOURCE_DIR}/apps)
  target_link_libraries(spy_bench PRIVATE csr_static)
  target_compile_options(spy_bench PRIVATE ${csr_c_warnings})
  target_compile_definitions(spy_bench PRIVATE _POSIX_C_SOURCE=200809L)

  foreach(case help usage bad_input bench decoder exact scaled blocks shades histogram rect empty
          pattern symmetric gzip edge_list stdin threads bus)
    add_test(NAME apps_spy_${case}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/spy/spy.sh ${case} $<TARGET_FILE_DIR:spy>
              ${PROJECT_SOURCE_DIR} $<TARGET_FILE:spy_bench>)
    set_tests_properties(apps_spy_${case} PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()
