# SPDX-License-Identifier: BSD-3-Clause
# The tests of the apps' pictures (included from tests/CMakeLists.txt, OPTIONAL; only with the
# apps): apps/spy's, the convergence plot of apps/cg (apps/plot.c) and their font (apps/font.c).
#
# spy_bench: times spy_draw on a random CSR generated in memory (no file read) and recounts the
# non-empty blocks by exact division; built here, run by apps_spy_bench at small sizes and by
# hand at 100M entries (docs/spy.md).
# apps_spy_*: tests/spy/spy.sh, one ctest test per case, label apps: the command line and exit
# codes in bash, the pictures decoded in python (spy_check.py with pngread.py and glyphs.py, the
# standard library only) against patterns the tests know; 77 (python3 missing) reports skipped.
# apps_plot_*: tests/spy/plot.sh, one case each, label apps: plot_draw (plot_draw.c) draws known
# residual histories with plot_convergence, and text with the font; plot_check.py reads the
# labels, titles and line back from the pixels.
if(CSR_BUILD_APPS)
  add_executable(spy_bench ${CMAKE_CURRENT_SOURCE_DIR}/spy/spy_bench.c
                 ${PROJECT_SOURCE_DIR}/apps/spy_draw.c ${PROJECT_SOURCE_DIR}/apps/font.c
                 ${PROJECT_SOURCE_DIR}/apps/png.c
                 $<TARGET_OBJECTS:csr_app_common>)
  add_executable(plot_draw ${CMAKE_CURRENT_SOURCE_DIR}/spy/plot_draw.c
                 ${PROJECT_SOURCE_DIR}/apps/plot.c ${PROJECT_SOURCE_DIR}/apps/font.c
                 ${PROJECT_SOURCE_DIR}/apps/png.c)
  foreach(target spy_bench plot_draw)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/apps)
    target_link_libraries(${target} PRIVATE csr_static) # zlib, through the library
    target_compile_options(${target} PRIVATE ${csr_c_warnings})
    target_compile_definitions(${target} PRIVATE _POSIX_C_SOURCE=200809L)
  endforeach()

  foreach(case help usage bad_input bench decoder exact scaled blocks shades histogram rect empty
          pattern symmetric gzip edge_list stdin threads bus titles titles_large)
    add_test(NAME apps_spy_${case}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/spy/spy.sh ${case} $<TARGET_FILE_DIR:spy>
              ${PROJECT_SOURCE_DIR} $<TARGET_FILE:spy_bench>)
    set_tests_properties(apps_spy_${case} PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()

  foreach(case font decay single empty flat gaps span long)
    add_test(NAME apps_plot_${case}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/spy/plot.sh ${case} $<TARGET_FILE:plot_draw>)
    set_tests_properties(apps_plot_${case} PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()
