# SPDX-License-Identifier: BSD-3-Clause
# Tests beyond the source globs of tests/CMakeLists.txt (included from there).

# install_package: installs this build into a scratch prefix and builds tests/install/hello.c
# against it through find_package(csr) and through pkg-config, shared and static
# (tests/install/run.sh). Not in sanitizer builds: their libraries need the sanitizer runtime
# linked first into every program, which a plain consumer does not do.
if(CSR_SANITIZE)
  message(STATUS "install_package test: off in sanitizer builds")
else()
  set(csr_install_test_cuda_root "")
  if(CSR_WITH_CUDA)
    get_filename_component(csr_install_test_cuda_root "${CUDAToolkit_BIN_DIR}" DIRECTORY)
  endif()
  add_test(NAME install_package
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install/run.sh ${PROJECT_BINARY_DIR}
            ${CMAKE_CURRENT_SOURCE_DIR}/install ${CMAKE_C_COMPILER} ${CMAKE_COMMAND}
            ${csr_install_test_cuda_root})
  set_tests_properties(install_package PROPERTIES LABELS install TIMEOUT 600)
endif()

# ctest_gpu_skips: the GPU tests (gpu_*, the cuda runs of backend_*) are registered in every build
# with SKIP_RETURN_CODE 77 and, without a GPU, exit 77, so that ctest lists them as skipped
# (tests/meta/gpu_skips.py). Label unit; registered where python3 is found.
find_program(csr_python3 python3)
if(csr_python3)
  add_test(NAME ctest_gpu_skips
    COMMAND ${csr_python3} ${CMAKE_CURRENT_SOURCE_DIR}/meta/gpu_skips.py ${CMAKE_CTEST_COMMAND}
            ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
  set_tests_properties(ctest_gpu_skips PROPERTIES LABELS unit TIMEOUT 300)
endif()

# apps_*: the command-line apps (mminfo, mmconvert, spmv) through tests/apps/run.sh, one ctest
# test per case, label apps; 77 (python3 missing, it parses the JSON output) reports skipped.
if(CSR_BUILD_APPS)
  foreach(case help usage bad_input messages mminfo mmconvert mmconvert_out spmv_validate spmv_x
               spmv_copy spmv_cuda spmv_cuda_oom)
    add_test(NAME apps_${case}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apps/run.sh ${case} $<TARGET_FILE_DIR:spmv>
              ${PROJECT_SOURCE_DIR})
    set_tests_properties(apps_${case} PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
  # apps_pagerank_*: pagerank's command line and exit codes (tests/apps/pagerank.sh), and its
  # ranks against networkx and the model iterated in numpy (nx_*: tests/apps/pagerank_check.py);
  # 77 (python3 or networkx missing, ../shared absent for nx_web) reports skipped.
  foreach(case help usage bad_input cuda nx_karate nx_dangling nx_weighted nx_personalization
               nx_web)
    add_test(NAME apps_pagerank_${case}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apps/pagerank.sh ${case}
              $<TARGET_FILE_DIR:pagerank> ${PROJECT_SOURCE_DIR})
    set_tests_properties(apps_pagerank_${case}
      PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
  # apps_cg_*: cg's command line and exit codes, CG/PCG on 1138_bus, BiCGSTAB and GMRES on a
  # generated convection-diffusion matrix (JSON residuals, GMRES's restart), b files, the --history CSV and PNG, breakdown
  # and the method advised, NaN and infinity named, singular A refused, the preconditioners and
  # --method auto (tests/apps/cg.sh); 77 (python3 missing) reports skipped.
  foreach(case help usage bad_input spd progress bicgstab gmres rhs history breakdown
               bad_values singular cuda precond auto ilut)
    add_test(NAME apps_cg_${case}
      COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apps/cg.sh ${case} $<TARGET_FILE_DIR:cg>
              ${PROJECT_SOURCE_DIR})
    set_tests_properties(apps_cg_${case} PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
  # apps_mpi_*: spmv, pagerank and cg under mpiexec on 2 ranks against the same command on one
  # process (tests/apps/mpi.sh); only with the distributed layer; labels apps and mpi.
  if(CSR_WITH_MPI)
    foreach(case pagerank spmv cg errors text)
      add_test(NAME apps_mpi_${case}
        COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apps/mpi.sh ${case} $<TARGET_FILE_DIR:spmv>
                ${PROJECT_SOURCE_DIR} ${MPIEXEC_EXECUTABLE})
      set_tests_properties(apps_mpi_${case} PROPERTIES LABELS "apps;mpi" SKIP_RETURN_CODE 77
        PROCESSORS 2 TIMEOUT 300 ENVIRONMENT "${mpi_test_environment}")
    endforeach()
  endif()
  # apps_pagerank_igraph: the top 100 of cnr-2000 and web-NotreDame in igraph's order, against
  # igraph's ranking stored in tests/data/igraph (77 when ../shared is absent).
  add_test(NAME apps_pagerank_igraph
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/apps/pagerank_igraph.py
            $<TARGET_FILE_DIR:pagerank> ${PROJECT_SOURCE_DIR})
  set_tests_properties(apps_pagerank_igraph PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
  # The same on the GPU (77 without a CUDA build and a device).
  add_test(NAME apps_pagerank_igraph_cuda
    COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/apps/pagerank_igraph.py
            $<TARGET_FILE_DIR:pagerank> ${PROJECT_SOURCE_DIR} cuda)
  set_tests_properties(apps_pagerank_igraph_cuda
    PROPERTIES LABELS apps SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# mmio_example: a program in the style of NIST's example_read.c (tests/mmio_example/), written
# for mmio.h and built unchanged against libcsr (its mmio.h is a one-line shim for csr_mmio.h),
# run on the bundled sample.mtx with both of its reading styles (fscanf loop, and
# mm_read_mtx_crd_data); its output must equal sample.expected, which make_expected.py made by
# reading the file by hand in Python.
add_executable(mmio_example mmio_example/example_read.c)
target_include_directories(mmio_example PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/mmio_example)
target_link_libraries(mmio_example PRIVATE csr_static)
target_compile_options(mmio_example PRIVATE ${csr_c_warnings})
foreach(mode fscanf data)
  add_test(NAME mmio_example_${mode}
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:mmio_example> -DMODE=${mode}
            -DINPUT=${CMAKE_CURRENT_SOURCE_DIR}/mmio_example/sample.mtx
            -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/mmio_example/sample.expected
            -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/mmio_example_${mode}.out
            -P ${CMAKE_CURRENT_SOURCE_DIR}/mmio_example/run.cmake)
  set_tests_properties(mmio_example_${mode} PROPERTIES LABELS unit)
endforeach()
