# dppgemm_add_hipcc_executable(<target> SOURCE <file.cpp|.hip> [LINK <libraries or targets>...]
#                              [OPTIONS <compiler options>...] [DEPENDS <headers>...])
#
# Builds <target> the way HIP applications are built: compiled and linked by
# hipcc (which links libamdhip64). --offload-arch stops hipcc from probing for a
# GPU; gfx906 and gfx90a device code is built for sources that have kernels
# (ARCHS: other targets).
# OPTIONS replace the default optimization, -O2 (e.g. -O0 -g). DEPENDS lists
# the headers the source includes (a change rebuilds it).
# The output is ${CMAKE_CURRENT_BINARY_DIR}/<target>; a custom target of the
# same name with "-build" appended builds it with `all`.
include_guard(GLOBAL)
find_program(DPPGEMM_HIPCC hipcc REQUIRED)

function(dppgemm_add_hipcc_executable target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE" "LINK;OPTIONS;DEPENDS;ARCHS")
  if(NOT arg_OPTIONS)
    set(arg_OPTIONS -O2)
  endif()
  if(NOT arg_ARCHS)
    set(arg_ARCHS gfx906 gfx90a)
  endif()
  list(TRANSFORM arg_ARCHS PREPEND --offload-arch= OUTPUT_VARIABLE offload_archs)
  set(exe ${CMAKE_CURRENT_BINARY_DIR}/${target})
  set(link_files)
  set(link_dirs)
  set(link_targets)
  foreach(library ${arg_LINK})
    if(TARGET ${library})
      list(APPEND link_files $<TARGET_FILE:${library}>)
      list(APPEND link_dirs -Wl,-rpath,$<TARGET_FILE_DIR:${library}>)
      list(APPEND link_targets ${library})
    else()
      list(APPEND link_files ${library})
    endif()
  endforeach()
  add_custom_command(OUTPUT ${exe}
    COMMAND ${DPPGEMM_HIPCC} ${offload_archs} -std=c++17 ${arg_OPTIONS} -Wall -Wextra
            -I${PROJECT_SOURCE_DIR}/include -c ${arg_SOURCE} -o ${exe}.o
    COMMAND ${DPPGEMM_HIPCC} ${offload_archs} ${exe}.o -o ${exe} ${link_files} ${link_dirs}
    DEPENDS ${arg_SOURCE} ${arg_DEPENDS} ${link_targets}
    COMMENT "hipcc ${arg_SOURCE} -> ${target}"
    VERBATIM)
  add_custom_target(${target}-build ALL DEPENDS ${exe})
endfunction()
