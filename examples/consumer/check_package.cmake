# The package test: install the build tree into a fresh prefix, check that
# nothing installed points back into the build or source tree, then build and
# run examples/consumer (copied out of the source tree) against the prefix.
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<source> -DWORK_DIR=<scratch> -DGENERATOR=<generator> -P check_package.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT ${var})
    message(FATAL_ERROR "check_package.cmake: ${var} is not set")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# An installed file that names the build or source tree would break once they are gone.
function(fail_if_it_names_a_tree what text)
  foreach(tree ${BUILD_DIR} ${SOURCE_DIR})
    string(FIND "${text}" "${tree}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${what} refers to ${tree}:\n${text}")
    endif()
  endforeach()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

file(GLOB_RECURSE installed_libraries ${prefix}/*.so*)
file(GLOB_RECURSE installed_cmake_files ${prefix}/*.cmake)
if(NOT installed_libraries)
  message(FATAL_ERROR "no shared library installed under ${prefix}")
endif()
foreach(library ${installed_libraries})
  if(NOT IS_SYMLINK ${library})
    run("readelf -d ${library}" readelf -d ${library})
    fail_if_it_names_a_tree("${library}" "${run_output}")
  endif()
endforeach()
foreach(file ${installed_cmake_files})
  file(READ ${file} text)
  fail_if_it_names_a_tree("${file}" "${text}")
endforeach()

# Each installed library and tool loads from the prefix alone: everything it
# needs from the prefix is found through a $ORIGIN-relative RUNPATH.
set(installed_programs ${prefix}/bin/dppgemm-emu ${prefix}/bin/dppgemm-bench)
foreach(file ${installed_libraries} ${installed_programs})
  if(IS_SYMLINK ${file})
    continue()
  endif()
  run("readelf -d ${file}" readelf -d ${file})
  string(REGEX MATCH "libdppgemm[^]]*" needs_prefix_library "${run_output}")
  string(FIND "${run_output}" "Library runpath: [$ORIGIN" origin_runpath)
  if(needs_prefix_library AND origin_runpath EQUAL -1)
    message(FATAL_ERROR "${file} needs ${needs_prefix_library} but has no $ORIGIN RUNPATH:\n${run_output}")
  endif()
endforeach()
file(GLOB blas_library ${prefix}/lib*/libdppgemm-blas.so)
list(GET blas_library 0 blas_library)
run("LD_PRELOAD=${blas_library} true" ${CMAKE_COMMAND} -E env LD_PRELOAD=${blas_library} true)

# The installed tools, run from outside the build tree.
file(GLOB code_object ${prefix}/lib*/dppgemm/code-objects/gfx906/dppgemm_sgemm_dpp2_NN.co)
run("installed dppgemm-emu info" ${prefix}/bin/dppgemm-emu info ${code_object})
if(NOT run_output MATCHES "dppgemm_sgemm_dpp2_NN" OR run_output MATCHES "STT_FUNC")
  message(FATAL_ERROR "installed dppgemm-emu info:\n${run_output}")
endif()
run("installed dppgemm-bench" ${prefix}/bin/dppgemm-bench -m 64 -n 64 -k 16 --backend emu --variant dpp2)
message("installed tools: dppgemm-emu info and dppgemm-bench ran")

file(COPY ${SOURCE_DIR}/examples/consumer/CMakeLists.txt ${SOURCE_DIR}/examples/consumer/consumer.cpp
     ${SOURCE_DIR}/examples/consumer/consumer_blas.cpp ${SOURCE_DIR}/examples/consumer/consumer_hipemu.cpp
     DESTINATION ${WORK_DIR}/consumer)
run("configuring the consumer" ${CMAKE_COMMAND} -S ${WORK_DIR}/consumer -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("running the consumer" ${WORK_DIR}/build/dppgemm-consumer)
message("${run_output}")
run("running the BLAS consumer" ${CMAKE_COMMAND} -E env DPPGEMM_BLAS_THRESHOLD=0 DPPGEMM_BLAS_BACKEND=emu
    ${WORK_DIR}/build/dppgemm-consumer-blas)
message("${run_output}")
run("running the hipemu consumer" ${WORK_DIR}/build/dppgemm-consumer-hipemu)
message("${run_output}")
